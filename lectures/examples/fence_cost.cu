// fence_cost.cu: lecture 04's cost experiment. What does ordering cost, and
// how does the cost grow with the scope (CTA, GPU, system)?
//
// One block of 256 threads per SM; each thread repeats one operation ITERS
// times on its own word (a warp's 32 words are one 128-byte line), and the
// kernel is timed with CUDA events (median of REPS launches, after one
// warm-up). The operations, each one kernel, each compared with the loop that
// does the same accesses without ordering (its baseline):
//
//   store                      a volatile store                (baseline of the stores)
//   store_fence_{sc,acq_rel}_{cta,gpu,sys}
//                              the store, then a fence: the fence waits until
//                              the store is visible at that scope
//   st_release_{cta,gpu,sys}   a release store, which orders the earlier stores
//                              (of the last iteration) before itself
//   load                       a volatile load                 (baseline of the loads)
//   ld_acquire_{cta,gpu,sys}   an acquire load: later accesses wait for it
//   atom_{cta,gpu,sys}         atomicAdd_block, atomicAdd, atomicAdd_system
//                              (relaxed read-modify-writes), against the store
//
// Each row prints ns per iteration (one thread's time for one operation; all
// threads run at once) and that time over its baseline's.
//
//   make lectures && build/lectures/fence_cost     (needs a GPU; prints CSV)
#include "example.h"
#include "scope_ops.h"

enum {
  THREADS = 256, // one block per SM
  ITERS = 4096,  // operations per thread per launch
  REPS = 21,     // timed launches per operation (median)
};

enum cost_op {
  STORE,
  STORE_FENCE_SC_CTA,
  STORE_FENCE_ACQ_REL_CTA,
  STORE_FENCE_SC_GPU,
  STORE_FENCE_ACQ_REL_GPU,
  STORE_FENCE_SC_SYS,
  STORE_FENCE_ACQ_REL_SYS,
  ST_RELEASE_CTA,
  ST_RELEASE_GPU,
  ST_RELEASE_SYS,
  LOAD,
  LD_ACQUIRE_CTA,
  LD_ACQUIRE_GPU,
  LD_ACQUIRE_SYS,
  ATOM_CTA,
  ATOM_GPU,
  ATOM_SYS,
  N_OPS
};

// One iteration of an operation on p; a load returns what it read.
static __device__ __forceinline__ unsigned cost_step(int op, unsigned *p, unsigned k) {
  switch (op) {
  case STORE: st_volatile(p, k); return 0;
  case STORE_FENCE_SC_CTA: st_volatile(p, k); fence_sc_cta(); return 0;
  case STORE_FENCE_ACQ_REL_CTA: st_volatile(p, k); fence_acq_rel_cta(); return 0;
  case STORE_FENCE_SC_GPU: st_volatile(p, k); fence_sc_gpu(); return 0;
  case STORE_FENCE_ACQ_REL_GPU: st_volatile(p, k); fence_acq_rel_gpu(); return 0;
  case STORE_FENCE_SC_SYS: st_volatile(p, k); fence_sc_sys(); return 0;
  case STORE_FENCE_ACQ_REL_SYS: st_volatile(p, k); fence_acq_rel_sys(); return 0;
  case ST_RELEASE_CTA: st_release_cta(p, k); return 0;
  case ST_RELEASE_GPU: st_release_gpu(p, k); return 0;
  case ST_RELEASE_SYS: st_release_sys(p, k); return 0;
  case LOAD: return ld_volatile(p);
  case LD_ACQUIRE_CTA: return ld_acquire_cta(p);
  case LD_ACQUIRE_GPU: return ld_acquire_gpu(p);
  case LD_ACQUIRE_SYS: return ld_acquire_sys(p);
  case ATOM_CTA: return atomicAdd_block(p, 1u);
  case ATOM_GPU: return atomicAdd(p, 1u);
  default: return atomicAdd_system(p, 1u); // ATOM_SYS
  }
}

