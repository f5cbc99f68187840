/* test_conf.c: grade.conf parsing: a good file loads with its defaults; every
 * bad file gives "file:line: reason" pointing at the right line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "kind_table.h"
#include "kinds.h"
#include "seed_env.h"
#include "tests.h"

#define HEAD "[assignment]\nname = 99-fake\ntitle = Fake\nstudent = scan.cu\nlink = object\n"
#define PTX_CHECK "[ptx-a]\nkind = ptx\nkernel = k\npattern = ld\\.shared\nmax = 3\npoints = 5\n"

static char *dir;

static void setup(void) { dir = make_temp_dir("conf"); }
static void teardown(void) {
  remove_dir(dir);
  free(dir);
}

static int load(const char *text, assignment_conf *a, char *err, char *path) {
  sprintf(path, "%s/grade.conf", dir);
  write_text(path, text, 0);
  return conf_load(path, a, err, 512);
}

START_TEST(test_conf_good) {
  static assignment_conf a;
  char err[512], path[512];
  int rc = load(HEAD "timeout = 12\n\n; a comment\n[correct-x]\nkind = correct\nvariant = v\ncases = n1, n2 ,n3\npoints = 10\n"
                     "expect_starter = fail\n\n" PTX_CHECK "\n[perf-x]\nkind = perf\nvariant = v\ncases = n3\nfull_ratio = 1.1\npoints = 7.5\nfloor = 0.8\n"
                     "[san]\nkind = sanitizer\ntool = racecheck\nvariant = v\ncases = n1\npoints = 0\n",
                &a, err, path);
  ck_assert_msg(rc == 0, "good file rejected: %s", err);
  ck_assert_str_eq(a.name, "99-fake");
  ck_assert_str_eq(a.student, "scan.cu");
  ck_assert_int_eq(a.link, LINK_OBJECT);
  ck_assert_int_eq(a.n_checks, 4);
  ck_assert_int_eq(a.checks[0].n_cases, 3);
  ck_assert_str_eq(a.checks[0].cases[2], "n3");
  ck_assert_int_eq(a.checks[0].expect_starter, EXPECT_FAIL);
  ck_assert_int_eq(a.checks[0].line, 9);
  ck_assert_double_eq(a.checks[0].timeout_s, 12);
  ck_assert_str_eq(a.checks[0].title, "correct-x"); /* the name when no title */
  ck_assert_int_eq(a.checks[1].min, -1);
  ck_assert_int_eq(a.checks[1].max, 3);
  ck_assert_int_eq(a.checks[2].runs, 1);
  ck_assert_double_eq(a.checks[2].points, 7.5);
  ck_assert_double_eq(a.checks[3].timeout_s, 48); /* sanitizers get 4x */
  ck_assert_double_eq(conf_total_points(&a), 22.5);
}
END_TEST

