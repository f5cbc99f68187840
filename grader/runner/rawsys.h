/* rawsys.h: system calls made by the runner's own instructions, never through libc.
 *
 * The student's object is linked ahead of libc, so a `syscall`, `prctl` or
 * `mprotect` it defines is what a libc call of the runner would reach: one that
 * answers 0 to seccomp leaves the runner unfiltered and believing it is
 * sandboxed. The calls that set up the sandbox and seal the runner's state go
 * through these inline functions instead: no symbol, nothing to interpose.
 * Each returns what the kernel returns: a value >= 0, or -errno. */
#ifndef SCANLAB_RAWSYS_H
#define SCANLAB_RAWSYS_H

static inline long sandbox_raw6(long nr, long a, long b, long c, long d, long e, long f) {
#if defined(__x86_64__)
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = nr;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  register long x5 __asm__("x5") = f;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
  return x0;
#else
  (void)nr, (void)a, (void)b, (void)c, (void)d, (void)e, (void)f;
  return -38; /* ENOSYS: sandbox.c refuses other architectures before it gets here */
#endif
}

static inline long sandbox_raw3(long nr, long a, long b, long c) { return sandbox_raw6(nr, a, b, c, 0, 0, 0); }

#endif
