/* faults_main.c: the fault-injection suite of the CPU tier.
 *
 * Every fault runs the real grader (build/grader/grade) on a throw-away course
 * tree: two fake assignments whose runners are shell scripts speaking the
 * runner protocol. 98-other always behaves; 99-fake carries the fault. Each
 * fault states the verdict and the one-line reason the grader must give, and
 * every run also asserts the invariants that hold whatever happens: the grader
 * ends in bounded time, results.json is valid JSON, and 98-other is still
 * graded in full. GPU faults (a kernel that never ends, an out-of-bounds write
 * under memcheck) are in the GPU tier (grader/tests/gpu-tier.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "faults.h"
#include "tests.h"

/* ---------------------------------------------------------------- the fake course */

/* Argument parsing shared by every fake runner; emit writes a result line. */
#define PRELUDE                                                                                   \
  "cases=; variant=; seed=1; dir=\n"                                                              \
  "while [ $# -gt 0 ]; do\n"                                                                      \
  "  case \"$1\" in\n"                                                                            \
  "    --case) cases=$2; shift ;;\n"                                                              \
  "    --variant) variant=$2; shift ;;\n"                                                         \
  "    --seed) seed=$2; shift ;;\n"                                                               \
  "    --save-failed) dir=$2; shift ;;\n"                                                         \
  "    --check) checkflag=1 ;;\n"                                                                 \
  "    --result-fd|--reps|--warmup) shift ;;\n"                                                   \
  "    --list) printf 'assignment %%s\\nvariant v the variant graded\\nvariant v2 another variant\\n"  \
  "baseline copy_d2d a device-to-device copy\\ncase n10 10 1 1 -\\ncase n20 20 1 1 -\\n' \"$NAME\"; exit 0 ;;\n" \
  "  esac\n"                                                                                      \
  "  shift\n"                                                                                     \
  "done\n"                                                                                        \
  "cases=$(echo \"$cases\" | tr , ' ')\n"                                                         \
  "emit() { br=${BR:-0}; [ \"${OK:-1}\" = 0 ] && [ -z \"${BR:-}\" ] && br=1; echo \"result case=$1 variant=${V:-$variant} n=${N:-${1#n}} seed=${S:-$seed} ok=${OK:-1} " \
  "checked=${CHK:-1} median_ms=${MS:-1.0} min_ms=${MS:-1.0} reps=${R:-1} verified=${VF:-${R:-1}} bad_reps=$br mismatches=${MM:-0} first_bad=${FB:--1} " \
  "first_x=${FX:--1} first_y=${FY:--1} max_err=${ME:-0} masked=${MK:-0} nonfinite=${NF:-0} work_bytes=0 floor_ms=${FL:-0} too_fast=${TF:-0}\" >&3; }\n" \
  "if [ \"$variant\" = copy_d2d ] && [ ! -f $NAME.copy-broken ]; then for c in $cases; do MS=0.5 CHK=0 VF=0 emit $c; done; exit 0; fi\n"

#define GOOD "for c in $cases; do emit $c; done\n"

static const char CONF[] =
    "[assignment]\nname = %s\ntitle = Fake assignment for the fault suite\ntimeout = %d\nstudent = scan.cu\nlink = object\n\n"
    "[correct]\nkind = correct\nvariant = v\ncases = n10, n20\npoints = 10\n\n"
    "[perf]\nkind = perf\nvariant = v\ncases = n10\nfull_ratio = 1.1\nfloor = 0.5\npoints = 10\n\n"
    "[ptx]\nkind = ptx\nkernel = k\npattern = ld\\.shared\nmax = 2\npoints = 5\n\n"
    "[race]\nkind = sanitizer\ntool = racecheck\nvariant = v\ncases = n10\npoints = 5\n\n"
    "[banks]\nkind = metric\nvariant = v\ncases = n10\nkernel = k\nmetric = l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\nmax = 3000\npoints = 5\n\n"
    "[perf-copy]\nkind = perf\nvariant = v\ncases = n10\nbaseline = copy_d2d\nfull_ratio = 2.5\nfloor = 0.5\npoints = 5\n";

static const char PTX[] = ".visible .entry k(\n.param .u64 p\n)\n{\n\tld.shared.u32 %r1, [%rd1];\n\tst.global.u32 [%rd2], %r1;\n}\n";

/* A stand-in for compute-sanitizer: drops its own options and runs the program,
 * or, when the program's environment asks for it, reports a race. */
static const char SANITIZER[] =
    "#!/bin/sh\n"
    "while [ $# -gt 0 ]; do case \"$1\" in --tool|--error-exitcode|--print-limit) shift 2 ;; *) break ;; esac; done\n"
    "if [ -n \"$FAKE_RACE\" ] && [ \"${1%%/99-fake/runner}\" != \"$1\" ]; then \"$@\"; echo '========= Error: Race reported between Write access at k+0x10 and Read access at k+0x20'; "
    "echo '========= RACECHECK SUMMARY: 1 hazard displayed'; exit 99; fi\n"
    "exec \"$@\"\n";

/* Writes an executable fake runner: shebang, its assignment's name, the
 * shared prelude, then the behaviour under test. */
static void write_script(const char *path, const char *name, const char *body) {
  char text[8192];
  snprintf(text, sizeof text, "#!/bin/sh\nNAME=%s\n" PRELUDE "%s", name, body ? body : GOOD);
  write_text(path, text, 1);
}

/* A stand-in for Nsight Compute's ncu: runs the program, then prints one CSV
 * row per metric asked for, each with the same value; for 99-fake, FAKE_NCU_VALUE and FAKE_NCU_PERM change it. */
static const char NCU[] =
    "#!/bin/sh\n"
    "metric=\n"
    "while [ $# -gt 0 ]; do case \"$1\" in --metrics) metric=$2; shift 2 ;; --kernel-name|--launch-count|--print-units) shift 2 ;; --csv) shift ;; *) break ;; esac; done\n"
    "value='1,234'\n"
    "if [ \"${1%%/99-fake/runner}\" != \"$1\" ]; then\n"
    "  if [ -n \"$FAKE_NCU_PERM\" ]; then echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters'; exit 1; fi\n"
    "  value=${FAKE_NCU_VALUE:-$value}\n"
    "fi\n"
    "\"$@\" || exit $?\n"
    "echo '\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"'\n"
    "for m in $(echo \"$metric\" | tr , ' '); do\n"
    "  echo \"\\\"0\\\",\\\"1\\\",\\\"harness\\\",\\\"host\\\",\\\"k\\\",\\\"Command line profiler metrics\\\",\\\"$m\\\",\\\"\\\",\\\"$value\\\"\"\n"
    "done\n";

/* A stand-in for nvcc, for the grader's own build (build.h): a compile (-c)
 * copies the student's file into the object, -ptx writes the fake PTX, a link
 * writes the assignment's fake runner (fake/NN.runner; fake/NN.wrong-runner
 * when the object holds FAKE_WRONG). Markers in the student's file make a step
 * fail as the real tools do: FAKE_COMPILE_ERROR, FAKE_OOM, FAKE_INTERRUPT (a
 * Ctrl-C to the grader), FAKE_LINK_ERROR. FAKE_NVCC_LOG: each call's arguments. */
