// warp_scan.cu: your warp scans (assignment 01). The handout is
// assignments/01-warp-scan/README.md; the declarations are in warp_scan.h.
//
// Every function is called by all 32 lanes of a warp together. `scratch` is the
// warp's own 64 ints of shared memory: scratch[0..31] hold zeros so that
// scratch[32 + lane - k] never leaves the buffer, scratch[32..63] the values.

#include "warp_scan.h"

// Version 1: the classic scratch scan. It gives wrong answers: find out why from
// the PTX (`make ptx A=01`) and fix it.
// TODO(student): task 1, make this correct (a one-word change, then explain it).
__device__ int warp_scan_scratch(int v, int *scratch) {
  int lane = threadIdx.x % 32;
  int *data = scratch + 32 + lane;
  data[-32] = 0; // the lane's zero slot, scratch[lane]
  data[0] = v;
  data[0] += data[-1];
  data[0] += data[-2];
  data[0] += data[-4];
  data[0] += data[-8];
  data[0] += data[-16];
  return data[0];
}

// Version 2: the same scan in at most 11 shared-memory instructions.
// TODO(student): task 2, keep the running sum in a register (about 10 lines).
__device__ int warp_scan_scratch_register(int v, int *scratch) {
  return warp_scan_scratch(v, scratch); // placeholder so the runner runs
}

// Version 3: correct without relying on lanes running in lockstep.
// TODO(student): task 3, order the scratch accesses with __syncwarp() (about 12 lines).
__device__ int warp_scan_syncwarp(int v, int *scratch) {
  return warp_scan_scratch(v, scratch); // placeholder so the runner runs
}

// Version 4: no shared memory; `scratch` is unused.
// TODO(student): task 3, use __shfl_up_sync (about 6 lines).
__device__ int warp_scan_shfl(int v, int *scratch) {
  return warp_scan_scratch(v, scratch); // placeholder so the runner runs
}
