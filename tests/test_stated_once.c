/* test_stated_once.c: each rule of grading is stated once (issue 41, item 5).
 *
 * A rule has one home, a section of docs/grading.md; every other text names
 * the rule and links to that section instead of saying it again:
 *   - the perf formula: "### The scoring formula";
 *   - a perf check's floor: "### `perf`";
 *   - the full_ratio that make timings suggests: "## Statistics of the
 *     instructor's tools";
 *   - the limits of each grade.conf key: "## grade.conf".
 * A rule's text is what its patterns (RULES below) match in the prose of a
 * tracked file, with backticks dropped and every run of blanks and line
 * breaks read as one space: a Markdown or .txt file whole, the comments of
 * the C, CUDA, shell, make, awk, gnuplot and grade.conf files. The perf
 * formula's text is either of its branches written as an expression (T at
 * most a ratio times the reference's time; the points times a ratio times the
 * reference's time over T; the fraction a ratio over r); the floor's, a
 * sample under (or faster than) a fraction times a copy; the suggestion's, the spread
 * plus its margin; a key's limits, the key's name and then its interval
 * within the same sentence or table cell. docs/results/ is left out: dated
 * records of runs, as they were printed.
 *
 * The limits in the grade.conf section are also checked against the parser:
 * for each key of LIMITS its row there states [lo, hi], and conf_load accepts
 * lo and hi and refuses a value just outside each, so the text cannot drift
 * from grader/src/conf_keys.c. Run from the repository root of a git checkout. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "teaching.h"
#include "tests.h"

static const char HOME_FILE[] = "docs/grading.md";

/* A key's limits as conf_keys.c parses them, with a value just outside each end. */
static const struct {
  const char *key, *kind, *lo, *hi, *below, *above;
} LIMITS[] = {
    {"points", "perf", "0", "1000", "-0.5", "1000.5"},  {"timeout", "perf", "0.1", "3600", "0.09", "3601"},
    {"repeat", "correct", "1", "20", "0", "21"},        {"full_ratio", "perf", "0.01", "100", "0.009", "100.5"},
    {"floor", "perf", "0.01", "1", "0.009", "1.01"},    {"runs", "perf", "1", "50", "0", "51"},
    {"reps", "perf", "1", "10000", "0", "10001"},       {"min", "ptx", "0", "1000000", "-1", "1000001"},
    {"max", "ptx", "0", "1000000", "-1", "1000001"},
};
#define N_LIMITS (int)(sizeof LIMITS / sizeof *LIMITS)

#define MAX_PATTERNS (3 + N_LIMITS)
typedef struct {
  const char *name, *home; /* the rule, and the heading of its section in HOME_FILE */
  const char *patterns[MAX_PATTERNS];
} rule;

/* A ratio: the key's name or a number such as 1.10; "times" in any spelling. */
#define RATIO "(full_ratio|[0-9]+\\.[0-9]+)"
#define TIMES "( ?(\\*|x|\xc3\x97) ?| times )"
static const rule RULES[] = {
    {"the perf formula",
     "### The scoring formula",
     {"(^|[^a-z_])t ?(<=|\xe2\x89\xa4) ?" RATIO, RATIO TIMES "(tbase|tref|reference|the reference's time) ?/ ?(t|time)([^a-z_]|$)",
      "full_ratio ?/ ?r([^a-z_]|$)"}},
    {"the floor of a perf check",
     "### perf",
     {"(under|faster than) (a |the )?(floor|f|this|[0-9]+\\.[0-9]+)" TIMES "[^.|]{0,40}cop(y|ies)", "(floor|f|[0-9]+\\.[0-9]+)" TIMES "the copy's median"}},
    {"the suggested full_ratio", "## Statistics of the instructor's tools", {"spread ?(\\+|plus) ?0\\.05"}},
    {"the limits of a grade.conf key", "## grade.conf", {NULL}}, /* patterns from LIMITS */
};
#define N_RULES (int)(sizeof RULES / sizeof *RULES)
#define LIMITS_RULE (N_RULES - 1)

/* ---------------------------------------------------------------- prose */

/* A file's prose: its text normalized, with the line each character came from. */
typedef struct {
  char *s;
  int *line;
  size_t n, cap;
} prose;

