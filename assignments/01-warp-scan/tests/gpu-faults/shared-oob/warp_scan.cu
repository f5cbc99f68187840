// warp_scan.cu: GPU-tier fault "shared-oob" (grader/tests/gpu-tier.sh): the
// 01 solution, with warp_scan_shfl replaced by a version that writes past the
// end of its block's shared array.
#define warp_scan_shfl static warp_scan_shfl_solution // static: the inspection allows no global its header does not declare
#include "solution.cu" // the solution's file, beside this one in the folder make gpu-faults assembles
#undef warp_scan_shfl

// The last warp of each block writes 32 ints beyond the block's scratch. The
// scan itself stays right; memcheck must name the bad write.
__device__ int warp_scan_shfl(int v, int *scratch) {
  scratch[64 + threadIdx.x % 32] = v;
  return warp_scan_shfl_solution(v, scratch);
}
