/* conf.c: grade.conf parsing. inih does the syntax; this file does the meaning. */
#include "conf.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "result.h"

static const char *const TOOLS[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
static const char *const VISIBILITIES[] = {"visible", "hidden", "after_due_date", "after_published"};

const char *conf_kind_name(check_kind k) {
  const kind_def *d = kind_get(k);
  return d ? d->name : "?";
}
int conf_kind_needs_gpu(check_kind k) {
  const kind_def *d = kind_get(k);
  return !d || d->needs_gpu; /* an unknown kind never runs without a GPU */
}

double conf_total_points(const assignment_conf *a) {
  double t = 0;
  for (int i = 0; i < a->n_checks; i++) t += a->checks[i].points;
  return t;
}

typedef struct parser {
  FILE *f;
  const char *path;
  int line;          /* lines read so far: the handler runs right after inih reads a line */
  int err_line;
  char err[384];
  assignment_conf *a;
  int in_assignment;
  int assignment_seen;
  check_conf *cur;
  unsigned seen_keys[CONF_MAX_CHECKS + 1]; /* a bit per key set, by section (0 = [assignment]) */
} parser;

static int perr(parser *p, int line, const char *fmt, ...) {
  if (p->err_line) return 0; /* keep the first error */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err, sizeof p->err, fmt, ap);
  va_end(ap);
  p->err_line = line;
  return 0;
}

/* Reads a line for inih, counting lines and noting section headers, whose line
 * numbers inih does not report. */
static char *reader(char *str, int num, void *stream) {
  parser *p = (parser *)stream;
  if (!fgets(str, num, p->f)) return NULL;
  size_t len = strlen(str);
  if (len && str[len - 1] == '\n') {
    p->line++;
  } else if (!feof(p->f)) {
    perr(p, p->line + 1, "line longer than %d characters", num - 2);
    int c;
    while ((c = fgetc(p->f)) != EOF && c != '\n') {}
    p->line++;
    str[0] = 0; /* drop it */
    return str;
  } else {
    p->line++;
  }
  const char *s = str + strspn(str, " \t");
  if (*s == '[') {
    const char *end = strchr(s, ']');
    if (!end) return str; /* inih reports the syntax error */
    char name[CONF_NAME_MAX];
    size_t n = (size_t)(end - s - 1);
    if (n >= sizeof name) {
      perr(p, p->line, "section name longer than %d characters", CONF_NAME_MAX - 1);
      return str;
    }
    memcpy(name, s + 1, n);
    name[n] = 0;
    if (!strcmp(name, "assignment")) {
      if (p->assignment_seen++) perr(p, p->line, "duplicate section [assignment]");
      p->in_assignment = 1;
      p->cur = NULL;
      return str;
    }
    p->in_assignment = 0;
    if (!result_name_ok(name)) {
      perr(p, p->line, "check name '%s' must be letters, digits and _.^+-", name);
      p->cur = NULL;
      return str;
    }
    for (int i = 0; i < p->a->n_checks; i++)
      if (!strcmp(p->a->checks[i].name, name)) {
        perr(p, p->line, "duplicate section [%s] (first at line %d)", name, p->a->checks[i].line);
        p->cur = NULL;
        return str;
      }
    if (p->a->n_checks == CONF_MAX_CHECKS) {
      perr(p, p->line, "more than %d checks", CONF_MAX_CHECKS);
      p->cur = NULL;
      return str;
    }
    check_conf *c = &p->a->checks[p->a->n_checks++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->line = p->line;
    c->kind = KIND_COUNT;
    c->min = c->max = -1;
    c->runs = 3;
    c->repeat = 1;
    c->full_ratio = 1.0;
    c->timeout_s = 0;
    snprintf(c->visibility, sizeof c->visibility, "visible");
    p->cur = c;
  }
  return str;
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
  if (strlen(v) >= cap) return perr(p, p->line, "%s: value longer than %zu characters", key, cap - 1);
  if (!*v) return perr(p, p->line, "%s: empty value", key);
  snprintf(dst, cap, "%s", v);
  return 1;
}

static int set_name(parser *p, char *dst, const char *key, const char *v) {
  if (!result_name_ok(v)) return perr(p, p->line, "%s: '%s' is not a name (letters, digits, _.^+-)", key, v);
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
  if (parse_number(v, 0.1, 3600, &p->a->timeout_s)) return perr(p, p->line, "timeout: '%s' is not a number of seconds in [0.1, 3600]", v);
  return 1;
}

static int a_forbid(parser *p, const char *key, const char *v) {
  static const char *const LIBRARIES[] = {"cub", "thrust"};
  char buf[CONF_TEXT_MAX];
  snprintf(buf, sizeof buf, "%s", v);
  char *save = NULL;
  for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
    if (one_of(t, LIBRARIES, 2) < 0) return perr(p, p->line, "%s: '%.40s' is not one of cub, thrust", key, t);
    if (p->a->n_forbid == CONF_MAX_REQUIRES) return perr(p, p->line, "%s: too many libraries", key);
    snprintf(p->a->forbid[p->a->n_forbid++], sizeof p->a->forbid[0], "%s", t);
  }
  return p->a->n_forbid ? 1 : perr(p, p->line, "%s: no library names", key);
}

