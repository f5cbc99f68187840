/* test_render.c: the CPU reference renderer on small scenes whose pixels are
 * computed by hand, its edge mask, its binning and threads, and build/tools/render. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "prng.h"
#include "render_cpu.h"
#include "scene.h"
#include "tests.h"

/* A scene of n circles from a table of {x, y, r, red, green, blue}. */
static scene scene_of(scene_mode mode, const float (*rows)[6], size_t n) {
  scene s = {.name = "test", .mode = mode, .n = n, .animated = -1};
  s.c = calloc(n, sizeof *s.c);
  ck_assert(s.c != NULL);
  for (size_t i = 0; i < n; i++) {
    s.c[i].x = rows[i][0], s.c[i].y = rows[i][1], s.c[i].r = rows[i][2];
    memcpy(s.c[i].rgb, rows[i] + 3, 3 * sizeof(float));
  }
  return s;
}

static image render(const scene *s, int w, int h, int threads, uint8_t *mask) {
  image img;
  char err[256];
  ck_assert_msg(render_cpu(s, w, h, threads, &img, mask, err, sizeof err) == 0, "%s", err);
  return img;
}

static const float *pixel(const image *img, int x, int y) { return img->px + 4 * ((size_t)y * (size_t)img->width + (size_t)x); }

static void assert_pixel(const image *img, int x, int y, float r, float g, float b, float a) {
  const float *p = pixel(img, x, y);
  const float want[4] = {r, g, b, a};
  for (int c = 0; c < 4; c++)
    ck_assert_msg(fabsf(p[c] - want[c]) <= 1e-6f, "pixel (%d, %d) channel %d: expected %.7g, got %.7g", x, y, c,
                  want[c], p[c]);
}

/* 8x8: pixel (4, 4) has its centre at (0.5625, 0.5625). */
START_TEST(test_render_one_circle) {
  static const float rows[][6] = {{0.5f, 0.5f, 0.25f, 0.2f, 0.4f, 0.6f}};
  scene s = scene_of(SCENE_NORMAL, rows, 1);
  image img = render(&s, 8, 8, 1, NULL);
  assert_pixel(&img, 4, 4, 0.5f * 0.2f + 0.5f, 0.5f * 0.4f + 0.5f, 0.5f * 0.6f + 0.5f, 1.5f); /* inside */
  assert_pixel(&img, 0, 0, 1, 1, 1, 1);                                                     /* white background */
  assert_pixel(&img, 7, 4, 1, 1, 1, 1); /* centre (0.9375, 0.5625): outside */
  image_free(&img);
  free(s.c);
}
END_TEST

/* Two overlapping circles: the later one is on top, so the order shows. */
START_TEST(test_render_order) {
  static const float ab[][6] = {{0.5f, 0.5f, 0.3f, 1, 0, 0}, {0.5f, 0.5f, 0.3f, 0, 0, 1}};
  static const float ba[][6] = {{0.5f, 0.5f, 0.3f, 0, 0, 1}, {0.5f, 0.5f, 0.3f, 1, 0, 0}};
  scene s1 = scene_of(SCENE_NORMAL, ab, 2), s2 = scene_of(SCENE_NORMAL, ba, 2);
  image i1 = render(&s1, 8, 8, 1, NULL), i2 = render(&s2, 8, 8, 1, NULL);
  /* red then blue: 0.5 * blue + 0.5 * (0.5 * red + 0.5 * white) */
  assert_pixel(&i1, 4, 4, 0.5f, 0.25f, 0.75f, 2.0f);
  assert_pixel(&i2, 4, 4, 0.75f, 0.25f, 0.5f, 2.0f);
  image_free(&i1);
  image_free(&i2);
  free(s1.c);
  free(s2.c);
}
END_TEST

/* 4x4: pixel centres at 0.125, 0.375, 0.625, 0.875 (exact in binary). A circle at
 * (0.375, 0.375) with r = 0.25 passes exactly through the centre of pixel (2, 1). */
