/* test_leaks.c: the teaching suite's leak checks (test_teaching.c): no
 * lecture, handout or guide quotes solutions/ or shows a listing that repeats
 * a solution's code (lecture examples included), as it stands or in another
 * shape (names changed, max for +: code_shape.h), and the detector catches
 * what it must. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape_leaks.h"
#include "teaching.h"
#include "tests.h"

/* The Markdown files a student or self-learner reads (ANSWERS.md are the instructors'). */
static const char *const STUDENT_DOCS[] = {"lectures/*.md", "assignments/*/README.md", "docs/*.md"};
/* Each assignment's list of pairs caught today that other changes replace (NOTE ~ SOLUTION, the
 * solution one of that assignment's); a missing list is an empty one. */
static const char LEAKS_KNOWN[] = "assignments/*/tests/leaks-known.txt";
/* The code files of the solutions. */
static const char *const SOLUTION_CODE[] = {"solutions/*/*.cu", "solutions/*/*.cuh", "solutions/*/*.h", "solutions/*/*.c"};

static void glob_all(const char *const *patterns, size_t n, glob_t *g) {
  memset(g, 0, sizeof *g);
  for (size_t i = 0; i < n; i++) glob(patterns[i], i ? GLOB_APPEND : 0, NULL, g);
}

/* ---------------------------------------------------------------- no solutions in the notes
 *
 * A listing leaks a solution when 3 consecutive non-trivial lines of it are 3
 * consecutive non-trivial lines of a solution's code, after whitespace is
 * normalized (so re-indenting does not hide a copy). A line is trivial when it
 * has fewer than 10 characters besides spaces (braces, `return v;`) or is a
 * `#pragma`. */
enum { LEAK_WINDOW = 3, LEAK_MIN_CHARS = 10 };

typedef struct code_lines {
  char **line;
  int n;
} code_lines;

/* The normalized non-trivial lines of text (a fenced block or a source file). */
static code_lines code_lines_of(const char *text) {
  code_lines c = {NULL, 0};
  int cap = 0;
  for (const char *p = text; *p;) {
    const char *end = strchr(p, '\n');
    if (!end) end = p + strlen(p);
    char *norm = malloc((size_t)(end - p) + 1);
    size_t len = 0, chars = 0;
    for (const char *q = p; q < end; q++) {
      if (*q == ' ' || *q == '\t' || *q == '\r') {
        if (len && norm[len - 1] != ' ') norm[len++] = ' ';
      } else {
        norm[len++] = *q;
        chars++;
      }
    }
    while (len && norm[len - 1] == ' ') len--;
    norm[len] = 0;
    if (chars >= LEAK_MIN_CHARS && strncmp(norm, "#pragma", 7)) {
      if (c.n == cap) c.line = realloc(c.line, sizeof *c.line * (size_t)(cap = cap ? 2 * cap : 64));
      c.line[c.n++] = norm;
    } else {
      free(norm);
    }
    p = *end ? end + 1 : end;
  }
  return c;
}

static void code_lines_free(code_lines *c) {
  for (int i = 0; i < c->n; i++) free(c->line[i]);
  free(c->line);
}

/* Whether some LEAK_WINDOW consecutive lines of a are consecutive lines of b;
 * the first such line of a goes into why. */
static int lines_leak(const code_lines *a, const code_lines *b, char *why, size_t cap) {
  for (int i = 0; i + LEAK_WINDOW <= a->n; i++)
    for (int j = 0; j + LEAK_WINDOW <= b->n; j++) {
      int k = 0;
      while (k < LEAK_WINDOW && !strcmp(a->line[i + k], b->line[j + k])) k++;
      if (k == LEAK_WINDOW) {
        snprintf(why, cap, "%s", a->line[i]);
        return 1;
      }
    }
  return 0;
}

/* Whether `block` repeats code of `solution` (both plain text). */
static int block_leaks(const char *block, const char *solution, char *why, size_t cap) {
  code_lines a = code_lines_of(block), b = code_lines_of(solution);
  int leak = lines_leak(&a, &b, why, cap);
  code_lines_free(&a);
  code_lines_free(&b);
  return leak;
}

