// gpuinfo.cu: says in one line which CUDA device the grader will use, or why
// there is none. Exit 0 with a device, 1 without one. The grader runs it to
// choose between GPU and no-GPU mode; the test tiers record its line.
//
// Without an NVIDIA driver the CUDA runtime finds no libcuda.so.1 and reports
// cudaErrorInsufficientDriver ("CUDA driver version is insufficient for CUDA
// runtime version"), which reads as if an old driver were installed. So when
// the runtime fails, gpuinfo asks the dynamic loader for the driver library
// itself: none there is "no NVIDIA driver"; a driver that loads keeps the
// runtime's own error text (an old driver, no device, a device in use).
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>

// 1 when the driver library (libcuda.so.1, what the runtime loads) can be loaded.
static int driver_installed(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!lib) return 0;
  dlclose(lib);
  return 1;
}

int main(void) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess && !driver_installed()) {
    printf("no CUDA device (no NVIDIA driver: libcuda.so.1 is not installed)\n");
    return 1;
  }
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
