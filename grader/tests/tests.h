/* tests.h: the list of the unit suites and the helpers every test file shares (the
 * helpers only the course's tests use are course.h's). */
#ifndef SCANLAB_TESTS_H
#define SCANLAB_TESTS_H

#include <check.h>
#include <jansson.h>

/* Every unit suite (NULL-ended), in build/tests/suites.c, which make writes with
 * grader/tests/suites.sh from the test files it finds: a file's `Suite *NAME_suite(void) {`
 * is registered there, never in a list kept by hand. */
extern Suite *(*const unit_suites[])(void);

/* Writes text to path (creating parent folders); mode 0755 when exec. Aborts the test on failure. */
void write_text(const char *path, const char *text, int exec);
/* A fresh empty folder under /tmp; the caller owns the path (malloc'd). */
char *make_temp_dir(const char *tag);
/* A temporary copy of the course as a student has it (no built references;
 * no solutions/ unless `extra` names it), for tests that run make end to end.
 * extra: more top-level folders to copy ("" for none). The files keep their
 * times, and the copy has this checkout's build of the tools (build/'s lib,
 * protocol, runner, grader, tools, judge and .gencode, and the inspection's
 * kept library lists), as a student has once make has run: make finds them up to date and builds only the students'
 * code. The caller owns the path. */
char *copy_course(const char *tag, const char *extra);
/* rm -rf path. */
void remove_dir(const char *path);
/* Runs a shell command; returns its exit status (or 128 + signal). Output goes to out_path when set. */
int run_shell(const char *cmd);
/* Reads a whole file (malloc'd, NUL-terminated) or NULL. */
char *read_text(const char *path);
/* A script's refusal: the command, the text its output must hold, and whether it is
 * a `run` without a GPU, which may exit 2 (no build) or 3 (no GPU); any other
 * refusal exits 2. */
typedef struct refusal {
  const char *cmd, *says;
  int run;
} refusal;
/* Runs r->cmd with its output logged in a folder of its own (named after tag) and
 * fails the test unless it exits as r says and its output holds r->says. */
void expect_refusal(const refusal *r, const char *tag);
/* Loads a JSON file with jansson; fails the test with the parser's message if it is not valid JSON. */
json_t *load_json(const char *path);

/* Whether text is exactly one line. */
int text_is_one_line(const char *text);

#endif
