/* ptx.c: find a kernel in PTX text and count matching instruction lines. */
#include "ptx.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when line declares kernel `k`: ".entry k(" after optional .visible/.weak. */
static int is_entry(const char *line, const char *k) {
  const char *e = strstr(line, ".entry ");
  if (!e) return 0;
  e += 7;
  size_t n = strlen(k);
  return strncmp(e, k, n) == 0 && (e[n] == '(' || e[n] == ' ' || e[n] == '\n' || e[n] == 0);
}

long ptx_count(const char *ptx_path, const char *kernel, const char *pattern, char *err, size_t errcap) {
  regex_t re;
  if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB)) {
    snprintf(err, errcap, "bad pattern '%s'", pattern);
    return -1;
  }
  FILE *f = fopen(ptx_path, "r");
  if (!f) {
    snprintf(err, errcap, "cannot read %s: %s", ptx_path, strerror(errno));
    regfree(&re);
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  long count = 0;
  int state = 0; /* 0 before the kernel, 1 in its header, 2 in its body, 3 done */
  while (state < 3 && getline(&line, &cap, f) > 0) {
    if (state == 0) {
      if (is_entry(line, kernel)) state = 1;
    } else if (state == 1) {
      if (line[0] == '{') state = 2;
    } else if (line[0] == '}') {
      state = 3;
    } else if (regexec(&re, line, 0, NULL, 0) == 0) {
      count++;
    }
  }
  free(line);
  fclose(f);
  regfree(&re);
  if (state < 3) {
    snprintf(err, errcap, state == 0 ? "kernel '%s' not found in %s" : "kernel '%s' in %s is truncated", kernel, ptx_path);
    return -1;
  }
  return count;
}
