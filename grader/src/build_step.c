/* build_step.c: one tool of the build, its output and its failure (build_step.h). */
#include "build_step.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "proc.h"

/* text with every "STAGE/" written "LABEL/" (malloc'd): messages name the student's folder, not the copy. */
static char *relabel(const char *text, const char *stage, const char *label) {
  char from[BUILD_PATH_MAX + 2], to[BUILD_PATH_MAX + 2];
  snprintf(from, sizeof from, "%s/", stage);
  snprintf(to, sizeof to, "%s/", label);
  size_t nf = strlen(from), nt = strlen(to), n = 0;
  for (const char *p = text; (p = strstr(p, from)); p += nf) n++;
  char *out = malloc(strlen(text) + n * (nt > nf ? nt - nf : 0) + 1), *o = out;
  if (!out) return NULL;
  for (const char *p = text, *q; *p; p = q + nf) {
    if (!(q = strstr(p, from))) {
      strcpy(o, p);
      return out;
    }
    memcpy(o, p, (size_t)(q - p));
    o += q - p;
    memcpy(o, to, nt);
    o += nt;
    *o = 0;
  }
  *o = 0;
  return out;
}

/* A tool's error line: "error" or "fatal" then a colon ("x.cu(12): error: ...",
 * "ptxas error   : ...", "nvcc fatal   : ...", "collect2: error: ..."), or a
 * linker's "undefined reference" or "multiple definition". A warning that only
 * mentions a word such as error_count is not one. */
static int looks_like_error(const char *line, size_t n) {
  static const char *const WORDS[] = {"error", "fatal"};
  char buf[1024];
  snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
  if (strstr(buf, "undefined reference") || strstr(buf, "multiple definition")) return 1;
  for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++)
    for (const char *p = buf; *p; p++) {
      if (strncasecmp(p, WORDS[i], strlen(WORDS[i]))) continue;
      const char *q = p + strlen(WORDS[i]);
      q += strspn(q, " \t");
      if (*q == ':') return 1;
    }
  return 0;
}

void build_first_error(const char *text, char *out, size_t cap) {
  const char *last = NULL;
  size_t last_n = 0;
  for (const char *p = text; p && *p;) {
    size_t n = strcspn(p, "\n");
    size_t lead = strspn(p, " \t");
    if (n > lead) {
      if (looks_like_error(p, n)) {
        last = p + lead, last_n = n - lead;
        break;
      }
      last = p + lead, last_n = n - lead;
    }
    p += n + (p[n] == '\n');
  }
  if (!last) {
    snprintf(out, cap, "no message");
    return;
  }
  if (last_n > 300) last_n = 300;
  snprintf(out, cap, "%.*s", (int)last_n, last);
}

static int out_of_memory(const proc_result *p, const char *text) {
  static const char *const SIGNS[] = {"out of memory", "Cannot allocate memory", "std::bad_alloc", "virtual memory exhausted",
                                      "died due to signal 9", "Killed signal"};
  if (p->status == PROC_SIGNALED && p->sig == SIGKILL) return 1;
  for (size_t i = 0; i < sizeof SIGNS / sizeof *SIGNS; i++)
    if (strstr(text, SIGNS[i])) return 1;
  return 0;
}

static int linker_error(const char *line) {
  return strstr(line, "undefined reference") || strstr(line, "multiple definition") || strstr(line, "ld returned") || strstr(line, "/ld:") ||
         strstr(line, "nvlink");
}

void build_find_program(const char *program, char *path, size_t cap) {
  const char *env = getenv("PATH");
  char dirs[4096];
  snprintf(dirs, sizeof dirs, "%s", env && *env ? env : "/usr/bin:/bin");
  char *save = NULL;
  for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    snprintf(path, cap, "%s/%s", d, program);
    if (access(path, X_OK) == 0) return;
  }
  path[0] = 0;
}

int build_step(build_result *r, const step_log *log, step_kind kind, char *const argv[]) {
  proc_result *p = calloc(1, sizeof *p);
  if (!p) {
    r->status = BUILD_NOT_BUILT;
    snprintf(r->reason, sizeof r->reason, "not built: out of memory in the grader");
    return -1;
  }
  proc_run(argv, BUILD_STEP_LIMIT_S, p);
  char *out = capture_text(&p->out), *err = capture_text(&p->err);
  size_t len = (out ? strlen(out) : 0) + (err ? strlen(err) : 0);
  char *both = malloc(len + 1);
  if (both) snprintf(both, len + 1, "%s%s", out ? out : "", err ? err : "");
  char *text = both ? relabel(both, log->stage, log->label) : NULL;
  if (text && *text) {
    if (log->f) fputs(text, log->f);
    if (log->echo && kind != STEP_INSPECT) fputs(text, stdout), fflush(stdout);
  }
  int ok = p->status == PROC_EXITED && p->exit_code == 0;
  if (!ok) {
    char first[400], what[160];
    const char *tool = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    build_first_error(text ? text : "", first, sizeof first);
    if (p->status == PROC_INTERRUPTED || (p->status == PROC_SIGNALED && (p->sig == SIGINT || p->sig == SIGTERM || p->sig == SIGHUP))) {
      r->status = BUILD_INTERRUPTED;
      snprintf(r->reason, sizeof r->reason, "interrupted: the build was stopped (%s did not finish)", tool);
    } else if (p->status == PROC_SPAWN_FAILED) {
      r->status = BUILD_NOT_BUILT;
      snprintf(r->reason, sizeof r->reason, "not built: %s could not start: %s", tool, p->spawn_error);
    } else if (p->status == PROC_TIMEOUT) {
      r->status = kind == STEP_LINK ? BUILD_NO_LINK : BUILD_NO_COMPILE;
      snprintf(r->reason, sizeof r->reason, "%s: %s ran past %d s and was stopped", kind == STEP_LINK ? "does not link" : "does not compile",
               tool, BUILD_STEP_LIMIT_S);
    } else if (out_of_memory(p, text ? text : "")) {
      r->status = BUILD_OUT_OF_MEMORY;
      snprintf(r->reason, sizeof r->reason, "out of memory: %s (%s): %s", tool, proc_describe(p, what, sizeof what), first);
    } else if (kind == STEP_INSPECT && p->status == PROC_EXITED && p->exit_code == 1 && out && *out) {
      r->status = BUILD_REFUSED;
      snprintf(r->reason, sizeof r->reason, "%.*s", (int)strcspn(out, "\n"), out);
    } else if (kind == STEP_INSPECT) {
      r->status = BUILD_NOT_BUILT;
      snprintf(r->reason, sizeof r->reason, "not built: the inspection failed (%s): %s", proc_describe(p, what, sizeof what), first);
    } else if (kind == STEP_LINK && linker_error(first)) {
      r->status = BUILD_NO_LINK;
      snprintf(r->reason, sizeof r->reason, "does not link: %s", first);
    } else {
      r->status = BUILD_NO_COMPILE;
      snprintf(r->reason, sizeof r->reason, "does not compile: %s", first);
    }
    free(r->messages);
    r->messages = text;
    text = NULL;
  }
  free(text);
  free(both);
  free(out);
  free(err);
  free(p);
  return ok ? 0 : -1;
}
