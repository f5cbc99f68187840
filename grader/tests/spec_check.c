/* spec_check.c: build/tests/spec-check [ASSIGNMENT...], an assignment's spec against its
 * grade.conf and itself, on the CPU (make test runs it on every assignment; the template
 * assignment's test, tests/template-assignment.sh, on the template).
 *
 * For each assignment folder (assignments/NN-name, all of them by default):
 *   - the judge has a spec of grade.conf's name (its judge/spec.c, in the judge's table);
 *   - every variant and case a check of grade.conf names for a judge run (kinds correct,
 *     perf, sanitizer, metric) is a row of that spec (a typo there only shows on a GPU);
 *   - every case of the spec whose buffers hold at most SMALL (2^18) elements opens, and
 *     calls 0, 1 and 2 get different inputs (every call a new input);
 *   - where the spec gives expected outputs (expect), they are accepted as they are and
 *     one changed element of each output is found, exactly once, at its index.
 * Prints one line per problem, "assignments/NN/...: what is wrong", then a summary line;
 * exits 0 when there is none, 1 when there is one, 2 on bad usage. */
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "spec.h"

enum { SMALL = 1 << 18, CALLS = 3 };

static int problems;

/* One line "WHERE: what is wrong". */
__attribute__((format(printf, 2, 3))) static void problem(const char *where, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("%s: ", where);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  problems++;
}

static const judge_spec *spec_named(const char *name) {
  for (int i = 0; i < judge_n_specs; i++)
    if (!strcmp(judge_specs[i]->name, name)) return judge_specs[i];
  return NULL;
}

static int has_variant(const judge_spec *s, const char *slug) {
  for (int v = 0; v < s->n_variants; v++)
    if (!strcmp(s->variants[v].slug, slug)) return 1;
  for (int v = 0; v < s->n_baselines; v++)
    if (!strcmp(s->baselines[v].slug, slug)) return 1;
  return 0;
}

static int has_case(const judge_spec *s, const char *name) {
  for (int i = 0; i < s->n_cases; i++)
    if (!strcmp(s->cases[i].name, name)) return 1;
  return 0;
}

/* The names grade.conf's judge runs use are rows of the spec. */
static void check_conf_names(const assignment_conf *a, const judge_spec *s) {
  char where[700];
  for (int i = 0; i < a->n_checks; i++) {
    const check_conf *k = &a->checks[i];
    const char *kind = conf_kind_name(k->kind);
    if (strcmp(kind, "correct") && strcmp(kind, "perf") && strcmp(kind, "sanitizer") && strcmp(kind, "metric")) continue;
    snprintf(where, sizeof where, "%s:%d: [%s]", a->path, k->line, k->name);
    if (k->variant[0] && !has_variant(s, k->variant))
      problem(where, "variant '%s' is not a variant of the spec %s (judge/spec.c)", k->variant, s->name);
    for (int c = 0; c < k->n_cases; c++)
      if (!has_case(s, k->cases[c])) problem(where, "case '%s' is not a case of the spec %s (judge/spec.c)", k->cases[c], s->name);
  }
}

static size_t buf_bytes(const spec_buf *b) { return (b->count ? b->count : 1) * elem_bytes(b->type); }

/* The expected outputs of call k pass as they are; one changed element of each is found once. */
static void check_expect(judge_case *c, uint64_t k, const char *where) {
  void *want[JUDGE_MAX_BUFS] = {0}, *got[JUDGE_MAX_BUFS] = {0};
  uint8_t *mask[JUDGE_MAX_BUFS] = {0};
  for (int o = 0; o < c->n_out; o++) {
    want[o] = calloc(1, buf_bytes(&c->out[o]));
    got[o] = calloc(1, buf_bytes(&c->out[o]));
    mask[o] = c->out[o].masked ? calloc(c->out[o].count ? c->out[o].count : 1, 1) : NULL;
  }
  c->spec->expect(c, k, want, mask);
  for (int o = 0; o < c->n_out; o++) {
    const spec_buf *b = &c->out[o];
    memcpy(got[o], want[o], buf_bytes(b));
    spec_verdict v;
    judge_verdict_init(&v);
    judge_compare(b, got[o], want[o], mask[o], &v);
    if (v.mismatches) problem(where, "output %s: its own expected values are judged wrong", b->name);
    uint64_t at = b->count / 2;
    while (mask[o] && at < b->count && mask[o][at]) at++;
    if (!b->count || at >= b->count) continue;
    unsigned char *e = (unsigned char *)got[o] + at * elem_bytes(b->type);
    float bump = 1.0f + 10.0f * b->tol;
    if (b->type == ELEM_RGBA32F) { /* a float channel moved well past the tolerance */
      float f;
      memcpy(&f, e, sizeof f);
      f += bump;
      memcpy(e, &f, sizeof f);
    } else {
      e[0] ^= 0x10u;
    }
    judge_verdict_init(&v);
    judge_compare(b, got[o], want[o], mask[o], &v);
    if (v.mismatches != 1 || v.first_bad != (int64_t)at)
      problem(where, "output %s: one changed element is not found once at its index (%s)", b->name,
              v.mismatches ? "found elsewhere or more than once" : "not found");
  }
  for (int o = 0; o < c->n_out; o++) free(want[o]), free(got[o]), free(mask[o]);
}

