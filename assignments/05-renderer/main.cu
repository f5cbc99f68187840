// main.cu: the course-owned harness of assignment 05 (the circle renderer). Do not edit.
//
// One case is one scene of the table (grader/lib/scene.c) at one image size.
// The case's name is the scene's name, with "-WxH" when the size is not
// 1024x1024; n is the scene's circle count and param packs the size
// (HX_SIZE). setup makes the scene, puts its arrays on the device, and draws
// the CPU reference (grader/lib/render_cpu.c) with its edge mask. The timed
// region is one call of your render(): the whole frame. Before every timed
// rep after the first, next_frame moves every circle a little (scene_jitter,
// seeded, untimed) and draws the new reference, so no work can be reused
// across frames and every timed frame is compared: each channel of each
// pixel within HX_TOL, edge pixels (the reference's mask) not compared, any
// NaN or infinity wrong.
//
// What a case costs: the CPU reference of every frame, on all host threads.
// Measured on 2 cores at 1024x1024 (build/tools/render): rand100k 3.4 s,
// rand1M 2.6 s, biglittle 1.3 s, micro2M 1.0 s, snow 0.6 s, rand10k 0.5 s;
// assuming 16 cores run it about 8 times faster (0.4 s for rand100k), the
// reps below keep every case under about 10 s there (20 frames of rand100k).
//
// Napkin math (bytes_moved): a frame must write every pixel once (16 bytes)
// and read every circle once (x, y, r and rgb: 24 bytes).
//
// Every course-owned name here starts with hx_ or HX_: your file shares this
// translation unit, so you may name your helpers as you like.
//
//   build/<src>/05-renderer/harness --list
//   build/<src>/05-renderer/harness --case rand10k --check --out rand10k.png
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "renderer.h"
#include "scene_host.h"

#include "renderer.cu"

static const float HX_TOL = 1e-3f;

static const hx_variant HX_VARIANTS[] = {
    {"render", "the whole frame: clear, binning, drawing (render() in renderer.cu)"},
};

// An image size as a case's param: width in the high bits, height in the low 16.
#define HX_SIZE(w, h) (((uint64_t)(w) << 16) | (uint64_t)(h))
#define HX_FULL HX_SIZE(1024, 1024)

// Small cases first: the GPU tier runs memcheck on the first three.
static const hx_case HX_CASES[] = {
    {"rgb-256x256", 3, 51, 10, HX_SIZE(256, 256)},
    {"rgby-100x75", 4, 52, 10, HX_SIZE(100, 75)},
    {"pattern-333x211", 1217, 53, 10, HX_SIZE(333, 211)},
    {"rand10k-256x256", 10000, 54, 10, HX_SIZE(256, 256)},
    {"snow-256x256", 100000, 55, 10, HX_SIZE(256, 256)},
    {"balls-512x512", 16, 56, 20, HX_SIZE(512, 512)},
    {"hypnosis-512x512", 40, 57, 20, HX_SIZE(512, 512)},
    {"fireworks-512x512", 600, 58, 20, HX_SIZE(512, 512)},
    {"rgb", 3, 61, 50, HX_FULL},
    {"rgby", 4, 62, 50, HX_FULL},
    {"pattern", 1217, 63, 100, HX_FULL},
    {"rand10k", 10000, 64, 50, HX_FULL},
    {"rand10k-1000x1003", 10000, 65, 20, HX_SIZE(1000, 1003)},
    {"rand100k", 100000, 66, 20, HX_FULL},
    {"rand1M", 1000000, 67, 20, HX_FULL},
    {"micro2M", 2000000, 68, 20, HX_FULL},
    {"biglittle", 11000, 69, 30, HX_FULL},
    {"littlebig", 11000, 70, 30, HX_FULL},
    {"snow", 100000, 71, 50, HX_FULL},
};

typedef struct hx_state {
  void *scene;        // hx_scene (opaque)
  uint64_t seed;      // of the jitter between frames
  int w, h, check;
  render_scene dev;   // what render() gets
  float *x, *y, *r, *rgb; // host copies, kept to move them between frames
  float *dx, *dy;     // the device arrays that move
  float4 *image;
  void *work;
  float *expect;      // host: the CPU reference image, 4 floats per pixel
  uint8_t *mask;      // host: 1 = edge pixel, not compared
  float *cpu_image;   // bench build only: the cpu_reference row's frame
} hx_state;

#ifdef HX_BENCH
#include "baselines.cu" // the CPU reference's bench row: compiled into the bench build only
#endif

// The CPU reference of the scene as it is now, into s->expect and s->mask.
static int hx_draw_expected(hx_state *s) {
  char err[256];
  if (hx_scene_render_cpu((hx_scene *)s->scene, s->w, s->h, s->expect, s->mask, err, sizeof err) == 0) return 0;
  fprintf(stderr, "05-renderer: %s\n", err);
  return -1;
}

