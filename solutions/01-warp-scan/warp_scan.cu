// warp_scan.cu: the reference warp scans (assignment 01). Same names and
// signatures as starter/01-warp-scan/warp_scan.cu, so diffing the two files
// shows the answers. Each version's comment gives its cost per warp.

#include "warp_scan.h"

// Version 1: the scratch scan through volatile pointers.
// `volatile` makes every data[...] in the source one real shared-memory access,
// in program order: the compiler may no longer keep data[0] in a register or
// load a neighbour's slot once and reuse it, which is what broke the starter.
// 5 steps, 18 shared loads/stores in PTX. Correct only while the warp's lanes
// execute each statement together, which no GPU since Volta promises (task 3).
__device__ int warp_scan_scratch(int v, int *scratch) {
  int lane = threadIdx.x % 32;
  volatile int *data = scratch + 32 + lane;
  data[-32] = 0;
  data[0] = v;
  data[0] += data[-1];
  data[0] += data[-2];
  data[0] += data[-4];
  data[0] += data[-8];
  data[0] += data[-16];
  return data[0];
}

// Version 2: the running sum stays in a register, so each step is one load of
// the neighbour and one store of the new sum; the last store is not needed.
// 11 shared loads/stores instead of 18. Still relies on lockstep (task 3).
__device__ int warp_scan_scratch_register(int v, int *scratch) {
  int lane = threadIdx.x % 32;
  volatile int *data = scratch + 32 + lane;
  data[-32] = 0;
  int sum = v;
  data[0] = sum;
  sum += data[-1];
  data[0] = sum;
  sum += data[-2];
  data[0] = sum;
  sum += data[-4];
  data[0] = sum;
  sum += data[-8];
  data[0] = sum;
  sum += data[-16];
  return sum;
}

// Version 3: correct under independent thread scheduling. Each __syncwarp()
// is a barrier and a memory fence for the warp's lanes: the first orders every
// lane's read of step k before any lane's write of step k (no write-after-read
// race), the second orders the writes before the reads of step k + 1
// (read-after-write). With these barriers `volatile` is no longer needed.
__device__ int warp_scan_syncwarp(int v, int *scratch) {
  int lane = threadIdx.x % 32;
  int *data = scratch + 32 + lane;
  data[-32] = 0;
  data[0] = v;
  __syncwarp(); // the zeros and values are written before anyone reads them
  int sum = v;
#pragma unroll
  for (int k = 1; k < 32; k *= 2) {
    sum += data[-k];
    __syncwarp(); // all reads of this step happen before any write
    data[0] = sum;
    __syncwarp(); // all writes of this step happen before the next reads
  }
  return sum;
}

// Version 4: lanes read each other's registers. __shfl_up_sync(mask, x, k)
// returns lane (lane - k)'s x, and the mask names the lanes that take part, so
// the exchange is synchronized by definition. Lanes below k get their own x
// back and must not add it. 5 shfl.sync.up, no shared memory, no barriers.
__device__ int warp_scan_shfl(int v, int *scratch) {
  (void)scratch;
  int lane = threadIdx.x % 32;
#pragma unroll
  for (int k = 1; k < 32; k *= 2) {
    int up = __shfl_up_sync(0xffffffffu, v, k);
    if (lane >= k) v += up;
  }
  return v;
}
