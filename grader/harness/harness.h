/* harness.h: the course-owned driver that every assignment's harness uses.
 *
 * An assignment's main.cu fills in an hx_assignment (its variants, its case
 * table and three callbacks) and calls hx_main. The driver parses the command
 * line, makes each case's input (untimed), poisons the outputs, warms up, times
 * R reps of the student's entry point with CUDA events, compares the last output
 * with the CPU reference, and writes one result line per case (result.h).
 *
 * Exit codes: 0 done (even when incorrect: ok=0), 2 bad arguments, 3 CUDA error,
 * anything else is a crash. */
#ifndef SCANLAB_HARNESS_H
#define SCANLAB_HARNESS_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "prng.h"
#include "result.h"
#include "scan_cpu.h"
#include "stats.h"

/* Checks a CUDA call; on failure prints "file:line: call: error" and exits 3.
 * Never compiled out. */
#define CUDA_CHECK(call) hx_cuda_check((call), #call, __FILE__, __LINE__)
/* After every kernel launch: catches bad launch configurations at once. */
#define CUDA_CHECK_LAUNCH() hx_cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

void hx_cuda_check(cudaError_t err, const char *what, const char *file, int line);

/* One row of the case table. */
typedef struct hx_case {
  const char *name;
  uint64_t n;    /* elements (or the assignment's size unit) */
  uint64_t seed; /* default seed; the grader passes fresh ones */
  int reps;      /* timed repetitions by default */
  uint64_t param; /* the assignment's own knob (segment length, scene id); 0 if unused */
} hx_case;

/* One row of the version table: harness, tests and benchmarks iterate it. */
typedef struct hx_variant {
  const char *slug;    /* names the strategy: "shfl", "hillis_steele_double_buffer" */
  const char *summary; /* one line for --list */
} hx_variant;

/* An output the driver poisons before each rep and checks after the last. */
typedef struct hx_output {
  void *dev;          /* device buffer the student writes */
  const int32_t *ref; /* CPU reference (when checking) */
  size_t count;       /* int32 elements */
} hx_output;

#define HX_MAX_OUTPUTS 4

/* What setup hands back to the driver. */
typedef struct hx_io {
  hx_output out[HX_MAX_OUTPUTS];
  int n_out;
} hx_io;

/* What the driver asks setup for. */
typedef struct hx_spec {
  const char *case_name;
  uint64_t n, seed;
  uint64_t param; /* from the case (0 for an ad-hoc --n run) */
  int variant; /* index into the version table */
  int check;   /* compute the CPU reference */
} hx_spec;

typedef struct hx_assignment {
  const char *name;
  const hx_variant *variants;
  int n_variants;
  const hx_case *cases;
  int n_cases;
  uint64_t max_n;
  /* For --bench: the case it times by default, and the napkin math: the fewest
   * bytes one run must move through device memory for n elements. */
  const char *bench_case;
  double (*bytes_moved)(uint64_t n);
  const char *bytes_note; /* "n ints read + n ints written" */
  /* Allocates and fills the inputs of one case (untimed), declares the outputs
   * in io, and computes the CPU reference when spec->check. Returns a state
   * pointer for run and teardown, or NULL after printing why (bad n). */
  void *(*setup)(const hx_spec *spec, hx_io *io);
  /* The timed region: the student's entry point for this variant, all of it. */
  void (*run)(void *state, int variant);
  void (*teardown)(void *state);
} hx_assignment;

int hx_main(int argc, char **argv, const hx_assignment *a);

/* Helpers for setup functions. */
void *hx_malloc(size_t bytes);              /* host; exits 3 on failure */
void *hx_dev_malloc(size_t bytes);          /* device, checked */
int32_t *hx_random_ints(uint64_t seed, size_t n, int32_t lo, int32_t hi); /* host */

#endif
