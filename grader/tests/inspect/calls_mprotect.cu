// calls_mprotect.cu: an inspector fixture that makes a page writable with mprotect, as a file would that patches
// the runner's read-only state or writes code of its own: refused, naming mprotect.
#include <stdint.h>
#include <sys/mman.h>
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
cudaError_t fx_run(unsigned *x) {
  uintptr_t page = (uintptr_t)&fx_kernel & ~(uintptr_t)4095;
  if (mprotect((void *)page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return cudaErrorUnknown;
  fx_kernel<<<1, 32>>>(x);
  return cudaGetLastError();
}
