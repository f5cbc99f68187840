/* test_teaching.c: the teaching content of the course (lectures, handouts,
 * answers, the guides) against the code and the grading it describes:
 *   - every quote and listing is cut from the file or program it names;
 *   - no lecture, handout or guide quotes solutions/ or shows a listing that
 *     repeats a solution's code (lecture examples included);
 *   - the points a handout states (no-GPU points, written questions) are the
 *     points grade.conf and the rubrics of ANSWERS.md give;
 *   - the student guide's sample runs name real checks, points and kernels;
 *   - what lecture 01 says about its examples' PTX.
 * Run from the repository root after `make test-builds`. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "ptx.h"
#include "tests.h"

/* The Markdown files a student or self-learner reads (ANSWERS.md are the instructors'). */
static const char *const STUDENT_DOCS[] = {"lectures/*.md", "assignments/*/README.md", "docs/*.md"};
/* The code files of the solutions. */
static const char *const SOLUTION_CODE[] = {"solutions/*/*.cu", "solutions/*/*.h", "solutions/*/*.c"};

static void glob_all(const char *const *patterns, size_t n, glob_t *g) {
  memset(g, 0, sizeof *g);
  for (size_t i = 0; i < n; i++) glob(patterns[i], i ? GLOB_APPEND : 0, NULL, g);
}

/* ---------------------------------------------------------------- quotes in the docs
 *
 * Notes quote code and program output; a quote must not drift from what it
 * quotes. Two kinds of fenced block are checked, in the lectures (lectures/NN-*.md),
 * the handouts (assignments/NN/README.md), the answers (solutions/NN/ANSWERS.md)
 * and the guides (docs/NAME.md):
 *   - a block right after a paragraph that ends "(`path/to/file.cu`):" is cut
 *     from that file: every line of it is a line of the file;
 *   - a block right after "<!-- quoted from: build/PROGRAM ARGS -->" is what that
 *     program prints: every line of it is a line (or the start of one) of the
 *     program's output now; "<!-- quoted from: path/to/file -->" quotes a file
 *     of the repository (measured data, a GPU tier log) the same way.
 * A quote may leave lines out, and a line starting with "..." stands for the
 * lines left out; it may never change a line. */

/* Whether `line` (len bytes) is a whole line of `text`, or with `prefix_ok`
 * the start of one followed by a space. */
static int has_line(const char *text, const char *line, size_t len, int prefix_ok) {
  for (const char *p = text; (p = strstr(p, line)); p++) {
    if (p != text && p[-1] != '\n') continue;
    if (p[len] == '\n' || !p[len] || (prefix_ok && p[len] == ' ')) return 1;
  }
  return 0;
}

/* Checks every line of block against text; says which line is not there. */
static int block_in(const char *text, const char *block, int prefix_ok, char *bad, size_t cap) {
  char *copy = strdup(block), *save = NULL;
  int ok = 1;
  for (char *line = strtok_r(copy, "\n", &save); ok && line; line = strtok_r(NULL, "\n", &save)) {
    size_t len = strlen(line);
    while (len && line[len - 1] == ' ') line[--len] = 0;
    const char *lead = line + strspn(line, " ");
    if (!*lead || !strncmp(lead, "...", 3)) continue;
    if (!has_line(text, line, len, prefix_ok)) snprintf(bad, cap, "%s", line), ok = 0;
  }
  free(copy);
  return ok;
}

static char *program_output(const char *cmd) {
  char *dir = make_temp_dir("quote"), path[512], shell[1024];
  snprintf(path, sizeof path, "%s/out", dir);
  snprintf(shell, sizeof shell, "%s > '%s' 2>&1", cmd, path);
  run_shell(shell);
  char *out = read_text(path);
  remove_dir(dir);
  free(dir);
  return out;
}

/* The file a block is cut from: "(`path`):" at the end of the text before it. */
static int cut_from(const char *before, size_t n, char *path, size_t cap) {
  while (n && (before[n - 1] == '\n' || before[n - 1] == ' ')) n--;
  if (n < 4 || strncmp(before + n - 3, "`):", 3)) return 0;
  size_t end = n - 3, start = end;
  while (start && before[start - 1] != '`' && before[start - 1] != '\n') start--;
  if (!start || before[start - 1] != '`' || start < 2 || before[start - 2] != '(' || end - start >= cap) return 0;
  snprintf(path, cap, "%.*s", (int)(end - start), before + start);
  return 1;
}

