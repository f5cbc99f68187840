/* test_scene.c: the scene table and its generators, jitter, animation, and the
 * scene file's reader (every bad file in assignments/05-renderer/tests/scenes/ and its message) and writer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "tests.h"

#define SCENES "assignments/05-renderer/tests/scenes/"

static scene make(const char *name) {
  scene s;
  char err[512];
  ck_assert_msg(scene_make(name, &s, err, sizeof err) == 0, "%s", err);
  return s;
}

/* ---------------------------------------------------------------- table */

/* Every row makes its count of valid circles, the same on a second call. */
START_TEST(test_scene_table_rows) {
  const scene_def *row = &scene_table[_i];
  scene s = make(row->name), t = make(row->name);
  ck_assert_str_eq(s.name, row->name);
  ck_assert_uint_eq(s.n, row->count);
  ck_assert_int_eq(s.animated >= 0, row->animated);
  ck_assert_msg(memcmp(s.c, t.c, s.n * sizeof *s.c) == 0, "%s: two makes differ", row->name);
  size_t inside = 0;
  /* Big loops test with if and abort only on failure: every passing ck_assert
   * costs a message to Check's parent process. */
  for (size_t i = 0; i < s.n; i++) {
    const circle *c = &s.c[i];
    if (!(isfinite(c->x) && isfinite(c->y) && c->r > 0 && c->r <= SCENE_R_MAX))
      ck_abort_msg("%s circle %zu: x %g y %g r %g", row->name, i, c->x, c->y, c->r);
    if (!(c->x >= SCENE_COORD_MIN && c->x <= SCENE_COORD_MAX && c->y >= SCENE_COORD_MIN && c->y <= SCENE_COORD_MAX))
      ck_abort_msg("%s circle %zu: centre (%g, %g) outside the file format's range", row->name, i, c->x, c->y);
    for (int k = 0; k < 3; k++)
      if (!(c->rgb[k] >= 0 && c->rgb[k] <= 1)) ck_abort_msg("%s circle %zu: colour %g", row->name, i, c->rgb[k]);
    inside += c->x + c->r > 0 && c->x - c->r < 1 && c->y + c->r > 0 && c->y - c->r < 1;
  }
  ck_assert_msg(inside > 0, "%s: no circle touches the image", row->name);
  for (size_t j = 0; j < scene_table_len; j++)
    ck_assert_msg(j == (size_t)_i || strcmp(scene_table[j].name, row->name) != 0, "two rows named %s", row->name);
  scene_free(&s);
  scene_free(&t);
}
END_TEST

START_TEST(test_scene_unknown_name) {
  scene s;
  char err[512];
  ck_assert_ptr_null(scene_find("rand10"));
  ck_assert_int_eq(scene_make("rand10", &s, err, sizeof err), -1);
  ck_assert_msg(strncmp(err, "unknown scene \"rand10\"; the scenes are: rgb rgby rand10k", 56) == 0, "%s", err);
  ck_assert_msg(strstr(err, " fireworks") != NULL, "%s", err);
}
END_TEST

/* The properties the spec names: snow is depth-sorted and in snow mode; pattern
 * reaches off the image; littlebig draws biglittle's small circles first. */
START_TEST(test_scene_shapes) {
  scene snow = make("snow"), pattern = make("pattern"), bl = make("biglittle"), lb = make("littlebig");
  ck_assert_int_eq(snow.mode, SCENE_SNOW);
  ck_assert_int_eq(pattern.mode, SCENE_NORMAL);
  for (size_t i = 1; i < snow.n; i++)
    if (snow.c[i - 1].r > snow.c[i].r)
      ck_abort_msg("snow flake %zu (r %g) is nearer than flake %zu (r %g)", i - 1, snow.c[i - 1].r, i, snow.c[i].r);
  ck_assert_uint_eq(pattern.n, 1217);
  size_t off = 0;
  for (size_t i = 0; i < pattern.n; i++) off += pattern.c[i].x - pattern.c[i].r < 0 || pattern.c[i].y + pattern.c[i].r > 1;
  ck_assert_msg(off > 10, "only %zu pattern circles reach off the image", off);
  ck_assert_uint_eq(bl.n, lb.n);
  ck_assert_mem_eq(lb.c, bl.c + 10000, 1000 * sizeof *bl.c);
  ck_assert_mem_eq(lb.c + 1000, bl.c, 10000 * sizeof *bl.c);
  scene_free(&snow);
  scene_free(&pattern);
  scene_free(&bl);
  scene_free(&lb);
}
END_TEST

