/* test_judge.c: the judge and the runner together, without a GPU.
 *
 * The judge's own code, with the specs of the tests' fixtures added (build/tests/judge:
 * grader/tests/fixtures/NN-name/judge/spec.c, tests.mk; build/grader/judge has none), runs
 * a runner of the fixture 98-judge-fixture (scans and a compaction whose output is as long
 * as its count says; no course assignment) on the host-memory device (fake_runner.c),
 * whose "student" FAKE_STUDENT picks: an
 * honest scan, and each way of getting the points without the work that a
 * student who has read the grader could try. Each row says the verdict it must
 * get: the judge's exit status, whether its one result line says ok, and a
 * phrase its stderr must hold. Results go to descriptor 3, which the runner
 * never holds; the runner's own stdout and stderr are kept apart. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "phase_clock.h"
#include "fixtures/98-judge-fixture/variants.h"
#include "result.h"
#include "tests.h"

/* The tests' judge, from the repository root, and its options for the fixture. */
#define TEST_JUDGE "build/tests/judge"
#define JUDGE_FX TEST_JUDGE " --assignment " FX_NAME

typedef struct attempt {
  const char *student;  /* FAKE_STUDENT */
  const char *args;     /* the judge's options after --runner */
  int exit_code;        /* the judge's */
  int lines;            /* result lines it must write (0 or 1) */
  int ok;               /* when there is one: its ok */
  const char *says;     /* in the judge's stderr ("" for nothing in particular) */
} attempt;

static const attempt ATTEMPTS[] = {
    {"honest", "--case n1025", 0, 1, 1, ""},
    {"honest", "--variant repeats --case rep-few", 0, 1, 1, ""},
    {"honest", "--variant repeats --case rep-all", 0, 1, 1, ""},
    {"honest", "--variant copy_d2d --case n65535", 0, 1, 1, ""},
    /* the same output every call: every call after the first has another input */
    {"memoize", "--case n1025", 0, 1, 0, "wrong in 4 of 5 calls"},
    /* state left in the workspace by the previous call describes another input */
    {"stale-workspace", "--case n1025", 0, 1, 0, "wrong in 4 of 5 calls"},
    /* result lines on every descriptor: none reaches the results; the reply pipe breaks */
    {"forge-lines", "--case n1025", 5, 0, 0, "broke the protocol"},
    {"forge-exit", "--case n1025", 5, 0, 0, "case n1025: the runner"},
    /* the reference, the expected outputs, /proc, the results folder: nothing opens */
    {"open-files", "--case n1025", 0, 1, 0, "wrong in 5 of 5 calls"},
    /* the reference run as a program, a shell, a daemon: no process starts */
    {"exec-reference", "--case n1025", 0, 1, 0, "wrong in 5 of 5 calls"},
    /* signals to the judge and the process group are refused; the honest work then passes */
    {"kill-judge", "--case n1025", 0, 1, 1, ""},
    /* zeros over the shared memory: the judge never reads its inputs back from there */
    {"scribble-shm", "--case n1025", 0, 1, 0, "wrong in"},
    /* a thread that would work before the judge's GO: no new thread once set up */
    {"thread-precompute", "--case n1025", 5, 0, 0, "killed by the sandbox"},
    {"protocol-garbage", "--case n1025", 5, 0, 0, "broke the protocol"},
    {"exit-early", "--case n1025", 5, 0, 0, "the runner exited with status 0"},
    {"hang", "--case n1025 --call-timeout 1", 5, 0, 0, "no answer within 1 s"},
    {"crash", "--case n1025", 5, 0, 0, "killed by signal 11"},
    {"cuda-error", "--case n1025", 3, 0, 0, "cudaErrorIllegalAddress"},
    {"wrong-assignment", "--case n1025", 2, 0, 0, "is the runner of '97-judge-other', not of " FX_NAME},
};

/* The noise figures of a duel (grader/judge/phase_clock.h) for the CPU tier:
 * its host-memory device is timed through the scheduler of a shared, loaded
 * host, whose ticks (4 ms) are the noise here, not a GPU's. A duel's paced
 * calls (FAKE_PACE_MS, below) are long beside them. */
#define CPU_TIER_NOISE "SCANLAB_PHASE_CHARGE=1 SCANLAB_PHASE_NOISE='0.1 10' SCANLAB_CEILING_NOISE='0.25 20'"

/* Runs the judge in dir on the fake runner (FAKE_STUDENT=student) with args
 * after its fixed options; returns its exit status, its result lines and its
 * stderr (malloc'd; the test asserts they exist). */
static int run_judge_on(const char *dir, const char *runner, const char *student, const char *args, char **results,
                        char **err) {
  char cmd[2048], path[1024];
  snprintf(cmd, sizeof cmd,
           "cd %s && %s FAKE_STUDENT=%s %s/" JUDGE_FX " --runner %s/build/tests/%s "
           "--reps 3 --seed 77 --result-fd 3 %s 3>results 1>out 2>err",
           dir, CPU_TIER_NOISE, student, getenv("PWD"), getenv("PWD"), runner, args);
  int rc = run_shell(cmd);
  snprintf(path, sizeof path, "%s/results", dir);
  *results = read_text(path);
  snprintf(path, sizeof path, "%s/err", dir);
  *err = read_text(path);
  ck_assert_msg(*results && *err, "judge %s: no results or stderr file", args);
  return rc;
}

