/* session.h: the judge's end of one runner process (wire.h).
 *
 * session_start forks the runner with exactly the descriptors of the protocol
 * (commands, replies, the shared memory; stdout and stderr are the judge's, so
 * the grader captures them) and reads its HELLO. Every later step waits at most
 * the call limit and checks every field it reads: a runner that dies, hangs,
 * or writes garbage ends the session with a one-line reason in s->why; so does
 * a reply that no command asked for, found before the next command is sent or
 * after the runner has ended (a second DONE, a SET without RUN). */
#ifndef SCANLAB_SESSION_H
#define SCANLAB_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proc_tree.h"
#include "wire.h"

typedef struct session {
  pid_t pid;
  int cmd, reply, shm_fd;
  char *shm;
  size_t shm_bytes;
  uint32_t seq;
  int limit_ms; /* how long one reply may take */
  int profiled;  /* started with --profiled: WIRE_SANDBOX_FILTERS_PROFILED filters, not WIRE_SANDBOX_FILTERS */
  uint32_t calls; /* of the batch being run */
  wire_hello hello;
  int paused;    /* stopped by session_pause */
  pid_t stopped[PROC_TREE_MAX]; /* the other processes session_pause stopped (its tree, strays) */
  int n_stopped;
  double prep_ms; /* the last RUN -> SET, on the judge's clock */
  int dead;      /* the runner is gone or broken: why says how */
  int exit_code; /* when it exited: its code, else -1 */
  char why[400];
} session;

/* argv: the command that starts the runner (a tool prefix such as
 * compute-sanitizer, then the runner's path); session adds --runner-protocol,
 * and --profiled DIR when profiled_dir is not NULL (a runner under ncu:
 * grader/runner/profiling.h). There is no unsandboxed runner: the judge checks
 * the sandbox (confinement.h). Returns 0, or -1 with s->why. */
int session_start(session *s, char *const argv[], const char *profiled_dir, int limit_ms);
/* session_start in two halves, so that two runners (a duel) make their CUDA
 * contexts at the same time: spawn forks and execs; hello waits for the HELLO. */
int session_spawn(session *s, char *const argv[], const char *profiled_dir, int limit_ms);
int session_hello(session *s);
/* Opens a case: sizes the shared memory (s->shm) and sends CASE; the runner's
 * workspace bytes in *work. 0, or -1 with s->why. */
int session_case(session *s, wire_case *c, uint64_t *work);
/* One batch of `calls` calls (0: an empty window, what the protocol and the
 * wait for an idle device cost) of the open case, in two steps: prepare (RUN:
 * the runner uploads, poisons, settles and waits for an idle device) and go
 * (GO ... DONE, then OUT: the outputs are in the shared memory). The judge's
 * clock is on every step: the sample's time is GO -> DONE; RUN -> SET and
 * DONE -> OUT are the phases around it, which a duel compares with the
 * reference's (phase_clock.h). 0, or -1 with s->why. */
typedef struct session_time {
  double judge_ms;  /* GO sent -> DONE read, on the judge's monotonic clock */
  double runner_ms; /* the runner's word (its own clock around the calls) */
  double ms;        /* the sample's time: the larger of the two */
  double prep_ms;   /* RUN sent -> SET read (uploads, poisoning, settling, waiting for an idle device) */
  double fetch_ms;  /* DONE read -> OUT read (the downloads) */
} session_time;
int session_prepare(session *s, uint32_t calls);
int session_go(session *s, session_time *t);
int session_end_case(session *s);
/* The IDLE probe: the runner waits until its device is idle (runner_loop.c,
 * course code) and answers QUIET; *ms is IDLE -> QUIET on the judge's clock.
 * A duel probes a side before it stops it, so that no work it queued on the
 * device runs while the other side is timed, and charges what the wait took
 * beyond the reference's (phase_clock.h). 0, or -1 with s->why. */
int session_idle(session *s, double *ms);
/* A duel keeps the runner that is not being timed stopped: session_pause sends
 * SIGSTOP to the runner and to every process of its tree (proc_tree.h: its
 * descendants in whatever group or session, and the judge's adopted orphans)
 * and waits until they have stopped, so none of their threads can launch GPU
 * work or take a core while the other side runs; session_resume sends SIGCONT
 * to the same processes. Work the runner queued on the GPU is drained by the
 * IDLE probe before the pause (session_idle). */
void session_pause(session *s);
void session_resume(session *s);
/* In a duel: the judge adopts the orphans of its runners' helpers (proc_tree.h),
 * so that session_pause finds them, and session_finish kills them. 0, or -1
 * with errno. */
int session_adopt_orphans(void);
/* QUIT and wait (or, after a failure, kill and wait). Returns 0 when the runner
 * ended cleanly, else -1 with s->why (how it ended, if it was not said yet). */
int session_finish(session *s);

#endif
