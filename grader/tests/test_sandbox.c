/* test_sandbox.c: the runner's seccomp filter, tried from a child that has entered it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profiling.h"
#include "sandbox.h"
#include "tests.h"
#include "wire.h"

/* A probe runs in the sandboxed child: 0 when everything it tried behaved, else 1 with the
 * first surprise in msg. pre, when set, runs in the child before the sandbox is entered. */
typedef int (*probe_fn)(const void *arg, char *msg, size_t cap);
enum { ENTER_FAILED = 99 };

#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452 /* Linux 6.6; older headers lack it, as sandbox.c knows */
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif

static int say(char *msg, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, cap, fmt, ap);
  va_end(ap);
  return 1;
}

/* r must be -1 with errno e. */
static int want_errno(long r, int e, const char *what, char *msg, size_t cap) {
  if (r == -1 && errno == e) return 0;
  if (r != -1) return say(msg, cap, "%s: returned %ld; expected -1 with %s", what, r, strerror(e));
  return say(msg, cap, "%s: failed with %s; expected %s", what, strerror(errno), strerror(e));
}

static int want_ok(long r, const char *what, char *msg, size_t cap) {
  if (r != -1) return 0;
  return say(msg, cap, "%s: failed with %s; the sandbox must allow it", what, strerror(errno));
}

static int pre_entered; /* set by a pre that entered a sandbox of its own (the profiled one) */

/* Forks a child that runs pre, enters the sandbox, runs probe and exits with its code.
 * Returns the wait status; msg gets what the child said, after an R when the probe returned. */
static int sandboxed(probe_fn pre, probe_fn probe, const void *arg, char *msg, size_t cap) {
  int p[2];
  ck_assert_int_eq(pipe(p), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    close(p[0]);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none); /* the deaths by SIGSYS below would leave cores behind */
    char m[512] = "";
    int code = pre ? pre(arg, m, sizeof m) : 0;
    if (code == 0 && !pre_entered && sandbox_enter(m, sizeof m) != 0) code = ENTER_FAILED;
    if (code == 0) code = probe(arg, m, sizeof m);
    /* "R" says the probe returned: an execve that got through exits 0 too, but says nothing. */
    if (write(p[1], "R", 1) != 1 || write(p[1], m, strlen(m)) < 0) code = 98;
    _exit(code);
  }
  close(p[1]);
  size_t n = 0;
  ssize_t r;
  while (n + 1 < cap && (r = read(p[0], msg + n, cap - 1 - n)) > 0) n += (size_t)r;
  msg[n] = '\0';
  close(p[0]);
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  return status;
}

/* Runs probe sandboxed and fails the test with the child's words unless it exited 0. A
 * sandbox that cannot be entered (no seccomp in this kernel or container) is a failure,
 * never a skip: the grader must not run a submission unconfined without saying so. */
