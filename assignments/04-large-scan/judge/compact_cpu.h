/* compact_cpu.h: the one CPU reference for stream compaction (04's find_repeats).
 *
 * find_repeats keeps the indices i with a[i] == a[i + 1]: a compaction of the
 * index sequence 0..n-2 under that predicate, in increasing order. */
#ifndef SCANLAB_COMPACT_CPU_H
#define SCANLAB_COMPACT_CPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes every i in [0, n - 1) with a[i] == a[i + 1] to indices[0..count), in
 * increasing order, and returns count (at most n - 1; 0 when n < 2). indices
 * may be NULL to count only; otherwise it needs room for n - 1 elements. */
size_t compact_cpu_repeats(const uint32_t *a, size_t n, uint32_t *indices);

#ifdef __cplusplus
}
#endif
#endif