static void put(prose *p, char c, int line) {
  if (c == '`' || c == '\r') return;
  if (c == '\n' || c == '\t') c = ' ';
  if (c == ' ' && (!p->n || p->s[p->n - 1] == ' ')) return;
  if (p->n + 2 > p->cap) {
    p->cap = p->cap ? 2 * p->cap : 4096;
    p->s = realloc(p->s, p->cap);
    p->line = realloc(p->line, p->cap * sizeof *p->line);
  }
  p->line[p->n] = line;
  p->s[p->n++] = c;
  p->s[p->n] = 0;
}

/* The comments of C or CUDA source; a block comment's leading " * " markers dropped. */
static void c_comments(const char *t, prose *p) {
  int line = 1, at_line_start = 0;
  enum { CODE, BLOCK, LINE, STR, CHR } st = CODE;
  for (const char *c = t; *c; c++) {
    if (*c == '\n') line++;
    switch (st) {
      case CODE:
        if (c[0] == '/' && c[1] == '*') st = BLOCK, c++, at_line_start = 0;
        else if (c[0] == '/' && c[1] == '/') st = LINE, c++;
        else if (*c == '"') st = STR;
        else if (*c == '\'') st = CHR;
        break;
      case BLOCK:
        if (c[0] == '*' && c[1] == '/') {
          st = CODE, c++, put(p, ' ', line);
          break;
        }
        if (*c == '\n') at_line_start = 1;
        else if (at_line_start && *c == '*') {
          at_line_start = 0;
          break;
        } else if (*c != ' ' && *c != '\t') at_line_start = 0;
        put(p, *c, line);
        break;
      case LINE:
        put(p, *c, line);
        if (*c == '\n') st = CODE;
        break;
      case STR:
      case CHR:
        if (*c == '\\' && c[1]) c++;
        else if (*c == (st == STR ? '"' : '\'') || *c == '\n') st = CODE;
        break;
    }
  }
}

/* Line comments that start with one of marks, at a line's start or after a blank. */
static void hash_comments(const char *t, const char *marks, prose *p) {
  int line = 1, in = 0;
  for (const char *c = t; *c; c++) {
    if (!in && strchr(marks, *c) && (c == t || c[-1] == ' ' || c[-1] == '\t' || c[-1] == '\n')) in = 1;
    if (in) put(p, *c, line);
    if (*c == '\n') line++, in = 0;
  }
}

static void whole(const char *t, prose *p) {
  int line = 1;
  for (const char *c = t; *c; c++) {
    put(p, *c, line);
    if (*c == '\n') line++;
  }
}

static int ends(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* The prose of a file by its name; 0 when the file holds none (data, binaries). */
static int read_prose(const char *path, const char *text, prose *p) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (ends(path, ".md") || ends(path, ".txt")) whole(text, p);
  else if (ends(path, ".c") || ends(path, ".h") || ends(path, ".cu") || ends(path, ".cuh")) c_comments(text, p);
  else if (ends(path, ".sh") || ends(path, ".mk") || ends(path, ".awk") || ends(path, ".gp") || !strcmp(base, "Makefile"))
    hash_comments(text, "#", p);
  else if (ends(path, ".conf")) hash_comments(text, ";#", p);
  else return 0;
  return 1;
}

/* ---------------------------------------------------------------- the rules' homes */

/* The lines [*first, *last] of the section of md under heading (backticks
 * dropped), to the next heading of its level or above; 0 when there is none. */
static int section_lines(const char *md, const char *heading, int *first, int *last) {
  int level = (int)strspn(heading, "#"), line = 1;
  *first = 0;
  for (const char *s = md; *s; line++) {
    const char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
    char row[512];
    size_t k = 0;
    for (const char *c = s; c < end && k + 1 < sizeof row; c++)
      if (*c != '`') row[k++] = *c;
    row[k] = 0;
    int h = (int)strspn(row, "#");
    if (h && row[h] == ' ') {
      if (*first && h <= level) {
        *last = line - 1;
        return 1;
      }
      if (!*first && !strcmp(row, heading)) *first = line;
    }
    s = nl ? nl + 1 : end;
  }
  *last = line;
  return *first != 0;
}

