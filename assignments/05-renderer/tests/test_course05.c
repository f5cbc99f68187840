/* test_course05.c: the course's checks of assignment 05's own texts: the handout's worked
 * example of blend order ("Why order matters"), computed again with the CPU reference
 * (render_cpu.c) and read with tests/worked_support.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "render_cpu.h"
#include "scene.h"
#include "tests.h"
#include "worked.h"

/* A 16 x 16 normal scene of two circles that cover every pixel, drawn by the
 * CPU reference; rgba receives pixel (0, 0). */
static void render_two(const float first[3], const float second[3], float rgba[4]) {
  circle c[2] = {{.x = 0.5f, .y = 0.5f, .r = 0.9f}, {.x = 0.5f, .y = 0.5f, .r = 0.9f}};
  memcpy(c[0].rgb, first, sizeof c[0].rgb);
  memcpy(c[1].rgb, second, sizeof c[1].rgb);
  scene s = {.name = "worked", .mode = SCENE_NORMAL, .n = 2, .c = c, .animated = -1, .anim = NULL};
  image img = {0};
  char err[256];
  ck_assert_msg(render_cpu(&s, 16, 16, 1, &img, NULL, err, sizeof err) == 0, "render_cpu: %s", err);
  memcpy(rgba, img.px, 4 * sizeof *rgba);
  image_free(&img);
}

/* Reads "(x, y, z)" after phrase and compares it with rgb at the quoted rounding. */
static void check_triple(const char *file, const char *text, const char *phrase, const float rgb[3]) {
  const char *p = after_phrase(file, text, phrase);
  while (*p == ' ' || *p == '\n') p++;
  ck_assert_msg(*p == '(', "%s: no (r, g, b) after '%s'", file, phrase);
  p++;
  for (int k = 0; k < 3; k++) {
    while (*p == ' ' || *p == ',') p++;
    ck_assert_msg(same_at_quoted_rounding(p, rgb[k]), "%s: '%s': channel %d is %g in the text, %g by render_cpu's blend", file,
                  phrase, k, strtod(p, NULL), rgb[k]);
    strtod(p, (char **)&p);
  }
}

/* assignments/05-renderer/README.md, "Why order matters": red (1,0,0) then blue
 * (0,0,1) over white, and blue then red, blended by the CPU reference; the
 * formula's a = 0.5 (RENDER_ALPHA); and "P.a comes out 0.5 short" for a lost
 * circle (its alpha, so two circles leave P.a = 1 + 2a, one 1 + a). */
START_TEST(test_05_blend_order) {
  const char *F = "assignments/05-renderer/README.md";
  char *t = text_of(F);
  const float red[3] = {1, 0, 0}, blue[3] = {0, 0, 1};
  float rb[4], br[4];
  render_two(red, blue, rb);
  render_two(blue, red, br);
  check_triple(F, t, "Red (1,0,0) then blue (0,0,1) over white gives", rb);
  check_triple(F, t, "blue then red gives", br);
  ck_assert_msg(rb[3] == 1 + 2 * RENDER_ALPHA && br[3] == rb[3], "two circles leave P.a = %g", rb[3]);
  ck_assert_msg(same_at_quoted_rounding(after_phrase(F, t, "with a = "), RENDER_ALPHA), "%s: 'with a = ' is not RENDER_ALPHA %g",
                F, RENDER_ALPHA);
  const char *lost = after_phrase(F, t, "so P.a comes out ");
  float one[4];
  circle c1 = {.x = 0.5f, .y = 0.5f, .r = 0.9f, .rgb = {1, 0, 0}};
  scene s = {.name = "worked", .mode = SCENE_NORMAL, .n = 1, .c = &c1, .animated = -1, .anim = NULL};
  image img = {0};
  char err[256];
  ck_assert_msg(render_cpu(&s, 16, 16, 1, &img, NULL, err, sizeof err) == 0, "render_cpu: %s", err);
  memcpy(one, img.px, sizeof one);
  image_free(&img);
  ck_assert_msg(same_at_quoted_rounding(lost, rb[3] - one[3]), "%s: a lost circle leaves P.a %g short, not %.10s", F,
                rb[3] - one[3], lost);
  free(t);
}
END_TEST

Suite *course05_suite(void) {
  Suite *s = suite_create("course05");
  TCase *t = tcase_create("handout");
  tcase_add_test(t, test_05_blend_order);
  suite_add_tcase(s, t);
  return s;
}
