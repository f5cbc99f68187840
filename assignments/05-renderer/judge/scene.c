/* scene.c: the scene table, its generators, animation and the jitter between frames. */
#include "scene.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prng.h"

const char *const scene_mode_names[SCENE_MODE_COUNT] = {[SCENE_NORMAL] = "normal", [SCENE_SNOW] = "snow"};

/* ---------------------------------------------------------------- helpers */

static float uniform(prng *g, float lo, float hi) { return (float)(lo + (hi - lo) * prng_unit(g)); }

static void set_circle(circle *c, float x, float y, float r, float red, float green, float blue) {
  c->x = x, c->y = y, c->r = r;
  c->rgb[0] = red, c->rgb[1] = green, c->rgb[2] = blue;
}

/* Circles [from, to) at uniform centres in the box [x0,x1] x [y0,y1], radii
 * uniform in [rmin, rmax], colours uniform. */
static void random_circles(scene *s, prng *g, size_t from, size_t to, float x0, float x1, float y0, float y1,
                           float rmin, float rmax) {
  for (size_t i = from; i < to; i++) {
    float x = uniform(g, x0, x1), y = uniform(g, y0, y1), r = uniform(g, rmin, rmax);
    float red = uniform(g, 0, 1), green = uniform(g, 0, 1), blue = uniform(g, 0, 1);
    set_circle(&s->c[i], x, y, r, red, green, blue);
  }
}

static prng seeded(uint64_t seed) {
  prng g;
  prng_seed(&g, seed);
  return g;
}

/* ---------------------------------------------------------------- still scenes */

static int make_rgb(scene *s) {
  set_circle(&s->c[0], 0.50f, 0.62f, 0.25f, 1, 0, 0);
  set_circle(&s->c[1], 0.38f, 0.42f, 0.25f, 0, 1, 0);
  set_circle(&s->c[2], 0.62f, 0.42f, 0.25f, 0, 0, 1);
  return 0;
}

static int make_rgby(scene *s) {
  set_circle(&s->c[0], 0.38f, 0.62f, 0.22f, 1, 0, 0);
  set_circle(&s->c[1], 0.62f, 0.62f, 0.22f, 0, 1, 0);
  set_circle(&s->c[2], 0.38f, 0.38f, 0.22f, 0, 0, 1);
  set_circle(&s->c[3], 0.62f, 0.38f, 0.22f, 1, 1, 0);
  return 0;
}

/* The random scenes: circles with uniform centres in [lo, hi]^2 (a little beyond
 * the image, so its edges are covered too), uniform radii and colours. */
static const struct {
  const char *name;
  uint64_t seed;
  float lo, hi, rmin, rmax;
} RANDOM_SCENES[] = {
    {"rand10k", 10000, -0.05f, 1.05f, 0.02f, 0.08f},
    {"rand100k", 100000, -0.05f, 1.05f, 0.02f, 0.08f},
    {"rand1M", 1000000, -0.01f, 1.01f, 0.003f, 0.012f},
    {"micro2M", 2000000, 0.0f, 1.0f, 0.001f, 0.001f},
};

static int make_random(scene *s) {
  for (size_t k = 0; k < sizeof RANDOM_SCENES / sizeof *RANDOM_SCENES; k++)
    if (strcmp(RANDOM_SCENES[k].name, s->name) == 0) {
      prng g = seeded(RANDOM_SCENES[k].seed);
      float lo = RANDOM_SCENES[k].lo, hi = RANDOM_SCENES[k].hi;
      random_circles(s, &g, 0, s->n, lo, hi, lo, hi, RANDOM_SCENES[k].rmin, RANDOM_SCENES[k].rmax);
      return 0;
    }
  return -1; /* a table row names make_random without a RANDOM_SCENES row: a bug, caught by the tests */
}

/* 10k big circles over the whole image and 1k small ones in the top right corner;
 * biglittle draws the big ones first, littlebig the small ones first. */
