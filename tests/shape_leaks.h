/* shape_leaks.h: code with a solution's shape, for the leak test
 * (test_leaks.c): shape_leaks.c says how the bars were set. */
#ifndef SCANLAB_SHAPE_LEAKS_H
#define SCANLAB_SHAPE_LEAKS_H

#include <stddef.h>

#include "code_shape.h"

enum { SKELETON_MIN = 12, MAX_FUNCS = 64 };

/* A solution file's shape: its token windows and its functions' skeletons. */
typedef struct solution_shape {
  shape_set windows;
  shape skeleton;
  int start[MAX_FUNCS], end[MAX_FUNCS], n_funcs;
} solution_shape;

solution_shape solution_shape_of(const char *code);
void solution_shape_free(solution_shape *s);

/* Whether code has a solution's shape; why says where (base: the line code
 * starts at in its file). */
int shape_leaks(const char *code, int base, const solution_shape *sol, char *why, size_t cap);

/* The pairs caught: "NOTE ~ SOLUTION" each, with where and why. */
typedef struct caught {
  char **pair, **why;
  int n;
} caught;
void caught_free(caught *c);

/* Every fenced block of the notes and every lecture example against every solution's shape. */
void scan_shapes(const char *const *notes, char *const *note_texts, size_t n_notes, const char *const *examples,
                 char *const *example_texts, size_t n_examples, const char *const *sol_name, char *const *sol_text,
                 size_t n_sol, caught *c);

#endif
