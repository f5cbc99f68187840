/* depfile.c: make-style dependency files read into resolved paths (depfile.h). */
#include "depfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(char ***paths, int *n, int *cap, const char *word) {
  if (*n == *cap) {
    int c = *cap ? 2 * *cap : 64;
    char **p = realloc(*paths, (size_t)c * sizeof *p);
    if (!p) return -1;
    *paths = p;
    *cap = c;
  }
  char real[PATH_MAX];
  (*paths)[*n] = strdup(realpath(word, real) ? real : word);
  return (*paths)[(*n)++] ? 0 : -1;
}

/* The words after the first ':' of one rule (its whole text, continuations joined). */
static int rule_words(char *rule, char ***paths, int *n, int *cap) {
  char *colon = strstr(rule, ": ");
  if (!colon && (colon = strchr(rule, ':')) && colon[1]) colon = NULL; /* "a.o:" at the end only */
  if (!colon) return 0;
  char word[PATH_MAX];
  size_t len = 0;
  for (char *c = colon + 1;; c++) {
    if (*c == '\\' && c[1] == ' ') {
      if (len + 1 < sizeof word) word[len++] = ' ';
      c++;
    } else if (*c == ' ' || *c == '\t' || *c == '\n' || *c == 0) {
      word[len] = 0;
      if (len && add(paths, n, cap, word)) return -1;
      len = 0;
      if (!*c) return 0;
    } else if (len + 1 < sizeof word) {
      word[len++] = *c;
    }
  }
}

int depfile_read(const char *path, char ***paths) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  *paths = NULL;
  int n = 0, cap = 0, rc = 0;
  char *rule = NULL, *line = NULL;
  size_t rule_len = 0, line_cap = 0;
  ssize_t got;
  while (rc == 0 && (got = getline(&line, &line_cap, f)) >= 0) {
    while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r')) line[--got] = 0;
    int more = got > 0 && line[got - 1] == '\\' && (got < 2 || line[got - 2] != '\\');
    if (more) line[--got] = ' ';
    char *r = realloc(rule, rule_len + (size_t)got + 2);
    if (!r) {
      rc = -1;
      break;
    }
    rule = r;
    memcpy(rule + rule_len, line, (size_t)got);
    rule_len += (size_t)got;
    rule[rule_len] = 0;
    if (more) continue;
    rc = rule_words(rule, paths, &n, &cap);
    rule_len = 0;
  }
  if (rc == 0 && rule_len) rc = rule_words(rule, paths, &n, &cap);
  int err = errno;
  free(rule);
  free(line);
  fclose(f);
  if (rc) {
    depfile_free(*paths, n);
    *paths = NULL;
    errno = err;
    return -1;
  }
  return n;
}

void depfile_free(char **paths, int n) {
  for (int i = 0; i < n; i++) free(paths[i]);
  free(paths);
}
