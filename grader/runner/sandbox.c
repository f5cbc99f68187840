/* sandbox.c: the runner's seccomp filter, a deny list written by hand as classic BPF. */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf_prog.h"
#include "guard.h"
#include "rawsys.h"

/* A deny list, not an allow list: the CUDA driver's needs (ioctl on its device files, mmap,
 * mprotect, futex, poll, sched_yield, madvise, read/write on descriptors it holds, ...) are
 * undocumented and change between driver releases. What is denied is what a submission would
 * use to reach outside its own process: files by name, new processes, the network, other
 * processes, and the kernel's favourite exploit surfaces. */

#if defined(__x86_64__)
#define SANDBOX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SANDBOX_ARCH AUDIT_ARCH_AARCH64
#endif

/* Syscalls from 424 on have one number on every architecture (but alpha and mips, which have
 * no filter here anyway). Old kernel headers (Debian 12 ships 6.1's) lack the newer ones, yet
 * the kernel they run on may have them: fchmodat2 would then slip past the chmod rule. So they
 * are numbered here when the headers do not know them. */
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register 427
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig 431
#endif
#ifndef __NR_fsmount
#define __NR_fsmount 432
#endif
#ifndef __NR_fspick
#define __NR_fspick 433
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_memfd_secret
#define __NR_memfd_secret 447
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif
#ifndef __NR_file_setattr
#define __NR_file_setattr 469
#endif
/* The newest syscall this table was checked against (Linux 6.17). A later kernel's new calls
 * get ENOSYS, as on an older kernel, so that a future "openat3" is not open by default. */
#define SANDBOX_LAST_KNOWN 469

#define R(x, why) {#x, __NR_##x, why, 0}
/* A row that a profiled runner's Landlock domain decides by path instead (profiling.h). */
#define RP(x, why) {#x, __NR_##x, why " (in a profiled runner: allowed, Landlock decides by path)", 1}

/* Reasons shared by a group of rows. */
#define FILES "reads files by name: the reference binary, expected outputs, grade.conf, other submissions"
#define CHANGE "changes the file system: writes the results folder, replaces the reference or the runner"
#define PROCS "starts a process outside the runner: a daemon that outlives the time limit, or the reference itself"
#define NET "the network: sends the inputs or the reference out, or talks to another process"
#define OTHER "reaches another process: traces the judge, reads or writes its memory, signals the grader"
#define ESCAPE "leaves the runner's process group or namespaces: outlives the grader's kill, changes what paths mean"
#define KERNEL "a favourite tool of kernel exploits that the CUDA driver never uses"
#define ROOT "a power of root (CI runs as root): loads kernel code, reboots, writes system files"
#define SEALED "makes the runner's own image writable or maps other pages over it (its code, GOT and sealed " \
               "state: the backend table a student would redirect); denied only where the range touches that " \
               "image (guard.h), allowed elsewhere, where the CUDA driver needs it"
#define WIRE "closes or replaces a descriptor of the protocol (commands, replies, the shared memory), to drop or " \
             "forge the runner's replies; denied only on those descriptors"

