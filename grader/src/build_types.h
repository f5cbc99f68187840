/* build_types.h: the records of the student's build (build.h): its status, the
 * toolchain, what to build, and the outcome handed to the checks. Below build.c
 * and its steps (build_step, build_check, build_hash, build_recipe), so they use
 * these without including the module that uses them. */
#ifndef SCANLAB_BUILD_TYPES_H
#define SCANLAB_BUILD_TYPES_H

#include <stddef.h>

#include "conf_types.h"
#include "submission.h"

#define BUILD_PATH_MAX 1024
#define BUILD_MAX_GENCODE 32

typedef enum build_status {
  BUILD_OK,
  BUILD_REFUSED,       /* "refused: ..." (the folder, or the inspection of what was compiled) */
  BUILD_MISSING,       /* "missing file X: ..." */
  BUILD_NO_COMPILE,    /* "does not compile: <the first compiler, ptxas or nvcc error line>" */
  BUILD_NO_LINK,       /* "does not link: <the first linker error line>" */
  BUILD_INTERRUPTED,   /* "interrupted: ..." */
  BUILD_OUT_OF_MEMORY, /* "out of memory: ..." */
  BUILD_NOT_BUILT      /* "not built: ..." (no nvcc, no runner library, --no-build and no build of these files) */
} build_status;

/* The toolchain, the same for every assignment of one grading. */
typedef struct build_tools {
  char nvcc[BUILD_PATH_MAX];
  char nvcc_dir[BUILD_PATH_MAX]; /* where cuobjdump is, for the inspection */
  char gencode_text[512];        /* GENCODE as given ("-arch=sm_90", or the fat list) */
  char *gencode[BUILD_MAX_GENCODE]; /* its words (pointers into words_buf) */
  int n_gencode;
  char words_buf[512];
  char version[65]; /* SHA-256 of `nvcc --version`; "" until build_tools_probe ran it */
} build_tools;

typedef struct build_spec {
  const assignment_conf *conf;
  const char *dir;   /* the student's folder */
  const char *label; /* how messages name it ("starter/NN-name") */
  const char *out;   /* the build folder (build/<src>/NN) */
  const build_tools *tools;
  int bench;    /* make the bench build too (where grade.conf declares baselines) */
  int no_build; /* compile nothing: use OUT only if it was built from these files */
  int no_inspect; /* a course fixture built past the inspection (grade --no-inspect; part of the hash) */
} build_spec;

typedef struct build_result {
  build_status status;
  char reason[600];  /* one line, as the table, report.md and results.json show it */
  char *messages;    /* what the failed step printed (malloc'd; NULL when none) */
  int reused;        /* the earlier build matched the hash */
  submission files;  /* the staged files (for the `forbid` scan) */
  char stage[BUILD_PATH_MAX], runner[BUILD_PATH_MAX], ptx[BUILD_PATH_MAX], model[BUILD_PATH_MAX], bench[BUILD_PATH_MAX];
} build_result;

#endif
