// cub_direct.cu: an inspector fixture that includes CUB and calls DeviceScan: refused for the header.
#include <cub/cub.cuh>
cudaError_t fx_scan(void *temp, size_t &bytes, const unsigned *in, unsigned *out, int n) {
  return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
}