static const struct {
  const char *name;
  assignment_parser parse;
} ASSIGNMENT_KEYS[] = {{"name", a_name}, {"title", a_title}, {"timeout", a_timeout}, {"forbid", a_forbid}};
#define N_ASSIGNMENT_KEYS (int)(sizeof ASSIGNMENT_KEYS / sizeof *ASSIGNMENT_KEYS)

/* ---------------------------------------------------------------- check keys */

typedef int (*key_parser)(parser *p, check_conf *c, const char *key, const char *v);

static int k_kind(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  const kind_def *d = kind_find(v);
  if (!d) {
    char names[160];
    size_t len = 0;
    names[0] = 0;
    for (int k = 0; k < KIND_COUNT; k++) len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "", KINDS[k].name);
    return perr(p, p->line, "kind: '%s' is not one of %s", v, names);
  }
  c->kind = (check_kind)(d - KINDS);
  return 1;
}

static int k_points(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  double d;
  if (parse_number(v, -INFINITY, INFINITY, &d)) return perr(p, p->line, "points: '%s' is not a number", v);
  if (d < 0) return perr(p, p->line, "points: %s is negative", v);
  if (d > 1000) return perr(p, p->line, "points: %s is more than 1000", v);
  c->points = d;
  return 1;
}

static int k_title(parser *p, check_conf *c, const char *key, const char *v) { return set_text(p, c->title, sizeof c->title, key, v); }

static int k_timeout(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (parse_number(v, 0.1, 3600, &c->timeout_s)) return perr(p, p->line, "timeout: '%s' is not a number of seconds in [0.1, 3600]", v);
  return 1;
}

static int k_visibility(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (one_of(v, VISIBILITIES, 4) < 0) return perr(p, p->line, "visibility: '%s' is not one of visible, hidden, after_due_date, after_published", v);
  snprintf(c->visibility, sizeof c->visibility, "%s", v);
  return 1;
}

static int k_expect(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  static const char *const E[] = {"any", "pass", "fail"};
  int e = one_of(v, E, 3);
  if (e < 0) return perr(p, p->line, "expect_starter: '%s' is not one of any, pass, fail", v);
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
    if (!result_name_ok(t)) return perr(p, p->line, "%s: '%s' is not a case name", key, t);
    if (c->n_cases == CONF_MAX_CASES) return perr(p, p->line, "%s: more than %d cases", key, CONF_MAX_CASES);
    snprintf(c->cases[c->n_cases++], CONF_NAME_MAX, "%s", t);
  }
  if (!c->n_cases) return perr(p, p->line, "%s: no case names", key);
  return 1;
}

