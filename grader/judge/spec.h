/* spec.h: what an assignment's spec.c gives the judge: the trusted side of grading.
 *
 * The judge (judge_main.c) is the process the grader runs for every run of a runner.
 * It starts the runner (the untrusted process holding the student's code,
 * grader/runner/), and for every call of every case it makes the inputs, hands
 * them to the runner through shared memory, takes back the raw outputs and
 * compares them itself. Inputs, expected outputs and verdicts never exist in the
 * runner's process, so the student's code can neither read nor write them.
 *
 * An assignment's spec.c (assignments/NN/judge/spec.c, plain C) says what its cases
 * are and what is right: its tables, the buffers of one call (open), the inputs
 * of call k (input) and either the expected outputs of call k (expect: the judge
 * compares with compare.h) or its own comparison (check: a scan may compare
 * against a prefix table without building the expected array). Every call of a
 * case gets its own input, warm-ups included, derived from (seed, call): no
 * output can be remembered from an earlier call, and state a scan keeps in its
 * workspace from the previous call describes another input. */
#ifndef SCANLAB_SPEC_H
#define SCANLAB_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "verdict.h"
#include "wire.h"

#define JUDGE_MAX_BUFS WIRE_MAX_BUFS

/* One row of the case table. */
typedef struct spec_case {
  const char *name;
  uint64_t n;     /* elements (or the assignment's size unit) */
  uint64_t seed;  /* default seed; the grader passes fresh ones */
  int reps;       /* timed samples by default */
  uint64_t param; /* the assignment's own knob (segment length, image size); 0 if unused */
  int batch;      /* calls per timed sample, back to back (0 = 1): small cases are
                     timed over several calls so launch latency does not swing them */
} spec_case;

/* One row of the variant table (or of the baseline table). */
typedef struct spec_variant {
  const char *slug;    /* names the strategy: "shfl", "decoupled_lookback" */
  const char *summary; /* one line for --list */
} spec_variant;

/* One buffer of one call. */
typedef struct spec_buf {
  const char *name;    /* "in", "out", "image": for messages */
  elem_type type;
  size_t count;        /* elements moved (inputs) or compared and handed back (outputs) */
  size_t device_count; /* elements allocated and poisoned on the device; 0 = count */
  float tol;           /* float types: absolute tolerance per channel */
  int masked;          /* outputs: expect() fills a mask (1 = not compared) */
  int width, height;   /* ELEM_RGBA32F: count == width * height */
} spec_buf;

struct judge_spec;

/* One case as the judge runs it; open() fills the buffers and state. */
typedef struct judge_case {
  const struct judge_spec *spec;
  const char *name;
  uint64_t n, seed, param;
  int variant; /* index into the variants (or baselines after them), or WIRE_COPY_VARIANT */
  int n_in, n_out;
  spec_buf in[JUDGE_MAX_BUFS], out[JUDGE_MAX_BUFS];
  void *state; /* the spec's */
} judge_case;

typedef struct judge_spec {
  const char *name; /* the assignment's folder name, "NN-name" */
  const spec_variant *variants;
  int n_variants;
  const spec_case *cases;
  int n_cases;
  uint64_t max_n; /* --n above this is refused */

  /* --bench: the case it times by default, or that case at these sizes, or
   * these cases (after the sized rows where both are given: say the graded input
   * of another variant); reps per row (0: the case's); the napkin math (NULL: 8n),
   * which sizes the copy row, and, where a variant moves other bytes than the
   * copy (a compaction), bench_bytes: what one call of that variant moves,
   * for its GB/s column (NULL: bytes_moved). */
  const char *bench_case;
  const uint64_t *bench_sizes;
  int n_bench_sizes;
  const char *const *bench_cases;
  int n_bench_cases;
  int bench_reps;
  double (*bytes_moved)(uint64_t n, uint64_t param);
  double (*bench_bytes)(int variant, uint64_t n, uint64_t param);
  const char *bytes_note;
  /* The bytes one call of a variant cannot avoid moving (a scan reads n ints and
   * writes n; a frame writes its image): a perf duel's floor is a fraction of the
   * time a device copy of them takes (--floor). NULL: bytes_moved. */
  double (*unavoidable_bytes)(int variant, uint64_t n, uint64_t param);

  /* Rows of the bench build's runner beyond the variants (baselines such as CUB). Each shares
   * the inputs and verdict of a variant (NULL: variant 0) and is timed up to a
   * largest n (NULL: always). */
  const spec_variant *baselines;
  int n_baselines;
  const int *baseline_variants;
  const uint64_t *baseline_max_n;

  /* The buffers of one call and the spec's state (untimed, once per case).
   * Returns 0, or -1 with a one-line reason (bad n, bad param). */
  int (*open)(judge_case *c, char *err, size_t cap);
  /* The inputs of call k (0, 1, ...: warm-ups first), into in[i] (in[i].count elements). */
  void (*input)(judge_case *c, uint64_t k, void *const in[]);
  /* Either: the expected outputs of call k into want[i] (out[i].count elements)
   * and, for masked outputs, mask[i] (1 = not compared) ... */
  void (*expect)(judge_case *c, uint64_t k, void *const want[], uint8_t *const mask[]);
  /* ... or the spec's own comparison of call k's outputs (got[i]: out[i].count elements). */
  void (*check)(judge_case *c, uint64_t k, const void *const got[], spec_verdict *v);
  void (*close)(judge_case *c); /* optional */
} judge_spec;

/* The specs of every assignment (specs.c): the one table the judge reads. */
extern const judge_spec *const judge_specs[];
extern const int judge_n_specs;

/* The seed of call k of a case: every call its own input (call_seed.c). */
uint64_t judge_call_seed(uint64_t seed, uint64_t k);

/* The generic comparison of one output (compare.h over every element; buffer_compare.c). */
void judge_compare(const spec_buf *b, const void *got, const void *want, const uint8_t *mask, spec_verdict *v);
/* Records element i as wrong (first_bad, its pixel for images). judge_verdict_init
 * and judge_verdict_merge are in verdict.h. */
void judge_verdict_bad(spec_verdict *v, const spec_buf *b, uint64_t i);

#endif
