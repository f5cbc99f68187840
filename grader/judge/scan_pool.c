/* scan_pool.c: windows of a pool, checked against its prefix sums (scan_pool.h). */
#include "scan_pool.h"

#include <stdio.h>
#include <stdlib.h>

#include "parallel.h"
#include "prng.h"

int scan_pool_open(scan_pool *p, uint64_t seed, size_t n, uint32_t add_span, char *err, size_t cap) {
  p->n = n;
  p->len = n + SCAN_POOL_SLACK;
  p->seed = seed;
  p->add_span = add_span;
  p->s0 = judge_call_seed(seed, UINT64_MAX) % SCAN_POOL_SLACK;
  p->prefix = NULL;
  p->pool = malloc(p->len * sizeof *p->pool);
  if (!p->pool) return snprintf(err, cap, "out of host memory for %zu values", p->len), -1;
  return 0;
}

int scan_pool_sum(scan_pool *p, char *err, size_t cap) {
  p->prefix = malloc((p->len + 1) * sizeof *p->prefix);
  if (!p->prefix) return snprintf(err, cap, "out of host memory for %zu sums", p->len + 1), -1;
  p->prefix[0] = 0;
  /* the course's one CPU scan, chunk by chunk on all host threads (mod 2^32) */
  judge_parallel_prefix(p->pool, p->prefix + 1, p->len);
  return 0;
}

int scan_pool_open_i32(judge_case *c, scan_pool *p, int32_t max_abs, uint32_t add_span, char *err, size_t cap) {
  size_t n = (size_t)c->n, room = n ? n : 1;
  if (scan_pool_open(p, c->seed, n, add_span, err, cap)) return -1;
  prng_fill_i32(c->seed, (int32_t *)p->pool, p->len, -max_abs, max_abs);
  if (scan_pool_sum(p, err, cap)) return -1;
  c->n_in = c->n_out = 1;
  c->in[0] = (spec_buf){.name = "in", .type = ELEM_INT32, .count = n, .device_count = room};
  c->out[0] = (spec_buf){.name = "out", .type = ELEM_INT32, .count = n, .device_count = room};
  return 0;
}

void scan_pool_window(const scan_pool *p, uint64_t k, size_t *start, uint32_t *add) {
  *start = (size_t)((p->s0 + k * SCAN_POOL_STEP) % SCAN_POOL_SLACK);
  uint32_t r = (uint32_t)(judge_call_seed(p->seed, k) >> 32);
  if (p->add_span == SCAN_POOL_NO_ADD) *add = 0;
  else if (p->add_span == 0) *add = r;
  else *add = (uint32_t)((int64_t)(r % (2 * (uint64_t)p->add_span + 1)) - (int64_t)p->add_span);
}

void scan_pool_input(const scan_pool *p, uint64_t k, uint32_t *dst) {
  size_t start;
  uint32_t add;
  scan_pool_window(p, k, &start, &add);
  judge_parallel_add(dst, p->pool + start, p->n, add);
}

typedef struct check_ctx {
  const uint32_t *prefix, *got; /* prefix: from the window's start */
  size_t L;
  uint32_t own, add;
  const spec_buf *b;
} check_ctx;

/* Segment by segment, so that the segment's first element g costs one
 * division a segment rather than one an element (a 64-bit division is tens of
 * cycles: it was most of a 2^24-element check). */
static void check_chunk(void *arg, size_t lo, size_t hi, spec_verdict *v) {
  const check_ctx *c = arg;
  for (size_t i = lo; i < hi;) {
    size_t g = c->L ? i - i % c->L : 0, end = c->L && g + c->L < hi ? g + c->L : hi;
    uint32_t base = c->prefix[g], run = (uint32_t)(i - g + c->own) * c->add;
    for (; i < end; i++, run += c->add)
      if (c->got[i] != c->prefix[i + c->own] - base + run) judge_verdict_bad(v, c->b, i);
  }
}

void scan_pool_check(const scan_pool *p, uint64_t k, size_t L, int inclusive, const uint32_t *got, const spec_buf *b,
                     spec_verdict *v) {
  size_t start;
  check_ctx c = {.got = got, .L = L, .own = inclusive ? 1 : 0, .b = b};
  scan_pool_window(p, k, &start, &c.add);
  c.prefix = p->prefix + start;
  judge_parallel_check(p->n, check_chunk, &c, v);
}

void scan_pool_close(scan_pool *p) {
  free(p->pool);
  free(p->prefix);
  p->pool = p->prefix = NULL;
}
