/* subproc.h: start one child program with exactly the descriptors it should
 * have, wait for it until a deadline (killing it there), and say how it ended.
 *
 * The one place the course's trusted host code forks and execs: the grader
 * (grader/src/proc.c: a check's program in its own process group), the judge
 * (grader/judge/session.c: a runner with only the protocol's descriptors) and
 * an assignment's CPU model (its judge/model.cu: its table program). What
 * each reads from its child, and what it says about it, stays with the caller.
 * Deadlines are on the course's monotonic clock (clock.h: clock_now_s).
 * (The prefix is subproc_, not child_: grader/inspect/inspect-student.sh refuses a student's
 * global name that begins with a course prefix, and a tree scan's child_index is
 * a name a student may well write.) */
#ifndef SCANLAB_SUBPROC_H
#define SCANLAB_SUBPROC_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One descriptor of the child: the parent's `from` becomes the child's `to`.
 * from SUBPROC_DEVNULL: /dev/null (read and write). */
#define SUBPROC_DEVNULL (-1)
typedef struct subproc_fd {
  int from, to;
} subproc_fd;

/* subproc_exec's flags. */
enum {
  SUBPROC_NEW_GROUP = 1,       /* the child leads a process group of its own (pid == pgid) */
  SUBPROC_DEFAULT_SIGNALS = 2  /* SIGPIPE, SIGINT and SIGTERM back to their default in the child */
};

/* How far a start got. */
typedef enum subproc_stage {
  SUBPROC_STARTED = 0,  /* the program runs */
  SUBPROC_PIPE_FAILED,  /* no child: the status pipe could not be made */
  SUBPROC_FORK_FAILED,  /* no child: fork failed */
  SUBPROC_SETUP_FAILED, /* the child could not set up its descriptors; it exited 127 */
  SUBPROC_EXEC_FAILED   /* the child could not exec the program; it exited 127 */
} subproc_stage;

typedef struct subproc_error {
  subproc_stage stage;
  int err; /* the errno of the failed step; 0 when started */
} subproc_error;

/* Forks and, in the child, sets up exactly the descriptors of fds[0..n) (every
 * other descriptor is closed, 0-2 included when not named), applies flags, and
 * execs path with argv. Buffered stdio is flushed first. Returns the child's
 * pid, or -1 when there is no child (e->stage PIPE or FORK). When the child
 * started but its set-up or exec failed, it has exited 127 and the pid is
 * returned all the same (e->stage SETUP or EXEC, e->err the reason): wait for
 * it as for any child. Returns only once the child has exec'd or failed. */
pid_t subproc_exec(const char *path, char *const argv[], const subproc_fd *fds, int n, int flags, subproc_error *e);

/* "pipe: <reason>", "fork: <reason>", "<path>: <reason>" (set-up or exec), or "" when started. */
const char *subproc_error_text(const subproc_error *e, const char *path, char *buf, size_t cap);

/* What subproc_wait_until does at the deadline. */
typedef enum subproc_on_deadline {
  SUBPROC_KEEP,       /* nothing: return SUBPROC_RUNNING, the child not reaped */
  SUBPROC_KILL,       /* SIGKILL the child, reap it */
  SUBPROC_KILL_GROUP  /* SIGKILL the child's process group (SUBPROC_NEW_GROUP), reap the child */
} subproc_on_deadline;

enum { SUBPROC_ENDED = 0, SUBPROC_KILLED = 1, SUBPROC_RUNNING = 2 };

/* Waits for child pid until deadline (clock_now_s; a deadline already past
 * looks once). Returns SUBPROC_ENDED (it ended by itself: *status, a wait status),
 * SUBPROC_KILLED (killed at the deadline and reaped: *status), SUBPROC_RUNNING
 * (SUBPROC_KEEP, deadline reached), or -1 with errno when it cannot be waited for. */
int subproc_wait_until(pid_t pid, double deadline, subproc_on_deadline on_deadline, int *status);

/* A wait status in words: "exited with status 3", "was killed by signal 9
 * (Killed)", else "ended in an unknown way (wait status N)". Returns buf. */
const char *subproc_status_text(int status, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
