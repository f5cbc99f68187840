/* test_layout.c: README.md's layout table (its "## Layout" section, a row per
 * folder: "| `path` | contents |") in step with the tree:
 *   - every path a row's first column names exists (a row whose contents say
 *     "generated" names what a build or a grading run makes, and is not read;
 *     NN-name stands for any assignment's folder, as in "assignments/NN-name/");
 *   - every top-level folder git tracks (but dot-folders) and every folder
 *     directly under grader/ has a row: one naming it or a path in it;
 *   - docs/architecture.md names every folder directly under grader/;
 *   - mk/ holds only make fragments, and scripts live in tools/, grader/, tests/,
 *     lectures/ or research/.
 *   - nothing under grader/ but its tests names an assignment or includes a file of
 *     assignments/ (an assignment is a folder the grader reads, never a name it knows;
 *     that no other file outside an assignment's folders names it is test_names.c's).
 * Each problem is one line naming README.md:LINE or the folder; a test fails
 * with all of its problems, one per line. Run from the repository root. */
#include <ftw.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "course.h"
#include "tests.h"

enum { MAX_ROWS = 64, MAX_PATHS = 4, MAX_FOLDERS = 64 };

/* A row of the table: its line in README.md, the paths of its first column,
 * and whether its contents say it is generated. */
typedef struct layout_row {
  int line, n_paths, generated;
  char path[MAX_PATHS][128];
} layout_row;

/* Problems found, one line each. */
typedef struct problems {
  int n;
  char text[4096];
} problems;

static void problem(problems *p, const char *fmt, ...) {
  size_t used = strlen(p->text);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->text + used, sizeof p->text - used, fmt, ap);
  va_end(ap);
  used = strlen(p->text);
  snprintf(p->text + used, sizeof p->text - used, "\n");
  p->n++;
}

/* Reads the rows of the table under "## Layout" in README.md's text (the first
 * lines starting with '|' after the heading: a header, a separator, the rows);
 * *header is the header's line. Returns how many rows, or -1 when there is no
 * such section or table. */
static int layout_rows(const char *text, layout_row *rows, int cap, int *header) {
  int n = 0, line = 0, state = 0, table = 0; /* state 0: before the section, 1: in it, 2: in its table, 3: past it */
  for (const char *l = text; *l && state < 3; line++) {
    const char *le = strchr(l, '\n');
    if (!le) le = l + strlen(l);
    if (state == 0 && !strncmp(l, "## Layout", 9) && l + 9 == le) {
      state = 1;
    } else if (state == 1 && !strncmp(l, "## ", 3)) {
      state = 3;
    } else if (state == 1 && *l == '|') {
      state = 2, table = 1, *header = line + 1;
    } else if (state == 2 && *l != '|') {
      state = 3;
    } else if (state == 2 && line + 1 > *header + 1 && n < cap) { /* a row, past the separator */
      const char *c1 = l + 1, *c2 = memchr(c1, '|', (size_t)(le - c1));
      if (c2) {
        layout_row *r = &rows[n++];
        memset(r, 0, sizeof *r);
        r->line = line + 1;
        char contents[2048];
        snprintf(contents, sizeof contents, "%.*s", (int)(le - c2), c2);
        r->generated = strstr(contents, "generated") != NULL;
        for (const char *q = memchr(c1, '`', (size_t)(c2 - c1)); q && r->n_paths < MAX_PATHS;) {
          const char *close = memchr(q + 1, '`', (size_t)(c2 - q - 1));
          if (!close) break;
          snprintf(r->path[r->n_paths++], sizeof r->path[0], "%.*s", (int)(close - q - 1), q + 1);
          q = memchr(close + 1, '`', (size_t)(c2 - close - 1));
        }
      }
    }
    l = *le ? le + 1 : le;
  }
  return table ? n : -1;
}

/* Whether a path of the table names something in the tree: NN-name matches any
 * assignment's folder; a path ending in '/' must be a folder. */
static int path_exists(const char *path) {
  if (!*path) return 0;
  char pattern[256];
  const char *nn = strstr(path, "NN-name");
  if (nn)
    snprintf(pattern, sizeof pattern, "%.*s[0-9][0-9]-*%s", (int)(nn - path), path, nn + strlen("NN-name"));
  else
    snprintf(pattern, sizeof pattern, "%s", path);
  glob_t g;
  int found = 0, folder = path[strlen(path) - 1] == '/';
  if (glob(pattern, GLOB_MARK, NULL, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc; i++) found |= !folder || g.gl_pathv[i][strlen(g.gl_pathv[i]) - 1] == '/';
    globfree(&g);
  }
  struct stat st; /* a name glob would read as a pattern */
  if (!nn && !found && stat(path, &st) == 0) found = !folder || S_ISDIR(st.st_mode);
  return found;
}