static const char NVCC[] =
    "#!/bin/sh\n"
    "[ \"$1\" = --version ] && { echo 'fake nvcc for the fault suite'; exit 0; }\n"
    "[ -n \"$FAKE_NVCC_LOG\" ] && printf '%s\\n' \"$*\" >> \"$FAKE_NVCC_LOG\"\n"
    "out=; dep=; mode=link; prev=; src=; obj=; runner=\n"
    "for a in \"$@\"; do\n"
    "  case $prev in -o) out=$a ;; -MF) dep=$a ;; esac\n"
    "  case $a in -c) mode=compile ;; -ptx) mode=ptx ;; */runner.cu) runner=$a ;; *.cu) src=$a ;; *.o) obj=$a ;; esac\n"
    "  prev=$a\n"
    "done\n"
    "[ -n \"$dep\" ] && echo \"$out: ${src:-$runner}\" > \"$dep\"\n"
    "case $mode in\n"
    "compile)\n"
    "  grep -q FAKE_COMPILE_ERROR \"$src\" && { echo \"$src(12): error: identifier \\\"tid\\\" is undefined\"; echo '1 error detected'; exit 1; }\n"
    "  grep -q FAKE_OOM \"$src\" && { echo \"nvcc error   : 'cicc' died due to signal 9 (Kill signal)\"; exit 1; }\n"
    "  grep -q FAKE_INTERRUPT \"$src\" && { kill -INT $PPID; sleep 30; }\n"
    "  cp \"$src\" \"$out\" ;;\n"
    "ptx) cp fake/ptx \"$out\" ;;\n"
    "*)\n"
    "  grep -q FAKE_LINK_ERROR \"$obj\" && { echo \"/usr/bin/ld: $obj: in function \\`scan':\"; "
    "echo \"scan.cu:(.text+0x1): undefined reference to \\`course_helper'\"; echo 'collect2: error: ld returned 1 exit status'; exit 1; }\n"
    "  a=${runner#assignments/}; a=${a%/runner/runner.cu}; f=fake/$a.runner\n"
    "  grep -q FAKE_WRONG \"$obj\" && f=fake/$a.wrong-runner\n"
    "  cp \"$f\" \"$out\" && chmod +x \"$out\" ;;\n"
    "esac\n";

/* A stand-in for grader/inspect/inspect-student.sh OBJECT DEPFILE SOURCE_NAME NVCC_BIN_DIR FOLDER...:
 * refuses an object that holds FAKE_USES_CUB. FAKE_INSPECT_LOG: each call's arguments. */
static const char INSPECT[] =
    "[ $# -ge 6 ] || { echo 'inspect-student: usage' >&2; exit 2; }\n"
    "[ -n \"$FAKE_INSPECT_LOG\" ] && printf '%s\\n' \"$*\" >> \"$FAKE_INSPECT_LOG\"\n"
    "grep -q FAKE_USES_CUB \"$1\" && { echo \"refused: $3 uses CUB (it includes cub/device/device_scan.cuh): write it yourself\"; exit 1; }\n"
    "exit 0\n";

static void write_fake(const char *root, const char *name, const char *student, const char *reference, int timeout) {
  char path[512], text[4096];
  snprintf(path, sizeof path, "%s/assignments/%s/grade.conf", root, name);
  snprintf(text, sizeof text, CONF, name, timeout);
  write_text(path, text, 0);
  snprintf(path, sizeof path, "%s/assignments/%s/runner/runner.cu", root, name);
  write_text(path, "// the fake assignment's runner: the fake nvcc links fake/NN.runner\n", 0);
  snprintf(path, sizeof path, "%s/assignments/%s/ref/reference", root, name);
  write_script(path, name, reference);
  snprintf(path, sizeof path, "%s/fake/%s.runner", root, name);
  write_script(path, name, student);
  snprintf(path, sizeof path, "%s/fake/%s.wrong-runner", root, name);
  write_script(path, name, "for c in $cases; do OK=0 MM=3 FB=4 emit $c; done\n");
  snprintf(path, sizeof path, "%s/starter/%s/scan.cu", root, name);
  write_text(path, "// the student's file of the fake assignment\n", 0);
}

/* A stand-in for the judge (build/grader/judge): the fake runners above speak
 * the result protocol themselves, so it runs the runner it is given (through the
 * tool after --, if any) with the runner options. The grader's own handling of
 * what comes back is what this suite tests; the real judge is tested with fake
 * runners in test_judge.c. */
static const char JUDGE[] =
    "#!/bin/sh\n"
    /* SCHED_LOG: one line per judge run, "START END ARGS", for test_schedule */
    "if [ -n \"$SCHED_LOG\" ] && [ -z \"$SCHED_INNER\" ]; then\n"
    "  t0=$(date +%s.%N); sleep 0.3; SCHED_INNER=1 \"$0\" \"$@\"; rc=$?; echo \"$t0 $(date +%s.%N) $*\" >> \"$SCHED_LOG\"; exit $rc\n"
    "fi\n"
    /* KILL_CHECK_PARENT: the correct check's duel of 99-fake kills the process that started it (test_schedule_child_dies) */
    "case \"$KILL_CHECK_PARENT $*\" in 1*--assignment\\ 99-fake*--versus*--batch\\ 1*) kill -9 $PPID; sleep 1 ;; esac\n"
    "[ -n \"$SCANLAB_JUDGE_PROFILE\" ] && echo \"stand-in judge: profile case=n10 start=0.1 open=0 input=0 run=0.2 expect=0 verify=0 close=0 s\" >&2\n"
    "runner=; versus=; vvar=; args=; limit=20\n"
    "while [ $# -gt 0 ]; do\n"
    "  case \"$1\" in\n"
    "    --assignment|--batch) shift 2 ;;\n"
    "    --call-timeout) limit=$2; shift 2 ;;\n"
    "    --runner) runner=$2; shift 2 ;;\n"
    "    --versus) versus=$2; shift 2 ;;\n"
    "    --versus-variant) vvar=$2; shift 2 ;;\n"
    "    --) shift; exec \"$@\" \"$runner\" $args ;;\n"
    "    *) args=\"$args $1\"; shift ;;\n"
    "  esac\n"
    "done\n"
    /* a duel: the reference's lines first; its failure is the judge's exit 4 */
    "if [ -n \"$versus\" ]; then\n"
    "  out=$(mktemp); st=$(mktemp); timeout \"$limit\" \"$versus\" $args --variant \"$vvar\" 3>\"$out\"; rc=$?\n"
    "  [ $rc = 124 ] && echo 'stand-in judge: the --versus runner (the reference) failed: no answer within the call limit' >&2\n"
    "  [ $rc = 0 ] || { rm -f \"$out\" \"$st\"; exit 4; }\n"
    "  [ -s \"$out\" ] || { echo 'stand-in judge: the --versus runner gave no result line' >&2; rm -f \"$out\" \"$st\"; exit 4; }\n"
    /* as the judge does: a case's reference line only once the student has finished the case too */
    "  \"$runner\" $args 3>\"$st\"; rc=$?\n"
    "  if [ $rc = 0 ]; then cat \"$out\" >&3; else\n"
    "  awk 'NR == FNR { if (match($0, /case=[^ ]*/)) done[substr($0, RSTART, RLENGTH)] = 1; next }\n"
    "       match($0, /case=[^ ]*/) && (substr($0, RSTART, RLENGTH) in done)' \"$st\" \"$out\" >&3; fi\n"
    "  cat \"$st\" >&3; rm -f \"$out\" \"$st\"\n"
    "  [ $rc -gt 128 ] && kill -$((rc - 128)) $$\n" /* the student's death by a signal is the judge's */
    "  exit $rc\n"
    "fi\n"
    "exec \"$runner\" $args\n";

