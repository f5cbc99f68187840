/* runs.c: running a runner and reading its result channel (runs.h). */
#include "runs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_output.h"

/* Whether the channel held a NUL byte: it carries text lines, and a NUL would
 * end the text early and hide whatever garbage follows it. */
static int capture_has_nul(const capture *c) {
  if (memchr(c->head, 0, c->head_len)) return 1;
  for (size_t i = 0; i < c->tail_len; i++)
    if (!c->tail[(c->tail_pos + CAPTURE_KEEP - c->tail_len + i) % CAPTURE_KEEP]) return 1;
  return 0;
}

static void parse_channel(run_record *h) {
  if (capture_has_nul(&h->p.results))
    snprintf(h->channel_error, sizeof h->channel_error, "garbage on the result channel (a NUL byte)");
  char *text = capture_text(&h->p.results);
  if (!text) return;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char err[160];
    if (h->n_lines == RUN_MAX_LINES) {
      if (!h->channel_error[0]) snprintf(h->channel_error, sizeof h->channel_error, "more than %d result lines", RUN_MAX_LINES);
      break;
    }
    if (result_parse(line, &h->lines[h->n_lines], err, sizeof err) == 0) h->n_lines++;
    else if (!h->channel_error[0]) snprintf(h->channel_error, sizeof h->channel_error, "garbage on the result channel (%s)", err);
  }
  free(text);
}

run_record *run_cases(const assignment_ctx *a, const check_conf *c, const run_args *args) {
  run_record *h = calloc(1, sizeof *h);
  if (!h) {
    fprintf(stderr, "grade: out of memory\n");
    exit(1);
  }
  char cases[CONF_MAX_CASES * CONF_NAME_MAX], seed[32], reps[16], fd[8], limit[32], batch[16];
  size_t len = 0;
  cases[0] = 0;
  for (int i = 0; i < c->n_cases; i++) len += (size_t)snprintf(cases + len, sizeof cases - len, "%s%s", i ? "," : "", c->cases[i]);
  snprintf(seed, sizeof seed, "%" PRIu64, args->seed);
  snprintf(reps, sizeof reps, "%d", args->reps);
  snprintf(fd, sizeof fd, "%d", PROC_RESULT_FD);
  /* The judge runs the binary (the runner) and checks every call's outputs; a
   * tool (compute-sanitizer) goes after --, and the judge starts the runner
   * through it. The judge's own call limit is a little under the check's, so
   * a hang is reported by the judge, with the case, before the grader's limit. */
  double limit_s = c->timeout_s * a->env->timeout_scale, call_s = limit_s * 0.9 > 1 ? limit_s * 0.9 : 1;
  if (args->call_limit_s > 0 && args->call_limit_s < call_s) call_s = args->call_limit_s;
  snprintf(limit, sizeof limit, "%.3f", call_s);
  char floor_arg[32];
  snprintf(floor_arg, sizeof floor_arg, "%.4g", args->floor);
  char *argv[64];
  int n = 0;
  if (args->direct) {
    argv[n++] = (char *)args->bin;
  } else {
    argv[n++] = (char *)a->judge;
    argv[n++] = "--assignment";
    argv[n++] = (char *)a->conf->name;
    argv[n++] = "--runner";
    argv[n++] = (char *)args->bin;
    argv[n++] = "--call-timeout";
    argv[n++] = limit;
    if (args->profiled) argv[n++] = "--profiled";
    if (args->versus) {
      argv[n++] = "--versus";
      argv[n++] = (char *)args->versus;
      argv[n++] = "--versus-variant";
      argv[n++] = (char *)args->versus_variant;
      if (args->floor > 0) {
        argv[n++] = "--floor";
        argv[n++] = floor_arg;
      }
    }
  }
  argv[n++] = "--variant";
  argv[n++] = (char *)(args->variant ? args->variant : c->variant);
  argv[n++] = "--case";
  argv[n++] = cases;
  argv[n++] = "--seed";
  argv[n++] = seed;
  argv[n++] = "--check";
  argv[n++] = "--result-fd";
  argv[n++] = fd;
  if (args->reps > 0) {
    argv[n++] = "--reps";
    argv[n++] = reps;
  }
  if (args->batch > 0) {
    snprintf(batch, sizeof batch, "%d", args->batch);
    argv[n++] = "--batch";
    argv[n++] = batch;
  }
  if (args->prefix) { /* tools are slow: one rep, no warm-up */
    argv[n++] = "--warmup";
    argv[n++] = "0";
  }
  if (args->save_failed) {
    argv[n++] = "--save-failed";
    argv[n++] = (char *)args->save_failed;
  }
  if (args->prefix && args->prefix[0] && !args->direct) {
    argv[n++] = "--";
    for (int i = 0; args->prefix[i] && n < 62; i++) argv[n++] = args->prefix[i];
  }
  argv[n] = NULL;
  proc_run(argv, limit_s, &h->p);
  parse_channel(h);
  if (args->story && getenv("SCANLAB_JUDGE_PROFILE")) { /* where the judge's time went (docs/grading.md) */
    char *err = capture_text(&h->p.err);
    for (char *line = err, *next; line && *line; line = next) {
      next = strchr(line, '\n');
      if (next) *next++ = 0;
      if (strstr(line, " judge: profile ")) fprintf(args->story, "  %s\n", line);
      if (!next) break;
    }
    free(err);
  }
  if (!(h->p.status == PROC_EXITED && h->p.exit_code == 0)) {
    char what[128], tail[220];
    proc_describe(&h->p, what, sizeof what);
    output_last_line(&h->p.err, tail, sizeof tail);
    if (h->p.status == PROC_EXITED && h->p.exit_code == 3 && !args->prefix && !args->direct) snprintf(what, sizeof what, "CUDA error (exit 3)");
    if (h->p.status == PROC_EXITED && h->p.exit_code == 2) snprintf(what, sizeof what, "bad arguments (exit 2)");
    h->versus_failed = args->versus && h->p.status == PROC_EXITED && h->p.exit_code == 4;
    snprintf(h->failure, sizeof h->failure, "%s%s%s", what, tail[0] ? ": " : "", tail);
  }
  return h;
}