/* ---------------------------------------------------------------- jitter and animation */

START_TEST(test_scene_jitter) {
  scene base = make("rand10k"), a = make("rand10k"), b = make("rand10k");
  scene_jitter(&a, 99, 1);
  scene_jitter(&b, 99, 1);
  ck_assert_mem_eq(a.c, b.c, a.n * sizeof *a.c); /* deterministic */
  size_t moved = 0;
  for (size_t i = 0; i < a.n; i++) {
    float dx = a.c[i].x - base.c[i].x, dy = a.c[i].y - base.c[i].y;
    if (!(fabsf(dx) <= SCENE_JITTER * 1.001f && fabsf(dy) <= SCENE_JITTER * 1.001f))
      ck_abort_msg("circle %zu moved by (%g, %g)", i, dx, dy);
    if (a.c[i].r != base.c[i].r || memcmp(a.c[i].rgb, base.c[i].rgb, sizeof a.c[i].rgb) != 0)
      ck_abort_msg("circle %zu: jitter changed its radius or colour", i);
    moved += dx != 0 && dy != 0;
  }
  ck_assert_msg(moved > a.n * 99 / 100, "only %zu of %zu circles moved", moved, a.n);
  scene_jitter(&b, 99, 2); /* another frame: another move */
  scene_jitter(&a, 100, 2); /* another seed: another move */
  ck_assert(memcmp(a.c, b.c, a.n * sizeof *a.c) != 0);
  scene_free(&base);
  scene_free(&a);
  scene_free(&b);
}
END_TEST

START_TEST(test_scene_advance) {
  static const char *const animated[] = {"balls", "hypnosis", "fireworks", "snow"};
  for (int k = 0; k < 4; k++) {
    scene s = make(animated[k]), t = make(animated[k]);
    scene_advance(&s, 7);
    ck_assert_msg(memcmp(s.c, t.c, s.n * sizeof *s.c) != 0, "%s: frame 7 is frame 0", animated[k]);
    scene_advance(&t, 3);
    scene_advance(&t, 7); /* a frame does not depend on the ones before */
    ck_assert_msg(memcmp(s.c, t.c, s.n * sizeof *s.c) == 0, "%s: frame 7 depends on history", animated[k]);
    scene_free(&s);
    scene_free(&t);
  }
  scene balls = make("balls");
  for (int f = 0; f < 300; f += 13) {
    scene_advance(&balls, f);
    for (size_t i = 0; i < balls.n; i++)
      ck_assert_msg(balls.c[i].x >= 0 && balls.c[i].x <= 1 && balls.c[i].y >= 0, "ball %zu left at frame %d", i, f);
  }
  scene_free(&balls);
  scene still = make("rgb"), copy = make("rgb");
  scene_advance(&still, 5);
  ck_assert_mem_eq(still.c, copy.c, still.n * sizeof *still.c);
  scene_free(&still);
  scene_free(&copy);
}
END_TEST

/* ---------------------------------------------------------------- the scene file */

