/* build_step.h: one tool of the build (nvcc, the inspection) run through
 * fork/exec with an argument array (proc.h), what it printed kept in the build's
 * log, and a failure turned into the build's status and one-line reason. */
#ifndef SCANLAB_BUILD_STEP_H
#define SCANLAB_BUILD_STEP_H

#include <stdio.h>

#include "build_types.h"

/* A step's wall-clock limit: a compile past it is stopped and reported. */
#define BUILD_STEP_LIMIT_S 1800

typedef enum step_kind {
  STEP_COMPILE, /* a failure: does not compile */
  STEP_LINK,    /* compiles and links: a linker's error is "does not link", a compiler's "does not compile" */
  STEP_INSPECT  /* grader/inspect/inspect-student.sh: exit 1 is a refusal, its stdout the line */
} step_kind;

typedef struct step_log {
  FILE *f;           /* OUT/build.log */
  const char *stage; /* the staging folder, shown in messages as... */
  const char *label; /* ...the student's folder */
  int echo;          /* also print what the tool printed on stdout */
} step_log;

/* Runs argv (argv[0] a path). Returns 0 when it exited 0; otherwise sets
 * r->status, r->reason and r->messages and returns -1. */
int build_step(build_result *r, const step_log *log, step_kind kind, char *const argv[]);

/* The first line of text that reads as an error (a compiler's, ptxas', nvcc's,
 * the linker's), else its last non-empty line, cut to fit out. */
void build_first_error(const char *text, char *out, size_t cap);

/* path of program in $PATH ("" when not found). */
void build_find_program(const char *program, char *path, size_t cap);

#endif
