/* test_lectures.c: lecture 04's examples (lectures/examples/litmus_*.cu,
 * fence_cost.cu): each one is built, rejects arguments and fails cleanly
 * without a GPU; the PTX of every kernel holds exactly the ordering
 * instructions the lecture says it does, and the variants without a fence hold
 * none; `make lectures-run`'s script names and keeps its CSV files as it says;
 * and the places in the notes that await a GPU run are listed. Run from the
 * repo root after `make test-builds`. */
#include <glob.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course.h"
#include "ptx.h"
#include "tests.h"

/* The examples of lecture 04, by name (lectures/examples/NAME.cu). */
static const char *const EXAMPLES[] = {"litmus_mp", "litmus_sb", "litmus_lb", "litmus_corr", "fence_cost"};
#define N_EXAMPLES (sizeof EXAMPLES / sizeof *EXAMPLES)

/* ---------------------------------------------------------------- the PTX of each kernel
 *
 * One column per ordering instruction, at each scope. Each column belongs to a
 * family; every line of the family's catch-all pattern must be counted by one
 * of its columns, so an instruction the table does not know fails the test. */
enum col {
  SC_CTA, SC_GPU, SC_SYS, AR_CTA, AR_GPU, AR_SYS,  /* fences */
  ACQ_CTA, ACQ_GPU, ACQ_SYS,                       /* acquire loads */
  REL_CTA, REL_GPU, REL_SYS,                       /* release stores */
  RLX_CTA, RLX_GPU,                                /* relaxed loads and stores */
  ATOM_CTA, ATOM_GPU, ATOM_SYS,                    /* atomics */
  LD_WEAK,                                         /* plain (weak) global loads */
  N_COLS
};
enum family { FENCES, ACQUIRES, RELEASES, RELAXEDS, ATOMS, WEAK_LOADS, N_FAMILIES };

#define LINE_START "^[[:space:]]*"
static const struct {
  const char *pattern;
  enum family family;
} COLS[N_COLS] = {
    /* __threadfence_block/__threadfence/__threadfence_system print as membar.cta/gl/sys,
     * which the PTX model defines as fence.sc.cta/gpu/sys; either spelling counts. */
    [SC_CTA] = {LINE_START "(membar\\.cta|fence\\.sc\\.cta);", FENCES},
    [SC_GPU] = {LINE_START "(membar\\.gl|fence\\.sc\\.gpu);", FENCES},
    [SC_SYS] = {LINE_START "(membar\\.sys|fence\\.sc\\.sys);", FENCES},
    [AR_CTA] = {LINE_START "fence\\.acq_rel\\.cta;", FENCES},
    [AR_GPU] = {LINE_START "fence\\.acq_rel\\.gpu;", FENCES},
    [AR_SYS] = {LINE_START "fence\\.acq_rel\\.sys;", FENCES},
    [ACQ_CTA] = {LINE_START "ld\\.acquire\\.cta\\.", ACQUIRES},
    [ACQ_GPU] = {LINE_START "ld\\.acquire\\.gpu\\.", ACQUIRES},
    [ACQ_SYS] = {LINE_START "ld\\.acquire\\.sys\\.", ACQUIRES},
    [REL_CTA] = {LINE_START "st\\.release\\.cta\\.", RELEASES},
    [REL_GPU] = {LINE_START "st\\.release\\.gpu\\.", RELEASES},
    [REL_SYS] = {LINE_START "st\\.release\\.sys\\.", RELEASES},
    [RLX_CTA] = {LINE_START "(ld|st)\\.relaxed\\.cta\\.", RELAXEDS},
    [RLX_GPU] = {LINE_START "(ld|st)\\.relaxed\\.gpu\\.", RELAXEDS},
    [ATOM_CTA] = {LINE_START "atom\\.global\\.cta\\.", ATOMS},
    [ATOM_GPU] = {LINE_START "atom\\.global\\.(gpu\\.)?(add|inc|cas|exch)", ATOMS}, /* no scope: .gpu */
    [ATOM_SYS] = {LINE_START "atom\\.global\\.sys\\.", ATOMS},
    [LD_WEAK] = {LINE_START "ld\\.global\\.[usb][0-9]+", WEAK_LOADS},
};
static const char *const FAMILY_ALL[N_FAMILIES] = {
    [FENCES] = LINE_START "(membar|fence)\\.",
    [ACQUIRES] = "\\.acquire\\.",
    [RELEASES] = "\\.release\\.",
    [RELAXEDS] = "\\.relaxed\\.",
    [ATOMS] = LINE_START "(atom|red)\\.",
    [WEAK_LOADS] = LINE_START "ld\\.global\\.",
};