START_TEST(test_scene_file_good) {
  scene f, rgb = make("rgb");
  char err[512];
  ck_assert_msg(scene_read(SCENES "good.scene", &f, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(f.mode, SCENE_NORMAL);
  ck_assert_uint_eq(f.n, 3);
  ck_assert_mem_eq(f.c, rgb.c, 3 * sizeof *f.c); /* good.scene is the rgb scene */
  scene_free(&f);
  scene_free(&rgb);
}
END_TEST

/* Writing then reading gives the same bits, in both modes. */
START_TEST(test_scene_file_roundtrip) {
  char *dir = make_temp_dir("scene");
  char path[512], err[512];
  static const char *const names[] = {"pattern", "fireworks"};
  for (int k = 0; k < 2; k++) {
    scene s = make(names[k]), t;
    scene_jitter(&s, 5, 1);
    s.mode = k ? SCENE_SNOW : SCENE_NORMAL;
    snprintf(path, sizeof path, "%s/%s.scene", dir, names[k]);
    ck_assert_msg(scene_write(&s, path, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(scene_read(path, &t, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(t.mode, s.mode);
    ck_assert_uint_eq(t.n, s.n);
    ck_assert_msg(memcmp(s.c, t.c, s.n * sizeof *s.c) == 0, "%s: read back differs", names[k]);
    scene_free(&s);
    scene_free(&t);
  }
  scene s = make("rgb");
  ck_assert_int_eq(scene_write(&s, "/nonexistent/a.scene", err, sizeof err), -1);
  ck_assert_str_eq(err, "/nonexistent/a.scene: cannot write: No such file or directory");
  scene_free(&s);
  remove_dir(dir);
  free(dir);
}
END_TEST

static const struct {
  const char *file;
  const char *message; /* after "assignments/05-renderer/tests/scenes/FILE:" */
} BAD_SCENES[] = {
    {"bad-empty.scene", "1: expected the header \"scanlab-scene 1\""},
    {"bad-header.scene", "1: expected the header \"scanlab-scene 1\""},
    {"bad-mode.scene", "2: expected \"mode normal\" or \"mode snow\""},
    {"bad-count.scene", "3: expected \"count N\" with N from 1 to 16777216"},
    {"bad-count-zero.scene", "3: expected \"count N\" with N from 1 to 16777216"},
    {"bad-too-few.scene", "5: count is 3 but the file ends after 2 circles"},
    {"bad-too-many.scene", "5: more circles than count 1"},
    {"bad-fields.scene", "5: circle 1: expected 6 numbers (x y r red green blue), found 5"},
    {"bad-number.scene", "4: circle 0: \"abc\" is not a number"},
    {"bad-nan.scene", "4: circle 0: x is not a finite number"},
    {"bad-inf.scene", "4: circle 0: y is not a finite number"},
    {"bad-radius-zero.scene", "4: circle 0: radius 0 must be > 0"},
    {"bad-radius-negative.scene", "4: circle 0: radius -0.1 must be > 0"},
    {"bad-radius-big.scene", "4: circle 0: radius 1.5 is more than 1"},
    {"bad-colour.scene", "4: circle 0: green = 1.5 is outside [0, 1]"},
    {"bad-centre.scene", "4: circle 0: x = 3 is outside [-1, 2]"},
    {"bad-long-line.scene", "4: line longer than 255 characters"},
    {"no-such.scene", " cannot open: No such file or directory"},
};

START_TEST(test_scene_file_rejects) {
  char path[256], want[512], err[512];
  snprintf(path, sizeof path, SCENES "%s", BAD_SCENES[_i].file);
  snprintf(want, sizeof want, "%s:%s", path, BAD_SCENES[_i].message);
  scene s;
  ck_assert_msg(scene_read(path, &s, err, sizeof err) == -1, "%s was accepted", path);
  ck_assert_str_eq(err, want);
  ck_assert_ptr_null(s.c);
}
END_TEST

/* docs/scene-format.md lists every scene of the table with its count, and no other. */
START_TEST(test_scene_docs_table) {
  char *doc = read_text("docs/scene-format.md");
  ck_assert_msg(doc != NULL, "docs/scene-format.md is missing");
  char *section = strstr(doc, "## The scenes");
  ck_assert_msg(section != NULL, "docs/scene-format.md has no section \"## The scenes\"");
  char *end = strstr(section, "\n## ");
  if (end) *end = 0;
  char row[128];
  size_t rows_in_doc = 0;
  for (const char *p = section; (p = strstr(p, "\n| `")); p++) rows_in_doc++;
  for (size_t i = 0; i < scene_table_len; i++) {
    snprintf(row, sizeof row, "\n| `%s` | %zu | ", scene_table[i].name, scene_table[i].count);
    ck_assert_msg(strstr(section, row) != NULL, "docs/scene-format.md has no row \"%s\"", row + 1);
  }
  ck_assert_msg(rows_in_doc == scene_table_len, "docs/scene-format.md lists %zu scenes, the table %zu", rows_in_doc,
                scene_table_len);
  free(doc);
}
END_TEST

Suite *scene_suite(void) {
  Suite *s = suite_create("scene");
  TCase *t = tcase_create("table");
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, test_scene_table_rows, 0, (int)scene_table_len);
  tcase_add_test(t, test_scene_unknown_name);
  tcase_add_test(t, test_scene_shapes);
  tcase_add_test(t, test_scene_jitter);
  tcase_add_test(t, test_scene_advance);
  tcase_add_test(t, test_scene_docs_table);
  suite_add_tcase(s, t);
  t = tcase_create("file");
  tcase_add_test(t, test_scene_file_good);
  tcase_add_test(t, test_scene_file_roundtrip);
  tcase_add_loop_test(t, test_scene_file_rejects, 0, sizeof BAD_SCENES / sizeof *BAD_SCENES);
  suite_add_tcase(s, t);
  return s;
}
