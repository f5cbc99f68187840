/* test_worked.c: the worked examples of the lectures, computed (issue 33 item
 * 3). Each test reads the numbers out of the text, found by a phrase next to
 * them (worked_support.c), and computes them again with the course's own
 * functions (banks.c's bank_ways, scan_cpu.c) or with the formula the text
 * states. So a change of a figure in the text, or of the function behind it,
 * fails here. When a phrase is gone, the test says which: the example moved or
 * was rewritten, and this file must follow it. A handout's worked examples,
 * and a lecture's that run an assignment's build, are that assignment's own
 * tests (assignments/NN/tests/).
 *
 * What is checked:
 *   lecture 03: the stride table (bank_ways), the 32 x 32 tile's column, the
 *     33-word rows and the XOR swizzle, the 16-bank offset's example (word 34,
 *     bank 2), which steps that offset leaves 2-way on 32 banks;
 *   lecture 01: the inclusive/exclusive table and the Hillis-Steele steps;
 *   lecture 02: the Hillis-Steele table and its additions, the exclusive scan
 *     by shifting, the Blelloch table and its additions, the work counts and
 *     Brent's bounds;
 *   lecture 06: the compaction table (scan_cpu's exclusive scan of the flags)
 *     and the compaction's bytes against the copy's;
 *   lecture 05: the hierarchical scan's napkin math (levels, launches, the
 *     bytes of four passes over the array), the copy's bytes at 2^24, and the
 *     rule of thumb's 4n. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banks.h"
#include "scan_cpu.h"
#include "tests.h"
#include "worked.h"

/* ---------------------------------------------------------------- banks */

/* Lecture 03 section 3's table: the passes of a warp access at each stride
 * (lane l, word l * s) are what bank_ways counts. */
START_TEST(test_03_lecture_stride_table) {
  const char *F = "lectures/03-shared-memory-banks.md";
  char *t = text_of(F);
  const char *s = after_phrase(F, t, "| stride `s` |");
  const char *p = after_phrase(F, s, "| passes |");
  int strides = 0;
  while (1) {
    while (*s == ' ' || *s == '|') s++;
    while (*p == ' ' || *p == '|') p++;
    if (*s == '\n' || *p == '\n' || !*s || !*p) break;
    long stride = int_at(F, s, "a stride"), passes = int_at(F, p, "its passes");
    ck_assert_msg(stride_ways((int)stride, 0) == passes, "%s: stride %ld takes %d passes by bank_ways, the table says %ld", F,
                  stride, stride_ways((int)stride, 0), passes);
    strtol(s, (char **)&s, 10);
    strtol(p, (char **)&p, 10);
    strides++;
  }
  ck_assert_msg(strides >= 8, "%s: only %d strides read from the table", F, strides);
  free(t);
}
END_TEST

/* Lecture 03 section 5: a column of float tile[32][32] ("stride 32, 32-way"),
 * a column and a row of tile[32][33] (every bank once), and the XOR swizzle
 * (columns and rows conflict-free). */
START_TEST(test_03_lecture_tiles) {
  const char *F = "lectures/03-shared-memory-banks.md";
  char *t = text_of(F);
  const char *p = after_phrase(F, t, "with `float tile[32][32]` a column is stride ");
  long stride = int_at(F, p, "the column's stride");
  ck_assert_int_eq(stride, 32);
  strtol(p, (char **)&p, 10);
  ck_assert_msg(!strncmp(p, ", ", 2), "%s: no ', N-way' after the column's stride", F);
  long ways = int_at(F, p + 2, "the column's ways");
  ck_assert_msg(stride_ways(32, 0) == ways, "%s: a column of tile[32][32] is %d-way, the text says %ld", F, stride_ways(32, 0),
                ways);
  find_phrase(F, t, "`float tile[32][33]` element `(r, c)` is word `33 r + c`");
  find_phrase(F, t, "covers all 32 banks and a row still does");
  for (int c = 0; c < 32; c++) ck_assert_int_eq(stride_ways(33, c), 1); /* columns of the padded tile */
  for (int r = 0; r < 32; r++) ck_assert_int_eq(stride_ways(1, 33 * r), 1);
  find_phrase(F, t, "column\n`c XOR r` of row `r`");
  int w[BANK_WARP];
  for (int c = 0; c < 32; c++) {
    for (int r = 0; r < 32; r++) w[r] = 32 * r + (c ^ r); /* column c: lane r reads row r */
    ck_assert_int_eq(bank_ways(w, NULL), 1);
    for (int l = 0; l < 32; l++) w[l] = 32 * c + (l ^ c); /* row c */
    ck_assert_int_eq(bank_ways(w, NULL), 1);
  }
  free(t);
}
END_TEST

