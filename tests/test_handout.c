/* test_handout.c: make handout. The archive, unpacked into a temporary folder, holds
 * no solution by name (solutions/, answer files) or by content (three lines of a
 * solutions/ source file that the starters lack, in any text file), and `make grade`
 * runs in it without a GPU on the prebuilt grader. Run from the repo root after
 * `make test-builds`. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"

/* ------------------------------------------------------------ solution content */

/* A file as its non-blank lines, each trimmed and with runs of white space made one. */
typedef struct lines {
  char **v;
  int n;
} lines;

static lines read_lines(const char *path) {
  lines L = {NULL, 0};
  char *text = read_text(path);
  if (!text) return L;
  int cap = 64;
  L.v = malloc(sizeof(char *) * (size_t)cap);
  char *save = NULL;
  for (char *s = strtok_r(text, "\n", &save); s; s = strtok_r(NULL, "\n", &save)) {
    char *o = malloc(strlen(s) + 1);
    int k = 0;
    for (const char *c = s; *c; c++) {
      int space = *c == ' ' || *c == '\t' || *c == '\r';
      if (!space) o[k++] = *c;
      else if (k && o[k - 1] != ' ') o[k++] = ' ';
    }
    while (k && o[k - 1] == ' ') k--;
    o[k] = 0;
    if (!k) {
      free(o);
      continue;
    }
    if (L.n == cap) L.v = realloc(L.v, sizeof(char *) * (size_t)(cap *= 2));
    L.v[L.n++] = o;
  }
  free(text);
  return L;
}

static void free_lines(lines *L) {
  for (int i = 0; i < L->n; i++) free(L->v[i]);
  free(L->v);
}

/* Window i of a file: lines i, i+1, i+2 joined by newlines (malloc'd). */
static char *window(const lines *L, int i) {
  size_t len = strlen(L->v[i]) + strlen(L->v[i + 1]) + strlen(L->v[i + 2]) + 3;
  char *w = malloc(len);
  snprintf(w, len, "%s\n%s\n%s", L->v[i], L->v[i + 1], L->v[i + 2]);
  return w;
}

typedef struct window_set {
  char **v;
  int n, cap;
} window_set;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int set_has(const window_set *s, const char *w) { return s->n && bsearch(&w, s->v, (size_t)s->n, sizeof(char *), cmp_str); }

/* Adds every window of path (kept sorted). */
static void set_add_file(window_set *s, const char *path) {
  lines L = read_lines(path);
  for (int i = 0; i + 2 < L.n; i++) {
    if (s->n == s->cap) s->v = realloc(s->v, sizeof(char *) * (size_t)(s->cap = s->cap ? 2 * s->cap : 1024));
    s->v[s->n++] = window(&L, i);
  }
  free_lines(&L);
  qsort(s->v, (size_t)s->n, sizeof(char *), cmp_str);
}

static void set_free(window_set *s) {
  for (int i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
}

/* Calls fn on every regular file under dir. */
static void walk(const char *dir, void (*fn)(const char *path, void *ctx), void *ctx) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) walk(path, fn, ctx);
    else if (S_ISREG(st.st_mode)) fn(path, ctx);
  }
  closedir(d);
}

static void add_to_set(const char *path, void *ctx) { set_add_file(ctx, path); }

/* Only source files: an answer file is kept out by name, and it shares measured tables with the docs. */
static void add_source_to_set(const char *path, void *ctx) {
  const char *dot = strrchr(path, '.');
  if (dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh") || !strcmp(dot, ".h") || !strcmp(dot, ".c"))) set_add_file(ctx, path);
}

/* A window worth reporting: at least 20 letters and digits ("}\nreturn v;\n}" is anyone's). */
static int substantial(const char *w) {
  int n = 0;
  for (; *w; w++) n += (*w >= 'a' && *w <= 'z') || (*w >= 'A' && *w <= 'Z') || (*w >= '0' && *w <= '9');
  return n >= 20;
}

/* The windows of the solutions' source files (function bodies and their comments)
 * that the starters do not also hold: what a handout must not contain. */
typedef struct scan {
  window_set solution;
  char hits[4096]; /* each file that holds one, with its first window */
  int n_hits;
} scan;

static int is_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return memchr(buf, 0, n) == NULL;
}

