/* test_banks03.c: assignment 03's shared-memory bank model (judge/banks.c), the one the
 * model program and the lecture's figures count conflicts with: 32 banks of 4-byte words,
 * lanes reading one word broadcast, inactive lanes (-1) take no part. */
#include "banks.h"
#include "tests.h"

/* A warp reading words at stride s has gcd(s, 32)-way conflicts. */
START_TEST(test_banks_strides) {
  for (int s = 0; s <= 96; s++) {
    int words[BANK_WARP];
    for (int l = 0; l < BANK_WARP; l++) words[l] = l * s + 7;
    int g = 32, a = s;
    while (a) { int r = g % a; g = a; a = r; } /* gcd(s, 32); gcd(0, 32) = 32 */
    int want = s == 0 ? 1 : g;                  /* stride 0: one word, broadcast */
    ck_assert_msg(bank_ways(words, NULL) == want, "stride %d: %d-way, want %d", s, bank_ways(words, NULL), want);
  }
}
END_TEST

START_TEST(test_banks_inactive_and_broadcast) {
  int words[BANK_WARP];
  for (int l = 0; l < BANK_WARP; l++) words[l] = -1;
  ck_assert_int_eq(bank_ways(words, NULL), 0); /* no active lane */
  words[3] = 64, words[9] = 64, words[20] = 96, words[31] = 5;
  int bank = -1;
  ck_assert_int_eq(bank_ways(words, &bank), 2); /* 64 twice is one word; 64 and 96 share bank 0 */
  ck_assert_int_eq(bank, 0);
}
END_TEST

Suite *banks03_suite(void) {
  Suite *s = suite_create("banks03");
  TCase *t = tcase_create("model");
  tcase_add_test(t, test_banks_strides);
  tcase_add_test(t, test_banks_inactive_and_broadcast);
  suite_add_tcase(s, t);
  return s;
}
