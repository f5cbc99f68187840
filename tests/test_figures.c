/* test_figures.c: every measured figure in the course's text is bound to the
 * file it was measured into (issue 33 item 2; docs/figures.md is the
 * convention for maintainers).
 *
 * Scope: README.md, lectures/NN-name.md and lectures/README.md, assignments/NN-name/README.md,
 * solutions/NN-name/ANSWERS.md, docs/NAME.md (not docs/results/).
 *   - A file is cut into blocks: a paragraph, a list item with its
 *     continuation lines, a table, a heading, a fenced code block.
 *   - A measured figure is a number followed, directly or after one space, by
 *     ns, us, µs, ms, s, GB/s or TB/s, or a ratio written with x or × right
 *     after the number (0.99x, 1.04×). Inline code spans are not read.
 *   - A block with figures names its sources: paths under docs/results/,
 *     assignments/NN-name/timings/, lectures/data/, or an
 *     assignments/NN-name/grade.conf, in the block or in a tag on the line
 *     right after it, <!-- source: PATH [PATH ...] -->.
 *   - Each figure equals, at the decimals it is quoted with, a number of one of
 *     its sources, as it stands or converted between s, ms, µs and ns (a ratio
 *     or a throughput: as it stands).
 *   - A fenced block quoting output carries <!-- output: PATH --> after it:
 *     every non-blank line of it (runs of spaces collapsed) is in PATH.
 *   - A block whose figures are not measurements carries
 *     <!-- figures: not measured: REASON --> after it.
 * tests/figures-pending.txt lists the files not yet bound: they are
 * skipped, and one that already passes fails the test, so the list only
 * shrinks. Run from the repository root. */
#include <glob.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "problems.h"
#include "tests.h"

/* The Markdown files the convention covers. */
static const char *const SCOPE[] = {"README.md", "lectures/*.md", "assignments/*/README.md", "solutions/*/ANSWERS.md",
                                    "docs/*.md"};
#define N_SCOPE (sizeof SCOPE / sizeof *SCOPE)
static const char PENDING[] = "tests/figures-pending.txt";

/* ---------------------------------------------------------------- blocks */

enum bkind { B_PARA, B_ITEM, B_TABLE, B_HEADING, B_FENCE };

struct block {
  enum bkind kind;
  int line;           /* the block's first line (a fence: the opening fence) */
  int body_line;      /* the line text starts at (a fence: the line after the opening fence) */
  char *text;         /* its lines joined by '\n' (a fence: what is between the fences) */
  char *sources;      /* the paths of its source tags, space-separated, or NULL */
  char *output;       /* the path of its output tag, or NULL */
  char *not_measured; /* the reason of its not-measured tag, or NULL */
  int tag_line;       /* the line of its last tag */
};

struct blocks {
  struct block *v;
  int n, cap;
};

static void blocks_free(struct blocks *b) {
  for (int i = 0; i < b->n; i++) {
    free(b->v[i].text);
    free(b->v[i].sources);
    free(b->v[i].output);
    free(b->v[i].not_measured);
  }
  free(b->v);
  memset(b, 0, sizeof *b);
}

static void block_new(struct blocks *b, enum bkind kind, int line) {
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    b->v = realloc(b->v, (size_t)b->cap * sizeof *b->v);
  }
  struct block *k = &b->v[b->n++];
  memset(k, 0, sizeof *k);
  k->kind = kind;
  k->line = k->body_line = line;
  k->text = strdup("");
}

static void block_add_line(struct block *k, const char *line, size_t len) {
  size_t old = strlen(k->text);
  k->text = realloc(k->text, old + len + 2);
  if (old) k->text[old++] = '\n';
  memcpy(k->text + old, line, len);
  k->text[old + len] = 0;
}

/* Appends s to *list, space-separated. */
static void append_word(char **list, const char *s, size_t len) {
  size_t old = *list ? strlen(*list) : 0;
  *list = realloc(*list, old + len + 2);
  if (old) (*list)[old++] = ' ';
  memcpy(*list + old, s, len);
  (*list)[old + len] = 0;
}

/* The next word of a space-separated list into buf; returns where to go on, or NULL at the end. */
static const char *next_word(const char *s, char *buf, size_t cap) {
  if (!s) return NULL;
  while (*s == ' ') s++;
  if (!*s) return NULL;
  size_t len = strcspn(s, " ");
  snprintf(buf, cap, "%.*s", (int)len, s);
  return s + len;
}

/* Whether a space-separated list holds word. */
static int has_word(const char *list, const char *word) {
  char w[512];
  for (const char *s = list; (s = next_word(s, w, sizeof w));)
    if (!strcmp(w, word)) return 1;
  return 0;
}

static const char *skip_spaces(const char *s, const char *end) {
  while (s < end && (*s == ' ' || *s == '\t')) s++;
  return s;
}

/* A fence's opening or closing run (``` or ~~~, 3 or more): its length, or 0. */
static size_t fence_run(const char *s, const char *end, char *ch) {
  if (s >= end || (*s != '`' && *s != '~')) return 0;
  size_t n = 0;
  while (s + n < end && s[n] == *s) n++;
  if (n < 3) return 0;
  *ch = *s;
  return n;
}

