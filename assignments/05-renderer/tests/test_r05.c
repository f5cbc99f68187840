/* test_r05.c: assignment 05's grading cannot be gamed, judged as the driver
 * judges (elem_judge, tolerance 1e-3, the reference's edge mask): a renderer that
 * skips one circle, or swaps two circles in one pixel in a thousand, fails;
 * the mask leaves almost every pixel compared; and the runner's case table
 * agrees with the scene table. CPU only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "render_cpu.h"
#include "scene.h"
#include "tests.h"

#define R05_TOL 1e-3f /* 05 spec.c's TOL */
#define R05_SIDE 256

typedef struct r05_ref {
  scene s;
  image img;
  uint8_t *mask;
  int w, h;
} r05_ref;

static void r05_make(const char *name, int w, int h, r05_ref *r) {
  char err[256];
  ck_assert_msg(scene_make(name, &r->s, err, sizeof err) == 0, "%s", err);
  r->w = w, r->h = h;
  r->mask = malloc((size_t)w * (size_t)h);
  ck_assert(r->mask != NULL);
  ck_assert_msg(render_cpu(&r->s, w, h, 0, &r->img, r->mask, err, sizeof err) == 0, "%s", err);
}

static void r05_free(r05_ref *r) {
  image_free(&r->img);
  free(r->mask);
  scene_free(&r->s);
}

/* Pixels of got that the driver would count as wrong against the reference. */
static long r05_mismatches(const r05_ref *r, const float *got) {
  long bad = 0;
  for (size_t i = 0; i < (size_t)r->w * (size_t)r->h; i++)
    if (!r->mask[i] && elem_judge(ELEM_RGBA32F, got, r->img.px, i, R05_TOL).wrong) bad++;
  return bad;
}

/* The CPU reference of s with no mask. */
static image r05_draw(const scene *s, int w, int h) {
  image img;
  char err[256];
  ck_assert_msg(render_cpu(s, w, h, 0, &img, NULL, err, sizeof err) == 0, "%s", err);
  return img;
}

/* Circle c covers pixel (x, y) of a w x h image, by render_cpu.h's arithmetic. */
static int r05_covers(const circle *c, int x, int y, int w, int h) {
  float px = ((float)x + 0.5f) / (float)w, py = ((float)y + 0.5f) / (float)h;
  float dx = px - c->x, dy = py - c->y;
  return dx * dx + dy * dy <= c->r * c->r;
}

/* A renderer that skips one circle: each of several circles on the image,
 * left out alone, makes the frame fail. */
START_TEST(test_r05_skipped_circle_fails) {
  r05_ref r;
  r05_make("rand10k", R05_SIDE, R05_SIDE, &r);
  scene less = r.s;
  less.c = malloc(r.s.n * sizeof *less.c);
  ck_assert(less.c != NULL);
  static const size_t SKIP[] = {0, 1, 77, 4242, 9999};
  for (size_t k = 0; k < sizeof SKIP / sizeof *SKIP; k++) {
    size_t drop = SKIP[k];
    const circle *c = &r.s.c[drop];
    if (c->x + c->r < 0 || c->x - c->r > 1 || c->y + c->r < 0 || c->y - c->r > 1) continue; /* off the image */
    memcpy(less.c, r.s.c, drop * sizeof *less.c);
    memcpy(less.c + drop, r.s.c + drop + 1, (r.s.n - drop - 1) * sizeof *less.c);
    less.n = r.s.n - 1;
    image img = r05_draw(&less, R05_SIDE, R05_SIDE);
    long bad = r05_mismatches(&r, img.px);
    ck_assert_msg(bad > 0, "rand10k without circle %zu (r = %g) passes the compare", drop, c->r);
    image_free(&img);
  }
  free(less.c);
  r05_free(&r);
}
END_TEST

/* A renderer that blends the last two circles of one pixel in a thousand in
 * the wrong order: every such pixel whose two colours differ is caught. (An
 * earlier pair is hidden under the circles blended after it: each halves
 * its weight, so the swap is out of sight after a dozen, as on the GPU.) */
