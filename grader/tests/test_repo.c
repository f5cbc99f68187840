/* test_repo.c: the repository itself: every grade.conf loads, every handout's
 * grading table equals its grade.conf, every starter fails and every solution
 * passes the checks that need no GPU (ptx, model), the 01 PTX counts the handout
 * quotes, and the real harness rejects bad arguments. Run from the repo root
 * after `make test-builds`. */
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "ptx.h"
#include "tests.h"

#define MAX_A 16
static char names[MAX_A][64];
static int n_names;

static void list_assignments(void) {
  if (n_names) return;
  DIR *d = opendir("assignments");
  ck_assert_msg(d != NULL, "run the tests from the repository root");
  struct dirent *e;
  while ((e = readdir(d)) && n_names < MAX_A) {
    char path[512];
    snprintf(path, sizeof path, "assignments/%s/grade.conf", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    fclose(f);
    snprintf(names[n_names++], 64, "%s", e->d_name);
  }
  closedir(d);
  ck_assert_int_gt(n_names, 0);
}

START_TEST(test_every_conf_loads) {
  list_assignments();
  for (int i = 0; i < n_names; i++) {
    static assignment_conf a;
    char path[512], err[512];
    snprintf(path, sizeof path, "assignments/%s/grade.conf", names[i]);
    ck_assert_msg(conf_load(path, &a, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(a.name, names[i]);
    ck_assert_msg(conf_total_points(&a) == 100, "%s totals %g points, not 100", path, conf_total_points(&a));
  }
}
END_TEST

/* Parses "| `name` | kind | points | title |" rows of the handout's grading
 * table and compares them, in order, with grade.conf. */
START_TEST(test_handout_table_matches_conf) {
  list_assignments();
  for (int i = 0; i < n_names; i++) {
    static assignment_conf a;
    char path[512], err[512];
    snprintf(path, sizeof path, "assignments/%s/grade.conf", names[i]);
    ck_assert_msg(conf_load(path, &a, err, sizeof err) == 0, "%s", err);
    snprintf(path, sizeof path, "assignments/%s/README.md", names[i]);
    char *text = read_text(path);
    ck_assert_msg(text != NULL, "%s is missing", path);
    char *table = strstr(text, "## Grading");
    ck_assert_msg(table != NULL, "%s has no '## Grading' section", path);
    int row = 0, have_total = 0;
    double total = 0;
    char *save = NULL;
    for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
      if (!strncmp(line, "| **total**", 11)) {
        ck_assert_msg(sscanf(line, "| **total** | | **%lf** |", &total) == 1, "%s: bad total row: %s", path, line);
        have_total = 1;
        break;
      }
      if (strncmp(line, "| `", 3)) continue;
      char name[64], kind[32], title[256];
      double points;
      int got = sscanf(line, "| `%63[^`]` | %31[^ |] | %lf | %255[^|]|", name, kind, &points, title);
      ck_assert_msg(got == 4, "%s: cannot read table row: %s", path, line);
      size_t tl = strlen(title);
      while (tl && title[tl - 1] == ' ') title[--tl] = 0;
      ck_assert_msg(row < a.n_checks, "%s: row '%s' has no section in grade.conf", path, name);
      const check_conf *c = &a.checks[row++];
      ck_assert_msg(!strcmp(name, c->name), "%s: row %d is '%s', grade.conf has [%s]", path, row, name, c->name);
      ck_assert_msg(!strcmp(kind, conf_kind_name(c->kind)), "%s: '%s' kind %s, grade.conf says %s", path, name, kind, conf_kind_name(c->kind));
      ck_assert_msg(points == c->points, "%s: '%s' %g points, grade.conf says %g", path, name, points, c->points);
      ck_assert_msg(!strcmp(title, c->title), "%s: '%s' title '%s', grade.conf says '%s'", path, name, title, c->title);
    }
    ck_assert_msg(row == a.n_checks, "%s: %d rows, grade.conf has %d checks", path, row, a.n_checks);
    ck_assert_msg(have_total && total == conf_total_points(&a), "%s: total row %g, grade.conf totals %g", path, total, conf_total_points(&a));
    free(text);
  }
}
END_TEST

/* A handout that says how many points can be earned without a GPU ("(N of the
 * 100 points)") must say the sum of its ptx and model checks. */
START_TEST(test_handout_no_gpu_points) {
  list_assignments();
  int claims = 0;
  for (int i = 0; i < n_names; i++) {
    static assignment_conf a;
    char path[512], err[512];
    snprintf(path, sizeof path, "assignments/%s/grade.conf", names[i]);
    ck_assert_msg(conf_load(path, &a, err, sizeof err) == 0, "%s", err);
    double no_gpu = 0;
    for (int c = 0; c < a.n_checks; c++)
      if (a.checks[c].kind == KIND_PTX || a.checks[c].kind == KIND_MODEL) no_gpu += a.checks[c].points;
    snprintf(path, sizeof path, "assignments/%s/README.md", names[i]);
    char *text = read_text(path);
    ck_assert(text != NULL);
    for (char *p = text; *p; p++) if (*p == '\n') *p = ' '; /* the claim may wrap */
    for (char *p = strstr(text, " of the 100 points)"); p; p = strstr(p + 1, " of the 100 points)")) {
      char *open = p;
      while (open > text && open[-1] != '(') open--;
      double n = atof(open);
      ck_assert_msg(n == no_gpu, "%s says %g of the 100 points need no GPU; its ptx and model checks are worth %g", path,
                    n, no_gpu);
      claims++;
    }
    free(text);
  }
  ck_assert_msg(claims >= 2, "only %d handouts state their no-GPU points", claims);
}
END_TEST

/* The counts the 01 handout teaches, measured on the PTX the grader reads. */
static long count01(const char *src, const char *kernel, const char *pattern) {
  char path[256], err[256];
  snprintf(path, sizeof path, "build/%s/01-warp-scan/harness.ptx", src);
  long n = ptx_count(path, kernel, pattern, err, sizeof err);
  ck_assert_msg(n >= 0, "%s", err);
  return n;
}

#define VOLATILE_SHARED "^[[:space:]]*(ld|st)\\.volatile\\.shared"
#define ANY_SHARED "^[[:space:]]*(ld|st)(\\.volatile)?\\.shared"

START_TEST(test_01_ptx_counts) {
  /* The starter's scratch scan has no volatile accesses: the compiler was free
   * to cache and drop them, which is the bug. */
  ck_assert_int_eq(count01("starter", "scan_scratch", VOLATILE_SHARED), 0);
  ck_assert_int_lt(count01("starter", "scan_scratch", ANY_SHARED), 18);
  /* Task 1 and 2: 18 and 11 shared loads/stores. */
  ck_assert_int_eq(count01("solutions", "scan_scratch", VOLATILE_SHARED), 18);
  ck_assert_int_eq(count01("solutions", "scan_scratch_register", VOLATILE_SHARED), 11);
  /* Task 2 check: the starter fails it (no volatile access at all). */
  ck_assert_int_eq(count01("starter", "scan_scratch_register", VOLATILE_SHARED), 0);
  /* Task 3: five shuffles and no shared memory; warp barriers in the syncwarp scan. */
  ck_assert_int_eq(count01("solutions", "scan_shfl", "shfl\\.sync\\.up"), 5);
  ck_assert_int_eq(count01("solutions", "scan_shfl", ANY_SHARED), 0);
  ck_assert_int_eq(count01("starter", "scan_shfl", "shfl\\.sync\\.up"), 0);
  ck_assert_int_gt(count01("solutions", "scan_syncwarp", "bar\\.warp\\.sync"), 0);
  ck_assert_int_eq(count01("starter", "scan_syncwarp", "bar\\.warp\\.sync"), 0);
}
END_TEST

/* The 03 bank-conflict model on the three layouts: the starter's unpadded tree
 * conflicts, the solution's padding leaves none, and the classic 16-bank
 * offset still leaves 2-way conflicts on 32 banks. */
static const char *model03(const char *src, const char *variant, const char *grep_for) {
  static char cmd[512];
  snprintf(cmd, sizeof cmd, "build/%s/03-blelloch/model --variant %s --case banks | grep -q -- '%s'", src, variant,
           grep_for);
  return cmd;
}

START_TEST(test_03_model_layouts) {
  const struct {
    const char *src, *variant, *expect;
  } rows[] = {
      {"starter", "blelloch_padded", "^result case=banks .* ok=0 "},
      {"starter", "blelloch_padded", "worst 32-way"},
      {"solutions", "blelloch_padded", "^result case=banks .* ok=1 "},
      {"solutions", "blelloch_padded", "0 of [0-9]* steps have a bank conflict"},
      {"solutions", "blelloch_unpadded", "^result case=banks .* ok=0 "},
      {"solutions", "blelloch_gems16", "^result case=banks .* ok=0 "},
      {"solutions", "blelloch_gems16", "worst 2-way"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const char *cmd = model03(rows[i].src, rows[i].variant, rows[i].expect);
    ck_assert_msg(run_shell(cmd) == 0, "03 model, %s %s: no line matches '%s' (%s)", rows[i].src, rows[i].variant,
                  rows[i].expect, cmd);
  }
}
END_TEST

/* ---------------------------------------------------------------- quotes in the docs
 *
 * Notes quote code and program output; a quote must not drift from what it
 * quotes. Two kinds of fenced block are checked, in the lectures (lectures/NN-*.md),
 * the handouts (assignments/NN/README.md) and the answers (solutions/NN/ANSWERS.md):
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

/* Lecture 01 says what the fences of its litmus test compile to: __threadfence()
 * is membar.gl (fence.sc.gpu, its synonym, in other toolkits), and the
 * release store and acquire load of cuda::atomic_ref are
 * st.release.gpu and ld.acquire.gpu. Checked on the example's PTX. */
START_TEST(test_litmus_ptx) {
  static const struct {
    const char *pattern;
    long want;
  } rows[] = {
      {"^[[:space:]]*(membar\\.gl|fence\\.sc\\.gpu);", 2}, /* one __threadfence() on each side */
      {"^[[:space:]]*st\\.release\\.gpu", 1},
      {"^[[:space:]]*ld\\.acquire\\.gpu", 1},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char err[256];
    long n = ptx_count("build/lectures/mp_litmus.ptx", "litmus", rows[i].pattern, err, sizeof err);
    ck_assert_msg(n >= 0, "%s", err);
    ck_assert_msg(n == rows[i].want, "mp_litmus PTX: %ld lines match %s, want %ld", n, rows[i].pattern, rows[i].want);
  }
}
END_TEST

/* The grader itself, in no-GPU mode, with --expect: the starter fails every
 * ptx/model check its grade.conf says it fails, the solution passes them all. */
static void grade_expect(const char *src) {
  char *dir = make_temp_dir("repo-grade");
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "build/grader/grade --no-gpu --expect --src %s --results %s > %s/log 2>&1", src, dir, dir);
  int rc = run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/log", dir);
  char *log = read_text(cmd);
  ck_assert_msg(rc == 0, "grade --expect --src %s exited %d:\n%s", src, rc, log ? log : "");
  ck_assert(strstr(log, "EXPECT OK") != NULL);
  snprintf(cmd, sizeof cmd, "%s/latest/results.json", dir);
  json_t *j = load_json(cmd);
  ck_assert(json_array_size(json_object_get(j, "tests")) > 0);
  json_decref(j);
  free(log);
  remove_dir(dir);
  free(dir);
}

START_TEST(test_grade_starter_fails_where_expected) { grade_expect("starter"); }
END_TEST
START_TEST(test_grade_solutions_pass) { grade_expect("solutions"); }
END_TEST

START_TEST(test_harness_cli_without_gpu) {
  list_assignments();
  for (int i = 0; i < n_names; i++) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "build/starter/%s/harness --list > /dev/null", names[i]);
    ck_assert_msg(run_shell(cmd) == 0, "%s failed", cmd);
    snprintf(cmd, sizeof cmd, "build/starter/%s/harness --frobnicate 2> /dev/null", names[i]);
    ck_assert_msg(run_shell(cmd) == 2, "%s: a bad option must exit 2", names[i]);
    snprintf(cmd, sizeof cmd, "build/starter/%s/harness --case no-such-case 2> /dev/null", names[i]);
    ck_assert_msg(run_shell(cmd) == 2, "%s: an unknown case must exit 2", names[i]);
  }
}
END_TEST