/* An integer key in [lo, hi]. */
static int integer(parser *p, const char *key, const char *v, double lo, double hi, int *out) {
  double d;
  if (parse_number(v, lo, hi, &d) || d != floor(d)) return perr(p, p->line, "%s: '%s' is not an integer in [%g, %g]", key, v, lo, hi);
  *out = (int)d;
  return 1;
}

static int k_repeat(parser *p, check_conf *c, const char *key, const char *v) { return integer(p, key, v, 1, CONF_MAX_REPEAT, &c->repeat); }
static int k_runs(parser *p, check_conf *c, const char *key, const char *v) { return integer(p, key, v, 3, 50, &c->runs); }
static int k_reps(parser *p, check_conf *c, const char *key, const char *v) { return integer(p, key, v, 1, 10000, &c->reps); }

static int k_full_ratio(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (parse_number(v, 0.01, 100, &c->full_ratio)) return perr(p, p->line, "full_ratio: '%s' is not a number in [0.01, 100]", v);
  return 1;
}

static int k_pattern(parser *p, check_conf *c, const char *key, const char *v) {
  regex_t re;
  if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB)) return perr(p, p->line, "pattern: '%s' is not a POSIX extended regular expression", v);
  regfree(&re);
  return set_text(p, c->pattern, sizeof c->pattern, key, v);
}

static int k_bound(parser *p, check_conf *c, const char *key, const char *v) {
  double d;
  if (parse_number(v, 0, 1e6, &d) || d != floor(d)) return perr(p, p->line, "%s: '%s' is not a count in [0, 1000000]", key, v);
  *(!strcmp(key, "min") ? &c->min : &c->max) = (long)d;
  return 1;
}

static int k_metric(parser *p, check_conf *c, const char *key, const char *v) {
  if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,") != strlen(v))
    return perr(p, p->line, "metric: '%s' is not a list of ncu metric names", v);
  return set_text(p, c->metric, sizeof c->metric, key, v);
}

static int k_tool(parser *p, check_conf *c, const char *key, const char *v) {
  (void)key;
  if (one_of(v, TOOLS, 4) < 0) return perr(p, p->line, "tool: '%s' is not one of memcheck, racecheck, synccheck, initcheck", v);
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
    if (!found) return perr(p, p->line, "%s: '%.60s' is not a check above [%s]", key, t, c->name);
    if (c->n_requires == CONF_MAX_REQUIRES) return perr(p, p->line, "%s: more than %d checks", key, CONF_MAX_REQUIRES);
    snprintf(c->requires[c->n_requires++], CONF_NAME_MAX, "%s", t);
  }
  return c->n_requires ? 1 : perr(p, p->line, "%s: no check names", key);
}

/* Every key a check section may hold: its spelling, its bit, its parser. A key
 * with two spellings has two rows with the same bit, so giving both is a repeat. */
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
    {"case", KEY_CASES, k_cases},
    {"repeat", KEY_REPEAT, k_repeat},
    {"full_ratio", KEY_FULL_RATIO, k_full_ratio},
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

static int handler(void *user, const char *section, const char *key, const char *value) {
  parser *p = (parser *)user;
  if (p->err_line) return 1; /* report only the first error */
  int idx = p->in_assignment ? 0 : p->cur ? (int)(p->cur - p->a->checks) + 1 : -1;
  if (idx < 0) return perr(p, p->line, "key '%s' outside any valid section", key);
  unsigned bit = 0;
  int row = -1;
  if (p->in_assignment) {
    for (int i = 0; i < N_ASSIGNMENT_KEYS && row < 0; i++)
      if (!strcmp(key, ASSIGNMENT_KEYS[i].name)) row = i, bit = 1u << i;
    if (row < 0) return perr(p, p->line, "unknown key '%s' in [assignment] (name, title, timeout)", key);
  } else {
    for (int i = 0; i < N_CHECK_KEYS && row < 0; i++)
      if (!strcmp(key, CHECK_KEYS[i].name)) row = i, bit = KEY_BIT(CHECK_KEYS[i].key);
    if (row < 0) return perr(p, p->line, "unknown key '%s' in [%s]", key, section);
  }
  /* A repeated key (inih also repeats a key for indented continuation lines). */
  if (p->seen_keys[idx] & bit) return perr(p, p->line, "key '%s' given twice in [%s] (or an indented continuation line)", key, section);
  p->seen_keys[idx] |= bit;
  return p->in_assignment ? ASSIGNMENT_KEYS[row].parse(p, key, value) : CHECK_KEYS[row].parse(p, p->cur, key, value);
}

