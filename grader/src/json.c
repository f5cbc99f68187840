/* json.c: the writer of json.h. */
#include "json.h"

#include <math.h>
#include <string.h>

void jw_begin(jw_writer *w, FILE *f) {
  memset(w, 0, sizeof *w);
  w->f = f;
}

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static int utf8_len(const unsigned char *s) {
  if (s[0] < 0x80) return 1;
  int n = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (!n || (n == 2 && s[0] < 0xC2) || (n == 4 && s[0] > 0xF4)) return 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  if (n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0))) return 0; /* overlong, surrogates */
  if (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))) return 0;
  return n;
}

void jw_write_string(FILE *f, const char *str) {
  const unsigned char *s = (const unsigned char *)(str ? str : "");
  fputc('"', f);
  while (*s) {
    unsigned char c = *s;
    if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc(c, f);
      s++;
    } else if (c == '\n') {
      fputs("\\n", f), s++;
    } else if (c == '\t') {
      fputs("\\t", f), s++;
    } else if (c == '\r') {
      fputs("\\r", f), s++;
    } else if (c < 0x20 || c == 0x7f) {
      fprintf(f, "\\u%04x", c), s++;
    } else {
      int n = utf8_len(s);
      if (n) {
        fwrite(s, 1, (size_t)n, f);
        s += n;
      } else {
        fputs("\\ufffd", f);
        s++;
      }
    }
  }
  fputc('"', f);
}

static void prefix(jw_writer *w, const char *key) {
  if (w->need_comma[w->depth]) fputc(',', w->f);
  w->need_comma[w->depth] = 1;
  if (w->depth) {
    fputc('\n', w->f);
    for (int i = 0; i < w->depth; i++) fputs("  ", w->f);
  }
  if (key) {
    jw_write_string(w->f, key);
    fputs(": ", w->f);
  }
}

static void open_(jw_writer *w, const char *key, char c) {
  prefix(w, key);
  fputc(c, w->f);
  w->need_comma[++w->depth] = 0;
}

static void close_(jw_writer *w, char c) {
  int had = w->need_comma[w->depth];
  w->depth--;
  if (had) {
    fputc('\n', w->f);
    for (int i = 0; i < w->depth; i++) fputs("  ", w->f);
  }
  fputc(c, w->f);
  if (w->depth == 0) fputc('\n', w->f);
}

void jw_object_open(jw_writer *w, const char *key) { open_(w, key, '{'); }
void jw_object_close(jw_writer *w) { close_(w, '}'); }
void jw_array_open(jw_writer *w, const char *key) { open_(w, key, '['); }
void jw_array_close(jw_writer *w) { close_(w, ']'); }

void jw_string(jw_writer *w, const char *key, const char *value) {
  prefix(w, key);
  jw_write_string(w->f, value);
}

void jw_number(jw_writer *w, const char *key, double value) {
  prefix(w, key);
  if (isfinite(value)) fprintf(w->f, "%.10g", value);
  else fputs("null", w->f);
}

void jw_bool(jw_writer *w, const char *key, int value) {
  prefix(w, key);
  fputs(value ? "true" : "false", w->f);
}
