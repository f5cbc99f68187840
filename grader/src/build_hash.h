/* build_hash.h: what the build's content hash covers besides the staged files
 * (submission.h): the course files it depends on, and the toolchain.
 *
 * Two hashes, kept apart so that a build carried to another machine can be
 * checked against the files there without a compiler (grade --no-build):
 *   files: the staged files, the assignment's build keys, and every regular file
 *          directly in assignments/NN (its interface headers, grade.conf), in
 *          its runner/ folder, in its judge/ folder where a model is declared,
 *          in grader/runner and grader/protocol, and the inspection's files
 *          (grader/inspect/inspect-student.sh and the files it reads beside it);
 *   tools: nvcc's path and `nvcc --version`, GENCODE, and the libraries the
 *          links take (build/runner/librunner.a, build/runner/sandbox.o, and
 *          build/lib/libcourse.a where there is a model). */
#ifndef SCANLAB_BUILD_HASH_H
#define SCANLAB_BUILD_HASH_H

#include <stddef.h>

#include "build_types.h"
#include "sha256.h"

/* Adds the course files of assignment folder adir to h (with_judge: its judge/ folder too). 0, or -1 with why. */
int build_hash_course(sha256 *h, const char *adir, int with_judge, char *why, size_t cap);
/* Adds the toolchain to h (runs `nvcc --version`). 0, or -1 with why. */
int build_hash_tools(sha256 *h, const build_tools *t, int with_model, char *why, size_t cap);

#endif
