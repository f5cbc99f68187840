/* conf_keys.c: the keys of grade.conf, one table each for [assignment] and for
 * a check section: a key's name, its bit and the parser of its value; and the
 * parser's error (conf_perr). conf.c calls this file, never the other way round. */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conf.h"
#include "conf_parse.h"
#include "kind_table.h"
#include "result.h"
#include "submission.h"

static const char *const TOOLS[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
static const char *const VISIBILITIES[] = {"visible", "hidden", "after_due_date", "after_published"};

int conf_perr(parser *p, int line, const char *fmt, ...) {
  if (p->err_line) return 0; /* keep the first error */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err, sizeof p->err, fmt, ap);
  va_end(ap);
  p->err_line = line;
  return 0;
}

static int parse_number(const char *v, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  double d = strtod(v, &end);
  if (errno || end == v || *end || !isfinite(d) || d < lo || d > hi) return -1;
  *out = d;
  return 0;
}

static int set_text(parser *p, char *dst, size_t cap, const char *key, const char *v) {
  if (strlen(v) >= cap) return conf_perr(p, p->line, "%s: value longer than %zu characters", key, cap - 1);
  if (!*v) return conf_perr(p, p->line, "%s: empty value", key);
  snprintf(dst, cap, "%s", v);
  return 1;
}

static int set_name(parser *p, char *dst, const char *key, const char *v) {
  if (!result_name_ok(v)) return conf_perr(p, p->line, "%s: '%s' is not a name (letters, digits, _.^+-)", key, v);
  snprintf(dst, CONF_NAME_MAX, "%s", v);
  return 1;
}

static int one_of(const char *v, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(v, list[i])) return (int)i;
  return -1;
}

/* ---------------------------------------------------------------- [assignment] keys */

typedef int (*assignment_parser)(parser *p, const char *key, const char *v);

static int a_name(parser *p, const char *key, const char *v) { return set_name(p, p->a->name, key, v); }
static int a_title(parser *p, const char *key, const char *v) { return set_text(p, p->a->title, sizeof p->a->title, key, v); }
static int a_timeout(parser *p, const char *key, const char *v) {
  (void)key;
  if (parse_number(v, 0.1, 3600, &p->a->timeout_s)) return conf_perr(p, p->line, "timeout: '%s' is not a number of seconds in [0.1, 3600]", v);
  return 1;
}

static int a_forbid(parser *p, const char *key, const char *v) {
  static const char *const LIBRARIES[] = {"cub", "thrust"};
  char buf[CONF_TEXT_MAX];
  snprintf(buf, sizeof buf, "%s", v);
  char *save = NULL;
  for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
    if (one_of(t, LIBRARIES, 2) < 0) return conf_perr(p, p->line, "%s: '%.40s' is not one of cub, thrust", key, t);
    if (p->a->n_forbid == CONF_MAX_REQUIRES) return conf_perr(p, p->line, "%s: too many libraries", key);
    snprintf(p->a->forbid[p->a->n_forbid++], sizeof p->a->forbid[0], "%s", t);
  }
  return p->a->n_forbid ? 1 : conf_perr(p, p->line, "%s: no library names", key);
}

/* The student's file: a plain name of the folder (the build's rule for every
 * name in it, submission.h), never a path; a source file nvcc compiles. */
static int a_student(parser *p, const char *key, const char *v) {
  size_t n = strlen(v);
  if (!n || n >= CONF_NAME_MAX || strspn(v, SUBMISSION_NAME_CHARS) != n || v[0] == '.' || v[0] == '-')
    return conf_perr(p, p->line, "%s: '%s' is not a file name (letters, digits, '.', '_', '-'; not starting with '.' or '-')", key, v);
  if (n < 4 || strcmp(v + n - 3, ".cu")) return conf_perr(p, p->line, "%s: '%s' is not a .cu file", key, v);
  snprintf(p->a->student, sizeof p->a->student, "%s", v);
  return 1;
}

static int a_link(parser *p, const char *key, const char *v) {
  if (!strcmp(v, "inline")) p->a->link = LINK_INLINE;
  else if (!strcmp(v, "object")) p->a->link = LINK_OBJECT;
  else return conf_perr(p, p->line, "%s: '%s' is not one of inline, object", key, v);
  return 1;
}

