// litmus_mp.cu: lecture 04's message-passing (MP) litmus test, in eight
// variants. x is the data, y the flag:
//
//   T0: x = 1; y = 1          T1: r0 = y (until it reads 1, or gives up); r1 = x
//
// Sequential consistency forbids (r0, r1) = (1, 0): flag seen, data not.
// Variants, by how the two threads order their accesses:
//
//   volatile                 no fence: the PTX model allows r10
//   fence_sc_cta             __threadfence_block() on each side: too narrow a
//                            scope for two blocks, so the model allows r10
//   fence_sc_gpu             __threadfence() on each side: forbidden
//   fence_acq_rel_gpu        an acquire-release fence on each side: forbidden
//   release_acquire_cta      st.release.cta / ld.acquire.cta: too narrow; allowed
//   release_acquire_gpu      st.release.gpu / ld.acquire.gpu: forbidden
//   packed64                 value and flag in one 64-bit word, one relaxed
//                            store, no fence: r1 = "the value came with the
//                            flag"; r10 would be a torn word: forbidden
//   fenced_reader_in_order   fence_sc_gpu, but T1 reads x before y: now SC
//                            allows r10 (interleaving), and no fence forbids it
//
//   make lectures && build/lectures/litmus_mp      (needs a GPU; prints CSV)
//   make lectures-run                              (every example, CSV into lectures/data/)
#include "litmus.h"
#include "scope_ops.h"

// The word of the packed64 variant: value in the high half, flag (1) in the low.
#define MP_VALUE 0x5ca1ab1eu

enum mp_variant {
  MP_VOLATILE,
  MP_FENCE_SC_CTA,
  MP_FENCE_SC_GPU,
  MP_FENCE_ACQ_REL_GPU,
  MP_RELEASE_ACQUIRE_CTA,
  MP_RELEASE_ACQUIRE_GPU,
  MP_PACKED64,
  MP_FENCED_READER_IN_ORDER,
};

// T0: data, then flag.
static __device__ __forceinline__ void mp_writer(int v, unsigned *x, unsigned *y) {
  switch (v) {
  case MP_VOLATILE: // both volatile, so the compiler keeps the order; the memory system need not
    st_volatile(x, 1);
    st_volatile(y, 1);
    break;
  case MP_FENCE_SC_CTA:
    *x = 1;
    fence_sc_cta(); // orders the two stores only as seen by threads of this block
    st_volatile(y, 1);
    break;
  case MP_FENCE_ACQ_REL_GPU:
    *x = 1;
    fence_acq_rel_gpu(); // release pattern: fence, then a strong store of the flag
    st_volatile(y, 1);
    break;
  case MP_RELEASE_ACQUIRE_CTA:
    *x = 1;
    st_release_cta(y, 1); // a release, but only towards threads of this block
    break;
  case MP_RELEASE_ACQUIRE_GPU:
    *x = 1;
    st_release_gpu(y, 1); // the data store is visible to whoever acquires this flag
    break;
  case MP_PACKED64: // one store carries both: there is no second location to order
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*(unsigned long long *)x)
        .store((unsigned long long)MP_VALUE << 32 | 1u, cuda::memory_order_relaxed);
    break;
  default: // MP_FENCE_SC_GPU, MP_FENCED_READER_IN_ORDER
    *x = 1;
    fence_sc_gpu(); // orders the data store before the flag store, for every thread of the GPU
    st_volatile(y, 1);
  }
}

// T1's wait for the flag: the last value read (0 if it gave up).
static __device__ __forceinline__ unsigned mp_wait(int v, unsigned *y) {
  unsigned f = 0;
  for (int s = 0; s < LIT_SPIN && !f; s++) {
    if (v == MP_RELEASE_ACQUIRE_CTA) f = ld_acquire_cta(y);
    else if (v == MP_RELEASE_ACQUIRE_GPU) f = ld_acquire_gpu(y); // no later access is made before this load
    else f = ld_volatile(y);
  }
  return f;
}