/* Each bad file, the line its error must name, and words the reason must hold. */
static const struct {
  const char *text;
  int line;
  const char *why;
} BAD[] = {
    {"", 1, "no [assignment] section"},
    {"[assignment]\ntitle = x\n" PTX_CHECK, 1, "no name"},
    {HEAD, 5, "no checks"},
    {HEAD "this is not ini\n" PTX_CHECK, 6, "syntax error"},
    {HEAD "[broken\n" PTX_CHECK, 6, "syntax error"},
    {HEAD "colour = red\n" PTX_CHECK, 6, "unknown key 'colour' in [assignment]"},
    {HEAD PTX_CHECK "colour = red\n", 12, "unknown key 'colour' in [ptx-a]"},
    {HEAD PTX_CHECK PTX_CHECK, 12, "duplicate section [ptx-a] (first at line 6)"},
    {HEAD "[assignment]\n" PTX_CHECK, 6, "duplicate section [assignment]"},
    {HEAD "[ptx-a]\nkind = ptx\nkernel = k\npattern = x\nmax = 1\npoints = -5\n", 11, "points: -5 is negative"},
    {HEAD "[ptx-a]\nkind = ptx\nkernel = k\npattern = x\nmax = 1\n", 6, "missing key 'points'"},
    {HEAD "[ptx-a]\nkind = ptx\nkernel = k\npattern = x\nmax = 1\npoints = lots\n", 11, "not a number"},
    {HEAD "[ptx-a]\nkind = ptx\nkernel = k\npattern = x\nmax = 1\npoints = 1\npoints = 2\n", 12, "given twice"},
    {HEAD "[ptx-a]\nkind = magic\npoints = 1\n", 7, "kind: 'magic' is not one of"},
    {HEAD "[ptx-a]\npoints = 1\n", 6, "missing key 'kind'"},
    {HEAD "[c]\nkind = correct\nvariant = v\npoints = 1\n", 6, "kind correct needs key 'cases'"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\nkernel = k\npoints = 1\n", 6, "key 'kernel' does not apply to kind correct"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a,b\npoints = 1\nfloor = 0.5\n", 6, "exactly one case"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\nruns = 0\npoints = 1\nfloor = 0.5\n", 10, "runs: '0' is not an integer in [1, 50]"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\nfull_ratio = 0\npoints = 1\nfloor = 0.5\n", 10, "full_ratio"},
    /* the floor: required, a fraction of a copy's time, and a perf key only */
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\npoints = 1\n", 6, "[p]: kind perf needs key 'floor'"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\npoints = 1\nfloor = 0\n", 11, "floor: '0' is not a fraction in [0.01, 1]"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\npoints = 1\nfloor = 1.5\n", 11, "floor: '1.5' is not a fraction"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\nfloor = 0.5\n", 6, "key 'floor' does not apply to kind correct"},
    {HEAD "[x]\nkind = ptx\nkernel = k\npattern = (unclosed\nmax = 1\npoints = 1\n", 9, "not a POSIX extended regular expression"},
    {HEAD "[x]\nkind = ptx\nkernel = k\npattern = ld\npoints = 1\n", 6, "needs min, max or both"},
    {HEAD "[x]\nkind = ptx\nkernel = k\npattern = ld\nmin = 5\nmax = 2\npoints = 1\n", 6, "min 5 is above max 2"},
    {HEAD "[s]\nkind = sanitizer\ntool = valgrind\nvariant = v\ncases = a\npoints = 1\n", 8, "tool: 'valgrind'"},
    {HEAD "[c]\nkind = correct\nvariant = bad name\ncases = a\npoints = 1\n", 8, "variant: 'bad name' is not a name"},
    {HEAD "[c d]\nkind = ptx\n", 6, "check name 'c d'"},
    /* the student's build ([assignment] student and link, build.h) */
    {"[assignment]\nname = 99-fake\nlink = object\n" PTX_CHECK, 1, "missing key 'student'"},
    {"[assignment]\nname = 99-fake\nstudent = scan.cu\n" PTX_CHECK, 1, "missing key 'link' (inline or object)"},
    {"[assignment]\nname = 99-fake\nstudent = ../scan.cu\nlink = object\n" PTX_CHECK, 3, "student: '../scan.cu' is not a file name"},
    {"[assignment]\nname = 99-fake\nstudent = my scan.cu\nlink = object\n" PTX_CHECK, 3, "is not a file name"},
    {"[assignment]\nname = 99-fake\nstudent = scan.cuh\nlink = object\n" PTX_CHECK, 3, "student: 'scan.cuh' is not a .cu file"},
    {"[assignment]\nname = 99-fake\nstudent = scan.cu\nlink = static\n" PTX_CHECK, 4, "link: 'static' is not one of inline, object"},
    /* the rest of the build, declared: a .cu file of judge/ (the model) or runner/ (its tables, the baselines), there */
    {HEAD "model = runner/model.cu\n" PTX_CHECK, 6, "model: 'runner/model.cu' is not a .cu file of the assignment's judge/ folder"},
    {HEAD "model = judge/../../x.cu\n" PTX_CHECK, 6, "model: 'judge/../../x.cu' is not a .cu file"},
    {HEAD "model = judge/model.cuh\n" PTX_CHECK, 6, "is not a .cu file of the assignment's judge/ folder (judge/NAME.cu)"},
    {HEAD "model = judge/model.cu\n" PTX_CHECK, 6, "/judge/model.cu is not a file"},
    {HEAD "model_tables = judge/tables.cu\n" PTX_CHECK, 6, "model_tables: 'judge/tables.cu' is not a .cu file of the assignment's runner/ folder"},
    {HEAD "baselines = baselines.cu\n" PTX_CHECK, 6, "baselines: 'baselines.cu' is not a .cu file of the assignment's runner/ folder"},
    {HEAD "baselines = runner/baselines.cu\n" PTX_CHECK, 6, "/runner/baselines.cu is not a file"},
    {HEAD "[m]\nkind = model\nvariant = v\ncases = a\npoints = 1\n", 6, "[m]: kind model needs the model program: [assignment] model = judge/NAME.cu"},
    /* one spelling per key: another is refused, naming the right one */
    {HEAD "[c]\nkind = correct\nvariant = v\ncase = a\npoints = 1\n", 9, "'case' is not a key; write 'cases'"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\ncase = a\npoints = 1\nfloor = 0.5\n", 10, "'case' is not a key; write 'cases'"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\nvisibility = secret\n", 11, "visibility"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\nexpect_starter = maybe\n", 11, "expect_starter"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\ntimeout = 0\n", 11, "timeout"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\npoints = 1\ntitle = "
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", 11, "line longer than"},
};