START_TEST(test_render_edge) {
  static const float exact[][6] = {{0.375f, 0.375f, 0.25f, 0, 0, 0}};
  static const float inside_eps[][6] = {{0.375f, 0.375f, 0.25f - 0x1p-21f, 0, 0, 0}}; /* 4.8e-7 short */
  static const float beyond_eps[][6] = {{0.375f, 0.375f, 0.25f - 0x1p-16f, 0, 0, 0}}; /* 1.5e-5 short */
  uint8_t mask[16];
  scene s = scene_of(SCENE_NORMAL, exact, 1);
  image img = render(&s, 4, 4, 1, mask);
  assert_pixel(&img, 2, 1, 0.5f, 0.5f, 0.5f, 1.5f); /* the edge is covered */
  ck_assert_int_eq(mask[1 * 4 + 2], 1);              /* and masked */
  ck_assert_int_eq(mask[1 * 4 + 1], 0);              /* the circle's centre pixel is not */
  ck_assert_int_eq(mask[3 * 4 + 3], 0);              /* nor one far away */
  image_free(&img);
  free(s.c);
  s = scene_of(SCENE_NORMAL, inside_eps, 1);
  img = render(&s, 4, 4, 1, mask);
  assert_pixel(&img, 2, 1, 1, 1, 1, 1); /* just outside: not covered */
  ck_assert_int_eq(mask[1 * 4 + 2], 1); /* but within RENDER_EDGE_EPS: masked */
  image_free(&img);
  free(s.c);
  s = scene_of(SCENE_NORMAL, beyond_eps, 1);
  img = render(&s, 4, 4, 1, mask);
  assert_pixel(&img, 2, 1, 1, 1, 1, 1);
  ck_assert_int_eq(mask[1 * 4 + 2], 0); /* outside the band: compared */
  image_free(&img);
  free(s.c);
}
END_TEST

START_TEST(test_render_snow_ramp) {
  float rgb[3];
  const float(*ramp)[3] = render_snow_ramp_table;
  render_snow_ramp(0.0f, rgb);
  ck_assert(memcmp(rgb, ramp[0], sizeof rgb) == 0);
  for (int i = 0; i < SNOW_RAMP_LEN; i++) { /* each entry at its own t */
    render_snow_ramp((float)i / (SNOW_RAMP_LEN - 1), rgb);
    for (int c = 0; c < 3; c++) ck_assert_msg(fabsf(rgb[c] - ramp[i][c]) <= 1e-6f, "entry %d channel %d", i, c);
  }
  render_snow_ramp(0.5f / (SNOW_RAMP_LEN - 1), rgb); /* halfway between entries 0 and 1 */
  for (int c = 0; c < 3; c++) ck_assert(fabsf(rgb[c] - 0.5f * (ramp[0][c] + ramp[1][c])) <= 1e-6f);
  static const float beyond[] = {1.0f, 1.0001f, 1.5f, 40.0f}; /* clamped at t = 1: the last entry */
  for (int k = 0; k < 4; k++) {
    render_snow_ramp(beyond[k], rgb);
    ck_assert_msg(memcmp(rgb, ramp[SNOW_RAMP_LEN - 1], sizeof rgb) == 0, "t = %g is not clamped", beyond[k]);
  }
  ck_assert_float_eq(render_snow_depth(SCENE_SNOW_R_FAR), 0.4f);
  ck_assert_float_eq(render_snow_depth(SCENE_SNOW_R_NEAR), 1.0f);
  ck_assert_float_eq(render_snow_depth(0.5f), 1.0f); /* clamped */
}
END_TEST

/* A snow flake over the gradient, 8x8: at the flake's centre t = 0, so a = 0.5 * depth
 * = 0.5 (r is past SCENE_SNOW_R_NEAR) and the colour is the tint times ramp entry 0. */
