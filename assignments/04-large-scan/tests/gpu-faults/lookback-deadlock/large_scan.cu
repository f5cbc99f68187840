// large_scan.cu: GPU-tier fault "lookback-deadlock" (grader/tests/gpu-tier.sh):
// the 04 solution, with exclusive_scan replaced by a look-back whose tile comes
// from blockIdx.x, in reverse, instead of from the ticket.
#define exclusive_scan static exclusive_scan_solution // static: the inspection allows no global its header does not declare
#include "solution.cu" // the solution's file, beside this one in the folder make gpu-faults assembles
#undef exclusive_scan

// Block b scans tile tiles - 1 - b, and looks back over every tile before it
// (the solution's ls_gap_part from tile 0: each thread waits for the sums of
// its share of them). The GPU starts blocks roughly in blockIdx order, so the
// blocks that start first own the last tiles and wait for tiles whose blocks
// cannot start until a running block ends. With more tiles than fit on the
// GPU at once (2^24 elements: 1366 tiles of 12288; an H100 holds a few hundred
// such blocks) it never ends, and the grader must kill it at the time limit
// and go on; with few tiles (n65535: 6) every block is resident and the scan
// is right.
static __global__ void LS_BOUNDS fault_reverse_tiles(const unsigned *in, unsigned *out, size_t n, unsigned tiles,
                                                     void *work) {
  uint4 *s_vec = ls_dynamic; // LS_SMEM_TILE bytes, as the solution's one-tile kernels
  __shared__ unsigned s_warp[LS_WARPS];
  __shared__ ls_tickets s_tickets;
  if (threadIdx.x == 0) ls_first_ticket((ls_header *)work, tiles, &s_tickets); // for the epoch; the tile is ignored
  __syncthreads(); // the epoch is in shared memory before anyone reads it
  unsigned tile = tiles - 1 - blockIdx.x, *slots = (unsigned *)((ls_header *)work + 1);
  size_t base = (size_t)tile * LS_TILE;
  int valid = ls_valid(n, base);
  uint4 v[LS_VECS];
  ls_load_tile(in, base, valid, s_vec, v);
  unsigned aggregate, before = ls_block_exclusive(ls_thread_total(v), s_warp, &aggregate);
  if (threadIdx.x == 0) ls_publish_aggregate(LS_PACKED, slots, tile, s_tickets.epoch, aggregate);
  unsigned part = ls_gap_part(LS_PACKED, slots, 0, tile, s_tickets.epoch), prefix;
  __syncthreads(); // every thread has read the warp totals before s_warp is used again
  ls_block_exclusive(part, s_warp, &prefix);
  ls_thread_exclusive(v, prefix + before);
  ls_store_tile(out, base, valid, s_vec, v);
}

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  if (n == 0) return cudaSuccess;
  unsigned tiles = (unsigned)ls_tiles(n);
  LS_TRY(ls_allow_smem((const void *)fault_reverse_tiles, LS_SMEM_TILE));
  fault_reverse_tiles<<<tiles, LS_THREADS, LS_SMEM_TILE>>>(d_in, d_out, n, tiles, d_work);
  return cudaGetLastError();
}
