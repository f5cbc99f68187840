/* test_questions.c: no handout or lecture answers a handout's written
 * questions (issue 40, "no handout answers its own questions").
 *
 * Each question of solutions/NN-name/ANSWERS.md ("## N. Title") lists, on
 * the line after its heading, the key of its answer:
 *     <!-- answer key: "FRAGMENT" "FRAGMENT" ...; "FRAGMENT" ... -->
 * A key is one or more fragments (split by ';' into several keys). A student
 * text states the answer when one of its paragraphs (a run of non-blank
 * lines; a fenced block is one) holds every fragment of a key, compared with
 * case, backticks, asterisks and runs of white space ignored. The student
 * texts are lectures/NN-name.md and assignments/NN-name/README.md; in the
 * question's own handout, the question itself (its item "N. **Title**" under
 * "## Questions") is not read. Every question must have a key.
 * tests/answers-known.txt lists the places that state an answer at a019dd7
 * and are being rewritten elsewhere (issue 40 item 8), "FILE ~ NN QN" a line:
 * expected, and one that no longer states it must leave the list. Run from
 * the repository root. */
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teaching.h"
#include "tests.h"

static const char KNOWN[] = "tests/answers-known.txt";

/* A text made comparable: lower case, no backticks or asterisks, white space one space. */
static char *plain(const char *s, size_t len) {
  char *out = malloc(len + 1), *o = out;
  int space = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '`' || c == '*') continue;
    if (isspace(c)) {
      space = 1;
      continue;
    }
    if (space && o > out) *o++ = ' ';
    space = 0;
    *o++ = (char)tolower(c);
  }
  *o = 0;
  return out;
}

/* ---------------------------------------------------------------- keys */

typedef struct key {
  char *frag[8];
  int n;
} key;

typedef struct question {
  char assignment[64]; /* NN-name */
  int number;
  key keys[8];
  int n_keys;
} question;

/* Reads the key tag's body into q; 0, or -1 with why. */
static int read_keys(const char *s, const char *end, question *q, char *why, size_t cap) {
  key *k = &q->keys[q->n_keys = 0];
  k->n = 0;
  while (s < end) {
    while (s < end && *s == ' ') s++;
    if (s >= end) break;
    if (*s == ';') {
      if (!k->n || q->n_keys == 7) return snprintf(why, cap, "an answer key has an empty part or too many keys"), -1;
      k = &q->keys[++q->n_keys];
      k->n = 0;
      s++;
      continue;
    }
    const char *close = *s == '"' ? memchr(s + 1, '"', (size_t)(end - s - 1)) : NULL;
    if (!close || close == s + 1 || k->n == 8)
      return snprintf(why, cap, "an answer key reads <!-- answer key: \"FRAGMENT\" ...; \"FRAGMENT\" ... -->"), -1;
    k->frag[k->n++] = plain(s + 1, (size_t)(close - s - 1));
    s = close + 1;
  }
  if (!k->n) return snprintf(why, cap, "an answer key names no fragment"), -1;
  q->n_keys++;
  return 0;
}

/* The questions of one ANSWERS.md, with their keys; a question without one is a problem in why. */
static int read_questions(const char *path, const char *assignment, question *out, int cap, char *why, size_t wcap) {
  char *text = read_text(path);
  ck_assert_msg(text != NULL, "cannot read %s", path);
  int n = 0, line = 0;
  *why = 0;
  question *cur = NULL;
  for (char *s = text; *s;) {
    char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
    line++;
    int number;
    if (!strncmp(s, "## ", 3) && sscanf(s + 3, "%d.", &number) == 1 && n < cap) {
      if (cur && !cur->n_keys && !*why) snprintf(why, wcap, "%s: question %d has no answer key", path, cur->number);
      cur = &out[n++];
      memset(cur, 0, sizeof *cur);
      snprintf(cur->assignment, sizeof cur->assignment, "%s", assignment);
      cur->number = number;
    } else if (cur && !strncmp(s, "<!-- answer key:", 16)) {
      const char *close = strstr(s, "-->");
      char err[256];
      if (!close || close > end || cur->n_keys || read_keys(s + 16, close, cur, err, sizeof err)) {
        if (!*why) snprintf(why, wcap, "%s:%d: %s", path, line, cur->n_keys ? "a second answer key" : err);
      }
    }
    s = nl ? nl + 1 : end;
  }
  if (cur && !cur->n_keys && !*why) snprintf(why, wcap, "%s: question %d has no answer key", path, cur->number);
  free(text);
  return n;
}

