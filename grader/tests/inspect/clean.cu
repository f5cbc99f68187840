// clean.cu: an inspector fixture a student might write (a kernel and its host entry point): accepted.
__global__ void fx_add_one(unsigned *x, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}
cudaError_t fx_run(unsigned *x, unsigned n) {
  fx_add_one<<<(n + 255) / 256, 256>>>(x, n);
  return cudaGetLastError();
}