/* The build's files, declared: loaded as written when they are there. */
START_TEST(test_conf_build_files) {
  static assignment_conf a;
  char err[512] = "", path[512], file[600];
  const char *const files[] = {"judge/model.cu", "runner/model_tables.cu", "runner/baselines.cu"};
  for (int i = 0; i < 3; i++) snprintf(file, sizeof file, "%s/%s", dir, files[i]), write_text(file, "// x\n", 0);
  int rc = load(HEAD "model = judge/model.cu\nmodel_tables = runner/model_tables.cu\nbaselines = runner/baselines.cu\n"
                     "[m]\nkind = model\nvariant = v\ncases = a\npoints = 1\n",
                &a, err, path);
  ck_assert_msg(rc == 0, "%s", err);
  ck_assert_str_eq(a.model, "judge/model.cu");
  ck_assert_str_eq(a.model_tables, "runner/model_tables.cu");
  ck_assert_str_eq(a.baselines, "runner/baselines.cu");
  ck_assert_int_eq(load(HEAD PTX_CHECK, &a, err, path), 0);
  ck_assert_msg(!a.model[0] && !a.model_tables[0] && !a.baselines[0], "a build file nobody declared: %s %s %s", a.model, a.model_tables,
                a.baselines);
}
END_TEST

START_TEST(test_conf_bad) {
  static assignment_conf a;
  char err[512] = "", path[512], want[600];
  ck_assert_int_eq(load(BAD[_i].text, &a, err, path), -1);
  snprintf(want, sizeof want, "%s:%d: ", path, BAD[_i].line);
  ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "case %d: error '%s' does not start with '%s'", _i, err, want);
  ck_assert_msg(strstr(err, BAD[_i].why) != NULL, "case %d: error '%s' lacks '%s'", _i, err, BAD[_i].why);
  ck_assert_msg(strchr(err, '\n') == NULL, "case %d: error is not one line", _i);
}
END_TEST

/* The refusal is the whole error: file:line, the word written and the one to write. */
START_TEST(test_conf_refused_spelling) {
  static assignment_conf a;
  char err[512] = "", path[512], want[700];
  ck_assert_int_eq(load(HEAD PTX_CHECK "[c]\nkind = correct\nvariant = v\ncase = n3\npoints = 1\n", &a, err, path), -1);
  snprintf(want, sizeof want, "%s:15: 'case' is not a key; write 'cases'", path);
  ck_assert_str_eq(err, want);
  ck_assert_int_eq(load(HEAD PTX_CHECK "[c]\nkind = correct\nvariant = v\ncases = n3\npoints = 1\n", &a, err, path), 0);
  ck_assert_int_eq(a.checks[1].n_cases, 1);
}
END_TEST

/* The seed's variable: SCANLAB_SEED; GRADE_SEED, the old name, still read with
 * a one-line warning naming the new one; SCANLAB_SEED wins when both are set. */
static int seed_env_run(uint64_t *seed, char *warned, size_t cap, char *err) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  int rc = seed_from_env(seed, f, err, 200);
  fclose(f);
  snprintf(warned, cap, "%s", text);
  free(text);
  return rc;
}