char *make_course(const char *student, const char *reference, int timeout) {
  char *root = make_temp_dir("faults");
  char path[512];
  write_fake(root, "98-other", NULL, NULL, 5);
  write_fake(root, "99-fake", student, reference, timeout);
  /* what the grader's build takes besides the student's folder */
  static const char *const FILES[][2] = {{"fake/ptx", PTX}, {"grader/inspect/inspect-student.sh", INSPECT}, {"grader/inspect/course-prefixes.txt", "runner_\n"},
                                         {"grader/inspect/inspect-links.sh", "# fake\n"}, {"grader/inspect/header-decls.awk", "# fake\n"},
                                         {"grader/inspect/student-calls.txt", "# fake\n"},
                                         {"grader/runner/runner.h", "/* fake */\n"}, {"grader/protocol/wire.h", "/* fake */\n"},
                                         {"build/runner/librunner.a", "fake\n"}, {"build/runner/sandbox.o", "fake\n"},
                                         {"build/runner/guard.o", "fake\n"}, {"build/.gencode", "-arch=sm_90\n"}};
  for (size_t i = 0; i < sizeof FILES / sizeof *FILES; i++) {
    snprintf(path, sizeof path, "%s/%s", root, FILES[i][0]);
    write_text(path, FILES[i][1], 0);
  }
  snprintf(path, sizeof path, "%s/cuda/bin/nvcc", root);
  write_text(path, NVCC, 1);
  snprintf(path, sizeof path, "%s/build/tools/gpuinfo", root);
  write_text(path, "#!/bin/sh\necho 'Fake GPU for the fault suite'\n", 1);
  snprintf(path, sizeof path, "%s/build/grader/judge", root);
  write_text(path, JUDGE, 1);
  snprintf(path, sizeof path, "%s/cuda/bin/compute-sanitizer", root);
  write_text(path, SANITIZER, 1);
  snprintf(path, sizeof path, "%s/cuda/bin/ncu", root);
  write_text(path, NCU, 1);
  return root;
}

/* ---------------------------------------------------------------- running and reading */

char grader[1024];

/* Runs the grader in root. `extra` is shell run just before it, in a subshell
 * of its own (limits set there bind the grader, not the log writer). */
int grade(const char *root, const char *extra, double *seconds) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && { ( %s exec timeout 300 '%s' --root . --cuda ./cuda --jobs 3 ) 2>&1; echo $? > .rc; } | cat > grade.log; exit $(cat .rc)",
           root, extra ? extra : "", grader);
  time_t t0 = time(NULL);
  int rc = run_shell(cmd);
  if (seconds) *seconds = difftime(time(NULL), t0);
  return rc;
}

/* The results.json of the newest run under root/grade-results, parsed. */
json_t *latest(const char *root) {
  char path[600];
  snprintf(path, sizeof path, "%s/grade-results/latest/results.json", root);
  return load_json(path);
}

json_t *find_test(json_t *j, const char *assignment, const char *check) {
  char prefix[128];
  snprintf(prefix, sizeof prefix, "%s: %s (", assignment, check);
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(j, "tests"), i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    if (name && !strncmp(name, prefix, strlen(prefix))) return t;
  }
  ck_abort_msg("no test '%s' in results.json", prefix);
  return NULL;
}

static const char *verdict_of(json_t *t) { return json_string_value(json_object_get(json_object_get(t, "extra_data"), "verdict")); }
static const char *reason_of(json_t *t) { return json_string_value(json_object_get(json_object_get(t, "extra_data"), "reason")); }

void expect(json_t *j, const char *assignment, const char *check, const char *verdict, const char *reason, const char *fault) {
  json_t *t = find_test(j, assignment, check);
  const char *v = verdict_of(t), *r = reason_of(t);
  ck_assert_msg(v && !strcmp(v, verdict), "%s: %s/%s verdict '%s', want '%s' (reason: %s)", fault, assignment, check, v, verdict, r);
  ck_assert_msg(r && strstr(r, reason), "%s: %s/%s reason '%s' lacks '%s'", fault, assignment, check, r, reason);
  ck_assert_msg(!strchr(r, '\n'), "%s: reason is not one line: %s", fault, r);
  if (strcmp(verdict, "pass")) ck_assert_msg(json_number_value(json_object_get(t, "score")) < json_number_value(json_object_get(t, "max_score")) ||
                                                 json_number_value(json_object_get(t, "max_score")) == 0,
                                             "%s: a %s check got full points", fault, verdict);
}

/* The checks of a fake assignment (CONF). */
const char *const CHECKS[] = {"correct", "perf", "ptx", "race", "banks", "perf-copy"};
const int N_CHECKS = (int)(sizeof CHECKS / sizeof *CHECKS);

/* What holds after every fault: the bystander assignment is graded in full. */
void bystander_graded(json_t *j, const char *fault) {
  for (int i = 0; i < N_CHECKS; i++) expect(j, "98-other", CHECKS[i], "pass", "", fault);
}

/* ---------------------------------------------------------------- the faults */

typedef struct fault {
  const char *name;
  const char *student;   /* fake student runner body (NULL: behaves) */
  const char *reference; /* fake reference body (NULL: behaves) */
  const char *setup;     /* shell run in the course root before grading */
  const char *check;     /* which check of 99-fake shows the fault */
  const char *verdict, *reason;
  int exit_code; /* the grader's exit status */
} fault;

#define EMIT_ALL(vars) "for c in $cases; do " vars " emit $c; done\n"

