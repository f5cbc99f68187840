/* clock.h: the one monotonic clock of the course's host code, in seconds. */
#ifndef SCANLAB_CLOCK_H
#define SCANLAB_CLOCK_H

#include <time.h>

static inline double clock_now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
