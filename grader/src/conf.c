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

#include "result.h"

static const char *const KIND_NAMES[KIND_COUNT] = {"correct", "perf", "ptx", "sanitizer", "model", "metric"};
static const char *const TOOLS[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
static const char *const VISIBILITIES[] = {"visible", "hidden", "after_due_date", "after_published"};

const char *conf_kind_name(check_kind k) { return k < KIND_COUNT ? KIND_NAMES[k] : "?"; }
int conf_kind_needs_gpu(check_kind k) { return k != KIND_PTX && k != KIND_MODEL; }

double conf_total_points(const assignment_conf *a) {
  double t = 0;
  for (int i = 0; i < a->n_checks; i++) t += a->checks[i].points;
  return t;
}

/* Which keys a section has set, to catch repeats and missing ones. */
enum { F_KIND = 1 << 0, F_POINTS = 1 << 1, F_VARIANT = 1 << 2, F_CASES = 1 << 3, F_KERNEL = 1 << 4,
       F_PATTERN = 1 << 5, F_TOOL = 1 << 6, F_FULL_RATIO = 1 << 7, F_MIN = 1 << 8, F_MAX = 1 << 9, F_RUNS = 1 << 10,
       F_REPS = 1 << 11, F_METRIC = 1 << 12 };

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
  unsigned seen_keys[CONF_MAX_CHECKS + 1]; /* bit per key name, by section (0 = [assignment]) */
  unsigned set_fields[CONF_MAX_CHECKS];
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

static int assignment_key(parser *p, const char *key, const char *v) {
  assignment_conf *a = p->a;
  if (!strcmp(key, "name")) return set_name(p, a->name, key, v);
  if (!strcmp(key, "title")) return set_text(p, a->title, sizeof a->title, key, v);
  if (!strcmp(key, "timeout")) {
    if (parse_number(v, 0.1, 3600, &a->timeout_s)) return perr(p, p->line, "timeout: '%s' is not a number of seconds in [0.1, 3600]", v);
    return 1;
  }
  return perr(p, p->line, "unknown key '%s' in [assignment] (name, title, timeout)", key);
}

static int check_key(parser *p, check_conf *c, const char *key, const char *v) {
  unsigned *fields = &p->set_fields[c - p->a->checks];
  double d;
  if (!strcmp(key, "kind")) {
    int k = one_of(v, KIND_NAMES, KIND_COUNT);
    if (k < 0) return perr(p, p->line, "kind: '%s' is not one of correct, perf, ptx, sanitizer, model, metric", v);
    c->kind = (check_kind)k;
    *fields |= F_KIND;
  } else if (!strcmp(key, "points")) {
    if (parse_number(v, -INFINITY, INFINITY, &d)) return perr(p, p->line, "points: '%s' is not a number", v);
    if (d < 0) return perr(p, p->line, "points: %s is negative", v);
    if (d > 1000) return perr(p, p->line, "points: %s is more than 1000", v);
    c->points = d;
    *fields |= F_POINTS;
  } else if (!strcmp(key, "title")) {
    return set_text(p, c->title, sizeof c->title, key, v);
  } else if (!strcmp(key, "timeout")) {
    if (parse_number(v, 0.1, 3600, &c->timeout_s)) return perr(p, p->line, "timeout: '%s' is not a number of seconds in [0.1, 3600]", v);
  } else if (!strcmp(key, "visibility")) {
    if (one_of(v, VISIBILITIES, 4) < 0) return perr(p, p->line, "visibility: '%s' is not one of visible, hidden, after_due_date, after_published", v);
    snprintf(c->visibility, sizeof c->visibility, "%s", v);
  } else if (!strcmp(key, "expect_starter")) {
    static const char *const E[] = {"any", "pass", "fail"};
    int e = one_of(v, E, 3);
    if (e < 0) return perr(p, p->line, "expect_starter: '%s' is not one of any, pass, fail", v);
    c->expect_starter = (expect)e;
  } else if (!strcmp(key, "variant")) {
    *fields |= F_VARIANT;
    return set_name(p, c->variant, key, v);
  } else if (!strcmp(key, "cases") || !strcmp(key, "case")) {
    if (*fields & F_CASES) return perr(p, p->line, "%s: cases given twice", key);
    char buf[CONF_TEXT_MAX * 2];
    snprintf(buf, sizeof buf, "%s", v);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
      if (!result_name_ok(t)) return perr(p, p->line, "%s: '%s' is not a case name", key, t);
      if (c->n_cases == CONF_MAX_CASES) return perr(p, p->line, "%s: more than %d cases", key, CONF_MAX_CASES);
      snprintf(c->cases[c->n_cases++], CONF_NAME_MAX, "%s", t);
    }
    if (!c->n_cases) return perr(p, p->line, "%s: no case names", key);
    *fields |= F_CASES;
  } else if (!strcmp(key, "full_ratio")) {
    if (parse_number(v, 0.01, 100, &c->full_ratio)) return perr(p, p->line, "full_ratio: '%s' is not a number in [0.01, 100]", v);
    *fields |= F_FULL_RATIO;
  } else if (!strcmp(key, "runs")) {
    if (parse_number(v, 3, 50, &d) || d != floor(d)) return perr(p, p->line, "runs: '%s' is not an integer in [3, 50]", v);
    c->runs = (int)d;
    *fields |= F_RUNS;
  } else if (!strcmp(key, "reps")) {
    if (parse_number(v, 1, 10000, &d) || d != floor(d)) return perr(p, p->line, "reps: '%s' is not an integer in [1, 10000]", v);
    c->reps = (int)d;
    *fields |= F_REPS;
  } else if (!strcmp(key, "kernel")) {
    *fields |= F_KERNEL;
    return set_name(p, c->kernel, key, v);
  } else if (!strcmp(key, "pattern")) {
    regex_t re;
    if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB)) return perr(p, p->line, "pattern: '%s' is not a POSIX extended regular expression", v);
    regfree(&re);
    *fields |= F_PATTERN;
    return set_text(p, c->pattern, sizeof c->pattern, key, v);
  } else if (!strcmp(key, "min") || !strcmp(key, "max")) {
    if (parse_number(v, 0, 1e6, &d) || d != floor(d)) return perr(p, p->line, "%s: '%s' is not a count in [0, 1000000]", key, v);
    if (key[1] == 'i') c->min = (long)d, *fields |= F_MIN;
    else c->max = (long)d, *fields |= F_MAX;
  } else if (!strcmp(key, "metric")) {
    if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,") != strlen(v))
      return perr(p, p->line, "metric: '%s' is not a list of ncu metric names", v);
    *fields |= F_METRIC;
    return set_text(p, c->metric, sizeof c->metric, key, v);
  } else if (!strcmp(key, "tool")) {
    if (one_of(v, TOOLS, 4) < 0) return perr(p, p->line, "tool: '%s' is not one of memcheck, racecheck, synccheck, initcheck", v);
    snprintf(c->tool, sizeof c->tool, "%s", v);
    *fields |= F_TOOL;
  } else {
    return perr(p, p->line, "unknown key '%s' in [%s]", key, c->name);
  }
  return 1;
}