/* Checks the quotes of one note; returns how many it has. */
static int check_note_quotes(const char *note) {
  char *text = read_text(note);
  ck_assert_msg(text != NULL, "%s is missing", note);
  static const char MARK[] = "<!-- quoted from: ";
  int quotes = 0;
  for (char *fence = strstr(text, "\n```"); fence; fence = strstr(fence + 1, "\n```")) {
    char *body = strchr(fence + 1, '\n');
    char *close = body ? strstr(body, "\n```") : NULL;
    ck_assert_msg(close != NULL, "%s: a fenced block is not closed", note);
    char *block = strndup(body + 1, (size_t)(close - body));
    char path[256], bad[512] = "";
    /* the paragraph before the block: back to the previous blank line */
    char *para = fence;
    while (para > text && !(para[-1] == '\n' && para[0] == '\n')) para--;
    char *mark = NULL;
    for (char *m = strstr(para, MARK); m && m < fence; m = strstr(m + 1, MARK)) mark = m;
    if (mark) {
      char cmd[256];
      ck_assert_msg(sscanf(mark + sizeof MARK - 1, "%255[^>]", cmd) == 1, "%s: empty quote marker", note);
      size_t cl = strlen(cmd);
      while (cl && (cmd[cl - 1] == ' ' || cmd[cl - 1] == '-')) cmd[--cl] = 0;
      /* a program under build/ and its arguments, or a file of the repository (measured data) */
      int program = !strncmp(cmd, "build/", 6);
      char *out = program ? program_output(cmd) : read_text(cmd);
      ck_assert_msg(out != NULL, "%s: the quote marker names '%s', which is neither a program under build/ nor a file",
                    note, cmd);
      ck_assert_msg(block_in(out, block, 1, bad, sizeof bad), "%s: the quote of '%s' has a line %s:\n%s", note, cmd,
                    program ? "the program no longer prints" : "that is not in the file", bad);
      free(out);
      quotes++;
    } else if (cut_from(text, (size_t)(fence - text), path, sizeof path)) {
      char *src = read_text(path);
      if (src) { /* a named file that is not in the repository is prose, not a cut */
        ck_assert_msg(block_in(src, block, 0, bad, sizeof bad), "%s: the listing cut from %s has a line that is not in it:\n%s",
                      note, path, bad);
        quotes++;
      }
      free(src);
    }
    free(block);
    fence = close;
  }
  free(text);
  return quotes;
}

START_TEST(test_doc_quotes_match_sources) {
  glob_t g;
  ck_assert_int_eq(glob("lectures/*.md", 0, NULL, &g), 0);
  glob("assignments/*/README.md", GLOB_APPEND, NULL, &g);
  glob("solutions/*/ANSWERS.md", GLOB_APPEND, NULL, &g);
  glob("docs/*.md", GLOB_APPEND, NULL, &g);
  int quotes = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) quotes += check_note_quotes(g.gl_pathv[i]);
  globfree(&g);
  ck_assert_msg(quotes >= 8, "only %d quotes found: the test would check next to nothing", quotes);
}
END_TEST

/* Every relative link of every Markdown file the course ships points at a
 * file or folder that exists. */
START_TEST(test_doc_links_resolve) {
  glob_t g;
  ck_assert_int_eq(glob("*.md", 0, NULL, &g), 0);
  static const char *const MORE[] = {"docs/*.md", "lectures/*.md", "assignments/*/README.md", "solutions/*/ANSWERS.md"};
  for (size_t i = 0; i < sizeof MORE / sizeof *MORE; i++) glob(MORE[i], GLOB_APPEND, NULL, &g);
  int links = 0;
  for (size_t f = 0; f < g.gl_pathc; f++) {
    char *text = read_text(g.gl_pathv[f]);
    ck_assert(text != NULL);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", g.gl_pathv[f]);
    char *slash = strrchr(dir, '/');
    if (slash) slash[1] = 0;
    else dir[0] = 0;
    for (char *p = strstr(text, "]("); p; p = strstr(p + 2, "](")) {
      char target[512];
      if (sscanf(p + 2, "%511[^)#]", target) != 1) continue; /* "](#anchor)" */
      if (strstr(target, "://") || !strncmp(target, "mailto:", 7)) continue;
      char path[1100];
      snprintf(path, sizeof path, "%s%s", dir, target);
      ck_assert_msg(access(path, F_OK) == 0, "%s: the link to '%s' points at nothing (%s)", g.gl_pathv[f], target, path);
      links++;
    }
    free(text);
  }
  globfree(&g);
  ck_assert_msg(links >= 12, "only %d relative links found: the test would check next to nothing", links);
}
END_TEST

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