/* "KEY ... [lo, hi]" within a sentence, or a table's row a cell or two on, as an ERE. */
static void limits_pattern(int i, char *out, size_t cap) {
  char lo[32], hi[32], *o = lo;
  for (int e = 0; e < 2; e++, o = hi) {
    const char *v = e ? LIMITS[i].hi : LIMITS[i].lo;
    size_t k = 0;
    for (; *v && k + 3 < sizeof lo; v++) {
      if (*v == '.') o[k++] = '\\';
      o[k++] = *v;
    }
    o[k] = 0;
  }
  snprintf(out, cap, "(^|[^a-z_])%s(( ?\\| ?[^|]{0,60}){1,2}|([^a-z_][^.|;]{0,60})?)\\[%s, ?%s\\]", LIMITS[i].key, lo, hi);
}

typedef struct {
  regex_t re[N_RULES][MAX_PATTERNS];
  int n[N_RULES];
} compiled;

static void compile_rules(compiled *c) {
  for (int r = 0; r < N_RULES; r++) {
    c->n[r] = 0;
    for (int k = 0; k < MAX_PATTERNS; k++) {
      char buf[256];
      const char *pat = RULES[r].patterns[k];
      if (r == LIMITS_RULE) {
        if (k >= N_LIMITS) break;
        limits_pattern(k, buf, sizeof buf);
        pat = buf;
      }
      if (!pat) break;
      int rc = regcomp(&c->re[r][k], pat, REG_EXTENDED | REG_ICASE);
      ck_assert_msg(rc == 0, "tests/test_stated_once.c: the pattern '%s' of %s does not compile", pat, RULES[r].name);
      c->n[r]++;
    }
  }
}

static void free_rules(compiled *c) {
  for (int r = 0; r < N_RULES; r++)
    for (int k = 0; k < c->n[r]; k++) regfree(&c->re[r][k]);
}

static void add(char *msg, size_t cap, const char *fmt, const char *path, int line, const char *what, const char *text,
                const char *home) {
  size_t len = strlen(msg);
  if (len + 2 >= cap) return;
  msg[len] = '\n';
  snprintf(msg + len + 1, cap - len - 1, fmt, path, line, what, text, home);
}

/* Every statement of a rule in path's prose outside the rule's home is appended to msg;
 * home_seen[r] counts the statements inside it. */
static void check_prose(const char *path, const char *text, const compiled *c, const char *home_md, int *home_seen,
                        char *msg, size_t cap) {
  prose p = {0};
  if (!read_prose(path, text, &p) || !p.n) {
    free(p.s), free(p.line);
    return;
  }
  for (int r = 0; r < N_RULES; r++) {
    int first = 0, last = -1;
    if (!strcmp(path, HOME_FILE) && home_md) section_lines(home_md, RULES[r].home, &first, &last);
    for (int k = 0; k < c->n[r]; k++) {
      regmatch_t m;
      for (size_t off = 0; off < p.n && !regexec(&c->re[r][k], p.s + off, 1, &m, off ? REG_NOTBOL : 0);
           off += m.rm_eo > m.rm_so ? (size_t)m.rm_eo : (size_t)m.rm_so + 1) {
        size_t at = off + (size_t)m.rm_so;
        while (at + 1 < off + (size_t)m.rm_eo && p.s[at] == ' ') at++;
        int line = p.line[at];
        if (line >= first && line <= last) {
          home_seen[r]++;
          continue;
        }
        char quote[96];
        snprintf(quote, sizeof quote, "%.*s", (int)(m.rm_eo - m.rm_so), p.s + off + m.rm_so);
        add(msg, cap, "%s:%d: states %s (\"%s\"): link to docs/grading.md, \"%s\", instead", path, line, RULES[r].name,
            quote, RULES[r].home);
      }
    }
  }
  free(p.s), free(p.line);
}

