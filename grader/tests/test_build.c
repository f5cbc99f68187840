/* test_build.c: the pieces of the grader's own build, tested directly: SHA-256
 * against FIPS 180-4's examples, the folder check and staging (submission.h),
 * the dependency-file reader, and the error line a failed step is reported by.
 * (The build end to end: faults_build.c with a fake nvcc, build-hostile.sh with
 * the real one.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_step.h"
#include "depfile.h"
#include "sha256.h"
#include "submission.h"
#include "tests.h"

static void hex_of(const char *text, size_t n, char hex[65]) {
  sha256 h;
  sha256_init(&h);
  sha256_add(&h, text, n);
  sha256_hex(&h, hex);
}

START_TEST(test_sha256_vectors) {
  char hex[65];
  hex_of("", 0, hex);
  ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  hex_of("abc", 3, hex);
  ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* two blocks once padded */
  hex_of(two, strlen(two), hex);
  ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  /* fed in pieces of every size: the same */
  sha256 h;
  sha256_init(&h);
  for (size_t i = 0, k = 1; i < strlen(two); i += k, k++) sha256_add(&h, two + i, strlen(two) - i < k ? strlen(two) - i : k);
  sha256_hex(&h, hex);
  ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

static char *folder;
static void setup(void) { folder = make_temp_dir("submission"); }
static void teardown(void) {
  remove_dir(folder);
  free(folder);
}

/* Stages folder/f (made by `make`, shell run in folder/f) into folder/stage; the status, the reason in why. */
static submission_status stage(const char *make, char *why, char hex[65], submission *s) {
  char cmd[1024], dir[600], out[600];
  snprintf(dir, sizeof dir, "%s/f", folder);
  snprintf(out, sizeof out, "%s/stage", folder);
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cd '%s' && %s", dir, dir, dir, make);
  ck_assert_int_eq(run_shell(cmd), 0);
  sha256 h;
  sha256_init(&h);
  submission_status st = submission_stage(dir, "starter/99", "scan.cu", out, s, &h, why, 512);
  sha256_hex(&h, hex);
  return st;
}

START_TEST(test_submission_stage) {
  static submission s;
  char why[512], a[65], b[65], path[700];
  ck_assert_int_eq(stage("echo one > scan.cu && echo h > helpers.cuh && echo n > notes.txt", why, a, &s), SUBMISSION_OK);
  ck_assert_int_eq(s.n, 3);
  ck_assert_str_eq(s.names[0], "helpers.cuh"); /* sorted */
  snprintf(path, sizeof path, "%s/stage/scan.cu", folder);
  char *text = read_text(path);
  ck_assert_str_eq(text, "one\n");
  free(text);
  /* the same content, another time: the same hash; other content: another */
  ck_assert_int_eq(stage("echo one > scan.cu && echo h > helpers.cuh && echo n > notes.txt && touch -d 2001-01-01 scan.cu", why, b, &s),
                   SUBMISSION_OK);
  ck_assert_str_eq(a, b);
  ck_assert_int_eq(stage("echo two > scan.cu && echo h > helpers.cuh && echo n > notes.txt", why, b, &s), SUBMISSION_OK);
  ck_assert_str_ne(a, b);
  /* a file's bytes moved to its neighbour's name: another hash */
  ck_assert_int_eq(stage("echo one > scan.cu && echo hn > helpers.cuh && echo > notes.txt", why, b, &s), SUBMISSION_OK);
  ck_assert_str_ne(a, b);
}
END_TEST