START_TEST(test_render_snow_pixels) {
  static const float rows[][6] = {{0.5625f, 0.5625f, 0.25f, 0.2f, 0.4f, 0.6f}};
  scene s = scene_of(SCENE_SNOW, rows, 1);
  image img = render(&s, 8, 8, 1, NULL);
  const float *w = render_snow_ramp_table[0];
  float g = SNOW_BG_BOTTOM + (SNOW_BG_TOP - SNOW_BG_BOTTOM) * 0.5625f;
  assert_pixel(&img, 4, 4, 0.5f * 0.2f * w[0] + 0.5f * g, 0.5f * 0.4f * w[1] + 0.5f * g, 0.5f * 0.6f * w[2] + 0.5f * g,
               1.5f);
  float g0 = SNOW_BG_BOTTOM + (SNOW_BG_TOP - SNOW_BG_BOTTOM) * 0.0625f, g7 = SNOW_BG_BOTTOM + (SNOW_BG_TOP - SNOW_BG_BOTTOM) * 0.9375f;
  assert_pixel(&img, 0, 0, g0, g0, g0, 1); /* background: darker at the bottom */
  assert_pixel(&img, 0, 7, g7, g7, g7, 1);
  ck_assert(g0 < g7);
  /* One pixel right, t = 0.125 / 0.25 = 0.5: alpha 0.5 * exp(-1). */
  float a = 0.5f * expf(-1.0f);
  const float *p = pixel(&img, 5, 4);
  ck_assert_msg(fabsf(p[3] - (1.0f + a)) <= 1e-6f, "alpha %g, expected %g", p[3], 1.0f + a);
  image_free(&img);
  free(s.c);
}
END_TEST

/* Threads and tiles: 1 and 4 threads give the same bits, at a size that is not a
 * multiple of the tile. */
START_TEST(test_render_threads) {
  scene s;
  char err[256];
  ck_assert(scene_make("rand10k", &s, err, sizeof err) == 0);
  int w = 250, h = 190;
  uint8_t *m1 = malloc((size_t)w * h), *m4 = malloc((size_t)w * h);
  image a = render(&s, w, h, 1, m1), b = render(&s, w, h, 4, m4);
  ck_assert(memcmp(a.px, b.px, (size_t)w * h * 4 * sizeof(float)) == 0);
  ck_assert(memcmp(m1, m4, (size_t)w * h) == 0);
  size_t masked = 0;
  for (size_t i = 0; i < (size_t)w * h; i++) masked += m1[i];
  ck_assert_msg(masked < (size_t)w * h / 100, "%zu of %d pixels masked", masked, w * h);
  image_free(&a);
  image_free(&b);
  free(m1);
  free(m4);
  scene_free(&s);
}
END_TEST

/* Binning drops no circle: for sample pixels of a 250x190 rand10k, the scene of only
 * the circles that cover the pixel (the spec's test, restated) renders it the same. */
START_TEST(test_render_binning) {
  scene s;
  char err[256];
  ck_assert(scene_make("rand10k", &s, err, sizeof err) == 0);
  int w = 250, h = 190;
  image full = render(&s, w, h, 2, NULL);
  static const int samples[][2] = {{0, 0}, {249, 189}, {0, 189}, {249, 0}, {125, 95}, {17, 33}, {240, 176}, {99, 150}};
  scene sub = {.name = "sub", .mode = SCENE_NORMAL, .animated = -1, .c = malloc(s.n * sizeof *s.c)};
  for (int k = 0; k < 8; k++) {
    int x = samples[k][0], y = samples[k][1];
    float px = ((float)x + 0.5f) / (float)w, py = ((float)y + 0.5f) / (float)h;
    sub.n = 0;
    for (size_t i = 0; i < s.n; i++) {
      float dx = px - s.c[i].x, dy = py - s.c[i].y;
      if (dx * dx + dy * dy <= s.c[i].r * s.c[i].r) sub.c[sub.n++] = s.c[i];
    }
    ck_assert_msg(sub.n > 3, "pixel (%d, %d) is covered by only %zu circles", x, y, sub.n);
    image one = render(&sub, w, h, 1, NULL);
    ck_assert_msg(memcmp(pixel(&one, x, y), pixel(&full, x, y), 4 * sizeof(float)) == 0,
                  "pixel (%d, %d) differs from the render of the %zu circles covering it", x, y, sub.n);
    image_free(&one);
  }
  free(sub.c);
  image_free(&full);
  scene_free(&s);
}
END_TEST

