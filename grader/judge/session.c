/* session.c: starting a runner and talking to it (session.h). */
#include "session.h"

#include "subproc.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long the judge polls for DONE before it sleeps: longer than most batches,
 * short enough that a slow one does not hold a core for long. */
static const double DONE_SPIN_MS = 50;
/* How long session_pause waits for a runner's other processes to stop. */
static const double STOP_WAIT_S = 0.5;

/* The runners started and not yet finished, so that their other processes
 * (proc_tree.h) are told from strays; and whether orphans are adopted. */
static pid_t live_runners[4];
static int n_live, adopting;

static void live_add(pid_t pid) {
  if (n_live < (int)(sizeof live_runners / sizeof *live_runners)) live_runners[n_live++] = pid;
}

static void live_remove(pid_t pid) {
  for (int i = 0; i < n_live; i++)
    if (live_runners[i] == pid) live_runners[i] = live_runners[--n_live];
}

static int fail(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(session *s, const char *fmt, ...) {
  if (!s->dead) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
  }
  s->dead = 1;
  return -1;
}

/* How a finished runner ended, into s->why (after `what`). */
static void describe_end(session *s, int status, const char *what) {
  char how[240];
  if (WIFEXITED(status)) s->exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
    snprintf(how, sizeof how, "was killed by the sandbox (signal %d, %s: a new thread once the student's code runs, "
             "or a system call of another ABI; docs/grading.md, threat model)", SIGSYS, strsignal(SIGSYS));
  else subproc_status_text(status, how, sizeof how);
  snprintf(s->why, sizeof s->why, "the runner %s%s%s", how, what[0] ? " " : "", what);
}

/* After a failed read or write: the runner's own end (a crash, exit 3) explains
 * more than the broken pipe does, so wait a moment for it. */
static int runner_gone(session *s, const char *during) {
  int status;
  if (subproc_wait_until(s->pid, clock_now_s() + 2.0, SUBPROC_KEEP, &status) == SUBPROC_ENDED) {
    live_remove(s->pid);
    s->pid = -1;
    describe_end(s, status, during);
    s->dead = 1;
    return -1;
  }
  return fail(s, "the runner stopped answering %s", during);
}

/* A reply no command asked for (a second DONE, a SET without RUN) waiting before the judge
 * sends its next command, or left when the runner has ended: the protocol is broken. */
static int unsolicited(session *s, const char *when) {
  struct pollfd pf = {s->reply, POLLIN, 0};
  if (poll(&pf, 1, 0) <= 0 || !(pf.revents & POLLIN)) return 0;
  wire_msg m;
  if (wire_recv(s->reply, &m, 100) == 0)
    return fail(s, "the runner broke the protocol: it sent %s (seq %u) %s, when no reply was due", wire_op_name(m.op), m.seq, when);
  return fail(s, "the runner broke the protocol: it wrote bytes %s, when no reply was due", when);
}

static int send_cmd(session *s, wire_msg *m, uint32_t op) {
  /* GO is left out: the judge's clock runs, and SET has just been read. */
  if (op != WIRE_GO && unsolicited(s, "before the judge's next command")) return -1;
  m->magic = WIRE_MAGIC;
  m->op = op;
  m->seq = ++s->seq;
  if (wire_send(s->cmd, m)) return runner_gone(s, "while the judge was writing to it");
  return 0;
}

/* rc: wire_recv's. */
static int check_reply(session *s, int rc, const wire_msg *m, uint32_t op, const char *during) {
  if (rc == -2) {
    kill(s->pid, SIGKILL);
    return fail(s, "the runner gave no answer within %.3g s %s (the call limit): a hang, a deadlock or a very slow call",
                s->limit_ms / 1000.0, during);
  }
  if (rc) return runner_gone(s, during);
  if (m->magic != WIRE_MAGIC || m->op != op || m->seq != s->seq)
    return fail(s, "the runner broke the protocol %s: %s (seq %u) where %s (seq %u) was due", during, wire_op_name(m->op),
                m->seq, wire_op_name(op), s->seq);
  return 0;
}

