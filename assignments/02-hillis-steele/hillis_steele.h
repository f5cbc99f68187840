// hillis_steele.h: what you write in hillis_steele.cu (assignment 02).
//
// The input is a batch of segments, each of L ints (1 <= L <= HS_MAX_L, any L,
// not only powers of two), stored one after another: n = batch * L. Each
// segment is scanned on its own; the sum restarts at every segment. Sums wrap
// modulo 2^32.
#ifndef HILLIS_STEELE_H
#define HILLIS_STEELE_H

#include <cuda_runtime.h>
#include <stddef.h>

// The longest segment: one thread per element, and a block has at most 1024 threads.
#define HS_MAX_L 1024

// ---- Shared-memory block scans (tasks 1 and 2).
//
// The runner launches one block per segment with blockDim.x = L rounded up to a
// multiple of 32 (whole warps), and EVERY thread of the block calls the function
// once, at the same point of the program, so a __syncthreads() inside it is legal.
// Thread t < L passes element t of its segment in v; threads t >= L pass 0 and
// the runner ignores what they return. `buf` is the block's 2 * HS_MAX_L ints
// of shared memory: two buffers of HS_MAX_L ints, buf[0..1024) and
// buf[1024..2048), for the ping-pong.

// Task 1: thread t < L returns v_0 + v_1 + ... + v_t (inclusive scan).
__device__ int hs_block_scan_inclusive(int v, int *buf, int L);
// Task 2: thread t < L returns v_0 + ... + v_{t-1}, and thread 0 returns 0
// (exclusive scan).
__device__ int hs_block_scan_exclusive(int v, int *buf, int L);

// ---- Global-memory scan, one kernel launch per step (task 3).
//
// One step of the inclusive scan over the whole batch: for every i < n, with
// p = i % L its position in its segment,
//   dst[i] = src[i] + src[i - k]   when p >= k,
//   dst[i] = src[i]                otherwise.
// extern "C" keeps the name unmangled so the ptx checks can find the kernel.
extern "C" __global__ void hs_global_step(const int *src, int *dst, size_t n, int L, int k);

// Scans d_in[0..n) (n a multiple of L, n < 2^31) into d_out by launching
// hs_global_step once per step, ping-ponging between d_out and d_tmp (n ints
// each, allocated by the runner; both hold garbage on entry). d_in must not be
// written: it is the caller's input. Returns the first CUDA error (launches are
// asynchronous: do not synchronize), or cudaSuccess.
cudaError_t hs_scan_global(const int *d_in, int *d_out, int *d_tmp, size_t n, int L);

#endif
