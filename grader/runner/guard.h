/* guard.h: what the runner's filter keeps out of the student's reach once it is set up.
 *
 * The student's code shares the runner's address space, so it can write any writable
 * memory of it. What the runner must trust after set-up is therefore kept where writing
 * needs a system call first: its code, its read-only data, its GOT (bound at load time:
 * the runner is linked with -z now, so the GOT is read-only after relocation) and one
 * page of state it seals (sandbox_seal: the backend table, the assignment table, its pid)
 * all lie in the runner program's own image, and the filter refuses every call that could
 * make a page of that image writable or put other pages in its place: mprotect,
 * pkey_mprotect, munmap, mremap (either range), madvise, mmap with MAP_FIXED or
 * MAP_FIXED_NOREPLACE, and shmat with SHM_REMAP, wherever their range touches it
 * (EPERM). Everywhere else these calls stay allowed: the CUDA driver maps, unmaps and
 * reprotects its own memory all the time. The protocol's descriptors are guarded the same
 * way: close, dup2, dup3 onto them, and a close_range that covers one, are refused. */
#ifndef SCANLAB_GUARD_H
#define SCANLAB_GUARD_H

#include <stddef.h>
#include <stdint.h>

#include "bpf_prog.h"

enum { SANDBOX_GUARD_FDS = 8 };

typedef struct sandbox_guard {
  uintptr_t lo, hi; /* [lo, hi), page-aligned; lo == hi: no memory guarded */
  int fds[SANDBOX_GUARD_FDS];
  int n_fds;
  int profiling_abi; /* > 0: a profiled runner in a Landlock domain of this ABI (profiling.h) */
} sandbox_guard;

/* [lo, hi) of the program's own image: from the lowest to the highest page of its loaded
 * segments (text, read-only data, RELRO, data, bss), found from its ELF header
 * (__ehdr_start, a link-time address: no call the student could interpose). Checks that
 * the range holds this module's code and `must` (the sealed page). 0, or -1 with a reason. */
int sandbox_image(const void *must, size_t must_bytes, uintptr_t *lo, uintptr_t *hi, char *err, size_t cap);

/* Makes [p, p + bytes) read-only (a raw mprotect: a student's `mprotect` cannot answer for
 * it); p and bytes page-aligned. 0, or -1 with a reason. */
int sandbox_seal(void *p, size_t bytes, char *err, size_t cap);

/* How a row of the deny table is enforced when the guard decides it. */
typedef enum guard_kind {
  GUARD_NONE,      /* not a guard row */
  GUARD_RANGE,     /* args 0, 1: an address and a length */
  GUARD_MMAP,      /* the range of args 0, 1 only with MAP_FIXED or MAP_FIXED_NOREPLACE in arg 3 */
  GUARD_MREMAP,    /* args 0, 1; and with MREMAP_FIXED in arg 3, args 4, 2 */
  GUARD_SHMAT,     /* SHM_REMAP in arg 2 */
  GUARD_FD_ARG0,   /* close: arg 0 */
  GUARD_FD_ARG1,   /* dup2, dup3: arg 1, the descriptor replaced */
  GUARD_FD_SPAN,   /* close_range: [arg 0, arg 1] */
} guard_kind;

guard_kind sandbox_guard_kind(long nr);

/* The filter's block for syscall nr (with nr in A on entry; it ends in returns only). */
void sandbox_emit_guard(bpf_prog *p, long nr, const sandbox_guard *g);

#endif
