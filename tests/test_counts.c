/* test_counts.c: every count the course's text states about compiled code
 * (barriers, shared or volatile accesses, shuffles, registers) is computed
 * from the PTX that make builds (issue 40, "counts come from the code").
 *
 * Scope: lectures/NN-name.md, assignments/NN-name/README.md,
 * solutions/NN-name/ANSWERS.md. tests/README.md is the convention:
 *   - A file is cut into blocks: runs of non-blank lines outside fenced code.
 *   - A count tag on the lines right after a block binds a number of it:
 *       <!-- count: "PHRASE" = WHAT BUILD KERNEL -->
 *     PHRASE is text of the block with # where the number stands ("# barriers
 *     and # shared accesses" binds the first #; write one tag per number);
 *     WHAT a pattern of count_whats[] (bar.sync, bar.warp.sync, volatile,
 *     plain-shared, shared, ld.shared, st.shared, shfl.up, shfl.bfly, shfl,
 *     registers);
 *     BUILD solutions/NN, starter/NN (their
 *     runner.ptx), lectures/NAME (build/lectures/NAME.ptx) or variant/NAME
 *     (build/variants/NAME.ptx, made by grader/tests/tests.mk from
 *     assignments/NN/tests/variants/NAME.patch); KERNEL the .entry the lines are
 *     counted in. Every place the phrase occurs must state the counted number.
 *   - A count is found by its words: a number (digits or a word from two to
 *     twenty) followed within three words by barriers, bar.sync,
 *     bar.warp.sync, registers, instructions, accesses, shuffles,
 *     shfl.sync.up, shfl.sync.bfly, or by loads/stores with shared or
 *     volatile before them.
 *     Every count found must be a tag's #, or its block carries
 *       <!-- counts: not compiled: REASON -->
 *     (a count on paper, per iteration, at run time, or of another toolkit).
 * The problems name file:line, the text's number and the counted one. Run
 * from the repository root after `make test-builds`. */
#include <ctype.h>
#include <glob.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "count_tags.h"
#include "ptx.h"
#include "score.h"
#include "teaching.h"
#include "tests.h"

static const char *const SCOPE[] = {"lectures/*.md", "assignments/*/README.md", "solutions/*/ANSWERS.md"};

/* What a count counts: lines of a kernel's PTX matching a pattern. */
static const struct {
  const char *name, *pattern;
} WHATS[] = {
    {"bar.sync", "^[[:space:]]*(bar|barrier)\\.sync"},
    {"bar.warp.sync", "^[[:space:]]*bar\\.warp\\.sync"},
    {"volatile", "^[[:space:]]*(ld|st)\\.volatile\\.shared"},
    {"plain-shared", "^[[:space:]]*(ld|st)\\.shared"},
    {"shared", "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared"},
    {"ld.shared", "^[[:space:]]*ld(\\.volatile)?\\.shared"},
    {"st.shared", "^[[:space:]]*st(\\.volatile)?\\.shared"},
    {"shfl.up", "^[[:space:]]*shfl\\.sync\\.up"},
    {"shfl.bfly", "^[[:space:]]*shfl\\.sync\\.bfly"},
    {"shfl", "^[[:space:]]*shfl\\.sync"},
};
#define N_WHATS (sizeof WHATS / sizeof *WHATS)

/* ---------------------------------------------------------------- counting */

/* The patch of variant NAME under root (assignments/NN/tests/variants/NAME.patch, the one
 * assignment that has it) into path; 0, or -1 when no assignment or more than one has it. */
static int variant_patch(const char *root, const char *name, char *path, size_t cap) {
  char pattern[1024];
  glob_t g;
  snprintf(pattern, sizeof pattern, "%s/assignments/*/tests/variants/%s.patch", root, name);
  int found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc == 1;
  if (found) snprintf(path, cap, "%s", g.gl_pathv[0]);
  globfree(&g);
  return found ? 0 : -1;
}

