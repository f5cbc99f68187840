// gpuinfo.cu: says in one line which CUDA device the grader will use, or why
// there is none. Exit 0 with a device, 1 without one. The grader runs it to
// choose between GPU and no-GPU mode; the test tiers record its line.
#include <cuda_runtime.h>
#include <stdio.h>

int main(void) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    printf("no CUDA device (%s)\n", err != cudaSuccess ? cudaGetErrorString(err) : "none found");
    return 1;
  }
  cudaDeviceProp p;
  int driver = 0, runtime = 0;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess || cudaDriverGetVersion(&driver) != cudaSuccess ||
      cudaRuntimeGetVersion(&runtime) != cudaSuccess) {
    printf("no CUDA device (cannot query device 0)\n");
    return 1;
  }
  printf("%s, sm_%d%d, %d SMs, %.0f GiB, CUDA driver %d.%d, runtime %d.%d\n", p.name, p.major, p.minor,
         p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, driver / 1000, driver % 1000 / 10, runtime / 1000,
         runtime % 1000 / 10);
  return 0;
}
