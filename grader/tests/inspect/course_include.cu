// course_include.cu: an inspector fixture that includes the course's CPU scan by a relative path (the build's include
// path leaves grader/lib out, so this is the way to it), which would get around the runner's link that leaves the
// reference out: refused, with the course file named.
#include "../../lib/scan_cpu.c"
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
void fx_run(unsigned *x) { fx_kernel<<<1, 32>>>(x); }
