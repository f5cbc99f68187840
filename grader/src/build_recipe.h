/* build_recipe.h: the steps of the student's build (build.h), private to
 * build.c and build_recipe.c: the nvcc and inspection commands, each an argument
 * array, in order. */
#ifndef SCANLAB_BUILD_RECIPE_H
#define SCANLAB_BUILD_RECIPE_H

#include "build_types.h"
#include "build_step.h"

typedef struct build_ctx {
  const build_spec *s;
  build_result *r;
  char adir[BUILD_PATH_MAX]; /* assignments/NN */
  int is_inline, has_model, has_tables, has_baselines;
  step_log log;
  int log_started; /* OUT/build.log was opened for this build */
} build_ctx;

/* OUT/name into dst (BUILD_PATH_MAX). */
void build_out_path(char *dst, const build_spec *s, const char *name);
/* Whether path is a regular file. */
int build_exists(const char *path);
/* Sets r's status and reason; returns -1. */
int build_fail(build_result *r, build_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Every step of a build from nothing, in order (the student's object, its
 * inspection, the runner, runner.ptx, model-tables, model, bench); the first
 * failure ends it. 0, or -1 with c->r set. */
int build_recipe_all(build_ctx *c);
/* The bench build alone (OUT/bench), on an existing build. */
int build_recipe_bench(build_ctx *c);

#endif
