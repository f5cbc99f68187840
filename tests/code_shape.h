/* code_shape.h: the shape of C/CUDA code, for the leak test (test_leaks.c):
 * a listing that is a solution with its names changed and `max` for `+` has
 * the shape of that solution.
 *
 * A text's shape is its token sequence with comments, preprocessor lines and
 * parentheses dropped, qualifiers (const, static, __device__, ...) dropped,
 * types made T, numbers and ALL_CAPS constants made K, the binary operators
 * + * | ^ & and the calls max, min, fmaxf, fminf, fmax, fmin, umax, umin made
 * one operator OP (max(a, b) is a OP b), a compound assignment a += b made
 * a = a OP b, and every other name (but a field after . or ->, and CUDA's
 * own: threadIdx, __syncthreads, __shfl_up_sync, ...) a placeholder
 * numbered in order of appearance within each window of SHAPE_WINDOW
 * tokens. Two texts share a window when a window of one has the same shape as
 * a window of the other. */
#ifndef SCANLAB_CODE_SHAPE_H
#define SCANLAB_CODE_SHAPE_H

#include <stddef.h>

enum { SHAPE_WINDOW = 24, SHAPE_RUN = 7 };

typedef struct shape {
  char **tok; /* the normalized tokens */
  int *line;  /* the line of each in the text (1-based) */
  int n;
} shape;

/* The shape of a text (a fenced block or a source file). */
shape shape_of(const char *text);
void shape_free(shape *s);

/* The windows of b's shape, sorted, for shape_shared_run. */
typedef struct shape_set {
  char **v;
  int n;
} shape_set;
shape_set shape_windows(const shape *b);
void shape_set_free(shape_set *s);

/* The longest run of consecutive windows of a that are windows of b; *at
 * receives the index of the run's first token in a. A listing repeats b when
 * the run reaches SHAPE_RUN windows (SHAPE_WINDOW + SHAPE_RUN - 1 tokens). */
int shape_shared_run(const shape *a, const shape_set *b, int *at);



/* The skeleton of code: its control flow (for, if, else, return, braces) and,
 * statement by statement, its element loads L, element stores W, barriers S
 * (__syncthreads, __syncwarp) and shuffles X, names and operators dropped: the
 * order of a scan's memory accesses and barriers, whatever its operator. */
shape skeleton_of(const char *text);
/* Its functions, as token ranges [start, end) of the skeleton; how many. */
int skeleton_functions(const shape *s, int *start, int *end, int cap);
/* 2 LCS / (|a| + |b|) of two ranges of skeletons, in [0, 1]. */
double skeleton_similarity(const shape *a, int a0, int a1, const shape *b, int b0, int b1);
#endif