// Thread t of block b works on word b * blockDim.x + t. The loop is not
// unrolled, so each kernel's PTX holds its operation once; what was loaded
// goes to sink only if it is an impossible value, so no load is dead.
static __device__ __forceinline__ void cost_loop(int op, unsigned *words, unsigned *sink) {
  unsigned *p = words + blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
#pragma unroll 1
  for (int k = 0; k < ITERS; k++) acc += cost_step(op, p, (unsigned)k);
  if (acc == 0xffffffffu) *sink = acc;
}

extern "C" __global__ void cost_store(unsigned *w, unsigned *s) { cost_loop(STORE, w, s); }
extern "C" __global__ void cost_store_fence_sc_cta(unsigned *w, unsigned *s) { cost_loop(STORE_FENCE_SC_CTA, w, s); }
extern "C" __global__ void cost_store_fence_acq_rel_cta(unsigned *w, unsigned *s) { cost_loop(STORE_FENCE_ACQ_REL_CTA, w, s); }
extern "C" __global__ void cost_store_fence_sc_gpu(unsigned *w, unsigned *s) { cost_loop(STORE_FENCE_SC_GPU, w, s); }
extern "C" __global__ void cost_store_fence_acq_rel_gpu(unsigned *w, unsigned *s) { cost_loop(STORE_FENCE_ACQ_REL_GPU, w, s); }
extern "C" __global__ void cost_store_fence_sc_sys(unsigned *w, unsigned *s) { cost_loop(STORE_FENCE_SC_SYS, w, s); }
extern "C" __global__ void cost_store_fence_acq_rel_sys(unsigned *w, unsigned *s) { cost_loop(STORE_FENCE_ACQ_REL_SYS, w, s); }
extern "C" __global__ void cost_st_release_cta(unsigned *w, unsigned *s) { cost_loop(ST_RELEASE_CTA, w, s); }
extern "C" __global__ void cost_st_release_gpu(unsigned *w, unsigned *s) { cost_loop(ST_RELEASE_GPU, w, s); }
extern "C" __global__ void cost_st_release_sys(unsigned *w, unsigned *s) { cost_loop(ST_RELEASE_SYS, w, s); }
extern "C" __global__ void cost_load(unsigned *w, unsigned *s) { cost_loop(LOAD, w, s); }
extern "C" __global__ void cost_ld_acquire_cta(unsigned *w, unsigned *s) { cost_loop(LD_ACQUIRE_CTA, w, s); }
extern "C" __global__ void cost_ld_acquire_gpu(unsigned *w, unsigned *s) { cost_loop(LD_ACQUIRE_GPU, w, s); }
extern "C" __global__ void cost_ld_acquire_sys(unsigned *w, unsigned *s) { cost_loop(LD_ACQUIRE_SYS, w, s); }
extern "C" __global__ void cost_atom_cta(unsigned *w, unsigned *s) { cost_loop(ATOM_CTA, w, s); }
extern "C" __global__ void cost_atom_gpu(unsigned *w, unsigned *s) { cost_loop(ATOM_GPU, w, s); }
extern "C" __global__ void cost_atom_sys(unsigned *w, unsigned *s) { cost_loop(ATOM_SYS, w, s); }