START_TEST(test_notes_show_no_solution) {
  texts sol = texts_load(SOLUTION_CODE, sizeof SOLUTION_CODE / sizeof *SOLUTION_CODE);
  texts notes = texts_load(STUDENT_DOCS, sizeof STUDENT_DOCS / sizeof *STUDENT_DOCS);
  ck_assert_msg(sol.n >= 3 && notes.n >= 6, "found %zu solution files and %zu notes", sol.n, notes.n);
  for (size_t i = 0; i < notes.n; i++) {
    char why[1024];
    ck_assert_msg(!note_leaks(notes.text[i], sol.text, sol.name, sol.n, why, sizeof why),
                  "%s shows solution code: %s (teach it with lectures/examples/, a starter or a harness)",
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
                                            "(`solutions/01-warp-scan/warp_scan.cu`):\n\n```c\n";
static const char PASTED[] = "Here is how it goes:\n\n```\nint lane = threadIdx.x % 32;\n"
                             "for (int k = 1; k < 32; k *= 2) {\n  int up = __shfl_up_sync(0xffffffffu, v, k);\n"
                             "     if (lane >= k)   v += up;\n}\n```\n";
static const char OTHER_CODE[] = "Another operator:\n\n```\nconst unsigned lane = threadIdx.x & 31;\n"
                                 "for (unsigned d = 1; d < 32; d <<= 1) {\n  const int below = __shfl_up_sync(m, x, d);\n"
                                 "  if (lane >= d) x = max(x, below);\n}\n```\n";

START_TEST(test_leak_detector_catches_old_lecture_01) {
  char *sol[] = {(char *)OLD_SOLUTION}, *names[] = {"solutions/01-warp-scan/warp_scan.cu"};
  char why[1024], old_lecture[2048];
  snprintf(old_lecture, sizeof old_lecture, "%s%s```\n", OLD_LECTURE_01_BEFORE, OLD_SOLUTION);
  ck_assert(note_leaks(old_lecture, sol, names, 1, why, sizeof why));
  ck_assert_msg(strstr(why, "cut from solutions/01-warp-scan/warp_scan.cu") != NULL, "%s", why);
  ck_assert(note_leaks(PASTED, sol, names, 1, why, sizeof why));
  ck_assert_msg(strstr(why, "repeats") != NULL, "%s", why);
  ck_assert(note_leaks("<!-- quoted from: build/solutions/03-blelloch/model --case banks -->\n```\nx\n```\n", sol,
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

/* ---------------------------------------------------------------- stated points
 *
 * A handout states how many of its 100 points need no GPU: "N of the 100
 * points", "N points need no GPU" (and a few more phrasings, ANYWHERE below)
 * wherever they appear, and any "N point(s)" in its section "Without an
 * NVIDIA GPU" (leaving out 0, "with 0 points", and "the 100 points"). Every
 * such number must be the sum of the ptx and model checks of grade.conf. */

/* The text with newlines as spaces, so that a claim may wrap. */
static char *flatten(const char *text, size_t len) {
  char *s = strndup(text, len);
  for (char *p = s; *p; p++)
    if (*p == '\n') *p = ' ';
  return s;
}

/* Calls back for every number in s followed by `suffix`. */
static int claims_in(const char *s, const char *suffix, int skip_the, double want, int *claims, char *bad,
                     size_t cap) {
  size_t sl = strlen(suffix);
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9' || (p > s && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))) continue;
    char *end;
    double v = strtod(p, &end);
    if (strncmp(end, suffix, sl)) continue;
    if (skip_the && (v == 0 || (p - s >= 4 && !strncmp(p - 4, "the ", 4)))) continue;
    if (v != want) {
      snprintf(bad, cap, "\"%.*s\" but the ptx and model checks of grade.conf are worth %g", (int)(end - p + sl), p,
               want);
      return -1;
    }
    (*claims)++;
  }
  return 0;
}

/* Returns how many statements of no-GPU points the handout makes, or -1 (bad set). */
static int stated_no_gpu_points(const char *text, double want, char *bad, size_t cap) {
  int claims = 0;
  char *all = flatten(text, strlen(text));
  static const char *const ANYWHERE[] = {" of the 100 points", " points need no GPU", " points that need no GPU",
                                          " points without a GPU", " points earned without a GPU"};
  int rc = 0;
  for (size_t i = 0; !rc && i < sizeof ANYWHERE / sizeof *ANYWHERE; i++)
    rc = claims_in(all, ANYWHERE[i], 0, want, &claims, bad, cap);
  free(all);
  const char *sec = strstr(text, "### Without an NVIDIA GPU");
  if (!rc && sec) {
    const char *end = strstr(sec + 1, "\n#");
    char *body = flatten(sec, end ? (size_t)(end - sec) : strlen(sec));
    rc = claims_in(body, " point", 1, want, &claims, bad, cap);
    free(body);
  }
  return rc ? -1 : claims;
}

static double no_gpu_points(const assignment_conf *a) {
  double sum = 0;
  for (int c = 0; c < a->n_checks; c++)
    if (!conf_kind_needs_gpu(a->checks[c].kind)) sum += a->checks[c].points;
  return sum;
}

static void load_conf(const char *assignment, assignment_conf *a) {
  char path[512], err[512];
  snprintf(path, sizeof path, "assignments/%s/grade.conf", assignment);
  ck_assert_msg(conf_load(path, a, err, sizeof err) == 0, "%s", err);
}

/* The assignments: folders of assignments/ with a grade.conf. */
static int list_assignments(char names[][64], int cap) {
  glob_t g;
  int n = 0;
  if (glob("assignments/*/grade.conf", 0, NULL, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc && n < cap; i++) {
      const char *a = g.gl_pathv[i] + strlen("assignments/");
      snprintf(names[n++], 64, "%.*s", (int)(strchr(a, '/') - a), a);
    }
  globfree(&g);
  ck_assert_int_gt(n, 0);
  return n;
}

/* Assignment name's handout (its path in path), which must exist. */
static char *read_handout(const char *name, char *path, size_t cap) {
  snprintf(path, cap, "assignments/%s/README.md", name);
  char *text = read_text(path);
  ck_assert_msg(text != NULL, "%s is missing", path);
  return text;
}

START_TEST(test_handout_stated_points) {
  char names[16][64];
  int n = list_assignments(names, 16);
  for (int i = 0; i < n; i++) {
    static assignment_conf a;
    load_conf(names[i], &a);
    char path[512], bad[512];
    char *text = read_handout(names[i], path, sizeof path);
    int claims = stated_no_gpu_points(text, no_gpu_points(&a), bad, sizeof bad);
    ck_assert_msg(claims != -1, "%s says %s", path, bad);
    ck_assert_msg(claims >= 1, "%s does not say how many points need no GPU (\"N of the 100 points\")", path);
    free(text);
  }
}
END_TEST

/* What a handout says the untouched starter earns must be what grade.conf
 * says: "untouched starter earns N" is the sum of the checks marked
 * expect_starter = pass; "untouched starter scores at most N" lies between
 * that sum and 10 (the course's rule). */
START_TEST(test_handout_stated_starter_points) {
  char names[16][64];
  int n = list_assignments(names, 16);
  for (int i = 0; i < n; i++) {
    static assignment_conf a;
    load_conf(names[i], &a);
    double pass = 0;
    for (int c = 0; c < a.n_checks; c++)
      if (a.checks[c].expect_starter == EXPECT_PASS) pass += a.checks[c].points;
    char path[512];
    char *text = read_handout(names[i], path, sizeof path);
    char *all = flatten(text, strlen(text));
    static const char EARNS[] = "untouched starter earns ", AT_MOST[] = "untouched starter scores at most ";
    for (const char *p = strstr(all, EARNS); p; p = strstr(p + 1, EARNS)) {
      double v = strtod(p + strlen(EARNS), NULL);
      ck_assert_msg(v == pass, "%s says the untouched starter earns %g, but its expect_starter = pass checks are worth %g",
                    path, v, pass);
    }
    for (const char *p = strstr(all, AT_MOST); p; p = strstr(p + 1, AT_MOST)) {
      double v = strtod(p + strlen(AT_MOST), NULL);
      ck_assert_msg(v >= pass && v <= 10, "%s says the untouched starter scores at most %g (want %g to 10)", path, v,
                    pass);
    }
    free(all);
    free(text);
  }
}
END_TEST

/* The phrasings the old test missed, and the ones it caught, on fixtures. */
START_TEST(test_stated_points_fixtures) {
  char bad[512];
  static const char OLD_01[] = "### Without an NVIDIA GPU\n\n`make grade A=01` still builds your file and still runs "
                               "the four `ptx` checks, because they only\nneed `nvcc -ptx`. That is 25 of the 100 "
                               "points. It says \"no CUDA device\", and marks the other checks\n*ungraded: no GPU* "
                               "with 0 points.\n\n## Questions\n";
  ck_assert_int_eq(stated_no_gpu_points(OLD_01, 30, bad, sizeof bad), -1);
  ck_assert_msg(strstr(bad, "25 of the 100 points") != NULL, "%s", bad);
  ck_assert_int_eq(stated_no_gpu_points(OLD_01, 25, bad, sizeof bad), 1);
  ck_assert_int_eq(stated_no_gpu_points("runs the checks (10 of the\n100 points) and", 15, bad, sizeof bad), -1);
  ck_assert_int_eq(stated_no_gpu_points("### Without an NVIDIA GPU\n\nSo 20 points need no GPU.\n", 30, bad,
                                        sizeof bad), -1);
  ck_assert_int_eq(stated_no_gpu_points("## Grading\n\nHere 20 points need\nno GPU.\n", 30, bad, sizeof bad), -1);
  ck_assert_int_ge(stated_no_gpu_points("### Without an NVIDIA GPU\n\nSo 30 points need no GPU, the other 70 "
                                        "are\n## next\n", 30, bad, sizeof bad), 1);
}
END_TEST

/* ---------------------------------------------------------------- written questions and rubrics
 *
 * A handout's "## Questions" section states the total ("**N points** in all")
 * and each question's points: a line "K. **Title** (P points). ...". Its
 * ANSWERS.md has, under "## K. ...", a rubric "**Rubric (P points).**" with
 * lines "- full (P): ...", at least one "- partial (x): ..." with 0 < x < P,
 * and "- none (0): ...". */
enum { MAX_QUESTIONS = 32 };

typedef struct question {
  int number;
  double points;
} question;

/* Reads the questions of a handout; returns their count, or -1 with why set. */
static int handout_questions(const char *text, question *q, double *total, char *why, size_t cap) {
  const char *sec = strstr(text, "\n## Questions");
  if (!sec) return snprintf(why, cap, "no '## Questions' section"), -1;
  const char *end = strstr(sec + 1, "\n## ");
  if (!end) end = sec + strlen(sec);
  char *body = strndup(sec, (size_t)(end - sec));
  *total = -1;
  char *flat = flatten(body, strlen(body));
  for (char *p = strstr(flat, " points** in all"); p; p = NULL) {
    char *num = p;
    while (num > flat && num[-1] != '*') num--;
    *total = atof(num);
  }
  free(flat);
  int n = 0;
  char *save = NULL;
  for (char *line = strtok_r(body, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    int number, used = 0;
    if (sscanf(line, "%d. **%n", &number, &used) != 1 || !used) continue;
    char *close = strstr(line + used, "** (");
    double points;
    if (!close || sscanf(close, "** (%lf point", &points) != 1) {
      snprintf(why, cap, "question %d states no points: \"%.60s\"", number, line);
      free(body);
      return -1;
    }
    if (n == MAX_QUESTIONS) break;
    q[n++] = (question){number, points};
  }
  free(body);
  if (*total < 0) return snprintf(why, cap, "the Questions section states no total (\"**N points** in all\")"), -1;
  return n;
}

/* Finds the rubric of question `number` in an ANSWERS.md; returns its points,
 * or -1 with why set when it is missing or malformed. */
static double answers_rubric(const char *answers, int number, char *why, size_t cap) {
  char head[32];
  snprintf(head, sizeof head, "\n## %d. ", number);
  const char *sec = strstr(answers, head);
  if (!sec) return snprintf(why, cap, "no section '## %d.'", number), -1;
  const char *end = strstr(sec + 1, "\n## ");
  if (!end) end = sec + strlen(sec);
  const char *r = strstr(sec, "**Rubric (");
  double points;
  if (!r || r > end || sscanf(r, "**Rubric (%lf point", &points) != 1)
    return snprintf(why, cap, "question %d has no \"**Rubric (P points).**\"", number), -1;
  int full = 0, partial = 0, none = 0;
  for (const char *p = strstr(r, "\n- "); p && p < end; p = strstr(p + 1, "\n- ")) {
    double x;
    if (sscanf(p, "\n- full (%lf)", &x) == 1) {
      if (x != points) return snprintf(why, cap, "question %d: full credit %g of %g", number, x, points), -1;
      full++;
    } else if (sscanf(p, "\n- partial (%lf)", &x) == 1) {
      if (!(x > 0 && x < points))
        return snprintf(why, cap, "question %d: partial credit %g outside (0, %g)", number, x, points), -1;
      partial++;
    } else if (sscanf(p, "\n- none (%lf)", &x) == 1) {
      if (x != 0) return snprintf(why, cap, "question %d: no credit is %g, not 0", number, x), -1;
      none++;
    }
  }
  if (full != 1 || partial < 1 || none != 1)
    return snprintf(why, cap, "question %d: the rubric needs one full, some partial and one none line", number), -1;
  return points;
}

/* The rubric sections of an ANSWERS.md: how many, and their points in all. */
static int answers_rubric_count(const char *answers, double *sum) {
  int n = 0;
  *sum = 0;
  for (const char *r = strstr(answers, "**Rubric ("); r; r = strstr(r + 1, "**Rubric (")) {
    double p;
    if (sscanf(r, "**Rubric (%lf point", &p) == 1) *sum += p, n++;
  }
  return n;
}

/* Checks a handout's questions against its answers; returns 0, or -1 with why set. */
static int questions_match_rubrics(const char *handout, const char *answers, char *why, size_t cap) {
  question q[MAX_QUESTIONS];
  double total, sum = 0, rubric_sum;
  int n = handout_questions(handout, q, &total, why, cap);
  if (n < 0) return -1;
  if (n == 0) return snprintf(why, cap, "no numbered questions"), -1;
  for (int i = 0; i < n; i++) {
    double r = answers_rubric(answers, q[i].number, why, cap);
    if (r < 0) return -1;
    if (r != q[i].points)
      return snprintf(why, cap, "question %d is worth %g in the handout, %g in the rubric", q[i].number, q[i].points,
                      r),
             -1;
    sum += q[i].points;
  }
  if (sum != total) return snprintf(why, cap, "the questions add up to %g, the handout says %g", sum, total), -1;
  int rubrics = answers_rubric_count(answers, &rubric_sum);
  if (rubrics != n || rubric_sum != total)
    return snprintf(why, cap, "ANSWERS.md has %d rubrics worth %g; the handout has %d questions worth %g", rubrics,
                    rubric_sum, n, total),
           -1;
  return 0;
}

START_TEST(test_written_questions_have_rubrics) {
  char names[16][64];
  int n = list_assignments(names, 16), checked = 0;
  for (int i = 0; i < n; i++) {
    char path[512], why[512];
    snprintf(path, sizeof path, "assignments/%s/README.md", names[i]);
    char *handout = read_text(path);
    snprintf(path, sizeof path, "solutions/%s/ANSWERS.md", names[i]);
    char *answers = read_text(path);
    if (handout && answers && strstr(handout, "\n## Questions")) {
      ck_assert_msg(questions_match_rubrics(handout, answers, why, sizeof why) == 0, "%s: %s", names[i], why);
      checked++;
    }
    free(handout);
    free(answers);
  }
  ck_assert_msg(checked >= 3, "only %d handouts with questions and answers found", checked);
}
END_TEST

START_TEST(test_rubric_fixtures) {
  static const char HANDOUT[] = "x\n## Questions\n\nGraded by hand: **7 points** in all.\n\n"
                                "1. **One** (3 points). Why?\n2. **Two** (4 points). How?\n\n## Grading\n";
  static const char GOOD[] = "# A\n\n## 1. One\n\ntext\n\n**Rubric (3 points).**\n- full (3): all\n- partial (1): some\n"
                             "- none (0): nothing\n\n## 2. Two\n\n**Rubric (4 points).**\n- full (4): all\n"
                             "- partial (2): half\n- partial (1): a bit\n- none (0): nothing\n";
  char why[512];
  ck_assert_msg(questions_match_rubrics(HANDOUT, GOOD, why, sizeof why) == 0, "%s", why);
  static const char WRONG_POINTS[] = "# A\n## 1. One\n**Rubric (3 points).**\n- full (3): a\n- partial (1): b\n- none (0): c\n"
                                     "## 2. Two\n**Rubric (5 points).**\n- full (5): a\n- partial (1): b\n- none (0): c\n";
  ck_assert_int_eq(questions_match_rubrics(HANDOUT, WRONG_POINTS, why, sizeof why), -1);
  static const char MISSING[] = "# A\n## 1. One\n**Rubric (3 points).**\n- full (3): a\n- partial (1): b\n- none (0): c\n";
  ck_assert_int_eq(questions_match_rubrics(HANDOUT, MISSING, why, sizeof why), -1);
  ck_assert_msg(strstr(why, "## 2.") != NULL, "%s", why);
  static const char NO_PARTIAL[] = "# A\n## 1. One\n**Rubric (3 points).**\n- full (3): a\n- none (0): c\n"
                                   "## 2. Two\n**Rubric (4 points).**\n- full (4): a\n- partial (1): b\n- none (0): c\n";
  ck_assert_int_eq(questions_match_rubrics(HANDOUT, NO_PARTIAL, why, sizeof why), -1);
  static const char BAD_TOTAL[] = "x\n## Questions\n\n**9 points** in all.\n\n1. **One** (3 points). a\n"
                                  "2. **Two** (4 points). b\n";
  ck_assert_int_eq(questions_match_rubrics(BAD_TOTAL, GOOD, why, sizeof why), -1);
}
END_TEST

/* ---------------------------------------------------------------- the student guide's sample runs
 *
 * Every grader row a guide shows ("[ i/N] name kind VERDICT x/y reason") is a
 * check of a real assignment: the i-th of its N checks, with that name, kind
 * and points. A block without an "NN-name: Title (100 points)" line must
 * match one assignment. A ptx row names the kernel its check counts
 * ("scan_shfl: ..."), and a kernel a sanitizer report names ("at
 * scan4_syncwarp+0x5f0") is one the assignment launches. */
static int ident_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* Whether some CUDA source of the assignment launches the kernel: its name,
 * as a whole word, followed by "<<<" or standing in a table of kernels (",",
 * "}"). A kernel that is only defined (a PTX probe) is never launched, so a
 * sanitizer cannot report a hazard in it. */
static int kernel_launched(const char *assignment, const char *kernel) {
  char pattern[512];
  snprintf(pattern, sizeof pattern, "assignments/%s/*.cu", assignment);
  glob_t g;
  glob(pattern, 0, NULL, &g);
  snprintf(pattern, sizeof pattern, "starter/%s/*.cu", assignment);
  glob(pattern, GLOB_APPEND, NULL, &g);
  snprintf(pattern, sizeof pattern, "solutions/%s/*.cu", assignment);
  glob(pattern, GLOB_APPEND, NULL, &g);
  int launched = 0;
  size_t kl = strlen(kernel);
  for (size_t i = 0; i < g.gl_pathc && !launched; i++) {
    char *src = read_text(g.gl_pathv[i]);
    for (const char *p = src ? strstr(src, kernel) : NULL; p && !launched; p = strstr(p + 1, kernel)) {
      if ((p > src && ident_char(p[-1])) || ident_char(p[kl])) continue;
      const char *after = p + kl + strspn(p + kl, " ");
      launched = !strncmp(after, "<<<", 3) || *after == ',' || *after == '}';
    }
    free(src);
  }
  globfree(&g);
  return launched;
}

/* Whether a row fits check i of assignment a; why says how it does not. */
static int row_fits(const char *assignment, const char *row, char *why, size_t cap) {
  static assignment_conf a;
  load_conf(assignment, &a);
  int i, n;
  char name[64], kind[32], verdict[32];
  double got, points;
  if (sscanf(row, " [%d/%d] %63s %31s %31s %lf/%lf", &i, &n, name, kind, verdict, &got, &points) != 7)
    return snprintf(why, cap, "cannot read the row"), 0;
  if (n != a.n_checks) return snprintf(why, cap, "%s has %d checks, the row says %d", assignment, a.n_checks, n), 0;
  const check_conf *c = &a.checks[i - 1];
  if (i < 1 || i > n || strcmp(c->name, name)) return snprintf(why, cap, "check %d of %s is not '%s'", i, assignment, name), 0;
  if (strcmp(conf_kind_name(c->kind), kind) || points != c->points || got > points)
    return snprintf(why, cap, "%s is a %s check worth %g in grade.conf", name, conf_kind_name(c->kind), c->points), 0;
  /* kernels named in the reason */
  const char *reason = strstr(row, "/");
  reason = reason ? strchr(reason, ' ') : NULL;
  if (reason && c->kind == KIND_PTX && strstr(reason, " matching PTX lines") && !strstr(reason, c->kernel))
    return snprintf(why, cap, "%s counts kernel %s", name, c->kernel), 0;
  for (const char *at = reason ? strstr(reason, " at ") : NULL; at; at = strstr(at + 1, " at ")) {
    char kernel[128];
    if (sscanf(at, " at %127[A-Za-z0-9_]+0x", kernel) == 1 && strstr(at, "+0x") && !kernel_launched(assignment, kernel))
      return snprintf(why, cap, "%s launches no kernel '%s'", assignment, kernel), 0;
  }
  return 1;
}

static void check_guide_rows(const char *path) {
  char *text = read_text(path);
  ck_assert_msg(text != NULL, "%s is missing", path);
  char names[16][64];
  int n_names = list_assignments(names, 16), rows = 0;
  for (char *fence = strstr(text, "\n```"); fence; fence = strstr(fence + 1, "\n```")) {
    char *body = strchr(fence + 1, '\n');
    char *close = body ? strstr(body, "\n```") : NULL;
    if (!close) break;
    char *block = strndup(body + 1, (size_t)(close - body)), *save = NULL;
    const char *current = NULL;
    for (char *line = strtok_r(block, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
      for (int i = 0; i < n_names; i++)
        if (!strncmp(line, names[i], strlen(names[i])) && line[strlen(names[i])] == ':') current = names[i];
      const char *lead = line + strspn(line, " ");
      int a, b;
      if (sscanf(lead, "[%d/%d]", &a, &b) != 2) continue;
      char why[512] = "";
      int fits = 0;
      if (current) {
        fits = row_fits(current, line, why, sizeof why);
      } else {
        for (int i = 0; i < n_names && !fits; i++) fits = row_fits(names[i], line, why, sizeof why);
      }
      ck_assert_msg(fits, "%s: a sample row is no check of %s: %s\n  %s", path, current ? current : "any assignment",
                    why, line);
      rows++;
    }
    free(block);
    fence = close;
  }
  ck_assert_msg(rows >= 4, "%s: only %d sample rows found", path, rows);
  free(text);
}

START_TEST(test_student_guide_sample_rows) { check_guide_rows("docs/student-guide.md"); }
END_TEST

/* The old guide's row of a kernel the harness no longer launches, and its
 * 11-check table, are caught. */
START_TEST(test_guide_rows_fixture) {
  char why[512];
  ck_assert(kernel_launched("01-warp-scan", "scan4_syncwarp"));
  ck_assert(!kernel_launched("01-warp-scan", "scan_syncwarp")); /* a PTX probe, never launched */
  ck_assert(!row_fits("01-warp-scan",
                      "  [ 6/11] racecheck-syncwarp       sanitizer FAIL       0.00/5.00   racecheck reports: "
                      "Warning: Race reported between Read access at scan_syncwarp+0x1a0",
                      why, sizeof why));
  ck_assert(!row_fits("01-warp-scan",
                      "  [ 7/12] racecheck-syncwarp       sanitizer FAIL       0.00/5.00   racecheck reports: "
                      "Warning: Race reported between Read access at scan_syncwarp+0x1a0",
                      why, sizeof why));
  ck_assert_msg(strstr(why, "scan_syncwarp") != NULL, "%s", why);
  ck_assert(!row_fits("01-warp-scan",
                      "  [ 1/12] correct-scratch          correct   PARTIAL    2.14/15.00  1/7 cases correct", why,
                      sizeof why));
}
END_TEST

/* ---------------------------------------------------------------- lecture examples' PTX
 *
 * Lecture 01 says what its max-scan example compiles to. */
START_TEST(test_warp_max_scan_ptx) {
  static const struct {
    const char *kernel, *pattern;
    long want;
  } rows[] = {
      {"warp_max_shfl", "shfl\\.sync\\.up", 5},
      {"warp_max_shfl", "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared", 0},
      {"warp_max_syncwarp", "bar\\.warp\\.sync", 11},
      {"warp_max_syncwarp", "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared", 11},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char err[256];
    long n = ptx_count("build/lectures/warp_max_scan.ptx", rows[i].kernel, rows[i].pattern, err, sizeof err);
    ck_assert_msg(n >= 0, "%s", err);
    ck_assert_msg(n == rows[i].want, "%s: %ld lines match %s, lecture 01 says %ld", rows[i].kernel, n,
                  rows[i].pattern, rows[i].want);
  }
}
END_TEST

Suite *teaching_suite(void) {
  Suite *s = suite_create("teaching");
  TCase *t = tcase_create("notes");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_doc_quotes_match_sources);
  tcase_add_test(t, test_doc_links_resolve);
  tcase_add_test(t, test_notes_show_no_solution);
  tcase_add_test(t, test_leak_detector_catches_old_lecture_01);
  tcase_add_test(t, test_leak_detector_catches_every_solution);
  tcase_add_test(t, test_handout_stated_points);
  tcase_add_test(t, test_handout_stated_starter_points);
  tcase_add_test(t, test_stated_points_fixtures);
  tcase_add_test(t, test_written_questions_have_rubrics);
  tcase_add_test(t, test_rubric_fixtures);
  tcase_add_test(t, test_student_guide_sample_rows);
  tcase_add_test(t, test_guide_rows_fixture);
  tcase_add_test(t, test_warp_max_scan_ptx);
  suite_add_tcase(s, t);
  return s;
}
