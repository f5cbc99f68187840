/* variants.h: assignment 05's variant table and the layout of a case's param,
 * the one list the judge's spec (spec.c, trusted) and the runner (runner.cu,
 * with the student's code) both expand, so they cannot disagree. Plain C: no
 * student code.
 *
 * The bench has no row beyond the variant: the CPU reference that the old bench
 * build timed (cpu_reference) lives on the judge's side only now, and no
 * runner may hold it. */
#ifndef HX05_VARIANTS_H
#define HX05_VARIANTS_H

#include <stdint.h>

/* X(ID, slug, summary) */
#define HX05_VARIANT_LIST(X) X(RENDER, "render", "the whole frame: clear, binning, drawing (render() in renderer.cu)")

#define HX05_ENUM(id, slug, summary) HX05_##id,
typedef enum hx05_variant_id { HX05_VARIANT_LIST(HX05_ENUM) HX05_N_VARIANTS } hx05_variant_id;
#undef HX05_ENUM

/* A case's param: the image size, width in bits 16..31 and height in bits
 * 0..15, and the scene's shading in bit 48 (HX05_SNOW: render_scene.snow), the
 * one thing about a scene the runner must know that its arrays do not say.
 * Bits 32..47 stay 0, so (int)(param >> 16) still reads the width. */
#define HX05_SIZE(w, h) (((uint64_t)(w) << 16) | (uint64_t)(h))
#define HX05_SNOW ((uint64_t)1 << 48)
#define HX05_WIDTH(param) ((int)(((param) >> 16) & 0xffff))
#define HX05_HEIGHT(param) ((int)((param) & 0xffff))
#define HX05_IS_SNOW(param) ((int)(((param) >> 48) & 1))
/* Every bit a param may have set. */
#define HX05_PARAM_BITS (HX05_SNOW | HX05_SIZE(0xffff, 0xffff))

/* The buffers of one call: the scene's arrays as renderer.h's render_scene has
 * them (x, y, r: n floats each; rgb: 3n), and one output, the image. */
enum { HX05_IN_X, HX05_IN_Y, HX05_IN_R, HX05_IN_RGB, HX05_N_IN };

#endif
