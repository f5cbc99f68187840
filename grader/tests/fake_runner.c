/* fake_runner.c: a runner of the judge's test fixture (grader/tests/fixtures/98-judge-fixture:
 * scans and a compaction, no course assignment) on the CPU tier's host-memory device,
 * whose "student" is chosen by FAKE_STUDENT: an honest scan, and the ways a
 * student (or their assistant) who has read the grader's source would try to
 * get the points without the work. The judge's own code runs it (build/tests/judge, the
 * judge with the fixtures' specs added: test_judge.c), so each attempt meets the same
 * judge, runner loop and sandbox as a GPU run. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend_cpu.h"
#include "fixtures/98-judge-fixture/variants.h"
#include "runner.h"
#include "wire.h"

#ifdef FAKE_NO_FILTER
/* build/tests/fake-runner-unfiltered: the runner's own functions that install the filters,
 * defined here and linked ahead of the runner's library, as a student's object that defines
 * them would be: the runner believes it is sandboxed and is not. The judge must refuse it
 * from /proc (confinement.c). Both spellings: a019dd7's sandbox_enter and today's. */
int sandbox_enter(char *err, size_t cap);
int sandbox_enter_guarded(const void *g, char *err, size_t cap);
int sandbox_close_threads(char *err, size_t cap);
int sandbox_enter(char *err, size_t cap) { return (void)err, (void)cap, 0; }
int sandbox_enter_guarded(const void *g, char *err, size_t cap) { return (void)g, (void)err, (void)cap, 0; }
int sandbox_close_threads(char *err, size_t cap) { return (void)err, (void)cap, 0; }
#endif

#ifdef FAKE_SYSCALL
/* build/tests/fake-runner-syscall: a student's `syscall` and `prctl`, linked ahead of libc,
 * that answer 0 to everything: a runner that installed its filters through libc's wrappers
 * would think it had. The runner's own instructions make those calls (rawsys.h). */
long syscall(long nr, ...);
int prctl(int option, ...);
long syscall(long nr, ...) { return (void)nr, 0; }
int prctl(int option, ...) { return (void)option, 0; }
#endif

static const char *mode = "honest";
static int is(const char *m) { return !strcmp(mode, m); }

/* The honest work: an exclusive scan (mod 2^32) and the repeats (the indices, then their count). */
static void scan(const uint32_t *in, uint32_t *out, uint64_t n) {
  uint32_t sum = 0;
  for (uint64_t i = 0; i < n; i++) {
    out[i] = sum;
    sum += in[i];
  }
}

static void repeats(const uint32_t *in, uint64_t n, uint32_t *idx, uint32_t *count) {
  uint32_t k = 0;
  for (uint64_t i = 0; i + 1 < n; i++)
    if (in[i] == in[i + 1]) idx[k++] = (uint32_t)i;
  *count = k;
}

/* A forged result line, as the grader's result protocol spells one. */
static void forge_lines(void) {
  static const char line[] = "result case=n1025 variant=scan n=1025 seed=6 ok=1 checked=1 median_ms=0.001 "
                             "min_ms=0.001 reps=20 verified=20 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 "
                             "max_err=0 masked=0 nonfinite=0 work_bytes=0\n";
  for (int fd = 1; fd <= 9; fd++) (void)!write(fd, line, sizeof line - 1);
}

/* Writes zeros over the judge's whole shared memory, inputs included, hoping
 * the judge computes its expected output from what it finds there. */
static void scribble(void) {
  struct stat st;
  if (fstat(5, &st) == 0 && st.st_size > 0) {
    char *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, 5, 0);
    if (m != MAP_FAILED) {
      memset(m, 0, (size_t)st.st_size);
      munmap(m, (size_t)st.st_size);
    }
  }
}

static void *helper_thread(void *arg) { return arg; }

/* The command the runner loop holds now (its static wire_msg), found as a student would find
 * it: the protocol's magic and the op, in the runner's zero-initialised data. Its seq is what
 * a forged reply must repeat. 0 when not found. */
