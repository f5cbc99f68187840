/* runner_loop.c: the runner's side of the judge-runner protocol (runner_loop.h).
 *
 * Set-up first, while only course code has run: the device context (modules
 * loaded eagerly), the HELLO, then the sandbox. The student's code runs only
 * after that: its workspace function when a case opens, its entry point in RUN. */
#include "runner_loop.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sys/resource.h>
#include <sys/syscall.h>

#include "profiling.h"
#include "rawsys.h"
#include "sandbox.h"
#include "wire.h"

static const int POISON_BYTE = 0xA5; /* 0xA5A5A5A5 in every output no call wrote */
static const size_t PIN_MAX_BYTES = (size_t)1 << 30, PIN_MAX_BATCH_BYTES = (size_t)4 << 30;
static const double GO_SPIN_MS = 50; /* how long the runner polls for GO before it sleeps */

/* What the runner must trust once the student's code may run, on a page of its own that is
 * made read-only before the first student call (sandbox_seal) and that the filter keeps
 * read-only (guard.h): copies of the device backend's table (a redirected `settle` or
 * `timer_stop_ms` would run the student's code between the upload and GO, or end the
 * window early) and of the assignment's table (the workspace function and the entry
 * point), and the runner's pid. They are reached as `sealed.s.backend`, at an address fixed in
 * the sealed code, never through a writable pointer. The rest of the runner's state (the
 * open case, a batch's calls) is the judge's to check: a student who rewrites it gets
 * wrong outputs or a broken protocol. The protocol's descriptors are numbers in the code
 * (wire.h), and the filter refuses to close or replace them. */
typedef struct sealed_state {
  runner_backend backend;
  runner_assignment runner;
  long pid;
} sealed_state;
enum { SEAL_BYTES = 65536 }; /* the largest page size of x86_64 and aarch64 kernels */
static union {
  sealed_state s;
  unsigned char page[SEAL_BYTES];
} sealed __attribute__((aligned(SEAL_BYTES)));
#define asg (&sealed.s.runner)
#define dev (&sealed.s.backend)
static char hint[200];

const char *runner_error_hint(void) { return hint; }

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s runner: ", asg->name ? asg->name : "");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(code);
}

/* ---------------------------------------------------------------- one case */

typedef struct open_case {
  int open;
  wire_case c;
  char *shm;        /* the judge's shared memory, mapped */
  size_t shm_bytes;
  int shm_pinned;
  void *in[WIRE_MAX_BATCH][WIRE_MAX_BUFS], *out[WIRE_MAX_BATCH][WIRE_MAX_BUFS];
  void *work;
  size_t work_bytes;
} open_case;

static open_case cur;

static void *dev_alloc(uint64_t bytes, const char *what) {
  void *p = dev->alloc(bytes ? (size_t)bytes : 4);
  if (!p) die(3, "not enough device memory for %s: %" PRIu64 " bytes wanted", what, bytes);
  return p;
}

static void case_close(void) {
  if (!cur.open) return;
  for (uint32_t k = 0; k < cur.c.batch; k++) {
    for (uint32_t i = 0; i < cur.c.n_in; i++) dev->release(cur.in[k][i]);
    for (uint32_t i = 0; i < cur.c.n_out; i++) dev->release(cur.out[k][i]);
  }
  if (cur.work) dev->release(cur.work);
  cur.work = NULL;
  cur.open = 0;
  hint[0] = 0;
}

static void map_shm(uint64_t bytes, uint32_t batch) {
  if (cur.shm && cur.shm_bytes == bytes) return;
  if (cur.shm_pinned) dev->unpin(cur.shm);
  if (cur.shm) munmap(cur.shm, cur.shm_bytes);
  cur.shm = NULL;
  cur.shm_pinned = 0;
  void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_SHARED, WIRE_FD_SHM, 0);
  if (p == MAP_FAILED) die(2, "cannot map the judge's shared memory (%" PRIu64 " bytes): %s", bytes, strerror(errno));
  cur.shm = (char *)p;
  cur.shm_bytes = (size_t)bytes;
  /* Pinning costs time of its own (the pages are locked one by one): above
   * PIN_MAX_BYTES (the 2^28 cases' 2 GiB) a case's few calls gain less than that.
   * A batch of several calls (a perf case's 8 calls of 2^24 ints, 1 GiB) moves
   * its whole memory every sample, so it is pinned up to PIN_MAX_BATCH_BYTES. */
  size_t max = batch > 1 ? PIN_MAX_BATCH_BYTES : PIN_MAX_BYTES;
  cur.shm_pinned = dev->pin && cur.shm_bytes <= max && dev->pin(cur.shm, cur.shm_bytes) == 0;
}

