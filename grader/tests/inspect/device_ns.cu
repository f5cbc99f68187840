// device_ns.cu: an inspector fixture whose only cub:: is a device template instantiated in a kernel: no header, no host symbol.
namespace cub {
template <typename T> __device__ __noinline__ T fx_twice(T x) { return 2 * x; }
}
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = cub::fx_twice(x[threadIdx.x]); }