double run_call_limit(const run_record *ref) {
  double worst_ms = 0;
  for (int i = 0; i < ref->n_lines; i++)
    if (ref->lines[i].median_ms > worst_ms) worst_ms = ref->lines[i].median_ms;
  return call_limit_s(worst_ms * CALL_LIMIT_MAX_BATCH);
}

void run_split_duel(const run_record *h, run_record *ref, run_record *student) {
  *ref = *h;
  *student = *h;
  ref->n_lines = student->n_lines = 0;
  for (int i = 0; i < h->n_lines; i++) { /* a case's first line is the reference's */
    run_record *to = run_find(ref, h->lines[i].case_name) ? student : ref;
    to->lines[to->n_lines++] = h->lines[i];
  }
  if (!h->versus_failed && h->failure[0]) ref->failure[0] = 0, ref->student_stopped = 1; /* not the reference's failure */
}

const result_line *run_find(const run_record *h, const char *case_name) {
  for (int i = 0; i < h->n_lines; i++)
    if (!strcmp(h->lines[i].case_name, case_name)) return &h->lines[i];
  return NULL;
}

static int count_results(const run_record *h, const char *case_name) {
  int n = 0;
  for (int i = 0; i < h->n_lines; i++) n += !strcmp(h->lines[i].case_name, case_name);
  return n;
}

/* "wrong in 3 of 20 timed reps; first wrong rep: 5 of 1000 outputs differ, first at
 * index 4", or for an image "... 5 pixels differ, first at index 4 (pixel 4,0), max
 * error 0.25, 2 not finite, 1200 masked": each part only where it says something. */