static uint64_t case_open(const wire_case *c) {
  char err[200];
  case_close();
  if (wire_case_valid(c, err, sizeof err)) die(2, "bad CASE from the judge: %s", err);
  if (c->variant != WIRE_COPY_VARIANT && (c->variant < 0 || c->variant >= asg->n_slugs))
    die(2, "bad CASE from the judge: variant %d", (int)c->variant);
  if (c->variant == WIRE_COPY_VARIANT && (c->n_in < 1 || c->in[0].device_bytes < c->out[0].bytes))
    die(2, "bad CASE from the judge: the copy needs an input as large as its output");
  cur.c = *c;
  map_shm(c->shm_bytes, c->batch);
  for (uint32_t k = 0; k < c->batch; k++) {
    for (uint32_t i = 0; i < c->n_in; i++) cur.in[k][i] = dev_alloc(c->in[i].device_bytes, "an input");
    for (uint32_t i = 0; i < c->n_out; i++) cur.out[k][i] = dev_alloc(c->out[i].device_bytes, "an output");
  }
  cur.open = 1;
  /* The student's workspace function: the first student code of the case. */
  if (c->variant != WIRE_COPY_VARIANT && asg->workspace_bytes) {
    cur.work_bytes = asg->workspace_bytes(c->variant, c->n, c->param);
    if (cur.work_bytes) {
      char what[96];
      snprintf(what, sizeof what, "the workspace (workspace_bytes(n=%" PRIu64 "))", c->n);
      cur.work = dev_alloc(cur.work_bytes, what);
      dev->fill(cur.work, POISON_BYTE, cur.work_bytes); /* nothing in it starts as zero */
    } else {
      snprintf(hint, sizeof hint, "the workspace function returned 0 bytes for n=%" PRIu64 ", so d_work is NULL", c->n);
    }
  } else {
    cur.work_bytes = 0;
  }
  return cur.work_bytes;
}

/* One batch in three steps, so that the judge can time the middle one on its own
 * clock. case_prepare (RUN): every call's inputs uploaded and outputs poisoned,
 * the device's caches settled (the poisoning leaves L2 full of dirty lines) and
 * the device idle, all untimed. case_go (GO): the calls back to back; the window
 * ends when they have returned and the device is idle again, whatever stream,
 * graph or host callback they used (the backend's timer_stop_ms). case_fetch:
 * every output downloaded. A batch of 0 calls times an empty window: the cost
 * of the protocol and of waiting for the device, which every sample pays. */
static runner_call batch_calls[WIRE_MAX_BATCH];
static uint32_t batch_n;
static int batch_set;

static void case_prepare(uint32_t calls) {
  if (!cur.open) die(2, "RUN without an open case");
  if (calls > cur.c.batch) die(2, "RUN of %u calls in a batch of %u", calls, cur.c.batch);
  const wire_case *c = &cur.c;
  for (uint32_t k = 0; k < calls; k++) {
    char *slot = cur.shm + (size_t)k * c->slot_bytes;
    for (uint32_t i = 0; i < c->n_in; i++) dev->upload(cur.in[k][i], slot + c->in[i].offset, c->in[i].bytes);
    for (uint32_t i = 0; i < c->n_out; i++) dev->fill(cur.out[k][i], POISON_BYTE, c->out[i].device_bytes);
  }
  for (uint32_t k = 0; k < calls; k++) {
    runner_call *h = &batch_calls[k];
    memset(h, 0, sizeof *h);
    h->variant = c->variant;
    h->n = c->n;
    h->param = c->param;
    for (uint32_t i = 0; i < c->n_in; i++) h->in[i] = cur.in[k][i], h->in_bytes[i] = c->in[i].device_bytes;
    for (uint32_t i = 0; i < c->n_out; i++) h->out[i] = cur.out[k][i], h->out_bytes[i] = c->out[i].device_bytes;
    h->work = cur.work;
    h->work_bytes = cur.work_bytes;
  }
  if (dev->settle) dev->settle();
  dev->idle();
  batch_n = calls;
  batch_set = 1;
}

