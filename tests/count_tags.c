/* count_tags.c: the count tags of the course's Markdown (count_tags.h). */
#include "count_tags.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- numbers in words */

static const char *const NUMBER_WORDS[] = {"zero",    "one",     "two",       "three",    "four",
                                           "five",    "six",     "seven",     "eight",    "nine",
                                           "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                                           "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                                           "twenty"};

/* The number written at s (digits, with ,ddd groups, or a word), its length in
 * *len; -1 when there is none. A number must not touch a letter or digit. */
long number_at(const char *s, size_t *len) {
  if (isdigit((unsigned char)*s)) {
    const char *q = s;
    long v = 0;
    while (isdigit((unsigned char)*q)) v = 10 * v + (*q++ - '0');
    while (q[0] == ',' && isdigit((unsigned char)q[1]) && isdigit((unsigned char)q[2]) &&
           isdigit((unsigned char)q[3]) && !isdigit((unsigned char)q[4])) {
      v = 1000 * v + strtol((char[]){q[1], q[2], q[3], 0}, NULL, 10);
      q += 4;
    }
    if (isalnum((unsigned char)*q) || (*q == '.' && isdigit((unsigned char)q[1]))) return -1;
    *len = (size_t)(q - s);
    return v;
  }
  for (size_t i = 0; i < sizeof NUMBER_WORDS / sizeof *NUMBER_WORDS; i++) {
    size_t n = strlen(NUMBER_WORDS[i]);
    if (!strncasecmp(s, NUMBER_WORDS[i], n) && !isalnum((unsigned char)s[n])) {
      *len = n;
      return (long)i;
    }
  }
  return -1;
}

/* ---------------------------------------------------------------- blocks and tags */

void blocks_free(blocks *b) {
  for (int i = 0; i < b->n; i++) {
    for (int k = 0; k < b->v[i].n_tags; k++) {
      tag *t = &b->v[i].tags[k];
      free(t->phrase), free(t->what), free(t->build), free(t->kernel);
    }
    free(b->v[i].tags);
    free(b->v[i].text);
    free(b->v[i].exempt);
  }
  free(b->v);
  memset(b, 0, sizeof *b);
}

/* Reads a passes tag's body (after "passes:"): "PHRASE" = BUILD CHECK. */
static int read_passes_tag(const char *s, tag *t, char *why, size_t cap) {
  memset(t, 0, sizeof *t);
  while (*s == ' ') s++;
  const char *close = *s == '"' ? strchr(s + 1, '"') : NULL;
  char build[128], check[128], extra[8];
  if (!close || close == s + 1 || sscanf(close + 1, " = %127s %127s %7s", build, check, extra) != 2)
    return snprintf(why, cap, "a passes tag reads <!-- passes: \"PHRASE\" = BUILD CHECK -->"), -1;
  t->phrase = strndup(s + 1, (size_t)(close - s - 1));
  t->build = strdup(build), t->kernel = strdup(check);
  return 0;
}

/* Reads a count tag's body (after "count:"): "PHRASE" = WHAT BUILD KERNEL. */
static int read_count_tag(const char *s, tag *t, char *why, size_t cap) {
  memset(t, 0, sizeof *t);
  while (*s == ' ') s++;
  const char *close = *s == '"' ? strchr(s + 1, '"') : NULL;
  if (!close || close == s + 1) return snprintf(why, cap, "a count tag reads <!-- count: \"PHRASE\" = WHAT BUILD KERNEL -->"), -1;
  char what[64], build[128], kernel[256], extra[8];
  if (sscanf(close + 1, " = %63s %127s %255s %7s", what, build, kernel, extra) != 3)
    return snprintf(why, cap, "a count tag reads <!-- count: \"PHRASE\" = WHAT BUILD KERNEL -->"), -1;
  t->phrase = strndup(s + 1, (size_t)(close - s - 1));
  if (!strchr(t->phrase, '#')) {
    free(t->phrase);
    return snprintf(why, cap, "a count tag's phrase has no # where its number stands"), -1;
  }
  t->what = strdup(what), t->build = strdup(build), t->kernel = strdup(kernel);
  return 0;
}