/* Every kernel of the examples, with what its PTX holds; a column left out is 0.
 * Every litmus kernel has one atom.global.add (gpu scope) of its own: the
 * rendezvous of litmus.h, which orders nothing. */
static const struct {
  const char *example, *kernel;
  int want[N_COLS];
} KERNELS[] = {
    {"litmus_mp", "mp_volatile", {[ATOM_GPU] = 1}},
    {"litmus_mp", "mp_fence_sc_cta", {[SC_CTA] = 2, [ATOM_GPU] = 1, [LD_WEAK] = 1}},
    {"litmus_mp", "mp_fence_sc_gpu", {[SC_GPU] = 2, [ATOM_GPU] = 1, [LD_WEAK] = 1}},
    {"litmus_mp", "mp_fence_acq_rel_gpu", {[AR_GPU] = 2, [ATOM_GPU] = 1, [LD_WEAK] = 1}},
    {"litmus_mp", "mp_release_acquire_cta", {[ACQ_CTA] = 1, [REL_CTA] = 1, [ATOM_GPU] = 1, [LD_WEAK] = 1}},
    {"litmus_mp", "mp_release_acquire_gpu", {[ACQ_GPU] = 1, [REL_GPU] = 1, [ATOM_GPU] = 1, [LD_WEAK] = 1}},
    {"litmus_mp", "mp_packed64", {[RLX_GPU] = 2, [ATOM_GPU] = 1}}, /* one 64-bit store, one 64-bit load */
    {"litmus_mp", "mp_fenced_reader_in_order", {[SC_GPU] = 2, [ATOM_GPU] = 1}},
    {"litmus_sb", "sb_volatile", {[ATOM_GPU] = 1}},
    {"litmus_sb", "sb_release_acquire_gpu", {[ACQ_GPU] = 2, [REL_GPU] = 2, [ATOM_GPU] = 1}},
    {"litmus_sb", "sb_fence_acq_rel_gpu", {[AR_GPU] = 2, [ATOM_GPU] = 1}},
    {"litmus_sb", "sb_fence_sc_cta", {[SC_CTA] = 2, [ATOM_GPU] = 1}},
    {"litmus_sb", "sb_fence_sc_gpu", {[SC_GPU] = 2, [ATOM_GPU] = 1}},
    {"litmus_lb", "lb_volatile", {[ATOM_GPU] = 1}},
    {"litmus_lb", "lb_fence_sc_cta", {[SC_CTA] = 2, [ATOM_GPU] = 1}},
    {"litmus_lb", "lb_fence_acq_rel_gpu", {[AR_GPU] = 2, [ATOM_GPU] = 1}},
    {"litmus_lb", "lb_release_acquire_gpu", {[ACQ_GPU] = 2, [REL_GPU] = 2, [ATOM_GPU] = 1}},
    /* the plain spin loop is gone: one load stands for all of them, and one more for r1 */
    {"litmus_corr", "corr_plain", {[ATOM_GPU] = 1, [LD_WEAK] = 2}},
    {"litmus_corr", "corr_volatile", {[ATOM_GPU] = 1}},
    {"litmus_corr", "corr_relaxed_gpu", {[RLX_GPU] = 3, [ATOM_GPU] = 1}},
    {"litmus_corr", "corr_relaxed_cta", {[RLX_CTA] = 3, [ATOM_GPU] = 1}},
    {"fence_cost", "cost_store", {0}},
    {"fence_cost", "cost_store_fence_sc_cta", {[SC_CTA] = 1}},
    {"fence_cost", "cost_store_fence_acq_rel_cta", {[AR_CTA] = 1}},
    {"fence_cost", "cost_store_fence_sc_gpu", {[SC_GPU] = 1}},
    {"fence_cost", "cost_store_fence_acq_rel_gpu", {[AR_GPU] = 1}},
    {"fence_cost", "cost_store_fence_sc_sys", {[SC_SYS] = 1}},
    {"fence_cost", "cost_store_fence_acq_rel_sys", {[AR_SYS] = 1}},
    {"fence_cost", "cost_st_release_cta", {[REL_CTA] = 1}},
    {"fence_cost", "cost_st_release_gpu", {[REL_GPU] = 1}},
    {"fence_cost", "cost_st_release_sys", {[REL_SYS] = 1}},
    {"fence_cost", "cost_load", {0}},
    {"fence_cost", "cost_ld_acquire_cta", {[ACQ_CTA] = 1}},
    {"fence_cost", "cost_ld_acquire_gpu", {[ACQ_GPU] = 1}},
    {"fence_cost", "cost_ld_acquire_sys", {[ACQ_SYS] = 1}},
    {"fence_cost", "cost_atom_cta", {[ATOM_CTA] = 1}},
    {"fence_cost", "cost_atom_gpu", {[ATOM_GPU] = 1}},
    {"fence_cost", "cost_atom_sys", {[ATOM_SYS] = 1}},
};
#define N_KERNELS (sizeof KERNELS / sizeof *KERNELS)

