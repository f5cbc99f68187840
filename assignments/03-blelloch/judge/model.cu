// model.cu: the CPU model of assignment 03. Needs no GPU and makes no CUDA call.
// Over 500 lines: three analyses (banks, coalescing, the tree's barriers) of one set of tables,
// read from the table program, with the runner protocol's command line and result lines.
//
// A trusted program: it never links your file. At start-up it runs the table
// program beside it (model-tables: model_tables.cu linked with your blelloch.cu,
// compiled on its own, in the runner's sandbox), which evaluates your
// padded_index, thread_element and tree_size (the host side of their
// __host__ __device__ definitions) over every argument this model asks about
// and sends the values back on a pipe (model_tables.h). Those tables are this
// program's padded_index, thread_element and tree_size (below): it runs the
// standard sweep's per-thread steps with them and answers three questions about
// them (your blelloch_scan_tree runs only on a GPU: its correctness is the
// judge's check, and ncu counts its bank conflicts):
//
//   banks     For every shared-memory access of the kernel (the two loads, each
//             up-sweep and down-sweep step, the root, the two stores), group the
//             active threads into warps of 32 consecutive ids, put each thread's
//             word into bank word % 32, and count the n-way conflict: the most
//             distinct words one bank gets in one warp's access (equal words are
//             one broadcast read). Done for every tree your tree_size uses; ok
//             when every access of every step is 1-way and every word is inside
//             the kernel's shared array.
//   coalescing  For the same trees, the global-memory side of the loads and
//             stores: each warp's access must touch the fewest 32-byte sectors
//             its ints fit in (task 2).
//   tree      tree_size(L) is the smallest tree that works, for every L (task 3).
//
// It speaks the runner protocol, so the grader runs it like a runner:
//   model --list
//   model [--variant blelloch_padded|blelloch_unpadded|blelloch_gems16] [--case banks,coalescing,tree]
//         [--seed S] [--check] [--result-fd FD] [--tables PATH]
// The tables go to stdout; one result line per case goes to the result fd:
// n = rows (or lengths) examined, mismatches = how many failed, first_bad = the
// first one (-1 when none). --reps and --warmup are accepted and ignored.
// --tables names the table program (default: model-tables in the model's own
// folder). When the table program fails (a crash, an exit status other than 0,
// a hang past TABLES_LIMIT_S, output that is not exactly its tables), the model
// prints one line "03-blelloch model: the table program ..." on stderr, writes
// no result line, and exits 3.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "banks.h"
#include "blelloch.h"
#include "subproc.h"
#include "cli.h"
#include "clock.h"
#include "model_tables.h"
#include "result.h"

// The model's own names live in a namespace: none of them can clash with a
// name your file defines (a helper called emit or measure, say), even at link time.
namespace bl_model {

// ---------------------------------------------------------------- your functions, as tables

// Filled once by load_tables (below) from the table program, before any case runs.
// Not static: the device pass, which sees only the lookups' device side, would
// call them set but never used.
int32_t tab_padded[MT_N_PADDED], tab_element[MT_N_ELEMENT], tab_tree[MT_N_TREE];

} // namespace bl_model

// blelloch.h's three declarations, defined here as lookups in the tables: the
// course helpers (shared_word, moved_element) call them as they would call your
// file's. An argument outside the tables, which this model never asks about,
// gets an answer that breaks the function's contract rather than a read past a
// table: padded_index a word outside the shared array (-1), thread_element no
// element (-1), tree_size no tree (0). The device side is never called: the
// model runs no kernel.
__host__ __device__ int padded_index(int i) {
#ifdef __CUDA_ARCH__
  (void)i;
  return 0;
#else
  return i >= 0 && i < MT_N_PADDED ? bl_model::tab_padded[i] : -1;
#endif
}

__host__ __device__ int thread_element(int t, int k, int tree) {
#ifdef __CUDA_ARCH__
  (void)t, (void)k, (void)tree;
  return 0;
#else
  if (tree < 2 || tree > TILE || (tree & (tree - 1)) || t < 0 || t >= tree / 2 || k < 0 || k > 1) return -1;
  return bl_model::tab_element[mt_element_at(t, k, tree)];
#endif
}

__host__ __device__ int tree_size(int len) {
#ifdef __CUDA_ARCH__
  (void)len;
  return 0;
#else
  return len >= 1 && len <= TILE ? bl_model::tab_tree[len - 1] : 0;
#endif
}

