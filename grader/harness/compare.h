/* compare.h: how one output element is judged against the CPU reference.
 *
 * The one definition of "this element is right", compiled into the GPU
 * comparison kernel (harness.cu), which checks every timed rep on the device,
 * and into the host code of the driver's tests, so both judge alike:
 *   - int32 / uint32: equal bits;
 *   - float32 and each channel of an rgba32f pixel: |got - expected| <= tol,
 *     and a NaN or infinity in the output is always wrong;
 *   - an element whose mask byte is set is not compared (counted as masked).
 * Course-owned and included into the student's translation unit: hx_ names only. */
#ifndef SCANLAB_COMPARE_H
#define SCANLAB_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"

#ifdef __CUDACC__
#define HX_HD __host__ __device__ __forceinline__
#else
#define HX_HD static inline
#endif

/* The verdict on one element. */
typedef struct hx_elem_verdict {
  int wrong;     /* 1: counts as a mismatch */
  int nonfinite; /* 1: the output holds a NaN or an infinity (also wrong) */
  float err;     /* largest |got - expected| over its finite channels (0 for integers) */
} hx_elem_verdict;

/* Channels per element of each type. */
HX_HD int hx_type_channels(hx_type t) { return t == HX_RGBA32F ? 4 : 1; }
/* Bytes per element of each type (all channels are 4 bytes). */
HX_HD size_t hx_type_bytes(hx_type t) { return 4u * (size_t)hx_type_channels(t); }

HX_HD int hx_finite(float x) {
  /* NaN and infinity have every exponent bit set; this holds under fast math too. */
  union { float f; uint32_t u; } b;
  b.f = x;
  return (b.u & 0x7f800000u) != 0x7f800000u;
}

/* Judges element i of got against expected (both arrays of type t). */
HX_HD hx_elem_verdict hx_judge(hx_type t, const void *got, const void *expected, size_t i, float tol) {
  hx_elem_verdict v = {0, 0, 0.0f};
  if (t == HX_INT32 || t == HX_UINT32) {
    v.wrong = ((const uint32_t *)got)[i] != ((const uint32_t *)expected)[i];
    return v;
  }
  int ch = hx_type_channels(t);
  const float *g = (const float *)got + i * (size_t)ch, *e = (const float *)expected + i * (size_t)ch;
  for (int c = 0; c < ch; c++) {
    if (!hx_finite(g[c])) {
      v.nonfinite = 1;
      v.wrong = 1;
      continue;
    }
    float d = g[c] > e[c] ? g[c] - e[c] : e[c] - g[c];
    if (!(d <= tol)) v.wrong = 1; /* also catches an expected NaN (a broken reference) */
    if (d > v.err) v.err = d;
  }
  return v;
}

/* What one comparison of one output found. first_bad is the element index
 * (HX_NONE when nothing was wrong). */
#define HX_NONE UINT64_MAX
typedef struct hx_cmp_sum {
  uint64_t mismatches, masked, nonfinite, first_bad;
  float max_err;
} hx_cmp_sum;

#endif