static double case_go(void) {
  if (!batch_set) die(2, "GO without a RUN before it");
  batch_set = 0;
  dev->timer_start();
  for (uint32_t k = 0; k < batch_n; k++) {
    if (cur.c.variant == WIRE_COPY_VARIANT) dev->copy(batch_calls[k].out[0], batch_calls[k].in[0], cur.c.out[0].bytes);
    else asg->call(&batch_calls[k]);
  }
  return dev->timer_stop_ms();
}

static void case_fetch(void) {
  const wire_case *c = &cur.c;
  for (uint32_t k = 0; k < batch_n; k++) {
    char *slot = cur.shm + (size_t)k * c->slot_bytes;
    for (uint32_t i = 0; i < c->n_out; i++) dev->download(slot + c->out[i].offset, batch_calls[k].out[i], c->out[i].bytes);
  }
}

/* ---------------------------------------------------------------- the loop */

static void reply(wire_msg *m, uint32_t op, uint32_t seq) {
  m->magic = WIRE_MAGIC;
  m->op = op;
  m->seq = seq;
  if (wire_send(WIRE_FD_REPLY, m)) die(2, "cannot write to the judge: %s", strerror(errno));
}

/* Seals the runner's state and enters both stages of the sandbox: the last steps of set-up,
 * before the HELLO, so that no student code runs unconfined or before its state is sealed. */
static void confine(const char *profiled_dir) {
  /* A runner the filter kills (SIGSYS for another ABI) leaves no core file behind. */
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  char err[200];
  sandbox_guard g = {.fds = {WIRE_FD_CMD, WIRE_FD_REPLY, WIRE_FD_SHM}, .n_fds = 3};
  /* Under ncu (the judge's --profiled): files by path as its Landlock domain allows. */
  if (profiled_dir && (g.profiling_abi = sandbox_profiling_files(profiled_dir, err, sizeof err)) < 0)
    die(2, "cannot be profiled inside the sandbox: %s", err);
  if (sandbox_image(&sealed, sizeof sealed, &g.lo, &g.hi, err, sizeof err) || sandbox_seal(&sealed, sizeof sealed, err, sizeof err))
    die(2, "cannot seal the runner's state: %s", err);
  if (sandbox_enter_guarded(&g, err, sizeof err)) die(2, "cannot enter the sandbox: %s", err);
  /* The runner's set-up is done (the backend's init made every thread the
   * runtime needs): from the first student code on, no new thread. Except under
   * ncu: its library starts threads of its own when it profiles the first kernel
   * (killed by this stage, the runner died of SIGSYS, status 31), and a profiled
   * run times nothing, so a thread of the student's has no clock to beat there;
   * the first stage still allows only threads (WIRE_SANDBOX_FILTERS_PROFILED). */
  if (!profiled_dir && sandbox_close_threads(err, sizeof err)) die(2, "cannot close the sandbox to new threads: %s", err);
}

static int protocol(const char *profiled_dir) {
  static wire_msg m; /* large: off the stack */
  char desc[128] = "";
  dev->init(desc, sizeof desc);
  memset(&m, 0, sizeof m);
  snprintf(m.u.hello.assignment, sizeof m.u.hello.assignment, "%s", asg->name);
  snprintf(m.u.hello.device, sizeof m.u.hello.device, "%s", desc);
  if (asg->n_slugs > WIRE_MAX_SLUGS) die(2, "more than %d variants", WIRE_MAX_SLUGS);
  m.u.hello.n_slugs = (uint32_t)asg->n_slugs;
  m.u.hello.pid = (uint32_t)sealed.s.pid;
  for (int i = 0; i < asg->n_slugs; i++) snprintf(m.u.hello.slugs[i], WIRE_NAME, "%s", asg->slugs[i]);
  confine(profiled_dir);
  reply(&m, WIRE_HELLO, 0);
  for (;;) {
    int rc = wire_recv(WIRE_FD_CMD, &m, -1);
    if (rc) {
      if (rc == -1 && errno == 0) return 0; /* the judge is gone: nothing left to do */
      die(2, "cannot read from the judge: %s", strerror(errno));
    }
    if (m.magic != WIRE_MAGIC) die(2, "a message from the judge without the protocol's magic");
    uint32_t seq = m.seq;
    switch (m.op) {
    case WIRE_CASE: {
      uint64_t w = case_open(&m.u.kase);
      memset(&m.u, 0, sizeof m.u);
      m.u.ready.work_bytes = w;
      reply(&m, WIRE_READY, seq);
      break;
    }
    case WIRE_RUN: {
      case_prepare(m.u.run.calls);
      memset(&m.u, 0, sizeof m.u);
      reply(&m, WIRE_SET, seq);
      /* The judge sends GO as soon as it reads SET: wait for it without sleeping. */
      rc = wire_recv_spin(WIRE_FD_CMD, &m, -1, GO_SPIN_MS);
      if (rc) die(2, "no GO from the judge after SET: %s", rc == -1 && errno == 0 ? "the judge is gone" : strerror(errno));
      if (m.magic != WIRE_MAGIC || m.op != WIRE_GO) die(2, "%s from the judge where GO was due", wire_op_name(m.op));
      seq = m.seq;
      double ms = case_go();
      memset(&m.u, 0, sizeof m.u);
      m.u.done.ms = ms;
      m.u.done.calls = batch_n;
      reply(&m, WIRE_DONE, seq); /* the judge's clock stops here */
      case_fetch();
      memset(&m.u, 0, sizeof m.u);
      reply(&m, WIRE_OUT, seq);
      break;
    }
    case WIRE_IDLE: /* the judge's probe: nothing of this process runs on the device when it reads QUIET */
      dev->idle();
      memset(&m.u, 0, sizeof m.u);
      reply(&m, WIRE_QUIET, seq);
      break;
    case WIRE_END: case_close(); break;
    case WIRE_QUIT: case_close(); return 0;
    default: die(2, "unexpected %s from the judge", wire_op_name(m.op));
    }
  }
}

