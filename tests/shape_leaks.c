/* shape_leaks.c: code with a solution's shape (shape_leaks.h), for the leak test.
 *
 * A listing (or a lecture example) is a solution in another shape when
 *   - SHAPE_RUN consecutive windows of SHAPE_WINDOW normalized tokens are
 *     windows of a solution file (code_shape.h: names renamed in order of
 *     appearance, max, min, + and * one operator, += as = OP): 30 tokens in
 *     a row. Measured at a019dd7: lecture 02's Hillis-Steele max scan shares
 *     47 with 02's solution, the shuffle scans of lecture 06's app_scan.h and
 *     lecture 05's large_tile.h 35 and 33 with 01's, block_max_scan.cu's
 *     Blelloch tree 30 with 03's; the most an honest listing shares is 29
 *     (lecture 03's bank_ways with 04's block scan: two loop headers and an
 *     if), so the margin is one token and a new false alarm means looking
 *     again, not raising the bar; or
 *   - one of its functions has the skeleton (the order of element loads,
 *     stores, barriers and shuffles in its control flow) of a solution's
 *     function at a similarity of SKELETON_SAME or more, both of at least
 *     SKELETON_MIN tokens: at a019dd7 the __syncwarp max scan of lecture 01
 *     against task 3a's came to 0.96 and lecture 06's block scan against
 *     05's 0.97, while every other pair of at least 12 tokens stayed at 0.88
 *     or below. Shorter skeletons (a shuffle loop is 8) are anyone's.
 * Each assignments/NN/tests/leaks-known.txt lists the note ~ solution pairs caught today whose
 * listings are being replaced (issue 40 item 8): expected, and one no longer
 * caught must leave the list. */
#include "shape_leaks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SKELETON_SAME 0.90

solution_shape solution_shape_of(const char *code) {
  solution_shape s;
  shape tokens = shape_of(code);
  s.windows = shape_windows(&tokens);
  shape_free(&tokens);
  s.skeleton = skeleton_of(code);
  s.n_funcs = skeleton_functions(&s.skeleton, s.start, s.end, MAX_FUNCS);
  return s;
}

void solution_shape_free(solution_shape *s) {
  shape_set_free(&s->windows);
  shape_free(&s->skeleton);
}

/* Whether code has a solution's shape; why says where (base: the line code starts at in its file). */
int shape_leaks(const char *code, int base, const solution_shape *sol, char *why, size_t cap) {
  shape tokens = shape_of(code);
  int at, run = shape_shared_run(&tokens, &sol->windows, &at);
  if (run >= SHAPE_RUN) {
    snprintf(why, cap, "%d tokens in a row from line %d are the solution's, names and operators aside",
             SHAPE_WINDOW + run - 1, base + tokens.line[at] - 1);
    shape_free(&tokens);
    return 1;
  }
  shape_free(&tokens);
  shape sk = skeleton_of(code);
  int start[MAX_FUNCS], end[MAX_FUNCS], n = skeleton_functions(&sk, start, end, MAX_FUNCS), leak = 0;
  for (int i = 0; i < n && !leak; i++)
    for (int j = 0; j < sol->n_funcs && !leak; j++) {
      if (end[i] - start[i] < SKELETON_MIN || sol->end[j] - sol->start[j] < SKELETON_MIN) continue;
      double r = skeleton_similarity(&sk, start[i], end[i], &sol->skeleton, sol->start[j], sol->end[j]);
      if (r >= SKELETON_SAME)
        leak = 1, snprintf(why, cap, "the function at line %d has the loads, stores and barriers of the solution's at "
                                     "line %d (similarity %.2f)",
                           base + sk.line[start[i]] - 1, sol->skeleton.line[sol->start[j]], r);
    }
  shape_free(&sk);
  return leak;
}

/* Calls fn on each fenced block of a Markdown text, with its first line. */
static void each_fence(const char *text, void (*fn)(const char *code, int line, void *ctx), void *ctx) {
  int line = 1;
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
    if (!strncmp(p, "```", 3)) {
      const char *body = nl ? nl + 1 : end, *close = strstr(body, "\n```");
      if (!close) return;
      char *code = strndup(body, (size_t)(close - body + 1));
      fn(code, line + 1, ctx);
      for (const char *q = p; q <= close; q++) line += *q == '\n';
      free(code);
      p = close + 1;
      nl = strchr(p, '\n');
      end = nl ? nl : p + strlen(p);
    }
    line++;
    p = nl ? nl + 1 : end;
  }
}


static void catch_pair(caught *c, const char *note, int line, const char *solution, const char *why) {
  char pair[1024], full[2048];
  snprintf(pair, sizeof pair, "%s ~ %s", note, solution);
  snprintf(full, sizeof full, "%s:%d: has the shape of %s: %s", note, line, solution, why);
  for (int i = 0; i < c->n; i++)
    if (!strcmp(c->pair[i], pair)) return;
  c->pair = realloc(c->pair, sizeof *c->pair * (size_t)(c->n + 1));
  c->why = realloc(c->why, sizeof *c->why * (size_t)(c->n + 1));
  c->pair[c->n] = strdup(pair), c->why[c->n++] = strdup(full);
}

typedef struct shape_scan {
  const char *note;
  const char *const *sol_name;
  const solution_shape *sol;
  size_t n_sol;
  caught *caught;
} shape_scan;

static void scan_fence(const char *code, int line, void *ctx) {
  shape_scan *sc = ctx;
  for (size_t j = 0; j < sc->n_sol; j++) {
    char why[512];
    if (shape_leaks(code, line, &sc->sol[j], why, sizeof why)) catch_pair(sc->caught, sc->note, line, sc->sol_name[j], why);
  }
}

/* Every fenced block of the notes and every lecture example against every solution's shape. */
void scan_shapes(const char *const *notes, char *const *note_texts, size_t n_notes, const char *const *examples,
                        char *const *example_texts, size_t n_examples, const char *const *sol_name,
                        char *const *sol_text, size_t n_sol, caught *c) {
  solution_shape *sol = malloc(sizeof *sol * (n_sol + 1));
  for (size_t j = 0; j < n_sol; j++) sol[j] = solution_shape_of(sol_text[j]);
  for (size_t i = 0; i < n_notes; i++) {
    shape_scan sc = {notes[i], sol_name, sol, n_sol, c};
    each_fence(note_texts[i], scan_fence, &sc);
  }
  for (size_t i = 0; i < n_examples; i++) {
    shape_scan sc = {examples[i], sol_name, sol, n_sol, c};
    scan_fence(example_texts[i], 1, &sc);
  }
  for (size_t j = 0; j < n_sol; j++) solution_shape_free(&sol[j]);
  free(sol);
}

void caught_free(caught *c) {
  for (int i = 0; i < c->n; i++) free(c->pair[i]), free(c->why[i]);
  free(c->pair), free(c->why);
}

