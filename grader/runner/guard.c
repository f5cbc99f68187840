/* guard.c: the runner's image and descriptors, out of the student's reach (guard.h). */
#include "guard.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>

#include "rawsys.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MREMAP_FIXED
#define MREMAP_FIXED 2
#endif
#ifndef SHM_REMAP
#define SHM_REMAP 040000
#endif
#ifndef __NR_pkey_mprotect
#define __NR_pkey_mprotect 329
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif

/* The smallest page any Linux on x86_64 or aarch64 uses, and the largest (aarch64's 64 KiB):
 * the image's ends are rounded to the larger, so no page of it escapes on any kernel. */
static const uintptr_t PAGE_MAX = 65536;

extern const ElfW(Ehdr) __ehdr_start;

int sandbox_image(const void *must, size_t must_bytes, uintptr_t *lo, uintptr_t *hi, char *err, size_t cap) {
  const ElfW(Ehdr) *eh = &__ehdr_start;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phnum == 0 ||
      eh->e_phnum > 64) {
    snprintf(err, cap, "sandbox: the program's ELF header is not where the linker said (__ehdr_start)");
    return -1;
  }
  const ElfW(Phdr) *ph = (const ElfW(Phdr) *)((const char *)eh + eh->e_phoff);
  uintptr_t base = 0, low = UINTPTR_MAX, high = 0;
  int have_base = 0;
  /* The load bias: from the program headers' own entry, or from the segment whose file
   * bytes hold the header (a bss-only segment has offset 0 too, but no file bytes). */
  for (int i = 0; i < eh->e_phnum && !have_base; i++)
    if (ph[i].p_type == PT_PHDR) base = (uintptr_t)ph - ph[i].p_vaddr, have_base = 1;
  for (int i = 0; i < eh->e_phnum && !have_base; i++)
    if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0 && ph[i].p_filesz > 0) base = (uintptr_t)eh - ph[i].p_vaddr, have_base = 1;
  for (int i = 0; i < eh->e_phnum && have_base; i++) {
    if (ph[i].p_type != PT_LOAD) continue;
    uintptr_t a = base + ph[i].p_vaddr, b = a + ph[i].p_memsz;
    if (a < low) low = a;
    if (b > high) high = b;
  }
  if (!have_base || low >= high) {
    snprintf(err, cap, "sandbox: the program's ELF header names no loaded segment");
    return -1;
  }
  low &= ~(PAGE_MAX - 1);
  high = (high + PAGE_MAX - 1) & ~(PAGE_MAX - 1);
  uintptr_t code = (uintptr_t)&sandbox_image, m = (uintptr_t)must;
  if (code < low || code >= high || m < low || m + must_bytes > high) {
    snprintf(err, cap, "sandbox: the program's image [%#lx, %#lx) does not hold its own code and state",
             (unsigned long)low, (unsigned long)high);
    return -1;
  }
  *lo = low;
  *hi = high;
  return 0;
}

int sandbox_seal(void *p, size_t bytes, char *err, size_t cap) {
  long r = sandbox_raw3(__NR_mprotect, (long)p, (long)bytes, PROT_READ);
  if (r < 0) {
    snprintf(err, cap, "sandbox: mprotect(%p, %zu, PROT_READ) of the runner's state: %s", p, bytes, strerror((int)-r));
    return -1;
  }
  return 0;
}

guard_kind sandbox_guard_kind(long nr) {
  switch (nr) {
  case __NR_mprotect:
  case __NR_pkey_mprotect:
  case __NR_munmap:
  case __NR_madvise: return GUARD_RANGE;
  case __NR_mmap: return GUARD_MMAP;
  case __NR_mremap: return GUARD_MREMAP;
  case __NR_shmat: return GUARD_SHMAT;
  case __NR_close: return GUARD_FD_ARG0;
#ifdef __NR_dup2
  case __NR_dup2:
#endif
  case __NR_dup3: return GUARD_FD_ARG1;
  case __NR_close_range: return GUARD_FD_SPAN;
  default: return GUARD_NONE;
  }
}

#define LD_ARG(x) bpf_stmt(p, BPF_LD | BPF_W | BPF_ABS, x)
#define JEQ(k, t, f) bpf_jump(p, BPF_JMP | BPF_JEQ | BPF_K, (unsigned)(k), t, f)
#define JGT(k, t, f) bpf_jump(p, BPF_JMP | BPF_JGT | BPF_K, (unsigned)(k), t, f)
#define JGE(k, t, f) bpf_jump(p, BPF_JMP | BPF_JGE | BPF_K, (unsigned)(k), t, f)
#define JSET(k, t, f) bpf_jump(p, BPF_JMP | BPF_JSET | BPF_K, (unsigned)(k), t, f)

/* Jumps to deny when [arg ia, arg ia + arg il) touches [g->lo, g->hi), else to ok. Both are
 * 64-bit: the end is summed in two 32-bit halves with the carry (scratch M[0..2]). An end that
 * wraps past 2^64 reads as small and is let through: the kernel refuses such a range itself. */
