/* kind_perf.c: the `perf` kind. The baseline (the reference's run of the same
 * variant, another variant or baseline of the reference, or the copy every
 * runner has) and the student take turns sample by sample in one judge (a
 * duel, `runs` times) on one case; each side keeps the minimum of its medians,
 * and score.c turns the two into points. A student run that is not correct
 * ends the check with 0 points, and so does one with a sample under the floor
 * (`floor` x the reference's device copy of what a call must move): no right
 * call can be that fast, so its time is not trusted. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runs.h"
#include "kinds.h"
#include "score.h"
#include "stats.h"

/* The variant the baseline runs and its label ("reference", "reference SLUG",
 * "copy_d2d"); 0 with why when the reference does not have it. */
static int baseline_resolve(const assignment_ctx *a, const check_conf *c, const char **variant, check_result *r, char *why, size_t cap) {
  const char *b = c->baseline[0] ? c->baseline : c->variant;
  *variant = b;
  if (!strcmp(b, c->variant)) return snprintf(r->baseline, sizeof r->baseline, "reference"), 1;
  if (!strcmp(b, RUN_COPY_BASELINE)) return snprintf(r->baseline, sizeof r->baseline, "%s", b), 1;
  for (int i = 0; i < a->n_ref_slugs; i++)
    if (!strcmp(a->ref_slugs[i], b)) return snprintf(r->baseline, sizeof r->baseline, "reference %s", b), 1;
  snprintf(why, cap, "baseline '%s' is not a variant or baseline of the reference (see its --list)", b);
  return 0;
}

/* A reference that itself runs below the floor: the floor is set too high for
 * this GPU (grade.conf), and the check cannot be scored. 1 with why. */
static int floor_broken(const result_line *ref, const check_conf *c, char *why, size_t cap) {
  if (!ref->too_fast) return 0;
  snprintf(why, cap, "the reference ran under the floor in %d of %d samples (%.4f ms = %.2f x a device copy of the bytes a call "
           "cannot avoid moving): lower `floor` in grade.conf for this GPU", ref->too_fast, ref->reps, ref->floor_ms, c->floor);
  return 1;
}

/* What the timed window costs and where the floor is, for the story: the empty
 * window's share of each side's median, and the reference's margin over the floor. */
static void story_window(story *s, const result_line *ref, const result_line *st) {
  fprintf(s->f, "  empty window: reference %.4f ms (%.1f%% of its median), student %.4f ms (%.1f%%)", ref->overhead_ms,
          100 * ref->overhead_ms / ref->median_ms, st->overhead_ms, 100 * st->overhead_ms / st->median_ms);
  if (ref->floor_ms > 0)
    fprintf(s->f, "; floor %.4f ms, the reference's fastest sample %.2fx it, the student's %.2fx", ref->floor_ms,
            ref->min_ms / ref->floor_ms, st->min_ms / st->floor_ms);
  fputc('\n', s->f);
  /* The judge's clock on the steps around the window, and the ceiling's figure (docs/grading.md, "Timing: a duel"). */
  if (ref->solo_ms > 0) fprintf(s->f, "  reference alone %.4f ms, in the duel %.4f ms\n", ref->solo_ms, ref->median_ms);
  if (st->charged_ms > 0)
    fprintf(s->f, "  charged %.4f ms a call: the student's steps around the window (upload, download, waits for an idle device) "
            "took that much more than the reference's\n", st->charged_ms);
}