static void check_probe(probe_fn pre, probe_fn probe, const void *arg) {
  char msg[1024];
  int st = sandboxed(pre, probe, arg, msg, sizeof msg);
  const char *said = msg[0] == 'R' ? msg + 1 : msg;
  ck_assert_msg(!(WIFEXITED(st) && WEXITSTATUS(st) == ENTER_FAILED), "sandbox_enter failed: %s", said);
  ck_assert_msg(WIFEXITED(st), "the sandboxed child died by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
  ck_assert_msg(msg[0] == 'R', "the sandboxed child exited %d without its probe returning (an execve?)",
                WEXITSTATUS(st));
  ck_assert_msg(WEXITSTATUS(st) == 0, "sandboxed child: %s", said);
}

/* A readable file of known content under a fresh folder; the caller frees both. */
static char *scratch_file(char **dir) {
  char tmpl[] = "/tmp/sandbox-test-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(tmpl));
  *dir = strdup(tmpl);
  char *path;
  ck_assert_int_gt(asprintf(&path, "%s/answers.txt", tmpl), 0);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("42\n", f);
  fclose(f);
  ck_assert_int_eq(chmod(path, 0644), 0);
  return path;
}

static void remove_scratch(char *dir, char *path) {
  unlink(path);
  char *cmd;
  ck_assert_int_gt(asprintf(&cmd, "rm -rf '%s'", dir), 0);
  ck_assert_int_eq(system(cmd), 0);
  free(cmd), free(dir), free(path);
}

/* ---------------------------------------------------------------- files */

static int probe_open(const void *arg, char *msg, size_t cap) {
  const char *path = arg;
  return want_errno(open(path, O_RDONLY), EPERM, "open", msg, cap) ||
         want_errno(openat(AT_FDCWD, path, O_RDONLY), EPERM, "openat", msg, cap) ||
         want_errno(open(path, O_WRONLY | O_APPEND), EPERM, "open for writing", msg, cap) ||
         want_errno(open("/tmp", O_TMPFILE | O_RDWR, 0600), EPERM, "open O_TMPFILE", msg, cap) ||
         want_errno(syscall(__NR_openat2, AT_FDCWD, path, NULL, 0), EPERM, "openat2", msg, cap);
}

START_TEST(test_sandbox_open_of_readable_file_is_eperm) {
  char *dir, *path = scratch_file(&dir);
  int fd = open(path, O_RDONLY); /* readable outside the sandbox, so EPERM inside is the filter's */
  ck_assert_int_ge(fd, 0);
  close(fd);
  check_probe(NULL, probe_open, path);
  remove_scratch(dir, path);
}
END_TEST

static int probe_fopen(const void *arg, char *msg, size_t cap) {
  errno = 0;
  FILE *f = fopen(arg, "r");
  if (f) return say(msg, cap, "fopen opened %s", (const char *)arg);
  return want_errno(-1, EPERM, "fopen", msg, cap);
}

START_TEST(test_sandbox_fopen_fails) {
  char *dir, *path = scratch_file(&dir);
  check_probe(NULL, probe_fopen, path);
  remove_scratch(dir, path);
}
END_TEST

/* ---------------------------------------------------------------- processes */

static int probe_execve(const void *arg, char *msg, size_t cap) {
  (void)arg;
  char *argv[] = {"/bin/true", NULL}, *envp[] = {NULL};
  return want_errno(execve("/bin/true", argv, envp), EPERM, "execve", msg, cap) ||
         want_errno(syscall(__NR_execveat, AT_FDCWD, "/bin/true", argv, envp, 0), EPERM, "execveat", msg, cap);
}

START_TEST(test_sandbox_execve_is_eperm) {
  check_probe(NULL, probe_execve, NULL);
}
END_TEST

static int probe_fork(const void *arg, char *msg, size_t cap) {
  (void)arg;
  pid_t pid = fork();
  if (pid == 0) _exit(0); /* a process the sandbox should never have made */
  if (pid > 0) return waitpid(pid, NULL, 0), say(msg, cap, "fork made process %d", (int)pid);
  if (want_errno(pid, EPERM, "fork", msg, cap)) return 1;
  long r = syscall(__NR_clone, SIGCHLD, 0, 0, 0, 0); /* fork as aarch64's glibc spells it */
  if (r == 0) _exit(0);
  if (r > 0) return waitpid((pid_t)r, NULL, 0), say(msg, cap, "clone(SIGCHLD) made process %ld", r);
  if (want_errno(r, EPERM, "clone(SIGCHLD)", msg, cap)) return 1;
  /* A thread in a new namespace: without the filter the kernel says EINVAL, so EPERM is the filter's. */
  r = syscall(__NR_clone, CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_NEWUSER, 0, 0, 0, 0);
  return want_errno(r, EPERM, "clone(CLONE_THREAD | CLONE_NEWUSER)", msg, cap);
}

START_TEST(test_sandbox_fork_is_eperm) {
  check_probe(NULL, probe_fork, NULL);
}
END_TEST

static void *set_flag(void *p) {
  *(int *)p = 1;
  return p;
}

static int probe_thread(const void *arg, char *msg, size_t cap) {
  (void)arg;
  int ran = 0;
  pthread_t t;
  int e = pthread_create(&t, NULL, set_flag, &ran); /* clone3 gives ENOSYS, glibc falls back to clone */
  if (e) return say(msg, cap, "pthread_create: %s", strerror(e));
  if ((e = pthread_join(t, NULL))) return say(msg, cap, "pthread_join: %s", strerror(e));
  return ran ? 0 : say(msg, cap, "the thread did not run");
}

START_TEST(test_sandbox_threads_still_run) {
  check_probe(NULL, probe_thread, NULL);
}
END_TEST

/* The second stage (sandbox_close_threads, entered once the runner is set up): a new
 * thread kills the process (SIGSYS), so no thread of a submission computes between the
 * upload of a batch and the judge's GO; a fork is still only refused (EPERM). */
static int probe_closed_thread(const void *arg, char *msg, size_t cap) {
  if (sandbox_close_threads(msg, cap)) return 97;
  if (arg) { /* fork: refused by the first stage, not killed */
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    if (pid > 0) return waitpid(pid, NULL, 0), say(msg, cap, "fork made process %d", (int)pid);
    return want_errno(pid, EPERM, "fork", msg, cap);
  }
  int ran = 0;
  pthread_t t;
  int e = pthread_create(&t, NULL, set_flag, &ran);
  return say(msg, cap, "pthread_create after sandbox_close_threads returned %d (%s) and the process lives", e, strerror(e));
}

START_TEST(test_sandbox_closed_to_threads) {
  char msg[1024];
  int st = sandboxed(NULL, probe_closed_thread, NULL, msg, sizeof msg);
  ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS, "a thread after sandbox_close_threads: status %#x, not SIGSYS: %s",
                st, msg[0] == 'R' ? msg + 1 : msg);
  check_probe(NULL, probe_closed_thread, "fork");
}
END_TEST

static int probe_clone3(const void *arg, char *msg, size_t cap) {
  (void)arg;
  /* No arguments: without the filter the kernel answers EINVAL and makes no process. */
  return want_errno(syscall(__NR_clone3, NULL, 0), ENOSYS, "clone3", msg, cap);
}

