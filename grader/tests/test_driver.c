/* test_driver.c: the harness driver (grader/harness/driver.c) on the CPU
 * tier's host-memory device: every timed rep verified, typed comparison with
 * tolerance, mask and non-finite values, the workspace, next_frame, the copy
 * row and the --list machine format. A fake assignment plays the student. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend_cpu.h"
#include "image.h"
#include "result.h"
#include "tests.h"

/* ---------------------------------------------------------------- the fake assignment */

enum { V_RIGHT, V_WRONG_ONCE, V_RIGHT_LAST, V_REUSE, V_NEEDS_WORK, V_MASKED_DIFF, V_UNMASKED_DIFF, V_NAN, V_SKIP_TAIL,
       V_FIRST_FRAME_WRONG };
static const hx_variant VARIANTS[] = {
    {"right", "every rep right"},
    {"wrong_once", "wrong on the second timed rep only"},
    {"right_last", "right on the last timed rep only"},
    {"reuse", "repeats its first frame's answer"},
    {"needs_work", "uses n words of workspace"},
    {"masked_diff", "differs on a masked element"},
    {"unmasked_diff", "differs on an unmasked element by 1.0"},
    {"nan", "writes a NaN"},
    {"skip_tail", "leaves the last element unwritten"},
    {"first_frame_wrong", "one wrong pixel in the first timed frame only"},
};

/* param: 0 uint32 array, 1 a 4x3 rgba32f image, 2 float32 array. */
static const hx_case CASES[] = {
    {"ints", 10, 1, 5, 0},
    {"image", 12, 2, 5, 1},
    {"floats", 8, 3, 5, 2},
};

static int calls, total_reps = 5;
static size_t workspace_override = (size_t)-1;

typedef struct fake {
  uint32_t *in, *out, *expect, *cache;
  float *fout, *fexpect;
  uint8_t *mask;
  size_t n;
  uint64_t param;
  uint32_t shift;
  void *work;
  size_t work_bytes;
} fake;

static size_t fake_workspace(uint64_t n, uint64_t param) {
  (void)param;
  return workspace_override != (size_t)-1 ? workspace_override : n * sizeof(uint32_t);
}

static void *fake_setup(const hx_spec *spec, hx_io *io) {
  fake *f = (fake *)hx_malloc(sizeof *f);
  memset(f, 0, sizeof *f);
  f->n = spec->n;
  f->param = spec->param;
  f->work = spec->work;
  f->work_bytes = spec->work_bytes;
  calls = 0;
  if (spec->param == 0) {
    f->in = hx_random_uints(spec->seed, f->n, 0, 1000);
    f->out = (uint32_t *)hx_dev_malloc(f->n * sizeof *f->out);
    f->expect = (uint32_t *)hx_malloc(f->n * sizeof *f->expect);
    f->cache = (uint32_t *)hx_malloc(f->n * sizeof *f->cache);
    for (size_t i = 0; i < f->n; i++) f->expect[i] = f->in[i];
    hx_add_output(io, "out", HX_UINT32, f->out, spec->check ? f->expect : NULL, f->n);
    return f;
  }
  size_t ch = spec->param == 1 ? 4 : 1;
  f->fout = (float *)hx_dev_malloc(f->n * ch * sizeof(float));
  f->fexpect = (float *)hx_malloc(f->n * ch * sizeof(float));
  f->mask = (uint8_t *)hx_malloc(f->n);
  for (size_t i = 0; i < f->n * ch; i++) f->fexpect[i] = 0.5f;
  memset(f->mask, 0, f->n);
  f->mask[5] = 1;
  hx_output *o = hx_add_output(io, "image", spec->param == 1 ? HX_RGBA32F : HX_FLOAT32, f->fout,
                               spec->check ? f->fexpect : NULL, f->n);
  o->tol = 1e-3f;
  o->mask = f->mask;
  o->width = spec->param == 1 ? 4 : 0;
  o->height = spec->param == 1 ? 3 : 0;
  return f;
}