static int recv_reply(session *s, wire_msg *m, uint32_t op, const char *during) {
  return check_reply(s, wire_recv(s->reply, m, s->limit_ms), m, op, during);
}

int session_start(session *s, char *const argv[], const char *profiled_dir, int limit_ms) {
  return session_spawn(s, argv, profiled_dir, limit_ms) || session_hello(s) ? -1 : 0;
}

int session_spawn(session *s, char *const argv[], const char *profiled_dir, int limit_ms) {
  memset(s, 0, sizeof *s);
  s->pid = -1;
  s->exit_code = -1;
  s->cmd = s->reply = s->shm_fd = -1;
  s->limit_ms = limit_ms;
  s->profiled = profiled_dir != NULL;
  signal(SIGPIPE, SIG_IGN); /* a dead runner is an error code, not the judge's death */
  int to_runner[2], from_runner[2];
  if (pipe2(to_runner, O_CLOEXEC) || pipe2(from_runner, O_CLOEXEC)) return fail(s, "pipe: %s", strerror(errno));
  s->shm_fd = memfd_create("scanlab-io", MFD_CLOEXEC);
  if (s->shm_fd < 0) return fail(s, "memfd_create: %s", strerror(errno));
  int n = 0;
  while (argv[n]) n++;
  char **args = calloc((size_t)n + 4, sizeof *args);
  if (!args) return fail(s, "out of memory");
  for (int i = 0; i < n; i++) args[i] = argv[i];
  args[n] = "--runner-protocol"; /* no option runs a runner unconfined */
  if (profiled_dir) args[n + 1] = "--profiled", args[n + 2] = (char *)profiled_dir;
  /* Only the protocol's descriptors and stdout/stderr reach the runner: above
   * all not the judge's result descriptor, which the grader reads. */
  const subproc_fd fds[] = {{SUBPROC_DEVNULL, 0}, {1, 1}, {2, 2}, {to_runner[0], WIRE_FD_CMD},
                            {from_runner[1], WIRE_FD_REPLY}, {s->shm_fd, WIRE_FD_SHM}};
  subproc_error e;
  pid_t pid = subproc_exec(args[0], args, fds, 6, 0, &e);
  /* A runner that could not start has exited 127: its HELLO never comes, and
   * session_hello says so ("the runner exited with status 127 while starting"). */
  if (e.stage == SUBPROC_SETUP_FAILED)
    fprintf(stderr, "judge: cannot set up the runner's descriptors: %s\n", strerror(e.err));
  else if (e.stage == SUBPROC_EXEC_FAILED)
    fprintf(stderr, "judge: cannot start the runner %s: %s\n", args[0], strerror(e.err));
  free(args);
  if (pid < 0) {
    char why[300];
    return fail(s, "%s", subproc_error_text(&e, "", why, sizeof why));
  }
  s->pid = pid;
  live_add(pid);
  close(to_runner[0]);
  close(from_runner[1]);
  s->cmd = to_runner[1];
  s->reply = from_runner[0];
  return 0;
}

int session_hello(session *s) {
  if (s->pid < 0) return -1;
  wire_msg m;
  /* The first answer includes making the CUDA context: allow for a slow start. */
  int limit = s->limit_ms;
  s->limit_ms = limit < 60000 ? 60000 : limit;
  int rc = recv_reply(s, &m, WIRE_HELLO, "while starting");
  s->limit_ms = limit;
  if (rc) return -1;
  if (m.seq != 0) return fail(s, "the runner's HELLO has seq %u", m.seq);
  s->hello = m.u.hello;
  s->hello.assignment[WIRE_NAME - 1] = 0;
  s->hello.device[sizeof s->hello.device - 1] = 0;
  if (s->hello.n_slugs > WIRE_MAX_SLUGS) return fail(s, "the runner's HELLO names %u variants", s->hello.n_slugs);
  for (uint32_t i = 0; i < s->hello.n_slugs; i++) s->hello.slugs[i][WIRE_NAME - 1] = 0;
  return 0;
}