/* Lecture 03 section 6: a 16 x 16 transpose tile padded for 16 banks, `float
 * tile[16][17]`, read down its columns by 16 x 16 threads: thread (x, y) reads
 * word 17x + y. Each half-warp (one row of threads, y fixed) is conflict-free
 * on 16 banks; each warp (rows y and y + 1) is 2-way on 32 banks, thread (0, y)
 * and thread (15, y + 1) sharing a bank, 256 words apart. */
START_TEST(test_03_lecture_tile16) {
  const char *F = "lectures/03-shared-memory-banks.md";
  char *t = text_of(F);
  find_phrase(F, t, "16 x 16 tiles in `float tile[16][17]`");
  find_phrase(F, t, "Thread `(x, y)` reads `tile[x][y]`, word `17x + y`.");
  const char *p = after_phrase(F, t, "reads word `255 + y + 1 = ");
  long far = int_at(F, p, "the far word's offset");
  ck_assert_int_eq(far, 17 * 15 + 1);
  p = after_phrase(F, p, "which is ");
  ck_assert_int_eq(int_at(F, p, "the distance in words"), far);
  ck_assert_int_eq(far % BANK_COUNT, 0);
  p = after_phrase(F, p, "and the column read is ");
  long said = int_at(F, p, "the column read's ways");
  for (int y = 0; y < 16; y += 2) { /* warp y / 2 of the block: rows y and y + 1 */
    int w[BANK_WARP], used16[16] = {0}, ways16 = 0;
    for (int l = 0; l < BANK_WARP; l++) w[l] = 17 * (l % 16) + y + l / 16;
    for (int l = 0; l < 16; l++) { /* the first half-warp on 16 banks */
      int b = w[l] % 16;
      if (++used16[b] > ways16) ways16 = used16[b];
    }
    ck_assert_msg(ways16 == 1, "%s: half-warp of row %d is %d-way on 16 banks", F, y, ways16);
    ck_assert_msg(bank_ways(w, NULL) == said, "%s: the warp of rows %d and %d is %d-way on 32 banks, the text says %ld", F,
                  y, y + 1, bank_ways(w, NULL), said);
  }
  free(t);
}
END_TEST

/* ---------------------------------------------------------------- scan tables */

/* Checks n values of a row against want; what names the row. */
static void same_row(const char *file, const char *what, const long *got, int n_got, const int32_t *want, int n) {
  ck_assert_msg(n_got == n, "%s: the row '%s' has %d numbers, not %d", file, what, n_got, n);
  for (int i = 0; i < n; i++)
    ck_assert_msg(got[i] == want[i], "%s: row '%s', position %d: the text says %ld, the computation %d", file, what, i, got[i],
                  want[i]);
}

/* One Hillis-Steele step at offset k on n values: returns the additions. */
static int hs_step(int32_t *v, int n, int k) {
  int32_t old[64];
  memcpy(old, v, (size_t)n * sizeof *v);
  for (int t = k; t < n; t++) v[t] = old[t] + old[t - k];
  return n - k > 0 ? n - k : 0;
}

/* The note of a row (table_row()'s *note) up to the end of its line, in buf. */
static const char *note_line(const char *note, char *buf, size_t cap) {
  size_t n = strcspn(note, "\n");
  if (n >= cap) n = cap - 1;
  memcpy(buf, note, n);
  buf[n] = 0;
  return buf;
}