/* Per-kind rules, checked once the whole file is read: the kind's row says
 * which keys it requires and allows, and may add a rule of its own. */
static int validate(parser *p) {
  assignment_conf *a = p->a;
  if (!p->assignment_seen) return perr(p, 1, "no [assignment] section");
  if (!a->name[0]) return perr(p, 1, "[assignment] has no name");
  if (a->timeout_s <= 0) a->timeout_s = 30;
  if (!a->title[0]) snprintf(a->title, sizeof a->title, "%s", a->name);
  if (a->n_checks == 0) return perr(p, p->line, "no checks: add a [check-name] section");
  for (int i = 0; i < a->n_checks; i++) {
    check_conf *c = &a->checks[i];
    unsigned f = p->seen_keys[i + 1];
    for (int k = 0; k < KEY_COUNT; k++)
      if ((KEYS_EVERY_REQUIRED & KEY_BIT(k)) && !(f & KEY_BIT(k)))
        return perr(p, c->line, "[%s]: missing key '%s'", c->name, conf_key_name((conf_key)k));
    const kind_def *d = kind_get(c->kind);
    if (!d) return perr(p, c->line, "[%s]: no kind", c->name); /* k_kind accepts only rows of the table */
    if (!c->timeout_s) c->timeout_s = d->timeout_factor * a->timeout_s;
    if (!c->title[0]) snprintf(c->title, sizeof c->title, "%s", c->name);
    unsigned allow = KEYS_EVERY_REQUIRED | KEYS_EVERY_OPTIONAL | d->required | d->optional;
    for (int k = 0; k < KEY_COUNT; k++) {
      if ((d->required & KEY_BIT(k)) && !(f & KEY_BIT(k)))
        return perr(p, c->line, "[%s]: kind %s needs key '%s'", c->name, d->name, conf_key_name((conf_key)k));
      if ((f & KEY_BIT(k)) && !(allow & KEY_BIT(k)))
        return perr(p, c->line, "[%s]: key '%s' does not apply to kind %s", c->name, conf_key_name((conf_key)k), d->name);
    }
    char why[200];
    if (d->rule && !d->rule(c, why, sizeof why)) return perr(p, c->line, "[%s]: %s", c->name, why);
    if (c->max >= 0 && c->min > c->max) return perr(p, c->line, "[%s]: min %ld is above max %ld", c->name, c->min, c->max);
  }
  return 1;
}

int conf_load(const char *path, assignment_conf *a, char *err, size_t errcap) {
  memset(a, 0, sizeof *a);
  snprintf(a->path, sizeof a->path, "%s", path);
  parser p;
  memset(&p, 0, sizeof p);
  p.path = path;
  p.a = a;
  p.f = fopen(path, "r");
  if (!p.f) {
    snprintf(err, errcap, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  int rc = ini_parse_stream(reader, &p, handler, &p);
  fclose(p.f);
  if (rc > 0 && (!p.err_line || rc < p.err_line)) {
    p.err_line = 0;
    perr(&p, rc, "syntax error: expected [section], key = value, or a ; comment");
  }
  if (!p.err_line) validate(&p);
  if (p.err_line) {
    snprintf(err, errcap, "%s:%d: %s", path, p.err_line, p.err);
    return -1;
  }
  return 0;
}