START_TEST(test_rules_stated_once) {
  static compiled c;
  compile_rules(&c);
  char *home_md = read_text(HOME_FILE);
  ck_assert_msg(home_md != NULL, "cannot read %s", HOME_FILE);
  for (int r = 0; r < N_RULES; r++) {
    int first, last;
    ck_assert_msg(section_lines(home_md, RULES[r].home, &first, &last), "%s has no section \"%s\", the home of %s",
                  HOME_FILE, RULES[r].home, RULES[r].name);
  }
  FILE *f = popen("git ls-files 2>/dev/null", "r");
  ck_assert_msg(f != NULL, "cannot run git ls-files");
  static char msg[65536];
  msg[0] = 0;
  int home_seen[N_RULES] = {0}, files = 0;
  char path[1024];
  while (fgets(path, sizeof path, f)) {
    path[strcspn(path, "\n")] = 0;
    if (!strncmp(path, "docs/results/", 13)) continue;
    char *text = read_text(path);
    if (!text) continue; /* a deleted file not yet committed */
    check_prose(path, text, &c, home_md, home_seen, msg, sizeof msg);
    free(text);
    files++;
  }
  pclose(f);
  ck_assert_msg(files > 100, "git ls-files listed %d readable files: the test runs in a git checkout", files);
  for (int r = 0; r < N_RULES; r++)
    ck_assert_msg(home_seen[r] > 0, "%s, \"%s\" no longer states %s as tests/test_stated_once.c reads it", HOME_FILE,
                  RULES[r].home, RULES[r].name);
  free(home_md);
  free_rules(&c);
  /* every statement on stderr; Check carries a message of at most 4 KiB */
  if (*msg) fprintf(stderr, "a rule stated outside its home (tests/test_stated_once.c):%s\n", msg);
  ck_assert_msg(!*msg, "a rule stated outside its home (tests/test_stated_once.c; all of them on stderr):%.3000s", msg);
}
END_TEST

/* The matcher on planted text: each rule's usual phrasings are caught outside the home
 * and allowed inside it; a code line and a string literal are not prose. */
START_TEST(test_stated_once_checked) {
  static compiled c;
  compile_rules(&c);
  static const char *const PLANTED[][2] = {
      {"h.md", "full points when `T <= 1.15 x Tref`, else"},
      {"h.md", "slower earns `points * full_ratio * Tref\n/ T`, so"},
      {"h.md", "it gets `full_ratio / r` of the points"},
      {"g.md", "`points x full_ratio x reference / time` when"},
      {"x.h", "/* scores\n *   points * full_ratio * Tbase / T when slower. */"},
      {"x.conf", "; `floor`: a sample under 0.8 x the reference's device\n; copy of the bytes"},
      {"a.md", "fails a sample of yours under F times the reference's device copy"},
      {"t.c", "// the rule: spread + 0.05 rounded up"},
      {"s.md", "| `runs` | an integer in [1, 50] |"},
      {"s.md", "`full_ratio` must be a number in [0.01, 100]."},
  };
  for (size_t i = 0; i < sizeof PLANTED / sizeof *PLANTED; i++) {
    char msg[1000] = "";
    int seen[N_RULES] = {0};
    check_prose(PLANTED[i][0], PLANTED[i][1], &c, NULL, seen, msg, sizeof msg);
    ck_assert_msg(strstr(msg, ": states "), "not caught in %s: %s", PLANTED[i][0], PLANTED[i][1]);
  }
  static const char *const FREE[][2] = {
      {"t.c", "double limit = full_ratio * t_base; r = ceil((spread + 0.05) * 20);"},
      {"t.c", "printf(\"full_ratio = spread + 0.05\");"},
      {"h.md", "scored by [the perf formula](../../docs/grading.md#the-scoring-formula) with `full_ratio` 1.10"},
      {"h.md", "`reps` outside [1, 1000000]; `--timeout-scale X` | in [0.01, 100]"},
      {"h.md", "0.0376 ms vs reference 0.0376 ms = 1.00x (full points up to 1.10x)"},
  };
  for (size_t i = 0; i < sizeof FREE / sizeof *FREE; i++) {
    char msg[1000] = "";
    int seen[N_RULES] = {0};
    check_prose(FREE[i][0], FREE[i][1], &c, NULL, seen, msg, sizeof msg);
    ck_assert_msg(!*msg, "caught in %s: %s:%s", FREE[i][0], FREE[i][1], msg);
  }
  /* the line of a statement, and its home allowing it */
  char msg[1000] = "";
  int seen[N_RULES] = {0};
  static const char MD[] = "# G\n\n### The scoring formula\n\nT <= full_ratio * Tbase\n\n### Verdicts\n\nT <= 1.10 x Tref\n";
  check_prose(HOME_FILE, MD, &c, MD, seen, msg, sizeof msg);
  ck_assert_msg(strstr(msg, "docs/grading.md:9: states the perf formula") && !strstr(msg, "grading.md:5:") && seen[0] == 1,
                "%s", msg);
  free_rules(&c);
}
END_TEST

