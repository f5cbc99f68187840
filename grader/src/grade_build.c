/* grade_build.c: the command line's side of the student's build (grade_build.h). */
#include "grade_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "proc.h"

int grade_build_tools(const grade_build_opts *o, build_tools *t, char *why, size_t cap) {
  char nvcc[BUILD_PATH_MAX], gencode[512] = "";
  const char *home = getenv("CUDA_HOME");
  if (o->nvcc) snprintf(nvcc, sizeof nvcc, "%s", o->nvcc);
  else snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc", o->cuda ? o->cuda : home && *home ? home : "/usr/local/cuda");
  if (o->gencode) {
    snprintf(gencode, sizeof gencode, "%s", o->gencode);
  } else if (o->no_build) {
    snprintf(gencode, sizeof gencode, "-arch=native"); /* not used: nothing is compiled */
  } else {
    FILE *f = fopen("build/.gencode", "r");
    if (!f || !fgets(gencode, sizeof gencode, f)) {
      if (f) fclose(f);
      return snprintf(why, cap, "no --gencode and no build/.gencode: run make (it writes the GPU flags there), or pass --gencode"), -1;
    }
    fclose(f);
    gencode[strcspn(gencode, "\n")] = 0;
  }
  return build_tools_init(t, nvcc, gencode, why, cap);
}

void grade_build_one(const grade_build_opts *o, const build_tools *t, const assignment_conf *conf, build_result *r, char *label,
                     size_t cap) {
  char dir[BUILD_PATH_MAX], out[BUILD_PATH_MAX];
  snprintf(dir, sizeof dir, "%s", o->dir ? o->dir : "");
  snprintf(out, sizeof out, "%s", o->out ? o->out : "");
  if (!o->dir) {
    snprintf(dir, sizeof dir, "%s/%s", o->src, conf->name);
    snprintf(out, sizeof out, "build/%s/%s", o->src, conf->name);
  }
  snprintf(label, cap, "%s", dir);
  build_spec spec = {.conf = conf, .dir = dir, .label = label, .out = out, .tools = t, .bench = o->bench, .no_build = o->no_build,
                     .no_inspect = o->no_inspect};
  build_run(&spec, r);
}

const char *grade_build_absolute(const char *path) {
  if (!path || path[0] == '/') return path;
  char cwd[BUILD_PATH_MAX], *abs = NULL;
  if (!getcwd(cwd, sizeof cwd) || asprintf(&abs, "%s/%s", cwd, path) < 0) return path;
  return abs;
}

int grade_build_only(const grade_build_opts *o, const build_tools *t, char names[][CONF_NAME_MAX], int n, int status) {
  static assignment_conf conf;
  int failed = 0;
  for (int a = 0; a < n && !proc_interrupted; a++) {
    char path[BUILD_PATH_MAX], err[512], label[BUILD_PATH_MAX];
    snprintf(path, sizeof path, "assignments/%s/grade.conf", names[a]);
    if (conf_load(path, &conf, err, sizeof err)) {
      fprintf(stderr, "grade: %s\n", err);
      status = 2;
      continue;
    }
    build_result r;
    grade_build_one(o, t, &conf, &r, label, sizeof label);
    printf("build %s: %s\n", label, r.status == BUILD_OK ? "ok" : r.reason);
    failed |= r.status != BUILD_OK;
    build_result_free(&r);
  }
  if (proc_interrupted) return 130;
  return status ? status : failed;
}
