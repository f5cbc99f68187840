// kernel_only.cu: an inspector fixture with one kernel and nothing else of external linkage, so that it is accepted
// with any assignment's headers: the object of the tests that write a depfile by hand (their FOLDERs are 04's).
__global__ void fx_fill(unsigned *x, unsigned v) { x[blockIdx.x * blockDim.x + threadIdx.x] = v; }