START_TEST(test_r05_swapped_pair_fails) {
  r05_ref r;
  r05_make("rand10k", R05_SIDE, R05_SIDE, &r);
  size_t pixels = (size_t)R05_SIDE * R05_SIDE;
  float *got = malloc(pixels * 4 * sizeof *got);
  circle *cover = malloc(r.s.n * sizeof *cover);
  ck_assert(got && cover);
  memcpy(got, r.img.px, pixels * 4 * sizeof *got);
  long swapped = 0;
  for (size_t i = 0; i < pixels; i += 1000) {
    int x = (int)(i % R05_SIDE), y = (int)(i / R05_SIDE);
    size_t k = 0;
    for (size_t c = 0; c < r.s.n; c++)
      if (r05_covers(&r.s.c[c], x, y, R05_SIDE, R05_SIDE)) cover[k++] = r.s.c[c];
    if (k < 2 || r.mask[i]) continue;
    circle *a = &cover[k - 2], *b = &cover[k - 1];
    float diff = 0;
    for (int ch = 0; ch < 3; ch++) diff = fmaxf(diff, fabsf(a->rgb[ch] - b->rgb[ch]));
    if (diff < 0.01f) continue; /* alike colours: the order does not show */
    circle t = *a;
    *a = *b, *b = t;
    /* The pixel drawn from its own circles alone, the last two swapped. */
    scene few = {.name = "swap", .mode = r.s.mode, .n = k, .c = cover, .animated = -1};
    image img = r05_draw(&few, R05_SIDE, R05_SIDE);
    memcpy(got + 4 * i, img.px + 4 * i, 4 * sizeof *got);
    image_free(&img);
    swapped++;
  }
  ck_assert_msg(swapped >= 40, "only %ld pixels of rand10k had two distinct last circles", swapped);
  long bad = r05_mismatches(&r, got);
  ck_assert_msg(bad == swapped, "%ld of %ld swapped pixels fail the compare", bad, swapped);
  free(cover);
  free(got);
  r05_free(&r);
}
END_TEST

/* The edge mask leaves at least 99% of the pixels compared. */
static const struct {
  const char *scene;
  int side;
} MASKED[] = {{"rgb", 1024}, {"rgby", 1024}, {"pattern", 1024}, {"rand10k", 1024}, {"rand10k", 256}, {"snow", 256}};

START_TEST(test_r05_mask_is_small) {
  r05_ref r;
  r05_make(MASKED[_i].scene, MASKED[_i].side, MASKED[_i].side, &r);
  size_t pixels = (size_t)r.w * (size_t)r.h, masked = 0;
  for (size_t i = 0; i < pixels; i++) masked += r.mask[i] != 0;
  ck_assert_msg(masked * 100 < pixels, "%s at %d: %zu of %zu pixels masked (1%% or more)", MASKED[_i].scene,
                MASKED[_i].side, masked, pixels);
  ck_assert_msg(r05_mismatches(&r, r.img.px) == 0, "the reference does not match itself");
  r05_free(&r);
}
END_TEST

/* Every case of the 05 runner draws a scene of the table with its circle
 * count, at a size within the image limits (the runner prints --list
 * without a GPU). */
START_TEST(test_r05_cases_match_scenes) {
  FILE *f = popen("build/solutions/05-renderer/runner --list", "r");
  ck_assert_msg(f != NULL, "cannot run the 05 runner");
  char line[512];
  int cases = 0;
  while (fgets(line, sizeof line, f)) {
    char name[128], scene_name[128];
    unsigned long long n, seed, param;
    int reps;
    if (sscanf(line, "case %127s %llu %llu %d %llu", name, &n, &seed, &reps, &param) != 5) continue;
    cases++;
    snprintf(scene_name, sizeof scene_name, "%s", name);
    scene_name[strcspn(scene_name, "-")] = 0;
    const scene_def *d = scene_find(scene_name);
    ck_assert_msg(d != NULL, "case %s: no scene %s", name, scene_name);
    ck_assert_msg(d->count == n, "case %s: n=%llu, scene %s has %zu circles", name, n, scene_name, d->count);
    int w = (int)(param >> 16), h = (int)(param & 0xffff);
    ck_assert_msg(w > 0 && h > 0 && w <= IMAGE_MAX_SIDE && h <= IMAGE_MAX_SIDE, "case %s: size %dx%d", name, w, h);
    if (strchr(name, '-')) {
      char want[160];
      snprintf(want, sizeof want, "%s-%dx%d", scene_name, w, h);
      ck_assert_msg(!strcmp(name, want), "case %s is drawn at %dx%d: name it %s", name, w, h, want);
    } else {
      ck_assert_msg(w == 1024 && h == 1024, "case %s without a size is not 1024x1024", name);
    }
    ck_assert_msg(reps >= 1, "case %s: %d reps", name, reps);
  }
  ck_assert_int_eq(pclose(f), 0);
  ck_assert_int_ge(cases, 10);
}
END_TEST

Suite *r05_suite(void) {
  Suite *s = suite_create("r05");
  TCase *t = tcase_create("compare");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_r05_skipped_circle_fails);
  tcase_add_test(t, test_r05_swapped_pair_fails);
  tcase_add_loop_test(t, test_r05_mask_is_small, 0, sizeof MASKED / sizeof *MASKED);
  tcase_add_test(t, test_r05_cases_match_scenes);
  suite_add_tcase(s, t);
  return s;
}
