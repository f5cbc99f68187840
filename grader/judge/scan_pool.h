/* scan_pool.h: every call a new input, and its scan checked without an
 * expected array: the judge's side of the scan assignments.
 *
 * A case has a pool of n + SCAN_POOL_SLACK values from its seed (the spec fills
 * it) and their prefix sums P[j] = pool[0] + ... + pool[j - 1] (mod 2^32, by the
 * course's one CPU scan). Call k scans the window of n values at s_k, each plus
 * a constant c_k:
 *     in_k[i] = pool[s_k + i] + c_k                                  (mod 2^32)
 * s_k = (s_0 + k SCAN_POOL_STEP) mod SCAN_POOL_SLACK differs for every k below
 * SCAN_POOL_SLACK (a prime), so every call, warm-ups included, sees another
 * input. With g the first element of i's segment (segments of L from the
 * window's start; L = 0: one segment), the scan of call k is
 *     out_k[i] = P[s_k + i + own] - P[s_k + g] + (i - g + own) c_k    (mod 2^32),
 * own = 1 for an inclusive scan, 0 for an exclusive one. So a case costs one
 * pass over the pool and each call one pass that writes its input and one that
 * checks its output, on all host threads (parallel.h). */
#ifndef SCANLAB_SCAN_POOL_H
#define SCANLAB_SCAN_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "spec.h"

enum { SCAN_POOL_SLACK = 4099, SCAN_POOL_STEP = 1031 };

typedef struct scan_pool {
  uint32_t *pool;   /* n + SCAN_POOL_SLACK values: the spec fills them after scan_pool_open */
  uint32_t *prefix; /* len + 1 sums, after scan_pool_sum */
  size_t n, len;
  uint64_t seed, s0;
  uint32_t add_span; /* c_k in [-add_span, add_span]; 0: any 32-bit value; SCAN_POOL_NO_ADD: none */
} scan_pool;

#define SCAN_POOL_NO_ADD UINT32_MAX

/* Allocates the pool for n values of call-window; 0, or -1 with a reason. */
int scan_pool_open(scan_pool *p, uint64_t seed, size_t n, uint32_t add_span, char *err, size_t cap);
/* The int32 scans: a pool of ints in [-max_abs, max_abs] from c's seed,
 * its sums, and c's buffers: n ints in, n ints out. 0, or -1 with a reason. */
int scan_pool_open_i32(judge_case *c, scan_pool *p, int32_t max_abs, uint32_t add_span, char *err, size_t cap);
/* The prefix sums of the filled pool; 0, or -1 with a reason. */
int scan_pool_sum(scan_pool *p, char *err, size_t cap);
/* Call k's window start and constant. */
void scan_pool_window(const scan_pool *p, uint64_t k, size_t *start, uint32_t *add);
/* Writes call k's input (n values) into dst. */
void scan_pool_input(const scan_pool *p, uint64_t k, uint32_t *dst);
/* Checks call k's scan (segments of L, 0 for one; inclusive or exclusive) into v. */
void scan_pool_check(const scan_pool *p, uint64_t k, size_t L, int inclusive, const uint32_t *got, const spec_buf *b,
                     spec_verdict *v);
void scan_pool_close(scan_pool *p);

#endif