static int handler(void *user, const char *section, const char *key, const char *value) {
  parser *p = (parser *)user;
  (void)section;
  if (p->err_line) return 1; /* report only the first error */
  int idx = p->in_assignment ? 0 : p->cur ? (int)(p->cur - p->a->checks) + 1 : -1;
  if (idx < 0) return perr(p, p->line, "key '%s' outside any valid section", key);
  /* A repeated key (inih also repeats a key for indented continuation lines). */
  static const char *const ALL[] = {"name", "title", "timeout", "kind", "points", "visibility",
                                    "expect_starter", "variant", "cases", "case", "full_ratio",
                                    "runs", "reps", "kernel", "pattern", "min", "max", "tool", "metric"};
  int bit = one_of(key, ALL, sizeof ALL / sizeof *ALL);
  if (bit >= 0) {
    if (p->seen_keys[idx] & (1u << bit)) return perr(p, p->line, "key '%s' given twice in [%s] (or an indented continuation line)", key, section);
    p->seen_keys[idx] |= 1u << bit;
  }
  return p->in_assignment ? assignment_key(p, key, value) : check_key(p, p->cur, key, value);
}

/* Per-kind rules, checked once the whole file is read. */
static int validate(parser *p) {
  assignment_conf *a = p->a;
  if (!p->assignment_seen) return perr(p, 1, "no [assignment] section");
  if (!a->name[0]) return perr(p, 1, "[assignment] has no name");
  if (a->timeout_s <= 0) a->timeout_s = 30;
  if (!a->title[0]) snprintf(a->title, sizeof a->title, "%s", a->name);
  if (a->n_checks == 0) return perr(p, p->line, "no checks: add a [check-name] section");
  for (int i = 0; i < a->n_checks; i++) {
    check_conf *c = &a->checks[i];
    unsigned f = p->set_fields[i];
    if (!(f & F_KIND)) return perr(p, c->line, "[%s]: missing key 'kind'", c->name);
    if (!(f & F_POINTS)) return perr(p, c->line, "[%s]: missing key 'points'", c->name);
    if (!c->timeout_s) c->timeout_s = c->kind == KIND_SANITIZER ? 4 * a->timeout_s : a->timeout_s;
    if (!c->title[0]) snprintf(c->title, sizeof c->title, "%s", c->name);
    unsigned need = 0, allow = F_KIND | F_POINTS;
    switch (c->kind) {
    case KIND_CORRECT: need = F_VARIANT | F_CASES; break;
    case KIND_PERF: need = F_VARIANT | F_CASES; allow |= F_FULL_RATIO | F_RUNS | F_REPS; break;
    case KIND_PTX: need = F_KERNEL | F_PATTERN; allow |= F_MIN | F_MAX; break;
    case KIND_SANITIZER: need = F_VARIANT | F_CASES | F_TOOL; break;
    case KIND_MODEL: need = F_VARIANT | F_CASES; break;
    case KIND_METRIC: need = F_VARIANT | F_CASES | F_KERNEL | F_METRIC; allow |= F_MIN | F_MAX; break;
    default: break;
    }
    static const char *const FIELD_KEYS[] = {"kind", "points", "variant", "cases", "kernel", "pattern",
                                             "tool", "full_ratio", "min", "max", "runs", "reps", "metric"};
    for (int b = 0; b < 13; b++) {
      if ((need & (1u << b)) && !(f & (1u << b)))
        return perr(p, c->line, "[%s]: kind %s needs key '%s'", c->name, KIND_NAMES[c->kind], FIELD_KEYS[b]);
      if ((f & (1u << b)) && !((need | allow) & (1u << b)))
        return perr(p, c->line, "[%s]: key '%s' does not apply to kind %s", c->name, FIELD_KEYS[b], KIND_NAMES[c->kind]);
    }
    if (c->kind == KIND_PERF && c->n_cases != 1) return perr(p, c->line, "[%s]: a perf check times exactly one case", c->name);
    if ((c->kind == KIND_PTX || c->kind == KIND_METRIC) && c->min < 0 && c->max < 0)
      return perr(p, c->line, "[%s]: a %s check needs min, max or both", c->name, KIND_NAMES[c->kind]);
    if (c->kind == KIND_METRIC && c->n_cases != 1) return perr(p, c->line, "[%s]: a metric check profiles exactly one case", c->name);
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
