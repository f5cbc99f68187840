/* problems.h: what a check of the course's texts found wrong, one "file:line: message"
 * each (test_figures.c, test_counts.c), and the assertions their fixture tests share. */
#ifndef SCANLAB_PROBLEMS_H
#define SCANLAB_PROBLEMS_H

typedef struct problems {
  char **v;
  int n;
} problems;

void problem(problems *p, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void problems_free(problems *p);
/* Every problem, each on a line of its own ("" when none; malloc'd); frees p's. */
char *problems_join(problems *p);

/* A check's tests on a fixture note: check_fixture(note), defined by the test file, returns
 * problems_join of what the check found in it. */
#define EXPECT_CLEAN(note)                                                      \
  do {                                                                          \
    char *got_ = check_fixture(note);                                           \
    ck_assert_msg(!*got_, "expected no problem in:\n%s\ngot:\n%s", note, got_); \
    free(got_);                                                                 \
  } while (0)
#define EXPECT_PROBLEM(note, want)                                                                     \
  do {                                                                                                 \
    char *got_ = check_fixture(note);                                                                  \
    ck_assert_msg(strstr(got_, want), "expected a problem '%s' in:\n%s\ngot:\n%s", want, note, got_); \
    free(got_);                                                                                        \
  } while (0)

#endif