static void fake_next_frame(void *state, int frame, hx_io *io) {
  fake *f = (fake *)state;
  if (f->param != 0) return;
  f->shift = (uint32_t)frame; /* the "input" moves; the expected output with it */
  for (size_t i = 0; i < f->n; i++) f->expect[i] = f->in[i] + f->shift;
  io->expect_changed = 1;
}

static void fake_run(void *state, int variant) {
  fake *f = (fake *)state;
  calls++;
  if (f->param != 0) {
    size_t ch = f->param == 1 ? 4 : 1;
    for (size_t i = 0; i < f->n * ch; i++) f->fout[i] = 0.5f;
    if (variant == V_MASKED_DIFF) f->fout[5 * ch] = 1.5f;
    if (variant == V_UNMASKED_DIFF || (variant == V_FIRST_FRAME_WRONG && calls == 1)) f->fout[6 * ch + 1] = 1.5f;
    if (variant == V_NAN) f->fout[3 * ch] = NAN;
    return;
  }
  if (variant == V_NEEDS_WORK) {
    if (!f->work || f->work_bytes < f->n * sizeof(uint32_t)) {
      fprintf(stderr, "fake: illegal address (note: %s)\n", hx_error_hint());
      exit(3);
    }
    memcpy(f->work, f->in, f->n * sizeof(uint32_t));
  }
  size_t count = variant == V_SKIP_TAIL ? f->n - 1 : f->n;
  for (size_t i = 0; i < count; i++) f->out[i] = f->in[i] + f->shift;
  if (variant == V_REUSE) {
    if (calls == 1) memcpy(f->cache, f->out, f->n * sizeof *f->out);
    memcpy(f->out, f->cache, f->n * sizeof *f->out);
  }
  if (variant == V_WRONG_ONCE && calls == 2) f->out[3] ^= 1u;
  if (variant == V_RIGHT_LAST && calls != total_reps) f->out[0] ^= 1u;
}

static const hx_variant BASELINES[] = {{"library", "a baseline: right, like CUB's"}};
static void fake_run_baseline(void *state, int baseline) {
  (void)baseline;
  fake_run(state, V_RIGHT);
}

static const hx_assignment FAKE = {
    .name = "99-fake",
    .variants = VARIANTS,
    .n_variants = sizeof VARIANTS / sizeof *VARIANTS,
    .cases = CASES,
    .n_cases = sizeof CASES / sizeof *CASES,
    .max_n = 1000,
    .bench_case = "ints",
    .workspace_bytes = fake_workspace,
    .setup = fake_setup,
    .run = fake_run,
    .next_frame = fake_next_frame,
    .baselines = BASELINES,
    .n_baselines = 1,
    .run_baseline = fake_run_baseline,
};

/* ---------------------------------------------------------------- running it */

typedef struct outcome {
  int exit_code;
  char *out, *err; /* stdout (results and --list), stderr */
} outcome;

/* Runs hx_main_with on assignment a in a child (the driver exits on errors),
 * stdout and stderr to files. */
static outcome run_assignment(const hx_assignment *a, const char *args) {
  char *dir = make_temp_dir("driver");
  char out_path[512], err_path[512];
  snprintf(out_path, sizeof out_path, "%s/out", dir);
  snprintf(err_path, sizeof err_path, "%s/err", dir);
  fflush(NULL);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    if (!freopen(out_path, "w", stdout) || !freopen(err_path, "w", stderr)) _exit(99);
    static char buf[512];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "harness %s", args);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " ")) argv[argc++] = t;
    argv[argc] = NULL;
    int rc = hx_main_with(argc, argv, a, &HX_CPU_BACKEND);
    fflush(NULL);
    _exit(rc);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  outcome o = {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_text(out_path),
               read_text(err_path)};
  remove_dir(dir);
  free(dir);
  return o;
}

static outcome run_fake(const char *args) { return run_assignment(&FAKE, args); }

