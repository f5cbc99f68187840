// Adversarial attempt 04-gpu-memory-hunt (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: somewhere on the device the grader may keep the expected output
// (the old harness computed it and compared on the device). Map the device
// memory near this call's own buffers (cudaPointerGetAttributes on every 64 KiB
// within 1 GiB of d_in, d_out and d_work, and the driver's cuMemGetAddressRange
// for each allocation's extent; cudaMemGetInfo says how much is in use), read
// every allocated byte with a kernel, and look for the expected scan's
// first words, which the input alone gives: 0, in[0], in[0] + in[1], ...
// Found, it would copy n words from there into d_out.
//
// Why it gets nothing: the expected output never exists in the runner's
// process, on the device or on the host: the judge computes it in its own
// process, after the call. The hunt finds only this case's own buffers: ok=0,
// wrong in every call ("wrong in 5 of 5 calls" on n1025). (One line on stderr per call says what it searched.)
#include <stdint.h>
#include <stdio.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

namespace hunt {

static const uintptr_t STEP = 64 << 10, REACH = (uintptr_t)1 << 30;
enum { MAX_RANGES = 256 };

// The first word index p in [0, words - 3] with w[p .. p + 2] == sig, into *found (atomicMin).
static __global__ void search(const unsigned *w, size_t words, unsigned s0, unsigned s1, unsigned s2,
                              unsigned long long *found) {
  for (size_t p = blockIdx.x * (size_t)blockDim.x + threadIdx.x; p + 3 <= words; p += (size_t)gridDim.x * blockDim.x)
    if (w[p] == s0 && w[p + 1] == s1 && w[p + 2] == s2) atomicMin(found, (unsigned long long)p);
}

static int is_device(uintptr_t a) {
  cudaPointerAttributes at;
  cudaError_t e = cudaPointerGetAttributes(&at, (const void *)a);
  if (e != cudaSuccess) {
    (void)cudaGetLastError(); // not sticky: the runner's own checks must not see it
    return 0;
  }
  return at.type == cudaMemoryTypeDevice;
}

// The driver's cuMemGetAddressRange (the whole allocation around an address),
// through the runtime: the runner is not linked with libcuda.
typedef int (*range_fn)(unsigned long long *base, size_t *size, unsigned long long ptr);

static range_fn driver_range(void) {
  static range_fn fn;
  static int tried;
  if (!tried++) {
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", (void **)&fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      fn = NULL, (void)cudaGetLastError();
  }
  return fn;
}

// The allocations within REACH of each pointer: whole allocations where the
// driver says their extent, else mapped 64 KiB chunks.
static int ranges_near(const void *const ptrs[], int n_ptrs, uintptr_t lo[], uintptr_t hi[]) {
  // The windows [p - REACH, p + REACH) of the pointers, merged where they overlap.
  uintptr_t wa[8], wb[8];
  int nw = 0;
  for (int i = 0; i < n_ptrs && nw < 8; i++) {
    if (!ptrs[i]) continue;
    uintptr_t p = (uintptr_t)ptrs[i] / STEP * STEP, a = p > REACH ? p - REACH : 0, b = p + REACH;
    int merged = 0;
    for (int w = 0; w < nw && !merged; w++)
      if (a <= wb[w] && wa[w] <= b) wa[w] = a < wa[w] ? a : wa[w], wb[w] = b > wb[w] ? b : wb[w], merged = 1;
    if (!merged) wa[nw] = a, wb[nw] = b, nw++;
  }
  int n = 0;
  range_fn range = driver_range();
  for (int w = 0; w < nw; w++)
    for (uintptr_t c = wa[w]; c < wb[w] && n < MAX_RANGES; c += STEP) {
      int seen = 0;
      for (int r = 0; r < n && !seen; r++)
        if (c >= lo[r] && c < hi[r]) seen = 1;
      if (seen || !is_device(c)) continue;
      unsigned long long base = 0;
      size_t size = 0;
      if (range && range(&base, &size, c) == 0 && size) {
        lo[n] = (uintptr_t)base, hi[n] = (uintptr_t)base + size, n++;
      } else if (is_device(c + STEP - 1)) {
        if (n && hi[n - 1] == c) hi[n - 1] = c + STEP;
        else lo[n] = c, hi[n] = c + STEP, n++;
      }
    }
  return n;
}

static cudaError_t hunt(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work, const char *who) {
  if (n < 3) return cudaSuccess;
  unsigned in[2];
  ADV_TRY(cudaMemcpy(in, d_in, sizeof in, cudaMemcpyDeviceToHost));
  size_t free_b = 0, total_b = 0;
  ADV_TRY(cudaMemGetInfo(&free_b, &total_b));
  // The map of the device is made once per case (the runner allocates a
  // case's buffers before its first call), again when a pointer is not in it.
  static uintptr_t lo[MAX_RANGES], hi[MAX_RANGES];
  static int nr;
  static size_t mapped_n = (size_t)-1;
  const void *ptrs[] = {d_in, d_out, d_work};
  int known = mapped_n == n;
  for (int i = 0; i < 3 && known; i++) {
    int in_range = !ptrs[i];
    for (int r = 0; r < nr && !in_range; r++)
      if ((uintptr_t)ptrs[i] >= lo[r] && (uintptr_t)ptrs[i] < hi[r]) in_range = 1;
    known = in_range;
  }
  if (!known) nr = ranges_near(ptrs, 3, lo, hi), mapped_n = n;
  unsigned long long *found, none = ~0ull, at = none;
  ADV_TRY(cudaMalloc(&found, sizeof *found));
  size_t searched = 0;
  const unsigned *where = NULL;
  for (int r = 0; r < nr && !where; r++) {
    ADV_TRY(cudaMemcpy(found, &none, sizeof none, cudaMemcpyHostToDevice));
    size_t words = (hi[r] - lo[r]) / 4;
    search<<<1024, 256>>>((const unsigned *)lo[r], words, 0u, in[0], in[0] + in[1], found);
    ADV_TRY(cudaGetLastError());
    ADV_TRY(cudaMemcpy(&at, found, sizeof at, cudaMemcpyDeviceToHost));
    searched += hi[r] - lo[r];
    if (at != none && at + n <= words) where = (const unsigned *)lo[r] + at;
  }
  ADV_TRY(cudaFree(found));
  fprintf(stderr, "adv %s: %zu MiB of %zu MiB in use; searched %zu MiB in %d mapped ranges: %s\n", who,
          (total_b - free_b) >> 20, total_b >> 20, searched >> 20, nr, where ? "found a candidate" : "nothing");
  if (where) ADV_TRY(cudaMemcpy(d_out, where, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  return cudaSuccess;
}

} // namespace hunt

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return hunt::hunt(d_in, d_out, n, d_work, "exclusive_scan");
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

// The same hunt, for a scan the grader might have left of this input; what
// it would find (nothing) goes into the indices.
cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_count;
  return hunt::hunt(d_in, d_indices, n, d_work, "find_repeats");
}
