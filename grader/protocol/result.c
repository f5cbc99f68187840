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
                     " ok=%d checked=%d median_ms=%.6g min_ms=%.6g reps=%d verified=%d bad_reps=%d"
                     " mismatches=%" PRIu64 " first_bad=%" PRId64 " first_x=%" PRId64 " first_y=%" PRId64
                     " max_err=%.6g masked=%" PRIu64 " nonfinite=%" PRIu64 " work_bytes=%" PRIu64
                     " overhead_ms=%.6g floor_ms=%.6g too_fast=%d charged_ms=%.6g solo_ms=%.6g\n",
                     r->case_name, r->variant, r->n, r->seed, r->ok, r->checked, r->median_ms,
                     r->min_ms, r->reps, r->verified, r->bad_reps, r->mismatches, r->first_bad,
                     r->first_x, r->first_y, r->max_err, r->masked, r->nonfinite, r->work_bytes,
                     r->overhead_ms, r->floor_ms, r->too_fast, r->charged_ms, r->solo_ms);
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

enum { K_CASE, K_VARIANT, K_N, K_SEED, K_OK, K_CHECKED, K_MEDIAN, K_MIN, K_REPS, K_VERIFIED,
       K_BAD_REPS, K_MISMATCHES, K_FIRST_BAD, K_FIRST_X, K_FIRST_Y, K_MAX_ERR, K_MASKED, K_NONFINITE,
       K_WORK_BYTES, K_REQUIRED, K_OVERHEAD = K_REQUIRED, K_FLOOR, K_TOO_FAST, K_CHARGED, K_SOLO, K_COUNT };
static const char *const KEYS[K_COUNT] = {"case", "variant", "n", "seed", "ok", "checked",
                                          "median_ms", "min_ms", "reps", "verified", "bad_reps",
                                          "mismatches", "first_bad", "first_x", "first_y", "max_err",
                                          "masked", "nonfinite", "work_bytes",
                                          /* optional (0 when absent): the judge's timing of a duel */
                                          "overhead_ms", "floor_ms", "too_fast", "charged_ms", "solo_ms"};

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
    case K_MASKED: bad = result_parse_u64(val, &r->masked); break;
    case K_NONFINITE: bad = result_parse_u64(val, &r->nonfinite); break;
    case K_WORK_BYTES: bad = result_parse_u64(val, &r->work_bytes); break;
    case K_VERIFIED:
    case K_BAD_REPS:
      bad = result_parse_u64(val, &u) || u > 1000000;
      *(k == K_VERIFIED ? &r->verified : &r->bad_reps) = (int)u;
      break;
    case K_MAX_ERR:
      bad = parse_double(val, &r->max_err);
      if (!bad && !(isfinite(r->max_err) && r->max_err >= 0))
        return fail(err, errcap, "max_err=%s is not a finite non-negative number", val);
      break;
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
    case K_FIRST_X:
    case K_FIRST_Y:
      bad = parse_i64(val, &i) || i < -1;
      *(k == K_FIRST_BAD ? &r->first_bad : k == K_FIRST_X ? &r->first_x : &r->first_y) = i;
      break;
    case K_TOO_FAST:
      bad = result_parse_u64(val, &u) || u > 1000000;
      r->too_fast = (int)u;
      break;
    case K_OVERHEAD:
    case K_FLOOR:
    case K_CHARGED:
    case K_SOLO: {
      double *d = k == K_OVERHEAD ? &r->overhead_ms : k == K_FLOOR ? &r->floor_ms : k == K_CHARGED ? &r->charged_ms : &r->solo_ms;
      bad = parse_double(val, d);
      if (!bad && !(isfinite(*d) && *d >= 0))
        return fail(err, errcap, "%s=%s is not a finite non-negative time", tok, val);
      break;
    }
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
  for (int k = 0; k < K_REQUIRED; k++)
    if (!seen[k]) return fail(err, errcap, "missing key '%s'", KEYS[k]);
  if (r->too_fast > r->reps) return fail(err, errcap, "too_fast=%d is more than reps=%d", r->too_fast, r->reps);
  if (r->ok && (r->mismatches || r->bad_reps))
    return fail(err, errcap, "ok=1 with %" PRIu64 " mismatches in %d bad reps", r->mismatches, r->bad_reps);
  if (r->bad_reps > r->verified) return fail(err, errcap, "bad_reps=%d is more than verified=%d", r->bad_reps, r->verified);
  if (r->checked && r->ok != (r->bad_reps == 0))
    return fail(err, errcap, "ok=%d disagrees with bad_reps=%d", r->ok, r->bad_reps);
  if (r->checked && r->verified < 1) return fail(err, errcap, "checked=1 but no rep was verified");
  return 0;
}
