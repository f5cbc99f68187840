/* bpf_prog.h: a classic-BPF program under construction, for the runner's seccomp filters
 * (sandbox.c, guard.c). Internal to grader/runner.
 *
 * Jumps name labels, which are placed later and resolved when the block that uses them ends
 * (bpf_resolve): classic BPF jumps only forwards, by at most 255 instructions, and a block of
 * the filter is a few dozen. Every overflow (too many instructions, labels or jumps, a jump too
 * far) is counted in p->bad, and the filter is then refused whole. */
#ifndef SCANLAB_BPF_PROG_H
#define SCANLAB_BPF_PROG_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>

enum { BPF_LABELS = 16, BPF_FIXUPS = 64, BPF_NEXT = -1 };

typedef struct bpf_prog {
  struct sock_filter *ins;
  int n, cap;
  int bad;                 /* overflows: the program must not be installed */
  int label_at[BPF_LABELS]; /* instruction index of each label, -1 while unplaced */
  int n_labels;
  struct { int at, label, jt; } fix[BPF_FIXUPS];
  int n_fix;
} bpf_prog;

static inline void bpf_emit(bpf_prog *p, struct sock_filter f) {
  if (p->n < p->cap) p->ins[p->n] = f;
  else p->bad++;
  p->n++;
}

static inline void bpf_stmt(bpf_prog *p, unsigned short code, unsigned k) {
  bpf_emit(p, (struct sock_filter)BPF_STMT(code, k));
}

/* A fresh label, unplaced. */
static inline int bpf_label(bpf_prog *p) {
  if (p->n_labels >= BPF_LABELS) return p->bad++, 0;
  p->label_at[p->n_labels] = -1;
  return p->n_labels++;
}

static inline void bpf_place(bpf_prog *p, int label) { p->label_at[label] = p->n; }

static inline void bpf_fix(bpf_prog *p, int label, int jt) {
  if (label == BPF_NEXT) return;
  if (p->n_fix >= BPF_FIXUPS) {
    p->bad++;
    return;
  }
  p->fix[p->n_fix].at = p->n;
  p->fix[p->n_fix].label = label;
  p->fix[p->n_fix].jt = jt;
  p->n_fix++;
}

/* A conditional jump to labels lt (true) and lf (false); BPF_NEXT: the next instruction. */
static inline void bpf_jump(bpf_prog *p, unsigned short code, unsigned k, int lt, int lf) {
  bpf_fix(p, lt, 1);
  bpf_fix(p, lf, 0);
  bpf_emit(p, (struct sock_filter)BPF_JUMP(code, k, 0, 0));
}

/* An unconditional jump (BPF_JA, whose offset is k). */
static inline void bpf_goto(bpf_prog *p, int label) {
  bpf_fix(p, label, 2);
  bpf_emit(p, (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, 0));
}

/* Resolves every jump of the block and forgets its labels. */
static inline void bpf_resolve(bpf_prog *p) {
  for (int i = 0; i < p->n_fix; i++) {
    int at = p->fix[i].at, to = p->label_at[p->fix[i].label], off = to - (at + 1);
    if (to < 0 || off < 0 || (p->fix[i].jt != 2 && off > 255) || at >= p->cap) {
      p->bad++;
      continue;
    }
    if (p->fix[i].jt == 2) p->ins[at].k = (unsigned)off;
    else if (p->fix[i].jt) p->ins[at].jt = (unsigned char)off;
    else p->ins[at].jf = (unsigned char)off;
  }
  p->n_fix = 0;
  p->n_labels = 0;
}

/* The two 32-bit halves of argument i (seccomp_data holds each as 64 bits, native order). */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BPF_ARG_LO(i) ((unsigned)(offsetof(struct seccomp_data, args[i])))
#define BPF_ARG_HI(i) ((unsigned)(offsetof(struct seccomp_data, args[i]) + 4))
#else
#define BPF_ARG_LO(i) ((unsigned)(offsetof(struct seccomp_data, args[i]) + 4))
#define BPF_ARG_HI(i) ((unsigned)(offsetof(struct seccomp_data, args[i])))
#endif

#endif
