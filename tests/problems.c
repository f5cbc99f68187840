/* problems.c: what a check of the course's texts found wrong (problems.h). */
#include "problems.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void problem(problems *p, const char *file, int line, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  p->v = realloc(p->v, (size_t)(p->n + 1) * sizeof *p->v);
  size_t len = strlen(file) + strlen(msg) + 32;
  p->v[p->n] = malloc(len);
  snprintf(p->v[p->n++], len, "%s:%d: %s", file, line, msg);
}

void problems_free(problems *p) {
  for (int i = 0; i < p->n; i++) free(p->v[i]);
  free(p->v);
  memset(p, 0, sizeof *p);
}

char *problems_join(problems *p) {
  size_t len = 1;
  for (int i = 0; i < p->n; i++) len += strlen(p->v[i]) + 1;
  char *all = calloc(1, len);
  for (int i = 0; i < p->n; i++) strcat(strcat(all, p->v[i]), "\n");
  problems_free(p);
  return all;
}
