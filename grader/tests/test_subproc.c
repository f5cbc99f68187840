/* test_subproc.c: grader/lib/subproc.h, the one fork and exec of the course's host code:
 * the descriptor map, the deadline, how a child ended, a program that cannot start. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "subproc.h"
#include "clock.h"
#include "tests.h"

/* Starts bash -c script with the map; the start must succeed. */
static pid_t start(const char *script, const subproc_fd *fds, int n, int flags) {
  char *argv[] = {"/bin/bash", "-c", (char *)script, NULL};
  subproc_error e;
  pid_t pid = subproc_exec(argv[0], argv, fds, n, flags, &e);
  char why[300];
  ck_assert_msg(pid > 0 && e.stage == SUBPROC_STARTED, "could not start bash: %s",
                subproc_error_text(&e, argv[0], why, sizeof why));
  return pid;
}

/* Everything the read end of a pipe gives until its end, into buf. */
static void read_all(int fd, char *buf, size_t cap) {
  size_t got = 0;
  ssize_t n;
  while (got + 1 < cap && (n = read(fd, buf + got, cap - 1 - got)) > 0) got += (size_t)n;
  buf[got] = 0;
  close(fd);
}

/* Two descriptors swapped on the way (61 -> 60, 60 -> 61: neither may clobber the
 * other), /dev/null as stdin, and a descriptor the map does not name left behind. */
