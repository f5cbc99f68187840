/* json.h: a minimal streaming JSON writer (objects, arrays, strings, numbers).
 * The GPU host has no package registry, so the grader carries its own; the
 * tests read its output back with a real parser (jansson). */
#ifndef SCANLAB_JSON_H
#define SCANLAB_JSON_H

#include <stdio.h>

typedef struct json_writer {
  FILE *f;
  int depth;
  int need_comma[32];
} json_writer;

void json_begin(json_writer *w, FILE *f);
void json_object_open(json_writer *w, const char *key); /* key NULL inside arrays / at top */
void json_object_close(json_writer *w);
void json_array_open(json_writer *w, const char *key);
void json_array_close(json_writer *w);
void json_string(json_writer *w, const char *key, const char *value);
void json_number(json_writer *w, const char *key, double value); /* non-finite -> null */
void json_bool(json_writer *w, const char *key, int value);
/* Writes s as a JSON string literal, escaping quotes, backslashes, control
 * characters and invalid UTF-8 (replaced by U+FFFD). */
void json_write_string(FILE *f, const char *s);

#endif