/* The number of additions a row's note states: its first integer after
 * `lead` ("" for the note's start). */
static long note_count(const char *file, const char *note, const char *lead, const char *what) {
  char buf[256];
  note_line(note, buf, sizeof buf);
  const char *p = *lead ? strstr(buf, lead) : buf;
  ck_assert_msg(p != NULL, "%s: the note of %s has no '%s': '%s'", file, what, lead, buf);
  return int_at(file, p + strlen(lead), what);
}

/* Lecture 01 section 1: the inclusive and exclusive scans of the table's input
 * (scan_cpu), and the Hillis-Steele steps k = 1, 2, 4, whose last is the
 * inclusive scan. */
START_TEST(test_01_lecture_scan_tables) {
  const char *F = "lectures/01-scan-and-warps.md";
  char *t = text_of(F);
  long in[16], in2[16], got[16];
  int32_t x[8], want[8];
  const char *first = find_phrase(F, t, "input 3 1 4 1 5 9 2 6\ninclusive");
  char *b = block_from(first);
  ck_assert_int_eq(table_row(F, b, "input", in, 16, NULL), 8);
  for (int i = 0; i < 8; i++) x[i] = (int32_t)in[i];
  scan_cpu_i32(x, want, 8, 0, SCAN_INCLUSIVE);
  same_row(F, "inclusive", got, table_row(F, b, "inclusive", got, 16, NULL), want, 8);
  scan_cpu_i32(x, want, 8, 0, SCAN_EXCLUSIVE);
  same_row(F, "exclusive", got, table_row(F, b, "exclusive", got, 16, NULL), want, 8);
  free(b);
  b = block_from(find_phrase(F, first + 1, "input 3 1 4 1 5 9 2 6\nk = 1"));
  ck_assert_int_eq(table_row(F, b, "input", in2, 16, NULL), 8);
  ck_assert_msg(!memcmp(in, in2, 8 * sizeof *in), "%s: the Hillis-Steele table has another input", F);
  memcpy(want, x, sizeof want);
  for (int k = 1; k < 8; k <<= 1) {
    char label[16];
    snprintf(label, sizeof label, "k = %d", k);
    hs_step(want, 8, k);
    same_row(F, label, got, table_row(F, b, label, got, 16, NULL), want, 8);
  }
  int32_t inc[8];
  scan_cpu_i32(x, inc, 8, 0, SCAN_INCLUSIVE);
  ck_assert(!memcmp(inc, want, sizeof inc));
  free(b);
  free(t);
}
END_TEST

/* Lecture 02: section 2's Hillis-Steele table (each step, its additions n - k,
 * the last step the inclusive scan, "That is 17 for the 8 elements"), section
 * 2.3's exclusive scan by shifting (scan_cpu), and section 4's Blelloch table
 * (each up- and down-sweep step, its pairs' additions, the total, the
 * exclusive scan in the last row). */