/* The whole image and its mask against the spec read pixel by pixel (render_cpu.h):
 * every circle in index order, blended with the flat formula in scalar floats,
 * the edge test in double. The renderer's four-channel blend and its band
 * before the double test must give the same bits. */
START_TEST(test_render_matches_plain) {
  scene s;
  char err[256];
  ck_assert(scene_make(_i ? "rand10k" : "pattern", &s, err, sizeof err) == 0);
  int w = 97, h = 83;
  uint8_t *mask = calloc((size_t)w * h, 1), edge;
  image img = render(&s, w, h, 2, mask);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float px = ((float)x + 0.5f) / (float)w, py = ((float)y + 0.5f) / (float)h, p[4] = {1, 1, 1, 1};
      edge = 0;
      for (size_t i = 0; i < s.n; i++) {
        const circle *c = &s.c[i];
        float dx = px - c->x, dy = py - c->y;
        double ex = (double)px - c->x, ey = (double)py - c->y, e2 = ex * ex + ey * ey;
        double lo = c->r > RENDER_EDGE_EPS ? c->r - RENDER_EDGE_EPS : 0, hi = c->r + RENDER_EDGE_EPS;
        edge |= e2 >= lo * lo && e2 <= hi * hi;
        if (dx * dx + dy * dy > c->r * c->r) continue;
        for (int k = 0; k < 3; k++) p[k] = RENDER_ALPHA * c->rgb[k] + (1.0f - RENDER_ALPHA) * p[k];
        p[3] += RENDER_ALPHA;
      }
      if (memcmp(p, pixel(&img, x, y), sizeof p) || edge != mask[(size_t)y * w + x]) /* ck_abort_msg only on failure */
        ck_abort_msg("%s: pixel (%d, %d): %.9g %.9g %.9g %.9g, mask %d; the plain reading gives %.9g %.9g %.9g %.9g, mask %d",
                     s.name, x, y, pixel(&img, x, y)[0], pixel(&img, x, y)[1], pixel(&img, x, y)[2], pixel(&img, x, y)[3],
                     mask[(size_t)y * w + x], p[0], p[1], p[2], p[3], edge);
    }
  image_free(&img);
  free(mask);
  scene_free(&s);
}
END_TEST

/* Binning misses no pixel: single random circles (some off the image, some
 * crossing tile borders) at a size that is not a multiple of the tile; a pixel's
 * alpha says whether it was covered, which must be the spec's test at every pixel. */
START_TEST(test_render_binning_every_pixel) {
  prng g;
  prng_seed(&g, 31);
  int w = 67, h = 45;
  for (int k = 0; k < 300; k++) {
    float row[1][6] = {{(float)(-0.2 + 1.4 * prng_unit(&g)), (float)(-0.2 + 1.4 * prng_unit(&g)),
                        (float)(0.002 + 0.3 * prng_unit(&g)), 0, 0, 0}};
    scene s = scene_of(SCENE_NORMAL, (const float(*)[6])row, 1);
    image img = render(&s, w, h, 1, NULL);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        float px = ((float)x + 0.5f) / (float)w, py = ((float)y + 0.5f) / (float)h;
        float dx = px - s.c[0].x, dy = py - s.c[0].y;
        int covered = dx * dx + dy * dy <= s.c[0].r * s.c[0].r;
        if ((pixel(&img, x, y)[3] > 1.0f) != covered) /* ck_abort_msg only on failure: see test_scene.c */
          ck_abort_msg("circle %d (%g, %g, r %g): pixel (%d, %d) %s", k, s.c[0].x, s.c[0].y, s.c[0].r, x, y,
                       covered ? "not drawn" : "drawn outside");
      }
    image_free(&img);
    free(s.c);
  }
}
END_TEST

/* ---------------------------------------------------------------- build/tools/render */