static void *hx_setup(const hx_spec *spec, hx_io *io) {
  if (!spec->param) {
    fprintf(stderr, "05-renderer: --n is not supported: run a named case (--case NAME; --list shows them)\n");
    return NULL;
  }
  char name[64], err[256];
  snprintf(name, sizeof name, "%s", spec->case_name);
  name[strcspn(name, "-")] = 0; // "rand10k-1000x1003" draws the scene rand10k
  hx_state *s = (hx_state *)hx_malloc(sizeof *s);
  memset(s, 0, sizeof *s);
  hx_scene *sc = hx_scene_open(name, err, sizeof err);
  if (!sc) {
    fprintf(stderr, "05-renderer: case %s: %s\n", spec->case_name, err);
    return NULL;
  }
  s->scene = sc;
  size_t n = hx_scene_count(sc);
  if (n != spec->n) {
    fprintf(stderr, "05-renderer: case %s says n=%llu, but scene %s has %zu circles\n", spec->case_name,
            (unsigned long long)spec->n, name, n);
    hx_scene_close(sc);
    return NULL;
  }
  s->seed = spec->seed;
  s->w = (int)(spec->param >> 16);
  s->h = (int)(spec->param & 0xffff);
  s->check = spec->check;
  s->x = (float *)hx_malloc(n * sizeof(float));
  s->y = (float *)hx_malloc(n * sizeof(float));
  s->r = (float *)hx_malloc(n * sizeof(float));
  s->rgb = (float *)hx_malloc(3 * n * sizeof(float));
  hx_scene_arrays(sc, s->x, s->y, s->r, s->rgb);
  s->dx = (float *)hx_dev_upload(s->x, n * sizeof(float));
  s->dy = (float *)hx_dev_upload(s->y, n * sizeof(float));
  s->dev.x = s->dx;
  s->dev.y = s->dy;
  s->dev.r = (const float *)hx_dev_upload(s->r, n * sizeof(float));
  s->dev.rgb = (const float *)hx_dev_upload(s->rgb, 3 * n * sizeof(float));
  s->dev.n = (int)n;
  s->dev.snow = hx_scene_is_snow(sc);
  size_t pixels = (size_t)s->w * (size_t)s->h;
  s->image = (float4 *)hx_dev_malloc(pixels * sizeof(float4));
  s->work = spec->work;
  if (s->check) {
    s->expect = (float *)hx_malloc(pixels * 4 * sizeof(float));
    s->mask = (uint8_t *)hx_malloc(pixels);
    if (hx_draw_expected(s)) {
      hx_scene_close(sc);
      return NULL;
    }
  }
#ifdef HX_BENCH
  s->cpu_image = (float *)hx_malloc(pixels * 4 * sizeof(float)); // untimed
#endif
  hx_output *o = hx_add_output(io, "image", HX_RGBA32F, s->image, s->expect, pixels);
  o->tol = HX_TOL;
  o->mask = s->mask;
  o->width = s->w;
  o->height = s->h;
  return s;
}

static void hx_run(void *p, int variant) {
  (void)variant; // one variant: the student's render()
  hx_state *s = (hx_state *)p;
  HX_CHECK(render(s->dev, s->w, s->h, s->image, s->work));
  HX_CHECK_LAUNCH();
}

// Untimed, before timed rep `frame`: every circle moves (the moves add up
// over frames), the moved centres go to the device, and the reference is redrawn.
static void hx_next_frame(void *p, int frame, hx_io *io) {
  hx_state *s = (hx_state *)p;
  hx_scene *sc = (hx_scene *)s->scene;
  size_t n = hx_scene_count(sc);
  hx_scene_jitter(sc, s->seed, frame);
  hx_scene_arrays(sc, s->x, s->y, s->r, s->rgb);
  hx_upload(s->dx, s->x, n * sizeof(float));
  hx_upload(s->dy, s->y, n * sizeof(float));
  if (!s->check) return;
  if (hx_draw_expected(s)) exit(3);
  io->expect_changed = 1;
}

static void hx_teardown(void *p) { hx_scene_close((hx_scene *)((hx_state *)p)->scene); }

static size_t hx_workspace(uint64_t n, uint64_t param) {
  return render_workspace((int)n, (int)(param >> 16), (int)(param & 0xffff));
}

// Every pixel written once (16 bytes), every circle read once (24 bytes).
static double hx_bytes(uint64_t n, uint64_t param) {
  return 16.0 * (double)(param >> 16) * (double)(param & 0xffff) + 24.0 * (double)n;
}

// make bench A=05: ms per frame for every 1024x1024 scene (the handout's table).
static const char *const hx05_bench_cases[] = {"rgb",      "rgby",      "pattern",   "rand10k", "rand100k",
                                               "rand1M",   "micro2M",   "biglittle", "littlebig", "snow"};

static const hx_assignment HX_05 = {
    .name = "05-renderer",
    .variants = HX_VARIANTS,
    .n_variants = sizeof HX_VARIANTS / sizeof *HX_VARIANTS,
    .cases = HX_CASES,
    .n_cases = sizeof HX_CASES / sizeof *HX_CASES,
    .max_n = 1ULL << 24,
    .bench_case = "rand100k",
    .bench_cases = hx05_bench_cases,
    .n_bench_cases = (int)(sizeof hx05_bench_cases / sizeof *hx05_bench_cases),
    .bench_reps = 5, // every rep has a CPU-drawn reference frame (rand100k: 0.35 s on the H100 host)
    .bytes_moved = hx_bytes,
    .bytes_note = "16 bytes per pixel written + 24 bytes per circle read (x, y, r, rgb)",
    .workspace_bytes = hx_workspace,
    .setup = hx_setup,
    .run = hx_run,
    .next_frame = hx_next_frame,
    .teardown = hx_teardown,
#ifdef HX_BENCH
    .baselines = hx05_baselines,
    .n_baselines = 1,
    .run_baseline = hx05_run_baseline,
    .baseline_max_n = hx05_baseline_max_n,
#endif
};

HX_MAIN(HX_05)
