// lookback.cuh (solution, assignment 04; layer: look-back): the tile status
// of the single-pass kernels, the memory accesses that publish and read it,
// the look-back, and the tickets that hand out tiles in order.
#ifndef LS_LOOKBACK_CUH
#define LS_LOOKBACK_CUH

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
// The workspace starts with this header. A call takes `span` tickets: one per
// tile, and one more per block, the ticket that finds no tile left and ends
// the block (so span = tiles + blocks, known to every block). Between calls,
// ticket == start (the next call's first ticket) and the epoch is the last
// call's. A uniform byte fill keeps ticket == start, and for no byte value
// does a filled slot's tag carry the next epoch (checked for all 256 values).
typedef struct ls_header {
  unsigned ticket;          // incremented once per ticket, never reset (wraps: differences stay right)
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

// Thread 0 of the block that owns `tile`, once the tile's sum is known:
// AGGREGATE, or for tile 0, which has no predecessors, PREFIX at once.
static __device__ __forceinline__ void ls_publish_aggregate(int layout, unsigned *slots, unsigned tile,
                                                            unsigned epoch, unsigned aggregate) {
  ls_publish(layout, ls_slot(layout, slots, tile), epoch, tile == 0 ? LS_PREFIX : LS_AGGREGATE, aggregate);
}

// The look-back. It ends at the block's own previous tile, whose inclusive
// prefix the block already knows, not at the nearest PREFIX as in the
// decoupled look-back the handout describes. A tile's prefix is that prefix
// plus the AGGREGATEs of the tiles between (about as many as there are blocks
// on the GPU), which their blocks publish as soon as the tiles land. So no
// tile waits for another tile's look-back: there is no chain of PREFIXes, and
// no block publishes one (but tile 0, whose sum is its PREFIX). Every thread
// of the block reads one slot of the gap (more only when the gap is longer
// than the block), all at once, where the handout's look-back has one warp
// read window after window. CCCL's scan for Blackwell (2025, "decoupled
// look-ahead") drops the chain the same way. On the H100 this took the scan
// from 1.02-1.04x a copy's time to 0.99-1.00x (docs/tuning-04.md; the
// windowed look-back it replaced is in commit 70878bb's lookback.cuh,
// ls_look_back).
//
// This is the part of the sum that the calling thread adds: the slots of
// tiles from + threadIdx.x, from + threadIdx.x + blockDim.x, ... below
// `tile`, each waited for until it has published. Tile 0's PREFIX is its own
// sum, so any status's value is an aggregate here. It never waits forever:
// each of those tiles has a smaller id, so its block is running, and a block
// publishes a tile's sum before it waits on anything in that round (the
// kernels' step 2); by induction from tile 0, every sum gets published.
static __device__ __forceinline__ unsigned ls_gap_part(int layout, unsigned *slots, unsigned from, unsigned tile,
                                                       unsigned epoch) {
  unsigned part = 0;
  for (unsigned p = from + threadIdx.x; p < tile; p += blockDim.x) {
    unsigned value;
    while (ls_peek(layout, ls_slot(layout, slots, p), epoch, &value) == LS_NOT_READY) {
    }
    part += value;
  }
  return part;
}

// The tickets. Thread 0 of a block reads `start` once and takes its first
// ticket; its later tickets are one atomicAdd each. Both accesses are relaxed:
// the ticket counter is one word, so its increments are ordered among
// themselves without any fence. The block that takes the call's last ticket
// (the span-th) writes `start` for the next call. Nothing orders that write
// before another block's read of `start`, so a block may in principle read
// the next call's value, start + span with epoch + 1; its first ticket then
// wraps to span or more below it, which cannot happen otherwise (span <
// 2^31), and the block takes both back.
typedef struct ls_tickets {
  unsigned start; // this call's first ticket
  unsigned epoch; // this call's epoch
  unsigned span;  // tickets this call takes
} ls_tickets;

// The ticket's place in this call: a tile below `tiles`, none at or above. The
// block that takes the call's last ticket writes `start` for the next call.
static __device__ __forceinline__ unsigned ls_ticket_place(ls_header *h, const ls_tickets *k, unsigned ticket) {
  unsigned place = ticket - k->start;
  if (place == k->span - 1) ls_st_relaxed64(&h->start, ((unsigned long long)k->epoch << 32) | (ticket + 1));
  return place;
}

// Thread 0 only: the block's first ticket's place, and the call's tickets in *k.
static __device__ __forceinline__ unsigned ls_first_ticket(ls_header *h, unsigned span, ls_tickets *k) {
  unsigned long long start = ls_ld_relaxed64(&h->start);
  unsigned ticket = atomicAdd(&h->ticket, 1u);
  k->start = (unsigned)start;
  k->epoch = (unsigned)(start >> 32) + 1;
  k->span = span;
  if (ticket - k->start >= span) k->start -= span, k->epoch -= 1; // read the next call's start: take it back
  return ls_ticket_place(h, k, ticket);
}

// Thread 0 only: the block's next ticket's place.
static __device__ __forceinline__ unsigned ls_next_ticket(ls_header *h, const ls_tickets *k) {
  return ls_ticket_place(h, k, atomicAdd(&h->ticket, 1u));
}

#endif
