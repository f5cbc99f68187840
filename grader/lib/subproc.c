/* subproc.c: fork and exec with a descriptor map, a wait with a deadline, a wait status in words (subproc.h). */
#include "subproc.h"

#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The most descriptors a map may name. */
enum { SUBPROC_MAX_FDS = 16 };

/* What a child that could not start writes on the status pipe before _exit(127). */
typedef struct subproc_report {
  int stage, err;
} subproc_report;

/* In the child, between fork and exec, only async-signal-safe calls: the
 * caller may have threads (the judge's, the grader's). */
static void report_and_exit(int fd, int stage) {
  subproc_report m = {stage, errno};
  (void)!write(fd, &m, sizeof m);
  _exit(127);
}

/* Closes descriptors lo..hi (hi < 0: to the end). */
static void close_span(int lo, int hi, long open_max) {
  if (hi >= 0 && lo > hi) return;
#ifdef SYS_close_range
  if (syscall(SYS_close_range, (unsigned)lo, hi < 0 ? ~0U : (unsigned)hi, 0) == 0) return;
#endif
  long end = hi < 0 || hi >= open_max ? open_max - 1 : hi;
  for (long fd = lo; fd <= end; fd++) close((int)fd);
}

static void run_child(const char *path, char *const argv[], const subproc_fd *fds, int n, int flags, int report_w,
                      long open_max) {
  if (flags & SUBPROC_NEW_GROUP) setpgid(0, 0);
  if (flags & SUBPROC_DEFAULT_SIGNALS) {
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
  }
  int top = 2; /* the highest descriptor of the map (0-2 at least: they are closed when not named) */
  for (int i = 0; i < n; i++)
    if (fds[i].to > top) top = fds[i].to;
  /* Every source first goes above the map, so no dup2 can clobber one not moved yet. */
  int report = fcntl(report_w, F_DUPFD_CLOEXEC, top + 1);
  if (report < 0) report_and_exit(report_w, SUBPROC_SETUP_FAILED);
  int high[SUBPROC_MAX_FDS], devnull = -1;
  for (int i = 0; i < n; i++) {
    int from = fds[i].from;
    if (from == SUBPROC_DEVNULL) {
      if (devnull < 0) devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
      if (devnull < 0) report_and_exit(report, SUBPROC_SETUP_FAILED);
      from = devnull;
    }
    high[i] = fcntl(from, F_DUPFD_CLOEXEC, top + 1);
    if (high[i] < 0) report_and_exit(report, SUBPROC_SETUP_FAILED);
  }
  for (int i = 0; i < n; i++)
    if (dup2(high[i], fds[i].to) < 0) report_and_exit(report, SUBPROC_SETUP_FAILED);
  for (int fd = 0; fd <= top; fd++) {
    int named = 0;
    for (int i = 0; i < n; i++) named |= fds[i].to == fd;
    if (!named) close(fd);
  }
  /* Everything above the map goes: the copies, and whatever the parent had open. */
  close_span(top + 1, report - 1, open_max);
  close_span(report + 1, -1, open_max);
  execv(path, argv);
  report_and_exit(report, SUBPROC_EXEC_FAILED);
}

pid_t subproc_exec(const char *path, char *const argv[], const subproc_fd *fds, int n, int flags, subproc_error *e) {
  subproc_error spare;
  if (!e) e = &spare;
  e->stage = SUBPROC_STARTED;
  e->err = 0;
  if (n < 0 || n > SUBPROC_MAX_FDS) {
    e->stage = SUBPROC_FORK_FAILED;
    e->err = EINVAL;
    return -1;
  }
  long open_max = sysconf(_SC_OPEN_MAX); /* not async-signal-safe: asked here, before the fork */
  if (open_max < 0 || open_max > 65536) open_max = 65536;
  int rep[2];
  if (pipe2(rep, O_CLOEXEC)) {
    e->stage = SUBPROC_PIPE_FAILED;
    e->err = errno;
    return -1;
  }
  fflush(NULL); /* nothing buffered is lost or reordered around the child's output */
  pid_t pid = fork();
  if (pid < 0) {
    e->stage = SUBPROC_FORK_FAILED;
    e->err = errno;
    close(rep[0]);
    close(rep[1]);
    return -1;
  }
  if (pid == 0) run_child(path, argv, fds, n, flags, rep[1], open_max);
  if (flags & SUBPROC_NEW_GROUP) setpgid(pid, pid); /* here too, so a kill right after the fork reaches the group */
  close(rep[1]);
  subproc_report m;
  ssize_t got;
  while ((got = read(rep[0], &m, sizeof m)) < 0 && errno == EINTR) {
  }
  close(rep[0]);
  if (got == (ssize_t)sizeof m) { /* else the exec closed the pipe: the program runs */
    e->stage = m.stage == SUBPROC_SETUP_FAILED ? SUBPROC_SETUP_FAILED : SUBPROC_EXEC_FAILED;
    e->err = m.err;
  }
  return pid;
}

const char *subproc_error_text(const subproc_error *e, const char *path, char *buf, size_t cap) {
  switch (e->stage) {
  case SUBPROC_STARTED: snprintf(buf, cap, "%s", ""); break;
  case SUBPROC_PIPE_FAILED: snprintf(buf, cap, "pipe: %s", strerror(e->err)); break;
  case SUBPROC_FORK_FAILED: snprintf(buf, cap, "fork: %s", strerror(e->err)); break;
  case SUBPROC_SETUP_FAILED:
  case SUBPROC_EXEC_FAILED: snprintf(buf, cap, "%s: %s", path, strerror(e->err)); break;
  }
  return buf;
}

int subproc_wait_until(pid_t pid, double deadline, subproc_on_deadline on_deadline, int *status) {
  int st = 0;
  for (;;) {
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) {
      *status = st;
      return SUBPROC_ENDED;
    }
    if (r < 0 && errno != EINTR) return -1;
    double left = deadline - clock_now_s();
    if (left <= 0) break;
    /* Short naps: an ended child is seen within 2 ms. */
    double nap = left < 0.002 ? left : 0.002;
    struct timespec t = {0, (long)(nap * 1e9)};
    nanosleep(&t, NULL);
  }
  if (on_deadline == SUBPROC_KEEP) return SUBPROC_RUNNING;
  if (on_deadline == SUBPROC_KILL_GROUP) kill(-pid, SIGKILL);
  kill(pid, SIGKILL); /* also when it leads no group of its own: the wait below must end */
  pid_t r;
  while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR) {
  }
  if (r < 0) return -1;
  *status = st;
  return SUBPROC_KILLED;
}

const char *subproc_status_text(int status, char *buf, size_t cap) {
  if (WIFEXITED(status)) snprintf(buf, cap, "exited with status %d", WEXITSTATUS(status));
  else if (WIFSIGNALED(status))
    snprintf(buf, cap, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  else snprintf(buf, cap, "ended in an unknown way (wait status %d)", status);
  return buf;
}