/* Cuts a Markdown text into blocks (runs of non-blank lines outside fenced
 * code) and reads the count tags on the lines right after each. */
void split_blocks(const char *file, const char *text, blocks *out, problems *pr) {
  memset(out, 0, sizeof *out);
  int cur = -1, tagged = -1; /* the block being read; the block a tag here belongs to */
  int in_fence = 0, in_comment = 0, lineno = 0;
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n'), *end = nl ? nl : s + strlen(s);
    lineno++;
    const char *t = s;
    while (t < end && (*t == ' ' || *t == '\t')) t++;
    const char *te = end;
    while (te > t && (te[-1] == ' ' || te[-1] == '\t' || te[-1] == '\r')) te--;
    if (te - t >= 3 && (!strncmp(t, "```", 3) || !strncmp(t, "~~~", 3))) {
      in_fence = !in_fence;
      cur = tagged = -1;
    } else if (in_fence) {
    } else if (in_comment) {
      const char *c = strstr(t, "-->");
      if (c && c < te) in_comment = 0;
    } else if (t == te) {
      cur = tagged = -1;
    } else if (te - t >= 4 && !strncmp(t, "<!--", 4)) {
      if (cur >= 0) tagged = cur;
      cur = -1;
      const char *c = strstr(t, "-->");
      if (!c || c >= te) {
        in_comment = 1;
      } else {
        const char *body = t + 4;
        while (*body == ' ') body++;
        size_t n = (size_t)(c - body);
        int is_passes = n >= 7 && !strncmp(body, "passes:", 7);
        int is_count = is_passes || (n >= 6 && !strncmp(body, "count:", 6));
        int is_counts = n >= 7 && !strncmp(body, "counts", 6) && !isalpha((unsigned char)body[6]);
        if ((is_count || is_counts) && tagged < 0) {
          problem(pr, file, lineno, "a count tag must be on the line right after its block");
        } else if (is_count) {
          char why[200];
          char *inner = strndup(body + 6 + is_passes, n - 6 - is_passes);
          tag tg;
          if ((is_passes ? read_passes_tag(inner, &tg, why, sizeof why) : read_count_tag(inner, &tg, why, sizeof why)) < 0) {
            problem(pr, file, lineno, "%s", why);
          } else {
            block *k = &out->v[tagged];
            tg.line = lineno;
            k->tags = realloc(k->tags, (size_t)(k->n_tags + 1) * sizeof *k->tags);
            k->tags[k->n_tags++] = tg;
          }
          free(inner);
        } else if (is_counts) {
          static const char NC[] = "counts: not compiled:";
          const char *r = body + sizeof NC - 1;
          while (r < c && *r == ' ') r++;
          const char *re = c;
          while (re > r && re[-1] == ' ') re--;
          if (n < sizeof NC - 1 || strncmp(body, NC, sizeof NC - 1) || re == r)
            problem(pr, file, lineno, "a counts tag reads <!-- counts: not compiled: REASON -->");
          else
            out->v[tagged].exempt = strndup(r, (size_t)(re - r));
        }
      }
    } else {
      if (cur < 0) {
        out->v = realloc(out->v, (size_t)(out->n + 1) * sizeof *out->v);
        block *k = &out->v[out->n];
        memset(k, 0, sizeof *k);
        k->line = lineno;
        k->text = strdup("");
        cur = out->n++;
      }
      tagged = -1;
      block *k = &out->v[cur];
      size_t old = strlen(k->text), len = (size_t)(end - s);
      k->text = realloc(k->text, old + len + 2);
      if (old) k->text[old++] = '\n';
      memcpy(k->text + old, s, len);
      k->text[old + len] = 0;
    }
    s = nl ? nl + 1 : end;
  }
}

/* The line of offset off in a block. */
int line_of(const block *k, size_t off) {
  int line = k->line;
  for (size_t i = 0; i < off && k->text[i]; i++) line += k->text[i] == '\n';
  return line;
}

/* ---------------------------------------------------------------- phrases */