START_TEST(test_02_lecture_scan_tables) {
  char F[256];
  lecture_path("02", F, sizeof F);
  char *t = text_of(F);
  long in[16], in2[16], got[16];
  int32_t x[8], v[8], want[8];
  const char *note;
  /* Hillis-Steele */
  const char *hs = find_phrase(F, t, "## 2. Hillis-Steele");
  char *b = block_from(find_phrase(F, hs, "position 0 1 2 3 4 5 6 7\ninput"));
  ck_assert_int_eq(table_row(F, b, "input", in, 16, NULL), 8);
  for (int i = 0; i < 8; i++) x[i] = (int32_t)in[i];
  memcpy(v, x, sizeof v);
  int total_adds = 0;
  for (int k = 1; k < 8; k <<= 1) {
    char label[16];
    snprintf(label, sizeof label, "k = %d", k);
    int adds = hs_step(v, 8, k);
    total_adds += adds;
    same_row(F, label, got, table_row(F, b, label, got, 16, &note), v, 8);
    ck_assert_msg(note_count(F, note, "", label) == adds, "%s: step %s makes %d additions", F, label, adds);
  }
  scan_cpu_i32(x, want, 8, 0, SCAN_INCLUSIVE);
  ck_assert(!memcmp(v, want, sizeof v));
  free(b);
  const char *p = after_phrase(F, find_phrase(F, hs, "**Counting the work.**"), "That is ");
  ck_assert_msg(int_at(F, p, "the additions of the 8 elements") == total_adds, "%s: 'That is %ld for the 8 elements', not %d",
                F, strtol(p, NULL, 10), total_adds);
  /* The exclusive scan: the inclusive steps on the shifted input. */
  b = block_from(find_phrase(F, t, "shifted input"));
  int32_t shifted[8] = {0};
  for (int i = 1; i < 8; i++) shifted[i] = x[i - 1];
  same_row(F, "shifted input", got, table_row(F, b, "shifted input", got, 16, NULL), shifted, 8);
  for (int k = 1; k < 8; k <<= 1) hs_step(shifted, 8, k);
  scan_cpu_i32(x, want, 8, 0, SCAN_EXCLUSIVE);
  ck_assert(!memcmp(shifted, want, sizeof want));
  same_row(F, "after k = 4", got, table_row(F, b, "after k = 4", got, 16, &note), want, 8);
  char buf[256], spelled[64] = "";
  for (int i = 0; i < 8; i++) snprintf(spelled + strlen(spelled), sizeof spelled - strlen(spelled), i ? " %d" : "%d", x[i]);
  ck_assert_msg(strstr(note_line(note, buf, sizeof buf), spelled), "%s: the exclusive row names another input than %s: '%s'", F,
                spelled, buf);
  free(b);
  /* Blelloch */
  const char *bl = find_phrase(F, t, "## 4. Blelloch");
  b = block_from(find_phrase(F, bl, "position 0 1 2 3 4 5 6 7\ninput"));
  ck_assert_int_eq(table_row(F, b, "input", in2, 16, NULL), 8);
  ck_assert_msg(!memcmp(in, in2, 8 * sizeof *in), "%s: the Blelloch table has another input", F);
  memcpy(v, x, sizeof v);
  int up_adds = 0, down_adds = 0;
  for (int s = 1; s < 8; s <<= 1) {
    int adds = 0;
    for (int pair = 0; pair < 8 / (2 * s); pair++, adds++) {
      int r = s * (2 * pair + 2) - 1;
      v[r] += v[r - s];
    }
    up_adds += adds;
    char label[16];
    snprintf(label, sizeof label, "up   s = %d", s);
    same_row(F, label, got, table_row(F, b, label, got, 16, &note), v, 8);
    ck_assert_msg(note_count(F, note, ": ", label) == adds, "%s: %s makes %d additions", F, label, adds);
  }
  table_row(F, b, "up   s = 4", got, 16, &note);
  note_line(note, buf, sizeof buf);
  const char *tot = strstr(buf, " is the total");
  ck_assert_msg(tot != NULL, "%s: no total at up s = 4: '%s'", F, buf);
  const char *n = tot;
  while (n > buf && n[-1] >= '0' && n[-1] <= '9') n--;
  ck_assert_msg(strtol(n, NULL, 10) == v[7], "%s: the total is %d: '%s'", F, v[7], buf);
  v[7] = 0;
  same_row(F, "clear root", got, table_row(F, b, "clear root", got, 16, NULL), v, 8);
  for (int s = 4; s >= 1; s >>= 1) {
    int adds = 0;
    for (int pair = 0; pair < 8 / (2 * s); pair++, adds++) {
      int r = s * (2 * pair + 2) - 1, l = r - s;
      int32_t left = v[l];
      v[l] = v[r];
      v[r] += left;
    }
    down_adds += adds;
    char label[16];
    snprintf(label, sizeof label, "down s = %d", s);
    same_row(F, label, got, table_row(F, b, label, got, 16, &note), v, 8);
    ck_assert_msg(note_count(F, note, ": ", label) == adds, "%s: %s makes %d additions", F, label, adds);
  }
  ck_assert(!memcmp(v, want, sizeof want)); /* "The last row is the exclusive scan of section 2.3" */
  find_phrase(F, bl, "The last row is the exclusive scan of section 2.3");
  ck_assert_int_eq(up_adds, 8 - 1);
  ck_assert_int_eq(down_adds, 8 - 1);
  free(b);
  free(t);
}
END_TEST