namespace bl_model {

// ---------------------------------------------------------------- the standard sweep

// The accesses of the standard Blelloch sweep, one thread's step at a time: at
// stride s (1, 2, 4, ..., tree/2) thread t < tree/(2s) combines the pair
// (left, right) = (s(2t+1) - 1, s(2t+2) - 1). Your blelloch_scan_tree must make
// these accesses (the handout says so); the model counts their bank conflicts
// with your padded_index, and on a GPU ncu counts your kernel's.
static int sweep_left(int t, int stride) { return stride * (2 * t + 1) - 1; }
static int sweep_right(int t, int stride) { return stride * (2 * t + 2) - 1; }


// ---------------------------------------------------------------- the layout's words

// Checks that the layout puts elements 0..TILE-1 into distinct words below
// SMEM_WORDS. Returns the number of bad elements (the first in *first_bad);
// prints the first problem.
static int check_words(int layout, int *max_word, int *first_bad) {
  static int owner[SMEM_WORDS];
  int bad = 0;
  *max_word = -1;
  *first_bad = -1;
  for (int w = 0; w < SMEM_WORDS; w++) owner[w] = -1;
  for (int i = 0; i < TILE; i++) {
    int w = shared_word(layout, i);
    if (w < 0 || w >= SMEM_WORDS) {
      if (!bad++) printf("  element %d goes to word %d, outside the %d words the kernel allocates\n", i, w, (int)SMEM_WORDS);
      if (*first_bad < 0) *first_bad = i;
      continue;
    }
    if (w > *max_word) *max_word = w;
    if (owner[w] >= 0) {
      if (!bad++) printf("  elements %d and %d share word %d: two threads would race on it\n", owner[w], i, w);
      if (*first_bad < 0) *first_bad = i;
      continue;
    }
    owner[w] = i;
  }
  return bad;
}

// The trees the kernel uses: tree_size(L) for L = 1..TILE, largest first.
// Returns how many; lo/hi are the segment lengths each serves. Invalid trees
// (tree_size's contract broken) are left out and counted in *invalid.
static int trees_used(int *trees, int *lo, int *hi, int *invalid) {
  int count = 0;
  *invalid = 0;
  for (int len = 1; len <= TILE; len++) {
    int t = tree_size(len);
    if (t < 2 || t > TILE || (t & (t - 1)) || t < len) {
      ++*invalid;
      continue;
    }
    int k = 0;
    while (k < count && trees[k] != t) k++;
    if (k == count) trees[count] = t, lo[count] = len, hi[count] = len, count++;
    if (len < lo[k]) lo[k] = len;
    if (len > hi[k]) hi[k] = len;
  }
  for (int a = 0; a < count; a++) // largest first
    for (int b = a + 1; b < count; b++)
      if (trees[b] > trees[a]) {
        int x = trees[a]; trees[a] = trees[b]; trees[b] = x;
        x = lo[a]; lo[a] = lo[b]; lo[b] = x;
        x = hi[a]; hi[a] = hi[b]; hi[b] = x;
      }
  return count;
}

// ---------------------------------------------------------------- one access, warp by warp

// The shared-memory accesses of the kernel, as blelloch.h makes them.
typedef enum access_kind {
  ACC_MOVE,  // put_element / store_element: temp[word(e)], e = moved_element(t, k)
  ACC_LEFT,  // a sweep step's temp[word(left)]
  ACC_RIGHT, // a sweep step's temp[word(right)]
  ACC_ROOT,  // clear_root
} access_kind;

// The word thread t touches in one access, or -1 when it takes no part. For
// the sweeps, arg is the stride and `active` the kernel's count of threads.
static int access_word(int layout, int tree, access_kind kind, int arg, int active, int t) {
  switch (kind) {
  case ACC_MOVE: {
    int e = moved_element(t, arg, tree);
    return e < 0 ? -1 : shared_word(layout, e);
  }
  case ACC_LEFT: return t < active ? shared_word(layout, sweep_left(t, arg)) : -1;
  case ACC_RIGHT: return t < active ? shared_word(layout, sweep_right(t, arg)) : -1;
  default: return t == 0 ? shared_word(layout, tree - 1) : -1;
  }
}

typedef struct conflict {
  int threads;     // active threads
  int worst;       // the worst warp's n-way conflict (0 when no thread is active)
  long extra;      // sum over warps of (n - 1): the passes a conflict-free layout saves
  int ex_warp, ex_bank, ex_count;         // an example of the worst conflict:
  int ex_lanes[WARP], ex_words[WARP];     // the lanes of one warp that share a bank
} conflict;

// The n-way conflict of one warp's access (banks.h), and the first warp's
// example of the worst conflict seen so far, kept in c.
static int warp_conflict(const int *lane_word, int warp, conflict *c) {
  int worst_bank, worst = bank_ways(lane_word, &worst_bank);
  if (worst > 1 && worst > c->worst) {
    c->ex_warp = warp;
    c->ex_bank = worst_bank;
    c->ex_count = 0;
    for (int l = 0; l < WARP; l++) {
      int w = lane_word[l], dup = 0;
      for (int m = 0; m < c->ex_count && !dup; m++) dup = c->ex_words[m] == w;
      if (w >= 0 && w % BANK_COUNT == worst_bank && !dup) {
        c->ex_lanes[c->ex_count] = l;
        c->ex_words[c->ex_count++] = w;
      }
    }
  }
  return worst;
}

// "0,16" for two items, "0,8,..,24" for more.
static void print_list(const int *v, int n) {
  if (n <= 2) printf("%d,%d", v[0], v[1]);
  else printf("%d,%d,..,%d", v[0], v[1], v[n - 1]);
}

static conflict measure(int layout, int tree, access_kind kind, int arg, int active) {
  conflict c;
  memset(&c, 0, sizeof c);
  int threads = block_threads(tree);
  for (int warp = 0; warp < threads / WARP; warp++) {
    int lane_word[WARP];
    for (int l = 0; l < WARP; l++) {
      lane_word[l] = access_word(layout, tree, kind, arg, active, warp * WARP + l);
      c.threads += lane_word[l] >= 0;
    }
    int n = warp_conflict(lane_word, warp, &c);
    if (n > 1) c.extra += n - 1;
    if (n > c.worst) c.worst = n;
  }
  return c;
}

// ---------------------------------------------------------------- the steps of one tree

// One step of the kernel: one or two accesses, each used by loads and/or stores.
typedef struct step_row {
  char name[24];
  int stride;           // 0 for the moves and the root
  conflict a, b;        // a: the element, or the left node; b: the right node (sweeps only)
  int has_b;
  long ld_extra, st_extra; // extra passes of the step's shared loads and stores
} step_row;

#define MAX_ROWS (2 * 12 + 5)

// The kernel's steps in program order, with the accesses each makes:
//   load k:    st temp[e]                   up-sweep:   ld left, ld right, st right
//   clear:     st temp[root]                down-sweep: ld left, ld right, st left, st right
//   store k:   ld temp[e]
static int tree_rows(int layout, int tree, step_row *rows) {
  int n = 0;
  for (int k = 0; k < 2; k++, n++) {
    memset(&rows[n], 0, sizeof rows[n]);
    snprintf(rows[n].name, sizeof rows[n].name, "load k=%d", k);
    rows[n].a = measure(layout, tree, ACC_MOVE, k, 0);
    rows[n].st_extra = rows[n].a.extra;
  }
  for (int s = 1, active = tree / 2; active > 0; s *= 2, active /= 2, n++) { // the standard sweep's loop
    memset(&rows[n], 0, sizeof rows[n]);
    snprintf(rows[n].name, sizeof rows[n].name, "up-sweep");
    rows[n].stride = s;
    rows[n].a = measure(layout, tree, ACC_LEFT, s, active);
    rows[n].b = measure(layout, tree, ACC_RIGHT, s, active);
    rows[n].has_b = 1;
    rows[n].ld_extra = rows[n].a.extra + rows[n].b.extra;
    rows[n].st_extra = rows[n].b.extra;
  }
  memset(&rows[n], 0, sizeof rows[n]);
  snprintf(rows[n].name, sizeof rows[n].name, "clear root");
  rows[n].a = measure(layout, tree, ACC_ROOT, 0, 1);
  rows[n].st_extra = rows[n].a.extra;
  n++;
  for (int s = tree / 2, active = 1; s > 0; s /= 2, active *= 2, n++) { // the standard sweep's loop
    memset(&rows[n], 0, sizeof rows[n]);
    snprintf(rows[n].name, sizeof rows[n].name, "down-sweep");
    rows[n].stride = s;
    rows[n].a = measure(layout, tree, ACC_LEFT, s, active);
    rows[n].b = measure(layout, tree, ACC_RIGHT, s, active);
    rows[n].has_b = 1;
    rows[n].ld_extra = rows[n].st_extra = rows[n].a.extra + rows[n].b.extra;
  }
  for (int k = 0; k < 2; k++, n++) {
    memset(&rows[n], 0, sizeof rows[n]);
    snprintf(rows[n].name, sizeof rows[n].name, "store k=%d", k);
    rows[n].a = measure(layout, tree, ACC_MOVE, k, 0);
    rows[n].ld_extra = rows[n].a.extra;
  }
  return n;
}

static int row_worst(const step_row *r) { return r->has_b && r->b.worst > r->a.worst ? r->b.worst : r->a.worst; }

static void print_way(int n) {
  if (n == 0) printf("  %-7s", "-");
  else printf("  %2d-way%s", n, n > 1 ? "*" : " ");
}

static void print_rows(const step_row *rows, int n_rows, int first_index) {
  printf("  %3s  %-11s %6s %7s  %-7s  %-7s  %9s  %s\n", "#", "step", "stride", "threads", "access1", "access2",
         "extra ld/st", "example of the worst conflict");
  for (int i = 0; i < n_rows; i++) {
    const step_row *r = &rows[i];
    int threads = r->a.threads > r->b.threads ? r->a.threads : r->b.threads;
    printf("  %3d  %-11s ", first_index + i, r->name);
    if (r->stride) printf("%6d", r->stride);
    else printf("%6s", "-");
    printf(" %7d", threads);
    print_way(r->a.worst);
    print_way(r->has_b ? r->b.worst : 0);
    printf("  %5ld/%-5ld", r->ld_extra, r->st_extra);
    const conflict *ex = r->has_b && r->b.worst > r->a.worst ? &r->b : &r->a;
    if (ex->worst > 1) {
      printf("  warp %d bank %d: lanes ", ex->ex_warp, ex->ex_bank);
      print_list(ex->ex_lanes, ex->ex_count);
      printf(" -> words ");
      print_list(ex->ex_words, ex->ex_count);
    }
    printf("\n");
  }
}

// ---------------------------------------------------------------- the cases

typedef struct outcome {
  uint64_t n, mismatches;
  int64_t first_bad;
} outcome;

static void fail_at(outcome *o, int64_t index) {
  if (!o->mismatches++) o->first_bad = index;
}

static void case_banks(int layout, outcome *o) {
  printf("Bank conflicts of every shared-memory access (32 banks of 4 bytes, warps of 32 threads).\n"
         "n-way: the most distinct words that one warp's access puts into one bank; the access then\n"
         "takes n passes (equal words are read once and broadcast). access1: the element moved, or the\n"
         "left node of a sweep pair; access2: the right node. extra ld/st: passes beyond one per warp,\n"
         "summed over all warps, for the step's shared loads / stores (ncu's bank-conflict counters).\n");
  int max_word, first_bad;
  int bad = check_words(layout, &max_word, &first_bad);
  printf("  words: elements 0..%d use words up to %d of the %d the kernel allocates; %s\n", TILE - 1, max_word,
         (int)SMEM_WORDS, bad ? "NOT one word per element inside the array" : "one word per element: ok");
  if (bad) {
    o->n = TILE;
    o->mismatches = (uint64_t)bad;
    o->first_bad = first_bad;
    printf("  (no conflict count: fix the words first)\n");
    return;
  }
  int trees[12], lo[12], hi[12], invalid;
  int n_trees = trees_used(trees, lo, hi, &invalid);
  if (invalid) printf("  tree_size breaks its contract for %d lengths; those are left out here (see case tree)\n", invalid);
  int index = 0, worst_all = 1;
  for (int k = 0; k < n_trees; k++) {
    step_row rows[MAX_ROWS];
    int n_rows = tree_rows(layout, trees[k], rows);
    int worst = 0, worst_row = 0;
    long ld = 0, st = 0;
    for (int i = 0; i < n_rows; i++) {
      int w = row_worst(&rows[i]);
      if (w > 1) fail_at(o, index + i);
      if (w > worst) worst = w, worst_row = i;
      ld += rows[i].ld_extra;
      st += rows[i].st_extra;
    }
    if (worst > worst_all) worst_all = worst;
    printf("\ntree of %d leaves (segments of %d..%d elements), %d threads:", trees[k], lo[k], hi[k],
           block_threads(trees[k]));
    if (k == 0) { // the largest tree in full: it is the one the timed case uses
      printf("\n");
      print_rows(rows, n_rows, index);
      printf("  worst %d-way; extra passes per block: %ld on loads, %ld on stores\n", worst, ld, st);
    } else {
      printf(" rows %d..%d, worst %d-way", index, index + n_rows - 1, worst);
      if (worst > 1) {
        printf(" (first at row %d, %s", index + worst_row, rows[worst_row].name);
        if (rows[worst_row].stride) printf(" stride %d", rows[worst_row].stride);
        printf(")");
      }
      printf("; extra passes %ld/%ld\n", ld, st);
    }
    index += n_rows;
  }
  o->n = (uint64_t)index;
  printf("\nbanks: %" PRIu64 " of %d steps have a bank conflict", o->mismatches, index);
  if (o->mismatches) printf(", the worst %d-way (marked * above)\n", worst_all);
  else printf(": conflict-free\n");
}

// The global side of read_element / store_element: thread t reads (and later
// writes) seg[e], so a warp's access touches the 32-byte sectors e / 8 of its
// lanes' elements. The fewest it can touch is ceil(lanes / 8).
static void case_coalescing(outcome *o) {
  printf("Global memory: each warp's load (and store) of its k-th elements reads seg[e] for its lanes' e.\n"
         "A 32-byte sector holds 8 ints, so 32 lanes need at least 4 sectors: more means the warp's\n"
         "ints are spread out and the memory system moves the same sectors again for the other k.\n"
         "(Segments are assumed to start on a 32-byte boundary, as every segment of the timed case does.)\n");
  int trees[12], lo[12], hi[12], invalid;
  int n_trees = trees_used(trees, lo, hi, &invalid);
  if (invalid) printf("  tree_size breaks its contract for %d lengths; those are left out here (see case tree)\n", invalid);
  int index = 0;
  for (int k_tree = 0; k_tree < n_trees; k_tree++) {
    int tree = trees[k_tree], threads = block_threads(tree);
    long sectors_block = 0, fewest_block = 0;
    int bad_rows = 0;
    char example[2][120] = {"", ""};
    for (int k = 0; k < 2; k++, index++) {
      int bad = 0;
      for (int warp = 0; warp < threads / WARP; warp++) {
        int sector[WARP], n_sectors = 0, lanes = 0, first = -1, second = -1, last = -1;
        for (int l = 0; l < WARP; l++) {
          int e = moved_element(warp * WARP + l, k, tree);
          if (e < 0) continue;
          lanes++;
          if (first < 0) first = e;
          else if (second < 0) second = e;
          last = e;
          int seen = 0;
          for (int m = 0; m < n_sectors && !seen; m++) seen = sector[m] == e / 8;
          if (!seen) sector[n_sectors++] = e / 8;
        }
        if (!lanes) continue;
        int fewest = (lanes + 7) / 8;
        sectors_block += n_sectors;
        fewest_block += fewest;
        if (n_sectors > fewest && !bad++)
          snprintf(example[k], sizeof example[k], "warp %d: %d lanes move elements %d,%d,..,%d: %d sectors, %d would do",
                   warp, lanes, first, second, last, n_sectors, fewest);
      }
      if (bad) fail_at(o, index), bad_rows++;
    }
    if (k_tree == 0) {
      printf("\ntree of %d leaves (segments of %d..%d elements), %d threads:\n", tree, lo[k_tree], hi[k_tree], threads);
      for (int k = 0; k < 2; k++)
        printf("  %3d  k=%d  %s\n", index - 2 + k, k, example[k][0] ? example[k] : "every warp touches the fewest sectors");
      printf("  sectors per block to load the tile (the same again to store it): %ld, fewest %ld\n", sectors_block,
             fewest_block);
    } else {
      printf("tree of %d leaves: rows %d..%d, %s\n", tree, index - 2, index - 1,
             bad_rows ? "some warps touch more sectors than they need" : "fewest sectors");
    }
  }
  o->n = (uint64_t)index;
  printf("\ncoalescing: %" PRIu64 " of %d load/store rows touch more sectors than they need\n", o->mismatches, index);
}

static int smallest_tree(int len) {
  int t = 2;
  while (t < len) t *= 2;
  return t;
}

static int log2i(int x) {
  int k = 0;
  while ((1 << k) < x) k++;
  return k;
}

static void case_tree(outcome *o) {
  printf("tree_size(L): the tree needs a power of two leaves, at least 2 and at least L; the smallest\n"
         "such tree costs 2(tree - 1) additions in 2 log2(tree) steps on tree/2 threads.\n");
  printf("  %5s %6s %7s %6s %10s %8s\n", "L", "tree", "wanted", "steps", "additions", "threads");
  static const int shown[] = {1, 2, 3, 33, 100, 1000, 1025, 2047, 2048};
  for (size_t i = 0; i < sizeof shown / sizeof *shown; i++) {
    int len = shown[i], t = tree_size(len);
    printf("  %5d %6d %7d %6d %10d %8d%s\n", len, t, smallest_tree(len), 2 * log2i(t), 2 * (t - 1), t / 2,
           t == smallest_tree(len) ? "" : "  *");
  }
  for (int len = 1; len <= TILE; len++)
    if (tree_size(len) != smallest_tree(len)) fail_at(o, len);
  o->n = TILE;
  printf("tree: %" PRIu64 " of %d lengths get a tree other than the smallest", o->mismatches, (int)TILE);
  if (o->mismatches) printf(" (first at L = %" PRId64 ")", o->first_bad);
  printf("\n");
}

// ---------------------------------------------------------------- the table program

// The table program's wall-clock limit: it makes about 8,000 calls of three small functions.
static const double TABLES_LIMIT_S = 20;

// Prints "03-blelloch model: the table program <why>" on stderr; returns -1. The
// grader shows the last 120 characters of that line: each why is short.
static int tables_fail(const char *fmt, ...) {
  char why[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  fflush(stdout);
  fprintf(stderr, "03-blelloch model: the table program %s\n", why);
  return -1;
}

// model-tables in the folder of the model's own binary.
static void default_tables_path(const char *argv0, char *path, size_t cap) {
  const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
  if (slash) {
    snprintf(path, cap, "%.*s/model-tables", (int)(slash - argv0), argv0);
    return;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  char *end = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
  if (end) {
    *end = 0;
    snprintf(path, cap, "%s/model-tables", exe);
  } else {
    snprintf(path, cap, "./model-tables");
  }
}

// Whether descriptors a and b are the same open file (or the same pipe).
static int same_file(int a, int b) {
  struct stat sa, sb;
  return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// What the table program gets as its descriptor fd (1 or 2): the model's, but
// /dev/null when that is the result channel itself or is not open.
static int passed_on(int fd, int result_fd) {
  return fcntl(fd, F_GETFD) < 0 || same_file(fd, result_fd) ? SUBPROC_DEVNULL : fd;
}

static uint32_t word_at(const unsigned char *b, int index) {
  const unsigned char *p = b + 4 * index;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// Runs the table program at path and fills the tables from its descriptor 3:
// exactly MT_BYTES, then the end of the pipe and exit status 0, all within
// TABLES_LIMIT_S. Returns 0, or -1 after its one line on stderr.
static int load_tables(const char *path, int result_fd) {
  static unsigned char buf[MT_BYTES];
  if (access(path, X_OK) != 0) return tables_fail("%s is missing or not executable (%s)", path, strerror(errno));
  int p[2];
  if (pipe2(p, O_CLOEXEC)) return tables_fail("could not start: pipe: %s", strerror(errno));
  // stdin /dev/null, stdout and stderr the model's (but one that is the result
  // channel itself, which gets /dev/null), descriptor 3 the pipe's write end, nothing else.
  const subproc_fd fds[] = {{SUBPROC_DEVNULL, 0}, {passed_on(1, result_fd), 1}, {passed_on(2, result_fd), 2}, {p[1], MT_FD}};
  char *argv[] = {(char *)path, NULL};
  double deadline = clock_now_s() + TABLES_LIMIT_S;
  subproc_error e;
  pid_t pid = subproc_exec(path, argv, fds, 4, 0, &e);
  close(p[1]);
  char why[600];
  if (pid < 0) {
    close(p[0]);
    return tables_fail("could not start: %s", subproc_error_text(&e, path, why, sizeof why));
  }
  size_t got = 0;
  int extra = 0, timed_out = 0, read_errno = 0;
  // A program that could not start has exited 127 and closed the pipe: no reading.
  while (e.stage == SUBPROC_STARTED) {
    double left = deadline - clock_now_s();
    if (left <= 0) {
      timed_out = 1;
      break;
    }
    struct pollfd pf = {p[0], POLLIN, 0};
    int r = poll(&pf, 1, (int)(left * 1e3) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      read_errno = errno;
      break;
    }
    if (r == 0) continue; // the deadline is checked above
    unsigned char spare[64];
    ssize_t n = got < sizeof buf ? read(p[0], buf + got, sizeof buf - got) : read(p[0], spare, sizeof spare);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      read_errno = errno;
      break;
    }
    if (n == 0) break; // the end of the pipe: the program has exited (or closed it)
    if (got == sizeof buf) {
      extra = 1; // more than the tables: stop listening
      break;
    }
    got += (size_t)n;
  }
  close(p[0]); // a program still writing now gets SIGPIPE
  if (extra) kill(pid, SIGKILL); // it has broken the format already: no need to wait for its end
  int status = 0, wait_errno = 0;
  int waited = subproc_wait_until(pid, timed_out ? 0 : deadline, SUBPROC_KILL, &status);
  if (waited < 0) wait_errno = errno;
  if (waited == SUBPROC_KILLED) timed_out = 1;
  if (e.stage != SUBPROC_STARTED) return tables_fail("could not start: %s", subproc_error_text(&e, path, why, sizeof why));
  if (timed_out) return tables_fail("did not finish within %g s and was killed", TABLES_LIMIT_S);
  if (extra) return tables_fail("wrote more than the %d bytes of its tables", (int)MT_BYTES);
  if (wait_errno) return tables_fail("could not be waited for: %s", strerror(wait_errno));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return tables_fail("%s", subproc_status_text(status, why, sizeof why));
  if (read_errno) return tables_fail("could not be read: %s", strerror(read_errno));
  if (got >= 4 && word_at(buf, 0) != (uint32_t)MT_MAGIC)
    return tables_fail("wrote something other than its tables (first word 0x%08x, not 0x%08x)",
                       (unsigned)word_at(buf, 0), (unsigned)MT_MAGIC);
  if (got >= 4 * MT_HEADER_WORDS &&
      (word_at(buf, 1) != MT_VERSION || word_at(buf, 2) != MT_N_PADDED || word_at(buf, 3) != MT_N_ELEMENT ||
       word_at(buf, 4) != MT_N_TREE))
    return tables_fail("wrote tables of another format (version %u, lengths %u/%u/%u; want %d, %d/%d/%d)",
                       (unsigned)word_at(buf, 1), (unsigned)word_at(buf, 2), (unsigned)word_at(buf, 3),
                       (unsigned)word_at(buf, 4), (int)MT_VERSION, (int)MT_N_PADDED, (int)MT_N_ELEMENT, (int)MT_N_TREE);
  if (got < sizeof buf) return tables_fail("exited after writing %zu of the %d bytes of its tables", got, (int)MT_BYTES);
  int at = MT_HEADER_WORDS;
  for (int i = 0; i < MT_N_PADDED; i++) tab_padded[i] = (int32_t)word_at(buf, at++);
  for (int i = 0; i < MT_N_ELEMENT; i++) tab_element[i] = (int32_t)word_at(buf, at++);
  for (int i = 0; i < MT_N_TREE; i++) tab_tree[i] = (int32_t)word_at(buf, at++);
  return 0;
}

// Takes the model's own option, --tables PATH, out of argv (in place); the rest
// are the runner protocol's (cli.h). Returns the new argc, or -1 when --tables
// has no value. The values of the protocol's options are passed over as they are.
static int take_tables_option(int argc, char **argv, const char **tables) {
  static const char *const with_value[] = {"--case",      "--variant",   "--n",       "--seed",   "--reps",
                                           "--warmup",    "--out",       "--save-failed", "--result-fd",
                                           "--assignment", "--runner",   "--call-timeout"};
  int n = argc > 0 ? 1 : 0;
  for (int i = n; i < argc; i++) {
    if (!strcmp(argv[i], "--")) { // the rest is a tool's command line, not the model's
      while (i < argc) argv[n++] = argv[i++];
      break;
    }
    if (!strcmp(argv[i], "--tables")) {
      if (i + 1 >= argc) return -1;
      *tables = argv[++i];
      continue;
    }
    int value = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++) value |= !strcmp(argv[i], with_value[k]);
    argv[n++] = argv[i];
    if (value && i + 1 < argc) argv[n++] = argv[++i];
  }
  argv[n] = NULL;
  return n;
}

static const char *const CASE_NAMES[] = {"banks", "coalescing", "tree"};
enum { N_CASES = 3 };

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int emit(int fd, const result_line *r) {
  char line[RESULT_LINE_MAX];
  int len = result_format(line, sizeof line, r);
  if (len < 0) return -1;
  fflush(stdout); // keep the table before the line when both go to stdout
  for (const char *p = line; len > 0;) {
    ssize_t w = write(fd, p, (size_t)len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    len -= (int)w;
  }
  return 0;
}

static int model_main(int argc, char **argv) {
  cli_opts o;
  char err[256];
  const char *tables = NULL;
  argc = take_tables_option(argc, argv, &tables);
  if (argc < 0) {
    fprintf(stderr, "03-blelloch model: --tables needs a value (the table program's path)\n%s", cli_usage);
    return 2;
  }
  if (cli_parse(argc, argv, &o, err, sizeof err)) {
    fprintf(stderr, "03-blelloch model: %s\n%s", err, cli_usage);
    return 2;
  }
  if (o.help) {
    fputs(cli_usage, stdout);
    printf("(the model: --case and --variant from --list; --n, --out and --bench do not apply; --reps and --warmup are ignored)\n"
           "(--tables PATH: the table program that evaluates the student's functions; default model-tables beside the model)\n");
    return 0;
  }
  if (o.have_n || o.out || o.bench) {
    fprintf(stderr, "03-blelloch model: %s: the model has only its named cases (--list)\n",
            o.have_n ? "--n" : o.out ? "--out" : "--bench");
    return 2;
  }
  if (o.list) {
    printf("assignment 03-blelloch-model\n"); /* the runner protocol's --list (docs/grading.md) */
    for (int v = 0; v < LAYOUT_COUNT; v++) printf("variant %s %s\n", LAYOUTS[v].slug, LAYOUTS[v].summary);
    for (int c = 0; c < N_CASES; c++) printf("case %s 0 1 1 0\n", CASE_NAMES[c]);
    return 0;
  }
  int layout = 0;
  if (o.variant) {
    while (layout < LAYOUT_COUNT && strcmp(LAYOUTS[layout].slug, o.variant)) layout++;
    if (layout == LAYOUT_COUNT) {
      fprintf(stderr, "03-blelloch model: --variant: unknown variant '%s' (--list shows them)\n", o.variant);
      return 2;
    }
  }
  int cases[CLI_MAX_CASES], n_cases = 0;
  for (int i = 0; i < (o.n_cases ? o.n_cases : N_CASES); i++) {
    int c = 0;
    if (o.n_cases)
      while (c < N_CASES && strcmp(CASE_NAMES[c], o.cases[i])) c++;
    else
      c = i;
    if (c == N_CASES) {
      fprintf(stderr, "03-blelloch model: --case: unknown case '%s' (--list shows them)\n", o.cases[i]);
      return 2;
    }
    cases[n_cases++] = c;
  }
  if (fcntl(o.result_fd, F_GETFD) < 0) {
    fprintf(stderr, "03-blelloch model: --result-fd: descriptor %d is not open\n", o.result_fd);
    return 2;
  }
  uint64_t seed = o.have_seed ? o.seed : 1;
  char tables_path[PATH_MAX + 16];
  if (tables) snprintf(tables_path, sizeof tables_path, "%s", tables);
  else default_tables_path(argc > 0 ? argv[0] : NULL, tables_path, sizeof tables_path);
  if (load_tables(tables_path, o.result_fd)) return 3;

  printf("03-blelloch CPU model, variant %s: %s\n", LAYOUTS[layout].slug, LAYOUTS[layout].summary);
  for (int i = 0; i < n_cases; i++) {
    outcome out = {0, 0, -1};
    printf("\n== case %s\n", CASE_NAMES[cases[i]]);
    double t0 = now_ms();
    switch (cases[i]) {
    case 0: case_banks(layout, &out); break;
    case 1: case_coalescing(&out); break;
    default: case_tree(&out); break;
    }
    double ms = now_ms() - t0;
    if (!(ms > 1e-6)) ms = 1e-6;
    result_line r;
    memset(&r, 0, sizeof r);
    snprintf(r.case_name, sizeof r.case_name, "%s", CASE_NAMES[cases[i]]);
    snprintf(r.variant, sizeof r.variant, "%s", LAYOUTS[layout].slug);
    r.n = out.n;
    r.seed = seed;
    r.ok = out.mismatches == 0;
    r.checked = 1;
    r.verified = 1;
    r.bad_reps = !r.ok;
    r.first_x = r.first_y = -1;
    r.median_ms = r.min_ms = ms;
    r.reps = 1;
    r.mismatches = out.mismatches;
    r.first_bad = out.first_bad;
    if (emit(o.result_fd, &r)) {
      fprintf(stderr, "03-blelloch model: cannot write the result line: %s\n", strerror(errno));
      return 3;
    }
  }
  return 0;
}

} // namespace bl_model

int main(int argc, char **argv) { return bl_model::model_main(argc, argv); }