/* Whether phrase matches text at s: a space of the phrase matches any run of
 * spaces and line breaks, # a number. On a match, *end is where it ends and
 * *num_off / *value the number's offset (from s) and value. */
int phrase_at(const char *s, const char *phrase, const char **end, size_t *num_off, long *value) {
  const char *p = s, *q = phrase;
  int have = 0;
  while (*q) {
    if (*q == ' ') {
      if (*p != ' ' && *p != '\n') return 0;
      while (*p == ' ' || *p == '\n') p++;
      while (*q == ' ') q++;
    } else if (*q == '#') {
      size_t len;
      long v = number_at(p, &len);
      if (v < 0 || (p > s && isalnum((unsigned char)p[-1]))) return 0;
      if (!have) *num_off = (size_t)(p - s), *value = v, have = 1;
      p += len, q++;
    } else if (*p == *q) {
      p++, q++;
    } else {
      return 0;
    }
  }
  *end = p;
  if (!have) *num_off = (size_t)-1;
  return 1;
}

/* ---------------------------------------------------------------- finding counts */

/* A word of a block: where it starts and ends, without backticks or punctuation. */
typedef struct word {
  size_t off, len;
  int stop; /* a sentence or clause ends after it */
} word;

static int words_of(const char *text, word **out) {
  int n = 0;
  *out = NULL;
  for (const char *p = text; *p;) {
    while (*p == ' ' || *p == '\n' || *p == '\t') p++;
    if (!*p) break;
    const char *e = p;
    while (*e && *e != ' ' && *e != '\n' && *e != '\t') e++;
    const char *a = p, *b = e;
    while (a < b && strchr("`*_([\"'", *a)) a++;
    while (b > a && strchr("`*_)]\"',.;:!?", b[-1])) b--;
    /* a clause ends after it, or it is an operator ("1 + 2 x 5 = 11") */
    int stop = (e > p && strchr(".,;:!?|", e[-1]) != NULL) || (e - p == 1 && strchr("=+x-", *p) != NULL);
    *out = realloc(*out, (size_t)(n + 1) * sizeof **out);
    (*out)[n++] = (word){(size_t)(a - text), (size_t)(b - a), stop};
    p = e;
  }
  return n;
}

static int word_is(const char *text, const word *w, const char *const *list) {
  for (; *list; list++)
    if (strlen(*list) == w->len && !strncasecmp(text + w->off, *list, w->len)) return 1;
  return 0;
}

static const char *const NOUNS[] = {"barrier",   "barriers",  "bar.sync",     "bar.warp.sync",   "barrier.sync",
                                    "registers", "instructions", "accesses", "shuffles", "shfl.sync.up",
                                    "shfl.sync.up.b32", "shfl.sync.bfly", "shfl.sync.bfly.b32", NULL};
static const char *const MEMORY_NOUNS[] = {"loads", "stores", "loads/stores", "load/store", NULL};
static const char *const MEMORY_WORDS[] = {"shared", "volatile", "shared-memory", NULL};

/* The counts of compiled code a block states: the offsets of their numbers. */
int find_counts(const char *text, size_t *offs, long *values, int max) {
  word *w;
  int nw = words_of(text, &w), n = 0;
  for (int i = 0; i < nw && n < max; i++) {
    size_t len;
    long v = number_at(text + w[i].off, &len);
    /* "one barrier per step", "two accesses": a design, not a count; digits and five.. are counts */
    if (v < 0 || len != w[i].len || w[i].stop || (!isdigit((unsigned char)text[w[i].off]) && v < 5)) continue;
    int memory = 0;
    for (int k = i + 1; k < nw && k <= i + 3; k++) {
      if (word_is(text, &w[k], MEMORY_WORDS)) memory = 1;
      if (word_is(text, &w[k], NOUNS) || (memory && word_is(text, &w[k], MEMORY_NOUNS))) {
        offs[n] = w[i].off, values[n++] = v;
        break;
      }
      if (w[k].stop || text[w[k].off] == '|') break;
    }
  }
  free(w);
  return n;
}

