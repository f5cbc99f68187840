/* proc_tree.c: a runner's processes, found through /proc (proc_tree.h). */
#include "proc_tree.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

int judge_tree_adopt_orphans(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

static int contains(const pid_t *a, int n, pid_t p) {
  for (int i = 0; i < n; i++)
    if (a[i] == p) return 1;
  return 0;
}

/* The children of every thread of pid, appended to out (no duplicates). */
static int add_children(pid_t pid, pid_t *out, int n, int cap) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
  DIR *d = opendir(path);
  if (!d) return n; /* gone meanwhile: nothing to stop */
  struct dirent *e;
  while ((e = readdir(d)) && n < cap) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char file[128], buf[1024];
    snprintf(file, sizeof file, "/proc/%ld/task/%s/children", (long)pid, e->d_name);
    FILE *f = fopen(file, "r");
    if (!f) continue;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    for (char *p = buf, *end; n < cap; p = end) {
      long k = strtol(p, &end, 10);
      if (end == p) break;
      if (k > 0 && !contains(out, n, (pid_t)k)) out[n++] = (pid_t)k;
    }
  }
  closedir(d);
  return n;
}

int judge_tree_descendants(pid_t root, pid_t *out, int n, int cap) {
  int first = n;
  n = add_children(root, out, n, cap);
  for (int i = first; i < n; i++) n = add_children(out[i], out, n, cap); /* breadth first: out grows behind i */
  return n;
}

int judge_tree_strays(const pid_t *runners, int n_runners, pid_t *out, int n, int cap) {
  pid_t kids[PROC_TREE_MAX];
  int k = add_children(getpid(), kids, 0, PROC_TREE_MAX);
  for (int i = 0; i < k && n < cap; i++) {
    if (contains(runners, n_runners, kids[i]) || contains(out, n, kids[i])) continue;
    out[n++] = kids[i];
    n = judge_tree_descendants(kids[i], out, n, cap);
  }
  return n;
}

/* pid's state letter (/proc/PID/stat's third field), or 0 when it is gone. */
static char state_of(pid_t pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t len = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[len] = 0;
  const char *close = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
  return close && close[1] == ' ' ? close[2] : 0;
}

int judge_tree_wait_stopped(pid_t pid, double deadline) {
  for (;;) {
    char s = state_of(pid);
    if (s == 0 || s == 'T' || s == 't' || s == 'Z' || s == 'X') return 1;
    if (clock_now_s() >= deadline) return 0;
    struct timespec t = {0, 50 * 1000}; /* 50 us */
    nanosleep(&t, NULL);
  }
}
