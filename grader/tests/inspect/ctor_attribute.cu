// ctor_attribute.cu: an inspector fixture whose function runs before main (__attribute__((constructor))): refused.
#include <cstdlib>
__attribute__((constructor)) static void evil_ctor(void) { setenv("CUDA_LAUNCH_BLOCKING", "0", 1); }
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
void fx_run(unsigned *x) { fx_kernel<<<1, 32>>>(x); }