static long count_in(const char *example, const char *kernel, const char *pattern) {
  char ptx[256], err[512];
  snprintf(ptx, sizeof ptx, "build/lectures/%s.ptx", example);
  long n = ptx_count(ptx, kernel, pattern, err, sizeof err);
  ck_assert_msg(n >= 0, "%s", err);
  return n;
}

START_TEST(test_lecture_kernel_ptx) {
  const int k = _i;
  long family_sum[N_FAMILIES] = {0};
  for (int c = 0; c < N_COLS; c++) {
    long n = count_in(KERNELS[k].example, KERNELS[k].kernel, COLS[c].pattern);
    family_sum[COLS[c].family] += n;
    ck_assert_msg(n == KERNELS[k].want[c], "%s.ptx, kernel %s: %ld lines match %s, want %d", KERNELS[k].example,
                  KERNELS[k].kernel, n, COLS[c].pattern, KERNELS[k].want[c]);
  }
  for (int f = 0; f < N_FAMILIES; f++) {
    long all = count_in(KERNELS[k].example, KERNELS[k].kernel, FAMILY_ALL[f]);
    ck_assert_msg(all == family_sum[f], "%s.ptx, kernel %s: %ld lines match %s, but the table's columns count %ld",
                  KERNELS[k].example, KERNELS[k].kernel, all, FAMILY_ALL[f], family_sum[f]);
  }
}
END_TEST

/* Every kernel in the examples' PTX has a row above (no variant goes unchecked). */
START_TEST(test_lecture_kernels_all_listed) {
  for (size_t e = 0; e < N_EXAMPLES; e++) {
    char path[256];
    snprintf(path, sizeof path, "build/lectures/%s.ptx", EXAMPLES[e]);
    char *ptx = read_text(path);
    ck_assert_msg(ptx != NULL, "%s is missing: run make test-builds", path);
    int entries = 0;
    for (char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
      char name[128];
      ck_assert(sscanf(p + 7, "%127[A-Za-z0-9_]", name) == 1);
      int listed = 0;
      for (size_t k = 0; k < N_KERNELS; k++) listed |= !strcmp(KERNELS[k].kernel, name) && !strcmp(KERNELS[k].example, EXAMPLES[e]);
      ck_assert_msg(listed, "%s: kernel %s has no row in test_lectures.c's KERNELS", path, name);
      entries++;
    }
    ck_assert_msg(entries >= 4, "%s: only %d kernels", path, entries);
    free(ptx);
  }
}
END_TEST

/* ---------------------------------------------------------------- the programs, without a GPU */

START_TEST(test_lecture_example_rejects_arguments) { lecture_example_check_usage(EXAMPLES[_i]); }
END_TEST

/* With no device visible, the first CUDA call fails: exit 3 and one line
 * "file:line: call: CUDA's message", and no table on stdout. */
START_TEST(test_lecture_example_without_gpu) { lecture_example_check_no_gpu(EXAMPLES[_i]); }
END_TEST

