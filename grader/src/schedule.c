/* schedule.c: the checks of a grading, side by side or alone (schedule.h). */
#include "schedule.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "kind_table.h"
#include "proc.h"

/* The check, here, timed: where a grading's time goes (results.json). */
static void run_here(sched_item *it) {
  double t0 = clock_now_s();
  check_run(it->ctx, it->c, it->r, it->earlier, it->index);
  it->r->seconds = clock_now_s() - t0;
}

/* ---------------------------------------------------------------- a result between processes */

static int put(int fd, const void *p, size_t len) {
  for (const char *b = p; len;) {
    ssize_t w = write(fd, b, len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    b += w, len -= (size_t)w;
  }
  return 0;
}

static int put_text(int fd, const char *s) {
  uint64_t len = s ? strlen(s) + 1 : 0; /* 0: NULL */
  return put(fd, &len, sizeof len) || (len && put(fd, s, len));
}

/* The child's result as bytes: the struct, then its two strings. */
static int result_write(int fd, const check_result *r) {
  return put(fd, r, sizeof *r) || put_text(fd, r->output) || put_text(fd, r->files);
}

static const char *take_text(const char **p, const char *end, char **out) {
  uint64_t len;
  *out = NULL;
  if ((size_t)(end - *p) < sizeof len) return "cut short";
  memcpy(&len, *p, sizeof len);
  *p += sizeof len;
  if (!len) return NULL;
  if (len > (uint64_t)(end - *p) || (*p)[len - 1]) return "a bad string";
  *out = strdup(*p);
  *p += len;
  return *out ? NULL : "out of memory";
}

/* Reads what result_write wrote into r (its pointers made here). NULL, or what is wrong. */
static const char *result_read(int fd, check_result *r) {
  struct stat st;
  if (fstat(fd, &st) || st.st_size < (off_t)sizeof *r) return "no result was written";
  char *buf = malloc((size_t)st.st_size);
  if (!buf) return "out of memory";
  const char *why = NULL;
  if (pread(fd, buf, (size_t)st.st_size, 0) != st.st_size) {
    why = "cannot read it back";
  } else {
    const char *p = buf + sizeof *r, *end = buf + st.st_size;
    const check_conf *conf = r->conf;
    char *output = NULL, *files = NULL;
    why = take_text(&p, end, &output);
    if (!why) why = take_text(&p, end, &files);
    if (!why) {
      memcpy(r, buf, sizeof *r);
      r->conf = conf, r->output = output, r->files = files;
    } else {
      free(output), free(files);
    }
  }
  free(buf);
  return why;
}

/* A check whose process died before it wrote its result: an error of the
 * grader, never a lost row. */
static void child_lost(sched_item *it, const char *what) {
  check_result *r = it->r;
  const check_conf *c = r->conf;
  memset(r, 0, sizeof *r);
  r->conf = c;
  r->max = c->points;
  r->v = V_ERROR;
  snprintf(r->reason, sizeof r->reason, "not scored: the grader's process for this check %s", what);
  r->output = strdup(r->reason);
}

/* ---------------------------------------------------------------- the schedule */

typedef struct slot {
  pid_t pid;
  int fd, item;
  double t0;
} slot;

/* Item j is a requirement of item i: the same assignment, an earlier check, named in i's requires. */
static int requires_item(const sched_item *items, int i, int j) {
  if (items[j].earlier != items[i].earlier || j == i) return 0;
  for (int k = 0; k < items[i].c->n_requires; k++)
    if (!strcmp(items[i].c->requires[k], items[j].c->name)) return 1;
  return 0;
}

static int ready(const sched_item *items, int n, int i) {
  for (int j = 0; j < n; j++)
    if (requires_item(items, i, j) && !items[j].done) return 0;
  return 1;
}

static int start(sched_item *items, int i, slot *s) {
  int fd = memfd_create("scanlab-check", MFD_CLOEXEC);
  if (fd < 0) return -1;
  fflush(NULL); /* nothing buffered here is written twice */
  pid_t pid = fork();
  if (pid < 0) {
    close(fd);
    return -1;
  }
  if (pid == 0) {
    run_here(&items[i]);
    _exit(result_write(fd, items[i].r) ? 1 : 0);
  }
  *s = (slot){pid, fd, i, clock_now_s()};
  items[i].running = 1;
  return 0;
}

static void finish(sched_item *items, slot *s, int status, sched_done_fn done, void *arg) {
  sched_item *it = &items[s->item];
  char what[96];
  const char *why = NULL;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) why = result_read(s->fd, it->r);
  else if (WIFSIGNALED(status)) snprintf(what, sizeof what, "died of signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status))), why = what;
  else snprintf(what, sizeof what, "exited with status %d", WEXITSTATUS(status)), why = what;
  if (why) {
    char lost[160];
    snprintf(lost, sizeof lost, "%s%s", why == what ? "" : "left no result: ", why);
    child_lost(it, lost);
    it->r->seconds = clock_now_s() - s->t0;
  }
  close(s->fd);
  it->running = 0;
  it->done = 1;
  s->pid = 0;
  done(arg, s->item);
}

void schedule_run(sched_item *items, int n, int jobs, sched_done_fn done, void *arg) {
  if (n <= 0) return;
  for (int i = 0; i < n; i++) { /* a row that is not run yet still names its check (unmet_requirement reads them) */
    check_result *r = items[i].r;
    memset(r, 0, sizeof *r);
    r->conf = items[i].c;
    r->max = items[i].c->points;
    r->v = V_SKIPPED;
    const kind_row *row = kind_row_get(items[i].c->kind);
    items[i].alone = row && row->alone;
    for (int j = 0; j < i; j++) items[i].alone |= items[j].alone && requires_item(items, i, j);
    items[i].done = items[i].running = 0;
  }
  if (jobs > SCHED_MAX_JOBS) jobs = SCHED_MAX_JOBS;
  if (jobs > 1) {
    slot slots[SCHED_MAX_JOBS] = {{0}};
    int running = 0, *order = malloc((size_t)n * sizeof *order), k = 0, last = 0;
    for (int i = 0; i < n; i++) last = items[i].index > last ? items[i].index : last;
    /* Round robin over the assignments (each one's first check, then each
     * one's second, ...): a long check late in one assignment (a
     * large scan's correct-large) starts early instead of after every other assignment. */
    for (int rank = 0; order && rank <= last; rank++)
      for (int i = 0; i < n; i++)
        if (items[i].index == rank) order[k++] = i;
    for (; order;) {
      /* Fill the free slots with the first items that may start. */
      for (int o = 0; o < n && running < jobs && !proc_interrupted; o++) {
        int i = order[o];
        if (items[i].alone || items[i].done || items[i].running || !ready(items, n, i)) continue;
        int free_slot = 0;
        while (slots[free_slot].pid) free_slot++;
        if (start(items, i, &slots[free_slot])) break; /* no fork: the rest run here, below */
        running++;
      }
      if (!running) break;
      int status;
      pid_t pid = waitpid(-1, &status, 0);
      if (pid < 0 && errno != EINTR) { /* no child can be waited for: none of theirs is run twice, none lost */
        for (int q = 0; q < jobs; q++)
          if (slots[q].pid) {
            sched_item *it = &items[slots[q].item];
            child_lost(it, "could not be waited for");
            close(slots[q].fd);
            it->running = 0, it->done = 1, slots[q].pid = 0;
            done(arg, slots[q].item);
          }
        break;
      }
      if (pid < 0) {
        /* Interrupted: a Ctrl-C reached the children too, a SIGTERM only this
         * process; either way each child stops its check (its own handler). */
        for (int q = 0; q < jobs && proc_interrupted; q++)
          if (slots[q].pid) kill(slots[q].pid, SIGTERM);
        continue;
      }
      for (int q = 0; q < jobs; q++)
        if (slots[q].pid == pid) {
          finish(items, &slots[q], status, done, arg);
          running--;
        }
    }
    free(order);
  }
  /* Alone, in order: the checks that time or profile the GPU, and any the children did not take. */
  for (int i = 0; i < n; i++) {
    if (items[i].done) continue;
    run_here(&items[i]);
    items[i].done = 1;
    done(arg, i);
  }
}

int schedule_default_jobs(int have_gpu, const char *gpu_note) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int jobs = cpus > 0 ? (int)(cpus / 4) : 1;
  if (jobs > 4) jobs = 4;
  if (have_gpu && gpu_note) {
    /* gpuinfo's line: "NAME, sm_XY, N SMs, G GiB, CUDA driver ..." */
    for (const char *p = gpu_note; (p = strstr(p, " GiB")) != NULL; p++) {
      const char *q = p;
      while (q > gpu_note && q[-1] >= '0' && q[-1] <= '9') q--;
      if (q == p) continue;
      int gib = atoi(q);
      if (gib / 8 < jobs) jobs = gib / 8;
      break;
    }
  }
  return jobs < 2 ? 1 : jobs;
}
