// dtor_attribute.cu: an inspector fixture whose function runs after main returns (__attribute__((destructor))): refused.
#include <cstdio>
__attribute__((destructor)) static void fx_late(void) { std::puts("rewriting the results file after the last call"); }
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
void fx_run(unsigned *x) { fx_kernel<<<1, 32>>>(x); }