/* The PTX file a BUILD names, under root; NULL (and why) when BUILD is not one. */
static char *build_ptx(const char *root, const char *build, char *why, size_t cap) {
  char path[1024];
  if (!strncmp(build, "solutions/", 10) || !strncmp(build, "starter/", 8)) {
    const char *nn = strchr(build, '/') + 1;
    char pattern[1024];
    glob_t g;
    snprintf(pattern, sizeof pattern, "%s/assignments/%.2s-*", root, nn);
    if (strlen(nn) != 2 || glob(pattern, 0, NULL, &g) || g.gl_pathc != 1) {
      snprintf(why, cap, "build %s: NN must name one assignment (solutions/01, starter/02)", build);
      return NULL;
    }
    snprintf(path, sizeof path, "%s/build/%.*s/%s/runner.ptx", root, (int)(nn - build - 1), build, strrchr(g.gl_pathv[0], '/') + 1);
    globfree(&g);
  } else if (!strncmp(build, "lectures/", 9) && build[9]) {
    snprintf(path, sizeof path, "%s/build/lectures/%s.ptx", root, build + 9);
  } else if (!strncmp(build, "build/", 6) && strlen(build) > 10 && !strcmp(build + strlen(build) - 4, ".ptx")) {
    snprintf(path, sizeof path, "%s/%s", root, build);
  } else if (!strncmp(build, "variant/", 8) && build[8]) {
    if (variant_patch(root, build + 8, path, sizeof path)) {
      snprintf(why, cap, "build %s: no one assignments/*/tests/variants/%s.patch", build, build + 8);
      return NULL;
    }
    snprintf(path, sizeof path, "%s/build/variants/%s.ptx", root, build + 8);
  } else {
    snprintf(why, cap, "build %s: not solutions/NN, starter/NN, lectures/NAME, variant/NAME or build/PATH.ptx", build);
    return NULL;
  }
  return strdup(path);
}

/* The registers a thread of kernel uses, by ptxas -v for sm_90 on the PTX
 * (the toolkit of $NVCC, else /usr/local/cuda); -1 with why. */
static long ptx_registers(const char *ptx, const char *kernel, char *why, size_t cap) {
  static char *cached_path, *cached_out; /* ptxas takes a second or two on 04's PTX: once a file */
  if (!cached_path || strcmp(cached_path, ptx)) {
    const char *nvcc = getenv("NVCC");
    char ptxas[1024], cmd[3072];
    if (nvcc && strrchr(nvcc, '/'))
      snprintf(ptxas, sizeof ptxas, "%.*s/ptxas", (int)(strrchr(nvcc, '/') - nvcc), nvcc);
    else
      snprintf(ptxas, sizeof ptxas, "/usr/local/cuda/bin/ptxas");
    char *dir = make_temp_dir("counts-ptxas");
    snprintf(cmd, sizeof cmd, "'%s' -v -arch=sm_90 '%s' -o '%s/out.cubin' > '%s/log' 2>&1", ptxas, ptx, dir, dir);
    int rc = run_shell(cmd);
    snprintf(cmd, sizeof cmd, "%s/log", dir);
    free(cached_path), free(cached_out);
    cached_path = strdup(ptx);
    cached_out = read_text(cmd);
    remove_dir(dir);
    free(dir);
    if (rc || !cached_out) {
      snprintf(why, cap, "count tag: %s -v -arch=sm_90 %s failed: %.200s", ptxas, ptx, cached_out ? cached_out : "");
      free(cached_path), cached_path = NULL;
      return -1;
    }
  }
  char entry[512];
  snprintf(entry, sizeof entry, "Compiling entry function '%s' for", kernel);
  const char *e = strstr(cached_out, entry), *used = e ? strstr(e, "Used ") : NULL;
  if (!used) {
    snprintf(why, cap, "count tag: ptxas -v says nothing of kernel '%s' in %s", kernel, ptx);
    return -1;
  }
  return strtol(used + 5, NULL, 10);
}

