/* test_json.c: the JSON writer, read back by a real parser (jansson). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tests.h"

/* Strings that break naive writers: quotes, backslashes, newlines, control
 * characters, non-ASCII, and bytes that are not UTF-8 at all. */
static const char *const NASTY[] = {
    "plain",
    "say \"hi\"",
    "back\\slash",
    "line1\nline2\r\n\ttabbed",
    "bell\a and escape\033[31m",
    "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80",
    "bad utf8 \xff\xfe end",
    "truncated \xe2\x9c",
    "overlong \xc0\xaf",
    "",
};

START_TEST(test_json_strings_roundtrip) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  jw_writer w;
  jw_begin(&w, f);
  jw_object_open(&w, NULL);
  jw_array_open(&w, "strings");
  for (size_t i = 0; i < sizeof NASTY / sizeof *NASTY; i++) jw_string(&w, NULL, NASTY[i]);
  jw_array_close(&w);
  jw_string(&w, "key with \"quotes\"\n", "v");
  jw_number(&w, "n", 1.5);
  jw_number(&w, "nan", 0.0 / 0.0);
  jw_bool(&w, "t", 1);
  jw_object_open(&w, "empty");
  jw_object_close(&w);
  jw_object_close(&w);
  fclose(f);

  json_error_t e;
  json_t *root = json_loads(buf, 0, &e);
  ck_assert_msg(root != NULL, "not valid JSON: %s at line %d\n%s", e.text, e.line, buf);
  json_t *arr = json_object_get(root, "strings");
  ck_assert_int_eq(json_array_size(arr), sizeof NASTY / sizeof *NASTY);
  /* Valid UTF-8 comes back byte for byte. */
  for (size_t i = 0; i < 6; i++) ck_assert_str_eq(json_string_value(json_array_get(arr, i)), NASTY[i]);
  /* Invalid bytes become U+FFFD, the rest survives. */
  const char *bad = json_string_value(json_array_get(arr, 6));
  ck_assert(strstr(bad, "bad utf8 ") == bad && strstr(bad, "\xef\xbf\xbd") && strstr(bad, " end"));
  ck_assert_str_eq(json_string_value(json_object_get(root, "key with \"quotes\"\n")), "v");
  ck_assert(json_is_null(json_object_get(root, "nan")));
  ck_assert(json_is_true(json_object_get(root, "t")));
  ck_assert_double_eq(json_number_value(json_object_get(root, "n")), 1.5);
  json_decref(root);
  free(buf);
}
END_TEST

Suite *json_suite(void) {
  Suite *s = suite_create("json");
  TCase *t = tcase_create("writer");
  tcase_add_test(t, test_json_strings_roundtrip);
  suite_add_tcase(s, t);
  return s;
}
