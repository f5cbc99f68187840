/* worked_support.c: reading the numbers of a worked example out of a text (a handout, a
 * lecture), found by a phrase next to them, for tests/test_worked.c and the assignments'
 * own tests of their handouts (assignments/NN/tests/); and the bank ways of a strided warp
 * access (banks.h's bank_ways). worked.h says what each does. */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banks.h"
#include "tests.h"
#include "worked.h"

/* A whole text file; fails the test when it is missing. */
char *text_of(const char *path) {
  char *t = read_text(path);
  ck_assert_msg(t != NULL, "%s is missing", path);
  return t;
}

/* The lecture numbered nn (lectures/NN-*.md, the one such file) into out; fails when there
 * is none or more than one. Found by its number, so that a test names no lecture whose name
 * holds an assignment's (test_layout.c's test_names_stay_home). */
void lecture_path(const char *nn, char *out, size_t cap) {
  char pattern[64];
  glob_t g;
  snprintf(pattern, sizeof pattern, "lectures/%.2s-*.md", nn);
  int found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc == 1;
  ck_assert_msg(found, "not one file %s (run from the repository root)", pattern);
  snprintf(out, cap, "%s", g.gl_pathv[0]);
  globfree(&g);
}

/* Where phrase occurs in text from `from` on, a space or line break of the
 * phrase matching any run of spaces and line breaks (so a reflowed paragraph
 * still matches); *len receives the length of the text it matched. NULL when
 * it does not occur. */
const char *flex_find(const char *from, const char *phrase, size_t *len) {
  for (const char *start = from; *start; start++) {
    const char *p = start, *q = phrase;
    while (*q) {
      if (*q == ' ' || *q == '\n') {
        if (*p != ' ' && *p != '\n') break;
        while (*p == ' ' || *p == '\n') p++;
        while (*q == ' ' || *q == '\n') q++;
      } else if (*p == *q) {
        p++, q++;
      } else {
        break;
      }
    }
    if (!*q) {
      if (len) *len = (size_t)(p - start);
      return start;
    }
  }
  return NULL;
}

/* The first place after `from` where phrase starts; fails with the file's name
 * when it is not there (the example was moved or rewritten). */
const char *find_phrase(const char *file, const char *from, const char *phrase) {
  const char *p = flex_find(from, phrase, NULL);
  ck_assert_msg(p != NULL, "%s: the worked example at '%s' is gone: update the test that reads it", file, phrase);
  return p;
}

/* Just after phrase. */
const char *after_phrase(const char *file, const char *from, const char *phrase) {
  size_t len = 0;
  const char *p = flex_find(from, phrase, &len);
  ck_assert_msg(p != NULL, "%s: the worked example at '%s' is gone: update the test that reads it", file, phrase);
  return p + len;
}

/* Reads an integer at p (after spaces); fails when there is none. */
long int_at(const char *file, const char *p, const char *what) {
  char *end;
  long v = strtol(p, &end, 10);
  ck_assert_msg(end != p, "%s: no number where %s should be: '%.40s'", file, what, p);
  return v;
}

/* The fenced code block (or the rest of the text) that starts at p, up to the
 * next line of three backticks, as a malloc'd string. */
char *block_from(const char *p) {
  const char *end = strstr(p, "\n```");
  size_t n = end ? (size_t)(end - p) : strlen(p);
  char *b = malloc(n + 1);
  ck_assert(b != NULL);
  memcpy(b, p, n);
  b[n] = 0;
  return b;
}

/* The integers of the line of block that begins (after spaces) with label
 * followed by a space: at most max, ending at a word that is not an integer or
 * at a gap of five spaces or more after the first (the row's comment, which
 * *note then points at, else at ""). Returns how many; fails when no line has
 * the label. */
int table_row(const char *file, const char *block, const char *label, long *out, int max, const char **note) {
  size_t ll = strlen(label);
  for (const char *line = block; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    const char *p = line;
    while (*p == ' ') p++;
    if (strncmp(p, label, ll) || p[ll] != ' ') continue;
    p += ll;
    int n = 0;
    if (note) *note = "";
    while (n < max) {
      const char *q = p;
      while (*q == ' ') q++;
      if (n > 0 && q - p >= 5) {
        if (note && *q != '\n') *note = q;
        break;
      }
      char *end;
      long v = strtol(q, &end, 10);
      if (end == q || (*end != ' ' && *end != '\n' && *end != 0)) {
        if (note && *q != '\n' && *q) *note = q;
        break;
      }
      out[n++] = v;
      p = end;
    }
    return n;
  }
  ck_assert_msg(0, "%s: no row '%s' in the table: update the test that reads it", file, label);
  return 0;
}

/* Whether the number written as text (with its decimals) is value at that rounding. */
int same_at_quoted_rounding(const char *text, double value) {
  char *end;
  double quoted = strtod(text, &end);
  if (end == text) return 0;
  const char *dot = memchr(text, '.', (size_t)(end - text));
  int decimals = dot ? (int)(end - dot - 1) : 0;
  return fabs(value - quoted) <= 0.5 * pow(10, -decimals) + 1e-9;
}

/* "one".."eight" as a number, or 0. */
int word_number(const char *w) {
  static const char *const WORDS[] = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight"};
  for (int i = 1; i < 9; i++)
    if (!strncmp(w, WORDS[i], strlen(WORDS[i]))) return i;
  return 0;
}

/* "X and Y" at p: the two integers. */
void read_pair(const char *file, const char *p, long *x, long *y, const char *what) {
  *x = int_at(file, p, what);
  const char *and = strstr(p, " and ");
  ck_assert_msg(and != NULL && and - p < 16, "%s: no 'X and Y' for %s: '%.30s'", file, what, p);
  *y = int_at(file, and + 5, what);
}

/* The ways of a warp whose lane l touches word stride * l + offset. */
int stride_ways(int stride, int offset) {
  int w[BANK_WARP];
  for (int l = 0; l < BANK_WARP; l++) w[l] = stride * l + offset;
  return bank_ways(w, NULL);
}