/* Counts what a tag names; -1 with why when it cannot. */
static long tag_count(const char *root, const tag *t, char *why, size_t cap) {
  if (!strcmp(t->what, "registers")) {
    char *ptx = build_ptx(root, t->build, why, cap);
    long n = ptx ? ptx_registers(ptx, t->kernel, why, cap) : -1;
    free(ptx);
    return n;
  }
  const char *pattern = NULL;
  for (size_t i = 0; i < N_WHATS; i++)
    if (!strcmp(WHATS[i].name, t->what)) pattern = WHATS[i].pattern;
  if (!pattern) {
    snprintf(why, cap, "count tag: %s is not one of bar.sync, bar.warp.sync, volatile, plain-shared, shared, ld.shared, st.shared, shfl.up, shfl.bfly, shfl, registers", t->what);
    return -1;
  }
  char *ptx = build_ptx(root, t->build, why, cap);
  if (!ptx) return -1;
  char err[512];
  long n = ptx_count(ptx, t->kernel, pattern, err, sizeof err);
  if (n < 0) snprintf(why, cap, "count tag: %s (make test-builds makes it)", err);
  free(ptx);
  return n;
}

/* The assignment folder (assignments/NN-name) a build is of; 0, or -1 with why. */
static int build_assignment(const char *root, const char *build, char *out, size_t cap, char *why, size_t wcap) {
  char nn[3] = "";
  if (!strncmp(build, "solutions/", 10) || !strncmp(build, "starter/", 8)) {
    snprintf(nn, sizeof nn, "%s", strchr(build, '/') + 1);
  } else if (!strncmp(build, "variant/", 8)) {
    char path[1024];
    char *patch = variant_patch(root, build + 8, path, sizeof path) ? NULL : read_text(path);
    const char *m = patch ? strstr(patch, "\n--- ") : NULL, *slash = m ? strchr(m + 5, '/') : NULL;
    if (slash) snprintf(nn, sizeof nn, "%s", slash + 1);
    free(patch);
  }
  glob_t g;
  char pattern[1024];
  snprintf(pattern, sizeof pattern, "%s/assignments/%s-*", root, nn);
  if (!*nn || glob(pattern, 0, NULL, &g) || g.gl_pathc != 1) {
    snprintf(why, wcap, "passes tag: build %s names no one assignment (solutions/NN, starter/NN, variant/NAME)", build);
    return -1;
  }
  snprintf(out, cap, "%s", g.gl_pathv[0]);
  globfree(&g);
  return 0;
}

/* Whether a build passes a ptx check of its assignment's grade.conf: 1 or 0,
 * with what it counted in got; -1 with why when it cannot tell. */
static int tag_passes(const char *root, const tag *t, char *got, size_t gcap, char *why, size_t cap) {
  char dir[1024], path[1100], err[512];
  if (build_assignment(root, t->build, dir, sizeof dir, why, cap)) return -1;
  snprintf(path, sizeof path, "%s/grade.conf", dir);
  assignment_conf *a = calloc(1, sizeof *a);
  int rc = -1;
  if (conf_load(path, a, err, sizeof err)) {
    snprintf(why, cap, "passes tag: %s", err);
  } else {
    const check_conf *c = NULL;
    for (int i = 0; i < a->n_checks; i++)
      if (!strcmp(a->checks[i].name, t->kernel)) c = &a->checks[i];
    char *ptx = NULL;
    if (!c || c->kind != KIND_PTX) {
      snprintf(why, cap, "passes tag: %s has no ptx check [%s]", path + strlen(root) + 1, t->kernel);
    } else if ((ptx = build_ptx(root, t->build, why, cap))) {
      long n = ptx_count(ptx, c->kernel, c->pattern, err, sizeof err);
      char bounds[64];
      score_describe_bounds(c->min, c->max, bounds, sizeof bounds);
      if (n < 0)
        snprintf(why, cap, "passes tag: %s (make test-builds makes it)", err);
      else
        rc = score_in_bounds((double)n, c->min, c->max), snprintf(got, gcap, "%ld lines of %s match, [%s] wants %s", n, c->kernel, c->name, bounds);
    }
    free(ptx);
  }
  free(a);
  return rc;
}

