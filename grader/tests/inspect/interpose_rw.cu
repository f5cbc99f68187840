// interpose_rw.cu: an inspector fixture that takes over the runner's protocol as a student might: it defines read()
// and write(), which the runner's own messages go through, to drop the runner's DONE and send its own when it
// likes. Linked ahead of the C library, they would be what the runner calls: refused, naming read.
#include <unistd.h>
static int fx_done_sent;
extern "C" ssize_t read(int fd, void *buf, size_t n) {
  (void)fd, (void)buf;
  return (ssize_t)n;
}
extern "C" ssize_t write(int fd, const void *buf, size_t n) {
  (void)fd, (void)buf;
  fx_done_sent = 1;
  return (ssize_t)n;
}
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
cudaError_t fx_run(unsigned *x) {
  fx_kernel<<<1, 32>>>(x);
  return cudaGetLastError();
}
