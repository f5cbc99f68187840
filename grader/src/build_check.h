/* build_check.h: what the runner of an inline assignment contains.
 *
 * For `link = inline` runner/runner.cu #includes the student's file, so the
 * runner's code is not the object that was inspected: this check reads the
 * dependency file of the runner's compile (and of its PTX) and requires that
 *   - it includes the staged file itself (never one of the same name elsewhere);
 *   - every file of the staging folder it includes was in the inspected
 *     compile too (no decoy: a file the runner sees that the inspection did not);
 *   - nothing under a cub/ or thrust/ folder, and no file of the repository
 *     but those directly in assignments/NN (its interface headers) or in its
 *     runner/ folder, and those of grader/protocol, grader/runner and the
 *     staging folder: never one of its judge/ folder (the same rules as
 *     grader/inspect/inspect-student.sh's first two checks). */
#ifndef SCANLAB_BUILD_CHECK_H
#define SCANLAB_BUILD_CHECK_H

#include "build_types.h"

/* Returns 0, or -1 with r->status and r->reason set. runner_dep: the runner
 * compile's dependency file; student_dep: the inspected compile's; adir:
 * assignments/NN. */
int build_check_runner(build_result *r, const char *runner_dep, const char *student_dep, const char *stage, const char *student,
                       const char *adir);

#endif