static const fault FAULTS[] = {
    /* the student's binary hangs or dies */
    {"host infinite loop", "while :; do :; done\n", NULL, NULL, "correct", "fail", "no result: timed out after", 0},
    {"sleep past the limit", "sleep 600\n", NULL, NULL, "perf", "fail", "timed out after", 0},
    {"segfault", "kill -SEGV $$\n", NULL, NULL, "correct", "fail", "killed by signal 11 (Segmentation fault)", 0},
    {"abort", "kill -ABRT $$\n", NULL, NULL, "correct", "fail", "killed by signal 6 (Aborted)", 0},
    {"exit 3 with a CUDA error", "echo 'main.cu:42: cudaMalloc(&p, bytes): CUDA error cudaErrorMemoryAllocation: out of memory' >&2; exit 3\n",
     NULL, NULL, "correct", "fail", "CUDA error (exit 3): main.cu:42: cudaMalloc", 0},
    {"crash after some cases", "emit n10; kill -SEGV $$\n", NULL, NULL, "correct", "partial", "1/2 cases correct; n20: no result: killed by signal 11", 0},
    {"background child keeps the pipes open", "sleep 600 &\n" GOOD, NULL, NULL, "correct", "pass", "2/2 cases correct", 0},
    {"closes its channels, then hangs", "exec >&- 2>&- 3>&-; sleep 600\n", NULL, NULL, "correct", "fail", "timed out", 0},
    /* the student's binary lies or babbles */
    {"fake ok=1 lines on stdout, then a crash",
     "for c in $cases; do echo \"result case=$c variant=$variant n=${c#n} seed=$seed ok=1 checked=1 median_ms=1 min_ms=1 reps=1 verified=1 bad_reps=0 mismatches=0 first_bad=-1 first_x=-1 first_y=-1 max_err=0 masked=0 nonfinite=0 work_bytes=0\"; done; kill -SEGV $$\n",
     NULL, NULL, "correct", "fail", "no result: killed by signal 11", 0},
    {"perf timed against a variant the student says is a copy", "for c in $cases; do CHK=0 VF=0 emit $c; done\n", NULL, NULL, "perf", "fail",
     "not timed: result was not checked", 0},
    {"100 MB of junk on stdout", "head -c 100000000 /dev/zero | tr '\\0' x\n" GOOD, NULL, NULL, "correct", "pass", "2/2 cases correct", 0},
    {"50 MB on stderr, then exit 3", "head -c 50000000 /dev/zero | tr '\\0' y >&2; echo >&2; echo 'the real error' >&2; exit 3\n", NULL, NULL, "correct",
     "fail", "CUDA error (exit 3): the real error", 0},
    {"no output at all", "exit 0\n", NULL, NULL, "correct", "fail", "no result line for this case", 0},
    {"partial output", "emit n10\n", NULL, NULL, "correct", "partial", "1/2 cases correct; n20: no result line for this case", 0},
    {"result for the wrong case", "emit n99\n", NULL, NULL, "correct", "fail", "no result line for this case", 0},
    {"the wrong n", EMIT_ALL("N=11") , NULL, NULL, "correct", "fail", "result has n=11, the case has n=10", 0},
    {"the wrong variant", EMIT_ALL("V=other"), NULL, NULL, "correct", "fail", "result is for variant 'other', not 'v'", 0},
    {"the wrong seed", EMIT_ALL("S=4242"), NULL, NULL, "correct", "fail", "result has seed 4242", 0},
    /* a duel that the student's runner ends is the student's failure, never "reference broken" */
    {"CUDA error in a perf duel", "echo 'scan.cu:9: CUDA error cudaErrorIllegalAddress' >&2; exit 3\n", NULL, NULL, "perf", "fail",
     "not timed: no result: CUDA error (exit 3): scan.cu:9", 0},
    {"NaN time", EMIT_ALL("MS=nan"), NULL, NULL, "perf", "fail", "median_ms=nan is not a finite positive time", 0},
    {"infinite time", EMIT_ALL("MS=inf"), NULL, NULL, "perf", "fail", "median_ms=inf is not a finite positive time", 0},
    {"negative time", EMIT_ALL("MS=-0.5"), NULL, NULL, "perf", "fail", "median_ms=-0.5 is not a finite positive time", 0},
    {"wrong answers", EMIT_ALL("OK=0 MM=3 FB=4"), NULL, NULL, "correct", "fail", "wrong: 3 of 10 outputs differ, first at index 4", 0},
    {"right on the last rep, wrong on an earlier one", EMIT_ALL("R=20 OK=0 BR=1 MM=5 FB=4 FX=4 FY=0 ME=0.25 NF=2 MK=1200"), NULL, NULL,
     "correct", "fail",
     "n10: wrong in 1 of 20 timed reps; first wrong rep: 5 pixels differ, first at index 4 (pixel 4,0), max error 0.25, 2 not finite, 1200 masked", 0},
    {"an earlier wrong rep gets no perf points", EMIT_ALL("R=20 OK=0 BR=3 MM=1 FB=7"), NULL, NULL, "perf", "fail",
     "not timed: wrong in 3 of 20 timed reps; first wrong rep: 1 of 10 outputs differ, first at index 7", 0},
    {"only the last rep verified", EMIT_ALL("R=20 VF=1"), NULL, NULL, "correct", "fail", "only 1 of 20 timed reps were verified", 0},
    {"only the last rep verified, perf", EMIT_ALL("R=20 VF=1"), NULL, NULL, "perf", "fail", "not timed: only 1 of 20 timed reps were verified", 0},
    {"wrong on one seed of three (repeat)", "for c in $cases; do if [ $seed = 101 ]; then OK=0 MM=2 FB=1 emit $c; else emit $c; fi; done\n", NULL,
     "echo 'SCANLAB_SEED=100; export SCANLAB_SEED' > race.env; sed -i '/^cases = n10, n20$/a repeat = 3' assignments/99-fake/grade.conf",
     "correct", "fail", "0/2 cases correct in all 3 runs; n10: run 2 of 3 (seed 101): wrong: 2 of 10 outputs differ", 0},
    {"slower than the copy baseline", EMIT_ALL("MS=2.5"), NULL, NULL, "perf-copy", "partial", "2.5000 ms vs copy_d2d 0.5000 ms = 5.00x", 0},
    {"baseline: another variant of the reference", NULL, NULL, "sed -i 's/^baseline = copy_d2d$/baseline = v2/' assignments/99-fake/grade.conf",
     "perf-copy", "pass", "vs reference v2 1.0000 ms", 0},
    {"baseline the reference does not have", NULL, NULL, "sed -i 's/^baseline = copy_d2d$/baseline = nosuch/' assignments/99-fake/grade.conf",
     "perf-copy", "error", "not scored: baseline 'nosuch' is not a variant or baseline of the reference", 4},
    {"copy baseline must still report its cases", NULL, "[ \"$variant\" = copy_d2d ] && exit 0\n" GOOD, "touch 99-fake.copy-broken", "perf-copy", "error",
     "reference broken: ", 4},
    {"an unchecked result is not accepted from the reference", NULL, EMIT_ALL("CHK=0 VF=0"), NULL, "correct", "error",
     "reference broken on case n10: result was not checked", 4},
    /* every perf run of the reference is made with --check, as the student's are
     * (the same idle gaps between reps on both sides); a run without it would
     * report 0.5 ms here and make the check partial */
    {"the reference's perf runs are all checked", NULL,
     "if [ -n \"${checkflag:-}\" ]; then " GOOD "else for c in $cases; do MS=0.5 CHK=0 VF=0 emit $c; done; fi\n", NULL,
     "perf", "pass", "vs reference 1.0000 ms", 0},
    {"reference is another assignment's runner", NULL, NULL, "sed -i 's/^NAME=99-fake$/NAME=98-other/' assignments/99-fake/ref/reference",
     "correct", "error", "its --list does not start with 'assignment 99-fake'", 4},
    {"wrong answers get no perf points", EMIT_ALL("OK=0 MM=3 FB=4 MS=0.001"), NULL, NULL, "perf", "fail", "not timed: wrong: 3 of 10", 0},
    {"output not checked", EMIT_ALL("CHK=0"), NULL, NULL, "correct", "fail", "not checked against the CPU reference", 0},
    {"binary garbage on the result channel", "head -c 4000 /dev/urandom >&3\n", NULL, NULL, "correct", "fail", "garbage on the result channel", 0},
    /* a NUL first: the text ends before any line, yet the channel is garbage (random bytes start so once in 256) */
    {"a NUL byte first on the result channel", "printf '\\000result case=n10\\n' >&3\n", NULL, NULL, "correct", "fail",
     "garbage on the result channel (a NUL byte)", 0},
    {"two results for one case", GOOD EMIT_ALL("OK=0 MM=1 FB=0"), NULL, NULL, "correct", "fail", "more than one result line for this case", 0},
    {"bad arguments", "echo 'harness: --case: unknown case' >&2; exit 2\n", NULL, NULL, "correct", "fail", "bad arguments (exit 2)", 0},
    {"slower than the reference", EMIT_ALL("MS=2.2"), NULL, NULL, "perf", "partial", "2.20x", 0},
    /* a sample under the floor: no right call is that fast, so no points */
    {"faster than the memory system allows", EMIT_ALL("R=5 TF=2 FL=0.5 MS=0.3"), NULL, NULL, "perf", "fail",
     "faster than the memory system allows: the timing is not trusted (2 of 5 samples under 0.5000 ms", 0},
    /* the reference itself under the floor: grade.conf's floor is too high for this GPU */
    {"the reference under the floor", NULL, EMIT_ALL("R=5 TF=1 FL=2"), NULL, "perf", "error",
     "the reference ran under the floor in 1 of 5 samples", 4},
    {"sanitizer reports a race", NULL, NULL, "echo 'FAKE_RACE=1; export FAKE_RACE' > race.env", "race", "fail",
     "racecheck reports: Error: Race reported", 0},
    {"ncu metric above its bound", NULL, NULL, "echo 'FAKE_NCU_VALUE=\"5,000\"; export FAKE_NCU_VALUE' > race.env", "banks", "fail",
     "ncu: 10000, want at most 3000 (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum + 1 more)", 0},
    {"ncu may not read the counters", NULL, NULL, "echo 'FAKE_NCU_PERM=1; export FAKE_NCU_PERM' > race.env", "banks", "ungraded",
     "ungraded: ncu cannot read the GPU counters", 0},
    /* broken builds and binaries */
    /* the student's build (the grader's own, build.h; more in faults_build.c) */
    {"student file missing", NULL, NULL, "rm starter/99-fake/scan.cu", "correct", "fail",
     "missing file scan.cu: starter/99-fake has no scan.cu, the file the handout names", 0},
    {"student file does not compile", NULL, NULL, "echo FAKE_COMPILE_ERROR >> starter/99-fake/scan.cu", "ptx", "fail",
     "does not compile: starter/99-fake/scan.cu(12): error: identifier \"tid\" is undefined", 0},
    {"student file does not link", NULL, NULL, "echo FAKE_LINK_ERROR >> starter/99-fake/scan.cu", "perf", "fail",
     "does not link: scan.cu:(.text+0x1): undefined reference to `course_helper'", 0},
    /* the build inspected the student's object and refused it (grader/inspect/inspect-student.sh): its reason, not "does not compile" */
    {"student build refused", NULL, NULL, "echo FAKE_USES_CUB >> starter/99-fake/scan.cu", "correct", "fail",
     "refused: scan.cu uses CUB (it includes cub/device/device_scan.cuh)", 0},
    /* a broken reference: never scored against */
    {"reference missing", NULL, NULL, "rm assignments/99-fake/ref/reference", "correct", "error", "reference binary", 4},
    {"reference corrupt", NULL, NULL, "head -c 3000 /dev/urandom > assignments/99-fake/ref/reference", "perf", "error",
     "reference binary does not start", 4},
    {"reference exits nonzero", NULL, "echo 'reference: CUDA error' >&2; exit 3\n", NULL, "correct", "error", "reference broken", 4},
    {"reference reports ok=0", NULL, EMIT_ALL("OK=0 MM=1 FB=0"), NULL, "perf", "error", "reference broken on case n10: wrong", 4},
    {"reference hangs", NULL, "sleep 600\n", NULL, "correct", "error", "reference broken: exit 4: stand-in judge: the --versus runner (the reference) failed: no answer within", 4},
};
#define N_FAULTS (int)(sizeof FAULTS / sizeof *FAULTS)