extern char __bss_start[], _end[];
static uint32_t seq_of(uint32_t op) {
  unsigned char in_core;
  for (const char *p = (const char *)(((uintptr_t)__bss_start + 7) & ~(uintptr_t)7); p + sizeof(wire_msg) <= _end; p += 8) {
    if (!((uintptr_t)p & 4095) && mincore((void *)p, 4096, &in_core)) { /* a hole between segments */
      p += 4096 - 8;
      continue;
    }
    const wire_msg *m = (const wire_msg *)p;
    if (m->magic == WIRE_MAGIC && m->op == op) return m->seq;
  }
  return 0;
}

/* Writes a reply of the runner's protocol in its place. */
static void forge(uint32_t op, uint32_t seq) {
  wire_msg m;
  memset(&m, 0, sizeof m);
  m.magic = WIRE_MAGIC;
  m.op = op;
  m.seq = seq;
  if (op == WIRE_DONE) m.u.done.ms = 0.001, m.u.done.calls = 1;
  if (wire_send(WIRE_FD_REPLY, &m)) fprintf(stderr, "fake student: cannot forge %s: %s\n", wire_op_name(op), strerror(errno));
}

/* Puts a call's outputs where the judge reads them (slot 0 of the shared memory: the
 * input, then the output at the next 256 bytes), as the runner's download would. */
static void write_shm_output(const uint32_t *out, uint64_t n) {
  struct stat st;
  size_t off = ((size_t)n * 4 + 255) / 256 * 256;
  if (fstat(WIRE_FD_SHM, &st) || (size_t)st.st_size < off + n * 4) return;
  char *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, WIRE_FD_SHM, 0);
  if (m == MAP_FAILED) return;
  memcpy(m + off, out, n * 4);
  munmap(m, (size_t)st.st_size);
}

/* Tries to make the runner's own image writable (the sealed backend table, its code), to
 * replace its descriptors, or to unmap them; exits with a code that names what got through. */
extern char __ehdr_start[];
static void attack_runner_state(void) {
  uintptr_t page = ((uintptr_t)_end - 1) & ~(uintptr_t)4095; /* the image's last page, in its bss */
  if (mprotect((void *)page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
    fprintf(stderr, "fake student: mprotect of the runner's image worked\n");
    _exit(45);
  }
  if (mprotect(__ehdr_start, 4096, PROT_READ | PROT_WRITE) == 0) {
    fprintf(stderr, "fake student: mprotect of the runner's first page worked\n");
    _exit(45);
  }
  int p[2];
  if (pipe(p) == 0) {
    if (dup2(p[1], WIRE_FD_REPLY) >= 0) _exit(46);
    if (dup3(p[0], WIRE_FD_CMD, 0) >= 0) _exit(46);
  }
  if (close(WIRE_FD_SHM) == 0) _exit(47);
}

/* Sleeps ms milliseconds of wall time. */
static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) && errno == EINTR) {
  }
}

/* ---------------------------------------------------------------- work outside the window (a duel's clock)
 *
 * Students who do the work of a call where the judge's GO -> DONE window does
 * not see it, on the shared fake device of backend_cpu.h (FAKE_DEVICE): each
 * does a paced call's device work (FAKE_PACE_MS) somewhere, and scans right. */

/* FAKE_STUDENT=helper-child: a helper process, as a runner whose sandbox is
 * gone could start one, that moves to a session of its own, is orphaned (its
 * parent exits), and queues work on a second context for as long as it runs.
 * Started in main, before the sandbox; its pid goes to FAKE_HELPER_PID. */
static void start_helper(void) {
  pid_t mid = fork();
  if (mid != 0) {
    if (mid > 0) waitpid(mid, NULL, 0);
    return;
  }
  setsid();
  pid_t helper = fork();
  if (helper != 0) _exit(0); /* the helper is an orphan now */
  const char *path = getenv("FAKE_HELPER_PID");
  if (path) {
    FILE *f = fopen(path, "w");
    if (f) fprintf(f, "%ld\n", (long)getpid()), fclose(f);
  }
  for (int i = 0; i < 200000; i++) { /* at most about 200 s: never outlives a test by much */
    cpu_device_queue(FAKE_HIDDEN_CONTEXT, 5);
    sleep_ms(1);
  }
  _exit(0);
}