/* ---------------------------------------------------------------- by hand */

/* Started by hand: run the judge on this runner (the judge makes the inputs and
 * checks the outputs; the runner alone cannot). The judge is build/grader/judge,
 * found from this program's own path: build/<src>/NN/runner and
 * assignments/NN/ref/reference both reach it; SCANLAB_JUDGE overrides. */
static int exec_judge(int argc, char **argv) {
  char self[PATH_MAX], dir[PATH_MAX], judge[PATH_MAX + 64];
  if (!realpath(argv[0], self)) {
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) die(2, "cannot find my own path to start the judge");
    self[len] = 0;
  }
  const char *env = getenv("SCANLAB_JUDGE");
  judge[0] = 0;
  if (env && *env) {
    snprintf(judge, sizeof judge, "%s", env);
  } else {
    static const char *const rel[] = {"../../grader/judge", "../../../build/grader/judge"};
    snprintf(dir, sizeof dir, "%s", self);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    for (size_t i = 0; i < sizeof rel / sizeof *rel && !judge[0]; i++) {
      snprintf(judge, sizeof judge, "%s/%s", dir, rel[i]);
      struct stat st; /* a program, not the folder grader/judge/ of the sources */
      if (stat(judge, &st) || !S_ISREG(st.st_mode) || access(judge, X_OK)) judge[0] = 0;
    }
  }
  if (!judge[0])
    die(2, "this is the runner of %s; it is started by the judge (build/grader/judge: make tools), which was not found "
           "beside it (set SCANLAB_JUDGE)", asg->name);
  char **args = calloc((size_t)argc + 6, sizeof *args);
  if (!args) die(2, "out of memory");
  /* --list needs no runner (nor a GPU): the judge prints the spec's tables. */
  int listing = 0;
  for (int i = 1; i < argc; i++) listing |= !strcmp(argv[i], "--list");
  int n = 0;
  args[n++] = judge;
  args[n++] = "--assignment";
  args[n++] = (char *)asg->name;
  if (!listing) {
    args[n++] = "--runner";
    args[n++] = self;
  }
  for (int i = 1; i < argc; i++) args[n++] = argv[i];
  args[n] = NULL;
  execv(judge, args);
  die(2, "cannot start the judge %s: %s", judge, strerror(errno));
}

int runner_main(int argc, char **argv, const runner_assignment *r, const runner_backend *b) {
  sealed.s.runner = *r;
  sealed.s.backend = *b;
  sealed.s.pid = sandbox_raw3(__NR_getpid, 0, 0, 0);
  if (argc >= 2 && !strcmp(argv[1], "--runner-protocol")) {
    /* No option turns the sandbox off: the judge refuses a runner without it (confinement.c).
     * --profiled DIR (under ncu) changes only how files are refused (profiling.h). */
    const char *profiled = argc == 4 && !strcmp(argv[2], "--profiled") ? argv[3] : NULL;
    if (argc > 2 && !profiled) die(2, "--runner-protocol takes only --profiled DIR after it, not '%.40s'", argv[2]);
    return protocol(profiled);
  }
  return exec_judge(argc, argv);
}