static void questions_free(question *q, int n) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < q[i].n_keys; k++)
      for (int f = 0; f < q[i].keys[k].n; f++) free(q[i].keys[k].frag[f]);
}

/* ---------------------------------------------------------------- texts */

/* Blanks question `number`'s item under "## Questions" in a handout (spaces, newlines kept). */
static void blank_question(char *text, int number) {
  char *qs = strstr(text, "\n## Questions");
  if (!qs) return;
  char head[16];
  snprintf(head, sizeof head, "\n%d. **", number);
  char *start = strstr(qs, head), *next_section = strstr(qs + 1, "\n## ");
  if (!start || (next_section && start > next_section)) return;
  char *end = start + 1;
  for (;;) { /* the item goes on to the next numbered item, heading or end */
    char *nl = strchr(end, '\n');
    if (!nl) {
      end += strlen(end);
      break;
    }
    end = nl + 1;
    if (isdigit((unsigned char)*end) || !strncmp(end, "## ", 3)) break;
  }
  for (char *p = start + 1; p < end; p++)
    if (*p != '\n') *p = ' ';
}

/* Whether a paragraph of text holds every fragment of a key; *line gets its first line. */
static int states(const char *text, const key *k, int *line) {
  int at = 1, in_fence = 0;
  for (const char *s = text; *s;) {
    /* a paragraph: lines up to a blank one (a fenced block whole) */
    const char *p = s;
    int start = at;
    for (;;) {
      const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
      const char *t = p;
      while (t < end && (*t == ' ' || *t == '\t')) t++;
      if (!strncmp(t, "```", 3)) in_fence = !in_fence;
      int blank = t == end || (end > t && end[-1] == '\r' && t + 1 == end);
      p = nl ? nl + 1 : end;
      at++;
      if ((blank && !in_fence) || !nl) break;
    }
    char *para = plain(s, (size_t)(p - s));
    int all = 1;
    for (int f = 0; f < k->n && all; f++) all = strstr(para, k->frag[f]) != NULL;
    free(para);
    if (all) {
      *line = start;
      return 1;
    }
    s = p;
  }
  return 0;
}

typedef struct found {
  char **pair, **why;
  int n;
} found;

static void found_add(found *f, const char *file, int line, const question *q, const key *k) {
  char pair[512], why[2048];
  snprintf(pair, sizeof pair, "%s ~ %.2s Q%d", file, q->assignment, q->number);
  for (int i = 0; i < f->n; i++)
    if (!strcmp(f->pair[i], pair)) return;
  int len = snprintf(why, sizeof why, "%s:%d: states the answer to %s question %d:", file, line, q->assignment, q->number);
  for (int i = 0; i < k->n; i++) len += snprintf(why + len, sizeof why - (size_t)len, " \"%s\"", k->frag[i]);
  f->pair = realloc(f->pair, sizeof *f->pair * (size_t)(f->n + 1));
  f->why = realloc(f->why, sizeof *f->why * (size_t)(f->n + 1));
  f->pair[f->n] = strdup(pair), f->why[f->n++] = strdup(why);
}

/* Checks every student text against every question's keys. */
static void find_answers(const question *q, int n_q, found *f) {
  glob_t g;
  glob("lectures/*.md", 0, NULL, &g);
  glob("assignments/*/README.md", GLOB_APPEND, NULL, &g);
  for (size_t i = 0; i < g.gl_pathc; i++) {
    const char *file = g.gl_pathv[i];
    char *text = read_text(file);
    ck_assert_msg(text != NULL, "cannot read %s", file);
    for (int j = 0; j < n_q; j++) {
      char own[128];
      snprintf(own, sizeof own, "assignments/%s/README.md", q[j].assignment);
      char *t = strdup(text);
      if (!strcmp(file, own)) blank_question(t, q[j].number);
      for (int k = 0; k < q[j].n_keys; k++) {
        int line;
        if (states(t, &q[j].keys[k], &line)) found_add(f, file, line, &q[j], &q[j].keys[k]);
      }
      free(t);
    }
    free(text);
  }
  globfree(&g);
}