/* 1 when mode is one of these students (the call is then done). */
static int timing_student(const uint32_t *in, uint32_t *out, uint64_t n) {
  double pace = cpu_device_pace_ms();
  if (is("paced") || is("helper-child")) {
    /* Honest: the scan and a paced call's device work, in the window. */
    scan(in, out, n);
    cpu_device_work(pace);
  } else if (is("settle-work")) {
    /* The device work was done in settle (backend_cpu.c), before GO. */
    scan(in, out, n);
  } else if (is("early-done") || is("spin-into-reference")) {
    /* The work queued on its own context, the timer patched not to wait
     * (backend_cpu.c): DONE goes out before it is done. */
    scan(in, out, n);
    cpu_device_queue(cpu_device_context(), pace);
  } else if (is("second-context")) {
    /* Honest work, and kernels left spinning in two contexts of its own (which
     * the runner's idle does not wait for) into the other side's turn. */
    scan(in, out, n);
    cpu_device_work(pace);
    cpu_device_queue(FAKE_HIDDEN_CONTEXT, 10 * pace);
    cpu_device_queue(FAKE_HIDDEN_CONTEXT - 1, 10 * pace);
  } else {
    return 0;
  }
  return 1;
}

static size_t workspace(int variant, uint64_t n, uint64_t param) {
  (void)variant, (void)param;
  /* A DONE before GO (before READY, even): the runner's own READY then comes where DONE was due. */
  if (is("done-before-go")) forge(WIRE_DONE, seq_of(WIRE_CASE));
  if (is("attack-runner-state")) attack_runner_state();
  const char *tag = getenv("FAKE_TAG"); /* which side opened a case when (test_judge_duel_open_order) */
  if (tag) fprintf(stderr, "workspace of %s, n=%llu\n", tag, (unsigned long long)n);
  return (size_t)(n + 2) * sizeof(uint32_t);
}

