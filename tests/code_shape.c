/* code_shape.c: the shape of C/CUDA code (code_shape.h), for the leak test. */
#include "code_shape.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- tokens */

typedef struct toks {
  char **v;
  int *line;
  int n, cap;
} toks;

static void push(toks *t, const char *s, size_t len, int line) {
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 256;
    t->v = realloc(t->v, (size_t)t->cap * sizeof *t->v);
    t->line = realloc(t->line, (size_t)t->cap * sizeof *t->line);
  }
  t->v[t->n] = strndup(s, len);
  t->line[t->n++] = line;
}

static void toks_free(toks *t) {
  for (int i = 0; i < t->n; i++) free(t->v[i]);
  free(t->v);
  free(t->line);
}

/* Cuts C/CUDA text into tokens; comments and preprocessor lines are dropped,
 * a string or character literal is one token "K". */
static toks tokenize(const char *s) {
  static const char *const OPS[] = {"<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>",
                                    "<=",  ">=",  "==", "!=", "&&", "||", "++", "--", "->", "::", NULL};
  toks t = {0};
  int line = 1, line_start = 1;
  while (*s) {
    if (*s == '\n') {
      line++, line_start = 1, s++;
    } else if (isspace((unsigned char)*s)) {
      s++;
    } else if (s[0] == '/' && s[1] == '/') {
      while (*s && *s != '\n') s++;
    } else if (s[0] == '/' && s[1] == '*') {
      for (s += 2; *s && !(s[0] == '*' && s[1] == '/'); s++) line += *s == '\n';
      if (*s) s += 2;
    } else if (*s == '#' && line_start) {
      while (*s && !(*s == '\n' && s[-1] != '\\')) line += (*s++ == '\n');
    } else if (*s == '"' || *s == '\'') {
      char q = *s++;
      while (*s && *s != q && *s != '\n') s += (*s == '\\' && s[1]) ? 2 : 1;
      if (*s == q) s++;
      push(&t, "K", 1, line);
      line_start = 0;
    } else if (isalnum((unsigned char)*s) || *s == '_') {
      const char *e = s;
      while (isalnum((unsigned char)*e) || *e == '_' || (isdigit((unsigned char)*s) && *e == '.')) e++;
      push(&t, s, (size_t)(e - s), line);
      s = e, line_start = 0;
    } else {
      size_t len = 1;
      for (int i = 0; OPS[i]; i++)
        if (!strncmp(s, OPS[i], strlen(OPS[i]))) {
          len = strlen(OPS[i]);
          break;
        }
      push(&t, s, len, line);
      s += len, line_start = 0;
    }
  }
  return t;
}

/* ---------------------------------------------------------------- normalizing */

static int in(const char *w, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(w, *list)) return 1;
  return 0;
}

static const char *const DROPPED[] = {"const", "static", "inline", "__forceinline__", "__device__", "__host__",
                                      "extern", "constexpr", "(", ")", NULL};
static const char *const TYPES[] = {"int",     "unsigned", "float",    "double",   "long",   "short", "char",
                                    "size_t",  "uint32_t", "int32_t",  "uint64_t", "int64_t", "uint4", "int4",
                                    "float4",  "auto",     "bool",     "void",     "signed", NULL};
static const char *const OPS_AS_ONE[] = {"+", "*", "|", "^", "&", NULL};
static const char *const COMPOUND[] = {"+=", "*=", "|=", "^=", "&=", "<<=", ">>=", NULL};
static const char *const MAXES[] = {"max", "min", "fmaxf", "fminf", "fmax", "fmin", "umax", "umin", NULL};
static const char *const KEYWORDS[] = {"if",    "else",  "for",  "while",    "do",      "return",  "break",
                                       "continue", "switch", "case", "default", "sizeof", "true", "false",
                                       "nullptr", "struct", "template", "typename", "volatile", "threadIdx",
                                       "blockIdx", "blockDim", "gridDim", "warpSize", NULL};

static int all_caps(const char *w) {
  int letter = 0;
  for (const char *p = w; *p; p++) {
    if (islower((unsigned char)*p)) return 0;
    letter |= isupper((unsigned char)*p);
  }
  return letter && strlen(w) >= 2;
}

static void emit(toks *out, const char *w, int line) { push(out, w, strlen(w), line); }

/* The index of the parenthesis that closes the one at open, or end. */
static int closing(const toks *t, int open, int end) {
  int depth = 0;
  for (int i = open; i < end; i++) {
    depth += !strcmp(t->v[i], "(") - !strcmp(t->v[i], ")");
    if (!depth) return i;
  }
  return end;
}