/* Lecture 02 section 1: the work and depth figures and Brent's bound W / p + D
 * ("about" a whole number) of the table, and of a warp's 32 values: Hillis-
 * Steele n log2 n - n + 1 additions in log2 n steps, Blelloch 2(n - 1) in
 * 2 log2 n, the loop n - 1 in n - 1. */
START_TEST(test_02_lecture_work_and_bounds) {
  char F[256];
  lecture_path("02", F, sizeof F);
  char *t = text_of(F);
  const char *tab = find_phrase(F, t, "| n = 1024 | work `W` | depth `D` | bound with `p = 1024` | bound with `p = 32` |");
  static const struct {
    const char *label;
    long w, d;
  } ROWS[] = {
      {"| sequential loop |", 1023, 1023},
      {"| Hillis-Steele |", 1024 * 10 - 1024 + 1, 10},
      {"| Blelloch |", 2 * (1024 - 1), 20},
  };
  for (size_t r = 0; r < sizeof ROWS / sizeof *ROWS; r++) {
    const char *p = after_phrase(F, tab, ROWS[r].label);
    long w = int_at(F, p, "W");
    p = strchr(p, '|') + 1;
    long d = int_at(F, p, "D");
    ck_assert_msg(w == ROWS[r].w && d == ROWS[r].d, "%s: %s W %ld D %ld, the formulas give %ld and %ld", F, ROWS[r].label, w, d,
                  ROWS[r].w, ROWS[r].d);
    for (int k = 0; k < 2; k++) {
      double pr = k ? 32 : 1024;
      p = after_phrase(F, strchr(p, '|'), "about ");
      long bound = int_at(F, p, "a bound");
      ck_assert_msg(lround((double)w / pr + (double)d) == bound, "%s: %s: W / p + D at p = %g is %.2f, the text says about %ld",
                    F, ROWS[r].label, pr, (double)w / pr + (double)d, bound);
    }
  }
  /* The prose's figures. */
  const char *p = after_phrase(F, t, "Hillis-Steele\nscans 1024 values with ");
  ck_assert_int_eq(int_at(F, p, "HS additions"), 9217);
  p = after_phrase(F, p, "additions in ");
  ck_assert_int_eq(int_at(F, p, "HS steps"), 10);
  p = after_phrase(F, p, "Blelloch needs ");
  ck_assert_int_eq(int_at(F, p, "Blelloch additions"), 2046);
  p = after_phrase(F, p, "additions\nin ");
  ck_assert_int_eq(int_at(F, p, "Blelloch steps"), 20);
  /* A warp: 32 values, 32 lanes. */
  const long hs_w = 32 * 5 - 32 + 1, hs_d = 5, bl_w = 2 * 31, bl_d = 10;
  p = after_phrase(F, t, "Hillis-Steele makes ");
  ck_assert_int_eq(int_at(F, p, "warp HS additions"), hs_w);
  p = after_phrase(F, p, "additions in ");
  ck_assert_int_eq(int_at(F, p, "warp HS steps"), hs_d);
  p = after_phrase(F, p, "(a bound of about ");
  ck_assert_int_eq(int_at(F, p, "warp HS bound"), lround((double)hs_w / 32 + hs_d));
  p = after_phrase(F, p, "Blelloch ");
  ck_assert_int_eq(int_at(F, p, "warp Blelloch additions"), bl_w);
  p = after_phrase(F, p, " in ");
  ck_assert_int_eq(int_at(F, p, "warp Blelloch steps"), bl_d);
  p = after_phrase(F, p, "(about ");
  ck_assert_int_eq(int_at(F, p, "warp Blelloch bound"), lround((double)bl_w / 32 + bl_d));
  p = after_phrase(F, t, "9217 for `n = 1024` against ");
  ck_assert_int_eq(int_at(F, p, "the loop's additions"), 1023);
  free(t);
}
END_TEST