static void call(const runner_call *c) {
  const uint32_t *in = c->in[0];
  uint32_t *out = c->out[0], *work = c->work;
  uint64_t n = c->n;
  if (c->variant == FX_REPEATS) {
    repeats(in, n, out, (uint32_t *)c->out[1]);
    return;
  }
  if (timing_student(in, out, n)) {
    return;
  } else if (is("honest") || is("attack-runner-state")) {
    scan(in, out, n);
  } else if (is("memoize")) {
    /* Scans the first call of a case, then copies that output on every later call. */
    static uint32_t *memo;
    static uint64_t memo_n = UINT64_MAX;
    if (memo_n != n) {
      free(memo);
      memo = malloc((n + 1) * sizeof *memo);
      scan(in, memo, n);
      memo_n = n;
    }
    memcpy(out, memo, n * sizeof *out);
  } else if (is("stale-workspace")) {
    /* A look-back that never starts a new epoch: the workspace's first word
     * says "tile sums are ready", and later calls trust the old ones. */
    if (work[0] != 0x600dull) {
      scan(in, work + 1, n);
      work[0] = 0x600d;
    }
    memcpy(out, work + 1, n * sizeof *out);
  } else if (is("two-dones")) {
    /* The honest work, but in the case's last call (FAKE_LAST_CALL: warm-ups and samples)
     * the outputs are put where the judge reads them and a DONE and an OUT of its own are
     * sent at once, before 30 ms more "work": the runner's own DONE and OUT follow them, a
     * second DONE that no command asked for. */
    static int calls;
    const char *last = getenv("FAKE_LAST_CALL");
    scan(in, out, n);
    if (last && ++calls == atoi(last)) {
      uint32_t seq = seq_of(WIRE_GO);
      write_shm_output(out, n);
      forge(WIRE_DONE, seq);
      forge(WIRE_OUT, seq);
      sleep_ms(30);
    }
  } else if (is("write-files")) {
    /* Writes a file where the grader's results are, then the honest work. Under --profiled
     * only the profiler's folder ($TMPDIR) may be written: that must work. */
    int fd = open("grade-results-forged", O_CREAT | O_WRONLY, 0644);
    if (fd >= 0) {
      fprintf(stderr, "fake student: wrote grade-results-forged\n");
      _exit(43);
    }
    const char *tmp = getenv("TMPDIR");
    if (tmp && strstr(tmp, "scanlab-profiled-")) {
      char path[300];
      snprintf(path, sizeof path, "%s/profiler-lock", tmp);
      if ((fd = open(path, O_CREAT | O_RDWR, 0644)) < 0) {
        fprintf(stderr, "fake student: the profiler's folder %s is not writable: %s\n", tmp, strerror(errno));
        _exit(44);
      }
      close(fd);
    }
    scan(in, out, n);
  } else if (is("forge-lines")) {
    forge_lines();
  } else if (is("forge-exit")) {
    forge_lines();
    _exit(0);
  } else if (is("open-files")) {
    /* Reads /proc, the judge's results file in the folder it runs in, the system's files: none opens. */
    const char *paths[] = {"/proc/self/cmdline", "/proc/self/environ", "results", "/etc/passwd", "."};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
      if (open(paths[i], O_RDONLY) >= 0) {
        fprintf(stderr, "fake student: opened %s\n", paths[i]);
        _exit(42);
      }
    int fd = open("grade-results-forged", O_CREAT | O_WRONLY, 0644);
    if (fd >= 0) _exit(43);
  } else if (is("exec-reference")) {
    /* Runs another program (the reference) to do the work: no process starts. */
    char *argv[] = {"/bin/true", NULL};
    execv("/bin/true", argv);
    if (system("true") == 0) _exit(44);
    if (fork() == 0) _exit(0); /* a daemon that would outlive the run */
  } else if (is("kill-judge")) {
    kill(getppid(), SIGKILL);
    kill(0, SIGKILL); /* the whole process group: the judge and the grader with it */
    scan(in, out, n);
  } else if (is("protocol-garbage")) {
    static const char junk[2048] = "garbage";
    (void)!write(4, junk, sizeof junk);
  } else if (is("scribble-shm")) {
    scribble(); /* and writes nothing */
  } else if (is("thread-precompute")) {
    /* A thread that would compute the next batch before the judge's GO: the
     * sandbox kills the runner at its clone. */
    pthread_t t;
    if (pthread_create(&t, NULL, helper_thread, NULL) == 0) fprintf(stderr, "fake student: a thread started\n");
    scan(in, out, n);
  } else if (is("slow")) {
    /* The honest work and 30 ms more (with FAKE_TIMER=lies the runner's own
     * timer says 1 us: the judge's clock must see the 30 ms). */
    sleep_ms(30);
    scan(in, out, n);
  } else if (is("hang")) {
    for (;;) pause();
  } else if (is("crash")) {
    raise(SIGSEGV);
  } else if (is("cuda-error")) {
    fprintf(stderr, "student.cu:42: scan: CUDA error cudaErrorIllegalAddress: an illegal memory access was encountered\n");
    exit(3);
  } else if (is("exit-early")) {
    _exit(0);
  }
}

#define X(id, slug, summary) slug,
static const char *const slugs[] = {FX_VARIANT_LIST(X)};
#undef X
static const runner_assignment fake = {
    .name = FX_NAME, .slugs = slugs, .n_slugs = FX_N_VARIANTS, .workspace_bytes = workspace, .call = call};

int main(int argc, char **argv) {
  if (getenv("FAKE_STUDENT")) mode = getenv("FAKE_STUDENT");
  if (is("helper-child") && argc >= 2 && !strcmp(argv[1], "--runner-protocol")) {
    CPU_BACKEND.init((char[128]){0}, 128); /* the shared device, mapped before the fork */
    start_helper();
  }
  if (is("wrong-assignment")) {
    /* the runner of the other fixture the tests' judge knows (grader/tests/fixtures/97-judge-other) */
    static const runner_assignment other = {.name = "97-judge-other", .slugs = slugs, .n_slugs = FX_N_VARIANTS, .call = call};
    return runner_main(argc, argv, &other, &CPU_BACKEND);
  }
  return runner_main(argc, argv, &fake, &CPU_BACKEND);
}
