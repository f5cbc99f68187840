/* test_quotes.c: the teaching suite's quotes (test_teaching.c): every listing
 * and quoted output in the lectures, handouts, answers and guides is cut from
 * the file or program it names. Run from the repository root after
 * `make test-builds`. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teaching.h"
#include "tests.h"

/* ---------------------------------------------------------------- quotes in the docs
 *
 * Notes quote code and program output; a quote must not drift from what it
 * quotes. Two kinds of fenced block are checked, in the lectures (lectures/NN-*.md),
 * the handouts (assignments/NN/README.md), the answers (solutions/NN/ANSWERS.md)
 * and the guides (docs/NAME.md):
 *   - a block right after a paragraph that ends "(`path/to/file.cu`):" is cut
 *     from that file: every line of it is a line of the file;
 *   - a block right after "<!-- quoted from: build/PROGRAM ARGS -->" is what that
 *     program prints: every line of it is a line (or the start of one) of the
 *     program's output now; "<!-- quoted from: path/to/file -->" quotes a file
 *     of the repository (measured data, a GPU tier log) the same way.
 * A quote may leave lines out, and a line starting with "..." stands for the
 * lines left out; it may never change a line. */

/* Whether `line` (len bytes) is a whole line of `text`, or with `prefix_ok`
 * the start of one followed by a space. */
static int has_line(const char *text, const char *line, size_t len, int prefix_ok) {
  for (const char *p = text; (p = strstr(p, line)); p++) {
    if (p != text && p[-1] != '\n') continue;
    if (p[len] == '\n' || !p[len] || (prefix_ok && p[len] == ' ')) return 1;
  }
  return 0;
}

/* Checks every line of block against text; says which line is not there. */
static int block_in(const char *text, const char *block, int prefix_ok, char *bad, size_t cap) {
  char *copy = strdup(block), *save = NULL;
  int ok = 1;
  for (char *line = strtok_r(copy, "\n", &save); ok && line; line = strtok_r(NULL, "\n", &save)) {
    size_t len = strlen(line);
    while (len && line[len - 1] == ' ') line[--len] = 0;
    const char *lead = line + strspn(line, " ");
    if (!*lead || !strncmp(lead, "...", 3)) continue;
    if (!has_line(text, line, len, prefix_ok)) snprintf(bad, cap, "%s", line), ok = 0;
  }
  free(copy);
  return ok;
}

static char *program_output(const char *cmd) {
  char *dir = make_temp_dir("quote"), path[512], shell[1024];
  snprintf(path, sizeof path, "%s/out", dir);
  snprintf(shell, sizeof shell, "%s > '%s' 2>&1", cmd, path);
  run_shell(shell);
  char *out = read_text(path);
  remove_dir(dir);
  free(dir);
  return out;
}

/* The file a block is cut from: "(`path`):" at the end of the text before it. */
static int cut_from(const char *before, size_t n, char *path, size_t cap) {
  while (n && (before[n - 1] == '\n' || before[n - 1] == ' ')) n--;
  if (n < 4 || strncmp(before + n - 3, "`):", 3)) return 0;
  size_t end = n - 3, start = end;
  while (start && before[start - 1] != '`' && before[start - 1] != '\n') start--;
  if (!start || before[start - 1] != '`' || start < 2 || before[start - 2] != '(' || end - start >= cap) return 0;
  snprintf(path, cap, "%.*s", (int)(end - start), before + start);
  return 1;
}

/* Checks the quotes of one note; returns how many it has. */
static int check_note_quotes(const char *note) {
  char *text = read_text(note);
  ck_assert_msg(text != NULL, "%s is missing", note);
  static const char MARK[] = "<!-- quoted from: ";
  int quotes = 0;
  for (char *fence = strstr(text, "\n```"); fence; fence = strstr(fence + 1, "\n```")) {
    char *body = strchr(fence + 1, '\n');
    char *close = body ? strstr(body, "\n```") : NULL;
    ck_assert_msg(close != NULL, "%s: a fenced block is not closed", note);
    char *block = strndup(body + 1, (size_t)(close - body));
    char path[256], bad[512] = "";
    /* the paragraph before the block: back to the previous blank line */
    char *para = fence;
    while (para > text && !(para[-1] == '\n' && para[0] == '\n')) para--;
    char *mark = NULL;
    for (char *m = strstr(para, MARK); m && m < fence; m = strstr(m + 1, MARK)) mark = m;
    if (mark) {
      char cmd[256];
      ck_assert_msg(sscanf(mark + sizeof MARK - 1, "%255[^>]", cmd) == 1, "%s: empty quote marker", note);
      size_t cl = strlen(cmd);
      while (cl && (cmd[cl - 1] == ' ' || cmd[cl - 1] == '-')) cmd[--cl] = 0;
      /* a program under build/ and its arguments, or a file of the repository (measured data) */
      int program = !strncmp(cmd, "build/", 6);
      char *out = program ? program_output(cmd) : read_text(cmd);
      ck_assert_msg(out != NULL, "%s: the quote marker names '%s', which is neither a program under build/ nor a file",
                    note, cmd);
      ck_assert_msg(block_in(out, block, 1, bad, sizeof bad), "%s: the quote of '%s' has a line %s:\n%s", note, cmd,
                    program ? "the program no longer prints" : "that is not in the file", bad);
      free(out);
      quotes++;
    } else if (cut_from(text, (size_t)(fence - text), path, sizeof path)) {
      char *src = read_text(path);
      if (src) { /* a named file that is not in the repository is prose, not a cut */
        ck_assert_msg(block_in(src, block, 0, bad, sizeof bad), "%s: the listing cut from %s has a line that is not in it:\n%s",
                      note, path, bad);
        quotes++;
      }
      free(src);
    }
    free(block);
    fence = close;
  }
  free(text);
  return quotes;
}

START_TEST(test_doc_quotes_match_sources) {
  glob_t g;
  ck_assert_int_eq(glob("lectures/*.md", 0, NULL, &g), 0);
  glob("assignments/*/README.md", GLOB_APPEND, NULL, &g);
  glob("solutions/*/ANSWERS.md", GLOB_APPEND, NULL, &g);
  glob("docs/*.md", GLOB_APPEND, NULL, &g);
  int quotes = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) quotes += check_note_quotes(g.gl_pathv[i]);
  globfree(&g);
  ck_assert_msg(quotes >= 8, "only %d quotes found: the test would check next to nothing", quotes);
}
END_TEST


void teaching_quotes_tests(TCase *t) { tcase_add_test(t, test_doc_quotes_match_sources); }
