/* cli.c: strict parsing of the runner command line. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

const char cli_usage[] =
    "usage: runner [--case NAME[,NAME...]] [--variant SLUG] [--n N] [--seed S] [--reps R]\n"
    "               [--warmup W] [--check] [--out FILE] [--save-failed DIR] [--result-fd FD] [--list] [--bench]\n"
    "       judge --assignment NAME --runner PATH [the options above] [--batch B] [--call-timeout S]\n"
    "             [--versus PATH [--versus-variant SLUG] [--floor F]] [--profiled -- TOOL ARGS...]\n";

int cli_parse_count(const char *s, uint64_t max, uint64_t *out) {
  uint64_t v;
  if (strncmp(s, "2^", 2) == 0) {
    char digits[8];
    size_t k = strspn(s + 2, "0123456789");
    if (k == 0 || k >= sizeof digits) return -1;
    memcpy(digits, s + 2, k);
    digits[k] = 0;
    uint64_t e;
    if (result_parse_u64(digits, &e) || e > 62) return -1;
    v = 1ULL << e;
    const char *rest = s + 2 + k;
    if (*rest == '+' || *rest == '-') {
      uint64_t d;
      if (result_parse_u64(rest + 1, &d)) return -1;
      if (*rest == '+') {
        if (d > UINT64_MAX - v) return -1;
        v += d;
      } else {
        if (d > v) return -1;
        v -= d;
      }
    } else if (*rest) {
      return -1;
    }
  } else if (result_parse_u64(s, &v)) {
    return -1;
  }
  if (v > max) return -1;
  *out = v;
  return 0;
}

static int fail(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
  return 2;
}

static int add_cases(cli_opts *o, const char *list, size_t *used, char *err, size_t cap) {
  size_t len = strlen(list);
  if (!len || list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,"))
    return fail(err, cap, "--case: empty name in '%.40s'", list);
  if (*used + len + 1 > sizeof o->case_buf) return fail(err, cap, "--case: list too long");
  char *copy = o->case_buf + *used;
  memcpy(copy, list, len + 1);
  *used += len + 1;
  char *save = NULL;
  int any = 0;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (!result_name_ok(t)) return fail(err, cap, "--case: bad case name '%.40s'", t);
    if (o->n_cases == CLI_MAX_CASES) return fail(err, cap, "--case: more than %d cases", CLI_MAX_CASES);
    o->cases[o->n_cases++] = t;
    any = 1;
  }
  return any ? 0 : fail(err, cap, "--case: empty list");
}

int cli_parse(int argc, char **argv, cli_opts *o, char *err, size_t cap) {
  memset(o, 0, sizeof *o);
  o->reps = -1;
  o->warmup = -1;
  o->result_fd = 1;
  size_t used = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) { /* the rest starts the runner */
      o->prefix = argv + i + 1;
      o->n_prefix = argc - i - 1;
      if (!o->n_prefix) return fail(err, cap, "-- needs the command of a tool after it");
      break;
    }
    int flag = !strcmp(a, "--check") || !strcmp(a, "--list") || !strcmp(a, "--bench") || !strcmp(a, "--help") ||
               !strcmp(a, "-h") || !strcmp(a, "--profiled");
    if (flag) {
      if (!strcmp(a, "--check")) o->check = 1;
      else if (!strcmp(a, "--list")) o->list = 1;
      else if (!strcmp(a, "--profiled")) o->profiled = 1;
      else if (!strcmp(a, "--bench")) o->bench = 1;
      else o->help = 1;
      continue;
    }
    if (strncmp(a, "--", 2) != 0) return fail(err, cap, "unexpected argument '%.40s'", a);
    static const char *const with_value[] = {"--case", "--variant", "--n", "--seed", "--reps",
                                             "--warmup", "--out", "--save-failed", "--result-fd",
                                             "--assignment", "--runner", "--call-timeout", "--batch",
                                             "--versus", "--versus-variant", "--floor"};
    int known = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++) known |= !strcmp(a, with_value[k]);
    if (!known) return fail(err, cap, "unknown option '%.40s'", a);
    if (i + 1 >= argc) return fail(err, cap, "%s needs a value", a);
    const char *v = argv[++i];
    uint64_t u;
    if (!strcmp(a, "--case")) {
      int rc = add_cases(o, v, &used, err, cap);
      if (rc) return rc;
    } else if (!strcmp(a, "--variant")) {
      if (!result_name_ok(v)) return fail(err, cap, "--variant: bad name '%.40s'", v);
      o->variant = v;
    } else if (!strcmp(a, "--n")) {
      if (cli_parse_count(v, 1ULL << 40, &o->n)) return fail(err, cap, "--n: '%.40s' is not a count (e.g. 1000, 2^24, 2^24+1)", v);
      o->have_n = 1;
    } else if (!strcmp(a, "--seed")) {
      if (result_parse_u64(v, &o->seed)) return fail(err, cap, "--seed: '%.40s' is not an unsigned integer", v);
      o->have_seed = 1;
    } else if (!strcmp(a, "--reps") || !strcmp(a, "--warmup")) {
      int lo = !strcmp(a, "--reps") ? 1 : 0;
      if (cli_parse_count(v, 100000, &u) || u < (uint64_t)lo)
        return fail(err, cap, "%s: '%.40s' is not an integer in [%d, 100000]", a, v, lo);
      *(lo ? &o->reps : &o->warmup) = (int)u;
    } else if (!strcmp(a, "--out")) {
      if (!*v) return fail(err, cap, "--out: empty file name");
      o->out = v;
    } else if (!strcmp(a, "--save-failed")) {
      if (!*v) return fail(err, cap, "--save-failed: empty folder name");
      o->save_failed = v;
    } else if (!strcmp(a, "--assignment")) {
      if (!result_name_ok(v)) return fail(err, cap, "--assignment: bad name '%.40s'", v);
      o->assignment = v;
    } else if (!strcmp(a, "--runner")) {
      if (!*v) return fail(err, cap, "--runner: empty path");
      o->runner = v;
    } else if (!strcmp(a, "--batch")) {
      if (cli_parse_count(v, 64, &u) || u < 1) return fail(err, cap, "--batch: '%.40s' is not an integer in [1, 64]", v);
      o->batch = (int)u;
    } else if (!strcmp(a, "--versus")) {
      if (!*v) return fail(err, cap, "--versus: empty path");
      o->versus = v;
    } else if (!strcmp(a, "--versus-variant")) {
      if (!result_name_ok(v)) return fail(err, cap, "--versus-variant: bad name '%.40s'", v);
      o->versus_variant = v;
    } else if (!strcmp(a, "--floor")) {
      char *end = NULL;
      double f = strtod(v, &end);
      if (!*v || *end || !(f > 0 && f <= 1)) return fail(err, cap, "--floor: '%.40s' is not a fraction in (0, 1]", v);
      o->floor = f;
    } else if (!strcmp(a, "--call-timeout")) {
      char *end = NULL;
      double t = strtod(v, &end);
      if (!*v || *end || !(t > 0 && t <= 3600)) return fail(err, cap, "--call-timeout: '%.40s' is not a number of seconds in (0, 3600]", v);
      o->call_timeout_s = t;
    } else { /* --result-fd */
      if (result_parse_u64(v, &u) || u > 1023) return fail(err, cap, "--result-fd: '%.40s' is not a descriptor number", v);
      o->result_fd = (int)u;
    }
  }
  if (o->have_seed && !o->have_n && o->n_cases == 0) return fail(err, cap, "--seed needs --n or --case");
  if (o->have_n && o->n_cases) return fail(err, cap, "--n and --case are exclusive (a case has its own n)");
  if (o->versus_variant && !o->versus) return fail(err, cap, "--versus-variant needs --versus");
  if (o->floor > 0 && !o->versus) return fail(err, cap, "--floor needs --versus (the reference's runner times the copy)");
  if (o->profiled && !o->n_prefix) return fail(err, cap, "--profiled needs the profiler's command after --");
  if (o->versus && (o->n_prefix || o->bench || o->list || o->out))
    return fail(err, cap, "--versus (a perf duel) cannot go with a tool, --bench, --list or --out");
  return 0;
}
