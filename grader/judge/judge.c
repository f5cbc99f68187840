/* judge.c: comparing one call's outputs, and the seed of each call (judge.h). */
#include "judge.h"

#include <string.h>

#include "parallel.h"
#include "prng.h"

uint64_t judge_call_seed(uint64_t seed, uint64_t k) {
  /* One SplitMix64 step over (seed, k): neighbouring calls get unrelated inputs. */
  prng g;
  prng_seed(&g, seed ^ (0x9e3779b97f4a7c15ull * (k + 1)));
  return prng_next(&g);
}

void judge_verdict_bad(spec_verdict *v, const spec_buf *b, uint64_t i) {
  v->mismatches++;
  if (v->first_bad >= 0) return;
  v->first_bad = (int64_t)i;
  if (b->type == ELEM_RGBA32F && b->width > 0) {
    v->first_x = (int64_t)(i % (uint64_t)b->width);
    v->first_y = (int64_t)(i / (uint64_t)b->width);
  }
}

typedef struct compare_ctx {
  const spec_buf *b;
  const void *got, *want;
  const uint8_t *mask;
} compare_ctx;

/* Elements lo .. hi - 1 of one output. */
static void compare_chunk(void *arg, size_t lo, size_t hi, spec_verdict *v) {
  const compare_ctx *c = arg;
  const spec_buf *b = c->b;
  const uint8_t *mask = c->mask;
  if (b->type == ELEM_INT32 || b->type == ELEM_UINT32) {
    /* The common case first: equal bits, found a block at a time. */
    const uint32_t *g = c->got, *w = c->want;
    for (size_t i = lo, step = 4096; i < hi; i += step) {
      size_t len = hi - i < step ? hi - i : step;
      if (!mask && !memcmp(g + i, w + i, len * 4)) continue;
      for (size_t j = i; j < i + len; j++) {
        if (mask && mask[j]) {
          v->masked++;
          continue;
        }
        if (g[j] != w[j]) judge_verdict_bad(v, b, j);
      }
    }
    return;
  }
  for (size_t i = lo; i < hi; i++) {
    if (mask && mask[i]) {
      v->masked++;
      continue;
    }
    elem_verdict e = elem_judge(b->type, c->got, c->want, i, b->tol);
    if (e.wrong) judge_verdict_bad(v, b, i);
    v->nonfinite += (uint64_t)e.nonfinite;
    if (e.err > v->max_err) v->max_err = e.err;
  }
}

void judge_compare(const spec_buf *b, const void *got, const void *want, const uint8_t *mask, spec_verdict *v) {
  compare_ctx c = {b, got, want, mask};
  /* Integers: a thread per 2^20; floats and pixels (a finite test and a
   * difference per channel): a thread per 2^16, so a 1024 x 1024 image is
   * compared on 16 threads, not one. */
  judge_parallel_check_by(b->count, b->type == ELEM_INT32 || b->type == ELEM_UINT32 ? (size_t)1 << 20 : (size_t)1 << 16,
                          compare_chunk, &c, v);
}
