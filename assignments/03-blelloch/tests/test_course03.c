/* test_course03.c: the course's checks of assignment 03's own files, run on its CPU
 * model (build/{solutions,starter}/03-blelloch/model, make test-builds): the model's
 * three layouts (the starter's unpadded tree conflicts, the solution's padding leaves
 * none, the classic 16-bank offset still leaves 2-way conflicts on 32 banks), and the
 * worked examples that quote it, read with tests/worked_support.c: the handout's strides
 * of the tree and per-block passes, and lecture 03's ncu figures as twice the model's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "worked.h"

/* The 03 bank-conflict model on the three layouts: the starter's unpadded tree
 * conflicts, the solution's padding leaves none, and the classic 16-bank
 * offset still leaves 2-way conflicts on 32 banks. */
static const char *model03(const char *src, const char *variant, const char *grep_for) {
  static char cmd[512];
  snprintf(cmd, sizeof cmd, "build/%s/03-blelloch/model --variant %s --case banks | grep -q -- '%s'", src, variant,
           grep_for);
  return cmd;
}

START_TEST(test_03_model_layouts) {
  const struct {
    const char *src, *variant, *expect;
  } rows[] = {
      {"starter", "blelloch_padded", "^result case=banks .* ok=0 "},
      {"starter", "blelloch_padded", "worst 32-way"},
      {"solutions", "blelloch_padded", "^result case=banks .* ok=1 "},
      {"solutions", "blelloch_padded", "0 of [0-9]* steps have a bank conflict"},
      {"solutions", "blelloch_unpadded", "^result case=banks .* ok=0 "},
      {"solutions", "blelloch_gems16", "^result case=banks .* ok=0 "},
      {"solutions", "blelloch_gems16", "worst 2-way"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    const char *cmd = model03(rows[i].src, rows[i].variant, rows[i].expect);
    ck_assert_msg(run_shell(cmd) == 0, "03 model, %s %s: no line matches '%s' (%s)", rows[i].src, rows[i].variant,
                  rows[i].expect, cmd);
  }
}
END_TEST

/* The 03 model's extra passes per block of the 2048-leaf tree, on loads and
 * stores: `build/<src>/03-blelloch/model --variant V --case banks`. */
static void model_passes(const char *src, const char *variant, long *ld, long *st) {
  char cmd[512], *dir = make_temp_dir("worked03"), path[600];
  snprintf(cmd, sizeof cmd, "test -x build/%s/03-blelloch/model && test -x build/%s/03-blelloch/model-tables", src, src);
  ck_assert_msg(run_shell(cmd) == 0, "build/%s/03-blelloch/model is not built (make test-builds)", src);
  snprintf(cmd, sizeof cmd, "build/%s/03-blelloch/model --variant %s --case banks > '%s/out' 2>&1 < /dev/null", src, variant,
           dir);
  run_shell(cmd); /* exits 1 when a check fails, which the unpadded layouts do */
  snprintf(path, sizeof path, "%s/out", dir);
  char *out = read_text(path);
  ck_assert(out != NULL);
  const char *tree = strstr(out, "tree of 2048 leaves");
  const char *m = tree ? strstr(tree, "extra passes per block: ") : NULL;
  ck_assert_msg(m && sscanf(m, "extra passes per block: %ld on loads, %ld on stores", ld, st) == 2,
                "the model (%s, %s) printed no passes per block:\n%s", src, variant, out);
  free(out);
  remove_dir(dir);
  free(dir);
}

/* Lecture 03 section 7: ncu's extra passes on two full tiles of 2048 leaves are
 * twice the 03 model's per block, for every layout the lecture quotes ("ncu
 * agrees with the model on solutions V: L/S extra ld/st passes"). */
START_TEST(test_03_lecture_ncu_is_twice_the_model) {
  const char *F = "lectures/03-shared-memory-banks.md";
  char *t = text_of(F);
  find_phrase(F, t, "on two full tiles of\n2048 leaves");
  static const char MARK[] = "ncu agrees with the model on solutions ";
  int layouts = 0;
  for (const char *p = strstr(t, MARK); p; p = strstr(p + 1, MARK)) {
    char variant[64];
    long ld, st, mld, mst;
    ck_assert_msg(sscanf(p + sizeof MARK - 1, "%63[a-z0-9_]: %ld/%ld extra ld/st passes", variant, &ld, &st) == 3,
                  "%s: cannot read '%.80s'", F, p);
    model_passes("solutions", variant, &mld, &mst);
    ck_assert_msg(ld == 2 * mld && st == 2 * mst, "%s: %s: ncu %ld/%ld, but twice the model's per block is %ld/%ld", F, variant,
                  ld, st, 2 * mld, 2 * mst);
    layouts++;
  }
  ck_assert_msg(layouts >= 3, "%s: only %d ncu lines found", F, layouts);
  free(t);
}
END_TEST

/* assignments/03-blelloch/README.md, "Now look at the tree": at stride s lane t
 * touches word 2s t + c; "At s = 1 ...: 2-way", "At s = 16 ...: 32-way"
 * (bank_ways of the up-sweep's right nodes, c = 2s - 1). */
START_TEST(test_03_handout_strides) {
  const char *F = "assignments/03-blelloch/README.md";
  char *t = text_of(F);
  char *para = block_from(find_phrase(F, t, "Now look at the tree."));
  char *stop = strstr(para, "\n\n");
  if (stop) *stop = 0;
  int checked = 0;
  size_t len = 0;
  for (const char *a = flex_find(para, "At `s = ", &len), *end = a ? a + len : NULL; a;
       a = flex_find(end, "At `s = ", &len), end = a ? a + len : NULL) {
    long s = int_at(F, end, "a stride");
    const char *w = strstr(end, "-way");
    ck_assert_msg(w != NULL, "%s: no n-way after 'At `s = %ld`'", F, s);
    const char *n = w;
    while (n > end && n[-1] >= '0' && n[-1] <= '9') n--;
    long ways = int_at(F, n, "the ways");
    ck_assert_msg(stride_ways(2 * (int)s, 2 * (int)s - 1) == ways, "%s: stride %ld is %d-way by bank_ways, the text says %ld", F,
                  s, stride_ways(2 * (int)s, 2 * (int)s - 1), ways);
    checked++;
  }
  ck_assert_msg(checked >= 2, "%s: only %d strides read after 'Now look at the tree.'", F, checked);
  free(para);
  free(t);
}
END_TEST

/* assignments/03-blelloch/README.md, after the case table: the 03 model's extra
 * passes per block of the solution's kernels with element i in word i
 * (blelloch_unpadded) and with the solution's padding, and of the starter's
 * layout; what ncu reads on two tiles is twice the model's per block, both
 * where it was measured ("exactly twice that") and where the handout predicts
 * it ("should read"). */
START_TEST(test_03_handout_model_passes) {
  const char *F = "assignments/03-blelloch/README.md";
  char *t = text_of(F);
  const char *p = find_phrase(F, t, "`extra ld/st` in the `banks` table is the number of passes");
  long a, b, c, d, mld, mst;
  read_pair(F, after_phrase(F, p, "(`blelloch_unpadded`) the model counts "), &a, &b, "the unpadded passes per block");
  model_passes("solutions", "blelloch_unpadded", &mld, &mst);
  ck_assert_msg(a == mld && b == mst, "%s: the model counts %ld/%ld per block unpadded, the text says %ld and %ld", F, mld, mst, a,
                b);
  read_pair(F, after_phrase(F, p, "and ncu read "), &c, &d, "ncu's passes on two tiles");
  find_phrase(F, p, "on two tiles, exactly twice that");
  ck_assert_msg(c == 2 * a && d == 2 * b, "%s: ncu's %ld and %ld are not twice %ld and %ld", F, c, d, a, b);
  read_pair(F, after_phrase(F, p, "with the solution's padding, "), &a, &b, "the padded passes per block");
  model_passes("solutions", "blelloch_padded", &mld, &mst);
  ck_assert_msg(a == mld && b == mst, "%s: the model counts %ld/%ld per block with the solution's padding, the text says %ld and %ld",
                F, mld, mst, a, b);
  read_pair(F, after_phrase(F, p, "so for its layout the model counts "), &a, &b, "the starter's passes per block");
  model_passes("starter", "blelloch_padded", &mld, &mst);
  ck_assert_msg(a == mld && b == mst, "%s: the model counts %ld/%ld per block for the starter's layout, the text says %ld and %ld", F,
                mld, mst, a, b);
  read_pair(F, after_phrase(F, p, "ncu on two tiles of it should read "), &c, &d, "ncu's predicted passes");
  ck_assert_msg(c == 2 * a && d == 2 * b, "%s: %ld and %ld on two tiles are not twice %ld and %ld", F, c, d, a, b);
  free(t);
}
END_TEST

Suite *course03_suite(void) {
  Suite *s = suite_create("course03");
  TCase *t = tcase_create("model and texts");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_03_model_layouts);
  tcase_add_test(t, test_03_lecture_ncu_is_twice_the_model);
  tcase_add_test(t, test_03_handout_strides);
  tcase_add_test(t, test_03_handout_model_passes);
  suite_add_tcase(s, t);
  return s;
}
