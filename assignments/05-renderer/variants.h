/* variants.h: assignment 05's variant table and the layout of a case's param,
 * the one list the judge's spec (spec.c, trusted) and the runner (runner.cu,
 * with the student's code) both expand, so they cannot disagree. Plain C: no
 * student code.
 *
 * The bench has no row beyond the variant: the CPU reference that the old bench
 * build timed (cpu_reference) lives on the judge's side only now, and no
 * runner may hold it. */
#ifndef RT_VARIANTS_H
#define RT_VARIANTS_H

#include <stdint.h>

/* X(ID, slug, summary) */
#define RT_VARIANT_LIST(X) X(RENDER, "render", "the whole frame: clear, binning, drawing (render() in renderer.cu)")

#define RT_ENUM(id, slug, summary) RT_##id,
typedef enum rt_variant_id { RT_VARIANT_LIST(RT_ENUM) RT_N_VARIANTS } rt_variant_id;
#undef RT_ENUM

/* A case's param: the image size, width in bits 16..31 and height in bits
 * 0..15, and the scene's shading in bit 48 (RT_SNOW: render_scene.snow), the
 * one thing about a scene the runner must know that its arrays do not say.
 * Bits 32..47 stay 0, so (int)(param >> 16) still reads the width. */
#define RT_SIZE(w, h) (((uint64_t)(w) << 16) | (uint64_t)(h))
#define RT_SNOW ((uint64_t)1 << 48)
#define RT_WIDTH(param) ((int)(((param) >> 16) & 0xffff))
#define RT_HEIGHT(param) ((int)((param) & 0xffff))
#define RT_IS_SNOW(param) ((int)(((param) >> 48) & 1))
/* Every bit a param may have set. */
#define RT_PARAM_BITS (RT_SNOW | RT_SIZE(0xffff, 0xffff))

/* The buffers of one call: the scene's arrays as renderer.h's render_scene has
 * them (x, y, r: n floats each; rgb: 3n), and one output, the image. */
enum { RT_IN_X, RT_IN_Y, RT_IN_R, RT_IN_RGB, RT_N_IN };

#endif
