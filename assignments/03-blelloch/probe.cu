// probe.cu: the PTX of assignment 03's kernels, course-owned. Do not edit.
//
// Compiled only to PTX (`nvcc -ptx -arch=compute_75`, build/<src>/03-blelloch/
// harness.ptx): the text `make ptx A=03` prints. Never linked, never run; the
// timed kernels are in runner.cu, which calls your functions in their own
// object. Here the student's file is compiled into this translation unit,
// included LAST, so that your functions are inlined into the three kernels (as
// they were before the runner and your file were split) and nothing your file
// defines (a macro, say) can change the kernels above it.
#include "blelloch.h"

static __device__ __forceinline__ int hx_segment_length(size_t n, size_t seg, int seg_len) {
  size_t base = seg * (size_t)seg_len;
  return n - base < (size_t)seg_len ? (int)(n - base) : seg_len; // the last segment may be short
}

// runner.cu's loop over segments (see there). `layout` is a compile-time
// constant in each kernel, so each kernel holds exactly one index function.
static __device__ __forceinline__ void hx_scan_segments(int layout, const int *in, int *out, size_t n, int seg_len,
                                                     int tree) {
  __shared__ unsigned storage[1 + SMEM_WORDS];
  unsigned *temp = storage + 1;
  int t = threadIdx.x;
  int e0 = moved_element(t, 0, tree), e1 = moved_element(t, 1, tree); // the same in every segment
  size_t segments = (n + (size_t)seg_len - 1) / (size_t)seg_len;
  size_t seg = blockIdx.x;
  unsigned v0 = 0, v1 = 0; // this thread's two values of segment `seg`, read ahead
  if (seg < segments) {
    const int *first = in + seg * (size_t)seg_len;
    v0 = read_element(first, hx_segment_length(n, seg, seg_len), e0);
    v1 = read_element(first, hx_segment_length(n, seg, seg_len), e1);
  }
  for (; seg < segments; seg += gridDim.x) {
    int len = hx_segment_length(n, seg, seg_len);
    __syncthreads(); // the previous segment's store has read temp before it is overwritten
    put_element(layout, temp, e0, v0);
    put_element(layout, temp, e1, v1);
    size_t next = seg + gridDim.x;
    if (next < segments) { // in flight during the sweeps; used in the next iteration
      const int *ahead = in + next * (size_t)seg_len;
      v0 = read_element(ahead, hx_segment_length(n, next, seg_len), e0);
      v1 = read_element(ahead, hx_segment_length(n, next, seg_len), e1);
    }
    if (tree == TILE) blelloch_scan_tree(layout, temp, TILE); // a constant here: inlined, your loops may unroll
    else blelloch_scan_tree(layout, temp, tree);
    int *dst = out + seg * (size_t)seg_len;
    store_element(layout, temp, dst, len, e0);
    store_element(layout, temp, dst, len, e1);
  }
}

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900)
#define HX_SCAN_BOUNDS __launch_bounds__(THREADS, 2)
#else
#define HX_SCAN_BOUNDS __launch_bounds__(THREADS)
#endif

extern "C" __global__ void HX_SCAN_BOUNDS blelloch_padded(const int *in, int *out, size_t n, int seg_len, int tree) {
  hx_scan_segments(LAYOUT_STUDENT, in, out, n, seg_len, tree);
}
extern "C" __global__ void HX_SCAN_BOUNDS blelloch_unpadded(const int *in, int *out, size_t n, int seg_len, int tree) {
  hx_scan_segments(LAYOUT_NONE, in, out, n, seg_len, tree);
}
extern "C" __global__ void HX_SCAN_BOUNDS blelloch_gems16(const int *in, int *out, size_t n, int seg_len, int tree) {
  hx_scan_segments(LAYOUT_GEMS16, in, out, n, seg_len, tree);
}

// The student's file, last.
#include "blelloch.cu"
