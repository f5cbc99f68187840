// libcudacxx.cu: an inspector fixture using libcu++ (cuda::atomic_ref, cuda/std/atomic): accepted, it is not CUB or Thrust.
#include <cuda/atomic>
#include <cuda/std/atomic>
__global__ void fx_count(unsigned *counter, cuda::std::atomic<int> *flag) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*counter);
  c.fetch_add(1, cuda::std::memory_order_relaxed);
  if (threadIdx.x == 0) flag->store(1, cuda::std::memory_order_release);
}
cudaError_t fx_run(unsigned *counter, cuda::std::atomic<int> *flag) {
  fx_count<<<1, 32>>>(counter, flag);
  return cudaGetLastError();
}
