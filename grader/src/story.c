/* story.c: the end of a check: its verdict, score, reason and story (story.h). */
#include "story.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

void check_finish(check_result *r, story *s, verdict v, double score, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->reason, sizeof r->reason, fmt, ap);
  va_end(ap);
  r->v = v;
  r->score = score_round(score);
  if (s->f) {
    fclose(s->f);
    s->f = NULL;
    r->output = s->buf;
  }
  if (!r->output) r->output = strdup(r->reason);
}