/* tests/counts-known-wrong.txt: the tags whose text is wrong today and is being
 * fixed elsewhere, FILE "PHRASE" a line. Their problem is expected (so the
 * test shows it catches them); one that passes must leave the list. */
static const char KNOWN_WRONG[] = "tests/counts-known-wrong.txt";
typedef struct known {
  char **entry; /* "FILE \"PHRASE\"" */
  int *line, *hit, n;
} known;
static known *known_wrong; /* NULL: every problem counts (the fixtures) */

static int known_wrong_hit(const char *file, const char *phrase) {
  if (!known_wrong) return 0;
  char key[1024];
  snprintf(key, sizeof key, "%s \"%s\"", file, phrase);
  for (int i = 0; i < known_wrong->n; i++)
    if (!strcmp(known_wrong->entry[i], key)) return ++known_wrong->hit[i];
  return 0;
}

/* A variant that fails the check its text calls it the fix for: each line of
 * the assignment's starter files that says the same phrase is a problem too
 * (a starter's TODO comment words the task as the handout does). */
static void starter_says(const char *root, const tag *t, const char *got, problems *pr) {
  char dir[1024], why[512], pattern[1100];
  if (build_assignment(root, t->build, dir, sizeof dir, why, sizeof why)) return;
  snprintf(pattern, sizeof pattern, "%s/starter/%s/*", root, strrchr(dir, '/') + 1);
  glob_t g;
  if (glob(pattern, 0, NULL, &g)) return;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    char *text = read_text(g.gl_pathv[i]);
    const char *file = g.gl_pathv[i] + strlen(root) + 1;
    int line = 1;
    for (const char *s = text; s && *s; s++) {
      const char *end;
      size_t off;
      long v;
      if (phrase_at(s, t->phrase, &end, &off, &v) && !known_wrong_hit(file, t->phrase))
        problem(pr, file, line, "\"%s\": %s fails %s: %s", t->phrase, t->build, t->kernel, got);
      line += *s == '\n';
    }
    free(text);
  }
  globfree(&g);
}

/* ---------------------------------------------------------------- one file */

static void check_block(const char *root, const char *file, const block *k, problems *pr) {
  enum { MAX = 64 };
  size_t bound[MAX];
  int n_bound = 0;
  for (int i = 0; i < k->n_tags; i++) {
    const tag *t = &k->tags[i];
    char why[1024], got[256];
    if (!t->what) { /* a passes tag */
      const char *end;
      size_t off;
      long v;
      int found = 0;
      for (const char *s = k->text; *s && !found; s++) found = phrase_at(s, t->phrase, &end, &off, &v);
      int ok = found ? tag_passes(root, t, got, sizeof got, why, sizeof why) : 0;
      if (!found)
        problem(pr, file, t->line, "passes tag: \"%s\" is not in the block above it", t->phrase);
      else if (ok < 0)
        problem(pr, file, t->line, "%s", why);
      else if (!ok && !known_wrong_hit(file, t->phrase))
        problem(pr, file, t->line, "\"%s\": %s fails %s: %s", t->phrase, t->build, t->kernel, got);
      if (found && ok == 0) starter_says(root, t, got, pr);
      continue;
    }
    long want = tag_count(root, t, why, sizeof why);
    if (want < 0) {
      problem(pr, file, t->line, "%s", why);
      continue;
    }
    int found = 0;
    for (const char *s = k->text; *s; s++) {
      const char *end;
      size_t off = 0;
      long v = -1;
      int word_start = isalnum((unsigned char)t->phrase[0]) || t->phrase[0] == '#';
      if ((word_start && s > k->text && isalnum((unsigned char)s[-1])) || !phrase_at(s, t->phrase, &end, &off, &v) ||
          off == (size_t)-1)
        continue;
      found++;
      size_t at = (size_t)(s - k->text) + off;
      if (n_bound < MAX) bound[n_bound++] = at;
      if (v != want && !known_wrong_hit(file, t->phrase))
        problem(pr, file, line_of(k, at), "\"%s\": the text says %ld, the PTX has %ld (%s lines of %s in %s)", t->phrase, v,
                want, t->what, t->kernel, t->build);
    }
    if (!found) problem(pr, file, t->line, "count tag: \"%s\" is not in the block above it (# stands for a number)", t->phrase);
  }
  if (k->exempt) return;
  size_t offs[MAX];
  long values[MAX];
  int n = find_counts(k->text, offs, values, MAX);
  for (int i = 0; i < n; i++) {
    int ok = 0;
    for (int j = 0; j < n_bound && !ok; j++) ok = bound[j] == offs[i];
    if (ok) continue;
    size_t e = offs[i];
    while (k->text[e] && k->text[e] != '\n' && e < offs[i] + 40) e++;
    problem(pr, file, line_of(k, offs[i]),
            "\"%.*s\": a count of compiled code with no count tag (or <!-- counts: not compiled: REASON -->; tests/README.md)",
            (int)(e - offs[i]), k->text + offs[i]);
  }
}

