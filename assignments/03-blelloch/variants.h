/* variants.h: assignment 03's variant table, the one list the judge's spec
 * (spec.c, trusted), the runner (runner.cu, with the student's code) and the
 * CPU model (model.cu, through blelloch.h's LAYOUTS) expand, so their variant
 * numbers and names cannot differ; and the one rule for a case's segment
 * length, which both sides need. Plain C: no student code. */
#ifndef BL_VARIANTS_H
#define BL_VARIANTS_H

#include <stdint.h>

/* The three layouts of blelloch.h, in layout order (LAYOUT_STUDENT, LAYOUT_NONE,
 * LAYOUT_GEMS16): X(ID, slug, summary). A variant index below LAYOUT_COUNT is
 * its layout. */
#define BL_LAYOUT_LIST(X)                                                                                  \
  X(PADDED, "blelloch_padded", "tasks 1-4: your scan with your padded_index, thread_element and tree_size") \
  X(UNPADDED, "blelloch_unpadded", "your scan with element i in word i (no padding)")                       \
  X(GEMS16, "blelloch_gems16", "your scan with the 16-bank offset i + (i >> 4) + (i >> 8)")

/* The variants: the layouts, then the course reference. */
#define BL_VARIANT_LIST(X) \
  BL_LAYOUT_LIST(X)        \
  X(THREAD_TOTALS, "blelloch_thread_totals", "course reference, not a task: 8 ints/thread in registers, the tree over 256 totals")

#define BL_ENUM(id, slug, summary) BL_##id,
typedef enum bl_variant_id { BL_VARIANT_LIST(BL_ENUM) BL_N_VARIANTS } bl_variant_id;
#undef BL_ENUM

/* The largest n. */
#define BL_MAX_N ((unsigned long long)1 << 28)
/* The longest segment (blelloch.h's TILE): two elements per thread of a block. */
#define BL_TILE 2048

/* The segment length L of a case: its param; for an ad-hoc `--n N` run (param
 * 0), a whole tile. The judge checks L <= 2048 before the runner sees the case;
 * the last segment is shorter when n is not a multiple of L. */
static inline uint64_t bl_segment_length(uint64_t param) { return param ? param : BL_TILE; }

#endif