static result_line one_result(const outcome *o) {
  result_line r;
  char err[200];
  ck_assert_msg(o->exit_code == 0, "exit %d: %s", o->exit_code, o->err);
  ck_assert_msg(result_parse(o->out, &r, err, sizeof err) == 0, "%s: %s", err, o->out);
  return r;
}

static result_line case_result(const char *variant, const char *kase) {
  char args[256];
  snprintf(args, sizeof args, "--variant %s --case %s --check --reps %d --warmup 0", variant, kase, total_reps);
  outcome o = run_fake(args);
  return one_result(&o);
}

/* ---------------------------------------------------------------- hx_judge */

START_TEST(test_judge_float_tolerance) {
  float e[1] = {0.5f};
  float at[1] = {0.75f}, inside[1] = {0.7499f}, outside[1] = {nextafterf(0.75f, 1.0f)};
  ck_assert_int_eq(hx_judge(HX_FLOAT32, at, e, 0, 0.25f).wrong, 0);
  ck_assert_int_eq(hx_judge(HX_FLOAT32, inside, e, 0, 0.25f).wrong, 0);
  ck_assert_int_eq(hx_judge(HX_FLOAT32, outside, e, 0, 0.25f).wrong, 1);
  ck_assert_float_eq(hx_judge(HX_FLOAT32, at, e, 0, 0.25f).err, 0.25f);
  float below[1] = {0.25f};
  ck_assert_int_eq(hx_judge(HX_FLOAT32, below, e, 0, 0.25f).wrong, 0);
  float below_out[1] = {0.2499f}; /* (0.5 - nextafterf(0.25, 0) rounds to 0.25 in float: the compare is in float) */
  ck_assert_int_eq(hx_judge(HX_FLOAT32, below_out, e, 0, 0.25f).wrong, 1);
}
END_TEST

START_TEST(test_judge_nonfinite_fails) {
  float e[4] = {0.5f, 0.5f, 0.5f, 0.5f};
  float bad[3][4] = {{NAN, 0.5f, 0.5f, 0.5f}, {0.5f, INFINITY, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f, -INFINITY}};
  for (int i = 0; i < 3; i++) {
    hx_elem_verdict v = hx_judge(HX_RGBA32F, bad[i], e, 0, 1e9f); /* no tolerance lets one through */
    ck_assert_msg(v.wrong && v.nonfinite, "pixel %d: a non-finite channel passed", i);
  }
}
END_TEST

START_TEST(test_judge_rgba_channels) {
  float e[8] = {0, 0, 0, 0, 0.5f, 0.5f, 0.5f, 1};
  float g[8] = {0, 0, 0, 0, 0.5f, 0.5f, 0.5f, 1.002f};
  ck_assert_int_eq(hx_judge(HX_RGBA32F, g, e, 0, 1e-3f).wrong, 0);
  ck_assert_int_eq(hx_judge(HX_RGBA32F, g, e, 1, 1e-3f).wrong, 1); /* the alpha channel alone is off */
}
END_TEST

START_TEST(test_judge_ints_exact) {
  uint32_t e[2] = {0xffffffffu, 7}, g[2] = {0xffffffffu, 8};
  ck_assert_int_eq(hx_judge(HX_UINT32, g, e, 0, 100).wrong, 0);
  ck_assert_int_eq(hx_judge(HX_UINT32, g, e, 1, 100).wrong, 1); /* no tolerance for integers */
}
END_TEST

/* ---------------------------------------------------------------- every rep verified */

START_TEST(test_right_passes) {
  result_line r = case_result("right", "ints");
  ck_assert_int_eq(r.ok, 1);
  ck_assert_int_eq(r.verified, 5);
  ck_assert_int_eq(r.bad_reps, 0);
}
END_TEST

START_TEST(test_wrong_once_fails) {
  result_line r = case_result("wrong_once", "ints");
  ck_assert_int_eq(r.ok, 0);
  ck_assert_int_eq(r.bad_reps, 1);
  ck_assert_int_eq(r.verified, 5);
  ck_assert_int_eq(r.mismatches, 1);
  ck_assert_int_eq(r.first_bad, 3);
}
END_TEST

