/* scene_stats.c: what a frame of each 05 scene asks of a renderer, counted on the CPU.
 *
 *   build/tools/scene-stats [--size W] [SCENE...]      (default: 1024, the bench scenes)
 *
 * For each scene at W x W pixels, from the course's scene generator (scene.h):
 *   circles     n
 *   blends      (pixel, circle) pairs with the pixel's centre inside the circle: the
 *               blends every correct renderer does, the work no design avoids
 *   pairs16     (16 x 16 tile, circle) pairs whose tile has a pixel centre within the
 *               circle's radius: the list entries of the reference's list path
 *   tests32     circle-tile tests of the one-kernel design (every circle on every
 *               32 x 32 tile: n x W^2 / 1024), and the bytes they read (12 a test)
 *   floor_us    16 bytes a pixel written + 24 bytes a circle read, at 3.0 TB/s (about
 *               what a device-to-device copy reaches on the course's H100): no renderer
 *               can beat it
 * The numbers are exact counts with the CPU reference's float pixel centres; they
 * need no GPU. ANSWERS.md of 05 reads them beside the measured times. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"

static const char *const DEFAULT_SCENES[] = {"rgb",     "rgby",      "pattern",   "rand10k", "rand100k",
                                             "rand1M",  "micro2M",   "biglittle", "littlebig", "snow"};

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Pixel i's centre along a side of w pixels, as the CPU reference computes it. */
static float centre(int i, int w) { return ((float)i + 0.5f) / (float)w; }

typedef struct counts {
  uint64_t blends, pairs16;
} counts;

static void count_circle(const circle *c, int w, counts *k) {
  float r2 = c->r * c->r;
  int x0 = clampi((int)floorf((c->x - c->r) * w - 0.5f) - 1, 0, w - 1);
  int x1 = clampi((int)ceilf((c->x + c->r) * w - 0.5f) + 1, 0, w - 1);
  int y0 = clampi((int)floorf((c->y - c->r) * w - 0.5f) - 1, 0, w - 1);
  int y1 = clampi((int)ceilf((c->y + c->r) * w - 0.5f) + 1, 0, w - 1);
  if (c->x + c->r < 0 || c->x - c->r > 1 || c->y + c->r < 0 || c->y - c->r > 1) return;
  for (int ty = y0 / 16; ty <= y1 / 16; ty++)
    for (int tx = x0 / 16; tx <= x1 / 16; tx++) {
      uint64_t here = 0;
      for (int py = ty * 16; py < ty * 16 + 16 && py < w; py++) {
        float dy = centre(py, w) - c->y;
        for (int px = tx * 16; px < tx * 16 + 16 && px < w; px++) {
          float dx = centre(px, w) - c->x;
          here += dx * dx + dy * dy <= r2;
        }
      }
      k->blends += here;
      k->pairs16 += here > 0;
    }
}

int main(int argc, char **argv) {
  int w = 1024, first = 1;
  if (argc >= 3 && !strcmp(argv[1], "--size")) {
    w = atoi(argv[2]);
    first = 3;
    if (w < 16 || w > 4096) {
      fprintf(stderr, "scene-stats: --size %s: want a side of 16 to 4096 pixels\n", argv[2]);
      return 2;
    }
  }
  int n_names = argc > first ? argc - first : (int)(sizeof DEFAULT_SCENES / sizeof *DEFAULT_SCENES);
  printf("# 05 scenes at %d x %d: exact counts on the CPU (assignments/05-renderer/tools/scene_stats.c says what each column is)\n", w, w);
  printf("%-10s %9s %14s %10s %10s %14s %12s %9s\n", "scene", "circles", "blends", "blends/px", "pairs16", "tests32",
         "tests32_GB", "floor_us");
  for (int i = 0; i < n_names; i++) {
    const char *name = argc > first ? argv[first + i] : DEFAULT_SCENES[i];
    scene s;
    char err[256];
    if (scene_make(name, &s, err, sizeof err)) {
      fprintf(stderr, "scene-stats: %s\n", err);
      return 2;
    }
    counts k = {0, 0};
    for (size_t c = 0; c < s.n; c++) count_circle(&s.c[c], w, &k);
    double px = (double)w * w, tiles32 = px / 1024.0, tests = (double)s.n * tiles32;
    double floor_us = (16.0 * px + 24.0 * (double)s.n) / 3.0e12 * 1e6;
    printf("%-10s %9zu %14llu %10.1f %10llu %14.4g %12.2f %9.1f\n", name, s.n, (unsigned long long)k.blends,
           (double)k.blends / px, (unsigned long long)k.pairs16, tests, tests * 12 / 1e9, floor_us);
    scene_free(&s);
  }
  return 0;
}
