/* backend_cpu.c: a host-memory device for the harness driver, so the CPU tier
 * tests the driver's logic (every rep verified, workspace, next_frame, typed
 * comparison, copy row) without a GPU. "Device" memory is malloc'd, with a
 * capacity the tests set to provoke out-of-memory; the comparison is the same
 * hx_judge the GPU kernel runs. */
#include "backend_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t cpu_capacity = (size_t)1 << 30;
static size_t used;

typedef struct block_hdr {
  size_t bytes;
  size_t pad; /* keeps the payload 16-byte aligned */
} block_hdr;

static void c_init(char *desc, size_t cap) { snprintf(desc, cap, "host memory (the CPU tier's test device)"); }

static void *c_alloc(size_t bytes) {
  if (bytes > cpu_capacity - used) return NULL;
  block_hdr *h = (block_hdr *)malloc(sizeof *h + bytes);
  if (!h) return NULL;
  h->bytes = bytes;
  used += bytes;
  return h + 1;
}

static void c_release(void *p) {
  block_hdr *h = (block_hdr *)p - 1;
  used -= h->bytes;
  free(h);
}

static void c_mem_info(size_t *free_b, size_t *total) {
  *free_b = cpu_capacity - used;
  *total = cpu_capacity;
}

static void c_fill(void *d, int byte, size_t bytes) { memset(d, byte, bytes); }
static void c_move(void *dst, const void *src, size_t bytes) { memmove(dst, src, bytes); }

static void c_compare(const hx_cmp_job *job, hx_cmp_sum *sum) {
  memset(sum, 0, sizeof *sum);
  sum->first_bad = HX_NONE;
  for (size_t i = 0; i < job->count; i++) {
    if (job->mask && job->mask[i]) {
      sum->masked++;
      continue;
    }
    hx_elem_verdict v = hx_judge(job->type, job->got, job->expected, i, job->tol);
    if (v.wrong && sum->first_bad == HX_NONE) sum->first_bad = i;
    sum->mismatches += (uint64_t)v.wrong;
    sum->nonfinite += (uint64_t)v.nonfinite;
    if (v.err > sum->max_err) sum->max_err = v.err;
  }
}

static struct timespec t0;
static void c_timer_start(void) { clock_gettime(CLOCK_MONOTONIC, &t0); }
static double c_timer_stop_ms(void) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
}

const hx_backend HX_CPU_BACKEND = {
    "cpu", c_init, c_alloc, c_release, c_mem_info, c_fill, c_move, c_move, c_move, c_compare,
    c_timer_start, c_timer_stop_ms,
};