/* Every small case opens, gets a new input each call, and (expect) checks right. */
static void check_cases(const judge_spec *s, const char *dir) {
  char where[700];
  int tried = 0;
  for (int i = 0; i < s->n_cases; i++) {
    const spec_case *k = &s->cases[i];
    if (k->n > SMALL) continue; /* not even opened: a large case's set-up is the judge's, on a GPU host */
    judge_case c = {.spec = s, .name = k->name, .n = k->n, .seed = k->seed, .param = k->param, .variant = 0};
    char err[300];
    snprintf(where, sizeof where, "%s/judge/spec.c: case %s", dir, k->name);
    if (s->open(&c, err, sizeof err)) {
      problem(where, "does not open: %s", err);
      continue;
    }
    size_t total = 0;
    for (int b = 0; b < c.n_in; b++) total += c.in[b].count;
    for (int b = 0; b < c.n_out; b++) total += c.out[b].count;
    if (total <= SMALL) {
      tried++;
      void *in[CALLS][JUDGE_MAX_BUFS] = {{0}};
      for (int call = 0; call < CALLS; call++) {
        for (int b = 0; b < c.n_in; b++) in[call][b] = calloc(1, buf_bytes(&c.in[b]));
        s->input(&c, (uint64_t)call, in[call]);
        if (s->expect) check_expect(&c, (uint64_t)call, where);
      }
      for (int call = 1; call < CALLS; call++) { /* some input buffer differs from the call before */
        int differs = c.n_in == 0;
        for (int b = 0; b < c.n_in; b++)
          differs |= c.in[b].count > 1 && memcmp(in[call - 1][b], in[call][b], c.in[b].count * elem_bytes(c.in[b].type)) != 0;
        if (!differs && (c.n_in == 0 || c.in[0].count > 1)) problem(where, "calls %d and %d got the same inputs", call - 1, call);
      }
      for (int call = 0; call < CALLS; call++)
        for (int b = 0; b < c.n_in; b++) free(in[call][b]);
    }
    if (s->close) s->close(&c);
  }
  if (!tried) problem(dir, "the spec has no case of at most %d elements to try", SMALL);
  printf("%s: %d of the spec's %d cases tried (%s)\n", dir, tried, s->n_cases, s->expect ? "expect" : "its own check");
}

static void check_assignment(const char *dir) {
  char path[600], err[700];
  static assignment_conf a; /* large */
  snprintf(path, sizeof path, "%s/grade.conf", dir);
  if (conf_load(path, &a, err, sizeof err)) {
    printf("%s\n", err);
    problems++;
    return;
  }
  const judge_spec *s = spec_named(a.name);
  if (!s) {
    problem(path, "name = %s, and the judge has no spec of that name (%s/judge/spec.c, in the judge's table)", a.name, dir);
    return;
  }
  check_conf_names(&a, s);
  check_cases(s, dir);
}

int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == '-') {
    fprintf(stderr, "usage: spec-check [ASSIGNMENT...] (folders of assignments/ or their numbers, all by default)\n");
    return 2;
  }
  int n = 0;
  if (argc > 1) {
    for (int i = 1; i < argc; i++, n++) { /* a folder of assignments/, or its number (01) */
      char dir[300], pattern[300];
      snprintf(dir, sizeof dir, "assignments/%s", argv[i]);
      snprintf(pattern, sizeof pattern, "assignments/%s-*/grade.conf", argv[i]);
      glob_t g;
      if (access(dir, F_OK) != 0 && glob(pattern, 0, NULL, &g) == 0) {
        if (g.gl_pathc == 1) snprintf(dir, sizeof dir, "%.*s", (int)(strlen(g.gl_pathv[0]) - strlen("/grade.conf")), g.gl_pathv[0]);
        globfree(&g);
      }
      check_assignment(dir);
    }
  } else {
    glob_t g;
    if (glob("assignments/*/grade.conf", 0, NULL, &g) == 0) {
      for (size_t i = 0; i < g.gl_pathc; i++, n++) {
        char dir[300];
        snprintf(dir, sizeof dir, "%.*s", (int)(strlen(g.gl_pathv[i]) - strlen("/grade.conf")), g.gl_pathv[i]);
        check_assignment(dir);
      }
      globfree(&g);
    }
  }
  if (!n) {
    fprintf(stderr, "spec-check: no assignment (run it from the repository root)\n");
    return 2;
  }
  printf("spec-check: %d assignment%s, %d problem%s\n", n, n == 1 ? "" : "s", problems, problems == 1 ? "" : "s");
  return problems ? 1 : 0;
}
