/* proc.c: a check's program (subproc.h) with its output captured under poll with a deadline, its process group killed. */
#include "proc.h"

#include "subproc.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile int proc_interrupted = 0;

static void capture_add(capture *c, const char *buf, size_t n) {
  c->total += n;
  size_t room = CAPTURE_KEEP - c->head_len;
  size_t h = n < room ? n : room;
  memcpy(c->head + c->head_len, buf, h);
  c->head_len += h;
  for (size_t i = h; i < n; i++) { /* the rest goes to the tail ring */
    c->tail[c->tail_pos] = buf[i];
    c->tail_pos = (c->tail_pos + 1) % CAPTURE_KEEP;
    if (c->tail_len < CAPTURE_KEEP) c->tail_len++;
  }
}

char *capture_text(const capture *c) {
  size_t dropped = c->total - c->head_len - c->tail_len;
  char *s = malloc(c->head_len + c->tail_len + 80);
  if (!s) return NULL;
  memcpy(s, c->head, c->head_len);
  size_t len = c->head_len;
  if (dropped) len += (size_t)sprintf(s + len, "\n[... %zu bytes omitted ...]\n", dropped);
  size_t start = (c->tail_pos + CAPTURE_KEEP - c->tail_len) % CAPTURE_KEEP;
  for (size_t i = 0; i < c->tail_len; i++) s[len++] = c->tail[(start + i) % CAPTURE_KEEP];
  s[len] = 0;
  return s;
}

const char *proc_describe(const proc_result *r, char *buf, size_t cap) {
  switch (r->status) {
  case PROC_EXITED: snprintf(buf, cap, "exit %d", r->exit_code); break;
  case PROC_SIGNALED: snprintf(buf, cap, "killed by signal %d (%s)", r->sig, strsignal(r->sig)); break;
  case PROC_TIMEOUT: snprintf(buf, cap, "timed out after %.3g s (killed)", r->wall_s); break;
  case PROC_INTERRUPTED: snprintf(buf, cap, "interrupted (grading stopped)"); break;
  case PROC_SPAWN_FAILED: snprintf(buf, cap, "could not start: %s", r->spawn_error); break;
  }
  return buf;
}

void proc_run(char *const argv[], double timeout_s, proc_result *r) {
  memset(r, 0, sizeof *r);
  int out[2], err[2], res[2];
  if (pipe(out) || pipe(err) || pipe(res)) {
    r->status = PROC_SPAWN_FAILED;
    snprintf(r->spawn_error, sizeof r->spawn_error, "pipe: %s", strerror(errno));
    return;
  }
  /* stdin /dev/null, stdout and stderr captured, the result pipe on descriptor
   * 3; nothing else of the grader's (other pipes, result files) reaches it. */
  const subproc_fd fds[] = {{SUBPROC_DEVNULL, 0}, {out[1], 1}, {err[1], 2}, {res[1], PROC_RESULT_FD}};
  subproc_error e;
  double t0 = clock_now_s();
  pid_t pid = subproc_exec(argv[0], argv, fds, 4, SUBPROC_NEW_GROUP | SUBPROC_DEFAULT_SIGNALS, &e);
  close(out[1]);
  close(err[1]);
  close(res[1]);
  if (e.stage != SUBPROC_STARTED) {
    r->status = PROC_SPAWN_FAILED;
    subproc_error_text(&e, argv[0], r->spawn_error, sizeof r->spawn_error);
  }
  if (pid < 0) {
    close(out[0]);
    close(err[0]);
    close(res[0]);
    return;
  }

  struct pollfd pf[3] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {res[0], POLLIN, 0}};
  capture *caps[3] = {&r->out, &r->err, &r->results};
  for (int i = 0; i < 3; i++) fcntl(pf[i].fd, F_SETFL, O_NONBLOCK);
  int open_fds = 3, status = 0, reaped = 0, killed = 0;
  double deadline = t0 + timeout_s, grace_end = 0;
  char buf[65536];
  while (open_fds > 0 || !reaped) {
    if (!reaped && subproc_wait_until(pid, 0, SUBPROC_KEEP, &status) == SUBPROC_ENDED) {
      reaped = 1;
      r->wall_s = clock_now_s() - t0;
      /* The child is gone; anything it left behind in its group goes too, and
       * what is still buffered in the pipes gets a short grace to drain. */
      kill(-pid, SIGKILL);
      grace_end = clock_now_s() + 1.0;
    }
    double t = clock_now_s();
    if (!reaped && !killed && (t >= deadline || proc_interrupted)) {
      kill(-pid, SIGKILL);
      killed = proc_interrupted ? 2 : 1;
    }
    if (reaped && t >= grace_end) break;
    /* With every pipe closed, poll only sleeps: check for the exit often. */
    int wait_ms = open_fds > 0 ? 50 : 5;
    int n = poll(pf, 3, wait_ms);
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; n > 0 && i < 3; i++) {
      if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = read(pf[i].fd, buf, sizeof buf);
      if (got > 0) {
        capture_add(caps[i], buf, (size_t)got);
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        close(pf[i].fd);
        pf[i].fd = -1;
        open_fds--;
      }
    }
  }
  for (int i = 0; i < 3; i++)
    if (pf[i].fd >= 0) close(pf[i].fd);
  if (!reaped) {
    subproc_wait_until(pid, 0, SUBPROC_KILL_GROUP, &status);
    r->wall_s = clock_now_s() - t0;
  }
  if (r->status == PROC_SPAWN_FAILED) return;
  if (killed == 1) r->status = PROC_TIMEOUT;
  else if (killed == 2) r->status = PROC_INTERRUPTED;
  else if (WIFEXITED(status)) r->status = PROC_EXITED, r->exit_code = WEXITSTATUS(status);
  else r->status = PROC_SIGNALED, r->sig = WTERMSIG(status);
}