/* Checks one note (Markdown text): no quote names solutions/, and no fenced
 * block repeats any of the solution texts. Returns 0, or 1 with why set. */
static int note_leaks(const char *text, char *const *solutions, char *const *solution_names, size_t n_solutions,
                      char *why, size_t cap) {
  static const char MARK[] = "<!-- quoted from: ";
  for (const char *m = strstr(text, MARK); m; m = strstr(m + 1, MARK)) {
    const char *end = strstr(m, "-->");
    const char *s = strstr(m, "solutions");
    if (s && end && s < end) {
      snprintf(why, cap, "a quote of %.*s", (int)(end - m - (sizeof MARK - 1)), m + sizeof MARK - 1);
      return 1;
    }
  }
  for (const char *fence = strstr(text, "```"); fence; fence = strstr(fence + 3, "```")) {
    if (fence != text && fence[-1] != '\n') continue;
    const char *body = strchr(fence, '\n');
    if (!body) break;
    const char *close = strstr(body, "\n```");
    if (!close) break;
    /* the paragraph before the block: "(`solutions/...`):" names what it cuts */
    const char *para = fence;
    while (para > text && (para[-1] == '\n' || para[-1] == ' ')) para--; /* blank lines before the block */
    while (para > text && !(para[-1] == '\n' && para > text + 1 && para[-2] == '\n')) para--;
    for (const char *s = strstr(para, "(`solutions/"); s && s < fence; s = strstr(s + 1, "(`solutions/")) {
      const char *colon = strstr(s, "`):");
      if (colon && colon < fence) {
        snprintf(why, cap, "a listing cut from %.*s", (int)(colon - s - 2), s + 2);
        return 1;
      }
    }
    char *block = strndup(body + 1, (size_t)(close - body));
    for (size_t i = 0; i < n_solutions; i++) {
      char line[512];
      if (block_leaks(block, solutions[i], line, sizeof line)) {
        snprintf(why, cap, "a listing repeats %s: \"%s\"", solution_names[i], line);
        free(block);
        return 1;
      }
    }
    free(block);
    fence = close + 1;
  }
  return 0;
}

typedef struct texts {
  char **text, **name;
  size_t n;
} texts;

static texts texts_load(const char *const *patterns, size_t n_patterns) {
  glob_t g;
  glob_all(patterns, n_patterns, &g);
  texts t = {malloc(sizeof(char *) * (g.gl_pathc + 1)), malloc(sizeof(char *) * (g.gl_pathc + 1)), 0};
  for (size_t i = 0; i < g.gl_pathc; i++) {
    t.text[t.n] = read_text(g.gl_pathv[i]);
    ck_assert_msg(t.text[t.n] != NULL, "cannot read %s", g.gl_pathv[i]);
    t.name[t.n++] = strdup(g.gl_pathv[i]);
  }
  globfree(&g);
  return t;
}

static void texts_free(texts *t) {
  for (size_t i = 0; i < t->n; i++) free(t->text[i]), free(t->name[i]);
  free(t->text);
  free(t->name);
}

/* The rows of every assignment's leaks-known.txt, each with its file:line. */
enum { MAX_KNOWN = 64 };
typedef struct known_pairs {
  int n;
  struct {
    char pair[512], where[600];
  } row[MAX_KNOWN];
} known_pairs;

static known_pairs known_pairs_load(void) {
  known_pairs k = {0};
  glob_t g;
  glob_all((const char *const[]){LEAKS_KNOWN}, 1, &g);
  for (size_t i = 0; i < g.gl_pathc; i++) {
    const char *a = g.gl_pathv[i] + strlen("assignments/");
    char own[600];
    snprintf(own, sizeof own, " ~ solutions/%.*s/", (int)(strchr(a, '/') - a), a);
    char *text = read_text(g.gl_pathv[i]);
    ck_assert_msg(text != NULL, "cannot read %s", g.gl_pathv[i]);
    int lineno = 0;
    for (char *l = text, *nl; *l; l = nl ? nl + 1 : l + strlen(l)) {
      nl = strchr(l, '\n');
      if (nl) *nl = 0;
      lineno++;
      if (!*l || *l == '#') continue;
      ck_assert_msg(k.n < MAX_KNOWN, "%s:%d: more than %d known pairs", g.gl_pathv[i], lineno, MAX_KNOWN);
      ck_assert_msg(strstr(l, own) != NULL, "%s:%d: '%s' is not a pair of this assignment's solution (NOTE ~ solutions/%.*s/FILE)",
                    g.gl_pathv[i], lineno, l, (int)(strchr(a, '/') - a), a);
      snprintf(k.row[k.n].pair, sizeof k.row[k.n].pair, "%s", l);
      snprintf(k.row[k.n++].where, sizeof k.row[0].where, "%s:%d", g.gl_pathv[i], lineno);
    }
    free(text);
  }
  globfree(&g);
  return k;
}