/* Whether a line (trimmed) starts a list item: "- ", "* ", "+ ", "12. ", "3) ". */
static int item_marker(const char *s, const char *end) {
  if (s + 1 < end && strchr("-*+", *s) && (s[1] == ' ' || s[1] == '\t')) return 1;
  const char *p = s;
  while (p < end && *p >= '0' && *p <= '9') p++;
  return p > s && p - s < 10 && p + 1 < end && (*p == '.' || *p == ')') && (p[1] == ' ' || p[1] == '\t');
}

/* Reads one tag (the trimmed line s..end, an HTML comment) into block k.
 * Returns 0 for a comment that is not a tag, 1 for a tag, -1 for a malformed one. */
static int read_tag(const char *s, const char *end, struct block *k, int line, char *why, size_t cap) {
  const char *p = skip_spaces(s + 4, end), *close = end - 3;
  while (close > p && (close[-1] == ' ' || close[-1] == '\t')) close--;
  size_t n = (size_t)(close - p);
  if (n >= 7 && !strncmp(p, "source:", 7)) {
    const char *w = skip_spaces(p + 7, close);
    if (w == close) return snprintf(why, cap, "a source tag names no path"), -1;
    while (w < close) {
      const char *e = w;
      while (e < close && *e != ' ' && *e != '\t') e++;
      append_word(&k->sources, w, (size_t)(e - w));
      w = skip_spaces(e, close);
    }
  } else if (n >= 7 && !strncmp(p, "output:", 7)) {
    const char *w = skip_spaces(p + 7, close);
    if (w == close || memchr(w, ' ', (size_t)(close - w)))
      return snprintf(why, cap, "an output tag names one path"), -1;
    if (k->output) return snprintf(why, cap, "a block has two output tags"), -1;
    k->output = strndup(w, (size_t)(close - w));
  } else if (n >= 7 && !strncmp(p, "figures", 7)) {
    static const char NM[] = "figures: not measured:";
    if (n < sizeof NM - 1 || strncmp(p, NM, sizeof NM - 1))
      return snprintf(why, cap, "a figures tag reads <!-- figures: not measured: REASON -->"), -1;
    const char *r = skip_spaces(p + sizeof NM - 1, close);
    if (r == close) return snprintf(why, cap, "a not-measured tag gives no reason"), -1;
    free(k->not_measured);
    k->not_measured = strndup(r, (size_t)(close - r));
  } else {
    return 0;
  }
  k->tag_line = line;
  return 1;
}

/* Cuts a Markdown text into blocks and reads their tags. A tag must be on the
 * line right after its block (after other tags or comments on the lines
 * between); one anywhere else is a problem. Blocks are held by index, since
 * adding one may move them all. */
static void split_blocks(const char *file, const char *text, struct blocks *out, problems *pr) {
  memset(out, 0, sizeof *out);
  int cur = -1;  /* the block being read (paragraph, item, table, fence) */
  int last = -1; /* the block a tag on this line would belong to */
  char fence_ch = 0;
  size_t fence_len = 0; /* in a fenced block when nonzero */
  int in_comment = 0;   /* in a comment spanning lines */
  int lineno = 0;
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
    lineno++;
    const char *t = skip_spaces(s, end), *te = end;
    while (te > t && (te[-1] == ' ' || te[-1] == '\t' || te[-1] == '\r')) te--;
    if (fence_len) { /* inside a fenced block: its text, or its closing fence */
      char ch = 0;
      size_t run = fence_run(t, te, &ch);
      if (run >= fence_len && ch == fence_ch && skip_spaces(t + run, te) == te) {
        fence_len = 0;
        last = cur;
        cur = -1;
      } else {
        block_add_line(&out->v[cur], s, (size_t)(end - s));
      }
    } else if (in_comment) {
      const char *close = strstr(t, "-->");
      if (close && close < te) in_comment = 0;
    } else if (t == te) { /* a blank line ends a block; a tag after it belongs to none */
      cur = last = -1;
    } else if (te - t >= 4 && !strncmp(t, "<!--", 4)) {
      if (cur >= 0) last = cur;
      cur = -1;
      const char *close = strstr(t, "-->");
      if (!close || close >= te) {
        in_comment = 1;
      } else if (close + 3 == te) {
        char why[200];
        struct block scratch = {0};
        int tag = read_tag(t, te, last >= 0 ? &out->v[last] : &scratch, lineno, why, sizeof why);
        if (tag < 0) problem(pr, file, lineno, "%s", why);
        if (tag && last < 0) problem(pr, file, lineno, "a tag must be on the line right after its block");
        free(scratch.sources), free(scratch.output), free(scratch.not_measured);
      }
    } else {
      char ch = 0;
      size_t run = fence_run(t, te, &ch);
      enum bkind kind = run ? B_FENCE : *t == '#' ? B_HEADING : *t == '|' ? B_TABLE : item_marker(t, te) ? B_ITEM : B_PARA;
      last = -1;
      /* a table row or a paragraph's line goes on with the block it follows */
      int goes_on = cur >= 0 && ((kind == B_TABLE && out->v[cur].kind == B_TABLE) ||
                                 (kind == B_PARA && out->v[cur].kind != B_TABLE));
      if (!goes_on) {
        block_new(out, kind, lineno);
        cur = out->n - 1;
      }
      if (kind == B_FENCE) {
        out->v[cur].body_line = lineno + 1;
        fence_ch = ch, fence_len = run;
      } else {
        block_add_line(&out->v[cur], s, (size_t)(end - s));
      }
      if (kind == B_HEADING) last = cur, cur = -1; /* a heading is one line */
    }
    s = nl ? nl + 1 : end;
  }
  if (fence_len) problem(pr, file, out->v[cur].line, "a fenced block is not closed");
}