START_TEST(test_sandbox_clone3_is_enosys) {
  check_probe(NULL, probe_clone3, NULL);
}
END_TEST

/* The CUDA driver's threads exist before the sandbox is entered, and a host callback runs
 * student code on one of them: the filter must reach threads that were already there. */
static int gate[2], thread_errno;
static pthread_t early;

static void *open_when_told(void *path) {
  char c;
  if (read(gate[0], &c, 1) != 1) return NULL;
  thread_errno = open(path, O_RDONLY) < 0 ? errno : 0;
  return NULL;
}

static int start_early_thread(const void *arg, char *msg, size_t cap) {
  if (pipe(gate) != 0) return say(msg, cap, "pipe: %s", strerror(errno));
  int e = pthread_create(&early, NULL, open_when_told, (void *)arg);
  return e ? say(msg, cap, "pthread_create: %s", strerror(e)) : 0;
}

static int probe_early_thread(const void *arg, char *msg, size_t cap) {
  (void)arg;
  if (write(gate[1], "x", 1) != 1) return say(msg, cap, "write: %s", strerror(errno));
  pthread_join(early, NULL);
  if (thread_errno != EPERM)
    return say(msg, cap, "a thread started before sandbox_enter opened a file (errno %s)", strerror(thread_errno));
  return 0;
}

START_TEST(test_sandbox_covers_threads_started_before) {
  char *dir, *path = scratch_file(&dir);
  check_probe(start_early_thread, probe_early_thread, path);
  remove_scratch(dir, path);
}
END_TEST

/* ---------------------------------------------------------------- network, other processes */

static int probe_socket(const void *arg, char *msg, size_t cap) {
  (void)arg;
  int sv[2];
  return want_errno(socket(AF_UNIX, SOCK_STREAM, 0), EPERM, "socket(AF_UNIX)", msg, cap) ||
         want_errno(socket(AF_INET, SOCK_DGRAM, 0), EPERM, "socket(AF_INET)", msg, cap) ||
         want_errno(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), EPERM, "socketpair", msg, cap);
}

START_TEST(test_sandbox_socket_is_eperm) {
  check_probe(NULL, probe_socket, NULL);
}
END_TEST

static volatile sig_atomic_t got_usr1;
static void on_usr1(int sig) {
  (void)sig;
  got_usr1 = 1;
}

static int probe_kill(const void *arg, char *msg, size_t cap) {
  (void)arg;
  pid_t me = getpid(), grader = getppid();
  union sigval v = {0};
  if (want_errno(kill(grader, 0), EPERM, "kill(parent, 0)", msg, cap) ||
      want_errno(kill(0, 0), EPERM, "kill(own group, 0)", msg, cap) ||
      want_errno(kill(-1, 0), EPERM, "kill(-1, 0)", msg, cap) ||
      want_errno(syscall(__NR_tkill, gettid(), 0), EPERM, "tkill", msg, cap) ||
      want_errno(syscall(__NR_tgkill, grader, grader, 0), EPERM, "tgkill(parent)", msg, cap) ||
      want_errno(sigqueue(grader, 0, v), EPERM, "sigqueue(parent)", msg, cap) ||
      want_ok(kill(me, 0), "kill(own pid, 0)", msg, cap) ||
      want_ok(syscall(__NR_tgkill, me, gettid(), 0), "tgkill(own thread)", msg, cap))
    return 1;
  signal(SIGUSR1, on_usr1);
  if (want_ok(raise(SIGUSR1), "raise(SIGUSR1)", msg, cap)) return 1; /* abort() takes the same path */
  return got_usr1 ? 0 : say(msg, cap, "raise(SIGUSR1) delivered nothing");
}

START_TEST(test_sandbox_kill_only_own_pid) {
  check_probe(NULL, probe_kill, NULL);
}
END_TEST

static int probe_ptrace(const void *arg, char *msg, size_t cap) {
  (void)arg;
  struct iovec local = {0}, remote = {0}; /* empty: a filter that let it through would change nothing */
  return want_errno(ptrace(PTRACE_TRACEME, 0, NULL, NULL), EPERM, "ptrace(PTRACE_TRACEME)", msg, cap) ||
         want_errno(process_vm_readv(getppid(), &local, 1, &remote, 1, 0), EPERM, "process_vm_readv", msg, cap) ||
         want_errno(syscall(__NR_pidfd_open, getppid(), 0), EPERM, "pidfd_open", msg, cap);
}

START_TEST(test_sandbox_ptrace_is_eperm) {
  check_probe(NULL, probe_ptrace, NULL);
}
END_TEST

