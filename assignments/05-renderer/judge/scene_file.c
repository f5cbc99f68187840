/* scene_file.c: the text scene file (docs/scene-format.md): a strict reader and a writer. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"

#define SCENE_HEADER "scanlab-scene 1"
#define LINE_MAX_CHARS 255

/* The reader's state: where it is, for "path:line: reason". */
typedef struct reader {
  FILE *f;
  const char *path;
  int line;
  char buf[LINE_MAX_CHARS + 2];
  char *err;
  size_t errcap;
} reader;

static int fail_at(reader *r, const char *fmt, ...) {
  size_t used = (size_t)snprintf(r->err, r->errcap, "%s:%d: ", r->path, r->line > 0 ? r->line : 1);
  if (used < r->errcap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + used, r->errcap - used, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* The next line that is not blank or a # comment, trimmed; 1 at the end of the
 * file, -1 on an error (message in r->err). */
static int next_line(reader *r, char **out) {
  while (fgets(r->buf, sizeof r->buf, r->f)) {
    r->line++;
    size_t len = strlen(r->buf);
    if (len > LINE_MAX_CHARS && r->buf[len - 1] != '\n') return fail_at(r, "line longer than %d characters", LINE_MAX_CHARS);
    char *p = r->buf + strspn(r->buf, " \t");
    char *end = p + strlen(p);
    while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t')) *--end = 0;
    if (*p == 0 || *p == '#') continue;
    *out = p;
    return 0;
  }
  return 1;
}

/* One circle line: six numbers, each finite and in its range. */
static int parse_circle(reader *r, char *text, size_t k, circle *c) {
  static const char *const field[6] = {"x", "y", "r", "red", "green", "blue"};
  float v[6];
  int n = 0;
  for (char *tok = strtok(text, " \t"); tok; tok = strtok(NULL, " \t"), n++) {
    if (n == 6) continue; /* counted for the message below */
    char *end;
    errno = 0;
    v[n] = strtof(tok, &end);
    if (end == tok || *end) return fail_at(r, "circle %zu: \"%s\" is not a number", k, tok);
  }
  if (n != 6) return fail_at(r, "circle %zu: expected 6 numbers (x y r red green blue), found %d", k, n);
  for (int i = 0; i < 6; i++)
    if (!isfinite(v[i])) return fail_at(r, "circle %zu: %s is not a finite number", k, field[i]);
  for (int i = 0; i < 2; i++)
    if (v[i] < SCENE_COORD_MIN || v[i] > SCENE_COORD_MAX)
      return fail_at(r, "circle %zu: %s = %g is outside [%g, %g]", k, field[i], v[i], SCENE_COORD_MIN, SCENE_COORD_MAX);
  if (!(v[2] > 0)) return fail_at(r, "circle %zu: radius %g must be > 0", k, v[2]);
  if (v[2] > SCENE_R_MAX) return fail_at(r, "circle %zu: radius %g is more than %g", k, v[2], SCENE_R_MAX);
  for (int i = 3; i < 6; i++)
    if (v[i] < 0 || v[i] > 1) return fail_at(r, "circle %zu: %s = %g is outside [0, 1]", k, field[i], v[i]);
  c->x = v[0], c->y = v[1], c->r = v[2];
  memcpy(c->rgb, v + 3, sizeof c->rgb);
  return 0;
}

static int read_header(reader *r, scene *s) {
  char *text;
  int rc = next_line(r, &text);
  if (rc < 0) return -1;
  if (rc > 0 || strcmp(text, SCENE_HEADER) != 0) return fail_at(r, "expected the header \"%s\"", SCENE_HEADER);
  if ((rc = next_line(r, &text)) < 0) return -1;
  int mode = -1;
  if (rc == 0 && strncmp(text, "mode ", 5) == 0)
    for (int m = 0; m < SCENE_MODE_COUNT; m++)
      if (strcmp(text + 5 + strspn(text + 5, " \t"), scene_mode_names[m]) == 0) mode = m;
  if (mode < 0) return fail_at(r, "expected \"mode normal\" or \"mode snow\"");
  s->mode = (scene_mode)mode;
  if ((rc = next_line(r, &text)) < 0) return -1;
  char *end = NULL;
  unsigned long long n = 0;
  if (rc == 0 && strncmp(text, "count ", 6) == 0 && text[6 + strspn(text + 6, " \t")] >= '0' &&
      text[6 + strspn(text + 6, " \t")] <= '9') {
    errno = 0;
    n = strtoull(text + 6, &end, 10);
  }
  if (!end || *end || errno || n < 1 || n > SCENE_MAX_COUNT)
    return fail_at(r, "expected \"count N\" with N from 1 to %zu", SCENE_MAX_COUNT);
  s->n = (size_t)n;
  return 0;
}

int scene_read(const char *path, scene *s, char *err, size_t errcap) {
  memset(s, 0, sizeof *s);
  s->name = "file";
  s->animated = -1;
  reader r = {.path = path, .err = err, .errcap = errcap};
  r.f = fopen(path, "r");
  if (!r.f) {
    snprintf(err, errcap, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  int rc = read_header(&r, s);
  size_t count = s->n, k = 0;
  if (rc == 0 && !(s->c = malloc(count * sizeof *s->c))) rc = fail_at(&r, "out of memory for %zu circles", count);
  while (rc == 0) {
    char *text;
    int got = next_line(&r, &text);
    if (got < 0) {
      rc = -1;
    } else if (got > 0) {
      if (k < count) rc = fail_at(&r, "count is %zu but the file ends after %zu circles", count, k);
      break;
    } else if (k == count) {
      rc = fail_at(&r, "more circles than count %zu", count);
    } else {
      rc = parse_circle(&r, text, k, &s->c[k]);
      k++;
    }
  }
  fclose(r.f);
  if (rc != 0) scene_free(s);
  return rc;
}

int scene_write(const scene *s, const char *path, char *err, size_t errcap) {
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errcap, "%s: cannot write: %s", path, strerror(errno));
    return -1;
  }
  /* %.9g prints every float so that strtof reads back the same bits. */
  fprintf(f, "%s\n# %s: %zu circles\nmode %s\ncount %zu\n# x y r red green blue\n", SCENE_HEADER,
          s->name ? s->name : "scene", s->n, scene_mode_names[s->mode], s->n);
  for (size_t i = 0; i < s->n; i++) {
    const circle *c = &s->c[i];
    fprintf(f, "%.9g %.9g %.9g %.9g %.9g %.9g\n", c->x, c->y, c->r, c->rgb[0], c->rgb[1], c->rgb[2]);
  }
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    snprintf(err, errcap, "%s: write failed: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}