#define BIG_COUNT 10000
#define LITTLE_COUNT 1000
static int big_and_little(scene *s, int little_first) {
  prng g = seeded(11000);
  size_t big_from = little_first ? LITTLE_COUNT : 0, little_from = little_first ? 0 : BIG_COUNT;
  random_circles(s, &g, big_from, big_from + BIG_COUNT, 0, 1, 0, 1, 0.05f, 0.2f);
  random_circles(s, &g, little_from, little_from + LITTLE_COUNT, 0.8f, 1, 0.8f, 1, 0.002f, 0.01f);
  return 0;
}
static int make_biglittle(scene *s) { return big_and_little(s, 0); }
static int make_littlebig(scene *s) { return big_and_little(s, 1); }

/* Two offset grids, 31 x 31 small circles then 16 x 16 bigger ones (31^2 + 16^2
 * = 1217), both reaching past the image's edges; colours follow position. */
#define GRID_A 31
#define GRID_B 16
static int make_pattern(scene *s) {
  size_t k = 0;
  for (int j = 0; j < GRID_A; j++)
    for (int i = 0; i < GRID_A; i++) {
      float x = -0.05f + 1.1f * (float)i / (GRID_A - 1), y = -0.05f + 1.1f * (float)j / (GRID_A - 1);
      set_circle(&s->c[k++], x, y, 0.015f, 0.2f + 0.8f * (float)i / GRID_A, 0.2f, 0.2f + 0.8f * (float)j / GRID_A);
    }
  for (int j = 0; j < GRID_B; j++)
    for (int i = 0; i < GRID_B; i++) {
      float x = -0.1f + 1.2f * ((float)i + 0.5f) / GRID_B, y = -0.1f + 1.2f * ((float)j + 0.5f) / GRID_B;
      set_circle(&s->c[k++], x, y, 0.035f, 0.1f, 0.4f + 0.6f * (float)((i + j) % 2), 0.3f);
    }
  return 0;
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* 100k white flakes, far (small) ones first: nearness z = u^4 (u uniform, so
 * most flakes are far and small), sorted. As an
 * animation (make movie), near flakes fall faster and everything wraps around. */
#define SNOW_LO (-0.02f)
#define SNOW_SPAN 1.04f
static int make_snow(scene *s) {
  prng g = seeded(424242);
  float *z = malloc(s->n * sizeof *z);
  if (!z) return -1;
  for (size_t i = 0; i < s->n; i++) {
    float u = uniform(&g, 0, 1);
    z[i] = u * u * u * u;
  }
  qsort(z, s->n, sizeof *z, cmp_float);
  for (size_t i = 0; i < s->n; i++) {
    float x = uniform(&g, SNOW_LO, SNOW_LO + SNOW_SPAN), y = uniform(&g, SNOW_LO, SNOW_LO + SNOW_SPAN);
    set_circle(&s->c[i], x, y, SCENE_SNOW_R_FAR + (SCENE_SNOW_R_NEAR - SCENE_SNOW_R_FAR) * z[i], 1, 1, 1);
    s->anim[4 * i] = x, s->anim[4 * i + 1] = y, s->anim[4 * i + 2] = z[i];
  }
  free(z);
  return 0;
}

static void advance_snow(scene *s, int frame) {
  for (size_t i = 0; i < s->n; i++) {
    const float *a = s->anim + 4 * i;
    double fall = (0.002 + 0.006 * a[2]) * frame;
    double y = fmod(a[1] - SNOW_LO - fall, SNOW_SPAN);
    s->c[i].y = (float)(SNOW_LO + (y < 0 ? y + SNOW_SPAN : y));
    s->c[i].x = a[0] + (frame ? 0.01f * a[2] * sinf(0.07f * (float)frame + 37.0f * a[0]) : 0.0f);
  }
}

/* ---------------------------------------------------------------- animated scenes
 * Each keeps its initial state in s->anim (4 floats per circle) and computes
 * frame k from it, so any frame can be rendered without the ones before. */

#define FRAME_DT (1.0f / 30.0f)

/* Balls thrown from random places, falling under gravity, bouncing off the floor and walls. */
static int make_balls(scene *s) {
  prng g = seeded(77);
  random_circles(s, &g, 0, s->n, 0.15f, 0.85f, 0.5f, 0.9f, 0.03f, 0.07f);
  for (size_t i = 0; i < s->n; i++) {
    float *a = s->anim + 4 * i;
    a[0] = s->c[i].x, a[1] = s->c[i].y, a[2] = uniform(&g, -0.6f, 0.6f), a[3] = uniform(&g, -0.2f, 0.4f);
  }
  return 0;
}

static void advance_balls(scene *s, int frame) {
  for (size_t i = 0; i < s->n; i++) {
    const float *a = s->anim + 4 * i;
    float x = a[0], y = a[1], vx = a[2], vy = a[3], r = s->c[i].r;
    for (int f = 0; f < frame; f++) {
      vy -= 2.0f * FRAME_DT;
      x += vx * FRAME_DT, y += vy * FRAME_DT;
      if (y < r) y = 2 * r - y, vy = -0.85f * vy;
      if (x < r) x = 2 * r - x, vx = -vx;
      if (x > 1 - r) x = 2 * (1 - r) - x, vx = -vx;
    }
    s->c[i].x = x, s->c[i].y = y;
  }
}

/* Concentric rings, biggest first, whose brightness travels inwards. */
static int make_hypnosis(scene *s) {
  for (size_t i = 0; i < s->n; i++) {
    float r = 0.7f * (1.0f - (float)i / (float)s->n);
    s->anim[4 * i] = r;
    set_circle(&s->c[i], 0.5f, 0.5f, r, 0, 0, 0);
  }
  return 0;
}

static void advance_hypnosis(scene *s, int frame) {
  for (size_t i = 0; i < s->n; i++) {
    float phase = 6.2831853f * ((float)i / 8.0f - (float)frame / 30.0f);
    float v = 0.5f + 0.5f * sinf(phase);
    float wobble = 0.04f * sinf(0.1f * (float)frame + 0.15f * (float)i);
    set_circle(&s->c[i], 0.5f + wobble, 0.5f + 0.5f * wobble, s->anim[4 * i], v, 0.2f * v, 1.0f - v);
  }
}

/* Bursts of particles, one every 10 frames, repeating every 60; a particle not
 * in flight waits off-image. */
#define BURST_SIZE 100
#define BURST_PERIOD 60
#define BURST_LIFE 40
static int make_fireworks(scene *s) {
  prng g = seeded(4711);
  for (size_t b = 0; b * BURST_SIZE < s->n; b++) {
    float cx = uniform(&g, 0.2f, 0.8f), cy = uniform(&g, 0.45f, 0.85f);
    float red = uniform(&g, 0.3f, 1), green = uniform(&g, 0.3f, 1), blue = uniform(&g, 0.3f, 1);
    for (size_t i = b * BURST_SIZE; i < (b + 1) * BURST_SIZE && i < s->n; i++) {
      float angle = uniform(&g, 0, 6.2831853f), speed = uniform(&g, 0.1f, 0.45f);
      float *a = s->anim + 4 * i;
      a[0] = cx, a[1] = cy, a[2] = speed * cosf(angle), a[3] = speed * sinf(angle);
      set_circle(&s->c[i], cx, cy, 0.012f, red, green, blue);
    }
  }
  return 0;
}

static void advance_fireworks(scene *s, int frame) {
  for (size_t i = 0; i < s->n; i++) {
    const float *a = s->anim + 4 * i;
    int start = (int)(i / BURST_SIZE) * 10;
    int age = ((frame - start) % BURST_PERIOD + BURST_PERIOD) % BURST_PERIOD;
    if (age >= BURST_LIFE) {
      s->c[i].x = s->c[i].y = -0.5f;
      continue;
    }
    float t = (float)age * FRAME_DT;
    s->c[i].x = a[0] + a[2] * t;
    s->c[i].y = a[1] + a[3] * t - 0.5f * 0.6f * t * t;
    s->c[i].r = 0.004f + 0.008f * (1.0f - (float)age / BURST_LIFE);
  }
}

/* ---------------------------------------------------------------- the table */

const scene_def scene_table[] = {
    {"rgb", 3, 0, make_rgb, NULL, "three overlapping circles: red, green, blue"},
    {"rgby", 4, 0, make_rgby, NULL, "four overlapping circles: red, green, blue, yellow"},
    {"rand10k", 10000, 0, make_random, NULL, "10k random circles, r in [0.02, 0.08]"},
    {"rand100k", 100000, 0, make_random, NULL, "100k random circles, r in [0.02, 0.08]"},
    {"rand1M", 1000000, 0, make_random, NULL, "1M random circles, r in [0.003, 0.012]"},
    {"micro2M", 2000000, 0, make_random, NULL, "2M random circles, r = 0.001 (about one pixel at 1024)"},
    {"biglittle", BIG_COUNT + LITTLE_COUNT, 0, make_biglittle, NULL,
     "10k big circles (r 0.05..0.2), then 1k small ones in the top right corner"},
    {"littlebig", BIG_COUNT + LITTLE_COUNT, 0, make_littlebig, NULL,
     "the circles of biglittle with the 1k small ones drawn first"},
    {"pattern", GRID_A * GRID_A + GRID_B * GRID_B, 0, make_pattern, NULL,
     "two offset grids (31x31 and 16x16), partly off-image"},
    {"snow", 100000, 1, make_snow, advance_snow, "100k snowflakes, far ones first (snow mode); falling when animated"},
    {"balls", 16, 1, make_balls, advance_balls, "animated: 16 bouncing balls"},
    {"hypnosis", 40, 1, make_hypnosis, advance_hypnosis, "animated: 40 concentric rings, colours moving inwards"},
    {"fireworks", 6 * BURST_SIZE, 1, make_fireworks, advance_fireworks, "animated: bursts of 100 particles"},
};
const size_t scene_table_len = sizeof scene_table / sizeof scene_table[0];

const scene_def *scene_find(const char *name) {
  for (size_t i = 0; i < scene_table_len; i++)
    if (strcmp(scene_table[i].name, name) == 0) return &scene_table[i];
  return NULL;
}

int scene_make(const char *name, scene *s, char *err, size_t errcap) {
  memset(s, 0, sizeof *s);
  s->animated = -1;
  const scene_def *row = scene_find(name);
  if (!row) {
    size_t used = (size_t)snprintf(err, errcap, "unknown scene \"%s\"; the scenes are:", name);
    for (size_t i = 0; i < scene_table_len && used < errcap; i++)
      used += (size_t)snprintf(err + used, errcap - used, " %s", scene_table[i].name);
    return -1;
  }
  s->name = row->name;
  s->mode = strcmp(row->name, "snow") == 0 ? SCENE_SNOW : SCENE_NORMAL;
  s->n = row->count;
  s->c = calloc(row->count, sizeof *s->c);
  if (row->animated) s->anim = calloc(4 * row->count, sizeof *s->anim);
  if (!s->c || (row->animated && !s->anim) || row->make(s) != 0) {
    scene_free(s);
    snprintf(err, errcap, "scene %s: could not make %zu circles (out of memory)", name, row->count);
    return -1;
  }
  if (row->animated) {
    s->animated = (int)(row - scene_table);
    scene_advance(s, 0);
  }
  return 0;
}

void scene_free(scene *s) {
  free(s->c);
  free(s->anim);
  s->c = NULL;
  s->anim = NULL;
  s->n = 0;
}

void scene_advance(scene *s, int frame) {
  if (s->animated >= 0 && s->anim) scene_table[s->animated].advance(s, frame);
}

void scene_jitter(scene *s, uint64_t seed, int frame) {
  /* The frame number is hashed into the seed: seeding with seed + frame would
   * give frame k+1 the stream of frame k shifted by one number. */
  prng h = seeded((uint64_t)(uint32_t)frame);
  prng g = seeded(seed ^ prng_next(&h));
  for (size_t i = 0; i < s->n; i++) {
    s->c[i].x += (float)((2.0 * prng_unit(&g) - 1.0) * SCENE_JITTER);
    s->c[i].y += (float)((2.0 * prng_unit(&g) - 1.0) * SCENE_JITTER);
  }
}
