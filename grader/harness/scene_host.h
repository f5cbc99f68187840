/* scene_host.h: the host side of assignment 05's harness: a scene of the
 * table as plain arrays, the seeded jitter between timed frames, and the CPU
 * reference image with its edge mask (scene.h and render_cpu.h behind hx_
 * names, since this header shares a translation unit with the student's file,
 * where `circle`, `scene` or `image` may well be the student's own names). */
#ifndef SCANLAB_SCENE_HOST_H
#define SCANLAB_SCENE_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hx_scene hx_scene; /* opaque: a scene.h scene */

/* Makes the scene table's row `name`; NULL with a one-line reason in err. */
hx_scene *hx_scene_open(const char *name, char *err, size_t errcap);
void hx_scene_close(hx_scene *s);
size_t hx_scene_count(const hx_scene *s);
/* 1 for a snow scene (alpha and colour from the distance), 0 for a normal one. */
int hx_scene_is_snow(const hx_scene *s);
/* The circles as arrays of hx_scene_count elements: x, y, r, and rgb (3 per circle). */
void hx_scene_arrays(const hx_scene *s, float *x, float *y, float *r, float *rgb);
/* scene_jitter: moves every circle a little, a function of (seed, frame, index). */
void hx_scene_jitter(hx_scene *s, uint64_t seed, int frame);
/* The CPU reference at w x h with every host thread: rgba holds 4*w*h floats,
 * mask w*h bytes (1 = edge pixel, not compared). Returns 0, or -1 with a reason. */
int hx_scene_render_cpu(const hx_scene *s, int w, int h, float *rgba, uint8_t *mask, char *err, size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