int session_case(session *s, wire_case *c, uint64_t *work) {
  if (s->dead) return -1;
  if (c->shm_bytes != s->shm_bytes) {
    if (s->shm) munmap(s->shm, s->shm_bytes);
    s->shm = NULL;
    s->shm_bytes = 0;
    if (ftruncate(s->shm_fd, (off_t)c->shm_bytes))
      return fail(s, "cannot size the shared memory to %llu bytes: %s", (unsigned long long)c->shm_bytes, strerror(errno));
    void *p = mmap(NULL, (size_t)c->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->shm_fd, 0);
    if (p == MAP_FAILED) return fail(s, "cannot map %llu bytes of shared memory: %s", (unsigned long long)c->shm_bytes, strerror(errno));
    s->shm = p;
    s->shm_bytes = (size_t)c->shm_bytes;
  }
  wire_msg m;
  memset(&m, 0, sizeof m);
  m.u.kase = *c;
  if (send_cmd(s, &m, WIRE_CASE) || recv_reply(s, &m, WIRE_READY, "while opening the case")) return -1;
  *work = m.u.ready.work_bytes;
  return 0;
}

int session_prepare(session *s, uint32_t calls) {
  if (s->dead) return -1;
  wire_msg m;
  memset(&m, 0, sizeof m);
  m.u.run.calls = calls;
  s->calls = calls;
  double start = clock_now_s();
  if (send_cmd(s, &m, WIRE_RUN)) return -1;
  /* The steps around the window are timed asleep (poll): a wake-up costs both
   * sides alike some microseconds, and the judge leaves the cores to the runner. */
  int rc = wire_recv(s->reply, &m, s->limit_ms);
  s->prep_ms = 1e3 * (clock_now_s() - start);
  return check_reply(s, rc, &m, WIRE_SET, "while it prepared a batch");
}

int session_go(session *s, session_time *t) {
  if (s->dead) return -1;
  wire_msg m;
  memset(&m, 0, sizeof m);
  /* The judge's clock: from just before GO leaves to just after DONE arrives.
   * Both ends poll without sleeping, so a sample pays no scheduler wake-up. */
  double start = clock_now_s();
  if (send_cmd(s, &m, WIRE_GO)) return -1;
  int rc = wire_recv_spin(s->reply, &m, s->limit_ms, DONE_SPIN_MS);
  double judge_ms = 1e3 * (clock_now_s() - start);
  if (check_reply(s, rc, &m, WIRE_DONE, "during a call")) return -1;
  if (m.u.done.calls != s->calls) return fail(s, "the runner says it made %u calls, not %u", m.u.done.calls, s->calls);
  double runner_ms = m.u.done.ms;
  if (!(runner_ms >= 0 && runner_ms < 1e9)) return fail(s, "the runner reported a time of %g ms", runner_ms);
  double done = clock_now_s();
  rc = wire_recv(s->reply, &m, s->limit_ms);
  t->fetch_ms = 1e3 * (clock_now_s() - done);
  if (check_reply(s, rc, &m, WIRE_OUT, "while it handed back the outputs")) return -1;
  t->prep_ms = s->prep_ms;
  t->judge_ms = judge_ms;
  t->runner_ms = runner_ms;
  /* A runner that says less than the judge saw gains nothing; one that says
   * more (its clock runs inside the window, so only a broken or patched timer
   * would) is taken at its word: it can only look slower. */
  t->ms = runner_ms > judge_ms ? runner_ms : judge_ms;
  return 0;
}

int session_end_case(session *s) {
  if (s->dead) return -1;
  wire_msg m;
  memset(&m, 0, sizeof m);
  return send_cmd(s, &m, WIRE_END);
}

int session_idle(session *s, double *ms) {
  if (s->dead) return -1;
  wire_msg m;
  memset(&m, 0, sizeof m);
  double start = clock_now_s();
  if (send_cmd(s, &m, WIRE_IDLE)) return -1;
  int rc = wire_recv(s->reply, &m, s->limit_ms);
  *ms = 1e3 * (clock_now_s() - start);
  return check_reply(s, rc, &m, WIRE_QUIET, "while it waited for an idle device");
}