START_TEST(test_notes_show_no_solution) {
  texts sol = texts_load(SOLUTION_CODE, sizeof SOLUTION_CODE / sizeof *SOLUTION_CODE);
  texts notes = texts_load(STUDENT_DOCS, sizeof STUDENT_DOCS / sizeof *STUDENT_DOCS);
  ck_assert_msg(sol.n >= 3 && notes.n >= 6, "found %zu solution files and %zu notes", sol.n, notes.n);
  for (size_t i = 0; i < notes.n; i++) {
    char why[1024];
    ck_assert_msg(!note_leaks(notes.text[i], sol.text, sol.name, sol.n, why, sizeof why),
                  "%s shows solution code: %s (teach it with lectures/examples/, a starter or a runner)",
                  notes.name[i], why);
  }
  texts_free(&notes);
  /* the lecture examples are code a student reads too */
  static const char *const EXAMPLES[] = {"lectures/examples/*.cu"};
  texts ex = texts_load(EXAMPLES, 1);
  ck_assert_int_ge(ex.n, 2);
  for (size_t i = 0; i < ex.n; i++)
    for (size_t j = 0; j < sol.n; j++) {
      char line[512];
      ck_assert_msg(!block_leaks(ex.text[i], sol.text[j], line, sizeof line), "%s repeats %s: \"%s\"", ex.name[i],
                    sol.name[j], line);
    }
  /* the same code in another shape: the notes' listings and the examples */
  texts notes2 = texts_load(STUDENT_DOCS, sizeof STUDENT_DOCS / sizeof *STUDENT_DOCS);
  static const char *const EXAMPLE_CODE[] = {"lectures/examples/*.cu", "lectures/examples/*.h"};
  texts code = texts_load(EXAMPLE_CODE, 2);
  caught c = {0};
  scan_shapes((const char *const *)notes2.name, notes2.text, notes2.n, (const char *const *)code.name, code.text, code.n,
              (const char *const *)sol.name, sol.text, sol.n, &c);
  char msg[4096] = "";
  known_pairs known = known_pairs_load();
  for (int i = 0; i < c.n; i++) {
    int listed = 0;
    for (int k = 0; k < known.n && !listed; k++) listed = !strcmp(c.pair[i], known.row[k].pair);
    if (listed) printf("leaks: known, caught: %s\n", c.why[i]);
    else snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "\n  %s", c.why[i]);
  }
  for (int k = 0; k < known.n; k++) {
    int hit = 0;
    for (int i = 0; i < c.n && !hit; i++) hit = !strcmp(c.pair[i], known.row[k].pair);
    if (!hit)
      snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "\n  %s: %s is not caught now: take it off the list",
               known.row[k].where, known.row[k].pair);
  }
  fflush(stdout);
  ck_assert_msg(!*msg, "listings or examples with a solution's shape (teach the idea with code that is not the task; "
                       "test_leaks.c):%s", msg);
  caught_free(&c);
  texts_free(&code);
  texts_free(&notes2);
  texts_free(&ex);
  texts_free(&sol);
}
END_TEST

/* What lecture 01 printed before issue 11: the reference's shuffle scan, cut
 * from solutions/. Both ways of catching it must fire: the file it names, and
 * the code itself when pasted without naming it (re-indented). */
