/* conf_parse.h: what conf.c (sections, lines, validation) and conf_keys.c (the
 * keys: their names, bits and value parsers) share while reading a grade.conf.
 * Private to grader/src; conf.h is the module's interface. */
#ifndef SCANLAB_CONF_PARSE_H
#define SCANLAB_CONF_PARSE_H

#include <stddef.h>
#include <stdio.h>

#include "conf_types.h"

typedef struct parser {
  FILE *f;
  const char *path;
  int line;          /* lines read so far: the handler runs right after inih reads a line */
  int err_line;
  char err[384];
  assignment_conf *a;
  int in_assignment;
  int assignment_seen;
  check_conf *cur;
  unsigned seen_keys[CONF_MAX_CHECKS + 1]; /* a bit per key set, by section (0 = [assignment]) */
} parser;

/* Notes "line: reason" as the file's error (the first one only); returns 0.
 * In conf_keys.c, so that conf.c calls conf_keys.c and not the other way round. */
int conf_perr(parser *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The row of `key` in the [assignment] table (in_assignment) or the check
 * table, with its bit for the repeated-key test in *bit; -1 when unknown. */
int conf_key_find(int in_assignment, const char *key, unsigned *bit);
/* The one spelling of a key written another way ("case": "cases"), or NULL. */
const char *conf_key_refused(const char *key);
/* Parses value into the current section (p->in_assignment: the assignment,
 * else p->cur). Returns 1, or 0 after conf_perr. */
int conf_key_parse(parser *p, int row, const char *key, const char *value);
/* The [assignment] keys, comma-separated, for a message. */
void conf_assignment_keys(char *out, size_t cap);

#endif
