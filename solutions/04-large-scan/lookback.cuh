// lookback.cuh (solution, assignment 04): the tile status of the single-pass
// scans, the memory accesses that publish and read it, and the look-back. Part
// of large_scan.cu (included once, at its top).
#ifndef LS_LOOKBACK_CUH
#define LS_LOOKBACK_CUH

#define LS_FULL_MASK 0xffffffffu
#ifndef LS_CFG_RELAXED_TICKET
#define LS_CFG_RELAXED_TICKET 0 // 1: the ticket without acquire and release (an experiment; see ls_take_ticket)
#endif
#ifndef LS_CFG_BACKOFF_NS
#define LS_CFG_BACKOFF_NS 0 // a pause between polls of a window that is not ready (0: none)
#endif

static __device__ __forceinline__ unsigned ls_warp_sum(unsigned x) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) x += __shfl_xor_sync(LS_FULL_MASK, x, d);
  return x;
}

// What a tile has published in its status word during the current call.
enum ls_tile_status {
  LS_NOT_READY = 0, // nothing yet: also what any word left by an earlier call reads as (its epoch differs)
  LS_AGGREGATE = 1, // value is the tile's own sum; its predecessors are not added in yet
  LS_PREFIX = 2,    // value is the inclusive prefix: the sum of this tile and of every tile before it
};

// A status slot starts with a 32-bit tag (epoch << 2 | status). The packed
// version's slot is 8 bytes: the tag and the value after it, read and written as
// one 64-bit word. The acq_rel version's slot is 16 bytes: the tag, the
// aggregate, the inclusive prefix and an unused word. Its aggregate and prefix
// need words of their own: were the prefix stored over the aggregate, a reader
// that had acquired AGGREGATE could load the prefix that replaced it, and add
// the earlier tiles twice (the first version of this file did, and the H100
// showed it on 12 of the 22 cases). A word is only believed when its epoch is
// this call's, so nothing clears the array between calls: each call writes
// every slot it reads. The epoch is 30 bits wide, so a slot left unwritten for
// 2^30 calls could be mistaken for a current one.
//
// The workspace starts with this header. Between calls, ticket == start (the
// next call's first ticket) and epoch is the last call's. A uniform byte fill
// keeps ticket == start, and for no byte value does a filled slot's tag carry
// the next epoch (checked for all 256 values).
typedef struct ls_header {
  unsigned ticket;          // incremented once per tile, never reset (wraps: differences stay right)
  unsigned pad;
  unsigned long long start; // low 32 bits: the first ticket of the next call; high 32: the last call's epoch
} ls_header;

static __device__ __forceinline__ unsigned ls_tag(unsigned epoch, unsigned status) { return (epoch << 2) | status; }
static __device__ __forceinline__ unsigned ls_status_of(unsigned tag, unsigned epoch) {
  return (tag >> 2) == (epoch & 0x3fffffffu) ? (tag & 3u) : LS_NOT_READY;
}

