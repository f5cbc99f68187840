// litmus_lb.cu: lecture 04's load-buffering (LB) litmus test, in four
// variants:
//
//   T0: r0 = x; y = 1         T1: r1 = y; x = 1
//
// Sequential consistency forbids (r0, r1) = (1, 1): each load would have to
// read a store that comes after it in its own thread. A machine that lets a
// store become visible before an earlier load has read its value allows it.
// Variants:
//
//   volatile             no fence: the PTX model allows r11
//   fence_sc_cta         fence.sc.cta (__threadfence_block): too narrow a scope;
//                        allowed
//   fence_acq_rel_gpu    fence.acq_rel.gpu between the load and the store:
//                        forbidden (the store after the fence is a release that
//                        the other thread's load would observe)
//   release_acquire_gpu  ld.acquire.gpu then st.release.gpu: forbidden (no
//                        access after an acquire is made before it)
//
//   make lectures && build/lectures/litmus_lb      (needs a GPU; prints CSV)
#include "litmus.h"
#include "scope_ops.h"

enum lb_variant { LB_VOLATILE, LB_FENCE_SC_CTA, LB_FENCE_ACQ_REL_GPU, LB_RELEASE_ACQUIRE_GPU };

// One thread of the test: load `theirs`, then store 1 to `mine`.
static __device__ __forceinline__ unsigned lb_thread(int v, unsigned *theirs, unsigned *mine) {
  if (v == LB_RELEASE_ACQUIRE_GPU) {
    unsigned r = ld_acquire_gpu(theirs); // the store below cannot be made before this load
    st_release_gpu(mine, 1);
    return r;
  }
  unsigned r = ld_volatile(theirs);
  if (v == LB_FENCE_SC_CTA) fence_sc_cta();
  if (v == LB_FENCE_ACQ_REL_GPU) fence_acq_rel_gpu(); // the load is made before the store
  st_volatile(mine, 1);
  return r;
}

static __device__ __forceinline__ void lb_trial(int v, lit_args a) {
  lit_trial t;
  if (!lit_begin(a, &t)) return;
  if (t.role == 0) t.r[0] = lb_thread(v, t.x, t.y);
  else t.r[1] = lb_thread(v, t.y, t.x);
}

extern "C" __global__ void lb_volatile(lit_args a) { lb_trial(LB_VOLATILE, a); }
extern "C" __global__ void lb_fence_sc_cta(lit_args a) { lb_trial(LB_FENCE_SC_CTA, a); }
extern "C" __global__ void lb_fence_acq_rel_gpu(lit_args a) { lb_trial(LB_FENCE_ACQ_REL_GPU, a); }
extern "C" __global__ void lb_release_acquire_gpu(lit_args a) { lb_trial(LB_RELEASE_ACQUIRE_GPU, a); }

static const lit_variant LB_VARIANTS[] = {
    [LB_VOLATILE] = {"volatile", lb_volatile, "r11", "no"},
    [LB_FENCE_SC_CTA] = {"fence_sc_cta", lb_fence_sc_cta, "r11", "no"},
    [LB_FENCE_ACQ_REL_GPU] = {"fence_acq_rel_gpu", lb_fence_acq_rel_gpu, "r11", "yes"},
    [LB_RELEASE_ACQUIRE_GPU] = {"release_acquire_gpu", lb_release_acquire_gpu, "r11", "yes"},
};

int main(int argc, char **argv) {
  const lit_test test = {"litmus_lb", "T0: r0 = x; y = 1 | T1: r1 = y; x = 1", LB_VARIANTS,
                         (int)(sizeof LB_VARIANTS / sizeof *LB_VARIANTS)};
  return lit_main(argc, argv, &test);
}