/* Checks one Markdown file (path relative to root); returns how many counts it binds. */
static int check_markdown(const char *root, const char *file, problems *pr) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", root, file);
  char *text = read_text(path);
  if (!text) {
    problem(pr, file, 0, "cannot read it");
    return 0;
  }
  blocks b;
  split_blocks(file, text, &b, pr);
  int tags = 0;
  for (int i = 0; i < b.n; i++) {
    check_block(root, file, &b.v[i], pr);
    tags += b.v[i].n_tags;
  }
  blocks_free(&b);
  free(text);
  return tags;
}

static void fail_with(const problems *pr) {
  char msg[3500];
  int len = snprintf(msg, sizeof msg, "%d problems binding counts to the PTX (tests/README.md):", pr->n);
  for (int i = 0; i < pr->n; i++) {
    fprintf(stderr, "%s\n", pr->v[i]);
    if (len < (int)sizeof msg - 300) len += snprintf(msg + len, sizeof msg - (size_t)len, "\n  %s", pr->v[i]);
  }
  fflush(stderr);
  ck_abort_msg("%s", msg);
}

START_TEST(test_counts_bound) {
  glob_t g;
  memset(&g, 0, sizeof g);
  for (size_t i = 0; i < sizeof SCOPE / sizeof *SCOPE; i++) glob(SCOPE[i], i ? GLOB_APPEND : 0, NULL, &g);
  ck_assert_msg(g.gl_pathc > 10, "only %zu Markdown files in scope: run from the repository root", g.gl_pathc);
  const char *only = getenv("COUNTS_ONLY");
  problems pr = {0};
  known kw = {0};
  char *list = read_text(KNOWN_WRONG);
  ck_assert_msg(list != NULL, "%s is missing (an empty list is a file with no entries)", KNOWN_WRONG);
  int lineno = 0;
  for (char *line = list, *nl; *line; line = nl ? nl + 1 : line + strlen(line)) {
    nl = strchr(line, '\n');
    if (nl) *nl = 0;
    lineno++;
    if (!*line || *line == '#') continue;
    kw.entry = realloc(kw.entry, (size_t)(kw.n + 1) * sizeof *kw.entry);
    kw.line = realloc(kw.line, (size_t)(kw.n + 1) * sizeof *kw.line);
    kw.hit = realloc(kw.hit, (size_t)(kw.n + 1) * sizeof *kw.hit);
    kw.entry[kw.n] = strdup(line), kw.line[kw.n] = lineno, kw.hit[kw.n++] = 0;
  }
  free(list);
  known_wrong = &kw;
  int tags = 0, files = 0;
  for (size_t i = 0; i < g.gl_pathc; i++)
    if (!only || !strcmp(only, g.gl_pathv[i])) tags += check_markdown(".", g.gl_pathv[i], &pr), files++;
  ck_assert_msg(files > 0, "COUNTS_ONLY=%s is not a Markdown file in scope", only);
  known_wrong = NULL;
  for (int i = 0; i < kw.n; i++) {
    if (!kw.hit[i] && (!only || !strncmp(kw.entry[i], only, strlen(only))))
      problem(&pr, KNOWN_WRONG, kw.line[i], "%s: its text and the PTX agree now: take it off the list", kw.entry[i]);
    else if (kw.hit[i])
      printf("counts: known wrong, caught: %s\n", kw.entry[i]);
    free(kw.entry[i]);
  }
  free(kw.entry), free(kw.line), free(kw.hit);
  printf("counts: %d counts bound to the PTX in %d files\n", tags, files);
  fflush(stdout);
  if (pr.n) fail_with(&pr);
  ck_assert_msg(only || tags >= 10, "only %d count tags: the binding was lost", tags);
  problems_free(&pr);
  globfree(&g);
}
END_TEST

