/* variants.h: assignment 01's variant table, the one list the judge's spec
 * (spec.c, trusted) and the runner (runner.cu, with the student's code) both
 * expand, so their variant numbers cannot differ. Plain C: no student code. */
#ifndef WS_VARIANTS_H
#define WS_VARIANTS_H

/* X(ID, slug, summary), in the order of the runner's kernels. */
#define WS_VARIANT_LIST(X)                                                                      \
  X(SCRATCH, "scratch", "task 1: data[32+lane] += data[32+lane-k] through shared scratch")        \
  X(SCRATCH_REGISTER, "scratch_register", "task 2: the scratch scan with a register accumulator") \
  X(SYNCWARP, "syncwarp", "task 3: the scratch scan ordered by __syncwarp()")                      \
  X(SHFL, "shfl", "task 3: __shfl_up_sync, no shared memory")

#define WS_ENUM(id, slug, summary) WS_##id,
typedef enum ws_variant_id { WS_VARIANT_LIST(WS_ENUM) WS_N_VARIANTS } ws_variant_id;
#undef WS_ENUM

/* The largest n. */
#define WS_MAX_N ((unsigned long long)1 << 28)
/* Each warp scans a group of this many consecutive elements on its own. */
#define WS_GROUP 32

#endif