static int probe_grader_limits(const void *arg, char *msg, size_t cap) {
  (void)arg;
  struct rlimit old;
  int p[2];
  /* Only reads: the rule is on the pid, and a broken filter must not cripple the test's own process. */
  if (want_errno(prlimit(getppid(), RLIMIT_NOFILE, NULL, &old), EPERM, "prlimit(parent)", msg, cap) ||
      want_ok(prlimit(0, RLIMIT_NOFILE, NULL, &old), "prlimit(0)", msg, cap) ||
      want_ok(prlimit(getpid(), RLIMIT_NOFILE, NULL, &old), "prlimit(own pid)", msg, cap) ||
      want_ok(getrlimit(RLIMIT_STACK, &old), "getrlimit", msg, cap) || want_ok(pipe(p), "pipe", msg, cap))
    return 1;
  return want_errno(fcntl(p[0], F_SETOWN, getppid()), EPERM, "fcntl(F_SETOWN, parent)", msg, cap) ||
         want_ok(fcntl(p[0], F_GETFL), "fcntl(F_GETFL)", msg, cap) ||
         want_ok(fcntl(p[0], F_SETFD, FD_CLOEXEC), "fcntl(F_SETFD)", msg, cap) ||
         want_errno(setsid(), EPERM, "setsid", msg, cap) || want_errno(setpgid(0, 0), EPERM, "setpgid", msg, cap);
}

START_TEST(test_sandbox_grader_limits_and_group_untouchable) {
  check_probe(NULL, probe_grader_limits, NULL);
}
END_TEST

/* ---------------------------------------------------------------- the file system */

static int probe_unlink(const void *arg, char *msg, size_t cap) {
  const char *path = arg;
  char to[512];
  snprintf(to, sizeof to, "%s.moved", path);
  return want_errno(unlink(path), EPERM, "unlink", msg, cap) ||
         want_errno(unlinkat(AT_FDCWD, path, 0), EPERM, "unlinkat", msg, cap) ||
         want_errno(rename(path, to), EPERM, "rename", msg, cap) ||
         want_errno(truncate(path, 0), EPERM, "truncate", msg, cap) ||
         want_errno(chmod(path, 0777), EPERM, "chmod", msg, cap) ||
         want_errno(syscall(__NR_fchmodat2, AT_FDCWD, path, 0777, 0), EPERM, "fchmodat2", msg, cap) ||
         want_errno(utimensat(AT_FDCWD, path, NULL, 0), EPERM, "utimensat", msg, cap);
}