static const struct {
  const char *make, *why;
  submission_status status;
} REFUSED[] = {
    {"touch notes.txt", "missing file scan.cu: starter/99 has no scan.cu, the file the handout names", SUBMISSION_MISSING},
    {"touch scan.cu 'notes 1.txt'", "refused: starter/99/notes 1.txt: a file name may hold only", SUBMISSION_REFUSED},
    {"touch scan.cu '$(shell id >x).txt'", "refused: starter/99/$(shell id >x).txt: a file name", SUBMISSION_REFUSED},
    {"touch scan.cu \"$(printf '0\\303\\251.cu')\"", "refused: starter/99/0\\xc3\\xa9.cu: a file name", SUBMISSION_REFUSED},
    {"touch scan.cu && ln -s /etc/passwd notes.txt", "refused: starter/99/notes.txt is a symbolic link", SUBMISSION_REFUSED},
    {"ln -s /etc/passwd scan.cu", "refused: starter/99/scan.cu is a symbolic link", SUBMISSION_REFUSED},
    {"touch scan.cu && mkdir sub", "refused: starter/99/sub is not a regular file (a folder)", SUBMISSION_REFUSED},
    {"touch scan.cu && mkfifo pipe", "refused: starter/99/pipe is not a regular file (a device, pipe or socket)", SUBMISSION_REFUSED},
    {"touch scan.cu && head -c 17000000 /dev/zero > big.bin", "refused: starter/99 holds more than 16 MiB", SUBMISSION_REFUSED},
    {"touch scan.cu && for i in $(seq 64); do touch f$i; done", "refused: starter/99 holds more than 64 files", SUBMISSION_REFUSED},
};

START_TEST(test_submission_refused) {
  static submission s;
  char why[512] = "", hex[65], path[700];
  ck_assert_int_eq(stage(REFUSED[_i].make, why, hex, &s), REFUSED[_i].status);
  ck_assert_msg(strstr(why, REFUSED[_i].why), "'%s': reason '%s' lacks '%s'", REFUSED[_i].make, why, REFUSED[_i].why);
  ck_assert_msg(!strchr(why, '\n'), "not one line: %s", why);
  snprintf(path, sizeof path, "%s/stage", folder);
  ck_assert_msg(access(path, F_OK) != 0, "'%s': a staging folder was left", REFUSED[_i].make);
}
END_TEST

START_TEST(test_depfile) {
  char path[600];
  snprintf(path, sizeof path, "%s/x.d", folder);
  write_text(path, "out/student.o: a.cu \\\n  /usr/include/stdio.h \\\n  my\\ dir/h.cuh\nb.o:\n", 0);
  char **p = NULL;
  int n = depfile_read(path, &p);
  ck_assert_int_eq(n, 3);
  ck_assert_str_eq(p[1], "/usr/include/stdio.h");
  ck_assert_str_eq(p[2], "my dir/h.cuh"); /* does not resolve: kept as written, the space read */
  depfile_free(p, n);
  ck_assert_int_eq(depfile_read("/no/such/file.d", &p), -1);
}
END_TEST

START_TEST(test_first_error) {
  char line[400];
  build_first_error("x.cu(3): warning #177-D: variable \"error_count\" was declared but never referenced\n"
                    "x.cu(9): error: identifier \"tid\" is undefined\n1 error detected\n",
                    line, sizeof line);
  ck_assert_str_eq(line, "x.cu(9): error: identifier \"tid\" is undefined");
  build_first_error("/usr/bin/ld: s.o: in function `f':\ns.cu:(.text+0x1): undefined reference to `g'\ncollect2: error: ld returned 1 exit status\n",
                    line, sizeof line);
  ck_assert_str_eq(line, "s.cu:(.text+0x1): undefined reference to `g'");
  build_first_error("ptxas error   : Entry function 'k' uses too much shared data\n", line, sizeof line);
  ck_assert_str_eq(line, "ptxas error   : Entry function 'k' uses too much shared data");
  build_first_error("something odd\n  the last words\n\n", line, sizeof line);
  ck_assert_str_eq(line, "the last words");
  build_first_error("", line, sizeof line);
  ck_assert_str_eq(line, "no message");
}
END_TEST

Suite *build_suite(void) {
  Suite *s = suite_create("build");
  TCase *t = tcase_create("pieces");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_add_test(t, test_sha256_vectors);
  tcase_add_test(t, test_submission_stage);
  tcase_add_loop_test(t, test_submission_refused, 0, (int)(sizeof REFUSED / sizeof *REFUSED));
  tcase_add_test(t, test_depfile);
  tcase_add_test(t, test_first_error);
  suite_add_tcase(s, t);
  return s;
}
