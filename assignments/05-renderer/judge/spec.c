/* spec.c: what assignment 05 runs and what is right (the judge's side, trusted).
 *
 * One case is one scene of the table (assignments/05-renderer/judge/scene.c) at one image size.
 * The case's name is the scene's name, with "-WxH" when the size is not
 * 1024x1024; n is the scene's circle count, and param packs the size and the
 * snow flag (variants.h: RT_SIZE, RT_SNOW). The scene is made once per case.
 *
 * Inputs. Call k (warm-ups included) draws frame k: the scene as made, with
 * every circle moved by scene_jitter once for each call 0..k, with that call's
 * seed (judge_call_seed), so the moves add up from call to call as they did
 * between the old harness's timed frames and no frame is the one before it.
 * The runner gets the frame as render_scene's arrays: x, y, r (n floats each)
 * and rgb (3n), four input buffers.
 *
 * What is right: the CPU reference of that frame (assignments/05-renderer/judge/render_cpu.c, on
 * every host thread) with its edge mask; each channel of each pixel within
 * TOL, edge pixels not compared, NaN or infinity wrong (compare.h). The judge
 * writes a batch's inputs before it asks for their expected images, so the
 * inputs and the expected images each walk their own copy of the scene from
 * frame to frame (one jitter a call: the judge asks for calls in increasing
 * order), and nothing is read back from the buffers the runner shares.
 *
 * What a case costs: the CPU reference of every call (warm-ups included), on
 * all host threads; the jitter and the arrays are one pass over the circles
 * (micro2M: 35 ms), and the scene is made once per case. expect() per call,
 * measured on 2 cores of a container at 1024x1024: rand100k 7.1 s, biglittle
 * 4.9 s, rand1M 4.4 s, littlebig 2.9 s, micro2M 1.7 s, snow 0.68 s, rand10k
 * 0.64 s, rgb, rgby and pattern 0.03 s; the small -WxH cases 2 to 140 ms. The
 * H100 host's 16 cores are about 8 times faster (rand100k 0.35 to 0.5 s).
 *
 * Batches. A frame of the small cases takes 10 to 150 us on the GPU, where the
 * launch and the timer's events would swing a one-call sample: those cases
 * time `batch` frames back to back per sample (16 for the frames of about
 * 15 us; 8 for rand10k-256x256 and snow-256x256, whose reference frames cost
 * more; 4 for rand10k's 0.14 ms), with fewer reps than before, since every
 * frame of a sample has its reference drawn. The big scenes take 0.5 ms or
 * more a frame: one call per sample. A sample's time is divided by its batch:
 * the result is ms per frame.
 *
 * Napkin math (bytes_moved): a frame must write every pixel once (16 bytes)
 * and read every circle once (x, y, r and rgb: 24 bytes). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "spec.h"
#include "render_cpu.h"
#include "scene.h"
#include "variants.h"

static const float TOL = 1e-3f;

#define X(id, slug, summary) {slug, summary},
static const spec_variant variants[] = {RT_VARIANT_LIST(X)};
#undef X

#define FULL RT_SIZE(1024, 1024)

/* Small cases first: the GPU tier runs memcheck on the first three.
 * {name, n, seed, reps, param, batch} */
