// probe.cu: the PTX probes of assignment 02, course-owned. Do not edit.
//
// Compiled only to PTX (`nvcc -ptx -arch=compute_75`, build/<src>/02-hillis-
// steele/harness.ptx): text that `make ptx A=02` prints and the ptx checks of
// grade.conf count. Never linked, never run; the timed kernels are in runner.cu.
//
// hs_inclusive and hs_exclusive are the runner's kernels of tasks 1 and 2, the
// same code; your hs_global_step comes with your file. The student's file is
// compiled into this translation unit, included LAST, so that your functions
// are inlined into the kernels (as the ptx checks count them) and nothing your
// file defines (a macro, say) can change the kernels above it.
#include "hillis_steele.h"

enum hx_variant_id { HX_INCLUSIVE, HX_EXCLUSIVE };

// One block per segment, blockDim.x = L rounded up to whole warps, thread t <->
// element t of the segment. Every thread calls the student's function (the
// padding threads with the identity 0), so barriers inside it are reached by
// the whole block. The variant is a compile-time constant in each kernel, so
// each kernel's PTX holds exactly one version.
static __device__ __forceinline__ void hx_scan_segment(int variant, const int *in, int *out, int L) {
  __shared__ int hx_buf[2 * HS_MAX_L];
  const int t = threadIdx.x;
  const size_t i = (size_t)blockIdx.x * L + t;
  int v = t < L ? in[i] : 0;
  int s = variant == HX_EXCLUSIVE ? hs_block_scan_exclusive(v, hx_buf, L) : hs_block_scan_inclusive(v, hx_buf, L);
  if (t < L) out[i] = s;
}

extern "C" __global__ void hs_inclusive(const int *in, int *out, int L) { hx_scan_segment(HX_INCLUSIVE, in, out, L); }
extern "C" __global__ void hs_exclusive(const int *in, int *out, int L) { hx_scan_segment(HX_EXCLUSIVE, in, out, L); }

// The student's file, last.
#include "hillis_steele.cu"
