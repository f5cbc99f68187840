/* compare.h: how one output element is judged against the CPU reference.
 *
 * The one definition of "this element is right", used by the judge (trusted
 * side: grader/judge/) for every call's outputs, and by the tests:
 *   - int32 / uint32: equal bits;
 *   - float32 and each channel of an rgba32f pixel: |got - expected| <= tol,
 *     and a NaN or infinity in the output is always wrong;
 *   - an element whose mask byte is set is not compared (counted as masked). */
#ifndef SCANLAB_COMPARE_H
#define SCANLAB_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* The types of outputs. */
typedef enum elem_type {
  ELEM_INT32,   /* compared exactly */
  ELEM_UINT32,  /* compared exactly */
  ELEM_FLOAT32, /* |got - expected| <= tol; a NaN or infinity always fails */
  ELEM_RGBA32F, /* an image of width x height float4 pixels, row 0 at the bottom;
                 each channel within tol; a pixel whose mask byte is set is not compared */
  ELEM_TYPE_COUNT
} elem_type;

/* The verdict on one element. */
typedef struct elem_verdict {
  int wrong;     /* 1: counts as a mismatch */
  int nonfinite; /* 1: the output holds a NaN or an infinity (also wrong) */
  float err;     /* largest |got - expected| over its finite channels (0 for integers) */
} elem_verdict;

/* Channels per element of each type. */
static inline int elem_channels(elem_type t) { return t == ELEM_RGBA32F ? 4 : 1; }
/* Bytes per element of each type (all channels are 4 bytes). */
static inline size_t elem_bytes(elem_type t) { return 4u * (size_t)elem_channels(t); }

static inline int elem_finite(float x) {
  /* NaN and infinity have every exponent bit set; this holds under fast math too. */
  union { float f; uint32_t u; } b;
  b.f = x;
  return (b.u & 0x7f800000u) != 0x7f800000u;
}

/* Judges element i of got against expected (both arrays of type t). */
static inline elem_verdict elem_judge(elem_type t, const void *got, const void *expected, size_t i, float tol) {
  elem_verdict v = {0, 0, 0.0f};
  if (t == ELEM_INT32 || t == ELEM_UINT32) {
    v.wrong = ((const uint32_t *)got)[i] != ((const uint32_t *)expected)[i];
    return v;
  }
  int ch = elem_channels(t);
  const float *g = (const float *)got + i * (size_t)ch, *e = (const float *)expected + i * (size_t)ch;
  for (int c = 0; c < ch; c++) {
    if (!elem_finite(g[c])) {
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
 * (ELEM_NONE when nothing was wrong). */
#define ELEM_NONE UINT64_MAX
typedef struct elem_tally {
  uint64_t mismatches, masked, nonfinite, first_bad;
  float max_err;
} elem_tally;

#endif