/* (a) Every path of every row that is not generated exists. */
static void check_rows_exist(const layout_row *rows, int n, problems *p) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < rows[i].n_paths; k++)
      if (!rows[i].generated && !path_exists(rows[i].path[k]))
        problem(p, "README.md:%d: the layout table names `%s`, which is not in the tree", rows[i].line, rows[i].path[k]);
}

/* Whether some row names folder (no trailing '/') or a path in it. */
static int has_row(const layout_row *rows, int n, const char *folder) {
  size_t fl = strlen(folder);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < rows[i].n_paths; k++) {
      const char *path = rows[i].path[k];
      if (!strncmp(path, folder, fl) && (!path[fl] || path[fl] == '/')) return 1;
    }
  return 0;
}

/* The folders git tracks: at the top (but dot-folders), and directly under grader/
 * (as "grader/NAME"). Returns how many, or -1 when git ls-files fails. */
static int tracked_folders(char folders[][128], int cap) {
  FILE *f = popen("git ls-files 2>/dev/null", "r");
  if (!f) return -1;
  char line[1024];
  int n = 0, any = 0;
  while (fgets(line, sizeof line, f)) {
    any = 1;
    char *slash = strchr(line, '/');
    if (!slash || line[0] == '.') continue;
    char *next = strchr(slash + 1, '/');
    char found[2][128];
    int k = 0;
    snprintf(found[k++], sizeof found[0], "%.*s", (int)(slash - line), line);
    if (!strcmp(found[0], "grader") && next) snprintf(found[k++], sizeof found[0], "%.*s", (int)(next - line), line);
    for (int j = 0; j < k; j++) {
      int seen = 0;
      for (int i = 0; i < n && !seen; i++) seen = !strcmp(folders[i], found[j]);
      if (!seen && n < cap) snprintf(folders[n++], 128, "%s", found[j]);
    }
  }
  int rc = pclose(f);
  return rc == 0 && any ? n : -1;
}

/* (b) Every tracked folder has a row. */
static void check_folders_have_rows(const layout_row *rows, int n, char folders[][128], int n_folders, int table_line,
                                    problems *p) {
  for (int i = 0; i < n_folders; i++)
    if (!has_row(rows, n, folders[i]))
      problem(p, "%s/: no row of README.md's layout table (README.md:%d) names it", folders[i], table_line);
}

/* (c) docs/architecture.md names every folder directly under grader/: "grader/NAME"
 * not followed by more of a name. */
