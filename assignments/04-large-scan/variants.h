/* variants.h: assignment 04's variant table, the one list the judge's spec
 * (spec.c, trusted) and the runner (runner.cu, with the student's code) both
 * expand, so their variant numbers cannot differ. Plain C: no student code. */
#ifndef LS_VARIANTS_H
#define LS_VARIANTS_H

/* X(ID, slug, summary) */
#define LS_VARIANT_LIST(X)                                                                                           \
  X(DECOUPLED_LOOKBACK, "decoupled_lookback", "graded: exclusive_scan, single pass, 64-bit tile status words, ticketed tiles") \
  X(HIERARCHICAL, "hierarchical", "scan tiles, scan the tile sums recursively, add back")                             \
  X(LOOKBACK_ACQREL, "lookback_acqrel", "single pass, separate flag and value ordered by release/acquire")              \
  X(REDUCE_THEN_SCAN, "reduce_then_scan", "sum the tiles, scan the sums, scan each tile from its sum")                  \
  X(FIND_REPEATS, "find_repeats", "graded: indices i with a[i] == a[i+1], a compaction on the scan")

/* The bench build's rows beyond the variants (baselines.cu): X(ID, slug, summary, variant it shares). */
#define LS_BASELINE_LIST(X)                                                                                          \
  X(CUB_EXCLUSIVE_SUM, "cub_exclusive_sum", "cub::DeviceScan::ExclusiveSum", LS_DECOUPLED_LOOKBACK)                  \
  X(CUB_SELECT_REPEATS, "cub_select_repeats", "cub::DeviceSelect::If over indices, a[i] == a[i+1]", LS_FIND_REPEATS)

#define LS_ENUM(id, slug, summary) LS_##id,
typedef enum ls_variant_id { LS_VARIANT_LIST(LS_ENUM) LS_N_VARIANTS } ls_variant_id;
#undef LS_ENUM
#define LS_BENUM(id, slug, summary, variant) LS_##id,
typedef enum ls_baseline_id { LS_BASELINE_LIST(LS_BENUM) LS_N_BASELINES } ls_baseline_id;
#undef LS_BENUM

/* A case's param: the input kind (spec.c) in the low byte; LS_STRESS makes the
 * runner run a hog kernel beside each call (runner.cu), so some tiles publish late. */
#define LS_KIND_MASK 0xffu
#define LS_STRESS 0x100u

/* The largest n (its element type is unsigned: sums wrap modulo 2^32). */
#define LS_MAX_N ((unsigned long long)1 << 28)
/* The starter's tile (large_scan.h's STARTER_TILE): cases tiles2 and tiles2+1 sit on either side of its bug. */
#define LS_STARTER_TILE 1024

#endif
