/* spec_scan.h: a scan assignment's spec against the course's one CPU scan, for
 * the tests an assignment keeps in assignments/NN/tests/ (its own shape of the
 * scan: segment length, inclusive or exclusive, which variants are scans). */
#ifndef SCANLAB_SPEC_SCAN_H
#define SCANLAB_SPEC_SCAN_H

#include <stddef.h>

#include "spec.h"

/* The largest case spec_scan_cases checks (the larger ones differ only in size). */
#define SPEC_SCAN_MAX_N (((uint64_t)1 << 21) + 3)

/* How variant c->variant of case c (name, n, param and variant set; not opened)
 * scans: its segment length (0: one segment) and whether it is inclusive.
 * Returns 0 when that variant of that case is not a scan this check covers
 * (it is skipped), nonzero otherwise. */
typedef int (*spec_scan_shape)(const judge_case *c, size_t *segment, int *inclusive);

/* For every case of s up to SPEC_SCAN_MAX_N elements and every variant that
 * shape accepts, on calls 0, 1 and 2: the spec's check accepts the CPU scan
 * (scan_cpu_i32, as shape says) of the call's own input, reports one changed
 * element exactly once at its index, and two calls' inputs differ. Fails the
 * test unless at least min_cases cases had a variant checked. */
void spec_scan_cases(const judge_spec *s, spec_scan_shape shape, int min_cases);

#endif