START_TEST(test_subproc_descriptor_map) {
  int p[2], q[2];
  ck_assert(pipe(p) == 0 && pipe(q) == 0);
  ck_assert(dup2(p[1], 61) == 61 && dup2(q[1], 60) == 60);
  close(p[1]);
  close(q[1]);
  int stray = open("/dev/null", O_RDONLY); /* not close-on-exec: only the map keeps it out, below the map's top and above */
  ck_assert(stray >= 0 && dup2(stray, 40) == 40 && dup2(stray, 70) == 70);
  const subproc_fd fds[] = {{SUBPROC_DEVNULL, 0}, {2, 2}, {61, 60}, {60, 61}};
  pid_t pid = start("echo P >&60; echo Q >&61; "
                    "if read -r line; then echo \"stdin: $line\" >&61; fi; "
                    "for fd in 1 40 62 70; do [ -e /proc/$$/fd/$fd ] && echo \"open: $fd\" >&61; done; exit 0",
                    fds, 4, 0);
  close(60);
  close(61);
  close(40);
  close(70);
  close(stray);
  char a[256], b[256];
  read_all(p[0], a, sizeof a);
  read_all(q[0], b, sizeof b);
  int status;
  ck_assert_int_eq(subproc_wait_until(pid, clock_now_s() + 10, SUBPROC_KILL, &status), SUBPROC_ENDED);
  ck_assert_str_eq(a, "P\n");
  ck_assert_str_eq(b, "Q\n"); /* stdin at its end, nothing but the map open */
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

/* A child that ignores SIGTERM, with a grandchild in its group, past its deadline:
 * both killed, within a moment of the deadline. (It waits rather than spins: a
 * failed test leaves no process that burns a core.) */
START_TEST(test_subproc_deadline_kills_group) {
  int p[2];
  ck_assert(pipe(p) == 0);
  const subproc_fd fds[] = {{SUBPROC_DEVNULL, 0}, {2, 2}, {p[1], 3}};
  pid_t pid = start("trap '' TERM; sleep 100 3>&- & echo $! >&3; exec 3>&-; wait", fds, 3, SUBPROC_NEW_GROUP);
  close(p[1]);
  char line[64];
  read_all(p[0], line, sizeof line);
  pid_t grandchild = (pid_t)atoi(line);
  ck_assert_int_gt(grandchild, 0);
  int status = 0;
  /* SUBPROC_KEEP: the deadline passes, the child stays. */
  ck_assert_int_eq(subproc_wait_until(pid, clock_now_s() + 0.2, SUBPROC_KEEP, &status), SUBPROC_RUNNING);
  ck_assert_int_eq(kill(pid, 0), 0);
  double t0 = clock_now_s();
  ck_assert_int_eq(subproc_wait_until(pid, t0 + 0.3, SUBPROC_KILL_GROUP, &status), SUBPROC_KILLED);
  double took = clock_now_s() - t0;
  ck_assert_msg(took >= 0.29 && took < 3, "killed after %.3f s, not at the 0.3 s deadline", took);
  ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  /* The grandchild went with the group (once init has reaped it). */
  int gone = 0;
  for (int i = 0; i < 200 && !gone; i++) {
    gone = kill(grandchild, 0) != 0 && errno == ESRCH;
    if (!gone) usleep(10000);
  }
  ck_assert_msg(gone, "the grandchild %d outlived its group's kill", (int)grandchild);
  /* A deadline already past: one look, then the kill. */
  pid = start("sleep 100", fds, 1, 0);
  ck_assert_int_eq(subproc_wait_until(pid, 0, SUBPROC_KILL, &status), SUBPROC_KILLED);
  ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}
END_TEST

/* How a child ended, in the words the judge and the 03 model print. */
START_TEST(test_subproc_status_text) {
  const subproc_fd fds[] = {{SUBPROC_DEVNULL, 0}, {2, 2}};
  char buf[128];
  int status;
  pid_t pid = start("kill -SEGV $$", fds, 2, 0);
  ck_assert_int_eq(subproc_wait_until(pid, clock_now_s() + 10, SUBPROC_KILL, &status), SUBPROC_ENDED);
  ck_assert_str_eq(subproc_status_text(status, buf, sizeof buf), "was killed by signal 11 (Segmentation fault)");
  pid = start("exit 3", fds, 2, SUBPROC_NEW_GROUP | SUBPROC_DEFAULT_SIGNALS);
  ck_assert_int_eq(subproc_wait_until(pid, clock_now_s() + 10, SUBPROC_KILL, &status), SUBPROC_ENDED);
  ck_assert_str_eq(subproc_status_text(status, buf, sizeof buf), "exited with status 3");
  /* SUBPROC_DEFAULT_SIGNALS: a SIGTERM ignored here is not ignored there. */
  void (*old)(int) = signal(SIGTERM, SIG_IGN);
  pid = start("kill -TERM $$; exit 0", fds, 2, SUBPROC_DEFAULT_SIGNALS);
  ck_assert_int_eq(subproc_wait_until(pid, clock_now_s() + 10, SUBPROC_KILL, &status), SUBPROC_ENDED);
  signal(SIGTERM, old);
  ck_assert_str_eq(subproc_status_text(status, buf, sizeof buf), "was killed by signal 15 (Terminated)");
}
END_TEST

/* A program that is not there: the pid of a child that exited 127, and the reason. */
START_TEST(test_subproc_missing_program) {
  char *argv[] = {"/nonexistent/scanlab-no-such-program", NULL};
  const subproc_fd fds[] = {{SUBPROC_DEVNULL, 0}, {2, 2}};
  subproc_error e;
  pid_t pid = subproc_exec(argv[0], argv, fds, 2, SUBPROC_NEW_GROUP, &e);
  ck_assert_int_gt(pid, 0);
  ck_assert_int_eq(e.stage, SUBPROC_EXEC_FAILED);
  ck_assert_int_eq(e.err, ENOENT);
  char buf[256];
  ck_assert_str_eq(subproc_error_text(&e, argv[0], buf, sizeof buf),
                   "/nonexistent/scanlab-no-such-program: No such file or directory");
  int status;
  ck_assert_int_eq(subproc_wait_until(pid, clock_now_s() + 10, SUBPROC_KILL, &status), SUBPROC_ENDED);
  ck_assert_str_eq(subproc_status_text(status, buf, sizeof buf), "exited with status 127");
  /* A map that names a descriptor this process does not have: the set-up fails. */
  const subproc_fd bad[] = {{200, 3}};
  close(200);
  pid = subproc_exec("/bin/true", argv, bad, 1, 0, &e);
  ck_assert_int_gt(pid, 0);
  ck_assert_int_eq(e.stage, SUBPROC_SETUP_FAILED);
  ck_assert_int_eq(e.err, EBADF);
  ck_assert_int_eq(subproc_wait_until(pid, clock_now_s() + 10, SUBPROC_KILL, &status), SUBPROC_ENDED);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 127);
  /* No child to wait for. */
  ck_assert_int_eq(subproc_wait_until(pid, 0, SUBPROC_KILL, &status), -1);
  ck_assert_int_eq(errno, ECHILD);
}
END_TEST

Suite *subproc_suite(void) {
  Suite *s = suite_create("subproc");
  TCase *t = tcase_create("subproc");
  tcase_set_timeout(t, 20);
  tcase_add_test(t, test_subproc_descriptor_map);
  tcase_add_test(t, test_subproc_deadline_kills_group);
  tcase_add_test(t, test_subproc_status_text);
  tcase_add_test(t, test_subproc_missing_program);
  suite_add_tcase(s, t);
  return s;
}