START_TEST(test_fault) {
  const fault *f = &FAULTS[_i];
  char *root = make_course(f->student, f->reference, 2);
  char setup[1400];
  if (f->setup) {
    snprintf(setup, sizeof setup, "cd '%s' && %s", root, f->setup);
    ck_assert_int_eq(run_shell(setup), 0);
  }
  double secs;
  int rc = grade(root, "[ -f race.env ] && . ./race.env;", &secs);
  ck_assert_msg(rc == f->exit_code, "%s: grader exited %d, want %d", f->name, rc, f->exit_code);
  ck_assert_msg(secs < 60, "%s: grading took %.0f s", f->name, secs);
  json_t *j = latest(root);
  expect(j, "99-fake", f->check, f->verdict, f->reason, f->name);
  bystander_graded(j, f->name);
  /* However much the student printed, the report stays small. */
  char path[600];
  snprintf(path, sizeof path, "%s/grade-results/latest/results.json", root);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_msg(st.st_size < 1000000, "%s: results.json is %ld bytes", f->name, (long)st.st_size);
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

/* ---------------------------------------------------------------- faults of the grader's own inputs and outputs */

static const struct {
  const char *name, *edit, *reason;
} CONF_FAULTS[] = {
    {"grade.conf missing", "rm assignments/99-fake/grade.conf", "grade.conf: cannot open: No such file or directory"},
    {"grade.conf malformed", "printf 'this line is not ini\\n' >> assignments/99-fake/grade.conf", "grade.conf:53: syntax error"},
    {"grade.conf unknown key", "sed -i 's/^full_ratio = 1.1$/fullratio = 1.1/' assignments/99-fake/grade.conf", "grade.conf:18: unknown key 'fullratio' in [perf]"},
    {"grade.conf duplicate section", "sed -i 's/^\\[race\\]$/[ptx]/' assignments/99-fake/grade.conf", "grade.conf:29: duplicate section [ptx] (first at line 22)"},
    {"grade.conf negative points", "sed -i '0,/^points = 10$/s//points = -10/' assignments/99-fake/grade.conf", "grade.conf:12: points: -10 is negative"},
    {"grade.conf missing points", "sed -i '/^points = 5$/d' assignments/99-fake/grade.conf", "grade.conf:22: [ptx]: missing key 'points'"},
    {"grade.conf requires a later check", "sed -i '/^\\[correct\\]$/a requires = race' assignments/99-fake/grade.conf",
     "grade.conf:9: requires: 'race' is not a check above [correct]"},
    {"grade.conf without the student's file", "sed -i '/^student = /d' assignments/99-fake/grade.conf",
     "grade.conf:1: [assignment]: missing key 'student'"},
};
#define N_CONF_FAULTS (int)(sizeof CONF_FAULTS / sizeof *CONF_FAULTS)

START_TEST(test_conf_fault) {
  char *root = make_course(NULL, NULL, 2);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s", root, CONF_FAULTS[_i].edit);
  ck_assert_int_eq(run_shell(cmd), 0);
  ck_assert_int_eq(grade(root, NULL, NULL), 2);
  json_t *j = latest(root);
  /* The test entry is named "99-fake: grade.conf" and carries the error. */
  size_t i;
  json_t *e;
  int found = 0;
  json_array_foreach(json_object_get(j, "tests"), i, e) {
    const char *name = json_string_value(json_object_get(e, "name"));
    const char *out = json_string_value(json_object_get(e, "output"));
    if (name && !strcmp(name, "99-fake: grade.conf")) {
      found = 1;
      ck_assert_msg(out && strstr(out, CONF_FAULTS[_i].reason), "%s: output '%s' lacks '%s'", CONF_FAULTS[_i].name, out, CONF_FAULTS[_i].reason);
    }
  }
  ck_assert(found);
  bystander_graded(j, CONF_FAULTS[_i].name);
  /* The error is also on stderr, with the file and line. */
  snprintf(cmd, sizeof cmd, "%s/grade.log", root);
  char *log = read_text(cmd);
  ck_assert_msg(strstr(log, CONF_FAULTS[_i].reason), "%s: log lacks '%s':\n%s", CONF_FAULTS[_i].name, CONF_FAULTS[_i].reason, log);
  free(log);
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

static int count_runs(const char *root) {
  char cmd[700];
  snprintf(cmd, sizeof cmd, "test $(ls '%s/grade-results' | grep -v '^latest$' | wc -l) -eq", root);
  for (int n = 0; n < 10; n++) {
    char full[800];
    snprintf(full, sizeof full, "%s %d", cmd, n);
    if (run_shell(full) == 0) return n;
  }
  return -1;
}

START_TEST(test_results_not_writable) {
  char *root = make_course(NULL, NULL, 2);
  ck_assert_int_eq(grade(root, NULL, NULL), 0); /* a previous, good run */
  json_t *before = latest(root);
  char cmd[1200];
  /* grade-results/ replaced by a plain file: nothing can be created in it, even as root. */
  snprintf(cmd, sizeof cmd, "cd '%s' && mv grade-results kept && touch grade-results", root);
  ck_assert_int_eq(run_shell(cmd), 0);
  ck_assert_int_eq(grade(root, NULL, NULL), 5);
  snprintf(cmd, sizeof cmd, "grep -q 'results not saved: cannot create ./grade-results/.tmp-' '%s/grade.log'", root);
  ck_assert_msg(run_shell(cmd) == 0, "no clear error for an unwritable grade-results");
  snprintf(cmd, sizeof cmd, "cd '%s' && rm grade-results && mv kept grade-results", root);
  ck_assert_int_eq(run_shell(cmd), 0);
  json_t *after = latest(root); /* the previous results are intact */
  ck_assert(json_equal(before, after));
  json_decref(before);
  json_decref(after);
  remove_dir(root);
  free(root);
}
END_TEST

START_TEST(test_disk_full) {
  char *root = make_course(NULL, NULL, 2);
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  json_t *before = latest(root);
  /* Files may not grow past 1 KiB: writes fail with EFBIG, as on a full disk. */
  ck_assert_int_eq(grade(root, "trap '' XFSZ; ulimit -f 2;", NULL), 5);
  char cmd[800];
  snprintf(cmd, sizeof cmd, "grep -q 'results not saved: cannot write .*File too large. Previous results' '%s/grade.log'", root);
  ck_assert_msg(run_shell(cmd) == 0, "no clear error for a full disk");
  json_t *after = latest(root);
  ck_assert(json_equal(before, after));
  ck_assert_int_eq(count_runs(root), 1); /* no half-written run left behind */
  snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s/grade-results' | grep '^\\.tmp')\"", root);
  ck_assert_int_eq(run_shell(cmd), 0);
  json_decref(before);
  json_decref(after);
  remove_dir(root);
  free(root);
}
END_TEST

/* SIGINT to the grader alone (not its group): with --jobs 3 the grader passes
 * it on to the children running checks. */
START_TEST(test_interrupted) {
  char *root = make_course("sleep 600\n", NULL, 30);
  char cmd[1600];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && { '%s' --root . --cuda ./cuda --jobs %d > grade.log 2>&1 & pid=$!; sleep 3; kill -INT $pid; wait $pid; echo $? > rc; }",
           root, grader, _i ? 3 : 1);
  time_t t0 = time(NULL);
  run_shell(cmd);
  ck_assert_int_le(time(NULL) - t0, 10);
  snprintf(cmd, sizeof cmd, "%s/rc", root);
  char *rc = read_text(cmd);
  ck_assert_int_eq(atoi(rc), 130);
  free(rc);
  json_t *j = latest(root);
  ck_assert(json_is_true(json_object_get(json_object_get(j, "extra_data"), "incomplete")));
  expect(j, "99-fake", "correct", "skipped", "interrupted", "Ctrl-C");
  /* one at a time, race had not started; side by side it may have been running */
  expect(j, "99-fake", "race", "skipped", _i ? "grading was interrupted" : "not run: grading was interrupted", "Ctrl-C");
  if (!_i) {
    bystander_graded(j, "Ctrl-C"); /* finished before the interrupt: kept */
  } else { /* side by side, the bystander's checks that need no GPU alone were done; its perf checks, due last, were not */
    static const char *const DONE[] = {"correct", "ptx", "race"};
    for (int k = 0; k < 3; k++) expect(j, "98-other", DONE[k], "pass", "", "Ctrl-C");
    expect(j, "98-other", "perf", "skipped", "not run: grading was interrupted", "Ctrl-C");
  }
  const char *out = json_string_value(json_object_get(j, "output"));
  ck_assert(strstr(out, "INCOMPLETE"));
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

START_TEST(test_concurrent_runs) {
  char *root = make_course(NULL, NULL, 2);
  char cmd[1600];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && { '%s' --root . --cuda ./cuda > a.log 2>&1 & a=$!; '%s' --root . --cuda ./cuda > b.log 2>&1 & b=$!; "
           "wait $a; ra=$?; wait $b; rb=$?; test $ra -eq 0 -a $rb -eq 0; }",
           root, grader, grader);
  ck_assert_int_eq(run_shell(cmd), 0);
  ck_assert_int_eq(count_runs(root), 2);
  snprintf(cmd, sizeof cmd, "cd '%s/grade-results' && for d in $(ls | grep -v '^latest$'); do test -s $d/results.json || exit 1; done", root);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(cmd, sizeof cmd, "cd '%s/grade-results' && for d in $(ls | grep -v '^latest$'); do echo $d; done > ../dirs", root);
  run_shell(cmd);
  snprintf(cmd, sizeof cmd, "%s/dirs", root);
  char *dirs = read_text(cmd);
  char *save = NULL;
  for (char *d = strtok_r(dirs, "\n", &save); d; d = strtok_r(NULL, "\n", &save)) {
    char path[800];
    snprintf(path, sizeof path, "%s/grade-results/%s/results.json", root, d);
    json_decref(load_json(path));
  }
  free(dirs);
  json_decref(latest(root));
  remove_dir(root);
  free(root);
}
END_TEST

START_TEST(test_no_sanitizer) {
  char *root = make_course(NULL, NULL, 2);
  char cmd[800];
  snprintf(cmd, sizeof cmd, "rm '%s/cuda/bin/compute-sanitizer'", root);
  run_shell(cmd);
  ck_assert_int_eq(grade(root, "export CUDA_HOME=/nonexistent;", NULL), 0);
  json_t *j = latest(root);
  expect(j, "99-fake", "race", "ungraded", "compute-sanitizer not found", "no compute-sanitizer");
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

START_TEST(test_no_gpu_mode) {
  char *root = make_course(NULL, NULL, 2);
  ck_assert_int_eq(grade(root, "export SCANLAB_NO_GPU=1;", NULL), 3);
  json_t *j = latest(root);
  expect(j, "99-fake", "correct", "ungraded", "ungraded: no GPU", "no GPU");
  expect(j, "99-fake", "perf", "ungraded", "ungraded: no GPU", "no GPU");
  expect(j, "99-fake", "race", "ungraded", "ungraded: no GPU", "no GPU");
  expect(j, "99-fake", "ptx", "pass", "1 matching PTX lines", "no GPU"); /* needs no GPU: still graded */
  expect(j, "99-fake", "banks", "ungraded", "ungraded: no GPU", "no GPU");
  ck_assert_double_eq(json_number_value(json_object_get(j, "score")), 10); /* the two ptx checks only */
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

/* A failed case's images, saved by the student's runner into the folder the
 * grader names with --save-failed, land in the results folder and are named
 * in report.md and results.json; a check that saved nothing leaves no folder. */
START_TEST(test_saved_images) {
  char *root = make_course("for c in $cases; do OK=0 MM=1 FB=0 emit $c; "
                           "for e in student.png expected.png diff.png student.ppm; do echo img > \"$dir/$c.$e\"; done; done\n",
                           NULL, 2);
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  static const char *const FILES[] = {"n10.diff.png", "n10.expected.png", "n10.student.png", "n10.student.ppm", "n20.student.png"};
  char path[900], rel[200];
  snprintf(path, sizeof path, "%s/grade-results/latest/report.md", root);
  char *md = read_text(path);
  ck_assert(md != NULL);
  json_t *j = latest(root);
  json_t *t = find_test(j, "99-fake", "correct");
  const char *out = json_string_value(json_object_get(t, "output"));
  json_t *files = json_object_get(json_object_get(t, "extra_data"), "files");
  ck_assert_int_eq(json_array_size(files), 8);
  for (int i = 0; i < 5; i++) {
    snprintf(rel, sizeof rel, "images/99-fake/correct/%s", FILES[i]);
    snprintf(path, sizeof path, "%s/grade-results/latest/%s", root, rel);
    ck_assert_msg(access(path, R_OK) == 0, "%s was not kept in the results folder", rel);
    ck_assert_msg(strstr(out, rel), "results.json's output does not name %s:\n%s", rel, out);
    char link[500];
    snprintf(link, sizeof link, "](%s)", rel);
    ck_assert_msg(strstr(md, link), "report.md does not link %s", rel);
  }
  snprintf(path, sizeof path, "%s/grade-results/latest/images/98-other", root);
  ck_assert_msg(access(path, F_OK) != 0, "an empty image folder was left for a check that passed");
  free(md);
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

/* --jobs outside [1, 16], or not a number: exit 2 and a line that says so. */
START_TEST(test_bad_jobs) {
  static const char *const BAD[] = {"0", "17", "x", "3x", "-1"};
  char cmd[1400];
  for (int i = 0; i < 5; i++) {
    snprintf(cmd, sizeof cmd, "'%s' --root /nonexistent --jobs %s 2>&1 | grep -qF -- \"grade: --jobs: '%s' is not a count of checks in [1, 16]\"; "
             "'%s' --root /nonexistent --jobs %s > /dev/null 2>&1; test $? -eq 2", grader, BAD[i], BAD[i], grader, BAD[i]);
    ck_assert_msg(run_shell(cmd) == 0, "--jobs %s: no exit 2 with its reason", BAD[i]);
  }
}
END_TEST

/* One assignment named twice ("99 99", "99-fake 99") is refused with one line and exit 2, before
 * anything is graded (it was graded twice, with two rows each). */
START_TEST(test_assignment_named_twice) {
  char *root = make_course(NULL, NULL, 5), cmd[1400], path[600];
  static const char *const TWICE[] = {"99 99", "99-fake 99", "98 99 99-fake"};
  for (int i = 0; i < 3; i++) {
    snprintf(cmd, sizeof cmd, "cd '%s' && rm -rf grade-results && '%s' --root . --cuda ./cuda %s > grade.log 2>&1; test $? -eq 2", root,
             grader, TWICE[i]);
    ck_assert_msg(run_shell(cmd) == 0, "grade %s: not exit 2", TWICE[i]);
    snprintf(path, sizeof path, "%s/grade.log", root);
    char *log = read_text(path);
    ck_assert_msg(log && strstr(log, "names 99-fake, which an earlier argument names already") && !strstr(log, "grading"),
                  "grade %s: no one-line refusal before grading:\n%s", TWICE[i], log);
    free(log);
    snprintf(path, sizeof path, "%s/grade-results", root);
    ck_assert_msg(access(path, F_OK) != 0, "grade %s: a results folder was written", TWICE[i]);
  }
  remove_dir(root);
  free(root);
}
END_TEST

/* SCANLAB_JUDGE_PROFILE set for the grader: each judge run's profile lines
 * are in its check's story (results.json's output, report.md); without it, none. */
START_TEST(test_profile_in_story) {
  char *root = make_course(NULL, NULL, 5);
  ck_assert_int_eq(grade(root, "export SCANLAB_JUDGE_PROFILE=1;", NULL), 0);
  json_t *j = latest(root);
  static const char *const CHECKS[] = {"correct", "perf", "race", "banks"};
  for (int i = 0; i < 4; i++) {
    const char *out = json_string_value(json_object_get(find_test(j, "99-fake", CHECKS[i]), "output"));
    ck_assert_msg(out && strstr(out, "  stand-in judge: profile case=n10 start=0.1"), "%s: no profile line in: %s", CHECKS[i], out);
  }
  json_decref(j);
  ck_assert_int_eq(grade(root, NULL, NULL), 0);
  j = latest(root);
  const char *out = json_string_value(json_object_get(find_test(j, "99-fake", "correct"), "output"));
  ck_assert_msg(out && !strstr(out, "profile"), "a profile line without SCANLAB_JUDGE_PROFILE: %s", out);
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

/* A check's child process of the grader that dies (here killed while its
 * judge runs) is an error row that says so; the other checks, and the other
 * assignment, are graded as usual. */
START_TEST(test_schedule_child_dies) {
  char *root = make_course(NULL, NULL, 5);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "cd '%s' && KILL_CHECK_PARENT=1 timeout 300 '%s' --root . --cuda ./cuda --jobs 3 > grade.log 2>&1",
           root, grader);
  ck_assert_int_eq(run_shell(cmd), 4); /* an error row: exit 4, as for a broken reference */
  json_t *j = latest(root);
  expect(j, "99-fake", "correct", "error", "the grader's process for this check died of signal 9", "a check's process killed");
  static const char *const OTHERS[] = {"perf", "ptx", "race", "banks", "perf-copy"};
  for (int i = 0; i < 5; i++) expect(j, "99-fake", OTHERS[i], "pass", "", "a check's process killed");
  bystander_graded(j, "a check's process killed");
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

/* The schedule (schedule.h): with --jobs 3 the checks that only need the GPU
 * to be right run side by side, a perf or metric check runs with nothing else
 * beside it, and the verdicts are those of a run one check at a time. The
 * stand-in judge logs when each of its runs starts and ends; a perf duel has
 * --versus without the --batch 1 of a correct check's duel, a metric run goes
 * through ncu. */
static void schedule_log(const char *root, const char *jobs, int *alone_overlaps, int *side_by_side) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && rm -f sched.log && SCHED_LOG=\"$PWD/sched.log\" timeout 300 '%s' --root . --cuda ./cuda --jobs %s > grade.log 2>&1; "
           "awk '{s[NR] = $1; e[NR] = $2; a[NR] = ($0 ~ /--versus/ && $0 !~ /--batch 1/) || $0 ~ /\\/ncu/}\n"
           "  END {for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (s[i] < e[j] && s[j] < e[i]) {if (a[i] || a[j]) bad++; else par++}\n"
           "       printf \"%%d %%d %%d\\n\", bad, par, NR}' sched.log > sched.out",
           root, grader, jobs);
  ck_assert_int_eq(run_shell(cmd), 0);
  char path[600];
  snprintf(path, sizeof path, "%s/sched.out", root);
  char *out = read_text(path);
  int runs = 0;
  ck_assert_msg(out && sscanf(out, "%d %d %d", alone_overlaps, side_by_side, &runs) == 3, "no schedule log: %s", out ? out : "");
  ck_assert_msg(runs >= 12, "--jobs %s: only %d judge runs logged", jobs, runs);
  free(out);
}

START_TEST(test_schedule) {
  char *root = make_course(NULL, NULL, 5);
  int bad, par;
  schedule_log(root, "3", &bad, &par);
  ck_assert_msg(bad == 0, "--jobs 3: %d perf or metric runs had another run beside them", bad);
  ck_assert_msg(par > 0, "--jobs 3: no two checks ran side by side");
  json_t *j = latest(root);
  bystander_graded(j, "--jobs 3");
  static const char *const CHECKS[] = {"correct", "perf", "ptx", "race", "banks", "perf-copy"};
  for (int i = 0; i < 6; i++) expect(j, "99-fake", CHECKS[i], "pass", "", "--jobs 3");
  json_decref(j);
  char cmd[1200]; /* the table is in the grade.conf's order whatever the schedule */
  snprintf(cmd, sizeof cmd, "cd '%s' && grep -o '\\] [a-z-]*' grade.log | tr -d '] ' | tr '\\n' ' ' | "
           "grep -qx 'correct perf ptx race banks perf-copy correct perf ptx race banks perf-copy '", root);
  ck_assert_msg(run_shell(cmd) == 0, "--jobs 3: the table's rows are out of order");
  schedule_log(root, "1", &bad, &par);
  ck_assert_msg(bad == 0 && par == 0, "--jobs 1: %d runs overlapped", bad + par);
  remove_dir(root);
  free(root);
}
END_TEST

/* Points only for the student's own work: a racecheck is not even run when
 * the check it requires failed, and says why not. With a right student it
 * counts as usual. */
START_TEST(test_requires) {
  for (int right = 0; right < 2; right++) {
    char *root = make_course(right ? GOOD : "for c in $cases; do OK=0 MM=3 FB=4 emit $c; done\n", NULL, 2), cmd[1200];
    snprintf(cmd, sizeof cmd, "cd '%s' && sed -i '/^\\[race\\]$/a requires = correct' assignments/99-fake/grade.conf", root);
    ck_assert_int_eq(run_shell(cmd), 0);
    grade(root, NULL, NULL);
    json_t *j = latest(root);
    if (right) expect(j, "99-fake", "race", "pass", "racecheck clean", "requires, right student");
    else {
      expect(j, "99-fake", "race", "fail", "not scored: needs correct to pass first (correct: fail)", "requires");
      const char *out = json_string_value(json_object_get(find_test(j, "99-fake", "race"), "output"));
      ck_assert_msg(out && strstr(out, "was not run"), "requires: the check ran anyway (output: %s)", out);
    }
    json_decref(j);
    remove_dir(root);
    free(root);
  }
}
END_TEST

/* forbid = cub: a student file that includes CUB scores 0 everywhere, and the
 * reason names the file and line. */
START_TEST(test_forbidden_library) {
  char *root = make_course(GOOD, NULL, 2), cmd[1200];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && sed -i '/^timeout = /a forbid = cub' assignments/99-fake/grade.conf && mkdir -p starter/99-fake && "
           "printf '// my scan\\n#include <cub/device/device_scan.cuh>\\n' > starter/99-fake/scan.cu",
           root);
  ck_assert_int_eq(run_shell(cmd), 0);
  grade(root, NULL, NULL);
  json_t *j = latest(root);
  static const char *const CHECKS[] = {"correct", "perf", "ptx", "race"};
  for (int i = 0; i < 4; i++)
    expect(j, "99-fake", CHECKS[i], "fail", "not scored: starter/99-fake/scan.cu:2 uses cub", "forbidden library");
  json_decref(j);
  remove_dir(root);
  free(root);
}
END_TEST

/* --expect with a GPU: an untouched starter may earn at most 10% of the points.
 * A fake "starter" that gets everything right must be reported. */
START_TEST(test_starter_max) {
  char *root = make_course(GOOD, NULL, 2), cmd[2048], path[600];
  snprintf(cmd, sizeof cmd, "cd '%s' && timeout 300 '%s' --root . --cuda ./cuda --expect 99-fake > expect.log 2>&1", root,
           grader);
  ck_assert_int_eq(run_shell(cmd), 6);
  snprintf(path, sizeof path, "%s/expect.log", root);
  char *log = read_text(path);
  ck_assert_msg(log && strstr(log, "EXPECT 99-fake: the untouched starter scores"), "%s", log);
  free(log);
  remove_dir(root);
  free(root);
}
END_TEST

int main(void) {
  if (!realpath("build/grader/grade", grader)) {
    fprintf(stderr, "faults: run from the repository root after building build/grader/grade\n");
    return 2;
  }
  Suite *s = suite_create("faults");
  TCase *t = tcase_create("student");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_fault, 0, N_FAULTS);
  suite_add_tcase(s, t);
  t = tcase_create("grader");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_conf_fault, 0, N_CONF_FAULTS);
  tcase_add_test(t, test_results_not_writable);
  tcase_add_test(t, test_disk_full);
  tcase_add_loop_test(t, test_interrupted, 0, 2);
  tcase_add_test(t, test_concurrent_runs);
  tcase_add_test(t, test_no_sanitizer);
  tcase_add_test(t, test_no_gpu_mode);
  tcase_add_test(t, test_saved_images);
  tcase_add_test(t, test_requires);
  tcase_add_test(t, test_schedule);
  tcase_add_test(t, test_schedule_child_dies);
  tcase_add_test(t, test_profile_in_story);
  tcase_add_test(t, test_bad_jobs);
  tcase_add_test(t, test_assignment_named_twice);
  tcase_add_test(t, test_starter_max);
  tcase_add_test(t, test_forbidden_library);
  suite_add_tcase(s, t);
  suite_add_tcase(s, faults_build_tcase());
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  int covered = N_FAULTS + N_CONF_FAULTS + 9;
  printf("fault-injection suite: %d faults covered (%d student/reference, %d grade.conf, 9 grader I/O and modes), and the schedule; %s\n", covered,
         N_FAULTS, N_CONF_FAULTS, failed ? "SOME NOT CAUGHT" : "every one caught with its reason");
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