// The table every loop below reads: slug (the kernel's name less "cost_"),
// kernel, scope, and the row it is compared with.
static const struct {
  const char *slug;
  void (*kernel)(unsigned *, unsigned *);
  const char *scope;
  int baseline;
} OPS[N_OPS] = {
    [STORE] = {"store", cost_store, "none", STORE},
    [STORE_FENCE_SC_CTA] = {"store_fence_sc_cta", cost_store_fence_sc_cta, "cta", STORE},
    [STORE_FENCE_ACQ_REL_CTA] = {"store_fence_acq_rel_cta", cost_store_fence_acq_rel_cta, "cta", STORE},
    [STORE_FENCE_SC_GPU] = {"store_fence_sc_gpu", cost_store_fence_sc_gpu, "gpu", STORE},
    [STORE_FENCE_ACQ_REL_GPU] = {"store_fence_acq_rel_gpu", cost_store_fence_acq_rel_gpu, "gpu", STORE},
    [STORE_FENCE_SC_SYS] = {"store_fence_sc_sys", cost_store_fence_sc_sys, "sys", STORE},
    [STORE_FENCE_ACQ_REL_SYS] = {"store_fence_acq_rel_sys", cost_store_fence_acq_rel_sys, "sys", STORE},
    [ST_RELEASE_CTA] = {"st_release_cta", cost_st_release_cta, "cta", STORE},
    [ST_RELEASE_GPU] = {"st_release_gpu", cost_st_release_gpu, "gpu", STORE},
    [ST_RELEASE_SYS] = {"st_release_sys", cost_st_release_sys, "sys", STORE},
    [LOAD] = {"load", cost_load, "none", LOAD},
    [LD_ACQUIRE_CTA] = {"ld_acquire_cta", cost_ld_acquire_cta, "cta", LOAD},
    [LD_ACQUIRE_GPU] = {"ld_acquire_gpu", cost_ld_acquire_gpu, "gpu", LOAD},
    [LD_ACQUIRE_SYS] = {"ld_acquire_sys", cost_ld_acquire_sys, "sys", LOAD},
    [ATOM_CTA] = {"atom_cta", cost_atom_cta, "cta", STORE},
    [ATOM_GPU] = {"atom_gpu", cost_atom_gpu, "gpu", STORE},
    [ATOM_SYS] = {"atom_sys", cost_atom_sys, "sys", STORE},
};

static int compare_floats(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

// The median time of REPS launches of one operation, in ms.
static float time_op(int op, int blocks, unsigned *words, unsigned *sink, cudaEvent_t start, cudaEvent_t stop) {
  float ms[REPS];
  OPS[op].kernel<<<blocks, THREADS>>>(words, sink); // warm-up
  EX_CHECK_LAUNCH();
  for (int r = 0; r < REPS; r++) {
    EX_CHECK(cudaEventRecord(start));
    OPS[op].kernel<<<blocks, THREADS>>>(words, sink);
    EX_CHECK(cudaGetLastError());
    EX_CHECK(cudaEventRecord(stop));
    EX_CHECK(cudaEventSynchronize(stop));
    EX_CHECK(cudaEventElapsedTime(&ms[r], start, stop));
  }
  qsort(ms, REPS, sizeof *ms, compare_floats);
  return ms[REPS / 2];
}

int main(int argc, char **argv) {
  ex_no_arguments(argc, argv, "the cost of fences and scopes");
  const cudaDeviceProp prop = ex_print_gpu("lecture 04", "fence_cost");
  const int blocks = prop.multiProcessorCount;
  unsigned *words = (unsigned *)ex_dev_zeros((size_t)blocks * THREADS * sizeof(unsigned));
  unsigned *sink = (unsigned *)ex_dev_zeros(sizeof(unsigned));
  cudaEvent_t start, stop;
  EX_CHECK(cudaEventCreate(&start));
  EX_CHECK(cudaEventCreate(&stop));

  printf("# %d blocks x %d threads, %d operations per thread, median of %d launches\n", blocks, THREADS, ITERS, REPS);
  printf("op,scope,median_ms,ns_per_iteration,x_baseline,baseline\n");
  float med[N_OPS];
  for (int op = 0; op < N_OPS; op++) {
    med[op] = time_op(op, blocks, words, sink, start, stop);
    const int b = OPS[op].baseline; // every baseline row comes before the rows compared with it
    printf("%s,%s,%.4f,%.1f,%.2f,%s\n", OPS[op].slug, OPS[op].scope, med[op], med[op] * 1e6 / ITERS,
           med[op] / med[b], OPS[b].slug);
  }
  EX_CHECK(cudaEventDestroy(start));
  EX_CHECK(cudaEventDestroy(stop));
  EX_CHECK(cudaFree(words));
  EX_CHECK(cudaFree(sink));
  return 0;
}