START_TEST(test_right_last_only_fails) {
  result_line r = case_result("right_last", "ints");
  ck_assert_int_eq(r.ok, 0);
  ck_assert_int_eq(r.bad_reps, 4);
  ck_assert_int_eq(r.first_bad, 0);
}
END_TEST

START_TEST(test_unwritten_element_fails) {
  result_line r = case_result("skip_tail", "ints");
  ck_assert_int_eq(r.ok, 0);
  ck_assert_int_eq(r.first_bad, 9); /* the poison stayed in the last element */
}
END_TEST

START_TEST(test_reused_frame_fails) {
  result_line r = case_result("reuse", "ints");
  ck_assert_int_eq(r.ok, 0);
  ck_assert_int_eq(r.bad_reps, 4); /* frames 1..4 moved the input */
}
END_TEST

/* ---------------------------------------------------------------- typed outputs */

START_TEST(test_masked_difference_passes) {
  result_line r = case_result("masked_diff", "image");
  ck_assert_int_eq(r.ok, 1);
  ck_assert_int_eq(r.masked, 1);
}
END_TEST

START_TEST(test_unmasked_difference_fails_with_pixel) {
  result_line r = case_result("unmasked_diff", "image");
  ck_assert_int_eq(r.ok, 0);
  ck_assert_int_eq(r.mismatches, 1);
  ck_assert_int_eq(r.first_bad, 6);
  ck_assert_int_eq(r.first_x, 2);
  ck_assert_int_eq(r.first_y, 1);
  ck_assert_msg(fabs(r.max_err - 1.0) < 1e-6, "max_err %g, want 1", r.max_err);
  ck_assert_int_eq(r.masked, 1);
}
END_TEST

START_TEST(test_nan_fails) {
  result_line r = case_result("nan", "floats");
  ck_assert_int_eq(r.ok, 0);
  ck_assert_int_eq(r.nonfinite, 1);
  ck_assert_int_eq(r.first_bad, 3);
  ck_assert_int_eq(r.first_x, -1); /* not an image */
}
END_TEST

/* ---------------------------------------------------------------- workspace */

START_TEST(test_workspace_passed) {
  result_line r = case_result("needs_work", "ints");
  ck_assert_int_eq(r.ok, 1);
  ck_assert_int_eq(r.work_bytes, 40);
}
END_TEST

START_TEST(test_workspace_zero_hint) {
  workspace_override = 0;
  outcome o = run_fake("--variant needs_work --case ints --check --reps 2 --warmup 0");
  ck_assert_int_eq(o.exit_code, 3);
  ck_assert_msg(strstr(o.err, "workspace function returned 0 bytes for n=10, so d_work is NULL"), "%s", o.err);
}
END_TEST

START_TEST(test_workspace_too_big) {
  cpu_capacity = 1 << 20;
  workspace_override = 2 << 20;
  outcome o = run_fake("--variant needs_work --case ints --check");
  ck_assert_int_eq(o.exit_code, 3);
  ck_assert_msg(strstr(o.err, "not enough device memory for the workspace (workspace_bytes(n=10)): 2097152 bytes wanted,"),
                "%s", o.err);
}
END_TEST

/* ---------------------------------------------------------------- files out */

/* --out writes the last rep's image as PNG (read back here), and a wrong image
 * case leaves student, expected and difference images with --save-failed. */