/* ---------------------------------------------------------------- figures */

enum unit_kind { U_TIME, U_RATE, U_RATIO };

struct figure {
  double value;
  int decimals;
  enum unit_kind kind;
  double to_s; /* a time's unit in seconds */
  int line;
  char text[48]; /* as written, e.g. "48.8 µs" */
};

static int is_word(unsigned char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

/* Blanks out inline code spans (`...`, ``...``) in place, keeping newlines, so
 * their figures are not read and line numbers stay right. */
static void blank_code_spans(char *s) {
  for (char *p = s; *p;) {
    if (*p != '`') {
      p++;
      continue;
    }
    size_t n = strspn(p, "`");
    char *q = p + n, *close = NULL;
    while ((q = strchr(q, '`'))) {
      size_t m = strspn(q, "`");
      if (m == n) {
        close = q;
        break;
      }
      q += m;
    }
    if (!close) {
      p += n;
      continue;
    }
    for (char *c = p; c < close + n; c++)
      if (*c != '\n') *c = ' ';
    p = close + n;
  }
}

/* The unit right after a number at s: its length in bytes (0: none), its kind
 * and, for a time, its size in seconds. A ratio's x or × must touch the
 * number; other units may follow one space. */
static size_t unit_at(const char *s, enum unit_kind *kind, double *to_s) {
  static const struct {
    const char *name;
    enum unit_kind kind;
    double to_s;
  } UNITS[] = {
      {"GB/s", U_RATE, 0}, {"TB/s", U_RATE, 0}, {"ns", U_TIME, 1e-9},     {"us", U_TIME, 1e-6},
      {"\xc2\xb5s", U_TIME, 1e-6}, /* µ, the micro sign */
      {"\xce\xbcs", U_TIME, 1e-6}, /* μ, the Greek letter */
      {"ms", U_TIME, 1e-3},        {"s", U_TIME, 1},
  };
  if ((*s == 'x' && !is_word((unsigned char)s[1])) ||
      (!strncmp(s, "\xc3\x97", 2) && !is_word((unsigned char)s[2]))) {
    *kind = U_RATIO;
    return *s == 'x' ? 1 : 2;
  }
  size_t gap = 0;
  if (*s == ' ')
    gap = 1;
  else if (!strncmp(s, "\xc2\xa0", 2)) /* no-break space */
    gap = 2;
  else if (!strncmp(s, "\xe2\x80\xaf", 3)) /* narrow no-break space */
    gap = 3;
  for (size_t i = 0; i < sizeof UNITS / sizeof *UNITS; i++) {
    size_t len = strlen(UNITS[i].name);
    if (!strncmp(s + gap, UNITS[i].name, len) && !is_word((unsigned char)s[gap + len])) {
      *kind = UNITS[i].kind;
      *to_s = UNITS[i].to_s;
      return gap + len;
    }
  }
  return 0;
}

/* The measured figures of a block's text (first_line: the line text starts
 * at). Inline code spans are not read, except in a fenced block, which has
 * none. Returns how many; *out is malloc'd. */
static int find_figures(const char *text, int first_line, int fenced, struct figure **out) {
  char *s = strdup(text);
  if (!fenced) blank_code_spans(s);
  int n = 0, cap = 0, line = first_line;
  *out = NULL;
  for (const char *p = s; *p; p++) {
    if (*p == '\n') {
      line++;
      continue;
    }
    if (!(*p >= '0' && *p <= '9') || (p > s && (is_word((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == ',')))
      continue;
    /* a number: digits, groups of ",ddd", a decimal part */
    const char *q = p;
    double v = 0;
    while (*q >= '0' && *q <= '9') v = 10 * v + (*q++ - '0');
    while (q[0] == ',' && q[1] >= '0' && q[1] <= '9' && q[2] >= '0' && q[2] <= '9' && q[3] >= '0' && q[3] <= '9' &&
           !(q[4] >= '0' && q[4] <= '9')) {
      v = 1000 * v + (q[1] - '0') * 100 + (q[2] - '0') * 10 + (q[3] - '0');
      q += 4;
    }
    int decimals = 0;
    if (q[0] == '.' && q[1] >= '0' && q[1] <= '9') {
      double scale = 0.1;
      for (q++; *q >= '0' && *q <= '9'; q++, decimals++, scale /= 10) v += (*q - '0') * scale;
    }
    enum unit_kind kind = U_TIME;
    double to_s = 0;
    size_t ulen = unit_at(q, &kind, &to_s);
    if (ulen) {
      if (n == cap) *out = realloc(*out, (size_t)(cap = cap ? 2 * cap : 8) * sizeof **out);
      struct figure *f = &(*out)[n++];
      f->value = v, f->decimals = decimals, f->kind = kind, f->to_s = to_s, f->line = line;
      snprintf(f->text, sizeof f->text, "%.*s", (int)(q + ulen - p), text + (p - s));
    }
    p = q + ulen - 1;
  }
  free(s);
  return n;
}

/* ---------------------------------------------------------------- sources */

static int is_path_char(unsigned char c) { return is_word(c) || c == '.' || c == '-' || c == '/' || c == '+'; }

/* Whether path names a source a figure may be bound to: a file under
 * docs/results/, lectures/data/ or assignments/NN-name/timings/, or an
 * assignments/NN-name/grade.conf. */
static int source_path_ok(const char *path) {
  if (!strncmp(path, "docs/results/", 13) && path[13]) return 1;
  if (!strncmp(path, "lectures/data/", 14) && path[14]) return 1;
  if (strncmp(path, "assignments/", 12)) return 0;
  const char *a = path + 12, *slash = strchr(a, '/');
  if (!(a[0] >= '0' && a[0] <= '9' && a[1] >= '0' && a[1] <= '9' && a[2] == '-') || !slash) return 0;
  return !strcmp(slash, "/grade.conf") || (!strncmp(slash, "/timings/", 9) && slash[9]);
}

/* Adds to *list the source paths written in text (a block's own lines):
 * docs/results/..., lectures/data/..., assignments/NN-name/timings/...,
 * assignments/NN-name/grade.conf. A folder (ending in /) or a pattern is not a
 * source. */
static void find_sources(const char *text, char **list) {
  static const char *const ROOTS[] = {"docs/results/", "lectures/data/", "assignments/"};
  for (size_t r = 0; r < sizeof ROOTS / sizeof *ROOTS; r++)
    for (const char *p = strstr(text, ROOTS[r]); p; p = strstr(p + 1, ROOTS[r])) {
      if (p > text && is_word((unsigned char)p[-1])) continue;
      size_t len = 0;
      while (is_path_char((unsigned char)p[len])) len++;
      if (p[len] == '*' || p[len] == '{' || p[len] == '<' || p[len] == '[') continue;
      while (len && (p[len - 1] == '.' || p[len - 1] == '-')) len--;
      char path[512];
      if (len >= sizeof path || p[len - 1] == '/') continue;
      snprintf(path, sizeof path, "%.*s", (int)len, p);
      if (source_path_ok(path)) append_word(list, path, len);
    }
}

/* The numbers of the source files, read once per check. */
struct numbers {
  char *path;
  double *v;
  int *line; /* the line of each number */
  int n;
  int missing;
};
struct source_cache {
  const char *root;
  struct numbers *v;
  int n, cap;
};

static char *root_read(const char *root, const char *path) {
  char full[1024];
  struct stat st;
  snprintf(full, sizeof full, "%s/%s", root, path);
  if (stat(full, &st) || !S_ISREG(st.st_mode)) return NULL;
  return read_text(full);
}

/* Every number in a text: digits with an optional decimal part and exponent;
 * *lines gets the line of each. */
static int parse_numbers(const char *text, double **out, int **lines) {
  int n = 0, cap = 0, line = 1;
  *out = NULL;
  *lines = NULL;
  for (const char *p = text; *p;) {
    if (!(*p >= '0' && *p <= '9')) {
      line += *p++ == '\n';
      continue;
    }
    const char *q = p;
    while (*q >= '0' && *q <= '9') q++;
    if (q[0] == '.' && q[1] >= '0' && q[1] <= '9')
      for (q++; *q >= '0' && *q <= '9'; q++) {
      }
    if ((q[0] == 'e' || q[0] == 'E')) {
      const char *e = q + 1 + (q[1] == '-' || q[1] == '+');
      if (*e >= '0' && *e <= '9')
        for (q = e; *q >= '0' && *q <= '9'; q++) {
        }
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.*s", (int)(q - p < 63 ? q - p : 63), p);
    if (n == cap) {
      cap = cap ? 2 * cap : 256;
      *out = realloc(*out, (size_t)cap * sizeof **out);
      *lines = realloc(*lines, (size_t)cap * sizeof **lines);
    }
    (*lines)[n] = line;
    (*out)[n++] = strtod(buf, NULL);
    p = q;
  }
  return n;
}

static struct numbers *source_numbers(struct source_cache *c, const char *path) {
  for (int i = 0; i < c->n; i++)
    if (!strcmp(c->v[i].path, path)) return &c->v[i];
  if (c->n == c->cap) c->v = realloc(c->v, (size_t)(c->cap = c->cap ? 2 * c->cap : 16) * sizeof *c->v);
  struct numbers *s = &c->v[c->n++];
  memset(s, 0, sizeof *s);
  s->path = strdup(path);
  char *text = root_read(c->root, path);
  if (!text) {
    s->missing = 1;
    return s;
  }
  s->n = parse_numbers(text, &s->v, &s->line);
  free(text);
  return s;
}

static void source_cache_free(struct source_cache *c) {
  for (int i = 0; i < c->n; i++) free(c->v[i].path), free(c->v[i].v), free(c->v[i].line);
  free(c->v);
  memset(c, 0, sizeof *c);
}

/* Whether the number x, scaled by f, is the figure at its quoted decimals. */
static int rounds_to(double x, double f, const struct figure *fig) {
  double half = 0.5 * pow(10, -fig->decimals);
  return fabs(x * f - fig->value) <= half * (1 + 1e-9) + 1e-12 * fabs(fig->value);
}

/* Whether a figure is one of a source's numbers at its decimals, as it stands
 * or (a time) converted between s, ms, µs and ns. With FIGURES_TRACE set, says
 * which number it is (to review a binding by eye). */
static const char *trace_file = "";
static int figure_in(const struct figure *fig, const struct numbers *src) {
  static const double SCALES[] = {1, 1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9};
  size_t scales = fig->kind == U_TIME ? sizeof SCALES / sizeof *SCALES : 1;
  for (int i = 0; i < src->n; i++)
    for (size_t k = 0; k < scales; k++)
      if (rounds_to(src->v[i], SCALES[k], fig)) {
        if (getenv("FIGURES_TRACE"))
          fprintf(stderr, "trace: %s:%d: %s = %.10g x %g at %s:%d\n", trace_file, fig->line, fig->text, src->v[i], SCALES[k],
                  src->path, src->line[i]);
        return 1;
      }
  return 0;
}

/* ---------------------------------------------------------------- output samples */

/* A copy of s (len bytes) with runs of spaces and tabs made one space, trimmed. */
static char *collapse(const char *s, size_t len) {
  char *out = malloc(len + 1), *o = out;
  int space = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
      space = 1;
      continue;
    }
    if (space && o > out) *o++ = ' ';
    space = 0;
    *o++ = s[i];
  }
  *o = 0;
  return out;
}

/* Whether line (collapsed) is within one line of text (collapsed line by line). */
static int line_in(const char *line, const char *text) {
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
    char *c = collapse(s, (size_t)(end - s));
    int found = strstr(c, line) != NULL;
    free(c);
    if (found) return 1;
    s = nl ? nl + 1 : end;
  }
  return 0;
}

/* Checks a fenced block against the file its output tag names. */
static void check_output(const char *root, const char *file, const struct block *k, problems *pr) {
  if (k->kind != B_FENCE) {
    problem(pr, file, k->tag_line, "an output tag follows a fenced code block, not a %s",
            k->kind == B_TABLE ? "table" : "paragraph");
    return;
  }
  char *src = root_read(root, k->output);
  if (!src) {
    problem(pr, file, k->tag_line, "output tag: %s is not a file of the repository", k->output);
    return;
  }
  int line = k->body_line;
  for (const char *s = k->text; *s; line++) {
    const char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
    char *c = collapse(s, (size_t)(end - s));
    if (*c && !line_in(c, src)) problem(pr, file, line, "this line of the sample is not in %s: %s", k->output, c);
    free(c);
    s = nl ? nl + 1 : end;
  }
  free(src);
}

/* ---------------------------------------------------------------- one file */

/* Checks one block's figures against its sources. */
static void check_block(struct source_cache *cache, const char *file, const struct block *k, problems *pr) {
  char w[512];
  if (k->output) check_output(cache->root, file, k, pr);
  /* a tag's paths are checked whether or not the block has figures */
  for (const char *s = k->sources; (s = next_word(s, w, sizeof w));) {
    if (!source_path_ok(w))
      problem(pr, file, k->tag_line,
              "source tag: %s is not under docs/results/, lectures/data/ or assignments/NN-name/timings/, "
              "nor a grade.conf",
              w);
    else if (source_numbers(cache, w)->missing)
      problem(pr, file, k->tag_line, "source tag: %s is not a file of the repository", w);
  }
  struct figure *figs;
  int n = find_figures(k->text, k->body_line, k->kind == B_FENCE, &figs);
  if (!n || k->not_measured || k->output) {
    free(figs);
    return;
  }
  /* the sources: the block's own paths, then its tag's; each once, each a file */
  char *named = NULL, *usable = NULL;
  find_sources(k->text, &named);
  if (k->sources) append_word(&named, k->sources, strlen(k->sources));
  for (const char *s = named; (s = next_word(s, w, sizeof w));) {
    if (has_word(usable, w)) continue;
    if (!source_numbers(cache, w)->missing)
      append_word(&usable, w, strlen(w));
    else if (!has_word(k->sources, w)) /* a tag's path is reported above */
      problem(pr, file, k->line, "%s: named as a source but not a file of the repository", w);
  }
  if (!named)
    for (int i = 0; i < n; i++) problem(pr, file, figs[i].line, "%s: no source named", figs[i].text);
  for (int i = 0; usable && i < n; i++) {
    int found = 0;
    for (const char *s = usable; !found && (s = next_word(s, w, sizeof w));)
      found = figure_in(&figs[i], source_numbers(cache, w));
    if (found) continue;
    char list[1024] = "";
    for (const char *s = usable; (s = next_word(s, w, sizeof w));)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", *list ? ", " : "", w);
    problem(pr, file, figs[i].line, "%s: not in %s at %d decimal%s", figs[i].text, list, figs[i].decimals,
            figs[i].decimals == 1 ? "" : "s");
  }
  free(named);
  free(usable);
  free(figs);
}

/* Checks one Markdown file (path relative to root); adds what is wrong to pr.
 * Returns how many figures it holds. */
static int check_markdown(const char *root, const char *file, problems *pr) {
  char *text = root_read(root, file);
  if (!text) {
    problem(pr, file, 0, "cannot read it");
    return 0;
  }
  struct blocks b;
  struct source_cache cache = {.root = root};
  split_blocks(file, text, &b, pr);
  trace_file = file;
  int figures = 0;
  for (int i = 0; i < b.n; i++) {
    struct figure *f;
    figures += find_figures(b.v[i].text, b.v[i].body_line, b.v[i].kind == B_FENCE, &f);
    free(f);
    check_block(&cache, file, &b.v[i], pr);
  }
  blocks_free(&b);
  source_cache_free(&cache);
  free(text);
  return figures;
}

/* ---------------------------------------------------------------- the course */

/* The files in scope, sorted (glob order per pattern). */
static void scope_files(glob_t *g) {
  memset(g, 0, sizeof *g);
  for (size_t i = 0; i < N_SCOPE; i++) glob(SCOPE[i], i ? GLOB_APPEND : 0, NULL, g);
}

static int in_scope(const glob_t *g, const char *path) {
  for (size_t i = 0; i < g->gl_pathc; i++)
    if (!strcmp(g->gl_pathv[i], path)) return 1;
  return 0;
}

/* The pending list: one path a line; blank lines and # comments skipped. */
struct pending {
  char **path;
  int *line; /* each path's line in the list */
  int n;
};

static void read_pending(const char *file, struct pending *p) {
  char *text = read_text(file);
  ck_assert_msg(text != NULL, "%s is missing (an empty list is a file with no paths)", file);
  memset(p, 0, sizeof *p);
  int lineno = 0;
  for (char *s = text; *s;) {
    char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
    lineno++;
    char *t = s + strspn(s, " \t"), *e = end;
    while (e > t && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
    if (e > t && *t != '#') {
      p->path = realloc(p->path, (size_t)(p->n + 1) * sizeof *p->path);
      p->line = realloc(p->line, (size_t)(p->n + 1) * sizeof *p->line);
      p->path[p->n] = strndup(t, (size_t)(e - t));
      p->line[p->n++] = lineno;
    }
    s = nl ? nl + 1 : end;
  }
  free(text);
}

/* The line of path in the pending list, or 0 when it is not there. */
static int pending_line(const struct pending *p, const char *path) {
  for (int i = 0; i < p->n; i++)
    if (!strcmp(p->path[i], path)) return p->line[i];
  return 0;
}

static void pending_free(struct pending *p) {
  for (int i = 0; i < p->n; i++) free(p->path[i]);
  free(p->path);
  free(p->line);
  memset(p, 0, sizeof *p);
}

/* Fails with every problem: all on stderr, as many as fit in the message. */
static void fail_with(const problems *pr, const char *what) {
  char msg[3500];
  int len = snprintf(msg, sizeof msg, "%d %s:", pr->n, what);
  for (int i = 0; i < pr->n; i++) {
    fprintf(stderr, "%s\n", pr->v[i]);
    if (len < (int)sizeof msg - 200) len += snprintf(msg + len, sizeof msg - (size_t)len, "\n  %s", pr->v[i]);
    else if (i == pr->n - 1) len += snprintf(msg + len, sizeof msg - (size_t)len, "\n  ... (stderr lists them all)");
  }
  fflush(stderr);
  ck_abort_msg("%s", msg);
}

START_TEST(test_figures_bound) {
  glob_t g;
  scope_files(&g);
  const char *only = getenv("FIGURES_ONLY");
  if (only) { /* one file, pending or not, with every problem it has */
    problems pr = {0};
    ck_assert_msg(in_scope(&g, only), "FIGURES_ONLY=%s is not a Markdown file in scope", only);
    int figures = check_markdown(".", only, &pr);
    printf("figures: %s: %d figures\n", only, figures);
    fflush(stdout);
    if (pr.n) fail_with(&pr, "problems binding figures to their sources (docs/figures.md)");
    problems_free(&pr);
    globfree(&g);
    return;
  }
  ck_assert_msg(g.gl_pathc > 10, "only %zu Markdown files in scope: run from the repository root", g.gl_pathc);
  struct pending pending;
  read_pending(PENDING, &pending);
  int show_pending = getenv("FIGURES_SHOW_PENDING") != NULL;
  problems pr = {0};
  int bound = 0, figures = 0, skipped = 0;
  struct stat st;
  int have_solutions = !stat("solutions", &st);
  for (int i = 0; i < pending.n; i++)
    if (!in_scope(&g, pending.path[i]) && (have_solutions || strncmp(pending.path[i], "solutions/", 10)))
      problem(&pr, PENDING, pending.line[i], "%s is not a Markdown file in scope: take it off the list",
              pending.path[i]);
  for (size_t i = 0; i < g.gl_pathc; i++) {
    const char *file = g.gl_pathv[i];
    int listed = pending_line(&pending, file);
    if (listed) {
      problems own = {0};
      check_markdown(".", file, &own);
      if (!own.n)
        problem(&pr, PENDING, listed, "%s passes: take it off the list", file);
      else if (show_pending)
        for (int k = 0; k < own.n; k++) fprintf(stderr, "(pending) %s\n", own.v[k]);
      problems_free(&own);
      skipped++;
      continue;
    }
    figures += check_markdown(".", file, &pr);
    bound++;
  }
  printf("figures: %d files bound (%d figures), %d pending in %s\n", bound, figures, skipped, PENDING);
  fflush(stdout);
  if (pr.n) fail_with(&pr, "problems binding figures to their sources (docs/figures.md)");
  problems_free(&pr);
  pending_free(&pending);
  globfree(&g);
}
END_TEST

/* ---------------------------------------------------------------- the checker on fixtures */

/* A fixture course in a temporary folder: the note and two source files. */
static char *fixture(const char *note) {
  char *dir = make_temp_dir("figures"), path[512];
  snprintf(path, sizeof path, "%s/docs/results/bench.txt", dir);
  write_text(path, "# bench at abc1234, an H100 (times in ms)\nscan  0.04883  0.06562\ncopy 0.0481 1.04x\n", 0);
  snprintf(path, sizeof path, "%s/lectures/data/cost.csv", dir);
  write_text(path, "variant,ns\nfence,1336.4\nstore,23\n", 0);
  snprintf(path, sizeof path, "%s/note.md", dir);
  write_text(path, note, 0);
  return dir;
}

/* Checks a fixture note; returns the problems joined by newlines (malloc'd). */
static char *check_fixture(const char *note) {
  char *dir = fixture(note);
  problems pr = {0};
  check_markdown(dir, "note.md", &pr);
  remove_dir(dir);
  free(dir);
  return problems_join(&pr);
}

START_TEST(test_figures_found) {
  struct figure *f;
  ck_assert_int_eq(find_figures("48.8 µs, 65.6us, 1.04× and 0.99x; 3 s. 12 SMs, 4 GB/s, 3.35 TB/s", 7, 0, &f), 7);
  ck_assert_str_eq(f[0].text, "48.8 µs");
  ck_assert_int_eq(f[0].decimals, 1);
  ck_assert_int_eq(f[0].line, 7);
  ck_assert_str_eq(f[1].text, "65.6us");
  ck_assert_str_eq(f[2].text, "1.04×");
  ck_assert_int_eq(f[2].kind, U_RATIO);
  ck_assert_str_eq(f[3].text, "0.99x");
  ck_assert_str_eq(f[4].text, "3 s");
  ck_assert_int_eq(f[5].kind, U_RATE);
  ck_assert_str_eq(f[6].text, "3.35 TB/s");
  free(f);
  /* not figures: inside code spans, two spaces, a word after the number, hex, 4x4, sm_90s */
  ck_assert_int_eq(find_figures("`48.8 µs` and ``2 ms``, 3  ms, 2 steps, 0x1f, 4x4, sm_90s, H100s", 1, 0, &f), 0);
  free(f);
  /* a fenced block has no code spans; thousands separators; line numbers */
  ck_assert_int_eq(find_figures("`5 ms`\nthen 1,336 ns", 10, 1, &f), 2);
  ck_assert_int_eq(f[0].line, 10);
  ck_assert_int_eq(f[1].line, 11);
  ck_assert(f[1].value == 1336);
  free(f);
}
END_TEST

START_TEST(test_figures_blocks) {
  struct blocks b;
  problems pr = {0};
  split_blocks("n.md",
               "# Title 3 ms\n\npara one\ncontinued\n<!-- source: docs/results/a.txt -->\n\n- item\n  more\n- two\n"
               "<!-- figures: not measured: a target -->\n\n| a | b |\n| 1 | 2 |\n\n```\nout 1 s\n```\n"
               "<!-- output: docs/results/a.txt -->\n<!-- other comment -->\n",
               &b, &pr);
  ck_assert_int_eq(pr.n, 0);
  ck_assert_int_eq(b.n, 6);
  ck_assert_int_eq(b.v[0].kind, B_HEADING);
  ck_assert_int_eq(b.v[1].kind, B_PARA);
  ck_assert_str_eq(b.v[1].text, "para one\ncontinued");
  ck_assert_str_eq(b.v[1].sources, "docs/results/a.txt");
  ck_assert_int_eq(b.v[2].kind, B_ITEM);
  ck_assert_str_eq(b.v[2].text, "- item\n  more");
  ck_assert_ptr_null(b.v[2].not_measured);
  ck_assert_str_eq(b.v[3].not_measured, "a target");
  ck_assert_int_eq(b.v[4].kind, B_TABLE);
  ck_assert_int_eq(b.v[4].line, 12);
  ck_assert_int_eq(b.v[5].kind, B_FENCE);
  ck_assert_int_eq(b.v[5].body_line, 16);
  ck_assert_str_eq(b.v[5].text, "out 1 s");
  ck_assert_str_eq(b.v[5].output, "docs/results/a.txt");
  blocks_free(&b);
  /* a tag after a blank line belongs to no block; a malformed tag */
  split_blocks("n.md", "para\n\n<!-- source: docs/results/a.txt -->\n\npara\n<!-- figures: measured -->\n", &b, &pr);
  ck_assert_int_eq(pr.n, 2);
  ck_assert_str_eq(pr.v[0], "n.md:3: a tag must be on the line right after its block");
  ck_assert_str_eq(pr.v[1], "n.md:6: a figures tag reads <!-- figures: not measured: REASON -->");
  problems_free(&pr);
  blocks_free(&b);
}
END_TEST

START_TEST(test_figures_sources) {
  char *list = NULL;
  find_sources("see `docs/results/bench-04-h100.txt`, lectures/data/x.csv. and assignments/07-fake-scan/grade.conf "
               "or assignments/08-fake-render/timings/nvidia.csv; not docs/results/ nor docs/results/bench-*.txt nor "
               "assignments/07-fake-scan/README.md",
               &list);
  ck_assert_str_eq(list, "docs/results/bench-04-h100.txt lectures/data/x.csv assignments/07-fake-scan/grade.conf "
                         "assignments/08-fake-render/timings/nvidia.csv");
  free(list);
}
END_TEST

START_TEST(test_figures_checked) {
  /* at the quoted decimals, converted between ms and µs, ns */
  EXPECT_CLEAN("The scan takes 48.8 µs and 65.6 µs, the copy 48.1 µs, 0.0488 ms, 1.04x (`docs/results/bench.txt`).\n");
  EXPECT_CLEAN("A fence costs 1,336 ns, 1.3364 µs, against 23 ns.\n<!-- source: lectures/data/cost.csv -->\n");
  EXPECT_PROBLEM("The scan takes 48.9 µs (`docs/results/bench.txt`).\n",
                 "note.md:1: 48.9 µs: not in docs/results/bench.txt at 1 decimal");
  EXPECT_PROBLEM("\nIt takes\n3.2 ms in all.\n", "note.md:3: 3.2 ms: no source named");
  /* a ratio is never converted */
  EXPECT_PROBLEM("A ratio of 48.83x (`docs/results/bench.txt`).\n", "48.83x: not in docs/results/bench.txt at 2");
  /* figures in code spans are not read; a not-measured tag exempts its block */
  EXPECT_CLEAN("Run `sleep 3 s` to wait.\n");
  EXPECT_CLEAN("The target is 2 ms.\n<!-- figures: not measured: a design target -->\n");
  EXPECT_PROBLEM("| case | time |\n| --- | --- |\n| a | 9 ms |\n", "note.md:3: 9 ms: no source named");
  /* a source that does not exist, and a tag naming a path outside the sources */
  EXPECT_PROBLEM("It takes 2 ms (`docs/results/gone.txt`).\n",
                 "docs/results/gone.txt: named as a source but not a file of the repository");
  EXPECT_PROBLEM("It takes 2 ms.\n<!-- source: README.md -->\n", "source tag: README.md is not under docs/results/");
}
END_TEST

START_TEST(test_figures_output_samples) {
  EXPECT_CLEAN("```\nscan    0.04883   0.06562\n  copy 0.0481\n\n```\n<!-- output: docs/results/bench.txt -->\n");
  EXPECT_PROBLEM("x\n\n```\nscan 0.04883\nscan 0.05\n```\n<!-- output: docs/results/bench.txt -->\n",
                 "note.md:5: this line of the sample is not in docs/results/bench.txt: scan 0.05");
  /* a fenced block with figures and no tag needs a source */
  EXPECT_PROBLEM("```\ndone (1.3 s)\n```\n", "note.md:2: 1.3 s: no source named");
  EXPECT_PROBLEM("para 1 s\n<!-- output: docs/results/bench.txt -->\n", "an output tag follows a fenced code block");
}
END_TEST

Suite *figures_suite(void) {
  Suite *s = suite_create("figures");
  TCase *t = tcase_create("checker");
  tcase_add_test(t, test_figures_found);
  tcase_add_test(t, test_figures_blocks);
  tcase_add_test(t, test_figures_sources);
  tcase_add_test(t, test_figures_checked);
  tcase_add_test(t, test_figures_output_samples);
  suite_add_tcase(s, t);
  TCase *c = tcase_create("course");
  tcase_set_timeout(c, 60);
  tcase_add_test(c, test_figures_bound);
  suite_add_tcase(s, c);
  return s;
}
