// probe.cu: the PTX probes of assignment 01, course-owned. Do not edit.
//
// Compiled only to PTX (`nvcc -ptx -arch=compute_75`, build/<src>/01-warp-scan/
// harness.ptx): text that `make ptx A=01` prints and the ptx checks of
// grade.conf count. Never linked, never run; the timed kernels are in runner.cu.
//
// Each probe is one warp scan per thread and nothing else, so each one's PTX is
// exactly one call of the student's function, inlined: the student's file is
// compiled into this translation unit, included LAST, so that nothing it
// defines (a macro, say) can change the kernels above it.
#include "warp_scan.h"

enum { HX_BLOCK = 256, HX_WARPS_PER_BLOCK = HX_BLOCK / 32 };

enum hx_variant_id { HX_SCRATCH, HX_SCRATCH_REGISTER, HX_SYNCWARP, HX_SHFL };

// The variant is a compile-time constant in each kernel, so the switch folds
// away and each kernel's PTX holds exactly one version.
static __device__ __forceinline__ int hx_scan_one(int variant, int v, int *scratch) {
  switch (variant) {
  case HX_SCRATCH: return warp_scan_scratch(v, scratch);
  case HX_SCRATCH_REGISTER: return warp_scan_scratch_register(v, scratch);
  case HX_SYNCWARP: return warp_scan_syncwarp(v, scratch);
  default: return warp_scan_shfl(v, scratch);
  }
}

// One warp scan per thread, in a warp's own 64 ints of shared scratch (the
// timed kernels of runner.cu call the same function four times a thread).
static __device__ __forceinline__ void hx_probe(int variant, const int *in, int *out) {
  __shared__ int hx_scratch[HX_WARPS_PER_BLOCK * 64];
  out[threadIdx.x] = hx_scan_one(variant, in[threadIdx.x], hx_scratch + (threadIdx.x / 32) * 64);
}
extern "C" __global__ void scan_scratch(const int *in, int *out) { hx_probe(HX_SCRATCH, in, out); }
extern "C" __global__ void scan_scratch_register(const int *in, int *out) { hx_probe(HX_SCRATCH_REGISTER, in, out); }
extern "C" __global__ void scan_syncwarp(const int *in, int *out) { hx_probe(HX_SYNCWARP, in, out); }
extern "C" __global__ void scan_shfl(const int *in, int *out) { hx_probe(HX_SHFL, in, out); }

// The student's file, last.
#include "warp_scan.cu"