/* ---------------------------------------------------------------- the checker on fixtures */

/* A fixture course: a PTX file with one kernel, an assignment folder, a variant patch, the note. */
static char *check_fixture(const char *note) {
  char *dir = make_temp_dir("counts"), path[1024];
  static const char PTX[] = ".visible .entry scan_k(\n)\n{\n\tld.volatile.shared.u32 %r1, [%r2];\n"
                            "\tst.volatile.shared.u32 [%r2], %r1;\n\tst.shared.u32 [%r2], %r1;\n\tbar.sync 0;\n"
                            "\tbar.warp.sync -1;\n\tbarrier.sync.aligned 0;\n}\n";
  snprintf(path, sizeof path, "%s/build/solutions/01-x/runner.ptx", dir);
  write_text(path, PTX, 0);
  snprintf(path, sizeof path, "%s/assignments/01-x/grade.conf", dir);
  write_text(path, "[assignment]\nname = 01-x\ntitle = x\nstudent = x.cu\nlink = inline\n\n[ptx-bar]\nkind = ptx\ntitle = two barriers\nkernel = scan_k\n"
                   "pattern = (bar|barrier)\\.sync\nmin = 1\nmax = 1\npoints = 5\n", 0);
  snprintf(path, sizeof path, "%s/assignments/01-x/tests/variants/v.patch", dir);
  write_text(path, "a variant\n--- starter/01-x/x.cu\n+++ starter/01-x/x.cu\n", 0);
  snprintf(path, sizeof path, "%s/build/variants/v.ptx", dir);
  write_text(path, ".entry scan_k(\n)\n{\n\tbar.sync 0;\n}\n", 0);
  snprintf(path, sizeof path, "%s/note.md", dir);
  write_text(path, note, 0);
  problems pr = {0};
  check_markdown(dir, "note.md", &pr);
  remove_dir(dir);
  free(dir);
  return problems_join(&pr);
}

START_TEST(test_counts_found) {
  size_t offs[8];
  long v[8];
  const char *t = "It has 18 volatile shared-memory\ninstructions, eleven `bar.sync` and 3 shared loads; 2 loads; "
                  "one barrier per step; 65,536 loads; 2 steps. 4 registers";
  ck_assert_int_eq(find_counts(t, offs, v, 8), 4);
  ck_assert_int_eq(v[0], 18);
  ck_assert_int_eq(v[1], 11);
  ck_assert_int_eq(v[2], 3);
  ck_assert_int_eq(v[3], 4);
  ck_assert_int_eq((int)offs[1], (int)(strstr(t, "eleven") - t));
  /* the butterfly shuffles of __shfl_xor_sync (lecture 01's warp minimum) are counts too */
  const char *b = "It has five `shfl.sync.bfly.b32` and 5 shfl.sync.bfly in all.";
  ck_assert_int_eq(find_counts(b, offs, v, 8), 2);
  ck_assert_int_eq(v[0], 5);
  ck_assert_int_eq((int)offs[1], (int)(strstr(b, "5 shfl") - b));
}
END_TEST