/* A temporary copy of the course as a student has it (no solutions/, no
 * built references), for the tests that run `make grade` end to end. */
static char *copy_course(const char *tag) {
  char *dir = make_temp_dir(tag), cmd[1024];
  snprintf(cmd, sizeof cmd, "cp -r Makefile mk grader assignments starter '%s'/ && rm -rf '%s'/assignments/*/ref", dir,
           dir);
  ck_assert_msg(run_shell(cmd) == 0, "cannot copy the course into %s", dir);
  return dir;
}

/* Two `make grade` at once in one checkout (a student in two terminals): both
 * build, both grade, neither sees a half-written binary, and each keeps its
 * own complete results. Runs on a copy of the course, assignment 01 only. */
START_TEST(test_make_grade_twice_at_once) {
  char *dir = copy_course("twice"), cmd[2048];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && { SCANLAB_NO_GPU=1 make grade A=01 ARCH=sm_75 > a.log 2>&1 & a=$!; "
           "SCANLAB_NO_GPU=1 make grade A=01 ARCH=sm_75 > b.log 2>&1 & b=$!; wait $a $b; }",
           dir);
  run_shell(cmd);
  for (const char *side = "a"; side; side = side[0] == 'a' ? "b" : NULL) {
    snprintf(cmd, sizeof cmd, "%s/%s.log", dir, side);
    char *log = read_text(cmd);
    ck_assert_msg(log != NULL, "no log of make grade (%s)", side);
    const char *tail = strlen(log) > 600 ? log + strlen(log) - 600 : log; /* Check's messages are short */
    ck_assert_msg(strstr(log, "make grade: exit 3: no CUDA device"), "make grade (%s) did not end in no-GPU mode:\n%s",
                  side, tail);
    ck_assert_msg(!strstr(log, "does not compile") && !strstr(log, "is not executable"),
                  "make grade (%s) met a broken build:\n%s", side, tail);
    free(log);
  }
  /* two result folders, each with a complete results.json: 12 checks of 01 */
  snprintf(cmd, sizeof cmd, "cd '%s/grade-results' && test $(ls | grep -v '^latest$' | wc -l) -eq 2", dir);
  ck_assert_msg(run_shell(cmd) == 0, "two runs did not leave two result folders");
  snprintf(cmd, sizeof cmd, "cd '%s/grade-results' && ls | grep -v '^latest$' > ../dirs", dir);
  run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/dirs", dir);
  char *dirs = read_text(cmd), *save = NULL;
  for (char *d = strtok_r(dirs, "\n", &save); d; d = strtok_r(NULL, "\n", &save)) {
    snprintf(cmd, sizeof cmd, "%s/grade-results/%s/results.json", dir, d);
    json_t *j = load_json(cmd);
    ck_assert_msg(json_array_size(json_object_get(j, "tests")) == 12, "%s: %zu tests, want 12", cmd,
                  json_array_size(json_object_get(j, "tests")));
    json_decref(j);
  }
  free(dirs);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* `make help` lists every target with one line each. */
START_TEST(test_make_help_lists_targets) {
  static const char *const TARGETS[] = {"all", "grade", "test", "test-gpu", "test-gpu-build", "reference",
                                        "bench", "ptx", "clean", "help", "timings", "handout", "gradescope",
                                        "grade-all"};
  char *dir = make_temp_dir("help"), cmd[1024];
  snprintf(cmd, sizeof cmd, "make -s help > '%s/help' 2>&1", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  for (size_t i = 0; i < sizeof TARGETS / sizeof *TARGETS; i++) {
    snprintf(cmd, sizeof cmd, "test $(grep -cE '^  %s +[a-z]' '%s/help') -eq 1", TARGETS[i], dir);
    ck_assert_msg(run_shell(cmd) == 0, "make help has no one-line entry for '%s'", TARGETS[i]);
  }
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The whole path of a student file that does not compile: `make grade` goes
 * on, the grader scores that assignment 0 with the compiler's message, and
 * the other assignments are still graded. Runs on a copy of the course. */
START_TEST(test_make_grade_compile_error) {
  list_assignments();
  char *dir = copy_course("compile-error");
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && printf '\nthis is not C;\n' >> starter/01-warp-scan/warp_scan.cu && "
           "SCANLAB_NO_GPU=1 make grade ARCH=sm_75 > log 2>&1; echo $? > rc",
           dir);
  run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/log", dir);
  char *log = read_text(cmd);
  ck_assert_msg(log && strstr(log, "error"), "no compiler message in the make output:\n%s", log ? log : "");
  snprintf(cmd, sizeof cmd, "%s/grade-results/latest/results.tsv", dir);
  char *tsv = read_text(cmd);
  ck_assert_msg(tsv != NULL, "no results.tsv; make grade said:\n%s", log);
  /* Every check of 01 fails, saying why. */
  snprintf(cmd, sizeof cmd, "test -z \"$(awk -F'\\t' '$1 == \"01-warp-scan\" && $4 != \"fail\" && $4 != \"ungraded\"' '%s/grade-results/latest/results.tsv')\"", dir);
  ck_assert_msg(run_shell(cmd) == 0, "a check of 01 did not fail:\n%s", tsv);
  snprintf(cmd, sizeof cmd, "grep -q 'ptx-register .*does not compile: .*warp_scan.cu' '%s/log'", dir);
  ck_assert_msg(run_shell(cmd) == 0, "no 'does not compile: <file>' reason:\n%s", log);
  /* The other assignments were graded, on their own merits. */
  for (int i = 0; i < n_names; i++) {
    if (!strcmp(names[i], "01-warp-scan")) continue;
    snprintf(cmd, sizeof cmd, "grep -q '^%s\t' '%s/grade-results/latest/results.tsv'", names[i], dir);
    ck_assert_msg(run_shell(cmd) == 0, "%s was not graded:\n%s", names[i], tsv);
    snprintf(cmd, sizeof cmd, "grep '^%s\t' '%s/grade-results/latest/results.tsv' | grep -q 'does not compile'", names[i], dir);
    ck_assert_msg(run_shell(cmd) != 0, "%s was marked 'does not compile' too", names[i]);
  }
  free(log);
  free(tsv);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *repo_suite(void) {
  Suite *s = suite_create("repo");
  TCase *t = tcase_create("assignments");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_every_conf_loads);
  tcase_add_test(t, test_handout_table_matches_conf);
  tcase_add_test(t, test_handout_no_gpu_points);
  tcase_add_test(t, test_01_ptx_counts);
  tcase_add_test(t, test_03_model_layouts);
  tcase_add_test(t, test_doc_quotes_match_sources);
  tcase_add_test(t, test_doc_links_resolve);
  tcase_add_test(t, test_litmus_ptx);
  tcase_add_test(t, test_grade_starter_fails_where_expected);
  tcase_add_test(t, test_grade_solutions_pass);
  tcase_add_test(t, test_harness_cli_without_gpu);
  tcase_add_test(t, test_make_grade_compile_error);
  tcase_add_test(t, test_make_help_lists_targets);
  tcase_add_test(t, test_make_grade_twice_at_once);
  suite_add_tcase(s, t);
  return s;
}
