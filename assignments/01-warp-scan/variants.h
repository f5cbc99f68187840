/* variants.h: assignment 01's variant table, the one list the judge's spec
 * (spec.c, trusted) and the runner (runner.cu, with the student's code) both
 * expand, so their variant numbers cannot differ. Plain C: no student code. */
#ifndef HX01_VARIANTS_H
#define HX01_VARIANTS_H

/* X(ID, slug, summary), in the order of the runner's kernels. */
#define HX01_VARIANT_LIST(X)                                                                      \
  X(SCRATCH, "scratch", "task 1: data[32+lane] += data[32+lane-k] through shared scratch")        \
  X(SCRATCH_REGISTER, "scratch_register", "task 2: the scratch scan with a register accumulator") \
  X(SYNCWARP, "syncwarp", "task 3: the scratch scan ordered by __syncwarp()")                      \
  X(SHFL, "shfl", "task 3: __shfl_up_sync, no shared memory")

#define HX01_ENUM(id, slug, summary) HX01_##id,
typedef enum hx01_variant_id { HX01_VARIANT_LIST(HX01_ENUM) HX01_N_VARIANTS } hx01_variant_id;
#undef HX01_ENUM

/* The largest n. */
#define HX01_MAX_N ((unsigned long long)1 << 28)
/* Each warp scans a group of this many consecutive elements on its own. */
#define HX01_GROUP 32

#endif
