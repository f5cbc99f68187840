/* test_image.c: the RGBA float image: 8-bit conversion, PPM and PNG round trips,
 * bad files, the difference image. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "prng.h"
#include "tests.h"

/* A w x h image of values in [-0.2, 1.2] (so clamping is exercised), seeded. */
static image random_image(int w, int h, uint64_t seed) {
  image img;
  char err[256];
  ck_assert_msg(image_alloc(&img, w, h, err, sizeof err) == 0, "%s", err);
  prng g;
  prng_seed(&g, seed);
  for (size_t i = 0; i < (size_t)w * (size_t)h * 4; i++) img.px[i] = (float)(-0.2 + 1.4 * prng_unit(&g));
  return img;
}

/* b must be a read back of a: every channel the same 8-bit value (alpha: 1 when dropped). */
static void assert_same8(const image *a, const image *b, int alpha, const char *what) {
  ck_assert_int_eq(a->width, b->width);
  ck_assert_int_eq(a->height, b->height);
  for (size_t i = 0; i < (size_t)a->width * (size_t)a->height * 4; i++) {
    int want = (i % 4 == 3 && !alpha) ? 255 : image_to8(a->px[i]);
    int got = (int)lroundf(b->px[i] * 255.0f);
    if (got != want)
      ck_abort_msg("%s: value %zu (pixel %zu, channel %zu): wrote %d, read %d", what, i, i / 4, i % 4, want, got);
  }
}

START_TEST(test_image_to8) {
  ck_assert_int_eq(image_to8(0.0f), 0);
  ck_assert_int_eq(image_to8(1.0f), 255);
  ck_assert_int_eq(image_to8(-3.0f), 0);
  ck_assert_int_eq(image_to8(7.0f), 255);
  ck_assert_int_eq(image_to8(NAN), 0);
  ck_assert_int_eq(image_to8(0.5f), 128); /* round(127.5) */
  ck_assert_int_eq(image_to8(0.2f), 51);
  ck_assert_int_eq(image_to8(1.0f / 255.0f * 0.49f), 0);
}
END_TEST

START_TEST(test_image_roundtrip) {
  char *dir = make_temp_dir("image");
  char path[512], err[512];
  image a = random_image(13, 7, 5), b;
  static const char *const kinds[] = {"ppm", "png", "rgba.png"};
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "%s/a.%s", dir, kinds[k]);
    int rc = k == 0 ? image_write_ppm(&a, path, err, sizeof err) : image_write_png(&a, path, k == 2, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_msg(image_read(path, &b, err, sizeof err) == 0, "%s", err);
    assert_same8(&a, &b, k == 2, kinds[k]);
    image_free(&b);
  }
  image_free(&a);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* Row 0 is the bottom: the first pixel of a PPM raster is (0, H-1). */