START_TEST(test_seed_env) {
  uint64_t seed = 7;
  char warned[300], err[200];
  unsetenv("SCANLAB_SEED"), unsetenv("GRADE_SEED");
  ck_assert_int_eq(seed_env_run(&seed, warned, sizeof warned, err), 0);
  ck_assert_str_eq(warned, "");
  setenv("SCANLAB_SEED", "123", 1);
  ck_assert_int_eq(seed_env_run(&seed, warned, sizeof warned, err), 1);
  ck_assert_uint_eq(seed, 123);
  ck_assert_str_eq(warned, "");
  setenv("GRADE_SEED", "456", 1); /* both: the new name wins, and the old one is said to be ignored */
  ck_assert_int_eq(seed_env_run(&seed, warned, sizeof warned, err), 1);
  ck_assert_uint_eq(seed, 123);
  ck_assert_str_eq(warned, "grade: warning: GRADE_SEED is ignored: SCANLAB_SEED is set (GRADE_SEED is the old name of SCANLAB_SEED)\n");
  unsetenv("SCANLAB_SEED"); /* the old name alone: read, with one line naming the new one */
  ck_assert_int_eq(seed_env_run(&seed, warned, sizeof warned, err), 1);
  ck_assert_uint_eq(seed, 456);
  ck_assert_str_eq(warned, "grade: warning: GRADE_SEED is the old name of SCANLAB_SEED; set SCANLAB_SEED=456 instead\n");
  setenv("GRADE_SEED", "x1", 1); /* a bad value is refused under the name it came by */
  ck_assert_int_eq(seed_env_run(&seed, warned, sizeof warned, err), -1);
  ck_assert_str_eq(err, "GRADE_SEED: 'x1' is not an unsigned integer below 2^53");
  unsetenv("GRADE_SEED");
  setenv("SCANLAB_SEED", "18014398509481984", 1); /* 2^54 */
  ck_assert_int_eq(seed_env_run(&seed, warned, sizeof warned, err), -1);
  ck_assert_str_eq(err, "SCANLAB_SEED: '18014398509481984' is not an unsigned integer below 2^53");
  setenv("SCANLAB_SEED", "9007199254740992", 1); /* 2^53 itself: refused, as the message says */
  ck_assert_int_eq(seed_env_run(&seed, warned, sizeof warned, err), -1);
  ck_assert_str_eq(err, "SCANLAB_SEED: '9007199254740992' is not an unsigned integer below 2^53");
  setenv("SCANLAB_SEED", "9007199254740991", 1); /* 2^53 - 1: the largest seed */
  ck_assert_int_eq(seed_env_run(&seed, warned, sizeof warned, err), 1);
  ck_assert_uint_eq(seed, 9007199254740991ULL);
  unsetenv("SCANLAB_SEED");
}
END_TEST

START_TEST(test_conf_missing_file) {
  static assignment_conf a;
  char err[512];
  ck_assert_int_eq(conf_load("/nonexistent/grade.conf", &a, err, sizeof err), -1);
  ck_assert_str_eq(err, "/nonexistent/grade.conf: cannot open: No such file or directory");
}
END_TEST

/* Keys that only some kinds take: a new row for each, and the rules around them. */
static const struct {
  const char *text;
  int line;
  const char *why;
} BAD_NEW[] = {
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\nrepeat = 21\npoints = 1\n", 10, "repeat: '21' is not an integer in [1, 20]"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\nrepeat = 0\npoints = 1\n", 10, "repeat: '0'"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\nrepeat = 2\npoints = 1\nfloor = 0.5\n", 6, "key 'repeat' does not apply to kind perf"},
    {HEAD "[c]\nkind = correct\nvariant = v\ncases = a\nbaseline = copy_d2d\npoints = 1\n", 6, "key 'baseline' does not apply to kind correct"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\nbaseline = not a slug\npoints = 1\nfloor = 0.5\n", 10, "baseline: 'not a slug' is not a name"},
    {HEAD "[p]\nkind = perf\nvariant = v\ncases = a\ncases = b\npoints = 1\nfloor = 0.5\n", 10, "key 'cases' given twice"},
};

START_TEST(test_conf_bad_new_keys) {
  static assignment_conf a;
  char err[512] = "", path[512], want[600];
  ck_assert_int_eq(load(BAD_NEW[_i].text, &a, err, path), -1);
  snprintf(want, sizeof want, "%s:%d: ", path, BAD_NEW[_i].line);
  ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "case %d: error '%s' does not start with '%s'", _i, err, want);
  ck_assert_msg(strstr(err, BAD_NEW[_i].why) != NULL, "case %d: error '%s' lacks '%s'", _i, err, BAD_NEW[_i].why);
}
END_TEST

