/* render_cpu.h: the one CPU reference renderer of assignment 05 (the semantics
 * below; docs/scene-format.md states them for students).
 *
 * Pixel (x, y) of a W x H image, row 0 at the bottom, has its centre at
 *   px = (x + 0.5f) / W,  py = (y + 0.5f) / H          (float division)
 * and circle c covers it when, in float and in this order,
 *   dx = px - c.x;  dy = py - c.y;  d2 = dx*dx + dy*dy;  d2 <= c.r * c.r
 * (the edge is included). Each pixel starts as the background and blends the
 * circles that cover it in increasing index, with this circle's alpha a and colour C:
 *   P.rgb = a * C + (1 - a) * P.rgb;   P.a += a
 * Normal scenes: background (1,1,1,1); a = 0.5; C = c.rgb.
 * Snow scenes:   background grey g = SNOW_BG_BOTTOM + (SNOW_BG_TOP - SNOW_BG_BOTTOM) * py,
 *                alpha 1; t = sqrtf(d2) / c.r; a = 0.5 * depth * expf(-4 t^2) with
 *                depth = render_snow_depth(c.r); C = c.rgb * render_snow_ramp(t).
 *
 * The arithmetic is float, unfused (C11 without contraction), in the order
 * written here: what a GPU kernel computing the same expressions does, up to
 * the FMAs nvcc may contract and expf's last bits, which the 1e-3 tolerance
 * absorbs. Where those can flip coverage, the mask says so:
 *
 * Edge mask: mask[i] = 1 when the exact distance from pixel i's (float) centre
 * to some circle's (float) centre is within RENDER_EDGE_EPS of that circle's
 * radius, computed in double. Such pixels are not compared. Why 1e-6: a float
 * near 1 has a spacing of 2^-23 = 1.2e-7, so a kernel that computes the pixel
 * centre another way (a reciprocal, an FMA) or contracts d2 lands at most a few
 * 1e-7 away from this reference; 1e-6 covers that with a margin of about 5,
 * and is 1/1000 of a pixel at 1024, so few pixels are masked (a circle of
 * radius r masks about 4 pi r W H 1e-6 pixels: 0.6 per circle of r = 0.05 at 1024^2). */
#ifndef SCANLAB_RENDER_CPU_H
#define SCANLAB_RENDER_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"
/* The renderer's constants live at the top of this assignment, where renderer.h (the student's side) includes them too. */
#include "../render_spec.h"
#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RENDER_EDGE_EPS 1e-6
/* The CPU renderer's tile side in pixels (its circle lists are per tile). */
#define RENDER_TILE 16

/* RENDER_ALPHA, the snow background and the ramp (SNOW_RAMP_TABLE) are in assignments/05-renderer/render_spec.h. */
extern const float render_snow_ramp_table[SNOW_RAMP_LEN][3];

/* rgb = ramp colour at t (t >= 0; t > 1 gives the last entry). */
void render_snow_ramp(float t, float rgb[3]);
/* The depth factor of a snowflake of radius r: 0.4 + 0.6 z, with its nearness
 * z = (r - SCENE_SNOW_R_FAR) / (SCENE_SNOW_R_NEAR - SCENE_SNOW_R_FAR) clamped to [0, 1]. */
float render_snow_depth(float r);

/* Renders s at w x h into img (allocated here; free with image_free) with
 * `threads` worker threads (<= 0: one per online CPU; the calling thread works
 * too, and a thread that cannot be started only makes it slower). mask, when
 * not NULL, is w*h bytes the caller owns: 1 for edge pixels, else 0. The result
 * does not depend on threads. Returns 0, or -1 with a reason in err (bad size,
 * no memory). */
int render_cpu(const scene *s, int w, int h, int threads, image *img, uint8_t *mask, char *err, size_t errcap);
/* The same into an image the caller owns (img->width x img->height pixels at
 * img->px): no allocation of 16 bytes a pixel per frame, no copy. */
int render_cpu_into(const scene *s, image *img, int threads, uint8_t *mask, char *err, size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