START_TEST(test_handouts_do_not_answer_their_questions) {
  glob_t g;
  ck_assert_msg(glob("solutions/*/ANSWERS.md", 0, NULL, &g) == 0 && g.gl_pathc >= 5, "no solutions/*/ANSWERS.md here");
  question q[64];
  int n = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    char assignment[64], why[512];
    const char *a = g.gl_pathv[i] + strlen("solutions/");
    snprintf(assignment, sizeof assignment, "%.*s", (int)(strchr(a, '/') - a), a);
    int got = read_questions(g.gl_pathv[i], assignment, q + n, 64 - n, why, sizeof why);
    ck_assert_msg(!*why, "%s (solutions/NN/ANSWERS.md: <!-- answer key: \"FRAGMENT\" ... --> after each question's heading)", why);
    ck_assert_msg(got > 0, "%s has no questions (## N. Title)", g.gl_pathv[i]);
    n += got;
  }
  globfree(&g);
  found f = {0};
  find_answers(q, n, &f);
  char *known = read_text(KNOWN), msg[6000] = "";
  ck_assert_msg(known != NULL, "%s is missing (an empty list is a file with no lines)", KNOWN);
  int lineno = 0;
  for (char *l = known, *nl; *l; l = nl ? nl + 1 : l + strlen(l)) {
    nl = strchr(l, '\n');
    if (nl) *nl = 0;
    lineno++;
    if (!*l || *l == '#') continue;
    int hit = 0;
    for (int i = 0; i < f.n; i++)
      if (!strcmp(f.pair[i], l)) hit = 1, printf("questions: known, caught: %s\n", f.why[i]), f.why[i][0] = 0;
    if (!hit)
      snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "\n  %s:%d: %s no longer states the answer: take it off the list",
               KNOWN, lineno, l);
  }
  for (int i = 0; i < f.n; i++)
    if (f.why[i][0]) snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "\n  %s", f.why[i]);
  fflush(stdout);
  ck_assert_msg(!*msg, "a student text states the answer to a written question (keys in solutions/NN/ANSWERS.md):%s", msg);
  for (int i = 0; i < f.n; i++) free(f.pair[i]), free(f.why[i]);
  free(f.pair), free(f.why);
  free(known);
  questions_free(q, n);
}
END_TEST

/* The checker on a fixture: a key found in a paragraph, not in the question itself, not across paragraphs. */
START_TEST(test_answer_keys_checked) {
  question q = {.assignment = "02-x", .number = 8};
  char why[256];
  const char *tag = " \"src[t - k]\" \"no bank conflict\"; \"two passes\" ";
  ck_assert_int_eq(read_keys(tag, tag + strlen(tag), &q, why, sizeof why), 0);
  ck_assert_int_eq(q.n_keys, 2);
  int line;
  ck_assert(states("Intro.\n\n`src[t]` and `src[t - k]` are consecutive,\nso this scan has **no bank conflicts**.\n", &q.keys[0], &line));
  ck_assert_int_eq(line, 3);
  ck_assert(!states("`src[t - k]` is read.\n\nThere is no bank conflict.\n", &q.keys[0], &line));
  char handout[] = "# H\n\n## Questions\n\n7. **Other** (4 points). Why two passes?\n8. **Banks** (4 points). Is there a bank "
                   "conflict with `src[t - k]`, or no bank conflict?\n\n## Grading\n";
  ck_assert(states(handout, &q.keys[0], &line));
  blank_question(handout, 8);
  ck_assert_msg(!states(handout, &q.keys[0], &line), "the question itself was read: %s", handout);
  ck_assert_msg(states(handout, &q.keys[1], &line), "question 7 was blanked with 8: %s", handout);
  ck_assert_int_eq(read_keys(" \"x\";", " \"x\";" + 5, &q, why, sizeof why), -1);
  questions_free(&q, 1);
}
END_TEST

void teaching_questions_tests(TCase *t) {
  tcase_add_test(t, test_answer_keys_checked);
  tcase_add_test(t, test_handouts_do_not_answer_their_questions);
}