/* Each key's row in docs/grading.md's grade.conf section states the limits the parser keeps. */
START_TEST(test_key_limits_as_parsed) {
  char *md = read_text(HOME_FILE);
  ck_assert_msg(md != NULL, "cannot read %s", HOME_FILE);
  int first, last;
  ck_assert(section_lines(md, RULES[LIMITS_RULE].home, &first, &last));
  char *dir = make_temp_dir("limits"), path[512], err[512];
  snprintf(path, sizeof path, "%s/grade.conf", dir);
  static const char HEAD[] = "[assignment]\nname = 99-fake\nstudent = scan.cu\nlink = object\n\n[c]\n";
  static const char *const BASE[][2] = {
      {"perf", "kind = perf\nvariant = v\ncases = a\npoints = 1\nfloor = 0.5\n"},
      {"correct", "kind = correct\nvariant = v\ncases = a\npoints = 1\n"},
      {"ptx", "kind = ptx\nkernel = k\npattern = ld\npoints = 1\n"},
  };
  for (int i = 0; i < N_LIMITS; i++) {
    /* the row whose first cell names `KEY` ("| `min`, `max` |" names two), inside the section */
    char want[64], name[64];
    snprintf(want, sizeof want, "[%s, %s]", LIMITS[i].lo, LIMITS[i].hi);
    snprintf(name, sizeof name, "`%s`", LIMITS[i].key);
    int line = 1, found = 0;
    for (const char *s = md; *s && !found; line++) {
      const char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
      size_t len = (size_t)(end - s);
      char row[2048];
      snprintf(row, sizeof row, "%.*s", (int)(len < sizeof row ? len : sizeof row - 1), s);
      char *cell_end = row[0] == '|' ? strchr(row + 1, '|') : NULL;
      int hit = 0;
      if (cell_end) {
        *cell_end = 0;
        hit = strstr(row, name) != NULL;
        *cell_end = '|';
      }
      if (hit && line >= first && line <= last) {
        found = 1;
        ck_assert_msg(strstr(row, want), "%s:%d: the row of %s does not state %s, the limits grader/src/conf_keys.c keeps",
                      HOME_FILE, line, LIMITS[i].key, want);
      }
      s = nl ? nl + 1 : end;
    }
    ck_assert_msg(found, "%s: no row for grade.conf's %s in \"%s\"", HOME_FILE, LIMITS[i].key, RULES[LIMITS_RULE].home);
    const char *base = NULL;
    for (size_t b = 0; b < sizeof BASE / sizeof *BASE; b++)
      if (!strcmp(BASE[b][0], LIMITS[i].kind)) base = BASE[b][1];
    ck_assert(base != NULL);
    const char *values[4] = {LIMITS[i].lo, LIMITS[i].hi, LIMITS[i].below, LIMITS[i].above};
    for (int v = 0; v < 4; v++) {
      char text[1024], lines[512] = "";
      /* the base's lines without the key, then the key = value */
      for (const char *s = base; *s;) {
        const char *nl = strchr(s, '\n');
        size_t kl = strlen(LIMITS[i].key);
        if (!(strncmp(s, LIMITS[i].key, kl) == 0 && s[kl] == ' '))
          snprintf(lines + strlen(lines), sizeof lines - strlen(lines), "%.*s", (int)(nl - s + 1), s);
        s = nl + 1;
      }
      snprintf(text, sizeof text, "%s%s%s = %s\n", HEAD, lines, LIMITS[i].key, values[v]);
      write_text(path, text, 0);
      static assignment_conf a;
      int rc = conf_load(path, &a, err, sizeof err);
      ck_assert_msg((rc == 0) == (v < 2), "grade.conf's %s = %s: conf_load %s it (%s), but the limits here are %s", LIMITS[i].key,
                    values[v], rc == 0 ? "accepts" : "refuses", rc == 0 ? "no error" : err, want);
    }
  }
  remove_dir(dir);
  free(dir);
  free(md);
}
END_TEST

void teaching_stated_once_tests(TCase *t) {
  tcase_add_test(t, test_stated_once_checked);
  tcase_add_test(t, test_key_limits_as_parsed);
  tcase_add_test(t, test_rules_stated_once);
}
