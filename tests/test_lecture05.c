/* test_lecture05.c: lecture 05's examples (lectures/examples/large_*.cu,
 * cdp2_*.cu): the PTX of every kernel holds what the lecture says it does
 * (the look-back's acquire loads and release stores and its one tile counter,
 * the ticket's fences, the back-off's nanosleep, no ordering at all in the
 * kernels that kernel boundaries order or in the buggy gap kernel, device-side
 * launches and no device-side synchronization in the CDP2 example); each
 * example rejects arguments with exit 2 and fails without a GPU with exit 3
 * and one "file:line: call: reason" line; and lecture 05 names each example.
 * Run from the repo root after `make test-builds`. */
#include <glob.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "tests.h"

static const char *const EXAMPLES[] = {"large_max_scan", "large_ticket", "large_buggy_gap", "cdp2_tile_max"};
#define N_EXAMPLES (sizeof EXAMPLES / sizeof *EXAMPLES)

/* ---------------------------------------------------------------- the PTX of each kernel */

#define LS "^[[:space:]]*"
static const char FENCE_ANY[] = LS "(membar|fence)\\.";
static const char FENCE_GPU[] = LS "(membar\\.gl|fence\\.sc\\.gpu);";
static const char ACQ_REL_ANY[] = "\\.(acquire|release)\\.";
static const char ACQ_GPU[] = LS "ld\\.acquire\\.gpu\\.";
static const char REL_GPU[] = LS "st\\.release\\.gpu\\.";
static const char ATOM_ANY[] = LS "(atom|red)\\.";
static const char ATOM_ADD[] = LS "atom\\.global\\.(gpu\\.)?add\\.";
static const char VOLATILE[] = "\\.volatile\\.";
static const char NANOSLEEP[] = LS "nanosleep\\.";
static const char BARRIER[] = LS "bar\\.sync";
static const char DEVICE_LAUNCH[] = "__cudaCDP2LaunchDeviceV2";
static const char PARAM_BUFFER[] = "__cudaCDP2GetParameterBufferV2";
static const char DEVICE_SYNC[] = "DeviceSynchronize";

/* What one kernel's PTX holds: between min and max lines match pattern. */
static const struct {
  const char *example, *kernel, *pattern, *why;
  long min, max;
} ROWS[] = {
    /* hierarchical and reduce-then-scan: kernel boundaries order everything */
    {"large_max_scan", "scan_tiles", FENCE_ANY, "a tile kernel needs no fence", 0, 0},
    {"large_max_scan", "scan_tiles", ACQ_REL_ANY, "a tile kernel needs no acquire or release", 0, 0},
    {"large_max_scan", "scan_tiles", ATOM_ANY, "a tile kernel needs no atomic", 0, 0},
    {"large_max_scan", "add_carry", FENCE_ANY, "adding the carry needs no fence", 0, 0},
    {"large_max_scan", "add_carry", ATOM_ANY, "adding the carry needs no atomic", 0, 0},
    {"large_max_scan", "reduce_tiles", FENCE_ANY, "a reduction of one tile needs no fence", 0, 0},
    {"large_max_scan", "reduce_tiles", ACQ_REL_ANY, "a reduction of one tile needs no acquire or release", 0, 0},
    /* the chained scan: one tile counter, release stores of AGGREGATE and PREFIX, an acquire load in the look-back */
    {"large_max_scan", "chained_scan", ATOM_ADD, "one atomicAdd takes the tile id", 1, 1},
    {"large_max_scan", "chained_scan", REL_GPU, "two release stores publish the statuses", 2, 2},
    {"large_max_scan", "chained_scan", ACQ_GPU, "the look-back reads a status with ld.acquire.gpu", 1, 2},
    {"large_max_scan", "chained_scan", FENCE_ANY, "release and acquire need no fence", 0, 0},
    {"large_max_scan", "chained_scan", VOLATILE, "no volatile flag", 0, 0},
    /* the ticket: fence before the ticket, fence after it */
    {"large_ticket", "ticket_max", FENCE_GPU, "a fence on each side of the ticket", 2, 2},
    {"large_ticket", "ticket_max", ATOM_ADD, "one atomicAdd draws the ticket", 1, 1},
    {"large_ticket", "ticket_max", ACQ_REL_ANY, "the ticket reduction publishes nothing else", 0, 0},
    {"large_ticket", "broadcast_distance", FENCE_GPU, "a fence on each side of the ticket", 2, 2},
    {"large_ticket", "broadcast_distance", ATOM_ADD, "one atomicAdd draws the ticket", 1, 1},
    {"large_ticket", "broadcast_distance", REL_GPU, "the last block releases the flag", 1, 1},
    {"large_ticket", "broadcast_distance", ACQ_GPU, "the waiting blocks acquire it", 1, 2},
    {"large_ticket", "broadcast_distance", NANOSLEEP, "the wait backs off with __nanosleep", 1, 1},
    /* the buggy gap kernel trusts __syncthreads() to order one atomicMax of each block before its read */
    {"large_buggy_gap", "buggy_gap", BARRIER, "__syncthreads() is there", 1, LONG_MAX},
    {"large_buggy_gap", "buggy_gap", FENCE_ANY, "no fence", 0, 0},
    {"large_buggy_gap", "buggy_gap", ATOM_ANY, "one atomicMax a block", 1, 1},
    {"large_buggy_gap", "buggy_gap", ACQ_REL_ANY, "no acquire or release", 0, 0},
    {"large_buggy_gap", "buggy_gap", VOLATILE, "no volatile", 0, 0},
    /* CDP2: two device-side launches (fire-and-forget, tail), no device-side synchronization */
    {"cdp2_tile_max", "cdp2_level", DEVICE_LAUNCH, "two device-side launches", 2, 2},
    {"cdp2_tile_max", "cdp2_level", PARAM_BUFFER, "a parameter buffer per launch", 2, 2},
    {"cdp2_tile_max", "cdp2_level", DEVICE_SYNC, "CDP2 has no device-side cudaDeviceSynchronize", 0, 0},
    {"cdp2_tile_max", "tile_max", DEVICE_LAUNCH, "the tile kernel launches nothing", 0, 0},
};
#define N_ROWS (sizeof ROWS / sizeof *ROWS)