/* Normalizes tokens [from, to) of t into out. */
static void normalize(const toks *t, int from, int to, toks *out) {
  for (int i = from; i < to; i++) {
    const char *w = t->v[i];
    int line = t->line[i];
    if (in(w, MAXES) && i + 1 < to && !strcmp(t->v[i + 1], "(")) { /* max(a, b): a OP b */
      int close = closing(t, i + 1, to), comma = -1, depth = 0;
      for (int k = i + 1; k < close && comma < 0; k++) {
        depth += !strcmp(t->v[k], "(") - !strcmp(t->v[k], ")");
        if (depth == 1 && !strcmp(t->v[k], ",")) comma = k;
      }
      if (comma > 0) {
        normalize(t, i + 2, comma, out);
        emit(out, "OP", line);
        normalize(t, comma + 1, close, out);
        i = close;
        continue;
      }
    }
    if (in(w, DROPPED)) continue;
    if (in(w, COMPOUND)) { /* a += b: a = a OP b, the left side since the statement began */
      int b = out->n;
      while (b > 0 && strcmp(out->v[b - 1], ";") && strcmp(out->v[b - 1], "{") && strcmp(out->v[b - 1], "}")) b--;
      int lhs_end = out->n;
      emit(out, "=", line);
      for (int k = b; k < lhs_end; k++) emit(out, out->v[k], line);
      emit(out, in(w, (const char *const[]){"<<=", ">>=", NULL}) ? (w[0] == '<' ? "<<" : ">>") : "OP", line);
      continue;
    }
    if (in(w, TYPES)) {
      if (!out->n || strcmp(out->v[out->n - 1], "T")) emit(out, "T", line);
    } else if (in(w, OPS_AS_ONE) || in(w, MAXES)) {
      emit(out, "OP", line);
    } else if (isdigit((unsigned char)w[0]) || all_caps(w)) {
      emit(out, "K", line);
    } else if (isalpha((unsigned char)w[0]) || w[0] == '_') {
      int field = i > 0 && (!strcmp(t->v[i - 1], ".") || !strcmp(t->v[i - 1], "->"));
      if (field || in(w, KEYWORDS) || !strncmp(w, "__", 2) || !strncmp(w, "atomic", 6)) {
        emit(out, w, line);
      } else { /* a name: renamed in each window */
        char name[256];
        snprintf(name, sizeof name, "$%s", w);
        emit(out, name, line);
      }
    } else {
      emit(out, w, line);
    }
  }
}

shape shape_of(const char *text) {
  toks raw = tokenize(text), out = {0};
  normalize(&raw, 0, raw.n, &out);
  toks_free(&raw);
  return (shape){out.v, out.line, out.n};
}

