/* variants.h: assignment 04's variant table, the one list the judge's spec
 * (spec.c, trusted) and the runner (runner.cu, with the student's code) both
 * expand, so their variant numbers cannot differ. Plain C: no student code. */
#ifndef HX04_VARIANTS_H
#define HX04_VARIANTS_H

/* X(ID, slug, summary) */
#define HX04_VARIANT_LIST(X)                                                                                           \
  X(DECOUPLED_LOOKBACK, "decoupled_lookback", "graded: exclusive_scan, single pass, 64-bit tile status words, ticketed tiles") \
  X(HIERARCHICAL, "hierarchical", "scan tiles, scan the tile sums recursively, add back")                             \
  X(LOOKBACK_ACQREL, "lookback_acqrel", "single pass, separate flag and value ordered by release/acquire")              \
  X(REDUCE_THEN_SCAN, "reduce_then_scan", "sum the tiles, scan the sums, scan each tile from its sum")                  \
  X(FIND_REPEATS, "find_repeats", "graded: indices i with a[i] == a[i+1], a compaction on the scan")

/* The bench build's rows beyond the variants (baselines.cu): X(ID, slug, summary, variant it shares). */
#define HX04_BASELINE_LIST(X)                                                                                          \
  X(CUB_EXCLUSIVE_SUM, "cub_exclusive_sum", "cub::DeviceScan::ExclusiveSum", HX04_DECOUPLED_LOOKBACK)                  \
  X(CUB_SELECT_REPEATS, "cub_select_repeats", "cub::DeviceSelect::If over indices, a[i] == a[i+1]", HX04_FIND_REPEATS)

#define HX04_ENUM(id, slug, summary) HX04_##id,
typedef enum hx04_variant_id { HX04_VARIANT_LIST(HX04_ENUM) HX04_N_VARIANTS } hx04_variant_id;
#undef HX04_ENUM
#define HX04_BENUM(id, slug, summary, variant) HX04_##id,
typedef enum hx04_baseline_id { HX04_BASELINE_LIST(HX04_BENUM) HX04_N_BASELINES } hx04_baseline_id;
#undef HX04_BENUM

/* A case's param: the input kind (spec.c) in the low byte; HX04_STRESS makes the
 * runner run a hog kernel beside each call (runner.cu), so some tiles publish late. */
#define HX04_KIND_MASK 0xffu
#define HX04_STRESS 0x100u

/* The largest n (its element type is unsigned: sums wrap modulo 2^32). */
#define HX04_MAX_N ((unsigned long long)1 << 28)
/* The starter's tile (large_scan.h's STARTER_TILE): cases tiles2 and tiles2+1 sit on either side of its bug. */
#define HX04_STARTER_TILE 1024

#endif
