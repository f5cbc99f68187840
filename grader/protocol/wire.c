/* wire.c: sending, receiving and checking judge-runner messages (wire.h). */
#include "wire.h"

#include "clock.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int wire_send(int fd, const wire_msg *m) {
  const char *p = (const char *)m;
  size_t left = sizeof *m;
  while (left) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    left -= (size_t)w;
  }
  return 0;
}

static double now_ms(void) { return 1e3 * clock_now_s(); }

int wire_recv(int fd, wire_msg *m, int timeout_ms) {
  char *p = (char *)m;
  size_t left = sizeof *m;
  double deadline = timeout_ms < 0 ? 0 : now_ms() + timeout_ms;
  while (left) {
    if (timeout_ms >= 0) {
      double wait = deadline - now_ms();
      if (wait <= 0) return -2;
      struct pollfd pf = {fd, POLLIN, 0};
      int r = poll(&pf, 1, (int)(wait + 1));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return -1;
      if (r == 0) return -2;
    }
    ssize_t got = read(fd, p, left);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return -1;
    if (got == 0) {
      errno = 0;
      return -1;
    }
    p += got;
    left -= (size_t)got;
  }
  return 0;
}

int wire_recv_spin(int fd, wire_msg *m, int timeout_ms, double spin_ms) {
  double start = now_ms(), until = start + spin_ms;
  struct pollfd pf = {fd, POLLIN, 0};
  while (now_ms() < until && (timeout_ms < 0 || now_ms() - start < timeout_ms)) {
    int r = poll(&pf, 1, 0);
    if (r > 0) break;
    if (r < 0 && errno != EINTR) return -1;
  }
  if (timeout_ms < 0) return wire_recv(fd, m, -1);
  int left = timeout_ms - (int)(now_ms() - start);
  return wire_recv(fd, m, left > 0 ? left : 1);
}

static int buf_valid(const wire_buf *b, uint64_t slot, const char *what, int i, char *err, size_t cap) {
  if (b->offset > slot || b->bytes > slot - b->offset) {
    snprintf(err, cap, "%s[%d] (%llu bytes at %llu) is outside its slot of %llu bytes", what, i,
             (unsigned long long)b->bytes, (unsigned long long)b->offset, (unsigned long long)slot);
    return -1;
  }
  if (b->device_bytes < b->bytes) {
    snprintf(err, cap, "%s[%d]: device_bytes %llu < bytes %llu", what, i, (unsigned long long)b->device_bytes,
             (unsigned long long)b->bytes);
    return -1;
  }
  return 0;
}

int wire_case_valid(const wire_case *c, char *err, size_t cap) {
  if (c->n_in > WIRE_MAX_BUFS || c->n_out > WIRE_MAX_BUFS || c->n_out == 0)
    return snprintf(err, cap, "%u inputs and %u outputs (at most %d each, at least one output)", c->n_in, c->n_out,
                    WIRE_MAX_BUFS), -1;
  if (c->batch == 0 || c->batch > WIRE_MAX_BATCH) return snprintf(err, cap, "batch %u is not in [1, %d]", c->batch, WIRE_MAX_BATCH), -1;
  if (c->slot_bytes == 0 || c->shm_bytes / c->batch < c->slot_bytes)
    return snprintf(err, cap, "%u slots of %llu bytes do not fit %llu bytes", c->batch, (unsigned long long)c->slot_bytes,
                    (unsigned long long)c->shm_bytes), -1;
  for (uint32_t i = 0; i < c->n_in; i++)
    if (buf_valid(&c->in[i], c->slot_bytes, "in", (int)i, err, cap)) return -1;
  for (uint32_t i = 0; i < c->n_out; i++)
    if (buf_valid(&c->out[i], c->slot_bytes, "out", (int)i, err, cap)) return -1;
  return 0;
}

const char *wire_op_name(uint32_t op) {
  static const char *const names[] = {
      [WIRE_HELLO] = "HELLO", [WIRE_CASE] = "CASE", [WIRE_READY] = "READY", [WIRE_RUN] = "RUN",
      [WIRE_DONE] = "DONE",   [WIRE_END] = "END",   [WIRE_QUIT] = "QUIT",  [WIRE_SET] = "SET",
      [WIRE_GO] = "GO",       [WIRE_OUT] = "OUT",   [WIRE_IDLE] = "IDLE", [WIRE_QUIET] = "QUIET",
  };
  return op < sizeof names / sizeof *names && names[op] ? names[op] : "an unknown message";
}