const sandbox_rule sandbox_denied[] = {
/* Files by name. The runner already holds every descriptor it needs (the device files, its
 * pipes); a submission that opens a path is looking for answers or for something to damage. */
#ifdef __NR_open
    RP(open, FILES),
#endif
    RP(openat, FILES),
    RP(openat2, FILES),
#ifdef __NR_creat
    RP(creat, FILES),
#endif
    R(open_by_handle_at, FILES " (by inode handle, past any path check)"),
    R(name_to_handle_at, FILES " (makes the handle for open_by_handle_at)"),
#ifdef __NR_uselib
    R(uselib, FILES " (opens and maps a library by path)"),
#endif
    R(fanotify_init, FILES " (hands out descriptors of files that others open)"),

/* New processes. The grader's time limit kills the runner's process group; a child can leave
 * it or run the reference binary in the student's place. Threads stay allowed while the
 * runner sets up (the CUDA runtime starts its own); sandbox_close_threads then refuses them. */
    R(execve, PROCS),
    R(execveat, PROCS),
#ifdef __NR_fork
    R(fork, PROCS),
#endif
#ifdef __NR_vfork
    R(vfork, PROCS),
#endif
    R(clone, PROCS "; allowed only with CLONE_THREAD (a new thread) and no CLONE_NEW* namespace flag, and "
                   "from the first student code on (sandbox_close_threads) not even that: a thread of the student's "
                   "could compute a batch's outputs before the judge's clock starts (under ncu, which starts "
                   "threads as it profiles and where nothing is timed, threads stay allowed)"),
    R(clone3, "returns ENOSYS, not EPERM: its flags sit in memory the filter cannot read, and on ENOSYS "
              "glibc falls back to clone, whose flags it can"),

/* The network and sockets between processes. */
    R(socket, NET),
    R(socketpair, NET),
    R(connect, NET),
    R(bind, NET),
    R(listen, NET),
    R(accept, NET),
    R(accept4, NET),

/* Other processes. Signals stay allowed towards the runner itself: abort() and raise() use
 * tgkill on the own process, and the CUDA driver may signal its own threads. */
    R(ptrace, OTHER),
    R(process_vm_readv, OTHER),
    R(process_vm_writev, OTHER),
    R(pidfd_open, OTHER),
    R(pidfd_getfd, OTHER " (copies a descriptor out of it)"),
    R(pidfd_send_signal, OTHER),
    R(kill, OTHER "; allowed only when the pid is the runner's own"),
    R(tkill, OTHER " (any thread of any process; tgkill does the same job checkably)"),
    R(tgkill, OTHER "; allowed only when the thread group is the runner's own"),
    R(rt_sigqueueinfo, OTHER " (sigqueue() reaches any process of the same user); allowed only on the runner's own pid"),
    R(rt_tgsigqueueinfo, OTHER "; allowed only when the thread group is the runner's own"),
    R(fcntl, OTHER ": F_SETOWN and F_SETOWN_EX would aim SIGIO at the grader; only those two commands are denied"),
    R(prlimit64, OTHER ": lowers the grader's limits (no descriptors, CPU time) so the next runs fail; allowed "
                 "only on pid 0 or the runner's own"),

/* Changes to the file system by path. Descriptors it holds stay writable: they are its pipes. */
#ifdef __NR_unlink
    RP(unlink, CHANGE),
#endif
    RP(unlinkat, CHANGE),
#ifdef __NR_rename
    RP(rename, CHANGE),
#endif
#ifdef __NR_renameat
    RP(renameat, CHANGE),
#endif
    RP(renameat2, CHANGE),
#ifdef __NR_mkdir
    RP(mkdir, CHANGE),
#endif
    RP(mkdirat, CHANGE),
#ifdef __NR_rmdir
    RP(rmdir, CHANGE),
#endif
#ifdef __NR_link
    RP(link, CHANGE),
#endif
    RP(linkat, CHANGE),
#ifdef __NR_symlink
    RP(symlink, CHANGE),
#endif
    RP(symlinkat, CHANGE),
#ifdef __NR_mknod
    R(mknod, CHANGE " (creates regular files and, as root, device nodes)"),
#endif
    R(mknodat, CHANGE " (creates regular files and, as root, device nodes)"),
#ifdef __NR_chmod
    R(chmod, CHANGE),
#endif
    R(fchmodat, CHANGE),
    R(fchmodat2, CHANGE),
#ifdef __NR_chown
    R(chown, CHANGE),
#endif
    R(fchownat, CHANGE),
#ifdef __NR_lchown
    R(lchown, CHANGE),
#endif
    RP(truncate, CHANGE),
#ifdef __NR_utime
    R(utime, CHANGE " (time stamps decide what make rebuilds)"),
#endif
#ifdef __NR_utimes
    R(utimes, CHANGE " (time stamps decide what make rebuilds)"),
#endif
#ifdef __NR_futimesat
    R(futimesat, CHANGE " (time stamps decide what make rebuilds)"),
#endif
    R(utimensat, CHANGE " (time stamps decide what make rebuilds)"),
    R(setxattr, CHANGE),
    R(lsetxattr, CHANGE),
    R(removexattr, CHANGE),
    R(lremovexattr, CHANGE),
    R(setxattrat, CHANGE),
    R(removexattrat, CHANGE),
    R(file_setattr, CHANGE " (as root: makes files immutable)"),

/* Leaving the process group, the namespaces, the mount tree. */
    R(setsid, ESCAPE),
    R(setpgid, ESCAPE),
    R(unshare, ESCAPE),
    R(setns, ESCAPE),
    R(mount, ESCAPE),
    R(umount2, ESCAPE),
    R(chroot, ESCAPE),
    R(pivot_root, ESCAPE),
    R(fsopen, ESCAPE " (the new mount API)"),
    R(fsconfig, ESCAPE " (the new mount API)"),
    R(fsmount, ESCAPE " (the new mount API)"),
    R(fspick, ESCAPE " (the new mount API)"),
    R(move_mount, ESCAPE " (the new mount API)"),
    R(open_tree, ESCAPE " (the new mount API; also a descriptor for any path)"),
    R(open_tree_attr, ESCAPE " (the new mount API; also a descriptor for any path)"),
    R(mount_setattr, ESCAPE " (the new mount API)"),

/* The kernel's attack surface. */
    R(io_uring_setup, KERNEL " (and its requests open files and sockets unseen by this filter)"),
    R(io_uring_enter, KERNEL " (and its requests open files and sockets unseen by this filter)"),
    R(io_uring_register, KERNEL " (and its requests open files and sockets unseen by this filter)"),
    R(bpf, KERNEL),
    R(perf_event_open, KERNEL " (also measures other processes)"),
    R(userfaultfd, KERNEL " (stalls the kernel mid-copy to win races)"),
    R(keyctl, KERNEL " (and the user's keyrings hold secrets)"),
    R(add_key, KERNEL),
    R(request_key, KERNEL),
    R(memfd_secret, KERNEL " (memory even the kernel does not map)"),

/* The runner's sealed image and the protocol's descriptors (guard.h). */
    R(mprotect, SEALED),
    R(pkey_mprotect, SEALED),
    R(munmap, SEALED),
    R(mremap, SEALED " (the old range, and the new one with MREMAP_FIXED)"),
    R(madvise, SEALED " (MADV_DONTNEED would put the file's unrelocated pages back)"),
    R(mmap, SEALED " (with MAP_FIXED or MAP_FIXED_NOREPLACE only)"),
    R(shmat, SEALED " (with SHM_REMAP only)"),
    R(close, WIRE),
#ifdef __NR_dup2
    R(dup2, WIRE " (the second argument)"),
#endif
    R(dup3, WIRE " (the second argument)"),
    R(close_range, WIRE " (a range that covers one)"),

/* Powers of root. */
    R(init_module, ROOT),
    R(finit_module, ROOT),
    R(delete_module, ROOT),
    R(kexec_load, ROOT),
    R(kexec_file_load, ROOT),
    R(reboot, ROOT),
    R(swapon, ROOT),
    R(swapoff, ROOT),
    R(acct, ROOT),
};
const int sandbox_n_denied = (int)(sizeof sandbox_denied / sizeof sandbox_denied[0]);