static void scan_file(const char *path, void *ctx) {
  scan *s = ctx;
  if (!is_text(path)) return;
  lines L = read_lines(path);
  for (int i = 0; i + 2 < L.n; i++) {
    char *w = window(&L, i);
    if (set_has(&s->solution, w)) {
      size_t len = strlen(s->hits);
      snprintf(s->hits + len, sizeof s->hits - len, "%s:\n%s\n", path, w);
      s->n_hits++;
      i = L.n; /* one report per file */
    }
    free(w);
  }
  free_lines(&L);
}

static void scan_init(scan *s) {
  memset(s, 0, sizeof *s);
  window_set all = {0}, starter = {0};
  walk("solutions", add_source_to_set, &all);
  walk("starter", add_to_set, &starter);
  for (int i = 0; i < all.n; i++)
    if (!set_has(&starter, all.v[i]) && substantial(all.v[i]) && (i == 0 || strcmp(all.v[i], all.v[i - 1]))) {
      if (s->solution.n == s->solution.cap)
        s->solution.v = realloc(s->solution.v, sizeof(char *) * (size_t)(s->solution.cap = s->solution.cap ? 2 * s->solution.cap : 1024));
      s->solution.v[s->solution.n++] = strdup(all.v[i]);
    }
  set_free(&all);
  set_free(&starter);
  ck_assert_msg(s->solution.n > 0, "no solution windows: is solutions/ here?");
}

/* ------------------------------------------------------------ make handout */

/* Builds the handout and unpacks it into a fresh folder; returns the folder (its scan-lab/ is the course). */
static char *unpack_handout(const char *tag) {
  char *dir = make_temp_dir(tag), cmd[2048], path[1024];
  snprintf(cmd, sizeof cmd, "make -s handout > '%s/make.log' 2>&1 && tar -C '%s' -xzf dist/scan-lab-handout.tar.gz", dir, dir);
  snprintf(path, sizeof path, "%s/make.log", dir);
  int rc = run_shell(cmd);
  char *log = read_text(path);
  ck_assert_msg(rc == 0, "make handout failed:\n%s", log);
  free(log);
  return dir;
}