static const char OLD_SOLUTION[] = "__device__ int warp_scan_shfl(int v, int *scratch) {\n"
                                   "  (void)scratch;\n"
                                   "  int lane = threadIdx.x % 32;\n"
                                   "#pragma unroll\n"
                                   "  for (int k = 1; k < 32; k *= 2) {\n"
                                   "    int up = __shfl_up_sync(0xffffffffu, v, k);\n"
                                   "    if (lane >= k) v += up;\n"
                                   "  }\n"
                                   "  return v;\n"
                                   "}\n";
/* The paragraph and fence around it in the old lecture. */
static const char OLD_LECTURE_01_BEFORE[] = "memory to order, so there is no race to reason about. The reference solution\n"
                                            "(`solutions/07-fake-scan/fake_scan.cu`):\n\n```c\n";
static const char PASTED[] = "Here is how it goes:\n\n```\nint lane = threadIdx.x % 32;\n"
                             "for (int k = 1; k < 32; k *= 2) {\n  int up = __shfl_up_sync(0xffffffffu, v, k);\n"
                             "     if (lane >= k)   v += up;\n}\n```\n";
static const char OTHER_CODE[] = "Another operator:\n\n```\nconst unsigned lane = threadIdx.x & 31;\n"
                                 "for (unsigned d = 1; d < 32; d <<= 1) {\n  const int below = __shfl_up_sync(m, x, d);\n"
                                 "  if (lane >= d) x = max(x, below);\n}\n```\n";

START_TEST(test_leak_detector_catches_old_lecture_01) {
  char *sol[] = {(char *)OLD_SOLUTION}, *names[] = {"solutions/07-fake-scan/fake_scan.cu"};
  char why[1024], old_lecture[2048];
  snprintf(old_lecture, sizeof old_lecture, "%s%s```\n", OLD_LECTURE_01_BEFORE, OLD_SOLUTION);
  ck_assert(note_leaks(old_lecture, sol, names, 1, why, sizeof why));
  ck_assert_msg(strstr(why, "cut from solutions/07-fake-scan/fake_scan.cu") != NULL, "%s", why);
  ck_assert(note_leaks(PASTED, sol, names, 1, why, sizeof why));
  ck_assert_msg(strstr(why, "repeats") != NULL, "%s", why);
  ck_assert(note_leaks("<!-- quoted from: build/solutions/08-fake-tree/model --case banks -->\n```\nx\n```\n", sol,
                       names, 1, why, sizeof why));
  ck_assert_msg(!note_leaks(OTHER_CODE, sol, names, 1, why, sizeof why), "a max scan was taken for a copy: %s", why);
}
END_TEST

/* Every solution file would be caught if a window of it were pasted into a note. */
START_TEST(test_leak_detector_catches_every_solution) {
  texts sol = texts_load(SOLUTION_CODE, sizeof SOLUTION_CODE / sizeof *SOLUTION_CODE);
  for (size_t i = 0; i < sol.n; i++) {
    code_lines c = code_lines_of(sol.text[i]);
    ck_assert_msg(c.n >= LEAK_WINDOW, "%s has %d non-trivial lines", sol.name[i], c.n);
    for (int at = 0; at + LEAK_WINDOW <= c.n; at += LEAK_WINDOW) {
      char note[4096] = "Some prose.\n\n```c\n", why[1024];
      for (int k = 0; k < LEAK_WINDOW; k++) {
        strncat(note, "      ", sizeof note - strlen(note) - 1); /* indented differently */
        strncat(note, c.line[at + k], sizeof note - strlen(note) - 2);
        strncat(note, "\n", sizeof note - strlen(note) - 1);
      }
      strncat(note, "```\n", sizeof note - strlen(note) - 1);
      ck_assert_msg(note_leaks(note, &sol.text[i], &sol.name[i], 1, why, sizeof why),
                    "lines %d.. of %s, pasted, were not caught", at, sol.name[i]);
    }
    code_lines_free(&c);
  }
  texts_free(&sol);
}
END_TEST

/* The shapes: a solution renamed with max for + (and += as = max) is caught,
 * by its tokens and by its skeleton; the same idea with another access order
 * is not. */