/* ---------------------------------------------------------------- make lectures-run
 *
 * tools/lectures-run.sh against a fake nvidia-smi and fake examples: the CSV
 * names, nothing measured is overwritten, a failing example costs only its own
 * file, and no GPU gives a message and exit 3. */

static char *fake_gpu_dir(const char *gpu_name) {
  char *dir = make_temp_dir("lect-run"), path[512], text[512];
  snprintf(path, sizeof path, "%s/bin/nvidia-smi", dir);
  snprintf(text, sizeof text, "#!/bin/sh\nprintf '%%s\\n' '%s'\n", gpu_name);
  write_text(path, gpu_name ? text : "#!/bin/sh\nexit 9\n", 1);
  snprintf(path, sizeof path, "%s/ex/litmus_xy", dir);
  write_text(path, "#!/bin/sh\necho '# lecture 04, litmus_xy: fake'\necho 'variant,trials'\necho \"a,$$\"\n", 1);
  snprintf(path, sizeof path, "%s/ex/broken_one", dir);
  write_text(path, "#!/bin/sh\necho 'half a table'\nexit 3\n", 1);
  snprintf(path, sizeof path, "%s/ex/fence_cost", dir);
  write_text(path, "#!/bin/sh\necho 'op,ms'\necho 'store,1.0'\n", 1);
  return dir;
}

static int run_script(const char *dir) {
  char cmd[2048], repo[1024];
  ck_assert(getcwd(repo, sizeof repo) != NULL);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && PATH=\"$PWD/bin:$PATH\" bash '%s/tools/lectures-run.sh' data ex/litmus_xy ex/broken_one "
           "ex/fence_cost > log 2>&1",
           dir, repo);
  return run_shell(cmd);
}

static int exists_in(const char *dir, const char *rel) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  return access(path, F_OK) == 0;
}

START_TEST(test_lectures_run_keeps_csv) {
  char *dir = fake_gpu_dir("NVIDIA H100 80GB HBM3"), path[512];
  ck_assert_msg(run_script(dir) == 1, "one example failed: the script must exit 1");
  ck_assert(exists_in(dir, "data/litmus-xy-h100.csv") && exists_in(dir, "data/fence-cost-h100.csv"));
  snprintf(path, sizeof path, "%s/data/litmus-xy-h100.csv", dir);
  char *first = read_text(path);
  ck_assert_msg(first && strstr(first, "# lecture 04, litmus_xy: fake\nvariant,trials\na,"), "kept: %s", first);
  ck_assert_msg(!exists_in(dir, "data/broken-one-h100.csv") && !exists_in(dir, "data/broken-one-h100.csv.tmp"),
                "a failed example left a file");
  snprintf(path, sizeof path, "%s/log", dir);
  char *log = read_text(path);
  ck_assert_msg(strstr(log, "ex/broken_one exited 3") && strstr(log, "store"), "log:\n%s", log);
  free(log);
  /* A second run keeps the first table and writes -run2 beside it. */
  run_script(dir);
  ck_assert(exists_in(dir, "data/litmus-xy-h100-run2.csv") && exists_in(dir, "data/fence-cost-h100-run2.csv"));
  snprintf(path, sizeof path, "%s/data/litmus-xy-h100.csv", dir);
  char *again = read_text(path);
  ck_assert_msg(again && !strcmp(first, again), "the first run's table was overwritten");
  free(first);
  free(again);
  remove_dir(dir);
  free(dir);
}
END_TEST

static const struct {
  const char *name, *slug;
} GPU_NAMES[] = {
    {"NVIDIA H100 80GB HBM3", "h100"},
    {"NVIDIA A100-SXM4-40GB", "a100"},
    {"NVIDIA GeForce RTX 4090", "rtx4090"},
    {"Tesla T4", "t4"},
    {"NVIDIA H200", "h200"},
};

START_TEST(test_lectures_run_gpu_short_name) {
  char *dir = fake_gpu_dir(GPU_NAMES[_i].name), rel[256];
  run_script(dir);
  snprintf(rel, sizeof rel, "data/fence-cost-%s.csv", GPU_NAMES[_i].slug);
  ck_assert_msg(exists_in(dir, rel), "'%s': no %s", GPU_NAMES[_i].name, rel);
  remove_dir(dir);
  free(dir);
}
END_TEST

