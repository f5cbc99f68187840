// non_interface.cu: an inspector fixture with a host helper of external linkage that no header declares (it would
// be static in a tidy file): refused, naming it, with the advice to make it static.
__global__ void fx_kernel(unsigned *x, unsigned n) { x[threadIdx.x] = n; }
unsigned fx_blocks(unsigned n) { return (n + 255) / 256; }
cudaError_t fx_run(unsigned *x, unsigned n) {
  fx_kernel<<<fx_blocks(n), 256>>>(x, n);
  return cudaGetLastError();
}
