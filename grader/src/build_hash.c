/* build_hash.c: the course files and the toolchain in the build's hash (build_hash.h). */
#include "build_hash.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "proc.h"

/* The file's path, size and bytes. 0, or -1 with errno. */
static int hash_file(sha256 *h, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  sha256_add_str(h, path);
  char buf[65536];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) sha256_add(h, buf, got);
  int bad = ferror(f);
  fclose(f);
  sha256_add_str(h, "\n--\n");
  return bad ? -1 : 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every regular file directly in folder (not its subfolders: data, references), in name order. */
static int hash_folder(sha256 *h, const char *folder, char *why, size_t cap) {
  DIR *d = opendir(folder);
  if (!d) return snprintf(why, cap, "not built: cannot read %s: %s", folder, strerror(errno)), -1;
  char *names[256];
  int n = 0, rc = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256) {
    char path[BUILD_PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
    if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) names[n++] = strdup(path);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  for (int i = 0; i < n; i++) {
    if (!rc && hash_file(h, names[i])) {
      snprintf(why, cap, "not built: cannot read %s: %s", names[i], strerror(errno));
      rc = -1;
    }
    free(names[i]);
  }
  return rc;
}

int build_hash_course(sha256 *h, const char *adir, int with_judge, char *why, size_t cap) {
  char runner[BUILD_PATH_MAX], judge[BUILD_PATH_MAX];
  snprintf(runner, sizeof runner, "%s/runner", adir);
  snprintf(judge, sizeof judge, "%s/judge", adir);
  /* grader/inspect: the inspection, its scripts and the lists they read. */
  const char *folders[] = {adir, runner, "grader/runner", "grader/protocol", "grader/inspect", with_judge ? judge : NULL};
  for (size_t i = 0; i < sizeof folders / sizeof *folders; i++)
    if (folders[i] && hash_folder(h, folders[i], why, cap)) return -1;
  return 0;
}

int build_hash_tools(sha256 *h, const build_tools *t, int with_model, char *why, size_t cap) {
  sha256_add_str(h, t->nvcc);
  for (int i = 0; i < t->n_gencode; i++) sha256_add_str(h, t->gencode[i]);
  char *argv[] = {(char *)t->nvcc, "--version", NULL};
  proc_result *p = calloc(1, sizeof *p);
  if (!p) return snprintf(why, cap, "not built: out of memory in the grader"), -1;
  proc_run(argv, 60, p);
  char *out = capture_text(&p->out), what[160];
  int ok = p->status == PROC_EXITED && p->exit_code == 0 && out;
  if (ok) sha256_add_str(h, out);
  else if (p->status == PROC_SPAWN_FAILED) snprintf(why, cap, "not built: nvcc could not start: %s (give its path: make NVCC=..., grade --nvcc)", p->spawn_error);
  else snprintf(why, cap, "not built: %s --version failed: %s", t->nvcc, proc_describe(p, what, sizeof what));
  free(out);
  free(p);
  if (!ok) return -1;
  const char *libs[] = {"build/runner/librunner.a", "build/runner/sandbox.o", "build/runner/guard.o", with_model ? "build/lib/libcourse.a" : NULL};
  for (size_t i = 0; i < sizeof libs / sizeof *libs; i++)
    if (libs[i] && hash_file(h, libs[i]))
      return snprintf(why, cap, "not built: %s is missing or unreadable (make %s)", libs[i], libs[i]), -1;
  return 0;
}
