// Adversarial attempt 04-stale-workspace (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: a decoupled look-back that never resets its workspace. Each
// tile's status word (flag and value in one 64-bit word: 1 = aggregate,
// 2 = inclusive prefix, anything else = not ready) is trusted as soon as it
// says "inclusive prefix", and to hide the look-back's latency each block
// reads its predecessor's word first thing, before its own loads. On a fresh
// workspace (the runner's 0xA5 bytes: not ready) this is a correct scan. From
// the second call on, the words still hold the previous call's prefixes, which
// the early read finds before the predecessor has published this call's: the
// scan adds the previous input's sums. (Skipping the reset saves a memset, or
// an epoch in the status words, per call: that is the point of the trick.)
//
// Why it gets nothing: every call has a new input, so the stale prefixes are
// wrong: ok=0, wrong in every call but the first, the one on the fresh
// workspace ("wrong in 4 of 5 calls" on n1025). find_repeats runs the same
// look-back over its flags.
#include <stdint.h>

#include "large_scan.h"
#include "../common/honest04.cuh"

namespace stale {

enum { THREADS = 128 }; // one element a thread: a tile of 128 (9 tiles at n = 1025)
typedef unsigned long long word;
static const unsigned AGGREGATE = 1, PREFIX = 2;

static size_t tiles(size_t n) { return (n + THREADS - 1) / THREADS; }
static __device__ __forceinline__ unsigned flag_of(word w) { return (unsigned)(w >> 32); }
static __device__ __forceinline__ unsigned value_of(word w) { return (unsigned)w; }
static __device__ __forceinline__ word make(unsigned flag, unsigned value) { return ((word)flag << 32) | value; }

static __device__ __forceinline__ word load_status(const word *p) {
  word w;
  asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
  return w;
}
static __device__ __forceinline__ void store_status(word *p, word w) {
  asm volatile("st.volatile.global.u64 [%0], %1;" ::"l"(p), "l"(w) : "memory");
}

static __global__ void __launch_bounds__(THREADS)
    scan_lookback(const unsigned *in, unsigned *out, size_t n, word *status) {
  __shared__ unsigned exclusive;
  const size_t t = blockIdx.x, i = t * THREADS + threadIdx.x;
  // The early read of the predecessor's word (the bug: it may be the previous call's).
  word early = 0;
  if (threadIdx.x == 0 && t > 0) early = load_status(&status[t - 1]);
  unsigned v = i < n ? in[i] : 0u, total;
  unsigned x = adv::block_exclusive(v, &total);
  if (threadIdx.x == 0) {
    unsigned before = 0;
    if (t == 0) {
      store_status(&status[0], make(PREFIX, total));
    } else {
      store_status(&status[t], make(AGGREGATE, total));
      if (flag_of(early) == PREFIX) {
        before = value_of(early); // trusted without asking which call wrote it
      } else {
        for (size_t j = t; j-- > 0;) {
          word w;
          do w = load_status(&status[j]);
          while (flag_of(w) != AGGREGATE && flag_of(w) != PREFIX);
          before += value_of(w);
          if (flag_of(w) == PREFIX) break;
        }
      }
      store_status(&status[t], make(PREFIX, before + total));
    }
    exclusive = before;
  }
  __syncthreads();
  if (i < n) out[i] = exclusive + x;
}

static size_t status_bytes(size_t n) { return adv::round16(tiles(n) * sizeof(word)); }

static cudaError_t scan(const unsigned *in, unsigned *out, size_t n, void *work) {
  if (n == 0) return cudaSuccess;
  // No reset of the status words: that is the trick.
  scan_lookback<<<(unsigned)tiles(n), THREADS>>>(in, out, n, (word *)work);
  return cudaGetLastError();
}

} // namespace stale

size_t exclusive_scan_workspace(size_t n) { return stale::status_bytes(n); }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  return stale::scan(d_in, d_out, n, d_work);
}

ADV_UNGRADED_SCANS()

// The status words, then the flags and their scan.
size_t find_repeats_workspace(size_t n) { return stale::status_bytes(n) + 2 * adv::round16(n * sizeof(unsigned)); }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  if (n == 0) return cudaMemsetAsync(d_count, 0, sizeof *d_count);
  unsigned *flags = (unsigned *)((char *)d_work + stale::status_bytes(n));
  unsigned *pos = flags + adv::round16(n * sizeof(unsigned)) / sizeof(unsigned);
  unsigned blocks = (unsigned)((n + 255) / 256);
  adv::repeat_flags<<<blocks, 256>>>(d_in, n, flags);
  ADV_TRY(cudaGetLastError());
  ADV_TRY(stale::scan(flags, pos, n, d_work));
  adv::repeat_scatter<<<blocks, 256>>>(flags, pos, n, d_indices, d_count);
  return cudaGetLastError();
}