/* A file of the assignment's folder that its build uses: SUB/NAME.cu, SUB being judge
 * (trusted: never linked with the student's code) or runner (untrusted: linked with it),
 * a regular file beside grade.conf. */
static int set_build_file(parser *p, char *dst, const char *key, const char *v, const char *sub) {
  size_t n = strlen(sub), len = strlen(v);
  const char *name = v + n + 1;
  if (strncmp(v, sub, n) || v[n] != '/' || !*name || strspn(name, SUBMISSION_NAME_CHARS) != strlen(name) || name[0] == '.' ||
      len >= CONF_NAME_MAX || strcmp(v + len - 3, ".cu"))
    return conf_perr(p, p->line, "%s: '%s' is not a .cu file of the assignment's %s/ folder (%s/NAME.cu)", key, v, sub, sub);
  char path[600];
  const char *slash = strrchr(p->path, '/');
  snprintf(path, sizeof path, "%.*s%s%s", slash ? (int)(slash - p->path) : 1, slash ? p->path : ".", "/", v);
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return conf_perr(p, p->line, "%s: %s is not a file", key, path);
  snprintf(dst, CONF_NAME_MAX, "%s", v);
  return 1;
}
static int a_model(parser *p, const char *key, const char *v) { return set_build_file(p, p->a->model, key, v, "judge"); }
static int a_model_tables(parser *p, const char *key, const char *v) { return set_build_file(p, p->a->model_tables, key, v, "runner"); }
static int a_baselines(parser *p, const char *key, const char *v) { return set_build_file(p, p->a->baselines, key, v, "runner"); }

static const struct {
  const char *name;
  assignment_parser parse;
} ASSIGNMENT_KEYS[] = {{"name", a_name},       {"title", a_title},     {"timeout", a_timeout},           {"forbid", a_forbid},
                       {"student", a_student}, {"link", a_link},       {"model", a_model},               {"model_tables", a_model_tables},
                       {"baselines", a_baselines}};
#define N_ASSIGNMENT_KEYS (int)(sizeof ASSIGNMENT_KEYS / sizeof *ASSIGNMENT_KEYS)

/* ---------------------------------------------------------------- check keys */

typedef int (*key_parser)(parser *p, check_conf *c, const char *key, const char *v);

static int k_kind(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  const kind_row *d = kind_row_find(v);
  if (!d) {
    char names[160];
    size_t len = 0;
    names[0] = 0;
    for (int k = 0; k < KIND_COUNT; k++) len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "", KIND_ROWS[k].name);
    return conf_perr(p, p->line, "kind: '%s' is not one of %s", v, names);
  }
  c->kind = (check_kind)(d - KIND_ROWS);
  return 1;
}

static int k_points(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  double d;
  if (parse_number(v, -INFINITY, INFINITY, &d)) return conf_perr(p, p->line, "points: '%s' is not a number", v);
  if (d < 0) return conf_perr(p, p->line, "points: %s is negative", v);
  if (d > 1000) return conf_perr(p, p->line, "points: %s is more than 1000", v);
  c->points = d;
  return 1;
}

static int k_title(parser *p, check_conf *c, const char *key, const char *v) { return set_text(p, c->title, sizeof c->title, key, v); }

static int k_timeout(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (parse_number(v, 0.1, 3600, &c->timeout_s)) return conf_perr(p, p->line, "timeout: '%s' is not a number of seconds in [0.1, 3600]", v);
  return 1;
}

static int k_visibility(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (one_of(v, VISIBILITIES, 4) < 0) return conf_perr(p, p->line, "visibility: '%s' is not one of visible, hidden, after_due_date, after_published", v);
  snprintf(c->visibility, sizeof c->visibility, "%s", v);
  return 1;
}

static int k_expect(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  static const char *const E[] = {"any", "pass", "fail"};
  int e = one_of(v, E, 3);
  if (e < 0) return conf_perr(p, p->line, "expect_starter: '%s' is not one of any, pass, fail", v);
  c->expect_starter = (expect)e;
  return 1;
}