START_TEST(test_image_out_and_saved_failure) {
  char *dir = make_temp_dir("imgout"), args[1024], path[1024], err[300];
  snprintf(args, sizeof args, "--variant unmasked_diff --case image --check --reps 2 --warmup 0 --out %s/out.png "
           "--save-failed %s/failed", dir, dir);
  outcome o = run_fake(args);
  result_line r = one_result(&o);
  ck_assert_int_eq(r.ok, 0);
  image img;
  snprintf(path, sizeof path, "%s/out.png", dir);
  ck_assert_msg(image_read(path, &img, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(img.width, 4);
  ck_assert_int_eq(img.height, 3);
  ck_assert_float_eq_tol(img.px[0], 128 / 255.0f, 1e-6f); /* 0.5 everywhere... */
  ck_assert_float_eq_tol(img.px[4 * 6 + 1], 1.0f, 1e-6f); /* ...but pixel 6's green, 1.5 clamped */
  image_free(&img);
  static const char *const FILES[] = {"student.png", "expected.png", "diff.png", "student.ppm", "expected.ppm", "diff.ppm"};
  for (int i = 0; i < 6; i++) {
    snprintf(path, sizeof path, "%s/failed/image.%s", dir, FILES[i]);
    ck_assert_msg(image_read(path, &img, err, sizeof err) == 0, "%s", err);
    image_free(&img);
  }
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A frame wrong only once is the one saved, not the last (right) one. */
START_TEST(test_saved_failure_is_the_wrong_frame) {
  char *dir = make_temp_dir("imgfirst"), args[1024], path[1024], err[300];
  snprintf(args, sizeof args, "--variant first_frame_wrong --case image --check --reps 3 --warmup 0 --save-failed %s", dir);
  outcome o = run_fake(args);
  result_line r = one_result(&o);
  ck_assert_int_eq(r.bad_reps, 1);
  image img;
  snprintf(path, sizeof path, "%s/image.student.png", dir);
  ck_assert_msg(image_read(path, &img, err, sizeof err) == 0, "%s", err);
  ck_assert_float_eq_tol(img.px[4 * 6 + 1], 1.0f, 1e-6f); /* the wrong pixel is in the saved image */
  image_free(&img);
  remove_dir(dir);
  free(dir);
}
END_TEST

START_TEST(test_out_needs_image_extension) {
  outcome o = run_fake("--variant right --case image --check --reps 1 --out /tmp/scanlab-out.bin");
  ck_assert_int_eq(o.exit_code, 2);
  ck_assert_msg(strstr(o.err, "an image is written as .png or .ppm"), "%s", o.err);
}
END_TEST

/* ---------------------------------------------------------------- protocol */

START_TEST(test_list_machine_format) {
  outcome o = run_fake("--list");
  ck_assert_int_eq(o.exit_code, 0);
  ck_assert_msg(!strncmp(o.out, "assignment 99-fake\nvariant right every rep right\n", 48), "%s", o.out);
  ck_assert_msg(strstr(o.out, "\nvariant copy_d2d "), "%s", o.out);
  ck_assert_msg(strstr(o.out, "\ncase image 12 2 5 1\n"), "%s", o.out);
}
END_TEST

START_TEST(test_copy_variant_unchecked) {
  result_line r = case_result("copy_d2d", "ints");
  ck_assert_int_eq(r.checked, 0);
  ck_assert_int_eq(r.ok, 1);
  ck_assert_int_eq(r.verified, 0);
  ck_assert_str_eq(r.variant, "copy_d2d");
}
END_TEST

/* --bench: the copy, the baseline, then every variant, each verified; a wrong
 * variant says NO and makes the exit code 1. */
START_TEST(test_bench_rows) {
  outcome o = run_fake("--bench --reps 3 --warmup 0");
  ck_assert_int_eq(o.exit_code, 1);
  ck_assert_msg(strstr(o.out, "\ncopy_d2d                     copy     ints                     10 "), "%s", o.out);
  ck_assert_msg(strstr(o.out, "\nlibrary                      baseline ints                     10 "), "%s", o.out);
  char *right = strstr(o.out, "\nright                        variant  ints                     10 ");
  char *wrong = strstr(o.out, "\nwrong_once                   variant  ints                     10 ");
  ck_assert_msg(strstr(o.out, "\nneeds_work                   variant  ints                     10 "), "%s", o.out);
  ck_assert_msg(right && wrong, "%s", o.out);
  ck_assert_msg(strstr(right, " yes\n") < strstr(right, "\nwrong_once"), "right must verify: %s", o.out);
  ck_assert_msg(!strncmp(strchr(wrong + 1, '\n') - 3, " NO", 3), "wrong_once must say NO: %s", o.out);
  ck_assert_msg(strstr(o.out, "every rep verified"), "%s", o.out);
}
END_TEST

/* A baseline with a largest n is left out of the rows of larger cases. */
START_TEST(test_bench_baseline_max_n) {
  static const uint64_t MAX_N[] = {5};
  hx_assignment a = FAKE;
  a.baseline_max_n = MAX_N;
  outcome o = run_assignment(&a, "--bench --reps 2 --warmup 0 --variant right");
  ck_assert_msg(strstr(o.out, "\ncopy_d2d ") && !strstr(o.out, "\nlibrary "), "%s", o.out);
  o = run_assignment(&FAKE, "--bench --reps 2 --warmup 0");
  ck_assert_msg(strstr(o.out, "\nlibrary "), "%s", o.out);
}
END_TEST

/* bench_reps sets how many reps a --bench row times (05: each has a CPU-drawn
 * frame); --reps still overrides it. */
START_TEST(test_bench_reps) {
  hx_assignment a = FAKE;
  a.bench_reps = 2;
  outcome o = run_assignment(&a, "--bench --warmup 0 --variant right");
  ck_assert_msg(strstr(o.out, "median of 2 reps after 0 warm-up"), "%s", o.out);
  o = run_assignment(&a, "--bench --reps 3 --warmup 0 --variant right");
  ck_assert_msg(strstr(o.out, "median of 3 reps after 0 warm-up"), "%s", o.out);
  o = run_assignment(&FAKE, "--bench --warmup 0 --variant right");
  ck_assert_msg(strstr(o.out, "median of each case's reps (--list)"), "%s", o.out);
}
END_TEST

START_TEST(test_unknown_variant_exit_2) {
  outcome o = run_fake("--variant nope --case ints");
  ck_assert_int_eq(o.exit_code, 2);
  ck_assert_msg(strstr(o.err, "unknown variant 'nope'"), "%s", o.err);
}
END_TEST

Suite *driver_suite(void) {
  Suite *s = suite_create("driver");
  TCase *t = tcase_create("judge");
  tcase_add_test(t, test_judge_float_tolerance);
  tcase_add_test(t, test_judge_nonfinite_fails);
  tcase_add_test(t, test_judge_rgba_channels);
  tcase_add_test(t, test_judge_ints_exact);
  suite_add_tcase(s, t);
  t = tcase_create("reps");
  tcase_add_test(t, test_right_passes);
  tcase_add_test(t, test_wrong_once_fails);
  tcase_add_test(t, test_right_last_only_fails);
  tcase_add_test(t, test_unwritten_element_fails);
  tcase_add_test(t, test_reused_frame_fails);
  suite_add_tcase(s, t);
  t = tcase_create("typed");
  tcase_add_test(t, test_masked_difference_passes);
  tcase_add_test(t, test_unmasked_difference_fails_with_pixel);
  tcase_add_test(t, test_nan_fails);
  suite_add_tcase(s, t);
  t = tcase_create("workspace");
  tcase_add_test(t, test_workspace_passed);
  tcase_add_test(t, test_workspace_zero_hint);
  tcase_add_test(t, test_workspace_too_big);
  suite_add_tcase(s, t);
  t = tcase_create("files");
  tcase_add_test(t, test_image_out_and_saved_failure);
  tcase_add_test(t, test_out_needs_image_extension);
  tcase_add_test(t, test_saved_failure_is_the_wrong_frame);
  suite_add_tcase(s, t);
  t = tcase_create("protocol");
  tcase_add_test(t, test_list_machine_format);
  tcase_add_test(t, test_copy_variant_unchecked);
  tcase_add_test(t, test_unknown_variant_exit_2);
  tcase_add_test(t, test_bench_rows);
  tcase_add_test(t, test_bench_baseline_max_n);
  tcase_add_test(t, test_bench_reps);
  suite_add_tcase(s, t);
  return s;
}
