/* render_spec.h: the renderer's constants (assignment 05), macros only, so that
 * the CPU reference (judge/render_cpu.h, scene.h, which include this file by
 * its path) and the GPU code students write (renderer.h, beside it) read the same
 * numbers from one place. It lives with the assignment because a student's file
 * may include only its assignment's headers (grader/inspect/inspect-student.sh). */
#ifndef SCANLAB_RENDER_SPEC_H
#define SCANLAB_RENDER_SPEC_H

/* Alpha of every circle in a normal scene. */
#define RENDER_ALPHA 0.5f

/* Snow: a flake's radius grows with its nearness z in [0, 1] (0 far, 1 near),
 * r = SCENE_SNOW_R_FAR + (SCENE_SNOW_R_NEAR - SCENE_SNOW_R_FAR) * z, so the
 * renderer recovers z (and the depth factor of its alpha) from r alone. */
#define SCENE_SNOW_R_FAR 0.0015f
#define SCENE_SNOW_R_NEAR 0.025f

/* Snow background: grey from SNOW_BG_BOTTOM (py = 0) to SNOW_BG_TOP (py = 1). */
#define SNOW_BG_BOTTOM 0.15f
#define SNOW_BG_TOP 0.5f

/* The snow ramp: colour at t = i / (SNOW_RAMP_LEN - 1), linear between; the
 * index s = min(t, 1) * (SNOW_RAMP_LEN - 1) is clamped at t = 1. Centre white,
 * then paler blues towards the rim. An initializer for a float[SNOW_RAMP_LEN][3]. */
#define SNOW_RAMP_LEN 4
#define SNOW_RAMP_TABLE                                                                                                \
  {                                                                                                                    \
    {1.00f, 1.00f, 1.00f}, {0.92f, 0.95f, 1.00f}, {0.78f, 0.86f, 0.98f}, { 0.60f, 0.72f, 0.92f }                       \
  }

#endif
