/* kinds.c: the run function of each kind of the kind table (kinds.h), the
 * dispatch check_run reads, and `grade --kinds`. */
#include "kinds.h"

static const kind_run_fn RUN[KIND_COUNT] = {
    [KIND_CORRECT] = kind_correct_run,
    [KIND_PERF] = kind_perf_run,
    [KIND_PTX] = kind_ptx_run,
    [KIND_SANITIZER] = kind_sanitizer_run,
    [KIND_MODEL] = kind_model_run,
    [KIND_METRIC] = kind_metric_run,
};

const kind_def *kind_get(check_kind k) {
  static kind_def defs[KIND_COUNT];
  const kind_row *row = kind_row_get(k);
  if (!row || !RUN[k]) return NULL;
  /* Filled from the row at every call, so the gates are always the table's. */
  defs[k] = (kind_def){row->needs_gpu, row->needs_reference, RUN[k]};
  return &defs[k];
}

void kinds_print(FILE *f) {
  fprintf(f, "every ");
  conf_keys_print(f, KEYS_EVERY_REQUIRED);
  fputc(' ', f);
  conf_keys_print(f, KEYS_EVERY_OPTIONAL);
  fputc('\n', f);
  for (int k = 0; k < KIND_COUNT; k++) {
    const kind_row *d = &KIND_ROWS[k];
    fprintf(f, "kind %s %s ", d->name, d->needs_gpu ? "gpu" : "cpu");
    conf_keys_print(f, d->required);
    fputc(' ', f);
    conf_keys_print(f, d->optional);
    fprintf(f, " %s\n", d->summary);
  }
}