START_TEST(test_conf_repeat_baseline) {
  static assignment_conf a;
  char err[512], path[512];
  int rc = load(HEAD "[c]\nkind = correct\nvariant = v\ncases = a\nrepeat = 20\npoints = 1\n"
                     "[c1]\nkind = correct\nvariant = v\ncases = a\npoints = 1\n"
                     "[p]\nkind = perf\nvariant = v\ncases = a\nbaseline = copy_d2d\npoints = 1\nfloor = 0.5\n"
                     "[p1]\nkind = perf\nvariant = v\ncases = a\npoints = 1\nfloor = 0.5\n",
                &a, err, path);
  ck_assert_msg(rc == 0, "rejected: %s", err);
  ck_assert_int_eq(a.checks[0].repeat, 20);
  ck_assert_int_eq(a.checks[1].repeat, 1); /* the default */
  ck_assert_str_eq(a.checks[2].baseline, "copy_d2d");
  ck_assert_str_eq(a.checks[3].baseline, ""); /* the reference's run of the same variant */
}
END_TEST

/* ---------------------------------------------------------------- the kind table vs docs/grading.md */

static unsigned key_mask_of(const char *name) {
  for (int k = 0; k < KEY_COUNT; k++)
    if (!strcmp(conf_key_name((conf_key)k), name)) return KEY_BIT(k);
  ck_abort_msg("'%s' is not a key of the grader's key table", name);
  return 0;
}

/* A comma-separated key list of `grade --kinds` ("-" for none) as a mask. */
static unsigned key_list(char *list) {
  unsigned m = 0;
  char *save = NULL;
  if (!strcmp(list, "-")) return 0;
  for (char *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) m |= key_mask_of(k);
  return m;
}

/* The rows of the first Markdown table after the line `heading`: up to 3 cells each. */
static int doc_table(const char *doc, const char *heading, char rows[][3][200], int max) {
  const char *p = strstr(doc, heading);
  ck_assert_msg(p != NULL, "docs/grading.md has no '%s'", heading);
  int n = 0, in_table = 0;
  for (p = strchr(p, '\n'); p && *++p;) {
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (*p != '|') {
      if (in_table) break;
    } else if (in_table++ >= 2 && n < max) { /* skip the header and the --- line */
      char line[700];
      snprintf(line, sizeof line, "%.*s", (int)len, p + 1);
      char *save = NULL;
      int c = 0;
      for (char *cell = strtok_r(line, "|", &save); cell && c < 3; cell = strtok_r(NULL, "|", &save), c++) {
        while (*cell == ' ') cell++;
        snprintf(rows[n][c], sizeof rows[n][c], "%s", cell);
        char *t = rows[n][c] + strlen(rows[n][c]);
        while (t > rows[n][c] && t[-1] == ' ') *--t = 0;
      }
      n++;
    }
    p = end;
    if (!p) break;
  }
  return n;
}

/* The key names of a cell such as "`min`, `max`" or "`cases` (or `case`)": the
 * first backticked name of each comma-separated item. */
static unsigned doc_keys(const char *cell) {
  char copy[200], *save = NULL;
  unsigned m = 0;
  snprintf(copy, sizeof copy, "%s", cell);
  for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    char *open = strchr(item, '`'), *close = open ? strchr(open + 1, '`') : NULL;
    ck_assert_msg(close != NULL, "docs/grading.md: no `key` in '%s'", cell);
    *close = 0;
    m |= key_mask_of(open + 1);
  }
  return m;
}

