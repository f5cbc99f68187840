/* build.h: the student's build, done by the grader itself (no make, no shell).
 *
 * For one assignment and one folder of the student's (starter/NN, solutions/NN,
 * or any folder given), build_run:
 *   1. checks the folder and stages it (submission.h): every file copied into
 *      OUT/stage, the folder refused with one line for a name outside
 *      [A-Za-z0-9._-], a symbolic link or anything that is not a regular file,
 *      and "missing file X" when the file grade.conf's `student` names is not there;
 *   2. hashes what the build depends on (build_hash.h): the staged files, the
 *      course files of assignments/NN (its own files, runner/ and, with a model,
 *      judge/), grader/runner, grader/protocol and the inspection, the flags,
 *      nvcc's version and the runner library. An earlier build in OUT is
 *      reused only when its stamp holds the same hash; otherwise
 *      every output of it is removed before anything is compiled, so that
 *      nothing of an earlier build is ever graded;
 *   3. compiles the named file alone (nvcc -c, the student's flags, -Iassignments/NN
 *      -IOUT/stage: the folder's other files are there only to be #included),
 *      inspects the object (grader/inspect/inspect-student.sh), links the runner
 *      (assignments/NN/runner/runner.cu with student.o, or, for `link = inline`, with the
 *      staged file #included: build_check.h then checks that what the runner
 *      includes is what was inspected), makes runner.ptx for the ptx checks, the
 *      model and model-tables where grade.conf declares them (model,
 *      model_tables), and the bench build (baselines) when asked: the build is
 *      data, nothing is found by looking for a file.
 * Every tool runs through fork/exec with an argument array (proc.h): file names
 * are data, never make or shell text. Outputs keep their paths:
 * OUT/{runner,runner.ptx,student.o,model,model-tables,bench}, and OUT/build.log
 * holds what the tools printed. The outcome is a build_result, handed to the
 * checks as data (check_types.h). */
#ifndef SCANLAB_BUILD_H
#define SCANLAB_BUILD_H

#include "build_types.h"

/* Sets up the toolchain: nvcc's path and GENCODE's words (split at blanks).
 * Returns 0, or -1 with a one-line reason in why. */
int build_tools_init(build_tools *t, const char *nvcc, const char *gencode, char *why, size_t cap);

/* Builds (or reuses) spec's build into r; r->status says how it went. */
void build_run(const build_spec *spec, build_result *r);
void build_result_free(build_result *r);
const char *build_status_name(build_status s);

#endif
