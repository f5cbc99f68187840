/* build_check.c: the runner of an inline assignment includes what was inspected (build_check.h). */
#include "build_check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depfile.h"

/* Whether path lies in folder (both resolved). */
static int under(const char *path, const char *folder) {
  size_t n = strlen(folder);
  return !strncmp(path, folder, n) && (path[n] == '/' || path[n] == 0);
}

/* Whether path lies directly in folder (both resolved), not in a folder below it. */
static int directly_in(const char *path, const char *folder) {
  return under(path, folder) && !strchr(path + strlen(folder) + 1, '/');
}

static int listed(char **paths, int n, const char *path) {
  for (int i = 0; i < n; i++)
    if (!strcmp(paths[i], path)) return 1;
  return 0;
}

/* The leftmost cub/ or thrust/ folder of rel ("cub/..."), or NULL. */
static const char *library_part(const char *rel) {
  for (const char *p = rel; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
    if (!strncmp(p, "cub/", 4) || !strncmp(p, "thrust/", 7)) return p;
  return NULL;
}

static int refuse(build_result *r, build_status s, const char *fmt, const char *a, const char *b) {
  r->status = s;
  snprintf(r->reason, sizeof r->reason, fmt, a, b);
  return -1;
}

int build_check_runner(build_result *r, const char *runner_dep, const char *student_dep, const char *stage, const char *student,
                       const char *adir) {
  char root[PATH_MAX], allowed[5][PATH_MAX], staged[PATH_MAX * 2], runner_dir[PATH_MAX];
  snprintf(runner_dir, sizeof runner_dir, "%s/runner", adir);
  /* the assignment's interface headers and its runner/ (not its judge/: the trusted side), the
   * contracts, the runner's library, the staged files */
  const char *folders[5] = {adir, "grader/protocol", "grader/runner", stage, runner_dir};
  if (!realpath(".", root)) return refuse(r, BUILD_NOT_BUILT, "not built: cannot resolve the repository's folder%s%s", "", "");
  for (int i = 0; i < 5; i++)
    if (!realpath(folders[i], allowed[i])) return refuse(r, BUILD_NOT_BUILT, "not built: cannot resolve %s%s", folders[i], "");
  snprintf(staged, sizeof staged, "%s/%s", allowed[3], student);
  char **run = NULL, **own = NULL;
  int n_run = depfile_read(runner_dep, &run), n_own = n_run < 0 ? -1 : depfile_read(student_dep, &own);
  if (n_run < 0 || n_own < 0) {
    if (n_run >= 0) depfile_free(run, n_run);
    return refuse(r, BUILD_NOT_BUILT, "not built: cannot read the dependency file %s%s", n_run < 0 ? runner_dep : student_dep, "");
  }
  int rc = 0, found = 0;
  for (int i = 0; i < n_run && !rc; i++) {
    const char *p = run[i];
    const char *rel = under(p, root) ? p + strlen(root) + 1 : p;
    const char *lib = library_part(rel);
    found |= !strcmp(p, staged);
    if (lib)
      rc = refuse(r, BUILD_REFUSED, "refused: %s uses %s in the runner's build: the assignment's work is yours to write", student,
                  !strncmp(lib, "cub/", 4) ? "CUB (it includes cub/...)" : "Thrust (it includes thrust/...)");
    else if (under(p, allowed[3]) && !listed(own, n_own, p))
      rc = refuse(r, BUILD_REFUSED,
                  "refused: the runner's build of %s includes %s, which the inspected compile of it did not: a file the runner "
                  "includes must be what was inspected",
                  student, p + strlen(allowed[3]) + 1);
    else if (under(p, root) && !directly_in(p, allowed[0]) && !under(p, allowed[1]) && !under(p, allowed[2]) && !under(p, allowed[3]) &&
             !directly_in(p, allowed[4]))
      rc = refuse(r, BUILD_REFUSED,
                  "refused: %s includes a course file (%s) in the runner's build: your file may include only its assignment's "
                  "headers and files of its own folder",
                  student, rel);
  }
  if (!rc && !found)
    rc = refuse(r, BUILD_NOT_BUILT, "not built: runner.cu did not include the staged %s (another file of that name is on its include path?)%s",
                student, "");
  depfile_free(run, n_run);
  depfile_free(own, n_own);
  return rc;
}