START_TEST(test_docs_list_the_kind_table) {
  char *doc = read_text("docs/grading.md");
  ck_assert_msg(doc != NULL, "run from the repository root: docs/grading.md not found");
  /* What `grade --kinds` prints, read back. */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  kinds_print(f);
  fclose(f);
  unsigned every_req = 0, every_opt = 0, req[KIND_COUNT] = {0}, opt[KIND_COUNT] = {0};
  int gpu[KIND_COUNT], n_kinds = 0;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char name[64], where[8], r[300], o[300];
    if (sscanf(line, "every %299s %299s", r, o) == 2) {
      every_req = key_list(r), every_opt = key_list(o);
      continue;
    }
    ck_assert_msg(sscanf(line, "kind %63s %7s %299s %299s", name, where, r, o) == 4, "grade --kinds: bad line '%s'", line);
    const kind_row *d = kind_row_find(name);
    ck_assert_msg(d && d - KIND_ROWS == n_kinds, "grade --kinds: '%s' is not row %d of the table", name, n_kinds);
    ck_assert_msg(!strcmp(where, "gpu") || !strcmp(where, "cpu"), "grade --kinds: '%s' is not gpu or cpu", where);
    gpu[n_kinds] = !strcmp(where, "gpu");
    req[n_kinds] = key_list(r), opt[n_kinds] = key_list(o);
    n_kinds++;
  }
  free(text);
  ck_assert_int_eq(n_kinds, KIND_COUNT);
  ck_assert_uint_eq(every_req, KEYS_EVERY_REQUIRED);

  static char rows[40][3][200];
  /* "## Check kinds": one row per kind, in table order, with whether it needs a GPU. */
  int n = doc_table(doc, "\n## Check kinds\n", rows, 40);
  ck_assert_msg(n == KIND_COUNT, "docs/grading.md lists %d kinds, the grader has %d", n, KIND_COUNT);
  for (int k = 0; k < n; k++) {
    char want[80];
    snprintf(want, sizeof want, "`%s`", KIND_ROWS[k].name);
    ck_assert_msg(!strcmp(rows[k][0], want), "docs/grading.md: kind row %d is %s, the grader's is %s", k, rows[k][0], want);
    ck_assert_msg(!strcmp(rows[k][1], gpu[k] ? "yes" : "no"), "docs/grading.md: %s needs a GPU: '%s'", want, rows[k][1]);
    snprintf(want, sizeof want, "\n### `%s`\n", KIND_ROWS[k].name);
    ck_assert_msg(strstr(doc, want) != NULL, "docs/grading.md has no section for kind %s", KIND_ROWS[k].name);
  }
  /* "### Every check": the keys every check takes, required or not. */
  n = doc_table(doc, "\n### Every check\n", rows, 40);
  unsigned doc_req = 0, doc_opt = 0;
  for (int i = 0; i < n; i++) *(!strcmp(rows[i][1], "yes") ? &doc_req : &doc_opt) |= doc_keys(rows[i][0]);
  ck_assert_msg(doc_req == every_req && doc_opt == every_opt, "docs/grading.md 'Every check' differs from the key table");
  /* "### Keys by kind": each key with the kinds that take it, "(required)" or not. */
  n = doc_table(doc, "\n### Keys by kind\n", rows, 40);
  unsigned dreq[KIND_COUNT] = {0}, dopt[KIND_COUNT] = {0};
  for (int i = 0; i < n; i++) {
    unsigned keys = doc_keys(rows[i][0]);
    char kinds[200], *paren, *ks = NULL;
    snprintf(kinds, sizeof kinds, "%s", rows[i][1]);
    int required = strstr(kinds, "(required)") != NULL;
    if ((paren = strchr(kinds, '('))) *paren = 0;
    for (char *k = strtok_r(kinds, ", ", &ks); k; k = strtok_r(NULL, ", ", &ks)) {
      const kind_row *d = kind_row_find(k);
      ck_assert_msg(d != NULL, "docs/grading.md: '%s' in 'Keys by kind' is not a kind", k);
      *(required ? &dreq[d - KIND_ROWS] : &dopt[d - KIND_ROWS]) |= keys;
    }
  }
  for (int k = 0; k < KIND_COUNT; k++) {
    ck_assert_msg(dreq[k] == req[k], "docs/grading.md: the keys kind %s requires differ from its row (docs %#x, grader %#x)",
                  KIND_ROWS[k].name, dreq[k], req[k]);
    ck_assert_msg(dopt[k] == opt[k], "docs/grading.md: the keys kind %s allows differ from its row (docs %#x, grader %#x)",
                  KIND_ROWS[k].name, dopt[k], opt[k]);
  }
  free(doc);
}
END_TEST

Suite *conf_suite(void) {
  Suite *s = suite_create("conf");
  TCase *t = tcase_create("grade.conf");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_add_test(t, test_conf_good);
  tcase_add_test(t, test_conf_build_files);
  tcase_add_loop_test(t, test_conf_bad, 0, sizeof BAD / sizeof *BAD);
  tcase_add_test(t, test_conf_missing_file);
  tcase_add_test(t, test_conf_refused_spelling);
  tcase_add_test(t, test_seed_env);
  tcase_add_loop_test(t, test_conf_bad_new_keys, 0, sizeof BAD_NEW / sizeof *BAD_NEW);
  tcase_add_test(t, test_conf_repeat_baseline);
  tcase_add_test(t, test_docs_list_the_kind_table);
  suite_add_tcase(s, t);
  return s;
}