static const char SOL_STEPS[] = "__device__ int steps(int v, int *src, int *dst, int L) {\n"
                                "  const int t = threadIdx.x;\n  src[t] = v;\n  __syncthreads();\n"
                                "  for (int k = 1; k < L; k *= 2) {\n"
                                "    dst[t] = t >= k ? src[t] + src[t - k] : src[t];\n"
                                "    __syncthreads();\n    int *was = src;\n    src = dst;\n    dst = was;\n  }\n"
                                "  return src[t];\n}\n";
static const char MAX_STEPS[] = "static __device__ int max_rounds(int x, int *ping, int *pong, int count) {\n"
                                "  const int me = threadIdx.x;\n  ping[me] = x; // store\n  __syncthreads();\n"
                                "  for (int d = 1; d < count; d <<= 1) {\n"
                                "    pong[me] = me >= d ? max(ping[me], ping[me - d]) : ping[me];\n"
                                "    __syncthreads();\n    int *spare = ping;\n    ping = pong;\n    pong = spare;\n  }\n"
                                "  return ping[me];\n}\n";
static const char SOL_WARP[] = "__device__ int ws(int v, int *scratch) {\n  int lane = threadIdx.x % 32;\n"
                               "  int *data = scratch + 32 + lane;\n  data[-32] = 0;\n  data[0] = v;\n  __syncwarp();\n"
                               "  int sum = v;\n  for (int k = 1; k < 32; k *= 2) {\n    sum += data[-k];\n"
                               "    __syncwarp();\n    data[0] = sum;\n    __syncwarp();\n  }\n  return sum;\n}\n";
static const char MAX_WARP[] = "int f(int x, int *slots) {\n  const unsigned lane = threadIdx.x & (WARP - 1);\n"
                               "  slots[lane] = x;\n  __syncwarp();\n  for (unsigned d = 1; d < WARP; d <<= 1) {\n"
                               "    const int below = lane >= d ? slots[lane - d] : INT_MIN;\n    __syncwarp();\n"
                               "    x = max(x, below);\n    slots[lane] = x;\n    __syncwarp();\n  }\n  return x;\n}\n";
/* The same warp scan with one barrier a round, reading before the barrier and writing after it. */
static const char ONE_BARRIER[] = "int g(int x, int *a, int *b) {\n  const unsigned lane = threadIdx.x & 31;\n"
                                  "  a[lane] = x;\n  __syncwarp();\n  for (unsigned d = 1; d < 32; d <<= 1) {\n"
                                  "    b[lane] = lane >= d ? max(a[lane], a[lane - d]) : a[lane];\n    __syncwarp();\n"
                                  "    int *s = a;\n    a = b;\n    b = s;\n  }\n  return a[lane];\n}\n";

START_TEST(test_leak_detector_catches_other_shapes) {
  solution_shape steps = solution_shape_of(SOL_STEPS), warp = solution_shape_of(SOL_WARP);
  char why[512];
  ck_assert_msg(shape_leaks(MAX_STEPS, 1, &steps, why, sizeof why), "a renamed max copy of the steps was not caught");
  ck_assert_msg(strstr(why, "tokens in a row"), "%s", why);
  ck_assert_msg(shape_leaks(MAX_WARP, 1, &warp, why, sizeof why), "lecture 01's old __syncwarp max scan was not caught");
  ck_assert_msg(strstr(why, "loads, stores and barriers"), "%s", why);
  ck_assert_msg(!shape_leaks(ONE_BARRIER, 1, &warp, why, sizeof why), "a different access order was taken for task 3a: %s", why);
  ck_assert_msg(!shape_leaks(OTHER_CODE, 1, &warp, why, sizeof why), "a max shuffle loop was taken for task 3a: %s", why);
  solution_shape_free(&steps);
  solution_shape_free(&warp);
}
END_TEST

void teaching_leaks_tests(TCase *t) {
  tcase_add_test(t, test_leak_detector_catches_other_shapes);
  tcase_add_test(t, test_notes_show_no_solution);
  tcase_add_test(t, test_leak_detector_catches_old_lecture_01);
  tcase_add_test(t, test_leak_detector_catches_every_solution);
}