int session_adopt_orphans(void) {
  if (judge_tree_adopt_orphans()) return -1;
  adopting = 1;
  return 0;
}

/* Stops the runner's other processes: its descendants, and the strays (the
 * judge's adopted orphans), into s->stopped; waits until they have stopped. */
static void stop_others(session *s) {
  s->n_stopped = judge_tree_descendants(s->pid, s->stopped, 0, PROC_TREE_MAX);
  if (adopting) s->n_stopped = judge_tree_strays(live_runners, n_live, s->stopped, s->n_stopped, PROC_TREE_MAX);
  for (int i = 0; i < s->n_stopped; i++) kill(s->stopped[i], SIGSTOP);
  double deadline = clock_now_s() + STOP_WAIT_S;
  for (int i = 0; i < s->n_stopped; i++) judge_tree_wait_stopped(s->stopped[i], deadline);
}

static void resume_others(session *s) {
  for (int i = 0; i < s->n_stopped; i++) kill(s->stopped[i], SIGCONT);
  s->n_stopped = 0;
}

/* Kills the strays: nothing of a runner's outlives the judge. */
static void kill_strays(void) {
  if (!adopting) return;
  pid_t p[PROC_TREE_MAX];
  int n = judge_tree_strays(live_runners, n_live, p, 0, PROC_TREE_MAX);
  for (int i = 0; i < n; i++) kill(p[i], SIGKILL);
  for (int i = 0; i < n; i++) waitpid(p[i], NULL, 0); /* the judge's own children; ECHILD at once for the rest */
}

void session_pause(session *s) {
  if (s->pid <= 0 || s->paused) return;
  stop_others(s); /* first, so that no helper notices the runner stop and reacts */
  if (kill(s->pid, SIGSTOP)) return;
  int status;
  pid_t r;
  while ((r = waitpid(s->pid, &status, WUNTRACED)) < 0 && errno == EINTR) {
  }
  if (r == s->pid && !WIFSTOPPED(status)) { /* it ended instead: its next reply says how */
    live_remove(s->pid);
    s->pid = -1;
    describe_end(s, status, "while the other side ran");
    s->dead = 1;
    return;
  }
  s->paused = 1;
}

void session_resume(session *s) {
  if (s->pid > 0 && s->paused) kill(s->pid, SIGCONT);
  resume_others(s);
  s->paused = 0;
}

int session_finish(session *s) {
  session_resume(s); /* a stopped runner would never read its QUIT */
  int ok = !s->dead;
  if (ok) {
    wire_msg m;
    memset(&m, 0, sizeof m);
    if (send_cmd(s, &m, WIRE_QUIT)) ok = 0; /* a broken protocol: no QUIT went, kill it now */
  }
  if (s->cmd >= 0) close(s->cmd);
  s->cmd = -1;
  if (s->pid > 0) {
    int status = 0;
    /* A clean runner exits at QUIT; give it the call limit, then kill it. After a failure, kill it now. */
    double deadline = ok ? clock_now_s() + s->limit_ms / 1000.0 : 0;
    if (subproc_wait_until(s->pid, deadline, SUBPROC_KILL, &status) == SUBPROC_KILLED && ok)
      fail(s, "the runner did not exit after its last case");
    live_remove(s->pid);
    s->pid = -1;
    if (!s->dead && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      describe_end(s, status, "after its last case");
      s->dead = 1;
    }
  }
  resume_others(s); /* a stray stopped with the runner is killed stopped or not */
  kill_strays();
  if (!s->dead && s->reply >= 0) unsolicited(s, "after its last reply"); /* the runner has ended: all it wrote is there */
  if (s->reply >= 0) close(s->reply);
  s->reply = -1;
  if (s->shm) munmap(s->shm, s->shm_bytes);
  if (s->shm_fd >= 0) close(s->shm_fd);
  s->shm = NULL;
  s->shm_fd = -1;
  return s->dead ? -1 : 0;
}
