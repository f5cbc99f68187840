/* worked.h: reading a worked example's numbers out of a text (worked_support.c), for the
 * worked examples of the lectures (test_worked.c) and of each handout (its assignment's
 * tests/). A phrase's space or line break matches any run of spaces and line breaks, so a
 * reflowed paragraph still matches; a phrase or number that is gone fails the test with
 * the file's name (the example was moved or rewritten: update the test that reads it). */
#ifndef SCANLAB_WORKED_H
#define SCANLAB_WORKED_H

#include <stddef.h>

/* The lecture numbered nn ("02": lectures/02-*.md, exactly one) into out. */
void lecture_path(const char *nn, char *out, size_t cap);
/* A whole text file (malloc'd); fails the test when it is missing. */
char *text_of(const char *path);
/* Where phrase occurs from `from` on; *len (when not NULL) the length it matched. NULL when not there. */
const char *flex_find(const char *from, const char *phrase, size_t *len);
/* Where phrase starts, and just after it; fail naming file when it is not there. */
const char *find_phrase(const char *file, const char *from, const char *phrase);
const char *after_phrase(const char *file, const char *from, const char *phrase);
/* The integer at p (after spaces); fails saying `what` when there is none. */
long int_at(const char *file, const char *p, const char *what);
/* "X and Y" at p: the two integers. */
void read_pair(const char *file, const char *p, long *x, long *y, const char *what);
/* The text from p up to the next line of three backticks (malloc'd). */
char *block_from(const char *p);
/* The integers (at most max) of block's line that begins with label and a space, up to a
 * word that is no integer or a gap of five spaces (the row's note, *note then, else "").
 * Returns how many; fails when no line has the label. */
int table_row(const char *file, const char *block, const char *label, long *out, int max, const char **note);
/* Whether the number written at text is value at the text's rounding (its decimals). */
int same_at_quoted_rounding(const char *text, double value);
/* "one".."eight" at w as a number, or 0. */
int word_number(const char *w);
/* The ways (banks.h's bank_ways) of a warp whose lane l touches word stride * l + offset. */
int stride_ways(int stride, int offset);

#endif
