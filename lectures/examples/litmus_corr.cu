// litmus_corr.cu: lecture 04's read-read coherence (CoRR) litmus test, in
// four variants. One location, x:
//
//   T0: x = 1                 T1: r0 = x (until it reads 1, or gives up); r1 = x
//
// Sequential consistency forbids (r0, r1) = (1, 0): once a thread has read the
// new value, a later read of the same location cannot return the old one.
// Coherence (one order of the stores to each location, which every reader
// follows) forbids it too, and coherence is what the PTX model promises for
// strong accesses of threads inside their scope. Variants:
//
//   plain        weak loads and store: a data race, so the model promises
//                nothing; the compiler may merge the loads (read the PTX)
//   volatile     relaxed at system scope: coherent; forbidden
//   relaxed_gpu  ld.relaxed.gpu / st.relaxed.gpu: coherent; forbidden
//   relaxed_cta  ld.relaxed.cta / st.relaxed.cta between two blocks: outside
//                the scope, so the model promises nothing
//
//   make lectures && build/lectures/litmus_corr    (needs a GPU; prints CSV)
#include "litmus.h"
#include "scope_ops.h"

enum corr_variant { CORR_PLAIN, CORR_VOLATILE, CORR_RELAXED_GPU, CORR_RELAXED_CTA };

static __device__ __forceinline__ void corr_store(int v, unsigned *x) {
  if (v == CORR_PLAIN) *x = 1;
  else if (v == CORR_VOLATILE) st_volatile(x, 1);
  else if (v == CORR_RELAXED_GPU) st_relaxed_gpu(x, 1);
  else st_relaxed_cta(x, 1);
}

static __device__ __forceinline__ unsigned corr_load(int v, unsigned *x) {
  if (v == CORR_PLAIN) return *x;
  if (v == CORR_VOLATILE) return ld_volatile(x);
  if (v == CORR_RELAXED_GPU) return ld_relaxed_gpu(x);
  return ld_relaxed_cta(x);
}

// T1: the first read that sees 1 (or the last of LIT_SPIN reads), then one more.
static __device__ __forceinline__ void corr_reader(int v, unsigned *x, unsigned *r) {
  unsigned r0 = 0;
  for (int s = 0; s < LIT_SPIN && !r0; s++) r0 = corr_load(v, x);
  r[0] = r0;
  r[1] = corr_load(v, x); // coherence: not older than the value read just before
}

static __device__ __forceinline__ void corr_trial(int v, lit_args a) {
  lit_trial t;
  if (!lit_begin(a, &t)) return;
  if (t.role == 0) corr_store(v, t.x);
  else corr_reader(v, t.x, t.r);
}

extern "C" __global__ void corr_plain(lit_args a) { corr_trial(CORR_PLAIN, a); }
extern "C" __global__ void corr_volatile(lit_args a) { corr_trial(CORR_VOLATILE, a); }
extern "C" __global__ void corr_relaxed_gpu(lit_args a) { corr_trial(CORR_RELAXED_GPU, a); }
extern "C" __global__ void corr_relaxed_cta(lit_args a) { corr_trial(CORR_RELAXED_CTA, a); }

static const lit_variant CORR_VARIANTS[] = {
    [CORR_PLAIN] = {"plain", corr_plain, "r10", "no"},
    [CORR_VOLATILE] = {"volatile", corr_volatile, "r10", "yes"},
    [CORR_RELAXED_GPU] = {"relaxed_gpu", corr_relaxed_gpu, "r10", "yes"},
    [CORR_RELAXED_CTA] = {"relaxed_cta", corr_relaxed_cta, "r10", "no"},
};

int main(int argc, char **argv) {
  const lit_test test = {"litmus_corr", "T0: x = 1 | T1: r0 = x (spin until 1); r1 = x", CORR_VARIANTS,
                         (int)(sizeof CORR_VARIANTS / sizeof *CORR_VARIANTS)};
  return lit_main(argc, argv, &test);
}