static void describe_wrong(const result_line *r, char *why, size_t cap) {
  size_t len;
  if (r->verified > 1) len = (size_t)snprintf(why, cap, "wrong in %d of %d timed reps; first wrong rep: ", r->bad_reps, r->verified);
  else len = (size_t)snprintf(why, cap, "wrong: ");
#define ADD(...) (len += len < cap ? (size_t)snprintf(why + len, cap - len, __VA_ARGS__) : 0)
  /* An image's n is its circle count, not its pixel count: no "of N" there. */
  if (r->first_x >= 0) ADD("%" PRIu64 " pixels differ", r->mismatches);
  else ADD("%" PRIu64 " of %" PRIu64 " outputs differ", r->mismatches, r->n);
  if (r->first_bad >= 0) ADD(", first at index %" PRId64, r->first_bad);
  if (r->first_x >= 0) ADD(" (pixel %" PRId64 ",%" PRId64 ")", r->first_x, r->first_y);
  if (r->max_err > 0) ADD(", max error %g", r->max_err);
  if (r->nonfinite) ADD(", %" PRIu64 " not finite", r->nonfinite);
  if (r->masked) ADD(", %" PRIu64 " masked", r->masked);
#undef ADD
}

int run_verdict(const run_record *h, const char *case_name, const run_want *w, char *why, size_t cap) {
  const result_line *r = run_find(h, case_name);
  if (!r) {
    if (h->failure[0]) snprintf(why, cap, "no result: %s", h->failure);
    else if (h->channel_error[0]) snprintf(why, cap, "no result: %s", h->channel_error);
    else snprintf(why, cap, "no result line for this case");
    return 0;
  }
  if (count_results(h, case_name) > 1) return snprintf(why, cap, "more than one result line for this case"), 0;
  if (strcmp(r->variant, w->variant)) return snprintf(why, cap, "result is for variant '%s', not '%s'", r->variant, w->variant), 0;
  if (w->ref) {
    uint64_t seed = w->ref->seed + w->seed_offset;
    if (r->seed != seed) return snprintf(why, cap, "result has seed %" PRIu64 ", not %" PRIu64, r->seed, seed), 0;
    if (r->n != w->ref->n) return snprintf(why, cap, "result has n=%" PRIu64 ", the case has n=%" PRIu64, r->n, w->ref->n), 0;
  }
  if (!r->checked) {
    if (w->allow_unchecked && r->ok) return snprintf(why, cap, "ok (not checked)"), 1;
    return snprintf(why, cap, "result was not checked against the CPU reference"), 0;
  }
  if (r->verified < r->reps) return snprintf(why, cap, "only %d of %d timed reps were verified", r->verified, r->reps), 0;
  if (!r->ok || r->bad_reps) return describe_wrong(r, why, cap), 0;
  snprintf(why, cap, "ok");
  return 1;
}

int run_reference_sane(const run_record *h, const check_conf *c, const char *variant, char *why, size_t cap) {
  run_want w = {.variant = variant, .allow_unchecked = !strcmp(variant, RUN_COPY_BASELINE)};
  for (int i = 0; i < c->n_cases; i++) {
    char got[300];
    if (h->student_stopped && !run_find(h, c->cases[i])) continue; /* a duel the student ended before this case */
    if (!run_verdict(h, c->cases[i], &w, got, sizeof got))
      return snprintf(why, cap, "reference broken on case %s: %s", c->cases[i], got), 0;
  }
  if (h->failure[0]) return snprintf(why, cap, "reference broken: %s", h->failure), 0;
  return 1;
}

int run_list_parse(const char *text, const char *name, char slugs[][CONF_NAME_MAX], int max, char *why, size_t cap) {
  char *copy = strdup(text ? text : ""), *save = NULL;
  int n = 0, line_no = 0, rc = 0;
  for (char *line = strtok_r(copy, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save)) {
    char word[16], slug[CONF_NAME_MAX + 1];
    line_no++;
    if (line_no == 1) {
      if (strncmp(line, "assignment ", 11) || strcmp(line + 11, name))
        rc = snprintf(why, cap, "its --list does not start with 'assignment %s' (it is not the runner of %s)", name, name);
      continue;
    }
    if (sscanf(line, "%15s %64s", word, slug) != 2) continue; /* a record of another kind, or a blank */
    if (strcmp(word, "variant") && strcmp(word, "baseline")) continue; /* later protocols may add records */
    if (!result_name_ok(slug)) rc = snprintf(why, cap, "its --list line %d: '%.64s' is not a %s name", line_no, slug, word);
    else if (n < max) snprintf(slugs[n++], CONF_NAME_MAX, "%s", slug);
  }
  if (!line_no && !rc) rc = snprintf(why, cap, "its --list printed nothing");
  free(copy);
  return rc ? -1 : n;
}
