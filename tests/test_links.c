/* test_links.c: the teaching suite's links (test_teaching.c): every relative
 * link of the course's Markdown points at something. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "teaching.h"
#include "tests.h"

/* Every relative link of every Markdown file the course ships points at a
 * file or folder that exists. */
START_TEST(test_doc_links_resolve) {
  glob_t g;
  ck_assert_int_eq(glob("*.md", 0, NULL, &g), 0);
  static const char *const MORE[] = {"docs/*.md", "lectures/*.md", "assignments/*/README.md", "solutions/*/ANSWERS.md"};
  for (size_t i = 0; i < sizeof MORE / sizeof *MORE; i++) glob(MORE[i], GLOB_APPEND, NULL, &g);
  int links = 0;
  for (size_t f = 0; f < g.gl_pathc; f++) {
    char *text = read_text(g.gl_pathv[f]);
    ck_assert(text != NULL);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", g.gl_pathv[f]);
    char *slash = strrchr(dir, '/');
    if (slash) slash[1] = 0;
    else dir[0] = 0;
    for (char *p = strstr(text, "]("); p; p = strstr(p + 2, "](")) {
      char target[512];
      if (sscanf(p + 2, "%511[^)#]", target) != 1) continue; /* "](#anchor)" */
      if (strstr(target, "://") || !strncmp(target, "mailto:", 7)) continue;
      char path[1100];
      snprintf(path, sizeof path, "%s%s", dir, target);
      ck_assert_msg(access(path, F_OK) == 0, "%s: the link to '%s' points at nothing (%s)", g.gl_pathv[f], target, path);
      links++;
    }
    free(text);
  }
  globfree(&g);
  ck_assert_msg(links >= 12, "only %d relative links found: the test would check next to nothing", links);
}
END_TEST

void teaching_links_tests(TCase *t) { tcase_add_test(t, test_doc_links_resolve); }
