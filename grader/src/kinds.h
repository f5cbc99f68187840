/* kinds.h: running a check kind: the run function bound to each row of the kind
 * table (kind_table.h), and `grade --kinds`.
 *
 * check_run (checks.c) applies a kind's gates and calls its run function
 * through kind_get; the run functions are in kind_correct.c, kind_perf.c and
 * kind_tools.c. This is the layer above the kind table's data and the config
 * (conf.h, kind_table.h) that needs the grading context (check_types.h). */
#ifndef SCANLAB_KINDS_H
#define SCANLAB_KINDS_H

#include <stdio.h>

#include "check_types.h"
#include "kind_table.h"
#include "story.h"

typedef void (*kind_run_fn)(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);

/* What check_run (checks.c) reads of a kind: the gates of its row in the kind
 * table, taken from the row at each kind_get (the table stays their one source),
 * and its run function. */
typedef struct kind_def {
  int needs_gpu;
  int needs_reference; /* not scored when the reference failed its start-up test */
  kind_run_fn run;
} kind_def;

/* The kind's gates and run function, or NULL when k is not a row of the table:
 * an unknown kind is an error, never a fallback. */
const kind_def *kind_get(check_kind k);
/* `grade --kinds`: the table in the machine format of docs/grading.md. */
void kinds_print(FILE *f);

/* The run functions (kind_correct.c, kind_perf.c, kind_tools.c). */
void kind_correct_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_perf_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_ptx_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_sanitizer_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_model_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);
void kind_metric_run(const assignment_ctx *a, const check_conf *c, check_result *r, story *s);

#endif
