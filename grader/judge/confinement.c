/* confinement.c: is the runner in its sandbox? The kernel says, in /proc (confinement.h). */
#include "confinement.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "wire.h"

/* What one /proc/.../status says about seccomp; -1 where a line is missing. */
typedef struct seccomp_state {
  int mode, filters, no_new_privs;
} seccomp_state;

/* 0, or -1 with errno when the file cannot be read. */
static int read_status(const char *path, seccomp_state *st, long *ppid) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[256];
  st->mode = st->filters = st->no_new_privs = -1;
  if (ppid) *ppid = -1;
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "Seccomp:", 8)) st->mode = atoi(line + 8);
    else if (!strncmp(line, "Seccomp_filters:", 16)) st->filters = atoi(line + 16);
    else if (!strncmp(line, "NoNewPrivs:", 11)) st->no_new_privs = atoi(line + 11);
    else if (ppid && !strncmp(line, "PPid:", 5)) *ppid = atol(line + 5);
  }
  fclose(f);
  return 0;
}

/* The judge's own filters, read once: the runner inherits them. */
static int own_filters(int *filters, char *why, size_t cap) {
  static int known, mode, count;
  if (!known) {
    seccomp_state st;
    if (read_status("/proc/self/status", &st, NULL)) {
      snprintf(why, cap, "cannot read the judge's own /proc/self/status: %s (is /proc mounted?)", strerror(errno));
      return -1;
    }
    mode = st.mode, count = st.filters, known = 1;
  }
  if (mode < 0) {
    snprintf(why, cap, "cannot check the runner's sandbox: this kernel's /proc/PID/status has no Seccomp line");
    return -1;
  }
  if (count < 0 && mode != 0) { /* Linux before 5.9 counts no filters; inherited ones would hide a missing sandbox */
    snprintf(why, cap, "cannot check the runner's sandbox: the judge runs under %s seccomp filter of its own and this "
             "kernel's /proc/PID/status does not count filters (Seccomp_filters, Linux 5.9)", mode == 1 ? "a strict" : "a");
    return -1;
  }
  *filters = count < 0 ? 0 : count;
  return 0;
}

/* Whether pid is top or a descendant of it: a tool that starts the runner may stand between them. */
static int descends_from(long pid, long top) {
  for (int depth = 0; depth < 8 && pid > 1; depth++) {
    if (pid == top) return 1;
    char path[64];
    seccomp_state st;
    long ppid;
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    if (read_status(path, &st, &ppid)) return 0;
    pid = ppid;
  }
  return pid == top;
}

/* One thread's status against what the sandbox installs. */
static int check_thread(const char *path, long pid, int want, int base, char *why, size_t cap) {
  int own = want - base;
  seccomp_state st;
  if (read_status(path, &st, NULL)) {
    if (errno == ENOENT) return 0; /* a thread that has just ended */
    snprintf(why, cap, "cannot check the runner's sandbox: %s: %s", path, strerror(errno));
    return -1;
  }
  if (st.mode != 2) {
    snprintf(why, cap, "the runner is not sandboxed: /proc/%ld/status says Seccomp: %d", pid, st.mode);
    return -1;
  }
  if (st.filters >= 0 && st.filters != want) {
    snprintf(why, cap, "the runner is not in its sandbox: /proc/%ld/status says Seccomp_filters: %d, not %d (the judge's "
             "%d and the runner's %d)", pid, st.filters, want, base, own);
    return -1;
  }
  if (st.no_new_privs == 0) {
    snprintf(why, cap, "the runner is not in its sandbox: /proc/%ld/status says NoNewPrivs: 0", pid);
    return -1;
  }
  return 0;
}

int confinement_check(const session *s, char *why, size_t cap) {
  int base;
  if (own_filters(&base, why, cap)) return -1;
  long pid = (long)s->hello.pid;
  if (s->pid <= 0) {
    snprintf(why, cap, "the runner is gone");
    return -1;
  }
  if (pid != (long)s->pid && !descends_from(pid, (long)s->pid)) {
    snprintf(why, cap, "the runner says it is process %ld, which the judge did not start (it started %ld)", pid,
             (long)s->pid);
    return -1;
  }
  char dir[64], path[128];
  snprintf(dir, sizeof dir, "/proc/%ld/task", pid);
  DIR *d = opendir(dir);
  if (!d) {
    snprintf(why, cap, "cannot check the runner's sandbox: %s: %s", dir, strerror(errno));
    return -1;
  }
  int rc = 0, threads = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) { /* every thread: a filter on the main one alone is not the sandbox */
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    snprintf(path, sizeof path, "%s/%s/status", dir, e->d_name);
    rc = check_thread(path, pid, base + (s->profiled ? WIRE_SANDBOX_FILTERS_PROFILED : WIRE_SANDBOX_FILTERS), base, why, cap);
    threads++;
  }
  closedir(d);
  if (!rc && !threads) {
    snprintf(why, cap, "cannot check the runner's sandbox: %s lists no thread", dir);
    return -1;
  }
  return rc;
}