// T1: flag, then data.
static __device__ __forceinline__ void mp_reader(int v, unsigned *x, unsigned *y, unsigned *r) {
  if (v == MP_PACKED64) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(*(unsigned long long *)x);
    unsigned long long w = 0;
    for (int s = 0; s < LIT_SPIN && !(w & 1u); s++) w = word.load(cuda::memory_order_relaxed);
    r[0] = (unsigned)(w & 1u);
    r[1] = (unsigned)(w >> 32) == MP_VALUE;
    return;
  }
  if (v == MP_FENCED_READER_IN_ORDER) { // x first: SC itself lets x be 0 and then y be 1
    r[1] = ld_volatile(x);
    fence_sc_gpu();
    r[0] = mp_wait(v, y);
    return;
  }
  r[0] = mp_wait(v, y);
  if (v == MP_FENCE_SC_CTA) fence_sc_cta();
  if (v == MP_FENCE_SC_GPU) fence_sc_gpu(); // orders the flag load before the data load
  if (v == MP_FENCE_ACQ_REL_GPU) fence_acq_rel_gpu(); // acquire pattern: a strong load, then the fence
  r[1] = v == MP_VOLATILE ? ld_volatile(x) : *x;
}

static __device__ __forceinline__ void mp_trial(int v, lit_args a) {
  lit_trial t;
  if (!lit_begin(a, &t)) return;
  if (t.role == 0) mp_writer(v, t.x, t.y);
  else mp_reader(v, t.x, t.y, t.r);
}

// One kernel per variant, so that each kernel's PTX holds that variant alone.
extern "C" __global__ void mp_volatile(lit_args a) { mp_trial(MP_VOLATILE, a); }
extern "C" __global__ void mp_fence_sc_cta(lit_args a) { mp_trial(MP_FENCE_SC_CTA, a); }
extern "C" __global__ void mp_fence_sc_gpu(lit_args a) { mp_trial(MP_FENCE_SC_GPU, a); }
extern "C" __global__ void mp_fence_acq_rel_gpu(lit_args a) { mp_trial(MP_FENCE_ACQ_REL_GPU, a); }
extern "C" __global__ void mp_release_acquire_cta(lit_args a) { mp_trial(MP_RELEASE_ACQUIRE_CTA, a); }
extern "C" __global__ void mp_release_acquire_gpu(lit_args a) { mp_trial(MP_RELEASE_ACQUIRE_GPU, a); }
extern "C" __global__ void mp_packed64(lit_args a) { mp_trial(MP_PACKED64, a); }
extern "C" __global__ void mp_fenced_reader_in_order(lit_args a) { mp_trial(MP_FENCED_READER_IN_ORDER, a); }

static const lit_variant MP_VARIANTS[] = {
    [MP_VOLATILE] = {"volatile", mp_volatile, "r10", "no"},
    [MP_FENCE_SC_CTA] = {"fence_sc_cta", mp_fence_sc_cta, "r10", "no"},
    [MP_FENCE_SC_GPU] = {"fence_sc_gpu", mp_fence_sc_gpu, "r10", "yes"},
    [MP_FENCE_ACQ_REL_GPU] = {"fence_acq_rel_gpu", mp_fence_acq_rel_gpu, "r10", "yes"},
    [MP_RELEASE_ACQUIRE_CTA] = {"release_acquire_cta", mp_release_acquire_cta, "r10", "no"},
    [MP_RELEASE_ACQUIRE_GPU] = {"release_acquire_gpu", mp_release_acquire_gpu, "r10", "yes"},
    [MP_PACKED64] = {"packed64", mp_packed64, "r10", "yes"},
    [MP_FENCED_READER_IN_ORDER] = {"fenced_reader_in_order", mp_fenced_reader_in_order, "none", "no"},
};

int main(int argc, char **argv) {
  const lit_test test = {"litmus_mp", "T0: x = 1; y = 1 | T1: r0 = y (spin until 1); r1 = x",
                         MP_VARIANTS, (int)(sizeof MP_VARIANTS / sizeof *MP_VARIANTS)};
  return lit_main(argc, argv, &test);
}
