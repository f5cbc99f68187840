/* scan_cpu.h: the one CPU reference for every scan in the course.
 *
 * Arithmetic is on 32-bit unsigned integers, so sums wrap modulo 2^32 exactly
 * as the GPU's int additions do (signed overflow in C would be undefined). */
#ifndef SCANLAB_SCAN_CPU_H
#define SCANLAB_SCAN_CPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum scan_kind { SCAN_INCLUSIVE, SCAN_EXCLUSIVE } scan_kind;

/* Scans in[0..n) into out[0..n). The sum restarts every `segment` elements
 * (segment 0: one segment of length n). in and out may be the same array. */
void scan_cpu_i32(const int32_t *in, int32_t *out, size_t n, size_t segment, scan_kind kind);

#ifdef __cplusplus
}
#endif
#endif