void shape_free(shape *s) {
  for (int i = 0; i < s->n; i++) free(s->tok[i]);
  free(s->tok);
  free(s->line);
  memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- windows */

/* The window of SHAPE_WINDOW tokens at i, names numbered in order of appearance. */
static char *window_at(const shape *s, int i) {
  const char *names[SHAPE_WINDOW];
  int n_names = 0;
  size_t cap = 16;
  for (int k = i; k < i + SHAPE_WINDOW; k++) cap += strlen(s->tok[k]) + 8;
  char *w = malloc(cap), *o = w;
  for (int k = i; k < i + SHAPE_WINDOW; k++) {
    const char *tok = s->tok[k];
    if (tok[0] == '$') {
      int id = 0;
      while (id < n_names && strcmp(names[id], tok)) id++;
      if (id == n_names) names[n_names++] = tok;
      o += sprintf(o, "v%d ", id);
    } else {
      o += sprintf(o, "%s ", tok);
    }
  }
  *o = 0;
  return w;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

shape_set shape_windows(const shape *b) {
  shape_set set = {NULL, 0};
  if (b->n < SHAPE_WINDOW) return set;
  set.v = malloc(sizeof *set.v * (size_t)(b->n - SHAPE_WINDOW + 1));
  for (int i = 0; i + SHAPE_WINDOW <= b->n; i++) set.v[set.n++] = window_at(b, i);
  qsort(set.v, (size_t)set.n, sizeof *set.v, cmp_str);
  return set;
}

void shape_set_free(shape_set *s) {
  for (int i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

int shape_shared_run(const shape *a, const shape_set *b, int *at) {
  int best = 0, run = 0;
  *at = 0;
  for (int i = 0; i + SHAPE_WINDOW <= a->n; i++) {
    char *w = window_at(a, i);
    int hit = b->n && bsearch(&w, b->v, (size_t)b->n, sizeof *b->v, cmp_str) != NULL;
    free(w);
    run = hit ? run + 1 : 0;
    if (run > best) best = run, *at = i - run + 1;
  }
  return best;
}

/* ---------------------------------------------------------------- skeletons */

/* Appends the skeleton of one statement (raw tokens [from, to)): a load L for
 * each [ read, a store W when it assigns to an element, a barrier S for each
 * __syncthreads/__syncwarp, a shuffle X for each __shfl. */
static void statement_skeleton(const toks *t, int from, int to, toks *out) {
  int assign = -1, depth = 0;
  for (int i = from; i < to; i++) {
    const char *w = t->v[i];
    depth += (!strcmp(w, "(") || !strcmp(w, "[")) - (!strcmp(w, ")") || !strcmp(w, "]"));
    if (assign < 0 && !depth && (!strcmp(w, "=") || in(w, COMPOUND) || !strcmp(w, "-=") || !strcmp(w, "/="))) assign = i;
  }
  int lhs_element = 0;
  for (int i = from; assign >= 0 && i < assign; i++) lhs_element |= !strcmp(t->v[i], "[");
  int compound = assign >= 0 && strcmp(t->v[assign], "=");
  for (int i = (lhs_element ? assign : from); i < to; i++) {
    const char *w = t->v[i];
    if (!strcmp(w, "[")) emit(out, "L", t->line[i]);
    else if (!strncmp(w, "__sync", 6)) emit(out, "S", t->line[i]);
    else if (!strncmp(w, "__shfl", 6)) emit(out, "X", t->line[i]);
  }
  if (lhs_element) {
    if (compound) emit(out, "L", t->line[assign]);
    emit(out, "W", t->line[assign]);
  }
}

shape skeleton_of(const char *text) {
  static const char *const FLOW[] = {"for", "while", "if", "else", "return", "continue", "break", "{", "}", NULL};
  toks raw = tokenize(text), out = {0};
  int start = 0, parens = 0, header = -1; /* header: the depth an if/for/while's ( opens at */
  for (int i = 0; i < raw.n; i++) {
    const char *w = raw.v[i];
    parens += !strcmp(w, "(") - !strcmp(w, ")");
    int ends = (!strcmp(w, ";") && !parens) || !strcmp(w, "{") || !strcmp(w, "}");
    int header_ends = !strcmp(w, ")") && parens == header;
    if (in(w, FLOW) && strcmp(w, "{") && strcmp(w, "}")) {
      statement_skeleton(&raw, start, i, &out);
      emit(&out, w, raw.line[i]);
      start = i + 1;
      if (!strcmp(w, "if") || !strcmp(w, "for") || !strcmp(w, "while")) header = parens;
    } else if (ends || header_ends) {
      if (header_ends) header = -1;
      statement_skeleton(&raw, start, i, &out);
      if (strcmp(w, ";") && strcmp(w, ")")) emit(&out, w, raw.line[i]);
      start = i + 1;
    }
  }
  statement_skeleton(&raw, start, raw.n, &out);
  toks_free(&raw);
  return (shape){out.v, out.line, out.n};
}

/* The functions of a shape: [start, end) token ranges of each `{ ... }` at
 * depth 0 (a listing of statements alone is one function). */
int skeleton_functions(const shape *s, int *start, int *end, int cap) {
  int n = 0, depth = 0, open = -1;
  for (int i = 0; i < s->n && n < cap; i++) {
    if (!strcmp(s->tok[i], "{") && depth++ == 0) open = i;
    if (!strcmp(s->tok[i], "}") && --depth == 0 && open >= 0) start[n] = open, end[n++] = i + 1, open = -1;
    if (depth < 0) depth = 0;
  }
  if (!n && s->n) start[0] = 0, end[0] = s->n, n = 1;
  return n;
}

/* 2 LCS(a, b) / (|a| + |b|) of two token ranges, in [0, 1]. */
double skeleton_similarity(const shape *a, int a0, int a1, const shape *b, int b0, int b1) {
  int na = a1 - a0, nb = b1 - b0;
  if (na <= 0 || nb <= 0) return 0;
  int *prev = calloc((size_t)nb + 1, sizeof *prev), *cur = calloc((size_t)nb + 1, sizeof *cur);
  for (int i = 1; i <= na; i++) {
    for (int j = 1; j <= nb; j++)
      cur[j] = !strcmp(a->tok[a0 + i - 1], b->tok[b0 + j - 1]) ? prev[j - 1] + 1 : (prev[j] > cur[j - 1] ? prev[j] : cur[j - 1]);
    int *sw = prev;
    prev = cur, cur = sw;
  }
  double r = 2.0 * prev[nb] / (na + nb);
  free(prev), free(cur);
  return r;
}