static const struct {
  const char *args;
  const char *message;
} BAD_ARGS[] = {
    {"--size 0 --scene rgb --out x", "render: --size needs a number from 1 to 16384, got \"0\""},
    {"--scene nope --out x", "render: unknown scene \"nope\"; the scenes are: rgb rgby rand10k rand100k rand1M "
                             "micro2M biglittle littlebig pattern snow balls hypnosis fireworks"},
    {"--scene rgb", "render: --out PREFIX is missing"},
    {"--scene rgb --file a.scene --out x", "render: give one of --scene NAME or --file PATH"},
    {"--scene rgb --frames 3 --out x", "render: --frames: rgb is not animated; the animated scenes are: snow balls "
                                       "hypnosis fireworks"},
    {"--scene rgb --bogus --out x", "render: unknown argument \"--bogus\""},
    {"--scene", "render: --scene needs a value"},
};

START_TEST(test_render_tool_rejects) {
  char *dir = make_temp_dir("render");
  char cmd[1024], path[512];
  snprintf(path, sizeof path, "%s/err", dir);
  snprintf(cmd, sizeof cmd, "build/tools/render %s 2> %s > /dev/null", BAD_ARGS[_i].args, path);
  ck_assert_int_eq(run_shell(cmd), 2);
  char *text = read_text(path);
  ck_assert_ptr_nonnull(text);
  *strchrnul(text, '\n') = 0; /* the first line is the reason (a usage may follow) */
  ck_assert_str_eq(text, BAD_ARGS[_i].message);
  free(text);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The tool writes PPM and PNG that read back as the CPU render, and renders frames. */
START_TEST(test_render_tool_files) {
  char *dir = make_temp_dir("render");
  char cmd[1024], path[512], err[256];
  snprintf(cmd, sizeof cmd, "build/tools/render --scene rgby --size 48 --out %s/rgby > /dev/null", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  scene s;
  ck_assert(scene_make("rgby", &s, err, sizeof err) == 0);
  image want = render(&s, 48, 48, 1, NULL);
  static const char *const ext[] = {"ppm", "png"};
  for (int k = 0; k < 2; k++) {
    image got;
    snprintf(path, sizeof path, "%s/rgby.%s", dir, ext[k]);
    ck_assert_msg(image_read(path, &got, err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < 48 * 48 * 4; i++)
      if (i % 4 != 3 && (int)lroundf(got.px[i] * 255) != image_to8(want.px[i]))
        ck_abort_msg("%s: value %zu is %d, the CPU render's is %d", path, i, (int)lroundf(got.px[i] * 255),
                     image_to8(want.px[i]));
    image_free(&got);
  }
  snprintf(cmd, sizeof cmd, "build/tools/render --scene balls --size 32 --frames 3 --out %s/b > /dev/null", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  for (int f = 0; f < 3; f++) {
    image got;
    snprintf(path, sizeof path, "%s/b-%04d.png", dir, f);
    ck_assert_msg(image_read(path, &got, err, sizeof err) == 0, "%s", err);
    image_free(&got);
  }
  image_free(&want);
  scene_free(&s);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *render_suite(void) {
  Suite *s = suite_create("render");
  TCase *t = tcase_create("pixels");
  tcase_add_test(t, test_render_one_circle);
  tcase_add_test(t, test_render_order);
  tcase_add_test(t, test_render_edge);
  tcase_add_test(t, test_render_snow_ramp);
  tcase_add_test(t, test_render_snow_pixels);
  suite_add_tcase(s, t);
  t = tcase_create("tiles");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_render_threads);
  tcase_add_test(t, test_render_binning);
  tcase_add_test(t, test_render_binning_every_pixel);
  tcase_add_loop_test(t, test_render_matches_plain, 0, 2);
  suite_add_tcase(s, t);
  t = tcase_create("tool");
  tcase_add_loop_test(t, test_render_tool_rejects, 0, sizeof BAD_ARGS / sizeof *BAD_ARGS);
  tcase_add_test(t, test_render_tool_files);
  suite_add_tcase(s, t);
  return s;
}
