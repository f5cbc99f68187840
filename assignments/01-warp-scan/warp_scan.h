// warp_scan.h: the functions you write in warp_scan.cu (assignment 01).
//
// Each is called by all 32 lanes of one warp at the same point of the program.
// Lane i passes its value v and gets back the inclusive scan v_0 + ... + v_i of
// its warp's 32 values. `scratch` is this warp's own 64 ints of shared memory;
// the versions that do not need it may ignore it. Sums wrap modulo 2^32.
#ifndef WARP_SCAN_H
#define WARP_SCAN_H

// Version 1 (task 1): the classic scratch scan, data[32 + lane] += data[32 + lane - k].
__device__ int warp_scan_scratch(int v, int *scratch);
// Version 2 (task 2): the same scratch scan with the sum kept in a register.
__device__ int warp_scan_scratch_register(int v, int *scratch);
// Version 3 (task 3): the scratch scan made correct under independent thread scheduling.
__device__ int warp_scan_syncwarp(int v, int *scratch);
// Version 4 (task 3): no shared memory at all, lanes exchange values by shuffles.
__device__ int warp_scan_shfl(int v, int *scratch);

#endif
