// cub_macro.cu: an inspector fixture that hides its CUB include behind a macro, which a text rule misses.
#define LIB <cub/device/device_scan.cuh>
#include LIB
#define NS cu##b
cudaError_t fx_scan(void *temp, size_t &bytes, const unsigned *in, unsigned *out, int n) {
  return NS::DeviceScan::InclusiveSum(temp, bytes, in, out, n);
}
