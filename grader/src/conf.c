/* conf.c: grade.conf parsing. inih does the syntax; this file does the sections,
 * the lines and the per-kind validation; conf_keys.c does the keys. */
#include "conf.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_parse.h"
#include "kind_table.h"
#include "result.h"

const char *conf_kind_name(check_kind k) {
  const kind_row *d = kind_row_get(k);
  return d ? d->name : "?";
}
int conf_kind_needs_gpu(check_kind k) {
  const kind_row *d = kind_row_get(k);
  return !d || d->needs_gpu; /* an unknown kind never runs without a GPU */
}

double conf_total_points(const assignment_conf *a) {
  double t = 0;
  for (int i = 0; i < a->n_checks; i++) t += a->checks[i].points;
  return t;
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
    conf_perr(p, p->line + 1, "line longer than %d characters", num - 2);
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
      conf_perr(p, p->line, "section name longer than %d characters", CONF_NAME_MAX - 1);
      return str;
    }
    memcpy(name, s + 1, n);
    name[n] = 0;
    if (!strcmp(name, "assignment")) {
      if (p->assignment_seen++) conf_perr(p, p->line, "duplicate section [assignment]");
      else p->a->line = p->line;
      p->in_assignment = 1;
      p->cur = NULL;
      return str;
    }
    p->in_assignment = 0;
    if (!result_name_ok(name)) {
      conf_perr(p, p->line, "check name '%s' must be letters, digits and _.^+-", name);
      p->cur = NULL;
      return str;
    }
    for (int i = 0; i < p->a->n_checks; i++)
      if (!strcmp(p->a->checks[i].name, name)) {
        conf_perr(p, p->line, "duplicate section [%s] (first at line %d)", name, p->a->checks[i].line);
        p->cur = NULL;
        return str;
      }
    if (p->a->n_checks == CONF_MAX_CHECKS) {
      conf_perr(p, p->line, "more than %d checks", CONF_MAX_CHECKS);
      p->cur = NULL;
      return str;
    }
    check_conf *c = &p->a->checks[p->a->n_checks++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->line = p->line;
    c->kind = KIND_COUNT;
    c->min = c->max = -1;
    c->runs = 1;
    c->repeat = 1;
    c->full_ratio = 1.0;
    c->timeout_s = 0;
    snprintf(c->visibility, sizeof c->visibility, "visible");
    p->cur = c;
  }
  return str;
}

static int handler(void *user, const char *section, const char *key, const char *value) {
  parser *p = (parser *)user;
  if (p->err_line) return 1; /* report only the first error */
  int idx = p->in_assignment ? 0 : p->cur ? (int)(p->cur - p->a->checks) + 1 : -1;
  if (idx < 0) return conf_perr(p, p->line, "key '%s' outside any valid section", key);
  const char *right = p->in_assignment ? NULL : conf_key_refused(key);
  if (right) return conf_perr(p, p->line, "'%s' is not a key; write '%s'", key, right);
  unsigned bit = 0;
  int row = conf_key_find(p->in_assignment, key, &bit);
  if (row < 0 && p->in_assignment) {
    char names[160];
    conf_assignment_keys(names, sizeof names);
    return conf_perr(p, p->line, "unknown key '%s' in [assignment] (%s)", key, names);
  }
  if (row < 0) return conf_perr(p, p->line, "unknown key '%s' in [%s]", key, section);
  /* A repeated key (inih also repeats a key for indented continuation lines). */
  if (p->seen_keys[idx] & bit) return conf_perr(p, p->line, "key '%s' given twice in [%s] (or an indented continuation line)", key, section);
  p->seen_keys[idx] |= bit;
  return conf_key_parse(p, row, key, value);
}

/* Per-kind rules, checked once the whole file is read: the kind's row says
 * which keys it requires and allows, and may add a rule of its own. */
static int validate(parser *p) {
  assignment_conf *a = p->a;
  if (!p->assignment_seen) return conf_perr(p, 1, "no [assignment] section");
  if (!a->name[0]) return conf_perr(p, 1, "[assignment] has no name");
  if (!a->student[0]) return conf_perr(p, a->line, "[assignment]: missing key 'student' (the file the handout names, e.g. student = scan.cu)");
  if (a->link == LINK_NONE) return conf_perr(p, a->line, "[assignment]: missing key 'link' (inline or object)");
  if (a->timeout_s <= 0) a->timeout_s = 30;
  if (!a->title[0]) snprintf(a->title, sizeof a->title, "%s", a->name);
  if (a->n_checks == 0) return conf_perr(p, p->line, "no checks: add a [check-name] section");
  for (int i = 0; i < a->n_checks; i++) {
    check_conf *c = &a->checks[i];
    unsigned f = p->seen_keys[i + 1];
    for (int k = 0; k < KEY_COUNT; k++)
      if ((KEYS_EVERY_REQUIRED & KEY_BIT(k)) && !(f & KEY_BIT(k)))
        return conf_perr(p, c->line, "[%s]: missing key '%s'", c->name, conf_key_name((conf_key)k));
    const kind_row *d = kind_row_get(c->kind);
    if (!d) return conf_perr(p, c->line, "[%s]: no kind", c->name); /* k_kind accepts only rows of the table */
    if (!c->timeout_s) c->timeout_s = d->timeout_factor * a->timeout_s;
    if (!c->title[0]) snprintf(c->title, sizeof c->title, "%s", c->name);
    unsigned allow = KEYS_EVERY_REQUIRED | KEYS_EVERY_OPTIONAL | d->required | d->optional;
    for (int k = 0; k < KEY_COUNT; k++) {
      if ((d->required & KEY_BIT(k)) && !(f & KEY_BIT(k)))
        return conf_perr(p, c->line, "[%s]: kind %s needs key '%s'", c->name, d->name, conf_key_name((conf_key)k));
      if ((f & KEY_BIT(k)) && !(allow & KEY_BIT(k)))
        return conf_perr(p, c->line, "[%s]: key '%s' does not apply to kind %s", c->name, conf_key_name((conf_key)k), d->name);
    }
    char why[200];
    if (d->rule && !d->rule(c, why, sizeof why)) return conf_perr(p, c->line, "[%s]: %s", c->name, why);
    if (c->max >= 0 && c->min > c->max) return conf_perr(p, c->line, "[%s]: min %ld is above max %ld", c->name, c->min, c->max);
    if (c->kind == KIND_MODEL && !a->model[0])
      return conf_perr(p, c->line, "[%s]: kind model needs the model program: [assignment] model = judge/NAME.cu", c->name);
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
    conf_perr(&p, rc, "syntax error: expected [section], key = value, or a ; comment");
  }
  if (!p.err_line) validate(&p);
  if (p.err_line) {
    snprintf(err, errcap, "%s:%d: %s", path, p.err_line, p.err);
    return -1;
  }
  return 0;
}
