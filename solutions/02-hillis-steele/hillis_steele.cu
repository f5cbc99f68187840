// hillis_steele.cu: the reference Hillis-Steele scans (assignment 02). Same
// names and signatures as starter/02-hillis-steele/hillis_steele.cu, so diffing
// the two files shows the answers. Each version's comment gives its
// thread-to-data mapping and its cost for one segment of L elements, with
// S = ceil(log2 L) steps.

#include "hillis_steele.h"

// ---------------------------------------------------------------- tasks 1 and 2

// The steps both shared-memory scans share. On entry src holds the block's
// values (slots 0..blockDim.x-1) and a barrier has made them visible; on return
// the returned pointer's slot t holds the inclusive scan of slots 0..t (for
// t < L). Step k (k = 1, 2, 4, ... < L) reads only src and writes only dst:
//   dst[t] = src[t] + src[t - k]   (t >= k)      dst[t] = src[t]   (t < k)
// Thread t writes only slot t; the padding threads (t >= L) step too, on their
// zeros, which keeps every slot the last read touches initialized. Lanes of a
// warp read 32 consecutive words (src[t] and src[t - k]): 32 different banks,
// no bank conflict, for every k.
//
// One barrier per step is enough because of the two buffers:
//  - read after write: step k + 1 reads what step k wrote; the barrier at the
//    end of step k orders every write of step k before any read of step k + 1.
//  - write after read: step k + 1 writes the buffer that step k read (the roles
//    swap); the same barrier orders every read of step k before those writes.
// With one buffer the second kind is not covered: in the same step, thread t
// would read slot t - k while thread t - k overwrites it (the starter's bug).
static __device__ __forceinline__ int *hs_steps(int *src, int *dst, int L) {
  const int t = threadIdx.x;
  for (int k = 1; k < L; k *= 2) {
    dst[t] = t >= k ? src[t] + src[t - k] : src[t];
    __syncthreads(); // this step's writes to dst and reads of src, before the next step's reads of dst and writes of src
    int *was_src = src; // swap the roles: the next step reads what this one wrote
    src = dst;
    dst = was_src;
  }
  return src;
}

// Version 1: inclusive, two shared buffers (ping-pong), one barrier per step.
// Mapping: thread t <-> element t of the block's segment.
// Cost per segment: S steps; additions sum over steps of (L - k), which is
// L log2 L - L + 1 when L is a power of two (9217 for L = 1024, against the
// L - 1 = 1023 of a sequential scan); S + 1 barriers; per thread 2S shared
// loads and S + 1 shared stores; L ints read from and L written to global
// memory by the runner kernel.
__device__ int hs_block_scan_inclusive(int v, int *buf, int L) {
  const int t = threadIdx.x;
  int *src = buf, *dst = buf + HS_MAX_L;
  src[t] = v;
  __syncthreads(); // every value is in src before any thread reads a neighbour's slot
  return hs_steps(src, dst, L)[t];
}

// Version 2: exclusive. The values go in shifted right by one slot, with the
// identity 0 in slot 0, and the inclusive steps run on that: slot t ends with
// 0 + v_0 + ... + v_{t-1}. (Subtracting v from the inclusive result would also
// work for + on ints, but not for an operator without an inverse, such as max,
// nor exactly for floats.)
// Mapping: thread t writes element t into slot t + 1 and returns slot t.
// Cost: as version 1 (S steps, S + 1 barriers).
__device__ int hs_block_scan_exclusive(int v, int *buf, int L) {
  const int t = threadIdx.x;
  int *src = buf, *dst = buf + HS_MAX_L;
  if (t + 1 < (int)blockDim.x) src[t + 1] = v; // the last thread's value is in no exclusive result
  if (t == 0) src[0] = 0;
  __syncthreads(); // every shifted value is in src before any thread reads it
  return hs_steps(src, dst, L)[t];
}

// ---------------------------------------------------------------- task 3

enum { GLOBAL_BLOCK = 256 };

// One step of the global-memory scan over the whole batch.
// Mapping: one thread per element, i = blockIdx.x * 256 + threadIdx.x over the
// flat array; p = i % L is its position in its segment. Nothing is shared
// between threads, so no shared memory and no barrier: the kernel boundary is
// the barrier between steps (a launch starts after the previous one on the same
// stream has finished, and sees all its writes).
// Cost per step: n additions at most (those with p >= k), n ints read + about n
// more for src[i - k] (mostly the same cache lines, hit in L1/L2), n ints written.
extern "C" __global__ void hs_global_step(const int *src, int *dst, size_t n, int L, int k) {
  const size_t i = (size_t)blockIdx.x * GLOBAL_BLOCK + threadIdx.x;
  if (i >= n) return;
  // 32-bit remainder: n < 2^31 (the header's contract), and it costs a fraction
  // of a 64-bit one.
  const int p = (int)((unsigned)i % (unsigned)L);
  int v = src[i];
  if (p >= k) v += src[i - k];
  dst[i] = v;
}

// Version 3: S = ceil(log2 L) launches of hs_global_step. Step 0 reads d_in,
// which is never written; then the steps alternate between d_tmp and d_out,
// starting with the one that makes the last step land in d_out: d_out first
// when S is odd, d_tmp first when S is even. L = 1 needs no step: a copy.
// Cost: S launches, each moving about 8n bytes (12n counting the shifted read),
// against 8n for the whole scan in shared memory: about S times the traffic
// (10x for L = 1024), plus a few microseconds of launch gap per step.
cudaError_t hs_scan_global(const int *d_in, int *d_out, int *d_tmp, size_t n, int L) {
  if (n == 0) return cudaSuccess;
  int steps = 0;
  for (int k = 1; k < L; k *= 2) steps++;
  if (steps == 0) return cudaMemcpyAsync(d_out, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice);
  const unsigned blocks = (unsigned)((n + GLOBAL_BLOCK - 1) / GLOBAL_BLOCK);
  const int *src = d_in;
  int *dst = steps % 2 ? d_out : d_tmp;
  for (int k = 1; k < L; k *= 2) {
    hs_global_step<<<blocks, GLOBAL_BLOCK>>>(src, dst, n, L, k);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return err;
    src = dst; // the next step reads what this one wrote
    dst = dst == d_out ? d_tmp : d_out;
  }
  return cudaSuccess;
}
