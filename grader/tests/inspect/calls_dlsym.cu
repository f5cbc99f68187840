// calls_dlsym.cu: an inspector fixture that looks up a library function at run time (dlsym), so that the symbol it
// means to call is in no relocation of its own: refused, naming dlsym.
#include <dlfcn.h>
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
cudaError_t fx_run(unsigned *x) {
  long (*raw)(long, ...) = (long (*)(long, ...))dlsym(RTLD_DEFAULT, "syscall");
  if (raw) raw(39);
  fx_kernel<<<1, 32>>>(x);
  return cudaGetLastError();
}
