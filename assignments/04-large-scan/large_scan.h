// large_scan.h: what you write in large_scan.cu (assignment 04). Do not edit.
//
// Every function runs on the default stream, checks every launch, and returns
// the first CUDA error it meets (cudaSuccess when there is none); none of them
// exits, prints, or synchronizes with the host. Device pointers are 16-byte
// aligned (any cudaMalloc pointer is); `n` is at most LARGE_SCAN_MAX_N.
//
// The workspace (CUB's two-phase shape): the caller asks how many bytes a
// given n needs, allocates them once, and passes them to every call with that
// n or a smaller one. Its bytes all hold one value before the first call (the
// runner fills it with 0xA5; cudaMemset to any byte value will do), and only
// the one function it was given to touches it afterwards: anything that must be
// reset between calls is the function's own, timed, work. Give each entry point
// its own workspace.
#ifndef LARGE_SCAN_H
#define LARGE_SCAN_H

#include <cuda_runtime.h>
#include <stddef.h>

#define LARGE_SCAN_MAX_N ((size_t)1 << 28)

// The starter's tile: the elements one block of starter/04-large-scan scans.
// The runner's cases tiles2 (2 tiles) and tiles2+1 (one element more) sit on
// either side of where the starter goes wrong; the GPU test tier runs them.
enum { STARTER_TILE = 1024 };

// ---------------------------------------------------------------- the scan

// Bytes of workspace that n elements need, for any of the four scans below.
size_t exclusive_scan_workspace(size_t n);

// d_out[i] = d_in[0] + ... + d_in[i - 1] (mod 2^32), d_out[0] = 0, for i < n.
// d_out may equal d_in (in place). Graded (variant decoupled_lookback): the
// single-pass chained scan with decoupled look-back.
cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work);

// The same result by the other strategies of the handout (variants
// hierarchical, lookback_acqrel, reduce_then_scan). `make bench` times them.
cudaError_t exclusive_scan_hierarchical(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work);
cudaError_t exclusive_scan_lookback_acqrel(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work);
cudaError_t exclusive_scan_reduce_then_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work);

// ---------------------------------------------------------------- find_repeats

size_t find_repeats_workspace(size_t n);

// Writes every i < n - 1 with d_in[i] == d_in[i + 1] to d_indices, in
// increasing order, and their number to *d_count (on the device). d_indices
// has room for n elements; nothing past the count is compared.
cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work);

#endif
