/* tool_output.c: reading sanitizer, ncu, model and build output (tool_output.h). */
#include "tool_output.h"

#include <stdlib.h>
#include <string.h>

#include "conf.h"

void output_last_line(const capture *c, char *out, size_t cap) {
  char *text = capture_text(c);
  out[0] = 0;
  if (!text) return;
  size_t len = strlen(text);
  while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' ')) text[--len] = 0;
  char *start = strrchr(text, '\n');
  start = start ? start + 1 : text;
  size_t n = strlen(start);
  snprintf(out, cap, "%s%s", n > 120 ? "..." : "", n > 120 ? start + n - 120 : start);
  for (char *s = out; *s; s++)
    if ((unsigned char)*s < 0x20) *s = ' ';
  free(text);
}

void output_sanitizer_lines(const capture *c, FILE *f, char *first, size_t cap) {
  char *text = capture_text(c);
  int shown = 0;
  first[0] = 0;
  char *save = NULL;
  for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
    if (strncmp(line, "=========", 9) != 0) continue;
    if (!first[0] && (strstr(line, "rror") || strstr(line, "azard") || strstr(line, "Race") || strstr(line, "Invalid")))
      snprintf(first, cap, "%.160s", line + 9 + strspn(line + 9, " "));
    if (shown++ < 24) fprintf(f, "%s\n", line);
  }
  free(text);
}

/* The value of one metric in ncu's CSV text: the last quoted field of the line
 * that names it, which may hold thousands separators. Returns 1 when found. */
static int ncu_value(const char *text, const char *metric, double *value) {
  char want[CONF_TEXT_MAX + 4];
  snprintf(want, sizeof want, "\"%s\"", metric);
  char *copy = strdup(text), *save = NULL;
  int found = 0;
  for (char *line = strtok_r(copy, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
    if (!strstr(line, want)) continue;
    char *close = strrchr(line, '"');
    if (!close || close == line) continue;
    *close = 0;
    char *open = strrchr(line, '"');
    if (!open) continue;
    char digits[64];
    size_t k = 0;
    for (char *d = open + 1; *d && k + 1 < sizeof digits; d++)
      if ((*d >= '0' && *d <= '9') || *d == '.') digits[k++] = *d;
    digits[k] = 0;
    if (k) *value = strtod(digits, NULL), found = 1;
  }
  free(copy);
  return found;
}

int output_ncu_values(const capture *c, const char *metrics, double *sum) {
  char *text = capture_text(c), list[CONF_TEXT_MAX], *save = NULL;
  int found = 0;
  *sum = 0;
  snprintf(list, sizeof list, "%s", metrics);
  for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
    double v;
    if (ncu_value(text ? text : "", m, &v)) *sum += v, found++;
  }
  free(text);
  return found;
}

void output_model_verdict(const char *text, const char *case_name, char *why, size_t cap) {
  size_t len = strlen(case_name);
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    if (!strncmp(line, case_name, len) && line[len] == ':' && line[len + 1] == ' ') {
      const char *say = line + len + 2;
      snprintf(why, cap, "%.*s", (int)(end ? (size_t)(end - say) : strlen(say)), say);
      return;
    }
    line = end ? end + 1 : NULL;
  }
}