static int k_variant(parser *p, check_conf *c, const char *key, const char *v) { return set_name(p, c->variant, key, v); }
static int k_baseline(parser *p, check_conf *c, const char *key, const char *v) { return set_name(p, c->baseline, key, v); }
static int k_kernel(parser *p, check_conf *c, const char *key, const char *v) { return set_name(p, c->kernel, key, v); }

static int k_cases(parser *p, check_conf *c, const char *key, const char *v) {
  char buf[CONF_TEXT_MAX * 2];
  snprintf(buf, sizeof buf, "%s", v);
  char *save = NULL;
  for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
    if (!result_name_ok(t)) return conf_perr(p, p->line, "%s: '%s' is not a case name", key, t);
    if (c->n_cases == CONF_MAX_CASES) return conf_perr(p, p->line, "%s: more than %d cases", key, CONF_MAX_CASES);
    snprintf(c->cases[c->n_cases++], CONF_NAME_MAX, "%s", t);
  }
  if (!c->n_cases) return conf_perr(p, p->line, "%s: no case names", key);
  return 1;
}

/* An integer key in [lo, hi]. */
static int integer(parser *p, const char *key, const char *v, double lo, double hi, int *out) {
  double d;
  if (parse_number(v, lo, hi, &d) || d != floor(d)) return conf_perr(p, p->line, "%s: '%s' is not an integer in [%g, %g]", key, v, lo, hi);
  *out = (int)d;
  return 1;
}

static int k_repeat(parser *p, check_conf *c, const char *key, const char *v) { return integer(p, key, v, 1, CONF_MAX_REPEAT, &c->repeat); }
static int k_runs(parser *p, check_conf *c, const char *key, const char *v) { return integer(p, key, v, 1, 50, &c->runs); }
static int k_reps(parser *p, check_conf *c, const char *key, const char *v) { return integer(p, key, v, 1, 10000, &c->reps); }

static int k_full_ratio(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (parse_number(v, 0.01, 100, &c->full_ratio)) return conf_perr(p, p->line, "full_ratio: '%s' is not a number in [0.01, 100]", v);
  return 1;
}

static int k_floor(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (parse_number(v, 0.01, 1, &c->floor)) return conf_perr(p, p->line, "floor: '%s' is not a fraction in [0.01, 1] (of a copy's time)", v);
  return 1;
}

static int k_pattern(parser *p, check_conf *c, const char *key, const char *v) {
  regex_t re;
  if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB)) return conf_perr(p, p->line, "pattern: '%s' is not a POSIX extended regular expression", v);
  regfree(&re);
  return set_text(p, c->pattern, sizeof c->pattern, key, v);
}

static int k_bound(parser *p, check_conf *c, const char *key, const char *v) {
  double d;
  if (parse_number(v, 0, 1e6, &d) || d != floor(d)) return conf_perr(p, p->line, "%s: '%s' is not a count in [0, 1000000]", key, v);
  *(!strcmp(key, "min") ? &c->min : &c->max) = (long)d;
  return 1;
}

static int k_metric(parser *p, check_conf *c, const char *key, const char *v) {
  if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,") != strlen(v))
    return conf_perr(p, p->line, "metric: '%s' is not a list of ncu metric names", v);
  return set_text(p, c->metric, sizeof c->metric, key, v);
}

static int k_tool(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (one_of(v, TOOLS, 4) < 0) return conf_perr(p, p->line, "tool: '%s' is not one of memcheck, racecheck, synccheck, initcheck", v);
  snprintf(c->tool, sizeof c->tool, "%s", v);
  return 1;
}

/* Names of checks above this one (so they have run when it is scored). */
static int k_requires(parser *p, check_conf *c, const char *key, const char *v) {
  char buf[CONF_TEXT_MAX];
  snprintf(buf, sizeof buf, "%s", v);
  char *save = NULL;
  for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
    int found = 0;
    for (const check_conf *q = p->a->checks; q < c; q++) found |= !strcmp(q->name, t);
    if (!found) return conf_perr(p, p->line, "%s: '%.60s' is not a check above [%s]", key, t, c->name);
    if (c->n_requires == CONF_MAX_REQUIRES) return conf_perr(p, p->line, "%s: more than %d checks", key, CONF_MAX_REQUIRES);
    snprintf(c->requires[c->n_requires++], CONF_NAME_MAX, "%s", t);
  }
  return c->n_requires ? 1 : conf_perr(p, p->line, "%s: no check names", key);
}

