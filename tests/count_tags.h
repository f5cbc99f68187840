/* count_tags.h: reading the count tags of the course's Markdown (test_counts.c;
 * tests/README.md is the convention): the blocks of a text with their
 * <!-- count: ... -->, <!-- passes: ... --> and <!-- counts: not compiled: ... -->
 * tags, the phrase a tag binds, and the counts of compiled code a block states. */
#ifndef SCANLAB_COUNT_TAGS_H
#define SCANLAB_COUNT_TAGS_H

#include <stddef.h>

#include "problems.h"


/* The number written at s (digits, with ,ddd groups, or a word from zero to
 * twenty), its length in *len; -1 when there is none. */
long number_at(const char *s, size_t *len);

typedef struct tag {
  char *phrase, *what, *build, *kernel; /* a passes tag: what is NULL, kernel holds the check's name */
  int line;
} tag;

typedef struct block {
  char *text; /* its lines joined by '\n' */
  int line;   /* its first line */
  tag *tags;
  int n_tags;
  char *exempt; /* the reason of a not-compiled tag, or NULL */
} block;

typedef struct blocks {
  block *v;
  int n;
} blocks;

/* Cuts a Markdown text into blocks (runs of non-blank lines outside fenced
 * code) and reads the tags on the lines right after each; a malformed or
 * misplaced tag is a problem. */
void split_blocks(const char *file, const char *text, blocks *out, problems *pr);
void blocks_free(blocks *b);
/* The line of offset off in a block. */
int line_of(const block *k, size_t off);

/* Whether phrase matches text at s: a space of the phrase matches any run of
 * spaces and line breaks, # a number. On a match, *end is where it ends and
 * *num_off / *value the first number's offset (from s) and value; *num_off is
 * (size_t)-1 when the phrase has no #. */
int phrase_at(const char *s, const char *phrase, const char **end, size_t *num_off, long *value);

/* The counts of compiled code a block states: the offsets and values of
 * their numbers, at most max; how many. */
int find_counts(const char *text, size_t *offs, long *values, int max);

#endif