static void emit_touches(bpf_prog *p, int ia, int il, const sandbox_guard *g, int deny, int ok) {
  unsigned lo_hi = (unsigned)((uint64_t)g->lo >> 32), lo_lo = (unsigned)g->lo;
  unsigned hi_hi = (unsigned)((uint64_t)g->hi >> 32), hi_lo = (unsigned)g->hi;
  int carry = bpf_label(p), store = bpf_label(p), lo_half = bpf_label(p), above = bpf_label(p), end_lo = bpf_label(p);
  LD_ARG(BPF_ARG_LO(il));
  bpf_stmt(p, BPF_MISC | BPF_TAX, 0);
  LD_ARG(BPF_ARG_LO(ia));
  bpf_stmt(p, BPF_ST, 0);                      /* M0 = start, low half */
  bpf_stmt(p, BPF_ALU | BPF_ADD | BPF_X, 0);   /* A = end, low half */
  bpf_stmt(p, BPF_ST, 1);                      /* M1 = end, low half */
  bpf_stmt(p, BPF_MISC | BPF_TAX, 0);
  bpf_stmt(p, BPF_LD | BPF_MEM, 0);
  bpf_jump(p, BPF_JMP | BPF_JGT | BPF_X, 0, carry, BPF_NEXT); /* start > end (low halves): a carry */
  LD_ARG(BPF_ARG_HI(il));
  bpf_stmt(p, BPF_MISC | BPF_TAX, 0);
  LD_ARG(BPF_ARG_HI(ia));
  bpf_stmt(p, BPF_ALU | BPF_ADD | BPF_X, 0);
  bpf_goto(p, store);
  bpf_place(p, carry);
  LD_ARG(BPF_ARG_HI(il));
  bpf_stmt(p, BPF_MISC | BPF_TAX, 0);
  LD_ARG(BPF_ARG_HI(ia));
  bpf_stmt(p, BPF_ALU | BPF_ADD | BPF_X, 0);
  bpf_stmt(p, BPF_ALU | BPF_ADD | BPF_K, 1);
  bpf_place(p, store);
  bpf_stmt(p, BPF_ST, 2);                      /* M2 = end, high half */
  /* start < hi */
  LD_ARG(BPF_ARG_HI(ia));
  JGT(hi_hi, ok, BPF_NEXT);
  JEQ(hi_hi, lo_half, above);
  bpf_place(p, lo_half);
  LD_ARG(BPF_ARG_LO(ia));
  JGE(hi_lo, ok, above);
  /* and end > lo */
  bpf_place(p, above);
  bpf_stmt(p, BPF_LD | BPF_MEM, 2);
  JGT(lo_hi, deny, BPF_NEXT);
  JEQ(lo_hi, end_lo, ok);
  bpf_place(p, end_lo);
  bpf_stmt(p, BPF_LD | BPF_MEM, 1);
  JGT(lo_lo, deny, ok);
}

/* Jumps to deny when arg i (an int) is one of the guarded descriptors, else falls through. */
static void emit_fd_is(bpf_prog *p, int i, const sandbox_guard *g, int deny) {
  LD_ARG(BPF_ARG_LO(i));
  for (int k = 0; k < g->n_fds; k++) JEQ(g->fds[k], deny, BPF_NEXT);
}

void sandbox_emit_guard(bpf_prog *p, long nr, const sandbox_guard *g) {
  guard_kind kind = sandbox_guard_kind(nr);
  int memory = kind == GUARD_RANGE || kind == GUARD_MMAP || kind == GUARD_MREMAP || kind == GUARD_SHMAT;
  if (kind == GUARD_NONE || (memory && g->lo == g->hi) || (!memory && g->n_fds == 0)) return; /* nothing to guard */
  int end = bpf_label(p), ok = bpf_label(p), deny = bpf_label(p), more = bpf_label(p);
  JEQ(nr, BPF_NEXT, end);
  switch (kind) {
  case GUARD_RANGE: emit_touches(p, 0, 1, g, deny, ok); break;
  case GUARD_MMAP:
    LD_ARG(BPF_ARG_LO(3));
    JSET(MAP_FIXED | MAP_FIXED_NOREPLACE, BPF_NEXT, ok);
    emit_touches(p, 0, 1, g, deny, ok);
    break;
  case GUARD_MREMAP:
    emit_touches(p, 0, 1, g, deny, more);
    bpf_place(p, more);
    LD_ARG(BPF_ARG_LO(3));
    JSET(MREMAP_FIXED, BPF_NEXT, ok);
    emit_touches(p, 4, 2, g, deny, ok);
    break;
  case GUARD_SHMAT:
    LD_ARG(BPF_ARG_LO(2));
    JSET(SHM_REMAP, deny, ok);
    break;
  case GUARD_FD_ARG0: emit_fd_is(p, 0, g, deny); break;
  case GUARD_FD_ARG1: emit_fd_is(p, 1, g, deny); break;
  case GUARD_FD_SPAN:
    for (int k = 0; k < g->n_fds; k++) { /* first <= fd <= last (unsigned) */
      int next = bpf_label(p);
      LD_ARG(BPF_ARG_LO(0));
      JGT(g->fds[k], next, BPF_NEXT);
      LD_ARG(BPF_ARG_LO(1));
      JGE(g->fds[k], deny, next);
      bpf_place(p, next);
    }
    break;
  case GUARD_NONE: break;
  }
  bpf_place(p, ok);
  bpf_stmt(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  bpf_place(p, deny);
  bpf_stmt(p, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
  bpf_place(p, end);
  bpf_resolve(p);
}