START_TEST(test_lecture05_kernel_ptx) {
  char ptx[256], err[512];
  snprintf(ptx, sizeof ptx, "build/lectures/%s.ptx", ROWS[_i].example);
  const long n = ptx_count(ptx, ROWS[_i].kernel, ROWS[_i].pattern, err, sizeof err);
  ck_assert_msg(n >= 0, "%s", err);
  ck_assert_msg(n >= ROWS[_i].min && n <= ROWS[_i].max, "%s, kernel %s: %ld lines match %s; lecture 05 says %s",
                ptx, ROWS[_i].kernel, n, ROWS[_i].pattern, ROWS[_i].why);
}
END_TEST

/* Every kernel of the examples has a row, and every example of the lecture's
 * names (large_*, cdp2_*) is in EXAMPLES. */
START_TEST(test_lecture05_all_listed) {
  glob_t g;
  ck_assert_int_eq(glob("lectures/examples/large_*.cu", 0, NULL, &g), 0);
  glob("lectures/examples/cdp2_*.cu", GLOB_APPEND, NULL, &g);
  ck_assert_msg(g.gl_pathc == N_EXAMPLES, "%zu large_*/cdp2_* examples, %zu in EXAMPLES", g.gl_pathc, N_EXAMPLES);
  for (size_t i = 0; i < g.gl_pathc; i++) {
    int known = 0;
    for (size_t e = 0; e < N_EXAMPLES; e++) {
      char path[256];
      snprintf(path, sizeof path, "lectures/examples/%s.cu", EXAMPLES[e]);
      known |= !strcmp(path, g.gl_pathv[i]);
    }
    ck_assert_msg(known, "%s is not in test_lecture05.c's EXAMPLES", g.gl_pathv[i]);
  }
  globfree(&g);
  for (size_t e = 0; e < N_EXAMPLES; e++) {
    char path[256];
    snprintf(path, sizeof path, "build/lectures/%s.ptx", EXAMPLES[e]);
    char *ptx = read_text(path);
    ck_assert_msg(ptx != NULL, "%s is missing: run make test-builds", path);
    for (char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
      char name[128];
      ck_assert(sscanf(p + 7, "%127[A-Za-z0-9_]", name) == 1);
      int rows = 0;
      for (size_t r = 0; r < N_ROWS; r++) rows += !strcmp(ROWS[r].example, EXAMPLES[e]) && !strcmp(ROWS[r].kernel, name);
      ck_assert_msg(rows > 0, "%s: kernel %s has no row in test_lecture05.c's ROWS", path, name);
    }
    free(ptx);
  }
}
END_TEST

