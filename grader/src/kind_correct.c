/* kind_correct.c: the `correct` kind. The student's runner runs `repeat` times
 * on the check's cases, the first time in a duel with the reference (which
 * must be sane), run k
 * with seed + k, and a case is correct only when every run got it right. The
 * student's runner saves the images of a failed case under the results
 * folder (--save-failed), and the check names the files it finds there. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runs.h"
#include "kinds.h"
#include "score.h"

/* mkdir -p of rel under root. Returns 0, or -1 when some part cannot be made. */
static int make_dirs(const char *root, const char *rel) {
  char path[GRADE_PATH_MAX * 2];
  int len = snprintf(path, sizeof path, "%s/%s", root, rel);
  if (len < 0 || (size_t)len >= sizeof path) return -1;
  for (char *p = path + strlen(root) + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
      *p = '/';
    }
  return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Removes rel and then its parents under root, each only when it is empty. */
static void remove_empty_dirs(const char *root, const char *rel) {
  char path[GRADE_PATH_MAX * 2];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  size_t base = strlen(root);
  while (strlen(path) > base && rmdir(path) == 0) {
    char *slash = strrchr(path, '/');
    if (!slash || (size_t)(slash - path) <= base) break;
    *slash = 0;
  }
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Appends the files the runner left in root/rel to r->files (one relative
 * path a line) and to the output; returns how many. */
static int collect_files(const char *root, const char *rel, check_result *r, FILE *out) {
  char path[GRADE_PATH_MAX * 2];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  DIR *d = opendir(path);
  if (!d) return 0;
  char *names[256];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_name);
  size_t old = r->files ? strlen(r->files) : 0, add = 0;
  for (int i = 0; i < n; i++) add += strlen(rel) + strlen(names[i]) + 2;
  char *files = realloc(r->files, old + add + 1);
  if (files) {
    r->files = files;
    for (int i = 0; i < n; i++) old += (size_t)sprintf(files + old, "%s/%s\n", rel, names[i]);
    files[old] = 0;
  }
  for (int i = 0; i < n; i++) {
    fprintf(out, "  saved %s/%s\n", rel, names[i]);
    free(names[i]);
  }
  return n;
}

/* The folder, relative to the results folder, for run k's images. */
static void images_dir(const assignment_ctx *a, const check_conf *c, int k, char *rel, size_t cap) {
  if (c->repeat > 1) snprintf(rel, cap, "images/%s/%s/run-%d", a->conf->name, c->name, k + 1);
  else snprintf(rel, cap, "images/%s/%s", a->conf->name, c->name);
}

void kind_correct_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  char why[400];
  int ok[CONF_MAX_CASES];
  char first_bad[CONF_MAX_CASES][400];
  for (int i = 0; i < c->n_cases; i++) ok[i] = 1, first_bad[i][0] = 0;
  const char *root = a->env->save_root;
  run_record *ref = malloc(sizeof *ref), *st = malloc(sizeof *st);
  if (!ref || !st) {
    fprintf(stderr, "grade: out of memory\n");
    exit(1);
  }
  for (int k = 0; k < c->repeat; k++) {
    /* Each run has its own seed, so a race that shows on some inputs only has repeat chances to show. */
    char rel[GRADE_PATH_MAX], dir[GRADE_PATH_MAX * 2];
    images_dir(a, c, k, rel, sizeof rel);
    snprintf(dir, sizeof dir, "%s/%s", root, rel);
    int save = root[0] && make_dirs(root, rel) == 0;
    run_args st_args = {.bin = a->student, .seed = a->env->seed + (uint64_t)k, .reps = 1, .batch = 1, .save_failed = save ? dir : NULL, .story = s->f};
    if (k == 0) {
      /* The first run is a duel with the reference (judge --versus), which must
       * be right on every case: the two take turns on the same inputs, the
       * expected outputs are computed once for both, and the reference's first
       * call of each case sets the student's call limit. */
      st_args.versus = a->reference;
      st_args.versus_variant = c->variant;
      run_record *both = run_cases(a, c, &st_args);
      run_split_duel(both, ref, st);
      int sane = !both->versus_failed && run_reference_sane(ref, c, c->variant, why, sizeof why);
      if (both->versus_failed) snprintf(why, sizeof why, "reference broken: %s", both->failure);
      free(both);
      if (!sane) {
        fprintf(s->f, "%s\n", why);
        free(ref), free(st);
        return check_finish(r, s, V_ERROR, 0, "%s", why);
      }
    } else {
      st_args.call_limit_s = run_call_limit(ref);
      run_record *later = run_cases(a, c, &st_args);
      *st = *later;
      free(later);
    }
    if (c->repeat > 1) fprintf(s->f, "run %d of %d: variant %s, seed %" PRIu64 "\n", k + 1, c->repeat, c->variant, st_args.seed);
    else fprintf(s->f, "variant %s, seed %" PRIu64 "\n", c->variant, st_args.seed);
    for (int i = 0; i < c->n_cases; i++) {
      run_want want = {.variant = c->variant, .ref = run_find(ref, c->cases[i]), .seed_offset = (uint64_t)k};
      int good = run_verdict(st, c->cases[i], &want, why, sizeof why);
      fprintf(s->f, "  %-12s %s\n", c->cases[i], why);
      if (!good && ok[i]) {
        ok[i] = 0;
        if (c->repeat > 1) snprintf(first_bad[i], sizeof first_bad[i], "%s: run %d of %d (seed %" PRIu64 "): %s", c->cases[i], k + 1, c->repeat, st_args.seed, why);
        else snprintf(first_bad[i], sizeof first_bad[i], "%s: %s", c->cases[i], why);
      }
    }
    if (st->failure[0]) fprintf(s->f, "student run: %s\n", st->failure);
    if (save) {
      collect_files(root, rel, r, s->f);
      remove_empty_dirs(root, rel);
    }
  }
  free(st);
  free(ref);
  int passed = 0;
  const char *first = NULL;
  for (int i = 0; i < c->n_cases; i++) {
    passed += ok[i];
    if (!ok[i] && !first) first = first_bad[i];
  }
  double score = score_fraction(c->points, passed, c->n_cases);
  char runs[32] = "";
  if (c->repeat > 1) snprintf(runs, sizeof runs, " in all %d runs", c->repeat);
  if (passed == c->n_cases) return check_finish(r, s, V_PASS, score, "%d/%d cases correct%s", passed, c->n_cases, runs);
  check_finish(r, s, passed ? V_PARTIAL : V_FAIL, score, "%d/%d cases correct%s; %s", passed, c->n_cases, runs, first);
}