/* Lecture 06 section 1's filter: the flags of "key < B", their exclusive scan
 * (scan_cpu) and its total, and the kept keys in order. */
START_TEST(test_06_lecture_compaction_table) {
  const char *F = "lectures/06-applications.md";
  char *t = text_of(F);
  char *b = block_from(find_phrase(F, t, "index 0 1 2 3 4 5 6 7\nkey"));
  long key[16], flag[16], ex[16], out[16];
  const char *note;
  char buf[256];
  int n = table_row(F, b, "key", key, 16, NULL);
  ck_assert_int_ge(n, 4);
  int nf = table_row(F, b, "flag", flag, 16, &note);
  const char *cut = strstr(note_line(note, buf, sizeof buf), "kept (key < ");
  ck_assert_msg(cut != NULL, "%s: the flag row does not say what is kept: '%s'", F, buf);
  long bound = int_at(F, cut + 12, "the filter's bound");
  int32_t f[16], want[16], kept[16];
  int k = 0;
  for (int i = 0; i < n; i++) {
    f[i] = key[i] < bound;
    if (f[i]) kept[k++] = (int32_t)key[i];
  }
  same_row(F, "flag", flag, nf, f, n);
  scan_cpu_i32(f, want, (size_t)n, 0, SCAN_EXCLUSIVE);
  same_row(F, "exclusive", ex, table_row(F, b, "exclusive", ex, 16, &note), want, n);
  const char *total = strstr(note_line(note, buf, sizeof buf), "the total is ");
  ck_assert_msg(total != NULL, "%s: the exclusive row states no total: '%s'", F, buf);
  ck_assert_msg(int_at(F, total + 13, "the total") == want[n - 1] + f[n - 1], "%s: the total is %d", F, want[n - 1] + f[n - 1]);
  same_row(F, "out", out, table_row(F, b, "out", out, 16, NULL), kept, k);
  free(b);
  free(t);
}
END_TEST

/* ---------------------------------------------------------------- traffic */

/* Lecture 05 section 3's napkin math: at 2^e elements in tiles of T the levels
 * have 2^e / T, then / T again, then one tile; 2 + 2 + 1 launches; the first
 * level's two kernels each read and write the array, so its bytes cross device
 * memory four times: X GiB of traffic for a Y GiB array (Y = 4 * 2^e bytes,
 * X = 4 Y); the deeper levels add less than the quoted percent. Section 1: the
 * copy at 2^24 moves 2 * 4 * 2^24 bytes. Section 10: hierarchical moves 4n. */
