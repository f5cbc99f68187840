// scope_ops.h: lecture 04's memory operations, one small function each, named
// by the PTX they compile to (checked by tests/test_lectures.c): weak,
// volatile, relaxed, release and acquire accesses and fences, at CTA (block),
// GPU (device) and system scope. The litmus tests and fence_cost.cu use these.
#ifndef SCANLAB_SCOPE_OPS_H
#define SCANLAB_SCOPE_OPS_H

#include <cuda/atomic>

#define SCOPE_OP static __device__ __forceinline__

// volatile: ld.volatile / st.volatile, which the PTX model treats as relaxed at
// system scope. Each access is made, in program order with the thread's other
// volatile accesses; nothing else is ordered.
SCOPE_OP unsigned ld_volatile(const unsigned *p) { return *(const volatile unsigned *)p; }
SCOPE_OP void st_volatile(unsigned *p, unsigned v) { *(volatile unsigned *)p = v; }

// Relaxed atomics (ld.relaxed.SCOPE / st.relaxed.SCOPE): strong, so coherent
// for every thread inside the scope, and ordering nothing else.
SCOPE_OP unsigned ld_relaxed_cta(unsigned *p) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*p).load(cuda::memory_order_relaxed);
}
SCOPE_OP void st_relaxed_cta(unsigned *p, unsigned v) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*p).store(v, cuda::memory_order_relaxed);
}
SCOPE_OP unsigned ld_relaxed_gpu(unsigned *p) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}
SCOPE_OP void st_relaxed_gpu(unsigned *p, unsigned v) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_relaxed);
}

// Release stores (st.release.SCOPE): every earlier access of this thread is
// visible to a thread in the scope that acquires the stored value.
SCOPE_OP void st_release_cta(unsigned *p, unsigned v) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*p).store(v, cuda::memory_order_release);
}
SCOPE_OP void st_release_gpu(unsigned *p, unsigned v) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_release);
}
SCOPE_OP void st_release_sys(unsigned *p, unsigned v) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_system>(*p).store(v, cuda::memory_order_release);
}

// Acquire loads (ld.acquire.SCOPE): no later access of this thread is made
// before this load.
SCOPE_OP unsigned ld_acquire_cta(unsigned *p) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*p).load(cuda::memory_order_acquire);
}
SCOPE_OP unsigned ld_acquire_gpu(unsigned *p) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*p).load(cuda::memory_order_acquire);
}
SCOPE_OP unsigned ld_acquire_sys(unsigned *p) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_system>(*p).load(cuda::memory_order_acquire);
}

// Fences. The CUDA built-ins are sequentially consistent fences
// (__threadfence_block: fence.sc.cta, __threadfence: fence.sc.gpu,
// __threadfence_system: fence.sc.sys; older toolkits print membar.cta,
// membar.gl, membar.sys). An acquire-release fence (fence.acq_rel.SCOPE) is
// the lighter one: enough for release and acquire patterns, not for store
// buffering, which needs fence.sc.
SCOPE_OP void fence_sc_cta(void) { __threadfence_block(); }
SCOPE_OP void fence_sc_gpu(void) { __threadfence(); }
SCOPE_OP void fence_sc_sys(void) { __threadfence_system(); }
SCOPE_OP void fence_acq_rel_cta(void) { cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_block); }
SCOPE_OP void fence_acq_rel_gpu(void) { cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device); }
SCOPE_OP void fence_acq_rel_sys(void) { cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_system); }

#endif