// Strong (relaxed, gpu-scope) accesses: each is a single access that the
// compiler may not merge, hoist out of a spin loop or tear, and that other
// blocks see; they order nothing else by themselves.
static __device__ __forceinline__ unsigned long long ls_ld_relaxed64(const void *p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
static __device__ __forceinline__ void ls_st_relaxed64(void *p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
static __device__ __forceinline__ unsigned ls_ld_relaxed32(const void *p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
static __device__ __forceinline__ void ls_st_relaxed32(void *p, unsigned v) {
  asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
static __device__ __forceinline__ unsigned ls_ld_acquire32(const void *p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
static __device__ __forceinline__ void ls_st_release32(void *p, unsigned v) {
  asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
static __device__ __forceinline__ unsigned ls_atom_add_acq_rel(unsigned *p, unsigned v) {
  unsigned old;
  asm volatile("atom.acq_rel.gpu.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

// How a version keeps its status: a compile-time constant in each kernel.
enum ls_layout { LS_PACKED, LS_ACQ_REL };

// Words per status slot (see above), and the slot of tile p.
#define LS_SLOT_WORDS(layout) ((layout) == LS_PACKED ? 2 : 4)
static __device__ __forceinline__ unsigned *ls_slot(int layout, unsigned *slots, long long p) {
  return slots + LS_SLOT_WORDS(layout) * p;
}
// The acq_rel slot's word for a status's value: aggregate or inclusive prefix.
static __device__ __forceinline__ int ls_value_word(unsigned status) { return status == LS_PREFIX ? 2 : 1; }

static __device__ __forceinline__ void ls_publish(int layout, unsigned *slot, unsigned epoch, unsigned status,
                                                  unsigned value) {
  if (layout == LS_PACKED) {
    // Tag and value in one 64-bit store: a reader sees both or neither, so no
    // ordering between them is needed.
    ls_st_relaxed64(slot, ((unsigned long long)value << 32) | ls_tag(epoch, status));
  } else {
    ls_st_relaxed32(slot + ls_value_word(status), value);
    // Release: the value store above is visible to any block whose acquire
    // load reads this tag.
    ls_st_release32(slot, ls_tag(epoch, status));
  }
}

static __device__ __forceinline__ unsigned ls_peek(int layout, const unsigned *slot, unsigned epoch, unsigned *value) {
  if (layout == LS_PACKED) {
    unsigned long long w = ls_ld_relaxed64(slot);
    *value = (unsigned)(w >> 32);
    return ls_status_of((unsigned)w, epoch);
  }
  // Acquire: the value load below cannot read an older value than the one the
  // publisher stored before its release of the tag this load reads.
  unsigned status = ls_status_of(ls_ld_acquire32(slot), epoch);
  *value = status != LS_NOT_READY ? ls_ld_relaxed32(slot + ls_value_word(status)) : 0;
  return status;
}

// Called by warp 0 of the block that owns `tile`, whose sum is `aggregate`.
// Publishes it, then looks back: lane i watches tile (end - 1 - i), all 32
// slots read at once; once every lane has something, the lanes up to the
// nearest PREFIX are added (or all 32, and the window moves 32 tiles back).
// Returns the sum of every earlier tile, after publishing this tile's PREFIX.
// Never waits on a tile that has not started: tile ids come from the ticket,
// so every smaller id belongs to a block that is already running.
static __device__ __forceinline__ unsigned ls_look_back(int layout, unsigned *slots, unsigned tile, unsigned epoch,
                                                       unsigned aggregate) {
  int lane = threadIdx.x & 31;
  if (tile == 0) {
    if (lane == 0) ls_publish(layout, ls_slot(layout, slots, 0), epoch, LS_PREFIX, aggregate);
    return 0;
  }
  if (lane == 0) ls_publish(layout, ls_slot(layout, slots, tile), epoch, LS_AGGREGATE, aggregate);
  unsigned prefix = 0;
  long long end = tile;
  for (;;) {
    long long p = end - 1 - lane;
    unsigned status = LS_PREFIX, value = 0; // before tile 0: nothing to add
    for (;;) {
      if (p >= 0) status = ls_peek(layout, ls_slot(layout, slots, p), epoch, &value);
      if (!__any_sync(LS_FULL_MASK, status == LS_NOT_READY)) break;
#if LS_CFG_BACKOFF_NS > 0
      __nanosleep(LS_CFG_BACKOFF_NS); // fewer polls of L2 while the predecessors still load their tiles
#endif
    }
    unsigned prefixes = __ballot_sync(LS_FULL_MASK, status == LS_PREFIX);
    int last = prefixes ? __ffs(prefixes) - 1 : 31; // the nearest PREFIX ends the sum
    prefix += ls_warp_sum(lane <= last ? value : 0);
    if (prefixes) break;
    end -= 32;
  }
  if (lane == 0) ls_publish(layout, ls_slot(layout, slots, tile), epoch, LS_PREFIX, prefix + aggregate);
  return prefix;
}

// Thread 0 takes this block's tile id and the call's epoch (shared through
// shared memory). The block that takes the last ticket writes the header for
// the next call; every other block has taken its ticket, and read `start`
// before it, by then.
static __device__ __forceinline__ void ls_take_ticket(ls_header *h, unsigned tiles, unsigned *s_tile,
                                                      unsigned *s_epoch) {
  if (threadIdx.x == 0) {
    unsigned long long start = ls_ld_relaxed64(&h->start);
#if LS_CFG_RELAXED_TICKET
    // A tuning experiment (tools/tune-04.sh, suffix r), not yet run on a GPU:
    // no ordering at all. A block that reads `start` after this call's last
    // block rewrote it sees start + tiles and epoch + 1, so its difference
    // wraps to tiles or more, and it takes both back.
    unsigned ticket = atomicAdd(&h->ticket, 1u);
    unsigned tile = ticket - (unsigned)start;
    unsigned epoch = (unsigned)(start >> 32) + 1;
    if (tile >= tiles) tile += tiles, epoch -= 1; // tiles < 2^31, so the two cases cannot meet
#else
    // acq_rel: the release half keeps the load of `start` above before this
    // increment; the last block's acquire half (it reads a value that every
    // other block's increment led to) keeps its header store below after all
    // of them. So no block reads the next call's `start`.
    unsigned ticket = ls_atom_add_acq_rel(&h->ticket, 1);
    unsigned tile = ticket - (unsigned)start;
    unsigned epoch = (unsigned)(start >> 32) + 1;
#endif
    if (tile == tiles - 1) ls_st_relaxed64(&h->start, ((unsigned long long)epoch << 32) | (ticket + 1));
    *s_tile = tile;
    *s_epoch = epoch;
  }
  __syncthreads(); // the tile id and the epoch are in shared memory before anyone reads them
}

#endif
