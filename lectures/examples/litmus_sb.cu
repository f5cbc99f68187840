// litmus_sb.cu: lecture 04's store-buffering (SB) litmus test, in five
// variants:
//
//   T0: x = 1; r0 = y         T1: y = 1; r1 = x
//
// Sequential consistency forbids (r0, r1) = (0, 0): in every interleaving one
// of the two stores comes first, and the other thread's load after it sees it.
// A store buffer (x86's TSO) allows r00: each store waits in its core's buffer
// while the load after it reads memory. Variants:
//
//   volatile             no fence: the PTX model allows r00
//   release_acquire_gpu  st.release.gpu then ld.acquire.gpu: still allowed, since
//                        a release orders what comes before it and an acquire
//                        what comes after it; neither orders a store before a
//                        later load
//   fence_acq_rel_gpu    fence.acq_rel.gpu between them: still allowed
//   fence_sc_cta         fence.sc.cta (__threadfence_block): too narrow a scope
//                        for two blocks; allowed
//   fence_sc_gpu         fence.sc.gpu (__threadfence): forbidden. Only an SC
//                        fence orders a store before a later load
//
//   make lectures && build/lectures/litmus_sb      (needs a GPU; prints CSV)
#include "litmus.h"
#include "scope_ops.h"

enum sb_variant { SB_VOLATILE, SB_RELEASE_ACQUIRE_GPU, SB_FENCE_ACQ_REL_GPU, SB_FENCE_SC_CTA, SB_FENCE_SC_GPU };

// One thread of the test: store 1 to `mine`, then load `theirs`.
static __device__ __forceinline__ unsigned sb_thread(int v, unsigned *mine, unsigned *theirs) {
  if (v == SB_RELEASE_ACQUIRE_GPU) {
    st_release_gpu(mine, 1);
    return ld_acquire_gpu(theirs); // may still be served before the release store is visible
  }
  st_volatile(mine, 1);
  if (v == SB_FENCE_ACQ_REL_GPU) fence_acq_rel_gpu(); // orders loads and stores before it against stores after it: not this load
  if (v == SB_FENCE_SC_CTA) fence_sc_cta();
  if (v == SB_FENCE_SC_GPU) fence_sc_gpu(); // the store is visible GPU-wide before the load is made
  return ld_volatile(theirs);
}

static __device__ __forceinline__ void sb_trial(int v, lit_args a) {
  lit_trial t;
  if (!lit_begin(a, &t)) return;
  if (t.role == 0) t.r[0] = sb_thread(v, t.x, t.y);
  else t.r[1] = sb_thread(v, t.y, t.x);
}

extern "C" __global__ void sb_volatile(lit_args a) { sb_trial(SB_VOLATILE, a); }
extern "C" __global__ void sb_release_acquire_gpu(lit_args a) { sb_trial(SB_RELEASE_ACQUIRE_GPU, a); }
extern "C" __global__ void sb_fence_acq_rel_gpu(lit_args a) { sb_trial(SB_FENCE_ACQ_REL_GPU, a); }
extern "C" __global__ void sb_fence_sc_cta(lit_args a) { sb_trial(SB_FENCE_SC_CTA, a); }
extern "C" __global__ void sb_fence_sc_gpu(lit_args a) { sb_trial(SB_FENCE_SC_GPU, a); }

static const lit_variant SB_VARIANTS[] = {
    [SB_VOLATILE] = {"volatile", sb_volatile, "r00", "no"},
    [SB_RELEASE_ACQUIRE_GPU] = {"release_acquire_gpu", sb_release_acquire_gpu, "r00", "no"},
    [SB_FENCE_ACQ_REL_GPU] = {"fence_acq_rel_gpu", sb_fence_acq_rel_gpu, "r00", "no"},
    [SB_FENCE_SC_CTA] = {"fence_sc_cta", sb_fence_sc_cta, "r00", "no"},
    [SB_FENCE_SC_GPU] = {"fence_sc_gpu", sb_fence_sc_gpu, "r00", "yes"},
};

int main(int argc, char **argv) {
  const lit_test test = {"litmus_sb", "T0: x = 1; r0 = y | T1: y = 1; r1 = x", SB_VARIANTS,
                         (int)(sizeof SB_VARIANTS / sizeof *SB_VARIANTS)};
  return lit_main(argc, argv, &test);
}
