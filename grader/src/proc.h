/* proc.h: run one untrusted child process with a wall-clock limit.
 *
 * The child gets its own process group (so a timeout kills everything it
 * started), stdout and stderr captured into bounded buffers (the first and the
 * last CAPTURE_KEEP bytes of each; the rest is counted and dropped), and a
 * private pipe as file descriptor 3 for result lines. The grader never blocks
 * on a child: every read is non-blocking under poll(2) with a deadline. The
 * fork, exec and final wait are grader/lib/subproc.h's. */
#ifndef SCANLAB_PROC_H
#define SCANLAB_PROC_H

#include <stddef.h>

#define CAPTURE_KEEP 16384
#define PROC_RESULT_FD 3

typedef struct capture {
  char head[CAPTURE_KEEP];
  size_t head_len;
  char tail[CAPTURE_KEEP]; /* ring buffer of the latest bytes after head filled */
  size_t tail_pos, tail_len;
  size_t total;
} capture;

typedef enum proc_status {
  PROC_EXITED,       /* exit_code is set */
  PROC_SIGNALED,     /* died of a signal: sig */
  PROC_TIMEOUT,      /* killed at the deadline */
  PROC_INTERRUPTED,  /* the grader was interrupted (SIGINT/SIGTERM) and killed it */
  PROC_SPAWN_FAILED  /* could not start: spawn_error */
} proc_status;

typedef struct proc_result {
  proc_status status;
  int exit_code;
  int sig;
  double wall_s;
  char spawn_error[256];
  capture out, err, results;
} proc_result;

/* Runs argv[0] (a path) with argv. Never returns early, never hangs past
 * timeout_s plus a short grace. The result is written into *r. */
void proc_run(char *const argv[], double timeout_s, proc_result *r);

/* Writes the captured text (head, an omission note, tail) into a malloc'd,
 * NUL-terminated string. */
char *capture_text(const capture *c);

/* One-line description: "exit 0", "killed by signal 11 (Segmentation fault)",
 * "timed out after 10 s", ... into buf. */
const char *proc_describe(const proc_result *r, char *buf, size_t cap);

/* Set by the SIGINT/SIGTERM handler that grade.c installs; proc_run kills its
 * child and returns PROC_INTERRUPTED when it becomes nonzero. */
extern volatile int proc_interrupted;

#endif