START_TEST(test_counts_checked) {
  /* digits, words, several numbers in one block, a phrase over a line break */
  EXPECT_CLEAN("The kernel has 2 volatile\naccesses and two `bar.sync`.\n"
               "<!-- count: \"# volatile accesses\" = volatile solutions/01 scan_k -->\n"
               "<!-- source: docs/results/x.txt -->\n"
               "<!-- count: \"# `bar.sync`\" = bar.sync solutions/01 scan_k -->\n");
  EXPECT_CLEAN("The kernel has 2 `bar.sync`.\n<!-- count: \"# `bar.sync`\" = bar.sync solutions/01 scan_k -->\n");
  EXPECT_CLEAN("Dropping it leaves 1 barrier: 1.\n<!-- count: \"leaves # barrier\" = bar.sync variant/v scan_k -->\n");
  /* a planted wrong number: file:line, the text's number, the counted one */
  EXPECT_PROBLEM("Intro.\n\nThe kernel has\n4 shared accesses.\n<!-- count: \"# shared accesses\" = shared solutions/01 scan_k -->\n",
                 "note.md:4: \"# shared accesses\": the text says 4, the PTX has 3 (shared lines of scan_k in solutions/01)");
  /* a count with no tag, and one exempted */
  EXPECT_PROBLEM("A step has nine barriers.\n", "note.md:1: \"nine barriers.\": a count of compiled code with no count tag");
  EXPECT_CLEAN("A step has 9 barriers.\n<!-- counts: not compiled: per step of the source -->\n");
  /* tags that cannot be read or counted */
  EXPECT_PROBLEM("x\n\n<!-- count: \"# x\" = shared solutions/01 scan_k -->\n", "note.md:3: a count tag must be on the line right after");
  EXPECT_PROBLEM("has 3 `bar.sync`\n<!-- count: \"# bar.sync\" = bar.sync solutions/01 scan_k -->\n",
                 "count tag: \"# bar.sync\" is not in the block above it");
  EXPECT_PROBLEM("has 3 x\n<!-- count: \"# x\" = loads solutions/01 scan_k -->\n", "count tag: loads is not one of");
  EXPECT_PROBLEM("has 3 x\n<!-- count: \"# x\" = shared solutions/01 other_k -->\n", "kernel 'other_k' not found");
  EXPECT_PROBLEM("has 3 x\n<!-- count: \"# x\" = shared variant/w scan_k -->\n", "no one assignments/*/tests/variants/w.patch");
  EXPECT_PROBLEM("has 3 x\n<!-- count: \"3 x\" = shared solutions/01 scan_k -->\n", "phrase has no #");
  /* a variant the text calls a fix must pass the check: v has one bar.sync, solutions/01 two */
  EXPECT_CLEAN("Then add a barrier.\n<!-- passes: \"add a barrier\" = variant/v ptx-bar -->\n");
  EXPECT_PROBLEM("Then add a barrier.\n<!-- passes: \"add a barrier\" = solutions/01 ptx-bar -->\n",
                 "note.md:2: \"add a barrier\": solutions/01 fails ptx-bar: 2 lines of scan_k match, [ptx-bar] wants exactly 1");
  EXPECT_PROBLEM("Then add a barrier.\n<!-- passes: \"add two\" = variant/v ptx-bar -->\n", "passes tag: \"add two\" is not in the block");
  EXPECT_PROBLEM("Then add a barrier.\n<!-- passes: \"add a barrier\" = variant/v ptx-none -->\n", "has no ptx check [ptx-none]");
}
END_TEST

void teaching_counts_tests(TCase *t) {
  tcase_add_test(t, test_counts_found);
  tcase_add_test(t, test_counts_checked);
  tcase_add_test(t, test_counts_bound);
}
