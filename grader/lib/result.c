/* result.c: format and parse `result key=value ...` lines. */
#include "result.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int result_name_ok(const char *s) {
  size_t len = strlen(s);
  if (len == 0 || len >= RESULT_NAME_MAX) return 0;
  return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.^+-") == len;
}

int result_format(char *buf, size_t cap, const result_line *r) {
  int len = snprintf(buf, cap,
                     "result case=%s variant=%s n=%" PRIu64 " seed=%" PRIu64
                     " ok=%d checked=%d median_ms=%.6g min_ms=%.6g reps=%d mismatches=%" PRIu64
                     " first_bad=%" PRId64 "\n",
                     r->case_name, r->variant, r->n, r->seed, r->ok, r->checked, r->median_ms,
                     r->min_ms, r->reps, r->mismatches, r->first_bad);
  return (len < 0 || (size_t)len >= cap) ? -1 : len;
}

static int fail(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
  return -1;
}

int result_parse_u64(const char *s, uint64_t *out) {
  if (*s < '0' || *s > '9') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

static int parse_i64(const char *s, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end) return -1;
  *out = v;
  return 0;
}

static int parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end) return -1;
  *out = v;
  return 0;
}

enum { K_CASE, K_VARIANT, K_N, K_SEED, K_OK, K_CHECKED, K_MEDIAN, K_MIN, K_REPS, K_MISMATCHES,
       K_FIRST_BAD, K_COUNT };
static const char *const KEYS[K_COUNT] = {"case", "variant", "n", "seed", "ok", "checked",
                                          "median_ms", "min_ms", "reps", "mismatches",
                                          "first_bad"};

int result_parse(const char *line, result_line *r, char *err, size_t errcap) {
  char buf[RESULT_LINE_MAX];
  size_t len = strlen(line);
  if (len >= sizeof buf) return fail(err, errcap, "result line longer than %d bytes", RESULT_LINE_MAX - 1);
  memcpy(buf, line, len + 1);
  while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = 0;
  if (strncmp(buf, "result ", 7) != 0) return fail(err, errcap, "line does not start with 'result '");

  memset(r, 0, sizeof *r);
  int seen[K_COUNT] = {0};
  char *save = NULL;
  for (char *tok = strtok_r(buf + 7, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq) return fail(err, errcap, "token '%.40s' is not key=value", tok);
    *eq = 0;
    const char *val = eq + 1;
    int k = 0;
    while (k < K_COUNT && strcmp(tok, KEYS[k]) != 0) k++;
    if (k == K_COUNT) continue; /* unknown key: allowed */
    if (seen[k]++) return fail(err, errcap, "key '%s' repeated", tok);
    uint64_t u = 0;
    int64_t i = 0;
    int bad = 0;
    switch (k) {
    case K_CASE:
    case K_VARIANT:
      if (!result_name_ok(val)) return fail(err, errcap, "bad %s name '%.40s'", tok, val);
      strcpy(k == K_CASE ? r->case_name : r->variant, val);
      break;
    case K_N: bad = result_parse_u64(val, &r->n); break;
    case K_SEED: bad = result_parse_u64(val, &r->seed); break;
    case K_MISMATCHES: bad = result_parse_u64(val, &r->mismatches); break;
    case K_OK:
    case K_CHECKED:
      bad = result_parse_u64(val, &u) || u > 1;
      *(k == K_OK ? &r->ok : &r->checked) = (int)u;
      break;
    case K_REPS:
      bad = result_parse_u64(val, &u) || u < 1 || u > 1000000;
      r->reps = (int)u;
      break;
    case K_FIRST_BAD:
      bad = parse_i64(val, &i) || i < -1;
      r->first_bad = i;
      break;
    case K_MEDIAN:
    case K_MIN: {
      double *d = k == K_MEDIAN ? &r->median_ms : &r->min_ms;
      bad = parse_double(val, d);
      if (!bad && !(isfinite(*d) && *d > 0))
        return fail(err, errcap, "%s=%s is not a finite positive time", tok, val);
      break;
    }
    }
    if (bad) return fail(err, errcap, "bad value for %s: '%.40s'", tok, val);
  }
  for (int k = 0; k < K_COUNT; k++)
    if (!seen[k]) return fail(err, errcap, "missing key '%s'", KEYS[k]);
  if (r->ok && r->mismatches) return fail(err, errcap, "ok=1 with %" PRIu64 " mismatches", r->mismatches);
  return 0;
}