/* No solution by name (solutions/, answer files) or by content (3 lines of a solution source file). */
START_TEST(test_handout_has_no_solution) {
  char *dir = unpack_handout("handout-content"), cmd[4096], root[1024];
  snprintf(root, sizeof root, "%s/scan-lab", dir);
  snprintf(cmd, sizeof cmd, "cd '%s' && test ! -e solutions && test -z \"$(find . -iname '*answers*')\"", root);
  ck_assert_msg(run_shell(cmd) == 0, "the handout holds solutions/ or an answer file");
  /* The reference's tuning record answers handout 04's task 3: instructors only. */
  snprintf(cmd, sizeof cmd, "cd '%s' && test ! -e docs/tuning-04.md && test -z \"$(find docs/results -name 'tuning-*')\"", root);
  ck_assert_msg(run_shell(cmd) == 0, "the handout holds docs/tuning-04.md or docs/results/tuning-*");
  /* The count test's variants (assignments/NN/tests/variants/) are patches of the solutions. */
  snprintf(cmd, sizeof cmd, "cd '%s' && test -z \"$(ls -d assignments/*/tests/variants 2> /dev/null)\"", root);
  ck_assert_msg(run_shell(cmd) == 0, "the handout holds assignments/*/tests/variants/, whose patches quote the solutions");
  /* The known lists point at the notes that still answer a question or show a solution's shape. */
  snprintf(cmd, sizeof cmd, "cd '%s' && test ! -e tests/answers-known.txt && test -z \"$(ls assignments/*/tests/leaks-known.txt 2> /dev/null)\"",
           root);
  ck_assert_msg(run_shell(cmd) == 0,
                "the handout holds tests/answers-known.txt or an assignments/*/tests/leaks-known.txt, which point at give-aways");
  scan s;
  scan_init(&s);
  walk(root, scan_file, &s);
  ck_assert_msg(s.n_hits == 0, "%d file(s) of the handout hold solution code (3 lines of a solutions/ source file):\n%s", s.n_hits,
                s.hits);
  walk("solutions", scan_file, &s); /* the scan itself must see a solution when there is one */
  ck_assert_msg(s.n_hits > 0, "the content scan finds nothing even in solutions/");
  set_free(&s.solution);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* make grade in the handout without a GPU: the prebuilt grader and references, exit 3,
 * results.json written, the ptx checks scored. */
START_TEST(test_handout_grades_without_gpu) {
  char *dir = unpack_handout("handout-grade"), cmd[4096], path[2048], root[1024];
  snprintf(root, sizeof root, "%s/scan-lab", dir);
  snprintf(cmd, sizeof cmd, "cd '%s' && test -x grader/bin/grade && for c in assignments/*/grade.conf; do test -x $(dirname $c)/ref/reference || exit 1; done",
           root);
  ck_assert_msg(run_shell(cmd) == 0, "a reference binary or the prebuilt grader is missing");
  snprintf(cmd, sizeof cmd, "cd '%s' && SCANLAB_NO_GPU=1 ARCH=sm_75 make grade > grade.log 2>&1", root);
  ck_assert_int_ne(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/grade.log", root);
  char *log = read_text(path);
  ck_assert_msg(strstr(log, "make grade: exit 3: no CUDA device"), "make grade did not end in no-GPU mode:\n%s", log);
  ck_assert_msg(strstr(log, "cp grader/bin/grade"), "the handout built its grader instead of using grader/bin/grade:\n%s", log);
  snprintf(path, sizeof path, "%s/grade-results/latest/results.json", root);
  json_t *j = load_json(path), *t;
  size_t i, n_ptx = 0;
  json_array_foreach(json_object_get(j, "tests"), i, t) {
    const char *kind = json_string_value(json_array_get(json_object_get(t, "tags"), 0));
    const char *verdict = json_string_value(json_object_get(json_object_get(t, "extra_data"), "verdict"));
    if (!kind || strcmp(kind, "ptx")) continue;
    n_ptx++;
    ck_assert_msg(verdict && (!strcmp(verdict, "pass") || !strcmp(verdict, "fail")), "%s: verdict %s",
                  json_string_value(json_object_get(t, "name")), verdict ? verdict : "(none)");
  }
  ck_assert_msg(n_ptx > 0, "no ptx check in the handout's results");
  json_decref(j);
  free(log);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The handout is self-sufficient: `make clean` there keeps the shipped references (no solutions/
 * to rebuild them from), and what `make bench` runs for an assignment with baselines (04's
 * ref/bench, its CUB rows) is shipped; `make help` says clean keeps them. */
START_TEST(test_handout_clean_keeps_refs) {
  char *dir = unpack_handout("handout-clean"), cmd[4096], path[2048], root[1024];
  snprintf(root, sizeof root, "%s/scan-lab", dir);
  snprintf(cmd, sizeof cmd, "cd '%s' && make clean > clean.log 2>&1", root);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && for c in assignments/*/grade.conf; do a=$(dirname $c); test -x $a/ref/reference || exit 1; "
           "if grep -q '^baselines *=' $c; then test -x $a/ref/bench || exit 1; b=$((b + 1)); fi; done && test \"${b:-0}\" -gt 0",
           root);
  snprintf(path, sizeof path, "%s/clean.log", root);
  char *log = read_text(path);
  ck_assert_msg(run_shell(cmd) == 0, "after make clean in the handout a reference (ref/reference, or ref/bench of an assignment with "
                                     "declared baselines) is missing:\n%s", log);
  free(log);
  snprintf(cmd, sizeof cmd, "cd '%s' && make help | grep -E '^  clean .*a handout keeps its ref/'", root);
  ck_assert_msg(run_shell(cmd) == 0, "make help does not say that clean keeps a handout's references");
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *handout_suite(void) {
  Suite *s = suite_create("handout");
  TCase *t = tcase_create("archive");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_handout_has_no_solution);
  tcase_add_test(t, test_handout_grades_without_gpu);
  tcase_add_test(t, test_handout_clean_keeps_refs);
  suite_add_tcase(s, t);
  return s;
}