START_TEST(test_sandbox_unlink_leaves_file) {
  char *dir, *path = scratch_file(&dir);
  struct stat before, after;
  ck_assert_int_eq(stat(path, &before), 0);
  check_probe(NULL, probe_unlink, path);
  ck_assert_int_eq(stat(path, &after), 0); /* still there, same size, mode and time */
  ck_assert_int_eq(after.st_size, 3);
  ck_assert_int_eq(after.st_mode, before.st_mode);
  ck_assert_int_eq(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
  ck_assert_int_eq(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  remove_scratch(dir, path);
}
END_TEST

static int probe_mkdir(const void *arg, char *msg, size_t cap) {
  const char *dir = arg;
  char sub[512], node[512], lnk[512];
  snprintf(sub, sizeof sub, "%s/sub", dir);
  snprintf(node, sizeof node, "%s/node", dir);
  snprintf(lnk, sizeof lnk, "%s/link", dir);
  return want_errno(mkdir(sub, 0755), EPERM, "mkdir", msg, cap) ||
         want_errno(mkdirat(AT_FDCWD, sub, 0755), EPERM, "mkdirat", msg, cap) ||
         want_errno(mknod(node, S_IFREG | 0644, 0), EPERM, "mknod(S_IFREG)", msg, cap) ||
         want_errno(symlink("/etc", lnk), EPERM, "symlink", msg, cap) ||
         want_errno(rmdir(dir), EPERM, "rmdir", msg, cap);
}

START_TEST(test_sandbox_mkdir_is_eperm) {
  char *dir, *path = scratch_file(&dir);
  check_probe(NULL, probe_mkdir, dir);
  char *cmd;
  ck_assert_int_gt(asprintf(&cmd, "test \"$(ls -A '%s')\" = answers.txt", dir), 0);
  ck_assert_msg(system(cmd) == 0, "the folder gained or lost an entry"); /* nothing made, nothing removed */
  free(cmd);
  remove_scratch(dir, path);
}
END_TEST

/* ---------------------------------------------------------------- what the CUDA driver needs */

static int pre_pipe[2];

static int probe_pipe(const void *arg, char *msg, size_t cap) {
  (void)arg;
  char buf[8] = "";
  if (write(pre_pipe[1], "ping", 4) != 4) return say(msg, cap, "write on a pipe: %s", strerror(errno));
  if (read(pre_pipe[0], buf, 4) != 4) return say(msg, cap, "read on a pipe: %s", strerror(errno));
  if (memcmp(buf, "ping", 4) != 0) return say(msg, cap, "the pipe gave back '%s'", buf);
  struct pollfd pfd = {pre_pipe[1], POLLOUT, 0}; /* the driver's event loops poll */
  if (poll(&pfd, 1, 1000) != 1) return say(msg, cap, "poll on a pipe: %s", strerror(errno));
  return want_ok(close(pre_pipe[0]), "close", msg, cap);
}

START_TEST(test_sandbox_pipe_made_before_still_works) {
  ck_assert_int_eq(pipe(pre_pipe), 0);
  check_probe(NULL, probe_pipe, NULL);
  close(pre_pipe[0]), close(pre_pipe[1]);
}
END_TEST

static int probe_mmap(const void *arg, char *msg, size_t cap) {
  int fd = *(const int *)arg;
  size_t len = 1 << 20;
  unsigned char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (a == MAP_FAILED) return say(msg, cap, "anonymous mmap: %s", strerror(errno));
  memset(a, 0xA5, len);
  if (want_ok(mprotect(a, len, PROT_READ), "mprotect", msg, cap) ||
      want_ok(madvise(a, len, MADV_DONTNEED), "madvise", msg, cap) || want_ok(munmap(a, len), "munmap", msg, cap))
    return 1;
  unsigned char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) return say(msg, cap, "mmap of a memfd: %s", strerror(errno));
  memset(m, 0x5A, 4096); /* the parent reads it back */
  return want_ok(munmap(m, 4096), "munmap", msg, cap) || want_ok(ftruncate(fd, 8192), "ftruncate", msg, cap);
}

START_TEST(test_sandbox_mmap_anonymous_and_memfd_still_work) {
  int fd = memfd_create("sandbox-test", MFD_CLOEXEC);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(ftruncate(fd, 4096), 0);
  check_probe(NULL, probe_mmap, &fd);
  unsigned char buf[4096];
  ck_assert_int_eq(pread(fd, buf, sizeof buf, 0), (ssize_t)sizeof buf);
  for (size_t i = 0; i < sizeof buf; i++) ck_assert_int_eq(buf[i], 0x5A);
  close(fd);
}
END_TEST

/* ---------------------------------------------------------------- the sealed image, the guarded descriptors */

/* A page of state as the runner keeps it (runner_loop.c's `sealed`): in the program's bss,
 * 64 KiB-aligned, made read-only before the sandbox, then guarded by the filter. */
static union {
  long value;
  unsigned char page[65536];
} seal_me __attribute__((aligned(65536)));
static int guarded_pipe[2];
static uintptr_t image_lo, image_hi;

static int pre_seal_and_guard(const void *arg, char *msg, size_t cap) {
  (void)arg;
  sandbox_guard g = {.n_fds = 2};
  g.fds[0] = guarded_pipe[0], g.fds[1] = guarded_pipe[1];
  seal_me.value = 42;
  if (sandbox_image(&seal_me, sizeof seal_me, &g.lo, &g.hi, msg, cap) || sandbox_seal(&seal_me, sizeof seal_me, msg, cap) ||
      sandbox_enter_guarded(&g, msg, cap))
    return 1;
  image_lo = g.lo, image_hi = g.hi;
  return 0;
}

static int probe_sealed_memory(const void *arg, char *msg, size_t cap) {
  (void)arg;
  void *p = &seal_me, *code = (void *)((uintptr_t)&probe_sealed_memory & ~(uintptr_t)4095);
  void *below = (void *)(image_lo - 4096), *last = (void *)(image_hi - 4096);
  void *anon = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (anon == MAP_FAILED) return say(msg, cap, "anonymous mmap: %s", strerror(errno));
  void *fixed = mmap(p, 4096, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (want_errno(mprotect(p, 4096, PROT_READ | PROT_WRITE), EPERM, "mprotect(sealed page, RW)", msg, cap) ||
      want_errno(mprotect(code, 4096, PROT_READ | PROT_WRITE | PROT_EXEC), EPERM, "mprotect(code, RWX)", msg, cap) ||
      want_errno(mprotect(last, 4096, PROT_READ | PROT_WRITE | PROT_EXEC), EPERM, "mprotect(the image's last page)", msg, cap) ||
      want_errno(mprotect(below, 8192, PROT_READ | PROT_WRITE), EPERM, "mprotect(from below the image into it)", msg, cap) ||
      want_errno(mprotect(below, (size_t)1 << 40, PROT_READ | PROT_WRITE), EPERM, "mprotect(1 TiB from below the image)", msg, cap) ||
      want_errno(syscall(__NR_pkey_mprotect, p, 4096, PROT_READ | PROT_WRITE, 0), EPERM, "pkey_mprotect", msg, cap) ||
      want_errno(munmap(p, 4096), EPERM, "munmap(sealed page)", msg, cap) ||
      want_errno(madvise(p, 4096, MADV_DONTNEED), EPERM, "madvise(sealed page, MADV_DONTNEED)", msg, cap) ||
      want_errno(fixed == MAP_FAILED ? -1 : 0, EPERM, "mmap(MAP_FIXED over the sealed page)", msg, cap) ||
      want_errno((long)mremap(p, 4096, 8192, MREMAP_MAYMOVE), EPERM, "mremap(the sealed page)", msg, cap) ||
      want_errno((long)mremap(anon, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, p), EPERM, "mremap(onto the sealed page)", msg, cap))
    return 1;
  /* A length whose low half carries into the high one: the filter's 64-bit end must carry too. */
  size_t carry = ((size_t)1 << 32) - ((uintptr_t)below & 0xffffffffu) + 8192;
  if (want_errno(mprotect(below, carry, PROT_READ | PROT_WRITE), EPERM, "mprotect(a length that carries)", msg, cap))
    return 1;
  /* The pages just outside the image are not the filter's: the kernel answers (0, or ENOMEM where
   * nothing is mapped), never EPERM. */
  errno = 0;
  if (mprotect(below, 4096, PROT_READ | PROT_WRITE) && errno == EPERM) return say(msg, cap, "mprotect of the page below the image: EPERM");
  errno = 0;
  if (mprotect((void *)image_hi, 4096, PROT_READ | PROT_WRITE) && errno == EPERM) return say(msg, cap, "mprotect of the page above the image: EPERM");
  if (seal_me.value != 42) return say(msg, cap, "the sealed value changed to %ld", seal_me.value);
  /* Elsewhere the driver's calls work: its own mappings, moved, reprotected, advised, unmapped. */
  void *moved = mremap(anon, 8192, 16384, MREMAP_MAYMOVE);
  if (moved == MAP_FAILED) return say(msg, cap, "mremap of an anonymous mapping: %s", strerror(errno));
  void *over = mmap(moved, 4096, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (over == MAP_FAILED) return say(msg, cap, "mmap(MAP_FIXED) over its own mapping: %s", strerror(errno));
  return want_ok(mprotect(moved, 16384, PROT_READ), "mprotect of its own mapping", msg, cap) ||
         want_ok(madvise(moved, 16384, MADV_DONTNEED), "madvise of its own mapping", msg, cap) ||
         want_ok(munmap(moved, 16384), "munmap of its own mapping", msg, cap);
}

START_TEST(test_sandbox_sealed_image_stays_read_only) {
  ck_assert_int_eq(pipe(guarded_pipe), 0);
  check_probe(pre_seal_and_guard, probe_sealed_memory, NULL);
  close(guarded_pipe[0]), close(guarded_pipe[1]);
}
END_TEST

static int probe_guarded_fds(const void *arg, char *msg, size_t cap) {
  (void)arg;
  int other[2];
  char buf[4] = "";
  if (pipe(other)) return say(msg, cap, "pipe: %s", strerror(errno));
  if (want_errno(close(guarded_pipe[0]), EPERM, "close(guarded)", msg, cap) ||
      want_errno(dup2(other[0], guarded_pipe[0]), EPERM, "dup2(other, guarded)", msg, cap) ||
      want_errno(dup3(other[1], guarded_pipe[1], O_CLOEXEC), EPERM, "dup3(other, guarded)", msg, cap) ||
      want_errno(syscall(__NR_close_range, guarded_pipe[0], guarded_pipe[0], 0), EPERM, "close_range(guarded)", msg, cap) ||
      want_errno(syscall(__NR_close_range, 3, ~0u, 0), EPERM, "close_range(3, ~0)", msg, cap))
    return 1;
  /* Every other descriptor as before; the guarded ones still work. */
  int copy = dup(guarded_pipe[1]);
  if (want_ok(copy, "dup(guarded)", msg, cap) || want_ok(dup2(other[0], other[1]), "dup2(other, other)", msg, cap) ||
      want_ok(close(other[0]), "close(other)", msg, cap) || want_ok(close(copy), "close(a copy of guarded)", msg, cap))
    return 1;
  if (write(guarded_pipe[1], "ok", 2) != 2 || read(guarded_pipe[0], buf, 2) != 2 || memcmp(buf, "ok", 2))
    return say(msg, cap, "the guarded pipe no longer carries bytes");
  return 0;
}

START_TEST(test_sandbox_protocol_fds_cannot_be_replaced) {
  ck_assert_int_eq(pipe(guarded_pipe), 0);
  check_probe(pre_seal_and_guard, probe_guarded_fds, NULL);
  close(guarded_pipe[0]), close(guarded_pipe[1]);
}
END_TEST

/* The Seccomp_filters line of /proc/PID/status (-1 without one). */
static int filters_of(const char *path) {
  char line[256];
  int n = -1;
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "Seccomp_filters:", 16)) n = atoi(line + 16);
  fclose(f);
  return n;
}

/* What the judge reads from outside (confinement.c): a child that entered both stages has
 * WIRE_SANDBOX_FILTERS more filters than its parent. */
START_TEST(test_sandbox_stages_are_counted_in_proc) {
  int ready[2], hold[2];
  ck_assert_int_eq(pipe(ready), 0);
  ck_assert_int_eq(pipe(hold), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    char m[300], c;
    int ok = sandbox_enter(m, sizeof m) == 0 && sandbox_close_threads(m, sizeof m) == 0;
    if (write(ready[1], ok ? "y" : "n", 1) != 1) _exit(1);
    _exit(read(hold[0], &c, 1) == 1 ? 0 : 1);
  }
  char c = 0, path[64];
  ck_assert_int_eq(read(ready[0], &c, 1), 1);
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  int mine = filters_of("/proc/self/status"), theirs = filters_of(path);
  ck_assert_int_eq(write(hold[1], "x", 1), 1);
  int st;
  ck_assert_int_eq(waitpid(pid, &st, 0), pid);
  ck_assert_msg(c == 'y', "the child could not enter the sandbox");
  ck_assert_msg(mine >= 0, "this kernel's /proc/PID/status counts no filters (Linux 5.9+)");
  ck_assert_msg(theirs == mine + WIRE_SANDBOX_FILTERS, "the sandboxed child has %d filters; want %d + %d", theirs, mine,
                WIRE_SANDBOX_FILTERS);
}
END_TEST

/* ---------------------------------------------------------------- a profiled runner (profiling.h) */

static char profiled[64];

static int pre_profiled(const void *arg, char *msg, size_t cap) {
  (void)arg;
  sandbox_guard g = {0};
  if ((g.profiling_abi = sandbox_profiling_files(profiled, msg, cap)) < 0) return 1;
  if (sandbox_image(&seal_me, sizeof seal_me, &g.lo, &g.hi, msg, cap) || sandbox_enter_guarded(&g, msg, cap)) return 1;
  pre_entered = 1;
  return 0;
}

static int probe_profiled(const void *arg, char *msg, size_t cap) {
  const char *path = arg;
  char mine[128], theirs[600], node[128];
  snprintf(mine, sizeof mine, "%s/lock", profiled);
  snprintf(node, sizeof node, "%s/node", profiled);
  snprintf(theirs, sizeof theirs, "%s.new", path);
  int fd = open(path, O_RDONLY);
  if (want_ok(fd, "open(a file elsewhere, O_RDONLY)", msg, cap)) return 1;
  close(fd);
  if (want_errno(open(path, O_WRONLY), EACCES, "open(a file elsewhere, O_WRONLY)", msg, cap) ||
      want_errno(open(theirs, O_CREAT | O_WRONLY, 0644), EACCES, "open(a new file elsewhere)", msg, cap) ||
      want_errno(unlink(path), EACCES, "unlink(a file elsewhere)", msg, cap))
    return 1;
  fd = open(mine, O_CREAT | O_RDWR, 0644);
  if (want_ok(fd, "open(a new file in the profiler's folder)", msg, cap) || want_ok(write(fd, "x", 1), "write it", msg, cap))
    return 1;
  close(fd);
  char *argv[] = {"/bin/true", NULL}, *envp[] = {NULL};
  return want_ok(unlink(mine), "unlink(it)", msg, cap) ||
         want_errno(mknod(node, S_IFREG | 0644, 0), EPERM, "mknod (denied whatever the path)", msg, cap) ||
         want_errno(chmod(path, 0777), EPERM, "chmod (Landlock does not see it: still denied)", msg, cap) ||
         want_errno(execve("/bin/true", argv, envp), EPERM, "execve", msg, cap) ||
         want_errno(socket(AF_UNIX, SOCK_STREAM, 0), EPERM, "socket", msg, cap);
}

/* Under ncu (the metric check): files may be read anywhere and written only in the profiler's
 * folder; every other rule holds. Where the kernel has no Landlock, the runner must refuse to
 * be profiled, saying why, rather than run with open files. */
START_TEST(test_sandbox_profiled_writes_only_its_folder) {
  char *dir, *path = scratch_file(&dir);
  snprintf(profiled, sizeof profiled, "/tmp/sandbox-profiled-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(profiled));
  long abi = syscall(444 /* landlock_create_ruleset */, NULL, 0, 1 /* LANDLOCK_CREATE_RULESET_VERSION */);
  if (abi >= 1) {
    check_probe(pre_profiled, probe_profiled, path);
  } else {
    char msg[300] = "";
    ck_assert_int_lt(sandbox_profiling_files(profiled, msg, sizeof msg), 0);
    ck_assert_msg(strstr(msg, "profiling needs Landlock"), "no Landlock, and the reason is: %s", msg);
  }
  struct stat st;
  ck_assert_msg(stat(path, &st) == 0 && st.st_size == 3, "the file elsewhere changed");
  ck_assert_int_eq(rmdir(profiled), 0); /* empty: the probe's file is gone, no node was made */
  remove_scratch(dir, path);
}
END_TEST

/* ---------------------------------------------------------------- other ABIs */

#if defined(__x86_64__)
static int probe_x32(const void *arg, char *msg, size_t cap) {
  (void)arg;
  syscall(__X32_SYSCALL_BIT + __NR_getpid); /* x32's getpid: rules keyed on x86_64 numbers miss it */
  return say(msg, cap, "an x32 syscall returned");
}

static int probe_int80(const void *arg, char *msg, size_t cap) {
  (void)arg;
  long r = 20; /* i386's getpid */
  __asm__ volatile("int $0x80" : "+a"(r)::"memory");
  return say(msg, cap, "an i386 syscall (int 0x80) returned %ld", r);
}

START_TEST(test_sandbox_other_abi_kills) {
  char msg[1024];
  int st = sandboxed(NULL, probe_x32, NULL, msg, sizeof msg);
  ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS, "x32: status 0x%x, %s", st, msg);
  /* A kernel without the i386 entry point faults the int 0x80 instead: no way through either. */
  st = sandboxed(NULL, probe_int80, NULL, msg, sizeof msg);
  ck_assert_msg(WIFSIGNALED(st) && (WTERMSIG(st) == SIGSYS || WTERMSIG(st) == SIGSEGV), "i386: status 0x%x, %s",
                st, msg);
}
END_TEST
#endif

/* ---------------------------------------------------------------- the table */

START_TEST(test_sandbox_denied_rows_have_reasons) {
  ck_assert_int_gt(sandbox_n_denied, 0);
  for (int i = 0; i < sandbox_n_denied; i++) {
    const sandbox_rule *r = &sandbox_denied[i];
    ck_assert_msg(r->name && r->name[0], "row %d has no name", i);
    ck_assert_msg(r->why && r->why[0], "%s has no reason", r->name);
    ck_assert_msg(r->nr >= 0, "%s has number %ld", r->name, r->nr);
    for (int j = 0; j < i; j++) ck_assert_msg(sandbox_denied[j].nr != r->nr, "%s is listed twice", r->name);
  }
}
END_TEST

static int denied(const char *name) {
  for (int i = 0; i < sandbox_n_denied; i++)
    if (strcmp(sandbox_denied[i].name, name) == 0) return 1;
  return 0;
}

START_TEST(test_sandbox_denied_covers_the_policy) {
  /* Those every architecture has; the rest (open, fork, unlink, ...) exist on x86_64 only. */
  static const char *const must[] = {
      "openat", "openat2", "open_by_handle_at", "name_to_handle_at", "execve", "execveat", "clone", "clone3",
      "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "ptrace", "process_vm_readv",
      "process_vm_writev", "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "kill", "tkill", "tgkill",
      "unlinkat", "renameat2", "mkdirat", "linkat", "symlinkat", "fchmodat", "fchownat", "truncate", "mount",
      "umount2", "chroot", "pivot_root", "unshare", "setns", "setsid", "setpgid", "io_uring_setup",
      "io_uring_enter", "io_uring_register", "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key",
      "request_key"};
  for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) ck_assert_msg(denied(must[i]), "%s is not denied", must[i]);
#if defined(__x86_64__)
  static const char *const x86[] = {"open",  "creat", "fork",  "vfork",   "unlink", "rename", "renameat",
                                    "mkdir", "rmdir", "link",  "symlink", "chmod",  "chown",  "lchown"};
  for (size_t i = 0; i < sizeof x86 / sizeof x86[0]; i++) ck_assert_msg(denied(x86[i]), "%s is not denied", x86[i]);
#endif
}
END_TEST

