// warp_scan.cu: GPU-tier fault "kernel-hang" (grader/tests/gpu-tier.sh): the
// 01 solution, with warp_scan_shfl replaced by a version that never ends.
#define warp_scan_shfl static warp_scan_shfl_solution // static: the inspection allows no global its header does not declare
#include "solution.cu" // the solution's file, beside this one in the folder make gpu-faults assembles
#undef warp_scan_shfl

// Waits for a flag that no thread ever sets, so the kernel never ends; the
// grader must kill it at the wall-clock limit and grade the other checks.
__device__ int warp_scan_shfl(int v, int *scratch) {
  volatile int *flag = scratch;
  flag[threadIdx.x % 32] = 0;
  while (flag[threadIdx.x % 32] != 12345) {
  }
  return warp_scan_shfl_solution(v, scratch);
}