static void check_architecture(const char *arch, char folders[][128], int n_folders, problems *p) {
  for (int i = 0; i < n_folders; i++) {
    if (strncmp(folders[i], "grader/", 7)) continue;
    size_t fl = strlen(folders[i]);
    int named = 0;
    for (const char *q = strstr(arch, folders[i]); q && !named; q = strstr(q + 1, folders[i])) {
      char c = q[fl];
      named = !(c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
    }
    if (!named) problem(p, "%s/: docs/architecture.md never names it", folders[i]);
  }
}

/* Fails with every problem, one per line. */
static void report(const problems *p) {
  if (p->n) ck_abort_msg("%.*s", (int)strlen(p->text) - 1, p->text);
}

static char *readme;
static layout_row rows[MAX_ROWS];
static int n_rows, table_line;
static char folders[MAX_FOLDERS][128];
static int n_folders;

static void setup(void) {
  readme = read_text("README.md");
  ck_assert_msg(readme != NULL, "README.md is missing");
  n_rows = layout_rows(readme, rows, MAX_ROWS, &table_line);
  ck_assert_msg(n_rows > 0, "README.md: no table under '## Layout' (| path | contents |)");
  n_folders = tracked_folders(folders, MAX_FOLDERS);
  ck_assert_msg(n_folders > 0, "git ls-files failed: the layout test runs in a git checkout");
}

START_TEST(test_layout_paths_exist) {
  setup();
  problems p = {0, ""};
  check_rows_exist(rows, n_rows, &p);
  report(&p);
  free(readme);
}
END_TEST

START_TEST(test_layout_has_every_folder) {
  setup();
  problems p = {0, ""};
  check_folders_have_rows(rows, n_rows, folders, n_folders, table_line, &p);
  report(&p);
  free(readme);
}
END_TEST

START_TEST(test_architecture_names_grader_folders) {
  setup();
  char *arch = read_text("docs/architecture.md");
  ck_assert_msg(arch != NULL, "docs/architecture.md is missing");
  problems p = {0, ""};
  check_architecture(arch, folders, n_folders, &p);
  report(&p);
  free(arch);
  free(readme);
}
END_TEST

/* The checks on a table that is out of step: a row for a folder that is gone,
 * none for one that is there, a generated row, an assignment's placeholder. */
START_TEST(test_layout_fixture) {
  static const char TEXT[] = "# X\n\ntext\n\n## Layout\n\n| path | contents |\n| --- | --- |\n"
                             "| `Makefile` | every target |\n"
                             "| `assignments/NN-name/`, `grader/harness/` | gone |\n"
                             "| `grader/lib/` | C |\n"
                             "| `nowhere/` | what a build makes (generated) |\n\n## Next\n| `not/a/row/` | x |\n";
  layout_row r[MAX_ROWS];
  int header = 0, n = layout_rows(TEXT, r, MAX_ROWS, &header);
  ck_assert_int_eq(n, 4);
  ck_assert_int_eq(header, 7);
  ck_assert_int_eq(r[1].line, 10);
  ck_assert_int_eq(r[1].n_paths, 2);
  ck_assert_str_eq(r[1].path[1], "grader/harness/");
  ck_assert(r[3].generated && !r[2].generated);
  problems p = {0, ""};
  check_rows_exist(r, n, &p);
  ck_assert_msg(p.n == 1 && !strcmp(p.text, "README.md:10: the layout table names `grader/harness/`, which is not in the "
                                            "tree\n"),
                "%s", p.text);
  char f[][128] = {"grader", "grader/lib", "grader/judge", "tests"};
  problems q = {0, ""};
  check_folders_have_rows(r, n, f, 4, 7, &q);
  ck_assert_msg(q.n == 2 && strstr(q.text, "grader/judge/: no row of README.md's layout table (README.md:7) names it\n") &&
                    strstr(q.text, "tests/: no row"),
                "%s", q.text);
  problems a = {0, ""};
  check_architecture("### `grader/lib/`\n`grader/judgement` is not grader/judge.\n", f, 4, &a);
  ck_assert_msg(a.n == 0, "%s", a.text);
  check_architecture("### `grader/lib/`\n`grader/judgement`\n", f, 4, &a);
  ck_assert_msg(a.n == 1 && !strcmp(a.text, "grader/judge/: docs/architecture.md never names it\n"), "%s", a.text);
  ck_assert_int_eq(layout_rows("# X\n\n## Layout\n\nno table\n## Next\n| a | b |\n", r, MAX_ROWS, &header), -1);
}
END_TEST

/* (d) Nothing under grader/ (but grader/tests and a handout's grader/bin) names an
 * assignment: its folder's name ("07-fake-scan"), the name after its number, with - or _
 * ("fake-scan", "fake_scan", any case), or its number standing alone ("04's", "(01-03)";
 * not a part of another number, a date or a format such as "%04x"); and no #include names
 * a path of assignments/. */
enum { MAX_ASSIGNMENTS = 64 };
typedef struct assignment_names {
  int n;
  char folder[MAX_ASSIGNMENTS][64], part[MAX_ASSIGNMENTS][64], under[MAX_ASSIGNMENTS][64];
} assignment_names;

/* The assignments as the grader finds them: assignments/NN-name/grade.conf. */
static void read_assignment_names(assignment_names *a) {
  glob_t g;
  a->n = 0;
  if (glob("assignments/*/grade.conf", 0, NULL, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc && a->n < MAX_ASSIGNMENTS; i++) {
      const char *f = g.gl_pathv[i] + strlen("assignments/"), *dash = strchr(f, '-');
      int k = a->n++;
      snprintf(a->folder[k], 64, "%.*s", (int)(strchr(f, '/') - f), f);
      snprintf(a->part[k], 64, "%.*s", dash && dash < strchr(f, '/') ? (int)(strchr(f, '/') - dash - 1) : 0, dash ? dash + 1 : "");
      memcpy(a->under[k], a->part[k], sizeof a->under[k]);
      for (char *c = a->under[k]; *c; c++) *c = *c == '-' ? '_' : *c;
    }
    globfree(&g);
  }
}

/* Whether the two characters num (an assignment's number) stand alone in line. */
static int number_alone(const char *line, const char *num) {
  for (const char *q = strstr(line, num); q; q = strstr(q + 1, num)) {
    char before = q == line ? ' ' : q[-1], after = q[2];
    if (!strchr("0123456789.:", after ? after : ' ') && !(before && strchr("0123456789.:/%+-_", before)) &&
        !((before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z')))
      return 1;
  }
  return 0;
}

/* What of an assignment line names ("" when nothing), into what. */
static int names_assignment(const char *line, const assignment_names *a, char *what, size_t cap) {
  if (strstr(line, "#include") && strstr(line, "assignments/")) return snprintf(what, cap, "includes a file of assignments/"), 1;
  for (int i = 0; i < a->n; i++) {
    char num[3];
    snprintf(num, sizeof num, "%.2s", a->folder[i]);
    if (strcasestr(line, a->folder[i])) return snprintf(what, cap, "names %s", a->folder[i]), 1;
    if (a->part[i][0] && (strcasestr(line, a->part[i]) || strcasestr(line, a->under[i])))
      return snprintf(what, cap, "names %s (%s)", a->folder[i], a->part[i]), 1;
    if (num[0] >= '0' && num[0] <= '9' && number_alone(line, num)) return snprintf(what, cap, "names %s by its number", a->folder[i]), 1;
  }
  return 0;
}

static const assignment_names *walk_names;
static problems *walk_problems;

static int check_grader_file(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st, (void)ftw;
  if (type != FTW_F || !strncmp(path, "grader/tests/", 13) || !strncmp(path, "grader/bin/", 11)) return 0;
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[4096], what[160];
  for (int n = 1; fgets(line, sizeof line, f); n++)
    if (names_assignment(line, walk_names, what, sizeof what)) problem(walk_problems, "%s:%d: %s", path, n, what);
  fclose(f);
  return 0;
}

START_TEST(test_grader_names_no_assignment) {
  assignment_names a;
  read_assignment_names(&a);
  ck_assert_msg(a.n > 0, "no assignments/*/grade.conf: run from the repository root");
  problems p = {0, ""};
  walk_names = &a, walk_problems = &p;
  ck_assert_int_eq(nftw("grader", check_grader_file, 16, FTW_PHYS), 0);
  report(&p);
}
END_TEST

/* The check on lines that name an assignment and on lines that only look like it. */
START_TEST(test_grader_names_fixture) {
  assignment_names a = {2, {"07-fake-scan", "08-mock-tree"}, {"fake-scan", "mock-tree"}, {"fake_scan", "mock_tree"}};
  char what[160];
  static const char *const NAMING[] = {"/* 07's scans */",       "(07-09)",          "-I assignments/07-fake-scan",
                                       "#include \"fake_scan.h\"", "a Mock-Tree probe", "#include \"../../assignments/x.h\"",
                                       "as in 07, the bench"};
  static const char *const NOT[] = {"fprintf(f, \"\\u%07x\", c)", "2026-11-07", "0.07 s", "sm_90, 07:30", "a scan of 2^24 elements",
                                    "x07 = 1", "107 ms"};
  for (size_t i = 0; i < sizeof NAMING / sizeof *NAMING; i++) ck_assert_msg(names_assignment(NAMING[i], &a, what, sizeof what), "%s", NAMING[i]);
  for (size_t i = 0; i < sizeof NOT / sizeof *NOT; i++)
    ck_assert_msg(!names_assignment(NOT[i], &a, what, sizeof what), "%s: %s", NOT[i], what);
}
END_TEST


/* Runs cmd (a shell pipeline printing one problem a line) and fails with its
 * output when it printed anything; fewer than min_seen lines on descriptor 3
 * (one per item it looked at) means it read nothing real. */
static void shell_problems(const char *cmd, int min_seen, const char *what) {
  char *dir = make_temp_dir("layout"), full[4096], out[512], seen[512];
  snprintf(out, sizeof out, "%s/problems", dir);
  snprintf(seen, sizeof seen, "%s/seen", dir);
  snprintf(full, sizeof full, "{ %s ; } > '%s' 3> '%s'", cmd, out, seen);
  ck_assert_msg(run_shell(full) == 0, "%s: the check failed to run: %s", what, cmd);
  char *text = read_text(out), *items = read_text(seen);
  ck_assert(text != NULL && items != NULL);
  int n = 0;
  for (const char *c = items; *c; c++) n += *c == '\n';
  ck_assert_msg(n >= min_seen, "%s: only %d items looked at", what, n);
  ck_assert_msg(text[0] == 0, "%s:\n%s", what, text);
  free(text);
  free(items);
  remove_dir(dir);
  free(dir);
}

/* No source file outside the tests is over 500 lines without a reason: a line
 * "Over 500 lines: WHY" among the first 30 of its header. */
START_TEST(test_long_files_say_why) {
  shell_problems("git ls-files -- '*.c' '*.h' '*.cu' '*.cuh' '*.sh' '*.awk' '*.gp' '*.mk' Makefile "
                 "| grep -v -e '^grader/tests/' -e '^tests/' -e '^assignments/[^/]*/tests/' | while read -r f; do echo \"$f\" >&3; "
                 "n=$(wc -l < \"$f\"); [ \"$n\" -le 500 ] || head -30 \"$f\" | grep -q 'Over 500 lines: [a-z]' "
                 "|| echo \"$f: $n lines, and no 'Over 500 lines: why' in its first 30\"; done",
                 100, "source files over 500 lines");
}
END_TEST

/* One home for each kind of script: mk/ holds only the Makefile's fragments
 * (*.mk); a script (*.sh, *.awk, *.gp, *.py) lives with what it serves: tools/
 * (the instructor's tools and what make runs), grader/ (the grader's, its
 * tests'), tests/, lectures/ (figures), research/, or an assignment's own tests/, tools/ and research/. */
START_TEST(test_scripts_have_one_home) {
  shell_problems("git ls-files mk | while read -r f; do echo \"$f\" >&3; case \"$f\" in "
                 "mk/*/*) echo \"$f: mk/ holds no folders\" ;; *.mk) ;; "
                 "*) echo \"$f: not a make fragment (mk/ holds only *.mk: a script goes to tools/, or grader/ if the grader's)\" ;; "
                 "esac; done; git ls-files '*.sh' '*.awk' '*.gp' '*.py' | while read -r f; do echo \"$f\" >&3; case \"$f\" in "
                 "tools/* | grader/* | tests/* | lectures/* | research/* | assignments/*/tests/* | assignments/*/tools/* | assignments/*/research/*) ;; "
                 "*) echo \"$f: a script outside tools/, grader/, tests/, lectures/, research/ and an assignment's tests/, tools/ or research/\" ;; esac; done",
                 10, "scripts' homes");
}
END_TEST

/* docs/results/ shows the current runs and history/ the replaced ones: every
 * file of each folder has a row in that folder's README (a PNG may share its
 * text file's row: "`NAME.txt`, `.png`"), and every file a row's first column
 * names is there. */
START_TEST(test_results_indexed) {
  shell_problems("for d in docs/results docs/results/history; do "
                 "for f in $(git ls-files \"$d\" | grep -v '/README.md$'); do "
                 "[ \"$(dirname \"$f\")\" = \"$d\" ] || continue; echo \"$f\" >&3; n=${f##*/}; s=${n%.*}; "
                 "grep -q \"^| \\`$n\\`\" \"$d/README.md\" || { [ \"${n##*.}\" = png ] && grep -q \"^| \\`$s.txt\\`, \\`.png\\`\" \"$d/README.md\"; } "
                 "|| echo \"$f: no row of $d/README.md names it\"; done; "
                 "sed -n 's/^| `\\([^`]*\\)`.*/\\1/p' \"$d/README.md\" | grep -v '^file$' | while read -r n; do "
                 "[ -f \"$d/$n\" ] || echo \"$d/README.md names $n, which is not in $d/\"; done; done",
                 20, "the results indexes");
}
END_TEST

Suite *layout_suite(void) {
  Suite *s = suite_create("layout");
  TCase *t = tcase_create("readme");
  tcase_add_test(t, test_layout_paths_exist);
  tcase_add_test(t, test_layout_has_every_folder);
  tcase_add_test(t, test_architecture_names_grader_folders);
  tcase_add_test(t, test_layout_fixture);
  tcase_add_test(t, test_grader_names_no_assignment);
  tcase_add_test(t, test_grader_names_fixture);
  tcase_add_test(t, test_long_files_say_why);
  tcase_add_test(t, test_results_indexed);
  tcase_add_test(t, test_scripts_have_one_home);
  suite_add_tcase(s, t);
  return s;
}