static const spec_case cases[] = {
    {"rgb-256x256", 3, 51, 4, RT_SIZE(256, 256), 16},
    {"rgby-100x75", 4, 52, 4, RT_SIZE(100, 75), 16},
    {"pattern-333x211", 1217, 53, 4, RT_SIZE(333, 211), 16},
    {"rand10k-256x256", 10000, 54, 4, RT_SIZE(256, 256), 8},
    {"snow-256x256", 100000, 55, 4, RT_SNOW | RT_SIZE(256, 256), 8},
    {"balls-512x512", 16, 56, 4, RT_SIZE(512, 512), 16},
    {"hypnosis-512x512", 40, 57, 4, RT_SIZE(512, 512), 16},
    {"fireworks-512x512", 600, 58, 4, RT_SIZE(512, 512), 16},
    /* 10k circles on 80x60 pixels (20 tiles of 16x16, partial ones at the edges): more circles than
     * the reference's small path takes (rt_policy::small_n, 2048), so it bins, sorts and draws by
     * tile lists, on a frame small enough for racecheck (grade.conf's racecheck runs it). */
    {"rand10k-80x60", 10000, 59, 4, RT_SIZE(80, 60), 16},
    {"rgb", 3, 61, 10, FULL, 16},
    {"rgby", 4, 62, 10, FULL, 16},
    {"pattern", 1217, 63, 10, FULL, 32},
    {"rand10k", 10000, 64, 10, FULL, 8},
    {"rand10k-1000x1003", 10000, 65, 4, RT_SIZE(1000, 1003), 4},
    {"rand100k", 100000, 66, 20, FULL, 1},
    {"rand1M", 1000000, 67, 20, FULL, 1},
    {"micro2M", 2000000, 68, 20, FULL, 2},
    {"biglittle", 11000, 69, 30, FULL, 2},
    {"littlebig", 11000, 70, 30, FULL, 1},
    {"snow", 100000, 71, 50, RT_SNOW | FULL, 2},
};

/* make bench A=05: ms per frame for every 1024x1024 scene (the handout's table). */
static const char *const bench_cases[] = {"rgb",      "rgby",    "pattern",   "rand10k",   "rand100k",
                                          "rand1M",   "micro2M", "biglittle", "littlebig", "snow"};

/* A copy of the scene that moves from frame to frame: it holds frame `next - 1`
 * (next == 0: the scene as made). */
typedef struct walker {
  scene s; /* shares the base's name and mode; its own circles */
  uint64_t next;
} walker;

typedef struct state {
  scene base;         /* as made, once per case */
  walker in, want;    /* the frames of input() and of expect() */
  int w, h;
} state;

static void walker_reset(const state *st, walker *f) {
  memcpy(f->s.c, st->base.c, st->base.n * sizeof *st->base.c);
  f->next = 0;
}

/* The circles of frame k into f. Calls come in increasing k, so each costs
 * one jitter; a frame before the walker's starts over from the scene as made. */
static const scene *walk_to(const judge_case *c, walker *f, uint64_t k) {
  const state *st = c->state;
  if (k + 1 < f->next) walker_reset(st, f);
  for (; f->next <= k; f->next++) scene_jitter(&f->s, judge_call_seed(c->seed, f->next), 0);
  return &f->s;
}

static void close_case(judge_case *c) {
  state *st = c->state;
  if (!st) return;
  scene_free(&st->base);
  free(st->in.s.c);
  free(st->want.s.c);
  free(st);
  c->state = NULL;
}

static int walker_init(const state *st, walker *f) {
  f->s = st->base;
  f->s.animated = -1; /* a still copy: nothing of it is advanced */
  f->s.anim = NULL;
  f->s.c = malloc(st->base.n * sizeof *st->base.c);
  if (!f->s.c) return -1;
  walker_reset(st, f);
  return 0;
}

