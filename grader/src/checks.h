/* checks.h: run one check of one assignment and score it.
 *
 * check_run applies the gates every check passes (interrupted, no GPU, no
 * student binary, broken reference), then calls its kind's run function from
 * the kind table (kinds.h). Kinds run runners as child processes
 * (runs.h), turn their result lines into a verdict, a score (score.h)
 * and a one-line reason. Nothing a child does can stop a check from producing
 * a result. The records they share (grade_env, assignment_ctx, check_result)
 * are in check_types.h, below both this file and the kinds. */
#ifndef SCANLAB_CHECKS_H
#define SCANLAB_CHECKS_H

#include "check_types.h"

/* Fills ctx from the student's build (build.h: its outcome and outputs, kept by
 * pointer; label names the student's folder) and checks the reference. */
void assignment_prepare(assignment_ctx *ctx, const grade_env *env, const assignment_conf *conf, const build_result *build,
                        const char *label);
/* Runs check c into r. Points are for the student's own work: a check whose
 * `requires` names an earlier check (earlier[0..n_earlier-1]) that did not pass
 * is not run, and fails with "not scored: needs X to pass first". A requirement
 * that was not graded here (no GPU) is not applied, and the output says so. */
void check_run(const assignment_ctx *ctx, const check_conf *c, check_result *r, const check_result *earlier,
               int n_earlier);
const char *verdict_name(verdict v);

#endif