START_TEST(test_lectures_run_without_gpu) {
  char *dir = fake_gpu_dir(NULL), path[512];
  ck_assert_int_eq(run_script(dir), 3);
  snprintf(path, sizeof path, "%s/log", dir);
  char *log = read_text(path);
  ck_assert_msg(log && strstr(log, "lectures-run: no NVIDIA GPU"), "log:\n%s", log ? log : "");
  ck_assert_msg(!exists_in(dir, "data"), "wrote data without a GPU");
  free(log);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* ---------------------------------------------------------------- notes that await a GPU run
 *
 * Where a measured table belongs and none exists yet, a note says so with
 *   <!-- measure: COMMAND, lectures/data/EXAMPLE-GPU.csv -->
 * This test lists every such marker (so the next run on a GPU host finds
 * them) and says which ones now have their data; it fails only on a marker
 * that is malformed or names a CSV no example of the repository writes. */
START_TEST(test_lecture_measure_markers) {
  glob_t g;
  ck_assert_int_eq(glob("lectures/*.md", 0, NULL, &g), 0);
  static const char MARK[] = "<!-- measure: ";
  int markers = 0;
  for (size_t f = 0; f < g.gl_pathc; f++) {
    char *text = read_text(g.gl_pathv[f]);
    ck_assert(text != NULL);
    for (char *m = strstr(text, MARK); m; m = strstr(m + 1, MARK)) {
      int line = 1;
      for (char *p = text; p < m; p++) line += *p == '\n';
      char cmd[256], csv[256], example[256];
      ck_assert_msg(sscanf(m + sizeof MARK - 1, "%255[^,], %255[^ >]", cmd, csv) == 2 && strstr(m, "-->"),
                    "%s:%d: a measure marker is '<!-- measure: COMMAND, lectures/data/FILE.csv -->'", g.gl_pathv[f],
                    line);
      /* lectures/data/litmus-sb-h100.csv is written by lectures/examples/litmus_sb.cu */
      ck_assert_msg(sscanf(csv, "lectures/data/%255[a-z0-9-].csv", example) == 1, "%s:%d: '%s' is not lectures/data/NAME.csv",
                    g.gl_pathv[f], line, csv);
      char *dash = strrchr(example, '-');
      ck_assert_msg(dash != NULL, "%s:%d: '%s' names no GPU", g.gl_pathv[f], line, csv);
      *dash = 0;
      for (char *p = example; *p; p++)
        if (*p == '-') *p = '_';
      char src[512];
      snprintf(src, sizeof src, "lectures/examples/%s.cu", example);
      ck_assert_msg(access(src, F_OK) == 0, "%s:%d: %s: no example %s writes it", g.gl_pathv[f], line, csv, src);
      printf("%s:%d: awaits a GPU run: %s -> %s%s\n", g.gl_pathv[f], line, cmd, csv,
             access(csv, F_OK) == 0 ? " (the data exists now: quote it and drop the marker)" : "");
      markers++;
    }
    free(text);
  }
  globfree(&g);
  printf("lecture notes: %d places await a GPU run (<!-- measure: ... -->)\n", markers);
}
END_TEST

/* A PTX listing in lecture 04 is cut from build/lectures/NAME.ptx; test_repo.c
 * checks its lines, but skips a file that is not there. Here the file must be. */
START_TEST(test_lecture_ptx_listings_exist) {
  char *text = read_text("lectures/04-memory-model.md");
  ck_assert_msg(text != NULL, "lectures/04-memory-model.md is missing");
  int cuts = 0;
  for (char *p = strstr(text, "(`build/lectures/"); p; p = strstr(p + 1, "(`build/lectures/")) {
    char path[256];
    if (sscanf(p + 2, "%255[^`]", path) != 1) continue;
    ck_assert_msg(access(path, R_OK) == 0, "lecture 04 cuts a listing from %s, which is not built", path);
    cuts++;
  }
  ck_assert_msg(cuts >= 3, "lecture 04 cuts only %d PTX listings from build/lectures/", cuts);
  free(text);
}
END_TEST

/* Whether path is a file the repository holds: tracked by git in a checkout,
 * present outside one (a copy of the course without .git). */
static int figure_committed(const char *path) {
  if (run_shell("git rev-parse --is-inside-work-tree > /dev/null 2>&1") != 0) return access(path, R_OK) == 0;
  char cmd[600];
  snprintf(cmd, sizeof cmd, "git ls-files --error-unmatch '%s' > /dev/null 2>&1", path);
  return run_shell(cmd) == 0 && access(path, R_OK) == 0;
}

/* Whether path starts with the 8 bytes of a PNG signature. */
static int is_png(const char *path) {
  static const unsigned char SIG[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  unsigned char head[8];
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t got = fread(head, 1, sizeof head, f);
  fclose(f);
  return got == sizeof head && !memcmp(head, SIG, sizeof SIG);
}

/* Issue 33 item 18: a reader on the web sees only what the repository holds,
 * so every figure a lecture shows or names (figures/NAME.png, as an image link
 * or as lectures/figures/NAME.png in the text) is a committed PNG, and so is
 * the PNG of every script in lectures/figures/ (make figures redraws them from
 * lectures/data/; make test draws them into build/figures to see that they
 * still run). */
START_TEST(test_lecture_figures_committed) {
  glob_t g;
  ck_assert_int_eq(glob("lectures/*.md", 0, NULL, &g), 0);
  static const char FIG[] = "figures/";
  int shown = 0;
  for (size_t f = 0; f < g.gl_pathc; f++) {
    char *text = read_text(g.gl_pathv[f]);
    ck_assert(text != NULL);
    for (char *m = strstr(text, FIG); m; m = strstr(m + 1, FIG)) {
      char name[256];
      int len = 0;
      if (sscanf(m + sizeof FIG - 1, "%255[A-Za-z0-9_.-]%n", name, &len) != 1) continue;
      size_t n = strlen(name);
      while (n && name[n - 1] == '.') name[--n] = 0; /* a sentence's full stop */
      if (n < 5 || strcmp(name + n - 4, ".png")) continue;
      int line = 1;
      for (char *p = text; p < m; p++) line += *p == '\n';
      char path[300];
      snprintf(path, sizeof path, "lectures/figures/%s", name);
      ck_assert_msg(figure_committed(path), "%s:%d: shows %s, which the repository does not hold (make figures, then commit it)",
                    g.gl_pathv[f], line, path);
      ck_assert_msg(is_png(path), "%s:%d: %s is not a PNG", g.gl_pathv[f], line, path);
      shown++;
    }
    free(text);
  }
  globfree(&g);
  ck_assert_msg(shown >= 2, "the lectures show only %d figures: the test would check next to nothing", shown);
  ck_assert_int_eq(glob("lectures/figures/*.gp", 0, NULL, &g), 0);
  for (size_t f = 0; f < g.gl_pathc; f++) {
    char path[600];
    snprintf(path, sizeof path, "%.*s.png", (int)(strlen(g.gl_pathv[f]) - 3), g.gl_pathv[f]);
    ck_assert_msg(figure_committed(path) && is_png(path), "%s draws %s, which the repository does not hold as a PNG "
                  "(make figures, then commit it)", g.gl_pathv[f], path);
  }
  globfree(&g);
}
END_TEST

Suite *lectures_suite(void) {
  Suite *s = suite_create("lectures");
  TCase *t = tcase_create("examples");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_lecture_kernel_ptx, 0, (int)N_KERNELS);
  tcase_add_test(t, test_lecture_kernels_all_listed);
  tcase_add_loop_test(t, test_lecture_example_rejects_arguments, 0, (int)N_EXAMPLES);
  tcase_add_loop_test(t, test_lecture_example_without_gpu, 0, (int)N_EXAMPLES);
  suite_add_tcase(s, t);
  TCase *r = tcase_create("run");
  tcase_set_timeout(r, 60);
  tcase_add_test(r, test_lectures_run_keeps_csv);
  tcase_add_loop_test(r, test_lectures_run_gpu_short_name, 0, (int)(sizeof GPU_NAMES / sizeof *GPU_NAMES));
  tcase_add_test(r, test_lectures_run_without_gpu);
  suite_add_tcase(s, r);
  TCase *n = tcase_create("notes");
  tcase_add_test(n, test_lecture_measure_markers);
  tcase_add_test(n, test_lecture_ptx_listings_exist);
  tcase_add_test(n, test_lecture_figures_committed);
  suite_add_tcase(s, n);
  return s;
}