/* ---------------------------------------------------------------- the programs, without a GPU */

typedef struct run_result {
  int rc;
  char *out, *err;
} run_result;

static run_result run_lecture05(const char *env, const char *example, const char *args) {
  char *dir = make_temp_dir("lect05"), cmd[1024], path[512];
  snprintf(cmd, sizeof cmd, "%s build/lectures/%s %s > '%s/out' 2> '%s/err'", env, example, args, dir, dir);
  run_result r = {run_shell(cmd), NULL, NULL};
  snprintf(path, sizeof path, "%s/out", dir);
  r.out = read_text(path);
  snprintf(path, sizeof path, "%s/err", dir);
  r.err = read_text(path);
  ck_assert(r.out && r.err);
  remove_dir(dir);
  free(dir);
  return r;
}

static int single_line(const char *s) { return *s && strchr(s, '\n') == s + strlen(s) - 1; }

START_TEST(test_lecture05_rejects_arguments) {
  run_result r = run_lecture05("", EXAMPLES[_i], "--n 5");
  ck_assert_msg(r.rc == 2, "%s --n 5 exited %d, want 2", EXAMPLES[_i], r.rc);
  ck_assert_msg(single_line(r.err) && strstr(r.err, "takes no arguments"), "%s: stderr:\n%s", EXAMPLES[_i], r.err);
  ck_assert_msg(!*r.out, "%s printed after a usage error:\n%s", EXAMPLES[_i], r.out);
  free(r.out);
  free(r.err);
}
END_TEST

START_TEST(test_lecture05_without_gpu) {
  run_result r = run_lecture05("CUDA_VISIBLE_DEVICES=-1", EXAMPLES[_i], "");
  ck_assert_msg(r.rc == 3, "%s without a device exited %d, want 3; stderr:\n%s", EXAMPLES[_i], r.rc, r.err);
  regex_t re;
  ck_assert_int_eq(regcomp(&re, "^[^ :]+\\.(h|cu):[0-9]+: [^ ].*: .+$", REG_EXTENDED | REG_NOSUB | REG_NEWLINE), 0);
  ck_assert_msg(single_line(r.err) && regexec(&re, r.err, 0, NULL, 0) == 0, "%s: want one 'file:line: call: reason', got:\n%s",
                EXAMPLES[_i], r.err);
  regfree(&re);
  ck_assert_msg(!strchr(r.out, ','), "%s printed a table without a GPU:\n%s", EXAMPLES[_i], r.out);
  free(r.out);
  free(r.err);
}
END_TEST

/* ---------------------------------------------------------------- the note */

/* Lecture 05 names every example (so none is orphaned) and ends with exercises. */
START_TEST(test_lecture05_note) {
  char *text = read_text("lectures/05-large-scans.md");
  ck_assert_msg(text != NULL, "lectures/05-large-scans.md is missing");
  for (size_t e = 0; e < N_EXAMPLES; e++) {
    char name[128];
    snprintf(name, sizeof name, "%s.cu", EXAMPLES[e]);
    ck_assert_msg(strstr(text, name) != NULL, "lecture 05 never names %s", name);
  }
  const char *ex = strstr(text, ". Exercises\n");
  ck_assert_msg(ex != NULL, "lecture 05 has no '## N. Exercises' section");
  ck_assert_msg(strstr(ex, "\n1. ") != NULL, "lecture 05's exercises are not a numbered list");
  free(text);
}
END_TEST

Suite *lecture05_suite(void) {
  Suite *s = suite_create("lecture05");
  TCase *t = tcase_create("examples");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_lecture05_kernel_ptx, 0, (int)N_ROWS);
  tcase_add_test(t, test_lecture05_all_listed);
  tcase_add_loop_test(t, test_lecture05_rejects_arguments, 0, (int)N_EXAMPLES);
  tcase_add_loop_test(t, test_lecture05_without_gpu, 0, (int)N_EXAMPLES);
  tcase_add_test(t, test_lecture05_note);
  suite_add_tcase(s, t);
  return s;
}