static int run_judge(const char *dir, const char *student, const char *args, char **results, char **err) {
  return run_judge_on(dir, "fake-runner", student, args, results, err);
}

START_TEST(test_judge_attempt) {
  const attempt *t = &ATTEMPTS[_i];
  char *dir = make_temp_dir("judge"), *results, *err;
  int rc = run_judge(dir, t->student, t->args, &results, &err);
  ck_assert_msg(rc == t->exit_code, "%s: judge exited %d, want %d; stderr: %s", t->student, rc, t->exit_code, err);
  int lines = 0;
  for (const char *p = results; *p; p++) lines += *p == '\n';
  ck_assert_msg(lines == t->lines, "%s: %d result lines, want %d: %s", t->student, lines, t->lines, results);
  if (lines) {
    result_line r;
    char why[200];
    ck_assert_msg(result_parse(results, &r, why, sizeof why) == 0, "%s: %s", t->student, why);
    ck_assert_msg(r.ok == t->ok, "%s: ok=%d, want %d (%s)", t->student, r.ok, t->ok, results);
    ck_assert_msg(r.verified == 5, "%s: %d calls verified, want 5 (2 warm-ups + 3 samples)", t->student, r.verified);
    ck_assert_msg(r.seed == 77, "%s: seed %llu", t->student, (unsigned long long)r.seed);
  }
  ck_assert_msg(strstr(err, t->says), "%s: stderr lacks '%s': %s", t->student, t->says, err);
  ck_assert_msg(!strstr(err, "fake student: opened"), "%s: the sandbox let a file open: %s", t->student, err);
  free(results);
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The sandbox as the judge sees it from outside, and replies out of their place. Each row
 * runs one build of the fake runner (tests.mk) and must get its verdict. */
typedef struct confined {
  const char *runner, *student, *args;
  int exit_code, lines, ok; /* as in attempt; ok only when there is a line */
  const char *says;
} confined;

static const confined CONFINED[] = {
    /* a runner whose filter functions were replaced (as a student's object linked ahead of
     * the runner's library would replace them): refused from /proc before the first case */
    {"fake-runner-unfiltered", "honest", "--case n1025", 5, 0, 0, "the runner is not sandboxed: /proc/"},
    /* a student's `syscall` and `prctl` answering 0: the filters are installed anyway (the
     * runner's own instructions), so the judge grades it, and nothing opens */
    {"fake-runner-syscall", "honest", "--case n1025", 0, 1, 1, ""},
    {"fake-runner-syscall", "open-files", "--case n1025", 0, 1, 0, "wrong in 5 of 5 calls"},
    /* mprotect of the runner's image, dup2/dup3 over the protocol's pipes, close of the
     * shared memory's descriptor: all refused, and the honest work then passes */
    {"fake-runner", "attack-runner-state", "--case n1025", 0, 1, 1, ""},
    /* a DONE written before GO (before READY, even) */
    {"fake-runner", "done-before-go", "--case n1025", 5, 0, 0, "broke the protocol"},
    /* a DONE and an OUT forged in the last call: the runner's own DONE is a second one */
    {"fake-runner", "two-dones FAKE_LAST_CALL=5", "--case n1025", 5, 0, 0, "broke the protocol"},
    /* under a profiler (the metric check, /usr/bin/env standing in for ncu): still sandboxed, checked
     * from /proc; no file written but in the profiler's folder, which is writable */
    {"fake-runner", "write-files", "--case n1025 --profiled -- /usr/bin/env", 0, 1, 1, ""},
    {"fake-runner", "attack-runner-state", "--case n1025 --profiled -- /usr/bin/env", 0, 1, 1, ""},
    {"fake-runner-unfiltered", "honest", "--case n1025 --profiled -- /usr/bin/env", 5, 0, 0, "the runner is not sandboxed: /proc/"},
    /* ncu's library starts threads while it profiles: a profiled runner allows them (nothing is
     * timed there), with one filter, which the judge counts; unprofiled, the same thread is killed */
    {"fake-runner", "thread-precompute", "--case n1025 --profiled -- /usr/bin/env", 0, 1, 1, ""},
    {"fake-runner", "write-files", "--case n1025", 0, 1, 1, ""},
};

START_TEST(test_judge_confinement) {
  const confined *t = &CONFINED[_i];
  char *dir = make_temp_dir("judge-confined"), *results, *err;
  int rc = run_judge_on(dir, t->runner, t->student, t->args, &results, &err);
  ck_assert_msg(rc == t->exit_code, "%s/%s: judge exited %d, want %d; stderr: %s", t->runner, t->student, rc, t->exit_code, err);
  int lines = 0;
  for (const char *p = results; *p; p++) lines += *p == '\n';
  ck_assert_msg(lines == t->lines, "%s/%s: %d result lines, want %d: %s", t->runner, t->student, lines, t->lines, results);
  if (lines) {
    result_line r;
    char why[200];
    ck_assert_msg(result_parse(results, &r, why, sizeof why) == 0, "%s/%s: %s", t->runner, t->student, why);
    ck_assert_msg(r.ok == t->ok, "%s/%s: ok=%d, want %d (%s)", t->runner, t->student, r.ok, t->ok, results);
  }
  ck_assert_msg(strstr(err, t->says), "%s/%s: stderr lacks '%s': %s", t->runner, t->student, t->says, err);
  ck_assert_msg(!strstr(err, "fake student: opened"), "%s/%s: the sandbox let a file open: %s", t->runner, t->student, err);
  char forged[1100];
  snprintf(forged, sizeof forged, "%s/grade-results-forged", dir);
  ck_assert_msg(access(forged, F_OK) != 0, "%s/%s %s: the runner wrote a file beside the results", t->runner, t->student, t->args);
  free(results);
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A duel whose reference's runner has no filter: the reference is refused too (exit 4). */
START_TEST(test_judge_unfiltered_reference) {
  char *dir = make_temp_dir("judge-confined"), *results, *err, path[1024], script[1024];
  snprintf(path, sizeof path, "%s/reference", dir);
  snprintf(script, sizeof script, "#!/bin/sh\nFAKE_STUDENT=honest exec %s/build/tests/fake-runner-unfiltered \"$@\"\n",
           getenv("PWD"));
  write_text(path, script, 1);
  int rc = run_judge(dir, "honest", "--versus ./reference --case n1025", &results, &err);
  ck_assert_msg(rc == 4, "judge exited %d, want 4: %s", rc, err);
  ck_assert_msg(strstr(err, "the runner is not sandboxed"), "stderr: %s", err);
  free(results);
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* Bad use of the judge: each gives exit 2 and one line that names the problem. */
static const char *const BAD[][2] = {
    {"--assignment " FX_NAME " --case n1025", "--runner"},
    {"--assignment 99-none --runner X", "no assignment '99-none'"},
    {"--assignment " FX_NAME " --runner R --case nope", "unknown case 'nope'"},
    {"--assignment " FX_NAME " --runner R --variant nope", "unknown variant 'nope'"},
    {"--assignment " FX_NAME " --runner R --n 2^30", "above this assignment's limit"},
    {"--assignment " FX_NAME " --runner R --call-timeout 0", "--call-timeout"},
    {"--assignment " FX_NAME " --runner R --", "-- needs the command of a tool"},
    {"--assignment " FX_NAME " --runner R --versus-variant copy_d2d", "--versus-variant needs --versus"},
    {"--assignment " FX_NAME " --runner R --versus R --bench", "--versus (a perf duel) cannot go with"},
    {"--assignment " FX_NAME " --runner R --batch 0", "--batch"},
    {"--assignment " FX_NAME " --runner R --no-sandbox", "unknown option '--no-sandbox'"},
    {"--assignment " FX_NAME " --runner R --profiled", "--profiled needs the profiler's command after --"},
    {"--assignment " FX_NAME " --runner R --floor 0.5", "--floor needs --versus"},
    {"--assignment " FX_NAME " --runner R --versus R --floor 2", "--floor: '2' is not a fraction in (0, 1]"},
};

START_TEST(test_judge_bad_usage) {
  char cmd[1024];
  char *dir = make_temp_dir("judge-bad");
  snprintf(cmd, sizeof cmd, "cd %s && %s/" TEST_JUDGE " %s >out 2>err", dir, getenv("PWD"), BAD[_i][0]);
  int rc = run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/err", dir);
  char *err = read_text(cmd);
  ck_assert_msg(rc == 2, "'%s' exited %d, want 2: %s", BAD[_i][0], rc, err);
  ck_assert_msg(err && strstr(err, BAD[_i][1]), "'%s': stderr lacks '%s': %s", BAD[_i][0], BAD[_i][1], err);
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The fixtures are the tests' alone: build/grader/judge, the one the grader runs, has no
 * spec of them (tests.mk builds them into build/tests/judge only). */
START_TEST(test_judge_fixture_not_graded) {
  char *dir = make_temp_dir("judge-real"), cmd[1024];
  snprintf(cmd, sizeof cmd, "cd %s && %s/build/grader/judge --assignment " FX_NAME " --list >out 2>err", dir, getenv("PWD"));
  int rc = run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/err", dir);
  char *err = read_text(cmd);
  ck_assert_msg(rc == 2 && err && strstr(err, "no assignment '" FX_NAME "'"), "build/grader/judge knows " FX_NAME ": exit %d, %s",
                rc, err);
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A noise figure from the environment that is not "REL ABS_MS": exit 2 and one line naming it. */
START_TEST(test_judge_bad_noise) {
  static const char *const BAD_NOISE[] = {"SCANLAB_PHASE_NOISE=0.1", "SCANLAB_CEILING_NOISE='0.1 5 x'",
                                          "SCANLAB_PHASE_NOISE='-1 5'", "SCANLAB_CEILING_NOISE='0.1 1e9'"};
  char *dir = make_temp_dir("judge-noise"), cmd[1024], path[1024];
  for (size_t i = 0; i < sizeof BAD_NOISE / sizeof *BAD_NOISE; i++) {
    snprintf(cmd, sizeof cmd, "cd %s && %s %s/" JUDGE_FX " --list >out 2>err", dir, BAD_NOISE[i],
             getenv("PWD"));
    int rc = run_shell(cmd);
    snprintf(path, sizeof path, "%s/err", dir);
    char *err = read_text(path), name[32];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(BAD_NOISE[i], "="), BAD_NOISE[i]);
    ck_assert_msg(rc == 2, "%s: exit %d, want 2: %s", BAD_NOISE[i], rc, err);
    ck_assert_msg(err && strstr(err, name) && strstr(err, "is not 'REL ABS_MS'"), "%s: %s", BAD_NOISE[i], err);
    free(err);
  }
  remove_dir(dir);
  free(dir);
}
END_TEST

/* --list needs no runner, and names the spec's cases with their batch-free row. */
START_TEST(test_judge_list) {
  char *dir = make_temp_dir("judge-list");
  char cmd[1024], path[1024];
  snprintf(cmd, sizeof cmd, "cd %s && %s/" JUDGE_FX " --list >out", dir, getenv("PWD"));
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/out", dir);
  char *out = read_text(path);
  ck_assert_msg(out && !strncmp(out, "assignment " FX_NAME "\n", strlen("assignment " FX_NAME "\n")), "%s", out);
  ck_assert_msg(strstr(out, "variant scan ") && strstr(out, "variant copy_d2d ") && strstr(out, "case n2^20 1048576 9 6 0\n"), "%s",
                out);
  free(out);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A perf duel (--versus): the reference (a fake runner whose mode is REF) and
 * the student take turns on the same inputs; the reference's line comes first
 * in each case; the student's call limit comes from the reference's time; a
 * reference that fails is exit 4, never the student's fault. */
typedef struct duel {
  const char *student, *reference, *args;
  int exit_code;
  const char *lines; /* each result line's variant and ok, in order: "scan:1 ..." */
  const char *says;
} duel;

static const duel DUELS[] = {
    {"honest", "honest", "--case n1025,n65535", 0,
     "scan:1 scan:1 scan:1 scan:1", ""},
    {"memoize", "honest", "--case n1025", 0, "scan:1 scan:0", "wrong in 4 of 5 calls"},
    {"honest", "honest", "--case n65535 --versus-variant copy_d2d", 0, "copy_d2d:1 scan:1", ""},
    /* the limit from the reference's first sample: the 3 s floor, not --call-timeout's 30 s */
    {"hang", "honest", "--case n1025 --call-timeout 30", 5, "", "no answer within 3 s"},
    {"honest", "hang", "--case n1025 --call-timeout 2", 4, "", "the --versus runner (the reference) failed"},
    {"honest", "honest", "--case n1025 --versus-variant nope", 2, "", "has no variant or baseline 'nope'"},
};

START_TEST(test_judge_duel) {
  const duel *t = &DUELS[_i];
  char *dir = make_temp_dir("judge-duel"), *results, *err, script[1024], path[1024], args[512];
  snprintf(path, sizeof path, "%s/reference", dir);
  snprintf(script, sizeof script, "#!/bin/sh\nFAKE_STUDENT=%s exec %s/build/tests/fake-runner \"$@\"\n", t->reference, getenv("PWD"));
  write_text(path, script, 1);
  snprintf(args, sizeof args, "--versus ./reference %s", t->args);
  int rc = run_judge(dir, t->student, args, &results, &err);
  ck_assert_msg(rc == t->exit_code, "duel %d: judge exited %d, want %d; stderr: %s", _i, rc, t->exit_code, err);
  char got[512] = "";
  size_t len = 0;
  for (char *line = results, *nl; *line; line = nl + 1) {
    if (!(nl = strchr(line, '\n'))) break;
    *nl = 0;
    result_line r;
    char why[200];
    ck_assert_msg(result_parse(line, &r, why, sizeof why) == 0, "duel %d: %s", _i, why);
    ck_assert_msg(r.verified == 5, "duel %d: %d calls verified, want 5", _i, r.verified);
    len += (size_t)snprintf(got + len, sizeof got - len, "%s%s:%d", len ? " " : "", r.variant, r.ok);
  }
  ck_assert_msg(!strcmp(got, t->lines), "duel %d: lines '%s', want '%s'", _i, got, t->lines);
  ck_assert_msg(strstr(err, t->says), "duel %d: stderr lacks '%s': %s", _i, t->says, err);
  free(results);
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A /proc file's text into buf (its size reads as 0, so read_text will not do). */
/* dir/reference: the fake runner with env (e.g. "FAKE_STUDENT=hang") set,
 * as a duel's --versus runner. */
static void write_reference(const char *dir, const char *env) {
  char script[1024], path[1024];
  snprintf(path, sizeof path, "%s/reference", dir);
  snprintf(script, sizeof script, "#!/bin/sh\n%s exec %s/build/tests/fake-runner \"$@\"\n", env, getenv("PWD"));
  write_text(path, script, 1);
}

/* The judge's clock: a student whose runner's timer says 1 us (FAKE_TIMER=lies,
 * as a patched timer would) while each call sleeps 30 ms is timed at 30 ms or
 * more; the empty window's cost is measured and small. */
START_TEST(test_judge_clock) {
  char *dir = make_temp_dir("judge-clock"), *results, *err;
  int rc = run_judge(dir, "slow FAKE_TIMER=lies", "--case n1025", &results, &err);
  ck_assert_msg(rc == 0, "judge exited %d: %s", rc, err);
  result_line r;
  char why[200];
  ck_assert_msg(result_parse(results, &r, why, sizeof why) == 0, "%s: %s", why, results);
  ck_assert_msg(r.ok == 1, "the slow student is right, yet: %s", results);
  ck_assert_msg(r.min_ms >= 30, "timed at %g ms a call, while every call slept 30 ms: %s", r.min_ms, results);
  ck_assert_msg(r.overhead_ms > 0 && r.overhead_ms < 30, "an empty window cost %g ms: %s", r.overhead_ms, results);
  free(results);
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A duel's floor (--floor F): F times the reference's device copy of the
 * call's unavoidable bytes. With the reference's copy made 50 ms slower
 * (FAKE_COPY=slow) and F = 1, every sample of both sides is under the floor and counted
 * in too_fast; with a plain copy and F = 0.01, none is: both sides' calls take
 * 20 ms of device work (paced), far above a hundredth of a copy even when the
 * loaded host's scheduler stretches the copy to a few ms. The copy's own run
 * writes no result line. */
static const struct {
  const char *student, *reference_env, *floor;
  double floor_min_ms;
  int too_fast;
} FLOORS[] = {
    {"honest", "FAKE_STUDENT=honest FAKE_COPY=slow", "1", 45, 3},
    {"paced FAKE_PACE_MS=20", "FAKE_STUDENT=paced FAKE_PACE_MS=20", "0.01", 0, 0},
};

START_TEST(test_judge_floor) {
  char *dir = make_temp_dir("judge-floor"), *results, *err, args[256];
  write_reference(dir, FLOORS[_i].reference_env);
  snprintf(args, sizeof args, "--versus ./reference --floor %s --case n1025", FLOORS[_i].floor);
  int rc = run_judge(dir, FLOORS[_i].student, args, &results, &err);
  ck_assert_msg(rc == 0, "floor %d: judge exited %d: %s", _i, rc, err);
  int lines = 0;
  for (char *line = results, *nl; *line; line = nl + 1, lines++) {
    if (!(nl = strchr(line, '\n'))) break;
    *nl = 0;
    result_line r;
    char why[200];
    ck_assert_msg(result_parse(line, &r, why, sizeof why) == 0, "floor %d: %s", _i, why);
    ck_assert_msg(r.floor_ms > 0 && r.floor_ms >= FLOORS[_i].floor_min_ms, "floor %d: floor_ms=%g: %s", _i, r.floor_ms, line);
    ck_assert_msg(r.too_fast == FLOORS[_i].too_fast, "floor %d: too_fast=%d, want %d: %s", _i, r.too_fast,
                  FLOORS[_i].too_fast, line);
  }
  ck_assert_msg(lines == 2, "floor %d: %d result lines, want 2 (the reference's, the student's)", _i, lines);
  free(results);
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* In a duel the reference opens each case before the student does: its
 * buffers and workspace are on the device before the student's workspace
 * function runs, so a student who takes the GPU's memory there cannot make the
 * reference fail (an error of the check instead of the student's fail). */
START_TEST(test_judge_duel_open_order) {
  char *dir = make_temp_dir("judge-open"), path[1024], cmd[2048];
  write_reference(dir, "FAKE_TAG=reference");
  snprintf(cmd, sizeof cmd,
           "cd %s && %s FAKE_TAG=student FAKE_STUDENT=honest %s/" JUDGE_FX " --runner "
           "%s/build/tests/fake-runner --versus ./reference --case n1025,n65535 --reps 2 --result-fd 3 3>results 2>err",
           dir, CPU_TIER_NOISE, getenv("PWD"), getenv("PWD"));
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/err", dir);
  char *err = read_text(path);
  ck_assert(err);
  static const char *const N[] = {"1025", "65535"};
  for (int c = 0; c < 2; c++) {
    char ref[64], st[64];
    snprintf(ref, sizeof ref, "workspace of reference, n=%s\n", N[c]);
    snprintf(st, sizeof st, "workspace of student, n=%s\n", N[c]);
    const char *r = strstr(err, ref), *s = strstr(err, st);
    ck_assert_msg(r && s, "n=%s: no workspace line of each side in: %s", N[c], err);
    ck_assert_msg(r < s, "n=%s: the student's runner opened the case before the reference's: %s", N[c], err);
  }
  free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* SCANLAB_JUDGE_PROFILE: one line per case on stderr with the seconds of each
 * phase; without it, none (stderr is part of the grader's report). */
START_TEST(test_judge_profile) {
  char *dir = make_temp_dir("judge"), *results, *err;
  setenv("SCANLAB_JUDGE_PROFILE", "1", 1);
  ck_assert_int_eq(run_judge(dir, "honest", "--case n1025,n65535", &results, &err), 0);
  unsetenv("SCANLAB_JUDGE_PROFILE");
  static const char *const CASES[] = {"n1025", "n65535"};
  for (int c = 0; c < 2; c++) {
    char want[64];
    snprintf(want, sizeof want, "profile case=%s start=", CASES[c]);
    const char *line = strstr(err, want);
    ck_assert_msg(line, "no profile line for %s in: %s", CASES[c], err);
    double sec[7];
    ck_assert_msg(sscanf(line + strlen(want) - strlen("start="), "start=%lf open=%lf input=%lf run=%lf expect=%lf verify=%lf close=%lf s",
                         &sec[0], &sec[1], &sec[2], &sec[3], &sec[4], &sec[5], &sec[6]) == 7, "bad profile line: %s", line);
    for (int p = 0; p < 7; p++) ck_assert_msg(sec[p] >= 0 && sec[p] < 60, "%s: phase %d took %g s", CASES[c], p, sec[p]);
    ck_assert_msg(sec[3] > 0 && sec[5] > 0, "%s: no time in the runs or the checks", CASES[c]);
  }
  free(results), free(err);
  ck_assert_int_eq(run_judge(dir, "honest", "--case n1025", &results, &err), 0);
  ck_assert_msg(!strstr(err, "profile"), "a profile line without SCANLAB_JUDGE_PROFILE: %s", err);
  free(results), free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

static void read_proc(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "r");
  size_t len = f ? fread(buf, 1, cap - 1, f) : 0;
  if (f) fclose(f);
  buf[len] = 0;
}

/* The state letter of process pid (/proc/PID/stat's third field), or '?'. */
static char proc_state(long pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  read_proc(path, buf, sizeof buf);
  const char *close = strrchr(buf, ')'); /* the name may hold spaces */
  return close && close[1] == ' ' ? close[2] : '?';
}

/* While one side of a duel is timed the other is stopped (SIGSTOP): here the
 * reference hangs in its first sample (one of its samples alone, before the
 * student's first call), and meanwhile the student's runner (the judge's first
 * child) must be in state T, so no thread of it can run. */
START_TEST(test_judge_duel_stops_the_other_side) {
  char *dir = make_temp_dir("judge-stop"), path[1024], cmd[2048];
  write_reference(dir, "FAKE_STUDENT=hang");
  snprintf(cmd, sizeof cmd,
           "cd %s && { %s FAKE_STUDENT=honest %s/" JUDGE_FX " --runner %s/build/tests/fake-runner "
           "--versus ./reference --case n1025 --call-timeout 4 3>results 1>out 2>err & echo $! > judge.pid; wait; touch done; } &",
           dir, CPU_TIER_NOISE, getenv("PWD"), getenv("PWD"));
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/judge.pid", dir);
  long judge = 0, kids[4] = {0};
  int n = 0;
  for (int tries = 0; tries < 300 && n < 2; tries++) { /* up to 3 s for both runners to start */
    usleep(10000);
    char *text = read_text(path);
    judge = text ? atol(text) : 0;
    free(text);
    if (!judge) continue;
    char children[64], list[256];
    snprintf(children, sizeof children, "/proc/%ld/task/%ld/children", judge, judge);
    read_proc(children, list, sizeof list);
    n = 0;
    for (char *p = list, *end; *p && n < 4; p = end) {
      long k = strtol(p, &end, 10);
      if (end == p) break;
      kids[n++] = k;
    }
  }
  ck_assert_msg(n == 2, "the judge has %d runners, want 2", n);
  usleep(500000); /* the reference is in its first, hanging call by now */
  long student = kids[0] < kids[1] ? kids[0] : kids[1], reference = kids[0] < kids[1] ? kids[1] : kids[0];
  char st = proc_state(student), rs = proc_state(reference);
  ck_assert_msg(st == 'T', "while the reference runs, the student's runner is in state %c, want T (stopped)", st);
  ck_assert_msg(rs != 'T', "the reference's runner is stopped too (state %c)", rs);
  snprintf(path, sizeof path, "%s/done", dir);
  for (int tries = 0; tries < 1000 && access(path, F_OK); tries++) usleep(10000); /* the call limit ends the run */
  ck_assert_msg(access(path, F_OK) == 0, "the judge did not end after the reference's call limit");
  remove_dir(dir);
  free(dir);
}
END_TEST


/* ---------------------------------------------------------------- work outside the window */

/* A duel on one shared fake device (backend_cpu.h, FAKE_DEVICE): the reference
 * does a paced call (PACE_MS of device work, in its window); each student does
 * the same work somewhere else. The judge's clock on every step charges what a
 * student's steps take beyond the reference's to its samples; work that runs
 * into the reference's turn where no probe sees it (a second context) slows the
 * reference beyond its samples alone: retried, then exit 6. Each row fails on
 * a019dd7's judge, which timed GO -> DONE only, stopped the runner's pid only,
 * and had no ceiling. */
#define PACE_MS 100
typedef struct outside {
  const char *student;
  int exit_code;
  double charged_min, charged_max; /* the student's charged_ms, in paces */
  const char *says;                /* in the judge's stderr */
} outside;

static const outside OUTSIDE[] = {
    /* honest: the work in its window; its steps are the reference's, within the noise */
    {"paced", 0, 0, 0.25, ""},
    /* a redirected backend's settle does the batch's work after the uploads, before GO */
    {"settle-work", 0, 0.6, 3, "RUN->SET"},
    /* a patched timer sends DONE before the work is done; the download waits for it */
    {"early-done", 0, 0.6, 3, "charged to its samples"},
    /* the same, the work on a stream the download does not wait for: the IDLE probe does */
    {"spin-into-reference", 0, 0.6, 3, "charged to its samples"},
    /* a kernel on a second context, which no wait of the runner's sees, into the reference's turn */
    {"second-context", 6, 0, 0, "the case is run again"},
};

/* dir/dev (the shared device) and dir/reference (the paced reference on context 1);
 * the student's FAKE_STUDENT value for run_judge, with the device and pace, into env. */
static void fake_device_duel(const char *dir, const char *student, char *env, size_t cap) {
  char path[1024], script[1024];
  snprintf(path, sizeof path, "%s/dev", dir);
  write_text(path, "", 0);
  ck_assert_int_eq(truncate(path, 64), 0);
  snprintf(script, sizeof script, "FAKE_STUDENT=paced FAKE_CONTEXT=1 FAKE_PACE_MS=%d FAKE_DEVICE=%s/dev", PACE_MS, dir);
  write_reference(dir, script);
  snprintf(env, cap, "%s FAKE_PACE_MS=%d FAKE_DEVICE=%s/dev FAKE_HELPER_PID=%s/helper.pid", student, PACE_MS, dir, dir);
}

/* The reference's line and the student's from a duel's results (2 lines). */
static void duel_lines(char *results, result_line *ref, result_line *st) {
  char *nl = strchr(results, '\n'), why[200];
  ck_assert_msg(nl, "no result line: %s", results);
  *nl = 0;
  ck_assert_msg(result_parse(results, ref, why, sizeof why) == 0, "%s: %s", why, results);
  ck_assert_msg(result_parse(nl + 1, st, why, sizeof why) == 0, "%s: %s", why, nl + 1);
}

START_TEST(test_judge_outside_window) {
  const outside *t = &OUTSIDE[_i];
  char *dir = make_temp_dir("judge-outside"), *results, *err, env[1024];
  fake_device_duel(dir, t->student, env, sizeof env);
  /* --floor: a perf duel, the only kind whose reference is held to its samples alone */
  int rc = run_judge(dir, env, "--versus ./reference --floor 0.01 --case n1025", &results, &err);
  ck_assert_msg(rc == t->exit_code, "%s: judge exited %d, want %d; stderr: %s", t->student, rc, t->exit_code, err);
  if (t->exit_code == 0) {
    result_line ref, st;
    duel_lines(results, &ref, &st);
    ck_assert_msg(ref.ok && st.ok, "%s: a side is wrong: %s", t->student, err);
    /* the work is in the student's time, wherever it was done */
    ck_assert_msg(st.median_ms >= 0.6 * PACE_MS, "%s: timed at %g ms a call for %d ms of work (the reference at %g ms)", t->student,
                  st.median_ms, PACE_MS, ref.median_ms);
    ck_assert_msg(ref.solo_ms >= 0.8 * PACE_MS, "%s: the reference's median alone is %g ms, for %d ms of work", t->student,
                  ref.solo_ms, PACE_MS);
    double lo = t->charged_min * PACE_MS, hi = t->charged_max * PACE_MS;
    ck_assert_msg(st.charged_ms >= lo && st.charged_ms <= hi, "%s: charged %g ms a call, want %g to %g (the student's median %g, "
                  "the reference's %g); stderr: %s", t->student, st.charged_ms, lo, hi, st.median_ms, ref.median_ms, err);
  } else {
    ck_assert_msg(!results[0], "%s: a result line after the reference was disturbed twice: %s", t->student, results);
    ck_assert_msg(strstr(err, "the reference was disturbed: its median in the duel"), "%s: %s", t->student, err);
  }
  ck_assert_msg(strstr(err, t->says), "%s: stderr lacks '%s': %s", t->student, t->says, err);
  free(results), free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* A helper process that got out of the runner's process group and session and
 * was orphaned (a runner whose sandbox is gone could start one) keeps the
 * device busy from a second context for as long as it runs. The judge stops
 * the runner's whole tree, orphans included (it adopts them), while the
 * reference is timed, and kills them when it ends: the reference's samples are
 * not slowed, and the helper is gone. (a019dd7's judge stopped the runner's pid
 * only: the reference ran at about twice its pace, and the helper outlived it.) */
START_TEST(test_judge_helper_stopped) {
  char *dir = make_temp_dir("judge-helper"), *results, *err, env[1024], path[1024];
  fake_device_duel(dir, "helper-child", env, sizeof env);
  /* --floor: a perf duel, the only kind whose reference is held to its samples alone */
  int rc = run_judge(dir, env, "--versus ./reference --floor 0.01 --case n1025", &results, &err);
  snprintf(path, sizeof path, "%s/helper.pid", dir);
  char *text = read_text(path);
  long helper = text ? atol(text) : 0;
  free(text);
  ck_assert_msg(helper > 0, "the helper never started: %s", err);
  int alive = kill((pid_t)helper, 0) == 0 && proc_state(helper) != 'Z';
  if (alive) kill((pid_t)helper, SIGKILL);
  ck_assert_msg(rc == 0, "judge exited %d: %s", rc, err);
  ck_assert_msg(!alive, "the student's helper (pid %ld) outlived the judge", helper);
  result_line ref, st;
  duel_lines(results, &ref, &st);
  ck_assert_msg(ref.median_ms < 1.8 * PACE_MS, "the reference took %g ms a call for %d ms of work: the helper ran in its turn",
                ref.median_ms, PACE_MS);
  free(results), free(err);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The arithmetic of phase_clock.h: a sample is judged by the sum of its steps
 * (a probe counts towards the side's latest sample); the student is charged the
 * median sum's excess over the reference's beyond the noise, nothing within it;
 * the ceiling is crossed only beyond its noise. */
START_TEST(test_judge_phase_arithmetic) {
  phase_log st, ref;
  ck_assert_int_eq(judge_phase_log_init(&st, 3), 0);
  ck_assert_int_eq(judge_phase_log_init(&ref, 3), 0);
  judge_phase_log_drain(&st, 50); /* before any sample: a warm-up's, not counted */
  static const double prep[3] = {10, 10, 10}, st_fetch[3] = {1, 31, 1}, st_drain[3] = {30, 0, 30};
  for (int k = 0; k < 3; k++) {
    judge_phase_log_sample(&ref, prep[k], 1);
    judge_phase_log_drain(&ref, 0.5);
    judge_phase_log_sample(&st, prep[k], st_fetch[k]);
    judge_phase_log_drain(&st, st_drain[k]); /* 30 ms outside the window in every sample, in one step or the other */
  }
  phase_charge c;
  judge_phase_charge_compute(&st, &ref, 0.1, 1, &c); /* sums 41 vs 11.5; noise 0.1 * 11.5 + 1 = 2.15 */
  ck_assert_msg(fabs(c.student_total_ms - 41) < 1e-9 && fabs(c.reference_total_ms - 11.5) < 1e-9, "sums %g %g",
                c.student_total_ms, c.reference_total_ms);
  ck_assert_msg(fabs(c.total_ms - (41 - 11.5 - 2.15)) < 1e-9, "charged %g", c.total_ms);
  ck_assert_msg(fabs(c.student_ms[PHASE_DRAIN] - 30) < 1e-9, "the probes' median %g", c.student_ms[PHASE_DRAIN]);
  judge_phase_charge_compute(&ref, &ref, 0.1, 1, &c);
  ck_assert_msg(c.total_ms == 0, "the reference against itself is charged %g", c.total_ms);
  judge_phase_charge_compute(&st, &ref, 3, 0, &c); /* a noise wider than the excess: nothing */
  ck_assert_msg(c.total_ms == 0, "charged %g within the noise", c.total_ms);
  judge_phase_log_free(&st), judge_phase_log_free(&ref);
  ck_assert(!judge_phase_ceiling_disturbed(1.15, 1.0, 0.15, 0.002));
  ck_assert(judge_phase_ceiling_disturbed(1.16, 1.0, 0.15, 0.002));
  ck_assert(!judge_phase_ceiling_disturbed(5, 0, 0.15, 0.002)); /* no figure alone: nothing to compare */
}
END_TEST

Suite *judge_suite(void) {
  Suite *s = suite_create("judge");
  TCase *tc = tcase_create("attempts");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_judge_attempt, 0, (int)(sizeof ATTEMPTS / sizeof *ATTEMPTS));
  tcase_add_loop_test(tc, test_judge_bad_usage, 0, (int)(sizeof BAD / sizeof *BAD));
  tcase_add_test(tc, test_judge_list);
  tcase_add_test(tc, test_judge_fixture_not_graded);
  tcase_add_loop_test(tc, test_judge_confinement, 0, (int)(sizeof CONFINED / sizeof *CONFINED));
  tcase_add_test(tc, test_judge_unfiltered_reference);
  tcase_add_loop_test(tc, test_judge_duel, 0, (int)(sizeof DUELS / sizeof *DUELS));
  tcase_add_test(tc, test_judge_duel_stops_the_other_side);
  tcase_add_test(tc, test_judge_profile);
  tcase_add_test(tc, test_judge_duel_open_order);
  tcase_add_test(tc, test_judge_clock);
  tcase_add_loop_test(tc, test_judge_floor, 0, 2);
  suite_add_tcase(s, tc);
  TCase *clock = tcase_create("outside-window");
  tcase_set_timeout(clock, 60);
  tcase_add_loop_test(clock, test_judge_outside_window, 0, (int)(sizeof OUTSIDE / sizeof *OUTSIDE));
  tcase_add_test(clock, test_judge_helper_stopped);
  tcase_add_test(clock, test_judge_phase_arithmetic);
  tcase_add_test(clock, test_judge_bad_noise);
  suite_add_tcase(s, clock);
  return s;
}
