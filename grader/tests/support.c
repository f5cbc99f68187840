/* support.c: helpers shared by the test programs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests.h"

static void mkdirs(const char *path) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(buf, 0777);
      *p = '/';
    }
}

void write_text(const char *path, const char *text, int exec) {
  mkdirs(path);
  FILE *f = fopen(path, "w");
  ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
  fputs(text, f);
  ck_assert_int_eq(fclose(f), 0);
  if (exec) chmod(path, 0755);
}

char *make_temp_dir(const char *tag) {
  char *path = malloc(256);
  snprintf(path, 256, "/tmp/scanlab-%s-XXXXXX", tag);
  ck_assert_msg(mkdtemp(path) != NULL, "mkdtemp: %s", strerror(errno));
  return path;
}

int run_shell(const char *cmd) {
  int st = system(cmd);
  if (st == -1) return -1;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return 128 + WTERMSIG(st);
}

void remove_dir(const char *path) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' 2>/dev/null; rm -rf '%s'", path, path);
  run_shell(cmd);
}

char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)len + 1);
  size_t got = fread(s, 1, (size_t)len, f);
  s[got] = 0;
  fclose(f);
  return s;
}

json_t *load_json(const char *path) {
  json_error_t e;
  json_t *j = json_load_file(path, 0, &e);
  ck_assert_msg(j != NULL, "%s is not valid JSON: line %d: %s", path, e.line, e.text);
  return j;
}

char *copy_course(const char *tag, const char *extra) {
  char *dir = make_temp_dir(tag), cmd[1024];
  snprintf(cmd, sizeof cmd,
           "cp -a Makefile mk tools grader assignments starter %s '%s'/ && rm -rf '%s'/assignments/*/ref && mkdir '%s/build' && "
           "for b in lib protocol runner grader tools judge .gencode; do cp -a build/$b '%s/build/' || exit 1; done && "
           "{ [ ! -d build/inspect-libs ] || cp -a build/inspect-libs '%s/build/'; }",
           extra, dir, dir, dir, dir, dir);
  ck_assert_msg(run_shell(cmd) == 0, "cannot copy the course into %s", dir);
  return dir;
}

void expect_refusal(const refusal *r, const char *tag) {
  char *dir = make_temp_dir(tag), cmd[1024], path[512];
  snprintf(cmd, sizeof cmd, "%s > '%s/log' 2>&1", r->cmd, dir);
  int rc = run_shell(cmd);
  snprintf(path, sizeof path, "%s/log", dir);
  char *log = read_text(path);
  ck_assert(log != NULL);
  if (r->run) ck_assert_msg(rc == 2 || rc == 3, "%s exited %d:\n%s", r->cmd, rc, log);
  else ck_assert_msg(rc == 2, "%s exited %d:\n%s", r->cmd, rc, log);
  ck_assert_msg(strstr(log, r->says), "%s: no '%s' in:\n%s", r->cmd, r->says, log);
  free(log);
  remove_dir(dir);
  free(dir);
}

int text_is_one_line(const char *text) { return *text && strchr(text, '\n') == text + strlen(text) - 1; }