/* Every key a check section may hold: its one spelling, its bit, its parser. */
static const struct {
  const char *name;
  conf_key key;
  key_parser parse;
} CHECK_KEYS[] = {
    {"kind", KEY_KIND, k_kind},
    {"points", KEY_POINTS, k_points},
    {"title", KEY_TITLE, k_title},
    {"timeout", KEY_TIMEOUT, k_timeout},
    {"visibility", KEY_VISIBILITY, k_visibility},
    {"expect_starter", KEY_EXPECT_STARTER, k_expect},
    {"variant", KEY_VARIANT, k_variant},
    {"cases", KEY_CASES, k_cases},
    {"repeat", KEY_REPEAT, k_repeat},
    {"full_ratio", KEY_FULL_RATIO, k_full_ratio},
    {"floor", KEY_FLOOR, k_floor},
    {"runs", KEY_RUNS, k_runs},
    {"reps", KEY_REPS, k_reps},
    {"baseline", KEY_BASELINE, k_baseline},
    {"kernel", KEY_KERNEL, k_kernel},
    {"pattern", KEY_PATTERN, k_pattern},
    {"min", KEY_MIN, k_bound},
    {"max", KEY_MAX, k_bound},
    {"tool", KEY_TOOL, k_tool},
    {"metric", KEY_METRIC, k_metric},
    {"requires", KEY_REQUIRES, k_requires},
};
#define N_CHECK_KEYS (int)(sizeof CHECK_KEYS / sizeof *CHECK_KEYS)

const char *conf_key_name(conf_key k) {
  for (int i = 0; i < N_CHECK_KEYS; i++)
    if (CHECK_KEYS[i].key == k) return CHECK_KEYS[i].name;
  return "?";
}

void conf_keys_print(FILE *f, unsigned mask) {
  int n = 0;
  for (int k = 0; k < KEY_COUNT; k++)
    if (mask & KEY_BIT(k)) fprintf(f, "%s%s", n++ ? "," : "", conf_key_name((conf_key)k));
  if (!n) fputs("-", f);
}

/* Spellings a key once had, or that read as one: refused, with the right one
 * named, so a grade.conf says each thing one way. */
static const struct {
  const char *wrong, *right;
} REFUSED_SPELLINGS[] = {{"case", "cases"}};

const char *conf_key_refused(const char *key) {
  for (size_t i = 0; i < sizeof REFUSED_SPELLINGS / sizeof *REFUSED_SPELLINGS; i++)
    if (!strcmp(key, REFUSED_SPELLINGS[i].wrong)) return REFUSED_SPELLINGS[i].right;
  return NULL;
}

int conf_key_find(int in_assignment, const char *key, unsigned *bit) {
  if (in_assignment) {
    for (int i = 0; i < N_ASSIGNMENT_KEYS; i++)
      if (!strcmp(key, ASSIGNMENT_KEYS[i].name)) return *bit = 1u << i, i;
    return -1;
  }
  for (int i = 0; i < N_CHECK_KEYS; i++)
    if (!strcmp(key, CHECK_KEYS[i].name)) return *bit = KEY_BIT(CHECK_KEYS[i].key), i;
  return -1;
}

int conf_key_parse(parser *p, int row, const char *key, const char *value) {
  return p->in_assignment ? ASSIGNMENT_KEYS[row].parse(p, key, value) : CHECK_KEYS[row].parse(p, p->cur, key, value);
}

void conf_assignment_keys(char *out, size_t cap) {
  size_t len = 0;
  out[0] = 0;
  for (int i = 0; i < N_ASSIGNMENT_KEYS && len < cap; i++)
    len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? ", " : "", ASSIGNMENT_KEYS[i].name);
}
