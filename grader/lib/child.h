/* child.h: start one child program with exactly the descriptors it should
 * have, wait for it until a deadline (killing it there), and say how it ended.
 *
 * The one place the course's trusted host code forks and execs: the grader
 * (grader/src/proc.c: a check's program in its own process group), the judge
 * (grader/judge/session.c: a runner with only the protocol's descriptors) and
 * 03's CPU model (assignments/03-blelloch/model.cu: its table program). What
 * each reads from its child, and what it says about it, stays with the caller.
 * Deadlines are on the course's monotonic clock (clock.h: clock_now_s). */
#ifndef SCANLAB_CHILD_H
#define SCANLAB_CHILD_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One descriptor of the child: the parent's `from` becomes the child's `to`.
 * from CHILD_DEVNULL: /dev/null (read and write). */
#define CHILD_DEVNULL (-1)
typedef struct child_fd {
  int from, to;
} child_fd;

/* child_exec's flags. */
enum {
  CHILD_NEW_GROUP = 1,       /* the child leads a process group of its own (pid == pgid) */
  CHILD_DEFAULT_SIGNALS = 2  /* SIGPIPE, SIGINT and SIGTERM back to their default in the child */
};

/* How far a start got. */
typedef enum child_stage {
  CHILD_STARTED = 0,  /* the program runs */
  CHILD_PIPE_FAILED,  /* no child: the status pipe could not be made */
  CHILD_FORK_FAILED,  /* no child: fork failed */
  CHILD_SETUP_FAILED, /* the child could not set up its descriptors; it exited 127 */
  CHILD_EXEC_FAILED   /* the child could not exec the program; it exited 127 */
} child_stage;

typedef struct child_error {
  child_stage stage;
  int err; /* the errno of the failed step; 0 when started */
} child_error;

/* Forks and, in the child, sets up exactly the descriptors of fds[0..n) (every
 * other descriptor is closed, 0-2 included when not named), applies flags, and
 * execs path with argv. Buffered stdio is flushed first. Returns the child's
 * pid, or -1 when there is no child (e->stage PIPE or FORK). When the child
 * started but its set-up or exec failed, it has exited 127 and the pid is
 * returned all the same (e->stage SETUP or EXEC, e->err the reason): wait for
 * it as for any child. Returns only once the child has exec'd or failed. */
pid_t child_exec(const char *path, char *const argv[], const child_fd *fds, int n, int flags, child_error *e);

/* "pipe: <reason>", "fork: <reason>", "<path>: <reason>" (set-up or exec), or "" when started. */
const char *child_error_text(const child_error *e, const char *path, char *buf, size_t cap);

/* What child_wait_until does at the deadline. */
typedef enum child_on_deadline {
  CHILD_KEEP,       /* nothing: return CHILD_RUNNING, the child not reaped */
  CHILD_KILL,       /* SIGKILL the child, reap it */
  CHILD_KILL_GROUP  /* SIGKILL the child's process group (CHILD_NEW_GROUP), reap the child */
} child_on_deadline;

enum { CHILD_ENDED = 0, CHILD_KILLED = 1, CHILD_RUNNING = 2 };

/* Waits for child pid until deadline (clock_now_s; a deadline already past
 * looks once). Returns CHILD_ENDED (it ended by itself: *status, a wait status),
 * CHILD_KILLED (killed at the deadline and reaped: *status), CHILD_RUNNING
 * (CHILD_KEEP, deadline reached), or -1 with errno when it cannot be waited for. */
int child_wait_until(pid_t pid, double deadline, child_on_deadline on_deadline, int *status);

/* A wait status in words: "exited with status 3", "was killed by signal 9
 * (Killed)", else "ended in an unknown way (wait status N)". Returns buf. */
const char *child_status_text(int status, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
