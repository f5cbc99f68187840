/* harness.h: what an assignment's main.cu uses to describe itself to the
 * course-owned driver (grader/harness/driver.c, docs/architecture.md).
 *
 * An assignment's main.cu holds only its own kernels, its case table, its
 * variant table and three or four callbacks; it fills an hx_assignment with
 * designated initializers and ends with HX_MAIN(that). The driver does the
 * rest: options, untimed setup, poisoning the outputs, warm-up, timed reps with
 * CUDA events around only the student's entry point, verifying every timed rep
 * against the CPU reference, result lines, --list, --bench, --out.
 *
 * This header shares a translation unit with the student's file, so every name
 * it declares starts with hx_ or HX_, and it includes nothing the student does
 * not use (no grader modules). A student may name a helper `run` or `setup`.
 *
 * Exit codes: 0 done (even when incorrect: ok=0), 2 bad arguments, 3 CUDA error
 * or out of memory, anything else is a crash. */
#ifndef SCANLAB_HARNESS_H
#define SCANLAB_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#include <cuda_runtime.h>
/* Checks a CUDA call; on failure prints "file:line: call: error" and exits 3.
 * Never compiled out. */
#define HX_CHECK(call) hx_cuda_check((call), #call, __FILE__, __LINE__)
/* After every kernel launch: catches bad launch configurations at once. */
#define HX_CHECK_LAUNCH() hx_cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
void hx_cuda_check(cudaError_t err, const char *what, const char *file, int line);
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- tables */

/* One row of the case table. */
typedef struct hx_case {
  const char *name;
  uint64_t n;     /* elements (or the assignment's size unit) */
  uint64_t seed;  /* default seed; the grader passes fresh ones */
  int reps;       /* timed repetitions by default */
  uint64_t param; /* the assignment's own knob (segment length, scene id); 0 if unused */
} hx_case;

/* One row of the version table (or of the baseline table). */
typedef struct hx_variant {
  const char *slug;    /* names the strategy: "shfl", "decoupled_lookback" */
  const char *summary; /* one line for --list */
} hx_variant;

/* ---------------------------------------------------------------- outputs */

typedef enum hx_type {
  HX_INT32,   /* compared exactly */
  HX_UINT32,  /* compared exactly */
  HX_FLOAT32, /* |got - expected| <= tol; a NaN or infinity always fails */
  HX_RGBA32F, /* an image of width x height float4 pixels, row 0 at the bottom;
                 each channel within tol; a pixel whose mask byte is set is not compared */
  HX_TYPE_COUNT
} hx_type;

#define HX_MAX_OUTPUTS 4
#define HX_MAX_BASELINES 8

/* One output the student writes. The driver poisons `dev` before every rep
 * (0xA5 bytes: an element left unwritten is caught) and compares it with
 * `expect` after every timed rep. */
typedef struct hx_output {
  const char *name;     /* "out", "count", "image": for messages */
  hx_type type;
  void *dev;            /* device buffer of at least `count` elements */
  size_t count;         /* elements compared (pixels, for an image) */
  size_t poison_count;  /* elements poisoned; 0 means `count` (find_repeats poisons all n) */
  const void *expect;   /* host: the CPU reference, `count` elements; NULL without --check */
  const uint8_t *mask;  /* host: 1 = not compared, one byte per element/pixel; NULL = none */
  float tol;            /* float types: absolute tolerance per channel (0 = exact) */
  int width, height;    /* HX_RGBA32F only: count == width * height */
} hx_output;

/* What setup (and next_frame) hand back to the driver. */
typedef struct hx_io {
  hx_output out[HX_MAX_OUTPUTS];
  int n_out;
  int expect_changed; /* next_frame sets it when it changed any `expect` or `mask` */
} hx_io;

/* Adds an output to io and returns it, for the caller to set tol, mask, size. */
hx_output *hx_add_output(hx_io *io, const char *name, hx_type type, void *dev, const void *expect, size_t count);

/* ---------------------------------------------------------------- the assignment */

/* What the driver asks setup for. */
typedef struct hx_spec {
  const char *case_name;
  uint64_t n, seed;
  uint64_t param;    /* from the case (0 for an ad-hoc --n run) */
  int variant;       /* index into the version table */
  int check;         /* compute the CPU reference */
  void *work;        /* the device workspace (NULL when it is 0 bytes) */
  size_t work_bytes; /* its size, from workspace_bytes(n, param) */
} hx_spec;