/* How a row is enforced. Most are denied outright; a few depend on an argument; the guard's
 * rows (guard.c) depend on the runner's image and descriptors. */
enum rule_kind { DENY, NOSYS, THREAD_ONLY, OWN_PID, OWN_PID_OR_0, NO_SETOWN, GUARDED };

static enum rule_kind kind_of(long nr) {
  if (sandbox_guard_kind(nr) != GUARD_NONE) return GUARDED;
  switch (nr) {
  case __NR_clone3: return NOSYS;
  case __NR_clone: return THREAD_ONLY;
  case __NR_kill:
  case __NR_tgkill:
  case __NR_rt_sigqueueinfo:
  case __NR_rt_tgsigqueueinfo: return OWN_PID;
  case __NR_prlimit64: return OWN_PID_OR_0;
  case __NR_fcntl: return NO_SETOWN;
  default: return DENY;
  }
}

/* The low 32 bits of argument i: a pid_t, an int command or clone's flags (the kernel
 * truncates all three to 32 bits, so the high half cannot smuggle anything). */
#define ARG_LO(i) BPF_ARG_LO(i)

#define ALLOW SECCOMP_RET_ALLOW
#define EPERM_ (SECCOMP_RET_ERRNO | EPERM)
#define KILL SECCOMP_RET_KILL_PROCESS