START_TEST(test_image_ppm_top_row_first) {
  char *dir = make_temp_dir("image");
  char path[512], err[512];
  image a;
  ck_assert(image_alloc(&a, 2, 3, err, sizeof err) == 0);
  a.px[4 * (2 * 2 + 0) + 0] = 1.0f; /* red at x = 0, y = 2 (top left) */
  a.px[4 * (0 * 2 + 1) + 2] = 1.0f; /* blue at x = 1, y = 0 (bottom right) */
  snprintf(path, sizeof path, "%s/o.ppm", dir);
  ck_assert_msg(image_write_ppm(&a, path, err, sizeof err) == 0, "%s", err);
  char *raw = read_text(path);
  const char *hdr = "P6\n2 3\n255\n";
  ck_assert_mem_eq(raw, hdr, strlen(hdr));
  const unsigned char *px = (const unsigned char *)raw + strlen(hdr);
  ck_assert_msg(px[0] == 255 && px[1] == 0 && px[2] == 0, "first pixel of the file is not the red top-left one");
  ck_assert_msg(px[15] == 0 && px[16] == 0 && px[17] == 255, "last pixel of the file is not the blue bottom-right one");
  free(raw);
  image_free(&a);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* Bad files, each with the exact reason read_image gives after "PATH: ". */
typedef struct bad_file {
  const char *bytes;
  size_t len;
  const char *reason; /* the whole message after "PATH: ", or its start when prefix */
  int prefix;
} bad_file;
#define BYTES(s) s, sizeof s - 1
static const bad_file BAD_FILES[] = {
    {BYTES(""), "neither a P6 PPM nor a PNG file", 0},
    {BYTES("P3\n1 1\n255\n0 0 0\n"), "neither a P6 PPM nor a PNG file", 0},
    {BYTES("P6\nx 1\n255\n"), "bad PPM header (expected P6 WIDTH HEIGHT 255)", 0},
    {BYTES("P6\n2 2\n65535\n"), "PPM maxval 65535: only 255 is supported", 0},
    {BYTES("P6\n0 2\n255\n"), "image size 0x2: each side must be 1..16384", 0},
    {BYTES("P6\n99999 2\n255\n"), "image size 99999x2: each side must be 1..16384", 0},
    {BYTES("P6\n2 2\n255\n12345"), "PPM raster truncated: 5 of 12 bytes", 0},
    {BYTES("P6\n1 1\n255\nabcd"), "PPM has bytes after the raster", 0},
    {BYTES("\x89PNG\r\n\x1a\nnot really a png"), "bad PNG: ", 1},
};

START_TEST(test_image_rejects) {
  const bad_file *bf = &BAD_FILES[_i];
  char *dir = make_temp_dir("image");
  char path[512], err[512], want[1024];
  snprintf(path, sizeof path, "%s/bad", dir);
  FILE *f = fopen(path, "wb");
  ck_assert(f != NULL);
  ck_assert_uint_eq(fwrite(bf->bytes, 1, bf->len, f), bf->len);
  fclose(f);
  image img;
  ck_assert_msg(image_read(path, &img, err, sizeof err) == -1, "bad file %d was accepted", _i);
  ck_assert_ptr_null(img.px);
  snprintf(want, sizeof want, "%s: %s", path, bf->reason);
  if (bf->prefix)
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "bad file %d: got '%s', want '%s...'", _i, err, want);
  else
    ck_assert_str_eq(err, want);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A PNG cut short is refused, not half read. */
START_TEST(test_image_truncated_png) {
  char *dir = make_temp_dir("image");
  char path[512], cut[600], err[512];
  image a = random_image(40, 30, 9), b;
  snprintf(path, sizeof path, "%s/a.png", dir);
  snprintf(cut, sizeof cut, "%s/cut.png", dir);
  ck_assert(image_write_png(&a, path, 1, err, sizeof err) == 0);
  char cmd[1400];
  snprintf(cmd, sizeof cmd, "head -c 200 '%s' > '%s'", path, cut);
  ck_assert_int_eq(run_shell(cmd), 0);
  ck_assert_int_eq(image_read(cut, &b, err, sizeof err), -1);
  ck_assert_msg(strstr(err, cut) == err && strstr(err, "bad PNG"), "message: %s", err);
  image_free(&a);
  remove_dir(dir);
  free(dir);
}
END_TEST

START_TEST(test_image_io_errors_name_the_path) {
  char err[512];
  image a = random_image(2, 2, 1), b;
  ck_assert_int_eq(image_read("/nonexistent/x.png", &b, err, sizeof err), -1);
  ck_assert_str_eq(err, "/nonexistent/x.png: cannot open: No such file or directory");
  ck_assert_int_eq(image_write_ppm(&a, "/nonexistent/x.ppm", err, sizeof err), -1);
  ck_assert_str_eq(err, "/nonexistent/x.ppm: cannot write: No such file or directory");
  ck_assert_int_eq(image_write_png(&a, "/nonexistent/x.png", 0, err, sizeof err), -1);
  ck_assert_msg(strncmp(err, "/nonexistent/x.png: cannot write PNG: ", 38) == 0, "message: %s", err);
  image_free(&a);
}
END_TEST

START_TEST(test_image_diff) {
  char err[256];
  image a = random_image(4, 3, 2), b = random_image(4, 3, 2), d;
  uint8_t mask[12] = {0};
  b.px[4 * 1 + 2] += 0.5f;  /* pixel 1: far over tol */
  b.px[4 * 2 + 0] += 1e-4f; /* pixel 2: under tol */
  b.px[4 * 3 + 1] += 0.5f;  /* pixel 3: over tol, but masked */
  mask[3] = 1;
  b.px[4 * 5 + 3] = NAN; /* pixel 5: not finite */
  ck_assert_int_eq(image_diff(&a, &b, mask, 1e-3f, &d, err, sizeof err), 2);
  ck_assert_float_eq(d.px[4 * 0 + 0], 0.0f); /* equal: black */
  ck_assert_float_eq(d.px[4 * 0 + 2], 0.0f);
  ck_assert_float_eq(d.px[4 * 1 + 0], 1.0f); /* over: red to yellow */
  ck_assert_float_eq(d.px[4 * 1 + 2], 0.0f);
  ck_assert(d.px[4 * 2 + 0] == 0.0f && d.px[4 * 2 + 2] > 0.0f && d.px[4 * 2 + 2] < 0.4f); /* under: dark blue */
  ck_assert_float_eq(d.px[4 * 3 + 0], 0.5f);                                               /* masked: grey */
  ck_assert_float_eq(d.px[4 * 3 + 1], 0.5f);
  ck_assert(d.px[4 * 5 + 0] == 1.0f && d.px[4 * 5 + 1] == 0.0f && d.px[4 * 5 + 2] == 1.0f); /* magenta */
  image_free(&d);
  ck_assert_int_eq(image_diff(&a, &b, NULL, 1e-3f, &d, err, sizeof err), 3); /* no mask: pixel 3 counts */
  image_free(&d);
  image c = random_image(3, 4, 2);
  ck_assert_int_eq(image_diff(&a, &c, NULL, 1e-3f, &d, err, sizeof err), -1);
  ck_assert_str_eq(err, "image_diff: sizes differ: 4x3 and 3x4");
  image_free(&a);
  image_free(&b);
  image_free(&c);
}
END_TEST

Suite *image_suite(void) {
  Suite *s = suite_create("image");
  TCase *t = tcase_create("io");
  tcase_add_test(t, test_image_to8);
  tcase_add_test(t, test_image_roundtrip);
  tcase_add_test(t, test_image_ppm_top_row_first);
  tcase_add_loop_test(t, test_image_rejects, 0, sizeof BAD_FILES / sizeof *BAD_FILES);
  tcase_add_test(t, test_image_truncated_png);
  tcase_add_test(t, test_image_io_errors_name_the_path);
  suite_add_tcase(s, t);
  t = tcase_create("diff");
  tcase_add_test(t, test_image_diff);
  suite_add_tcase(s, t);
  return s;
}