void kind_perf_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s) {
  double t_base[50], t_st[50];
  char why[400];
  const char *k = c->cases[0], *variant;
  if (!baseline_resolve(a, c, &variant, r, why, sizeof why)) {
    fprintf(s->f, "%s\n", why);
    return check_finish(r, s, V_ERROR, 0, "not scored: %s", why);
  }
  fprintf(s->f, "case %s, variant %s vs %s, seed %" PRIu64 ", %d run%s of samples taken in turn\n", k, c->variant,
          r->baseline, a->env->seed, c->runs, c->runs == 1 ? "" : "s");
  run_record *both = NULL, *base = malloc(sizeof *base), *st = malloc(sizeof *st);
  if (!base || !st) {
    fprintf(stderr, "grade: out of memory\n");
    exit(1);
  }
  for (int i = 0; i < c->runs; i++) {
    /* A duel (judge --versus): the reference and the student take turns, sample
     * by sample, on the same inputs, so both see the same GPU clocks and
     * temperature; each call of both is verified, and each expected output is
     * computed once. The student's call limit comes from the reference's first
     * sample. Each side keeps the minimum of its medians over the runs. */
    run_args args = {.bin = a->student, .seed = a->env->seed, .reps = c->reps, .versus = a->reference,
                         .versus_variant = variant, .floor = c->floor, .story = s->f};
    free(both);
    both = run_cases(a, c, &args);
    run_split_duel(both, base, st);
    if (both->versus_failed || !run_reference_sane(base, c, variant, why, sizeof why)) {
      if (both->versus_failed) snprintf(why, sizeof why, "reference broken: %s", both->failure);
      fprintf(s->f, "run %d: %s\n", i + 1, why);
      free(both), free(base), free(st);
      return check_finish(r, s, V_ERROR, 0, "%s", why);
    }
    const result_line *bl = run_find(base, k); /* NULL only when the student stopped the duel */
    t_base[i] = bl ? bl->median_ms : 0;
    if (bl && floor_broken(bl, c, why, sizeof why)) {
      fprintf(s->f, "run %d: %s\n", i + 1, why);
      free(both), free(base), free(st);
      return check_finish(r, s, V_ERROR, 0, "not scored: %s", why);
    }
    run_want want = {.variant = c->variant, .ref = bl};
    int ok = run_verdict(st, k, &want, why, sizeof why);
    if (ok && st->failure[0]) ok = 0, snprintf(why, sizeof why, "%s", st->failure);
    const result_line *sl = ok ? run_find(st, k) : NULL;
    t_st[i] = sl ? sl->median_ms : 0;
    if (!ok) {
      fprintf(s->f, "run %d: %s\n", i + 1, why);
      free(both), free(base), free(st);
      return check_finish(r, s, V_FAIL, 0, "not timed: %s", why);
    }
    if (bl) story_window(s, bl, sl);
    if (sl->too_fast) {
      snprintf(why, sizeof why,
               "faster than the memory system allows: the timing is not trusted (%d of %d samples under %.4f ms, %.2f x the "
               "reference's device copy of the bytes a call cannot avoid moving)",
               sl->too_fast, sl->reps, sl->floor_ms, c->floor);
      fprintf(s->f, "run %d: %s\n", i + 1, why);
      free(both), free(base), free(st);
      return check_finish(r, s, V_FAIL, 0, "%s", why);
    }
    fprintf(s->f, "run %d: %s %.4f ms, student %.4f ms (medians, samples taken in turn)\n", i + 1, r->baseline, t_base[i],
            t_st[i]);
  }
  free(both), free(base), free(st);
  r->has_perf = 1;
  r->t_ref = stats_min(t_base, c->runs);
  r->t_student = stats_min(t_st, c->runs);
  double score = score_perf(c->points, c->full_ratio, r->t_student, r->t_ref, 1);
  double ratio = r->t_student / r->t_ref;
  fprintf(s->f, "student %.4f ms, %s %.4f ms: %.2fx the %s (full points up to %.2fx)\n", r->t_student, r->baseline, r->t_ref, ratio,
          r->baseline, c->full_ratio);
  verdict v = score >= c->points ? V_PASS : V_PARTIAL;
  check_finish(r, s, v, score, "%.4f ms vs %s %.4f ms = %.2fx (full points up to %.2fx)", r->t_student, r->baseline, r->t_ref, ratio,
               c->full_ratio);
}