typedef struct hx_assignment {
  const char *name; /* "04-large-scan": --list's first line, checked by the grader */
  const hx_variant *variants;
  int n_variants;
  const hx_case *cases;
  int n_cases;
  uint64_t max_n;

  /* --bench: the case it times by default, or the sizes or the cases of its rows; and the
   * napkin math: the fewest bytes one run must move through device memory
   * (NULL: 8n, "n ints read + n ints written"). */
  const char *bench_case;
  const uint64_t *bench_sizes; /* the bench case at each of these sizes (04) */
  int n_bench_sizes;
  const char *const *bench_cases; /* or these cases, each at its own size (05's scenes) */
  int n_bench_cases;
  int bench_reps; /* reps a --bench row times (0: the case's reps); --reps overrides it */
  double (*bytes_moved)(uint64_t n, uint64_t param);
  const char *bytes_note;

  /* Optional: bytes of device workspace the student's code needs (CUB's two-
   * phase call). The driver allocates it once per case, untimed, fills it with
   * 0xA5 bytes (nothing in it starts as zero), and passes it in spec->work.
   * Resetting it between runs is the student's timed work. */
  size_t (*workspace_bytes)(uint64_t n, uint64_t param);

  /* Makes the inputs of one case (untimed) and declares the outputs in io,
   * with the CPU reference when spec->check. Memory from hx_malloc and
   * hx_dev_malloc is freed by the driver after the case. Returns a state
   * pointer for run, or NULL after printing why (bad n, bad param). */
  void *(*setup)(const hx_spec *spec, hx_io *io);
  /* The timed region: the student's entry point for this variant, all of it. */
  void (*run)(void *state, int variant);
  /* Optional, untimed, before timed rep `frame` (1, 2, ...): change the inputs
   * so no work can be reused across reps (05 moves its circles), updating the
   * expected outputs and setting io->expect_changed. */
  void (*next_frame)(void *state, int frame, hx_io *io);
  /* Optional: frees what setup made other than through hx_malloc/hx_dev_malloc. */
  void (*teardown)(void *state);

  /* Optional, --bench only: rows beside the copy that are not student code
   * (04: CUB). Linked only into the bench binary (HX_BENCH), never into the
   * student's or the reference's harness. */
  const hx_variant *baselines;
  int n_baselines;
  void (*run_baseline)(void *state, int baseline);
  /* Per baseline: the variant whose setup and expected outputs it shares, and
   * whose rows it is the x_base of (04: CUB's scan for the scans, CUB's select
   * for find_repeats). NULL: variant 0 for every baseline. */
  const int *baseline_variants;
  /* Per baseline: the largest n (the case's size unit) it is timed at; larger
   * cases leave its row out (05's CPU reference on the small scenes only).
   * NULL: every case. */
  const uint64_t *baseline_max_n;
} hx_assignment;

int hx_main(int argc, char **argv, const hx_assignment *a);

/* The program: `HX_MAIN(my_assignment)` at the end of main.cu. */
#define HX_MAIN(assignment) \
  int main(int argc, char **argv) { return hx_main(argc, argv, &(assignment)); }

/* ---------------------------------------------------------------- helpers for setup */

/* Host and device memory that lives until the end of the case. Out of memory
 * is a clear error (exit 3) that names the request and what is free. */
void *hx_malloc(size_t bytes);
void *hx_dev_malloc(size_t bytes);
/* A device copy of host data (freed after the case). */
void *hx_dev_upload(const void *host, size_t bytes);
/* Host copy of `bytes` bytes of device memory (outside any timing). */
void hx_download(void *host, const void *dev, size_t bytes);
void hx_upload(void *dev, const void *host, size_t bytes);

/* Inputs from the course's portable PRNG (SplitMix64): the same on every machine. */
int32_t *hx_random_ints(uint64_t seed, size_t n, int32_t lo, int32_t hi);
uint32_t *hx_random_uints(uint64_t seed, size_t n, uint32_t lo, uint32_t hi);

/* The course's one CPU scan (grader/lib/scan_cpu.c), wrapping modulo 2^32:
 * each segment of seg_len elements (0: one segment) scanned on its own. */
void hx_scan_cpu(const int32_t *in, int32_t *out, size_t n, size_t seg_len, int exclusive);

/* The course's one CPU find_repeats (grader/lib/compact_cpu.c): writes every i
 * with a[i] == a[i + 1] to indices, in increasing order; returns their count. */
size_t hx_find_repeats_cpu(const uint32_t *a, size_t n, uint32_t *indices);

#ifdef __cplusplus
}
#endif
#endif
