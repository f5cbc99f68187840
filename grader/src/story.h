/* story.h: a check's story (its output, written to a memory stream as the check
 * runs) and check_finish, which ends a check with its verdict, score and
 * one-line reason. Below checks.c and the kinds' run functions, which all end
 * checks, so that the kinds (kind_correct.c, ...) do not call back into the
 * dispatch (checks.c) that calls them. */
#ifndef SCANLAB_STORY_H
#define SCANLAB_STORY_H

#include <stddef.h>
#include <stdio.h>

#include "check_types.h"

typedef struct story {
  char *buf;
  size_t len;
  FILE *f;
} story;

void check_finish(check_result *r, story *s, verdict v, double score, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
