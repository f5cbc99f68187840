/* parallel.h: the judge's per-call loops on all host threads.
 *
 * A call of 2^24..2^28 elements costs the judge two passes (write the input,
 * check the output); on a GPU host of 16 cores these run in parallel, so the
 * judge keeps up with the GPU between calls. Small calls stay on one thread. */
#ifndef SCANLAB_PARALLEL_H
#define SCANLAB_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "verdict.h"

/* dst[i] = src[i] + add (mod 2^32) for i < n: a window of a pool plus a constant. */
void judge_parallel_add(uint32_t *dst, const uint32_t *src, size_t n, uint32_t add);

/* Runs fn over [0, n) in index-ordered chunks, each with a verdict of its own,
 * and merges them into v: counts added, the largest error kept, and first_bad
 * (with its pixel) from the earliest chunk that has one. */
typedef void (*judge_chunk_fn)(void *ctx, size_t lo, size_t hi, spec_verdict *v);
void judge_parallel_check(size_t n, judge_chunk_fn fn, void *ctx, spec_verdict *v);
/* The same with a thread per `chunk` elements (judge_parallel_check: 2^20, for
 * 4-byte elements; an image's 16-byte pixels cost more each). */
void judge_parallel_check_by(size_t n, size_t chunk, judge_chunk_fn fn, void *ctx, spec_verdict *v);

/* A case's set-up, on all host threads: a = prng_fill_u32(seed, a, n); and the
 * inclusive prefix sums out[i] = in[0] + ... + in[i] (mod 2^32), each chunk by
 * the course's one CPU scan (scan_cpu_i32), then each chunk moved by the sum of
 * the chunks before it. out may not alias in. */
void judge_parallel_fill_u32(uint64_t seed, uint32_t *a, size_t n);
void judge_parallel_prefix(const uint32_t *in, uint32_t *out, size_t n);

#endif
