/* wire.h: the messages between the judge (trusted) and the runner (untrusted).
 *
 * The judge starts the runner with three descriptors: WIRE_FD_CMD (the judge's
 * commands, read by the runner), WIRE_FD_REPLY (the runner's replies) and
 * WIRE_FD_SHM (a memfd both map: the inputs of every call of a batch, written by
 * the judge, and the raw outputs, written by the runner). Every message is one
 * fixed-size wire_msg; the judge validates every field of every reply, because
 * the runner holds the student's code and may write anything to any of them.
 *
 *   runner -> HELLO   its assignment, its variant slugs, the device
 *   judge  -> CASE    variant, n, param, the buffers of one call (offsets in a
 *                     slot of the shared memory), calls per batch
 *   runner -> READY   workspace bytes (asked of the student's code)
 *   judge  -> RUN     calls (0 to WIRE_MAX_BATCH; 0 times an empty window):
 *                     upload each call's inputs, poison its outputs, settle
 *                     the caches, wait until the device is idle
 *   runner -> SET     ready to be timed
 *   judge  -> GO      the judge's clock starts as it sends this
 *   runner -> DONE    sent once the calls have returned and the device is idle
 *                     (every stream, graph and host callback): the judge's
 *                     clock stops as it reads this; the runner's own
 *                     milliseconds ride along
 *   runner -> OUT     every output downloaded into the shared memory
 *   judge  -> IDLE    (a duel, before the other side is timed) wait until the
 *                     device is idle: every stream, graph and host callback
 *   runner -> QUIET   the device is idle; the judge times IDLE -> QUIET, and
 *                     RUN -> SET and DONE -> OUT, as well as GO -> DONE
 *   judge  -> END     the case is over: free its buffers
 *   judge  -> QUIT
 *
 * Nothing the runner sends is a verdict: the judge compares the outputs itself,
 * and times GO -> DONE on its own clock; a sample's time is the larger of that
 * and the runner's word, so a runner that lies about its time can only look
 * slower. The judge's clock is on the other steps too (RUN -> SET, DONE -> OUT,
 * IDLE -> QUIET): in a duel, what a student's step takes beyond the
 * reference's same step is charged to its samples (docs/grading.md, threat
 * model). */
#ifndef SCANLAB_WIRE_H
#define SCANLAB_WIRE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WIRE_MAGIC 0x314241534e414353ull /* "SCANSAB1" */
#define WIRE_FD_CMD 3
#define WIRE_FD_REPLY 4
#define WIRE_FD_SHM 5
#define WIRE_MAX_BUFS 4
#define WIRE_MAX_SLUGS 16
#define WIRE_NAME 64
#define WIRE_COPY_VARIANT (-1) /* the device-to-device copy of in[0] into out[0] */
#define WIRE_MAX_BATCH 256
/* The seccomp filters the runner installs before its HELLO (grader/runner/sandbox.c: the deny
 * list, then no new thread): the judge requires /proc/PID/status to show its own count plus
 * these (grader/judge/confinement.c). */
#define WIRE_SANDBOX_FILTERS 2
/* A runner under ncu (--profiled) installs the first alone: ncu's library starts threads while
 * it profiles, and nothing is timed there (grader/runner/runner_loop.c, confine). */
#define WIRE_SANDBOX_FILTERS_PROFILED 1

typedef enum wire_op {
  WIRE_HELLO = 1,
  WIRE_CASE,
  WIRE_READY,
  WIRE_RUN,
  WIRE_DONE,
  WIRE_END,
  WIRE_QUIT,
  WIRE_SET,
  WIRE_GO,
  WIRE_OUT,
  WIRE_IDLE,
  WIRE_QUIET,
} wire_op;

/* One buffer of one call, inside the call's slot of the shared memory. */
typedef struct wire_buf {
  uint64_t offset;       /* from the start of the slot */
  uint64_t bytes;        /* inputs: uploaded; outputs: downloaded after the call */
  uint64_t device_bytes; /* device allocation, poisoned (0xA5) before every call; >= bytes */
} wire_buf;

typedef struct wire_hello {
  char assignment[WIRE_NAME];
  char device[128];
  uint32_t n_slugs;
  uint32_t pid;
  char slugs[WIRE_MAX_SLUGS][WIRE_NAME];
} wire_hello;

typedef struct wire_case {
  int32_t variant; /* index into the runner's slugs, or WIRE_COPY_VARIANT */
  uint32_t n_in, n_out;
  uint32_t batch; /* calls per RUN at most: slots in the shared memory */
  uint64_t n, param;
  uint64_t slot_bytes; /* the distance between two calls' slots */
  uint64_t shm_bytes;  /* the size of the shared memory: batch * slot_bytes */
  wire_buf in[WIRE_MAX_BUFS], out[WIRE_MAX_BUFS];
} wire_case;

typedef struct wire_msg {
  uint64_t magic;
  uint32_t op;
  uint32_t seq; /* the judge's numbering; a reply repeats the command's */
  union {
    wire_hello hello;
    wire_case kase;
    struct { uint64_t work_bytes; } ready;
    struct { uint32_t calls; } run;
    struct { double ms; uint32_t calls; } done;
  } u;
} wire_msg;

/* Writes one message (all of it, retrying on EINTR). 0, or -1 with errno. */
int wire_send(int fd, const wire_msg *m);
/* Reads one message, waiting at most timeout_ms (-1: forever). Returns 0; -1
 * with errno on an error or end of file (errno 0 then); -2 on timeout. */
int wire_recv(int fd, wire_msg *m, int timeout_ms);
/* wire_recv that first polls without sleeping for up to spin_ms: the two ends
 * of the timed window (GO, DONE) then cost no scheduler wake-up, a few
 * microseconds a sample instead of tens. */
int wire_recv_spin(int fd, wire_msg *m, int timeout_ms, double spin_ms);
/* Checks a CASE's layout: every buffer inside its slot, slots inside the
 * shared memory, counts in range. 0, or -1 with a one-line reason. */
int wire_case_valid(const wire_case *c, char *err, size_t cap);
const char *wire_op_name(uint32_t op);

#ifdef __cplusplus
}
#endif
#endif