/* A new thread's clone has CLONE_THREAD; a new namespace is no thread's business. */
#define CLONE_NAMESPACES \
  (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

#define STMT(code, k) bpf_emit(p, (struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) bpf_emit(p, (struct sock_filter)BPF_JUMP(code, k, jt, jf))
#define LOAD(off) STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)(off))
#define RET(k) STMT(BPF_RET | BPF_K, k)

/* One row: "if nr matches, decide; else fall through with nr still in A". Each block below
 * ends in returns only, so A need not be reloaded after it; jf of the first jump skips the
 * block, whose length is written beside it. */
static void emit_rule(bpf_prog *p, long nr, unsigned pid, const sandbox_guard *g) {
  unsigned k = (unsigned)nr;
  switch (kind_of(nr)) {
  case GUARDED: sandbox_emit_guard(p, nr, g); break;
  case DENY:
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 1);
    RET(EPERM_);
    break;
  case NOSYS:
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 1);
    RET(SECCOMP_RET_ERRNO | ENOSYS);
    break;
  case THREAD_ONLY:
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 5);
    LOAD(ARG_LO(0));
    JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NAMESPACES, 2, 0); /* -> deny */
    JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);     /* -> allow : deny */
    RET(ALLOW);
    RET(EPERM_);
    break;
  case OWN_PID:
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 4);
    LOAD(ARG_LO(0));
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, pid, 0, 1);
    RET(ALLOW);
    RET(EPERM_);
    break;
  case OWN_PID_OR_0:
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 5);
    LOAD(ARG_LO(0));
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0);   /* -> allow */
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, pid, 1, 0); /* -> allow : deny */
    RET(EPERM_);
    RET(ALLOW);
    break;
  case NO_SETOWN:
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 5);
    LOAD(ARG_LO(1));
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETOWN, 2, 0);    /* -> deny */
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETOWN_EX, 1, 0); /* -> deny : allow */
    RET(ALLOW);
    RET(EPERM_);
    break;
  }
}

/* The whole program. Syscalls whose verdict depends only on their number (all but the few
 * above) are answered from the kernel's seccomp cache (Linux 5.11+) without running it, so
 * its length costs the driver's hot ioctl and futex calls nothing. */
static int build(bpf_prog *p, unsigned pid, const sandbox_guard *g) {
#ifdef SANDBOX_ARCH
  /* Another ABI has other syscall numbers (i386 through int 0x80; x32, whose numbers carry
   * __X32_SYSCALL_BIT): a rule keyed on x86_64's numbers would not see it, so it is fatal. */
  LOAD(offsetof(struct seccomp_data, arch));
  JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_ARCH, 1, 0);
  RET(KILL);
  LOAD(offsetof(struct seccomp_data, nr));
#ifdef __X32_SYSCALL_BIT
  JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1);
  RET(KILL);
#endif
  JUMP(BPF_JMP | BPF_JGT | BPF_K, SANDBOX_LAST_KNOWN, 0, 1);
  RET(SECCOMP_RET_ERRNO | ENOSYS);
  for (int i = 0; i < sandbox_n_denied; i++) {
    const sandbox_rule *r = &sandbox_denied[i];
    /* Landlock decides truncate from ABI 3 only: before it, truncate stays denied. */
    if (g->profiling_abi > 0 && r->by_path && (r->nr != __NR_truncate || g->profiling_abi >= 3)) continue;
    emit_rule(p, r->nr, pid, g);
  }
  RET(ALLOW);
  return 0;