static int open_case(judge_case *c, char *err, size_t cap) {
  if (!c->param)
    return snprintf(err, cap, "--n is not supported: run a named case (--case NAME; --list shows them)"), -1;
  int w = RT_WIDTH(c->param), h = RT_HEIGHT(c->param), snow = RT_IS_SNOW(c->param);
  if (c->param & ~RT_PARAM_BITS || w < 1 || h < 1 || w > IMAGE_MAX_SIDE || h > IMAGE_MAX_SIDE)
    return snprintf(err, cap, "param %#" PRIx64 " is not an image size (each side 1..%d) and a snow flag", c->param,
                    IMAGE_MAX_SIDE), -1;
  char name[64];
  snprintf(name, sizeof name, "%s", c->name);
  name[strcspn(name, "-")] = 0; /* "rand10k-1000x1003" draws the scene rand10k */
  state *st = calloc(1, sizeof *st);
  if (!st) return snprintf(err, cap, "out of host memory"), -1;
  char why[256];
  if (scene_make(name, &st->base, why, sizeof why)) return snprintf(err, cap, "%s", why), free(st), -1;
  c->state = st;
  if (st->base.n != c->n)
    return snprintf(err, cap, "n=%" PRIu64 ", but scene %s has %zu circles", c->n, name, st->base.n), close_case(c), -1;
  if (snow != (st->base.mode == SCENE_SNOW))
    return snprintf(err, cap, "param says snow=%d, but scene %s is %s", snow, name, scene_mode_names[st->base.mode]),
           close_case(c), -1;
  if (walker_init(st, &st->in) || walker_init(st, &st->want))
    return snprintf(err, cap, "out of host memory for %zu circles", st->base.n), close_case(c), -1;
  st->w = w, st->h = h;
  size_t n = st->base.n;
  c->n_in = RT_N_IN;
  c->in[RT_IN_X] = (spec_buf){.name = "x", .type = ELEM_FLOAT32, .count = n};
  c->in[RT_IN_Y] = (spec_buf){.name = "y", .type = ELEM_FLOAT32, .count = n};
  c->in[RT_IN_R] = (spec_buf){.name = "r", .type = ELEM_FLOAT32, .count = n};
  c->in[RT_IN_RGB] = (spec_buf){.name = "rgb", .type = ELEM_FLOAT32, .count = 3 * n};
  c->n_out = 1;
  c->out[0] = (spec_buf){.name = "image", .type = ELEM_RGBA32F, .count = (size_t)w * (size_t)h, .tol = TOL,
                         .masked = 1, .width = w, .height = h};
  return 0;
}

/* The scene's arrays of frame k, as render_scene has them. */
static void input(judge_case *c, uint64_t k, void *const in[]) {
  state *st = c->state;
  const scene *f = walk_to(c, &st->in, k);
  float *x = in[RT_IN_X], *y = in[RT_IN_Y], *r = in[RT_IN_R], *rgb = in[RT_IN_RGB];
  for (size_t i = 0; i < f->n; i++) {
    const circle *ci = &f->c[i];
    x[i] = ci->x, y[i] = ci->y, r[i] = ci->r;
    memcpy(rgb + 3 * i, ci->rgb, sizeof ci->rgb);
  }
}

/* The CPU reference of frame k, on every host thread, with its edge mask. */
static void expect(judge_case *c, uint64_t k, void *const want[], uint8_t *const mask[]) {
  state *st = c->state;
  const scene *f = walk_to(c, &st->want, k);
  image img = {.width = st->w, .height = st->h, .px = want[0]}; /* drawn where the judge keeps it */
  char err[256];
  if (render_cpu_into(f, &img, 0, mask[0], err, sizeof err)) {
    fprintf(stderr, "05-renderer judge: case %s: the CPU reference: %s\n", c->name, err);
    exit(3);
  }
}

/* Every pixel written once (16 bytes), every circle read once (24 bytes). */
static double bytes_moved(uint64_t n, uint64_t param) {
  return 16.0 * RT_WIDTH(param) * RT_HEIGHT(param) + 24.0 * (double)n;
}

const judge_spec judge_spec_05 = {
    .name = "05-renderer",
    .variants = variants,
    .n_variants = RT_N_VARIANTS,
    .cases = cases,
    .n_cases = (int)(sizeof cases / sizeof *cases),
    .max_n = SCENE_MAX_COUNT,
    .bench_case = "rand100k",
    .bench_cases = bench_cases,
    .n_bench_cases = (int)(sizeof bench_cases / sizeof *bench_cases),
    .bench_reps = 5, /* every call has a CPU-drawn reference frame (rand100k: 0.35 s on the H100 host) */
    .bytes_moved = bytes_moved,
    .bytes_note = "16 bytes per pixel written + 24 bytes per circle read (x, y, r, rgb)",
    .open = open_case,
    .input = input,
    .expect = expect,
    .close = close_case,
};