Suite *sandbox_suite(void) {
  Suite *s = suite_create("sandbox");
  TCase *t = tcase_create("seccomp");
  tcase_set_timeout(t, 30);
  tcase_add_test(t, test_sandbox_open_of_readable_file_is_eperm);
  tcase_add_test(t, test_sandbox_fopen_fails);
  tcase_add_test(t, test_sandbox_execve_is_eperm);
  tcase_add_test(t, test_sandbox_fork_is_eperm);
  tcase_add_test(t, test_sandbox_threads_still_run);
  tcase_add_test(t, test_sandbox_closed_to_threads);
  tcase_add_test(t, test_sandbox_clone3_is_enosys);
  tcase_add_test(t, test_sandbox_covers_threads_started_before);
  tcase_add_test(t, test_sandbox_socket_is_eperm);
  tcase_add_test(t, test_sandbox_kill_only_own_pid);
  tcase_add_test(t, test_sandbox_ptrace_is_eperm);
  tcase_add_test(t, test_sandbox_grader_limits_and_group_untouchable);
  tcase_add_test(t, test_sandbox_unlink_leaves_file);
  tcase_add_test(t, test_sandbox_mkdir_is_eperm);
  tcase_add_test(t, test_sandbox_pipe_made_before_still_works);
  tcase_add_test(t, test_sandbox_mmap_anonymous_and_memfd_still_work);
  tcase_add_test(t, test_sandbox_sealed_image_stays_read_only);
  tcase_add_test(t, test_sandbox_protocol_fds_cannot_be_replaced);
  tcase_add_test(t, test_sandbox_stages_are_counted_in_proc);
  tcase_add_test(t, test_sandbox_profiled_writes_only_its_folder);
#if defined(__x86_64__)
  tcase_add_test(t, test_sandbox_other_abi_kills);
#endif
  tcase_add_test(t, test_sandbox_denied_rows_have_reasons);
  tcase_add_test(t, test_sandbox_denied_covers_the_policy);
  suite_add_tcase(s, t);
  return s;
}