#else
  (void)p, (void)pid, (void)g;
  return -1;
#endif
}

/* Installs a filter on every thread (TSYNC: the CUDA driver's threads run host callbacks).
 * A raw system call: a `syscall` of the student's answering 0 would leave no filter. */
static int install(const bpf_prog *p, char *err, size_t cap) {
  if (p->bad || p->n > p->cap) {
    snprintf(err, cap, "sandbox: the filter does not fit (%d instructions, at most %d, or a jump too far)", p->n, p->cap);
    return -1;
  }
  struct sock_fprog fp = {(unsigned short)p->n, p->ins};
  long r = sandbox_raw3(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, (long)&fp);
  if (r > 0) {
    snprintf(err, cap, "sandbox: seccomp: thread %ld could not take the filter (it has a filter of its own)", r);
    return -1;
  }
  if (r != 0) {
    snprintf(err, cap, "sandbox: seccomp(SECCOMP_SET_MODE_FILTER, TSYNC): %s (kernel without seccomp filters?)",
             strerror((int)-r));
    return -1;
  }
  return 0;
}

int sandbox_enter_guarded(const sandbox_guard *g, char *err, size_t cap) {
  static struct sock_filter ins[BPF_MAXINSNS]; /* 32 KiB: off the stack */
  bpf_prog p = {.ins = ins, .cap = BPF_MAXINSNS};
  if (build(&p, (unsigned)sandbox_raw3(__NR_getpid, 0, 0, 0), g) < 0) {
    snprintf(err, cap, "sandbox: no seccomp filter for this architecture (x86_64 and aarch64 only)");
    return -1;
  }
  if (p.bad || p.n > p.cap) {
    snprintf(err, cap, "sandbox: the filter does not fit (%d instructions, at most %d, or a jump too far)", p.n, p.cap);
    return -1;
  }
  /* Required to install a filter without CAP_SYS_ADMIN, and keeps a setuid binary from
   * regaining what the filter takes (execve is denied anyway). */
  long r = sandbox_raw6(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0);
  if (r != 0) {
    snprintf(err, cap, "sandbox: prctl(PR_SET_NO_NEW_PRIVS): %s", strerror((int)-r));
    return -1;
  }
  /* TSYNC: the CUDA driver has started threads of its own by now, and a host callback
   * (cudaLaunchHostFunc) runs the student's code on one of them; prctl(PR_SET_SECCOMP)
   * would filter the calling thread alone. */
  return install(&p, err, cap);
}

int sandbox_enter(char *err, size_t cap) {
  sandbox_guard g = {0};
  if (sandbox_image(sandbox_denied, sizeof sandbox_denied, &g.lo, &g.hi, err, cap)) return -1;
  return sandbox_enter_guarded(&g, err, cap);
}

int sandbox_close_threads(char *err, size_t cap) {
#ifdef SANDBOX_ARCH
  struct sock_filter ins[16];
  bpf_prog q = {.ins = ins, .cap = 16}, *p = &q;
  LOAD(offsetof(struct seccomp_data, arch));
  JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_ARCH, 1, 0);
  RET(KILL);
  LOAD(offsetof(struct seccomp_data, nr));
  JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)__NR_clone, 0, 3);
  LOAD(ARG_LO(0));
  /* Killed, not refused with an error: glibc's pthread_create blocks every
   * signal around clone, so a trap's handler could not say why, and an error
   * code alone would let a submission carry on as if nothing had happened.
   * The judge names the signal (session.c). */
  JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1); /* -> kill : allow (the first stage decides) */
  RET(KILL);
  RET(ALLOW);
  return install(p, err, cap);
#else
  snprintf(err, cap, "sandbox: no seccomp filter for this architecture (x86_64 and aarch64 only)");
  return -1;
#endif
}
