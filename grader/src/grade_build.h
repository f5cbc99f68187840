/* grade_build.h: the grader's command line and the student's build (build.h):
 * the toolchain from the options, and one build per assignment graded or
 * built (grade --build-only). */
#ifndef SCANLAB_GRADE_BUILD_H
#define SCANLAB_GRADE_BUILD_H

#include "build.h"

typedef struct grade_build_opts {
  const char *src;           /* starter or solutions: <src>/NN into build/<src>/NN */
  const char *dir, *out;     /* or this folder into that one (one assignment) */
  const char *cuda, *nvcc;   /* where nvcc is */
  const char *gencode;       /* GENCODE (NULL: build/.gencode) */
  int bench, no_build, no_inspect; /* no_inspect: --dir only (grade.c checks) */
} grade_build_opts;

/* The toolchain of o (nvcc's path: --nvcc, else --cuda DIR/bin/nvcc, $CUDA_HOME/bin/nvcc
 * or /usr/local/cuda/bin/nvcc; GENCODE: --gencode, else build/.gencode). 0, or -1 with why. */
int grade_build_tools(const grade_build_opts *o, build_tools *t, char *why, size_t cap);

/* Builds assignment conf as o says into r; label gets the folder's name for messages. */
void grade_build_one(const grade_build_opts *o, const build_tools *t, const assignment_conf *conf, build_result *r, char *label,
                     size_t cap);

/* grade --build-only: the build of each of names[0..n) and its outcome on a
 * line, nothing graded. Returns status when it is not 0 (a grade.conf error
 * makes it 2), else 1 when a build failed, 0 when every one is ok; 130 when
 * interrupted. */
int grade_build_only(const grade_build_opts *o, const build_tools *t, char names[][CONF_NAME_MAX], int n, int status);

/* path made absolute against the current folder (malloc'd; path itself when already absolute or NULL). */
const char *grade_build_absolute(const char *path);

#endif