START_TEST(test_05_lecture_traffic) {
  const char *F = "lectures/05-large-scans.md";
  char *t = text_of(F);
  const char *p = after_phrase(F, t, "Napkin math, at 2^");
  long e = int_at(F, p, "the size's exponent");
  p = after_phrase(F, p, "in tiles of ");
  long tile = int_at(F, p, "the tile");
  p = after_phrase(F, p, "level 1 has 2^");
  long e1 = int_at(F, p, "level 1's tiles");
  p = after_phrase(F, p, "level 2 has ");
  long l2 = int_at(F, p, "level 2's tiles");
  long n = 1L << e, tiles1 = (n + tile - 1) / tile, tiles2 = (tiles1 + tile - 1) / tile, tiles3 = (tiles2 + tile - 1) / tile;
  ck_assert_msg(tiles1 == 1L << e1 && tiles2 == l2 && tiles3 == 1, "%s: levels of %ld, %ld, %ld tiles, the text says 2^%ld, %ld, one",
                F, tiles1, tiles2, tiles3, e1, l2);
  find_phrase(F, p, "level 3 has one");
  p = after_phrase(F, p, "That is 2 + 2 + 1 = ");
  ck_assert_int_eq(int_at(F, p, "the launches"), 5);
  p = after_phrase(F, p, "cross device memory **");
  int passes = word_number(p);
  ck_assert_msg(passes == 4, "%s: the first level's two kernels each read and write the array: 4 passes, the text says %.8s", F,
                p);
  p = after_phrase(F, p, "times (");
  long traffic = int_at(F, p, "the traffic in GiB");
  p = after_phrase(F, p, "GiB of traffic for\na ");
  long array = int_at(F, p, "the array in GiB");
  double gib = (double)n * 4 / (1 << 30);
  ck_assert_msg(array == gib, "%s: 2^%ld ints are %g GiB, the text says %ld", F, e, gib, array);
  ck_assert_msg(traffic == passes * array, "%s: %d passes over a %ld GiB array are %ld GiB of traffic, the text says %ld GiB", F,
                passes, array, passes * array, traffic);
  p = after_phrase(F, p, "the deeper levels add less than ");
  double pct = strtod(p, NULL);
  double deeper = 100.0 * (double)(tiles1 + tiles2) / (double)n;
  ck_assert_msg(pct > 0 && deeper < pct, "%s: the deeper levels add %.3f %%, the text says less than %g %%", F, deeper, pct);
  /* The copy at 2^24: reads and writes 2^24 ints. */
  p = after_phrase(F, t, "At 2^24 the copy moves ");
  ck_assert_int_eq(int_at(F, p, "the copy's MiB"), 2L * 4 * (1L << 24) / (1L << 20));
  /* Rules of thumb: "Hierarchical moves 4n". */
  p = after_phrase(F, t, "Hierarchical moves ");
  ck_assert_int_eq(int_at(F, p, "hierarchical's bytes in n"), passes);
  free(t);
}
END_TEST

/* Lecture 06, "What it should cost": the scan version moves (2n + k) 4 bytes,
 * the copy 2n 4 bytes, so at a fraction f kept the ratio is (2 + f) / 2: each
 * "P % ... R times" of the paragraph. */
START_TEST(test_06_lecture_compaction_bytes) {
  const char *F = "lectures/06-applications.md";
  char *t = text_of(F);
  const char *start = find_phrase(F, t, "(2n + k) * 4 bytes");
  find_phrase(F, start, "moves 2n * 4 bytes");
  char *para = block_from(start);
  char *end = strstr(para, "\n\n");
  if (end) *end = 0;
  regex_t re;
  ck_assert_int_eq(regcomp(&re, "([0-9]+) %[^0-9]*([0-9]+\\.[0-9]+) times", REG_EXTENDED), 0);
  int ratios = 0;
  regmatch_t m[3];
  for (const char *p = para; !regexec(&re, p, 3, m, 0); p += m[0].rm_eo) {
    double f = strtod(p + m[1].rm_so, NULL) / 100;
    ck_assert_msg(same_at_quoted_rounding(p + m[2].rm_so, (2 + f) / 2), "%s: at %g %% kept the ratio is %.3f, the text says %.5s",
                  F, 100 * f, (2 + f) / 2, p + m[2].rm_so);
    ratios++;
  }
  regfree(&re);
  ck_assert_msg(ratios >= 3, "%s: only %d ratios found after '(2n + k) * 4 bytes'", F, ratios);
  free(para);
  free(t);
}
END_TEST

Suite *worked_suite(void) {
  Suite *s = suite_create("worked");
  TCase *b = tcase_create("banks");
  tcase_set_timeout(b, 60);
  tcase_add_test(b, test_03_lecture_stride_table);
  tcase_add_test(b, test_03_lecture_tiles);
  tcase_add_test(b, test_03_lecture_tile16);
  suite_add_tcase(s, b);
  TCase *sc = tcase_create("scan");
  tcase_add_test(sc, test_01_lecture_scan_tables);
  tcase_add_test(sc, test_02_lecture_scan_tables);
  tcase_add_test(sc, test_02_lecture_work_and_bounds);
  tcase_add_test(sc, test_06_lecture_compaction_table);
  suite_add_tcase(s, sc);
  TCase *tr = tcase_create("traffic");
  tcase_add_test(tr, test_05_lecture_traffic);
  tcase_add_test(tr, test_06_lecture_compaction_bytes);
  suite_add_tcase(s, tr);
  return s;
}
