/* phase_clock.c: charging a duel's steps, and the ceiling (phase_clock.h). */
#include "phase_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

const char *const judge_phase_steps[PHASE_COUNT] = {"RUN->SET", "DONE->OUT", "IDLE->QUIET"};

int judge_phase_log_init(phase_log *l, int cap) {
  memset(l, 0, sizeof *l);
  l->cap = cap > 0 ? cap : 1;
  for (int p = 0; p < PHASE_COUNT; p++)
    if (!(l->ms[p] = calloc((size_t)l->cap, sizeof *l->ms[p]))) return judge_phase_log_free(l), -1;
  return 0;
}

void judge_phase_log_sample(phase_log *l, double prep_ms, double fetch_ms) {
  if (!l->ms[0] || l->n >= l->cap) return;
  l->ms[PHASE_PREP][l->n] = prep_ms;
  l->ms[PHASE_FETCH][l->n] = fetch_ms;
  l->ms[PHASE_DRAIN][l->n] = 0;
  l->n++;
}

void judge_phase_log_drain(phase_log *l, double ms) {
  if (l->ms[0] && l->n > 0) l->ms[PHASE_DRAIN][l->n - 1] += ms;
}

void judge_phase_log_free(phase_log *l) {
  for (int p = 0; p < PHASE_COUNT; p++) free(l->ms[p]), l->ms[p] = NULL;
  l->n = 0;
}

double judge_phase_median(const double *v, int n) {
  if (n <= 0) return NAN;
  double *copy = malloc((size_t)n * sizeof *copy);
  if (!copy) return NAN;
  memcpy(copy, v, (size_t)n * sizeof *copy);
  double m = stats_median(copy, n);
  free(copy);
  return m;
}

void judge_phase_range(const double *v, int n, double *lo, double *hi) {
  *lo = *hi = n > 0 ? v[0] : NAN;
  for (int i = 1; i < n; i++) {
    if (v[i] < *lo) *lo = v[i];
    if (v[i] > *hi) *hi = v[i];
  }
}

double judge_phase_log_total_median(const phase_log *l) {
  if (l->n <= 0 || !l->ms[0]) return NAN;
  double *sum = malloc((size_t)l->n * sizeof *sum);
  if (!sum) return NAN;
  for (int k = 0; k < l->n; k++) {
    sum[k] = 0;
    for (int p = 0; p < PHASE_COUNT; p++) sum[k] += l->ms[p][k];
  }
  double m = judge_phase_median(sum, l->n);
  free(sum);
  return m;
}

void judge_phase_charge_compute(const phase_log *student, const phase_log *reference, double rel, double abs_ms, phase_charge *c) {
  memset(c, 0, sizeof *c);
  if (!student->n || !reference->n || !student->ms[0] || !reference->ms[0]) return;
  for (int p = 0; p < PHASE_COUNT; p++) {
    c->student_ms[p] = judge_phase_median(student->ms[p], student->n);
    c->reference_ms[p] = judge_phase_median(reference->ms[p], reference->n);
  }
  double s = judge_phase_log_total_median(student), r = judge_phase_log_total_median(reference);
  if (!isfinite(s) || !isfinite(r)) return;
  c->student_total_ms = s;
  c->reference_total_ms = r;
  c->allowance_ms = rel * r + abs_ms;
  double over = s - r - c->allowance_ms;
  c->total_ms = over > 0 ? over : 0;
}

int judge_phase_ceiling_disturbed(double duel_ms, double solo_ms, double rel, double abs_ms) {
  if (!(solo_ms > 0) || !isfinite(duel_ms)) return 0; /* no figure alone: nothing to compare (n = 0) */
  return duel_ms > solo_ms * (1 + rel) + abs_ms;
}

int judge_phase_comparable(const wire_case *a, const wire_case *b) {
  wire_case x = *a, y = *b;
  x.variant = y.variant = 0;
  return !memcmp(&x, &y, sizeof x);
}

int judge_phase_noise_parse(const char *text, double *rel, double *abs_ms) {
  double r, a;
  char extra;
  if (sscanf(text, "%lf %lf %c", &r, &a, &extra) != 2 || !(r >= 0 && r <= 10) || !(a >= 0 && a <= 1e4)) return -1;
  *rel = r;
  *abs_ms = a;
  return 0;
}

void judge_phase_report(FILE *f, const char *assignment, const char *case_name, const char *who, const phase_log *l,
                        const double *ms, int reps, int batch, double solo_ms) {
  fprintf(f, "%s judge: phases case=%s side=%s", assignment, case_name, who);
  double lo, hi;
  for (int p = 0; p < PHASE_COUNT; p++) {
    judge_phase_range(l->ms[p], l->n, &lo, &hi);
    fprintf(f, " %s=%.6f[%.6f..%.6f]", judge_phase_steps[p], judge_phase_median(l->ms[p], l->n), lo, hi);
  }
  double *w = malloc((size_t)(reps > 0 ? reps : 1) * sizeof *w);
  if (!w) return (void)fputs(" (out of memory)\n", f);
  for (int k = 0; k < reps; k++) w[k] = ms[k] * batch;
  judge_phase_range(w, reps, &lo, &hi);
  fprintf(f, " steps=%.6f window=%.6f[%.6f..%.6f] solo=%.6f ms a batch of %d\n", judge_phase_log_total_median(l),
          judge_phase_median(w, reps), lo, hi, solo_ms * batch, batch);
  free(w);
}

void judge_phase_describe(FILE *f, const char *assignment, const char *case_name, const phase_charge *c) {
  fprintf(f, "%s judge: case %s: the student's steps around the window took %.4f ms a batch, the reference's %.4f ms (noise "
          "allowed %.4f ms): %.4f ms a batch is charged to its samples, work outside the timed window (medians:", assignment,
          case_name, c->student_total_ms, c->reference_total_ms, c->allowance_ms, c->total_ms);
  for (int p = 0; p < PHASE_COUNT; p++)
    fprintf(f, "%s %s %.4f vs %.4f", p ? "," : "", judge_phase_steps[p], c->student_ms[p], c->reference_ms[p]);
  fputs(")\n", f);
}
