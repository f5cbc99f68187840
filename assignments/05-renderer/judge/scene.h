/* scene.h: the renderer's scenes (assignment 05): circles, the scene table, the
 * seeded jitter between timed frames, animation, and the text scene file.
 *
 * A circle has a centre (x, y) in normalized coordinates ([0,1]^2 is the image,
 * y up; a centre may lie outside), a radius r and a colour rgb in [0,1]. Circles
 * are drawn in index order. Every generator uses the course PRNG (prng.h) with
 * a fixed seed, so a scene is the same on every machine. The file format is in
 * docs/scene-format.md. Functions return 0, or -1 with a one-line reason in err. */
#ifndef SCANLAB_SCENE_H
#define SCANLAB_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "../render_spec.h" /* the renderer's constants, shared with renderer.h */

#ifdef __cplusplus
extern "C" {
#endif

/* How circles blend (render_cpu.h states the arithmetic of each). */
typedef enum scene_mode {
  SCENE_NORMAL, /* alpha 0.5, flat colour, white background */
  SCENE_SNOW,   /* alpha fades from the centre, colour ramp, grey gradient background */
  SCENE_MODE_COUNT
} scene_mode;

/* The mode names of the scene file ("normal", "snow"), indexed by scene_mode. */
extern const char *const scene_mode_names[SCENE_MODE_COUNT];

typedef struct circle {
  float x, y;   /* centre */
  float r;      /* radius, > 0 */
  float rgb[3]; /* colour (snow: a tint multiplied with the ramp colour) */
} circle;

/* Limits of a valid circle, checked by the file reader. */
#define SCENE_COORD_MIN (-1.0f)
#define SCENE_COORD_MAX 2.0f
#define SCENE_R_MAX 1.0f
#define SCENE_MAX_COUNT ((size_t)1 << 24)

/* SCENE_SNOW_R_FAR and SCENE_SNOW_R_NEAR (a snowflake's radius from its depth) are in assignments/05-renderer/render_spec.h. */

typedef struct scene {
  const char *name; /* the table row's name, or "file" */
  scene_mode mode;
  size_t n;
  circle *c;
  int animated;    /* index into the table's animated rows, or -1: scene_advance does nothing */
  float *anim;     /* per-circle initial state of an animated scene (4 floats each), else NULL */
} scene;

/* One row per scene: the single list that scene_make, the tools, the tests and
 * the docs read. */
typedef struct scene_def {
  const char *name;
  size_t count;
  int animated;
  int (*make)(scene *s);              /* fills s->c[0..count) (and s->anim); -1: no memory */
  void (*advance)(scene *s, int frame); /* animated rows: the scene at frame (0 = as made) */
  const char *about;
} scene_def;

extern const scene_def scene_table[];
extern const size_t scene_table_len;

/* The row named name, or NULL. */
const scene_def *scene_find(const char *name);
/* Makes the named scene. Unknown names get a reason listing the known ones. */
int scene_make(const char *name, scene *s, char *err, size_t errcap);
void scene_free(scene *s);

/* Sets an animated scene to its state at frame (frame 0 = as made); circles may
 * be added or removed only by moving them off-image, so n stays the same. Does
 * nothing for still scenes. */
void scene_advance(scene *s, int frame);

/* The move the runner makes between timed frames so that no work can be
 * reused: circle i moves by (dx, dy), each uniform in [-SCENE_JITTER,
 * SCENE_JITTER] and a function of (seed, frame, i) alone. The moves of frames
 * 1..k add up, so the runner keeps the host copy it uploads and renders the
 * CPU reference from that. */
#define SCENE_JITTER 0x1p-13f
void scene_jitter(scene *s, uint64_t seed, int frame);

/* The scene file (docs/scene-format.md). Errors are "path:line: reason". */
int scene_read(const char *path, scene *s, char *err, size_t errcap);
int scene_write(const scene *s, const char *path, char *err, size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
