/* json.h: a minimal streaming JSON writer (objects, arrays, strings, numbers).
 * The GPU host has no package registry, so the grader carries its own; the
 * tests read its output back with a real parser (jansson). */
#ifndef SCANLAB_JSON_H
#define SCANLAB_JSON_H

#include <stdio.h>

typedef struct jw_writer {
  FILE *f;
  int depth;
  int need_comma[32];
} jw_writer;

void jw_begin(jw_writer *w, FILE *f);
void jw_object_open(jw_writer *w, const char *key); /* key NULL inside arrays / at top */
void jw_object_close(jw_writer *w);
void jw_array_open(jw_writer *w, const char *key);
void jw_array_close(jw_writer *w);
void jw_string(jw_writer *w, const char *key, const char *value);
void jw_number(jw_writer *w, const char *key, double value); /* non-finite -> null */
void jw_bool(jw_writer *w, const char *key, int value);
/* Writes s as a JSON string literal, escaping quotes, backslashes, control
 * characters and invalid UTF-8 (replaced by U+FFFD). */
void jw_write_string(FILE *f, const char *s);

#endif
