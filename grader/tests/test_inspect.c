/* test_inspect.c: grader/inspect/inspect-student.sh on the objects of grader/tests/inspect/, compiled as the runner's build compiles a student's file. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "tests.h"

/* The fixtures' folder: the one folder their files may include from. */
#define FX "grader/tests/inspect"

/* The objects: a fixture compiled as the build compiles a student's file whose
 * grade.conf says link = inline (-rdc=true), or link = object (-O3, whole-program
 * device code: optimized host code, the fat binary in .nv_fatbin), from the
 * repository root; folders are the FOLDERs the script gets for it (where the
 * build's include path points). Slowest first, so that the parallel compile ends
 * sooner. The course's starter (src NULL) is filled in by pick_course_starter. */
static struct {
  const char *obj, *src, *flags, *folders;
} FIXTURES[] = {
    {"cub_direct", FX "/cub_direct.cu", "-rdc=true", FX},
    {"thrust_alias", FX "/thrust_alias.cu", "-rdc=true", FX},
    {"cub_macro", FX "/cub_macro.cu", "-rdc=true", FX},
    {"libcudacxx", FX "/libcudacxx.cu", "-rdc=true", FX},
    /* a starter of the course as the build compiles it (pick_course_starter) */
    {"course_starter", NULL, NULL, NULL},
    {"clean", FX "/clean.cu", "-rdc=true", FX},
    {"iostream", FX "/iostream.cu", "-rdc=true", FX},
    {"ctor_attribute", FX "/ctor_attribute.cu", "-rdc=true", FX},
    {"ctor_global", FX "/ctor_global.cu", "-rdc=true", FX},
    {"dtor_attribute", FX "/dtor_attribute.cu", "-rdc=true", FX},
    {"device_ns", FX "/device_ns.cu", "-rdc=true", FX},
    {"course_include", FX "/course_include.cu", "-O3", FX},
    {"course_symbol", FX "/course_symbol.cu", "-O3", FX},
    {"clean_O3", FX "/clean.cu", "-O3", FX},
    {"iostream_O3", FX "/iostream.cu", "-O3", FX},
    {"ctor_global_O3", FX "/ctor_global.cu", "-O3", FX},
    {"kernel_only", FX "/kernel_only.cu", "-O3", FX},
    /* the link (issue 39): library symbols defined, a syscall instruction, calls outside the list, a global outside the interface */
    {"interpose_rw", FX "/interpose_rw.cu", "-rdc=true", FX},
    {"syscall_asm", FX "/syscall_asm.cu", "-O3", FX},
    {"syscall_asm_rdc", FX "/syscall_asm.cu", "-rdc=true", FX},
    {"calls_dlsym", FX "/calls_dlsym.cu", "-rdc=true", FX},
    {"calls_mprotect", FX "/calls_mprotect.cu", "-O3", FX},
    {"non_interface", FX "/non_interface.cu", "-rdc=true", FX},
    {"non_interface_O3", FX "/non_interface.cu", "-O3", FX},
#define IMPOSTOR(name) {"c_" #name, FX "/impostor.cu", "-O3 -DFX_C -DFX_NAME=" #name, FX}, \
                       {"cxx_" #name, FX "/impostor.cu", "-rdc=true -DFX_NAME=" #name, FX},
    IMPOSTOR(syscall) IMPOSTOR(read) IMPOSTOR(write) IMPOSTOR(prctl) IMPOSTOR(open) IMPOSTOR(mmap) IMPOSTOR(memcpy)
    IMPOSTOR(cudaMalloc) IMPOSTOR(runner_cuda_main)
#undef IMPOSTOR
};
#define N_FIXTURES (sizeof FIXTURES / sizeof *FIXTURES)

static size_t fixture_index(const char *obj) {
  for (size_t i = 0; i < N_FIXTURES; i++)
    if (!strcmp(FIXTURES[i].obj, obj)) return i;
  ck_abort_msg("no fixture %s in FIXTURES", obj);
  return 0;
}

static char *objs;           /* the temporary folder of NAME.o, NAME.d, NAME.log, NAME.rc */
static char repo[1024];      /* the tests run from the repository root */
static char bindir[1024];    /* NVCC's folder, where the script looks for cuobjdump */

/* Why pick_course_starter found no starter ("" when it did). */
static char course_pick_error[600];

/* The course_starter row: the first assignment (assignments/NN-name/grade.conf, in the
 * order glob gives) whose grade.conf says link = object, else the first one, and its
 * starter's file (grade.conf's student), with the flags and FOLDERs the build gives it. */
static void pick_course_starter(void) {
  static char src[600], flags[700], folders[600];
  static assignment_conf a;
  char nn[256] = "", err[600];
  int object = 0;
  glob_t g;
  course_pick_error[0] = 0;
  if (glob("assignments/*/grade.conf", 0, NULL, &g) != 0) {
    snprintf(course_pick_error, sizeof course_pick_error, "no assignments/*/grade.conf: run from the repository root");
    return;
  }
  for (size_t i = 0; i < g.gl_pathc && !object; i++) {
    if (conf_load(g.gl_pathv[i], &a, err, sizeof err)) {
      snprintf(course_pick_error, sizeof course_pick_error, "%s", err);
      break;
    }
    if (nn[0] && a.link != LINK_OBJECT) continue;
    const char *name = g.gl_pathv[i] + strlen("assignments/");
    snprintf(nn, sizeof nn, "%.*s", (int)(strchr(name, '/') - name), name);
    object = a.link == LINK_OBJECT;
    snprintf(src, sizeof src, "starter/%s/%s", nn, a.student);
  }
  globfree(&g);
  if (course_pick_error[0]) return;
  snprintf(flags, sizeof flags, "-O3%s -Iassignments/%s -Istarter/%s", object ? "" : " -rdc=true", nn, nn);
  snprintf(folders, sizeof folders, "assignments/%s starter/%s", nn, nn);
  size_t i = fixture_index("course_starter");
  FIXTURES[i].src = src, FIXTURES[i].flags = flags, FIXTURES[i].folders = folders;
}

static const char *nvcc(void) {
  const char *n = getenv("NVCC");
  return n && *n ? n : "/usr/local/cuda/bin/nvcc";
}

/* Compiles every fixture once for the whole case, as many at a time as there
 * are cores (the CUB and Thrust ones take most of the time); each one's exit
 * status goes to NAME.rc, which its tests check. */
static void compile_fixtures(void) {
  if (!getcwd(repo, sizeof repo)) repo[0] = 0;
  snprintf(bindir, sizeof bindir, "%s", nvcc());
  char *slash = strrchr(bindir, '/');
  if (slash) *slash = 0;
  else snprintf(bindir, sizeof bindir, ".");
  objs = make_temp_dir("inspect");
  pick_course_starter();
  char cmd[8192];
  /* one line per fixture: OBJ SRC FLAGS... */
  int len = snprintf(cmd, sizeof cmd, "printf '%%s\\n'");
  for (size_t i = 0; i < N_FIXTURES; i++)
    if (FIXTURES[i].src) /* the course's starter, when pick_course_starter found one */
      len += snprintf(cmd + len, sizeof cmd - (size_t)len, " '%s %s %s'", FIXTURES[i].obj, FIXTURES[i].src, FIXTURES[i].flags);
  snprintf(cmd + len, sizeof cmd - (size_t)len,
           " | INSPECT_NVCC='%s' INSPECT_DIR='%s' xargs -P \"$(nproc)\" -L1 sh -c '"
           "o=$1 s=$2; shift 2; \"$INSPECT_NVCC\" -c \"$@\" -std=c++17 -arch=sm_75 -MD -MF \"$INSPECT_DIR/$o.d\" -o \"$INSPECT_DIR/$o.o\" "
           "\"$s\" > \"$INSPECT_DIR/$o.log\" 2>&1; echo $? > \"$INSPECT_DIR/$o.rc\"' sh",
           nvcc(), objs);
  run_shell(cmd);
}

static void remove_fixtures(void) {
  remove_dir(objs);
  free(objs);
}

/* Asserts that fixture name compiled, with the compiler's output if not. */
static void need_fixture(const char *name) {
  char path[1200];
  ck_assert_msg(FIXTURES[fixture_index(name)].src, "no starter of the course to compile: %s", course_pick_error);
  snprintf(path, sizeof path, "%s/%s.rc", objs, name);
  char *rc = read_text(path);
  snprintf(path, sizeof path, "%s/%s.log", objs, name);
  char *log = read_text(path);
  ck_assert_msg(rc && atoi(rc) == 0, "%s -c: the object %s did not compile:\n%s", nvcc(), name, log ? log : "(no output)");
  free(rc);
  free(log);
}

typedef struct {
  int rc;
  char *out, *err;
} inspect_run;

/* Runs the script on OBJECT DEPFILE SOURCE_NAME BINDIR FOLDER... (shell words;
 * folders: the FOLDERs) from folder cwd, with an environment prefix env ("" for none). */
static inspect_run inspect_in(const char *cwd, const char *env, const char *obj, const char *dep, const char *src,
                              const char *bin, const char *folders) {
  char cmd[4096], path[1200];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s bash '%s/grader/inspect/inspect-student.sh' %s %s %s %s %s > '%s/out' 2> '%s/err'", cwd,
           env, repo, obj, dep, src, bin, folders, objs, objs);
  inspect_run r = {.rc = run_shell(cmd)};
  snprintf(path, sizeof path, "%s/out", objs);
  r.out = read_text(path);
  snprintf(path, sizeof path, "%s/err", objs);
  r.err = read_text(path);
  ck_assert(r.out && r.err);
  return r;
}

/* The script on fixture obj's object with fixture dep's depfile, cuobjdump from
 * bin, as the build runs it on obj: its source's name and its folders. */
static inspect_run inspect(const char *obj, const char *dep, const char *bin) {
  char o[1200], d[1200], b[1200];
  need_fixture(obj);
  need_fixture(dep);
  snprintf(o, sizeof o, "'%s/%s.o'", objs, obj);
  snprintf(d, sizeof d, "'%s/%s.d'", objs, dep);
  snprintf(b, sizeof b, "'%s'", bin);
  size_t i = fixture_index(obj);
  const char *src = strrchr(FIXTURES[i].src, '/') + 1;
  return inspect_in(repo, "", o, d, src, b, FIXTURES[i].folders);
}

static void run_free(inspect_run *r) {
  free(r->out);
  free(r->err);
}

static void expect_accepted(inspect_run r, const char *what) {
  ck_assert_msg(r.rc == 0 && !*r.out && !*r.err, "%s: want exit 0 and no output, got %d:\n%s%s", what, r.rc, r.out, r.err);
  run_free(&r);
}

/* Exit 1, one line on stdout that starts `refused: SOURCE_NAME ` and holds every
 * string of want (NULL-terminated), nothing on stderr. */
static void expect_refused(inspect_run r, const char *what, const char *const *want) {
  ck_assert_msg(r.rc == 1, "%s: want exit 1 (refused), got %d:\n%s%s", what, r.rc, r.out, r.err);
  ck_assert_msg(text_is_one_line(r.out) && !strncmp(r.out, "refused: ", 9), "%s: want one 'refused: ' line, got:\n%s",
                what, r.out);
  for (; *want; want++) ck_assert_msg(strstr(r.out, *want) != NULL, "%s: the line does not say '%s':\n%s", what, *want, r.out);
  ck_assert_msg(!*r.err, "%s: refused with something on stderr:\n%s", what, r.err);
  run_free(&r);
}

/* ---------------------------------------------------------------- each fixture as the build inspects it */

static const struct {
  const char *obj, *dep;   /* the object of one fixture, the depfile of another (a depfile that lies) */
  const char *want[3];     /* NULL: accepted; else what the refusal line says */
} CASES[] = {
    {"clean", "clean", {NULL}},
    {"libcudacxx", "libcudacxx", {NULL}}, /* libcu++ is allowed */
    {"iostream", "iostream", {NULL}},     /* std::ios_base::Init is the one global object allowed */
    {"cub_direct", "cub_direct", {"refused: cub_direct.cu uses CUB (it includes cub/cub.cuh)", NULL}},
    {"cub_macro", "cub_macro", {"refused: cub_macro.cu uses CUB (it includes cub/device/device_scan.cuh)", NULL}},
    {"thrust_alias", "thrust_alias", {"refused: thrust_alias.cu uses Thrust (it includes thrust/scan.h)", NULL}},
    /* the symbols catch what a depfile misses (a vendored, renamed copy) */
    {"cub_direct", "clean", {"uses CUB (symbol ", "cub::", NULL}},
    {"thrust_alias", "clean", {"uses Thrust (symbol ", "thrust::", NULL}},
    {"ctor_attribute", "ctor_attribute", {"defines a static constructor (evil_ctor)", "only when the runner calls it", NULL}},
    {"ctor_global", "ctor_global", {"defines a global object with a constructor (fx_warmup::fx_warmup)", NULL}},
    {"dtor_attribute", "dtor_attribute", {"defines a static destructor (fx_late)", NULL}},
    /* without -rdc, host code at -O3: the same one nvcc constructor; the global's constructor is inlined */
    {"clean_O3", "clean_O3", {NULL}},
    {"iostream_O3", "iostream_O3", {NULL}},
    {"ctor_global_O3", "ctor_global_O3", {"initializes a global at load time (with puts)", NULL}},
    /* a plain student file, built as the build builds it, passes every check (the course's own, too) */
    {"course_starter", "course_starter", {NULL}},
    {"kernel_only", "kernel_only", {NULL}},
    /* the link: each refusal names the symbol */
    {"interpose_rw", "interpose_rw", {"refused: interpose_rw.cu defines read, a symbol of the C library (libc.so.6): ", NULL}},
    {"syscall_asm", "syscall_asm", {"refused: syscall_asm.cu has a system call instruction (syscall, in fx_run(unsigned int*))", NULL}},
    {"syscall_asm_rdc", "syscall_asm_rdc", {"has a system call instruction (syscall, in fx_run(unsigned int*))", NULL}},
    {"calls_dlsym", "calls_dlsym", {"refused: calls_dlsym.cu calls dlsym, which a student's file may not use: ", NULL}},
    {"calls_mprotect", "calls_mprotect", {"refused: calls_mprotect.cu calls mprotect, which a student's file may not use: ", NULL}},
    {"non_interface", "non_interface", {"refused: non_interface.cu defines fx_blocks(unsigned int), which its assignment's headers do not declare: make it static", NULL}},
    {"non_interface_O3", "non_interface_O3", {"defines fx_blocks(unsigned int), which its assignment's headers do not declare", NULL}},
};
#define N_CASES (sizeof CASES / sizeof *CASES)

START_TEST(test_inspect_fixture) {
  char what[200];
  snprintf(what, sizeof what, "%s.o with %s.d", CASES[_i].obj, CASES[_i].dep);
  inspect_run r = inspect(CASES[_i].obj, CASES[_i].dep, bindir);
  if (!CASES[_i].want[0]) expect_accepted(r, what);
  else expect_refused(r, what, CASES[_i].want);
}
END_TEST

/* Exit 1 and exactly the one line want on stdout, nothing on stderr. */
static void expect_line(inspect_run r, const char *what, const char *want) {
  ck_assert_msg(r.rc == 1, "%s: want exit 1 (refused), got %d:\n%s%s", what, r.rc, r.out, r.err);
  ck_assert_msg(text_is_one_line(r.out) && !strncmp(r.out, want, strlen(want)) && r.out[strlen(want)] == '\n',
                "%s: want the line\n%s\ngot:\n%s", what, want, r.out);
  ck_assert_msg(!*r.err, "%s: refused with something on stderr:\n%s", what, r.err);
  run_free(&r);
}

/* The student's file may include only its folders' files, and may not define
 * the course's names: each refusal names the file or the symbol. */
START_TEST(test_inspect_course_code) {
  expect_line(inspect("course_include", "course_include", bindir), "course_include.o",
              "refused: course_include.cu includes a course file (grader/lib/scan_cpu.c): your file may include only "
              "its assignment's headers and files of its own folder");
  expect_line(inspect("course_symbol", "course_symbol", bindir), "course_symbol.o",
              "refused: course_symbol.cu defines scan_cpu_i32: names that begin with scan_cpu_ belong to the course's "
              "libraries, whose code your file may not carry (a function of yours needs another name)");
}
END_TEST

/* cub:: only in device code (a template instantiated by a kernel): only
 * cuobjdump sees it; without cuobjdump next to nvcc the step is skipped. */
START_TEST(test_inspect_device_symbols) {
  char path[1200];
  snprintf(path, sizeof path, "%s/cuobjdump", bindir);
  inspect_run r = inspect("device_ns", "device_ns", bindir);
  if (access(path, X_OK) == 0) {
    const char *const want[] = {"uses CUB (device symbol ", "cub::fx_twice", NULL};
    expect_refused(r, "device_ns.o", want);
  } else {
    expect_accepted(r, "device_ns.o without cuobjdump");
  }
}
END_TEST

/* A stand-in CUDA folder (a temporary one): bin/cuobjdump with the body of a sh
 * script, and lib64 a link to the real one (the CUDA runtime the link checks read)
 * unless lib64 is 0. The script's NVCC_BIN_DIR is then fake_bin(dir). */
static char *fake_cuda(const char *body, int lib64) {
  char *dir = make_temp_dir("inspect-cuda"), path[512], script[1024], cmd[4096];
  snprintf(path, sizeof path, "%s/bin/cuobjdump", dir);
  snprintf(script, sizeof script, "#!/bin/sh\n%s", body);
  write_text(path, script, 1);
  if (lib64) {
    snprintf(cmd, sizeof cmd, "ln -s \"$(cd '%s/..' && pwd -P)/lib64\" '%s/lib64'", bindir, dir);
    ck_assert_int_eq(run_shell(cmd), 0);
  }
  return dir;
}

static const char *fake_bin(const char *dir) {
  static char bin[600];
  snprintf(bin, sizeof bin, "%s/bin", dir);
  return bin;
}

static char *fake_cuobjdump(const char *body) { return fake_cuda(body, 1); }

START_TEST(test_inspect_device_symbols_parsed) {
  char *bin = fake_cuobjdump("cat <<'EOF'\nFatbin elf code:\n================\narch = sm_75\n\nsymbols:\n"
                             "STT_FUNC         STB_GLOBAL STO_ENTRY      _Z9fx_kernelPj\n"
                             "STT_FUNC         STB_WEAK   STV_DEFAULT    _ZNK6thrust6detail7fx_funcEv\nEOF\n");
  const char *const want[] = {"refused: clean.cu uses Thrust (device symbol thrust::detail::fx_func() const)", NULL};
  expect_refused(inspect("clean", "clean", fake_bin(bin)), "a Thrust device symbol", want);
  remove_dir(bin);
  free(bin);
  /* N3cub inside a name, not followed by the next name's length, is no namespace */
  bin = fake_cuobjdump("echo 'STT_FUNC         STB_GLOBAL STO_ENTRY      _Z13fx_N3cubbler6v'\n");
  expect_accepted(inspect("clean", "clean", fake_bin(bin)), "no CUB device symbol");
  remove_dir(bin);
  free(bin);
}
END_TEST

/* A cuobjdump that is there but fails is reported, not skipped. */
START_TEST(test_inspect_cuobjdump_fails) {
  char *bin = fake_cuobjdump("echo 'cuobjdump fatal   : boom' >&2\nexit 1\n");
  inspect_run r = inspect("clean", "clean", fake_bin(bin));
  ck_assert_msg(r.rc == 2 && !*r.out && text_is_one_line(r.err) && strstr(r.err, "inspect-student: ") == r.err &&
                    strstr(r.err, "cuobjdump fatal   : boom"),
                "a failing cuobjdump: want exit 2 and one inspect-student line on stderr, got %d:\n%s%s", r.rc, r.out, r.err);
  run_free(&r);
  remove_dir(bin);
  free(bin);
}
END_TEST

/* ---------------------------------------------------------------- the link (issue 39) */

/* A function defined under a name of the libraries the runner links with (the
 * C library, the CUDA runtime) or of the runner (runner_): refused in C linkage (the
 * very symbol, which the runner's own calls would reach) and as a C++ overload
 * of the name, with the name said. */
static const struct {
  const char *name, *lib; /* lib: what the C-linkage refusal says the symbol belongs to */
} IMPOSTORS[] = {
    {"syscall", "the C library (libc.so.6)"}, {"read", "the C library (libc.so.6)"},
    {"write", "the C library (libc.so.6)"},   {"prctl", "the C library (libc.so.6)"},
    {"open", "the C library (libc.so.6)"},    {"mmap", "the C library (libc.so.6)"},
    {"memcpy", "the C library (libc.so.6)"},  {"cudaMalloc", "the CUDA runtime (libcudart_static.a)"},
    {"runner_cuda_main", "names that begin with runner_ belong to the course's libraries"},
};
#define N_IMPOSTORS (sizeof IMPOSTORS / sizeof *IMPOSTORS)

START_TEST(test_inspect_impostors) {
  const char *name = IMPOSTORS[_i].name, *lib = IMPOSTORS[_i].lib;
  char obj[64], c_says[128], cxx_says[128];
  int runner = !strncmp(name, "runner_", 7);
  snprintf(obj, sizeof obj, "c_%s", name);
  snprintf(c_says, sizeof c_says, "refused: impostor.cu defines %s%s", name, runner ? ": " : ", a symbol of ");
  const char *const want_c[] = {c_says, lib, NULL};
  expect_refused(inspect(obj, obj, bindir), obj, want_c);
  snprintf(obj, sizeof obj, "cxx_%s", name);
  snprintf(cxx_says, sizeof cxx_says, "refused: impostor.cu defines %s%s", name, runner ? ": " : "(long), named as ");
  const char *const want_cxx[] = {cxx_says, runner ? lib : name, NULL};
  expect_refused(inspect(obj, obj, bindir), obj, want_cxx);
}
END_TEST

/* Exit 2 and one `inspect-student: ` line on stderr that says what. */
static void expect_error(inspect_run r, const char *what, const char *say) {
  ck_assert_msg(r.rc == 2 && !*r.out && text_is_one_line(r.err) && strstr(r.err, "inspect-student: ") == r.err && strstr(r.err, say),
                "%s: want exit 2 and one 'inspect-student: ... %s' line on stderr, got %d:\n%s%s", what, say, r.rc, r.out, r.err);
  run_free(&r);
}

/* A library the link checks need and cannot find is an error, never a pass:
 * no CUDA runtime beside NVCC_BIN_DIR; a host compiler that finds no libc. */
START_TEST(test_inspect_missing_library) {
  need_fixture("kernel_only");
  /* gcc -print-file-name prints the name back when it finds no such file: a g++
   * first on PATH that finds nothing, or nothing but libcudart_static.a (which a
   * distribution's CUDA puts on the compiler's path), beside a CUDA folder without lib64 */
  char *fake = make_temp_dir("inspect-cc"), path[512], text[1024], env[1024], o[1200], d[1200], b[1200];
  char *cuda = fake_cuda("exit 0\n", 0);
  snprintf(path, sizeof path, "%s/g++", fake);
  snprintf(env, sizeof env, "PATH='%s':\"$PATH\"", fake);
  snprintf(o, sizeof o, "'%s/kernel_only.o'", objs);
  snprintf(d, sizeof d, "'%s/kernel_only.d'", objs);
  snprintf(text, sizeof text,
           "#!/bin/sh\ncase $1 in -print-file-name=libcudart_static.a) echo libcudart_static.a ;; *) exec \"$(PATH=${PATH#*:} command -v g++)\" \"$@\" ;; esac\n");
  write_text(path, text, 1);
  snprintf(b, sizeof b, "'%s'", fake_bin(cuda));
  expect_error(inspect_in(repo, env, o, d, "x.cu", b, FX), "no CUDA runtime", "no libcudart_static.a in ");
  write_text(path, "#!/bin/sh\necho \"${1#-print-file-name=}\"\n", 1);
  snprintf(b, sizeof b, "'%s'", bindir);
  expect_error(inspect_in(repo, env, o, d, "x.cu", b, FX), "no libc", "cannot find libc.so.6");
  remove_dir(cuda);
  free(cuda);
  remove_dir(fake);
  free(fake);
}
END_TEST

/* The libraries' symbols depend only on the toolchain, so the inspection keeps
 * them in build/inspect-libs/ (inspect-links.sh; here SCANLAB_INSPECT_LIBS, a
 * folder of the test's own): one list a key of the libraries' paths, sizes,
 * times and inodes. A kept list is
 * what the next inspection uses; one without its last line "@@end" (half
 * written) is read again; a library that changed is a new key. */
START_TEST(test_inspect_library_list_kept) {
  need_fixture("clean");
  char *dir = make_temp_dir("inspect-kept"), cmd[4096], o[1200], d[1200], b[1200], list[1400], env[1400], env_g[2800];
  snprintf(cmd, sizeof cmd, "mkdir '%s/build' '%s/bin'", dir, dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(o, sizeof o, "'%s/clean.o'", objs);
  snprintf(d, sizeof d, "'%s/clean.d'", objs);
  snprintf(b, sizeof b, "'%s'", bindir);
  snprintf(env, sizeof env, "SCANLAB_INSPECT_LIBS='%s/build/inspect-libs'", dir);
  const char *f = FIXTURES[fixture_index("clean")].folders;
  expect_accepted(inspect_in(repo, env, o, d, "clean.cu", b, f), "clean, no list kept yet");
  /* one list, whole, with the CUDA runtime's symbols */
  snprintf(cmd, sizeof cmd,
           "cd '%s/build/inspect-libs' && test $(ls | wc -l) -eq 1 && test \"$(tail -n 1 *.tsv)\" = @@end && "
           "grep -q '^the CUDA runtime (libcudart_static.a)\tcudaMalloc$' *.tsv && ls > ../names",
           dir);
  ck_assert_msg(run_shell(cmd) == 0, "no whole list in %s/build/inspect-libs after an inspection", dir);
  snprintf(cmd, sizeof cmd, "%s/build/names", dir);
  char *name = read_text(cmd);
  ck_assert(name && *name);
  name[strcspn(name, "\n")] = 0;
  snprintf(list, sizeof list, "%s/build/inspect-libs/%s", dir, name);
  /* the kept list is what is used: a symbol clean.o defines, planted as the C library's */
  snprintf(cmd, sizeof cmd,
           "s=$(nm -g --defined-only '%s/clean.o' | awk 'NF == 3 && $2 == \"T\" { print $3; exit }') && [ -n \"$s\" ] && "
           "sed -i '$d' '%s' && printf 'the C library (libc.so.6)\\t%%s\\n@@end\\n' \"$s\" >> '%s' && echo \"$s\" > '%s/planted'",
           objs, list, list, dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(cmd, sizeof cmd, "%s/planted", dir);
  char *planted = read_text(cmd), says[256];
  ck_assert(planted && *planted);
  planted[strcspn(planted, "\n")] = 0;
  snprintf(says, sizeof says, "a symbol of the C library (libc.so.6)");
  const char *const want[] = {"refused: clean.cu defines ", says, NULL};
  expect_refused(inspect_in(repo, env, o, d, "clean.cu", b, f), "clean, with a kept list that names one of its symbols", want);
  /* a list without "@@end" is read again (and the planted line is gone) */
  snprintf(cmd, sizeof cmd, "sed -i '$d' '%s'", list);
  ck_assert_int_eq(run_shell(cmd), 0);
  expect_accepted(inspect_in(repo, env, o, d, "clean.cu", b, f), "clean, the kept list half written");
  snprintf(cmd, sizeof cmd, "test \"$(tail -n 1 '%s')\" = @@end && ! grep -q \"$(printf '\\t')%s$\" '%s'", list, planted, list);
  ck_assert_msg(run_shell(cmd) == 0, "a half-written list was not read again: %s", list);
  /* a library that changed is a new key: a g++ first on PATH that finds libc.so.6 at a
   * copy of it (another path), then the same copy with another time */
  snprintf(cmd, sizeof cmd,
           "cp -L \"$(g++ -print-file-name=libc.so.6)\" '%s/bin/libc.so.6' && "
           "printf '#!/bin/sh\\ncase $1 in -print-file-name=libc.so.6) echo %s/bin/libc.so.6 ;; "
           "*) PATH=${PATH#*:} exec g++ \"$@\" ;; esac\\n' > '%s/bin/g++' && chmod +x '%s/bin/g++'",
           dir, dir, dir, dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(env_g, sizeof env_g, "%s PATH='%s/bin':\"$PATH\"", env, dir);
  expect_accepted(inspect_in(repo, env_g, o, d, "clean.cu", b, f), "clean, libc.so.6 elsewhere");
  snprintf(cmd, sizeof cmd, "touch -d '2001-01-01' '%s/bin/libc.so.6'", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  expect_accepted(inspect_in(repo, env_g, o, d, "clean.cu", b, f), "clean, libc.so.6 with another time");
  snprintf(cmd, sizeof cmd, "test $(ls '%s/build/inspect-libs' | grep -c '\\.tsv$') -eq 3 && test -z \"$(ls '%s/build/inspect-libs' | grep -v '\\.tsv$')\"", dir, dir);
  ck_assert_msg(run_shell(cmd) == 0, "want three kept lists (three keys) and no temporary file in %s/build/inspect-libs", dir);
  free(name);
  free(planted);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* header-decls.awk: what a header declares with external linkage, and nothing
 * of comments, macros, static or inline functions, types, templates or bodies. */
START_TEST(test_inspect_header_decls) {
  char *dir = make_temp_dir("inspect-h"), h[512], cmd[1200], out[512];
  snprintf(h, sizeof h, "%s/api.h", dir);
  write_text(h,
             "#ifndef API_H\n#define API_H\n#define NOT_ME(x) \\\n  not_me_either(x)\n"
             "// void in_a_comment(int);\n/* int nor_here(void); */\n"
             "typedef struct pair { int a, b; } pair;\ntypedef enum mode { M_A, M_B } mode;\n"
             "static inline int helper(int x) { return x + call_inside(x); }\n"
             "static __device__ __forceinline__ float dev_helper(float x) { return x; }\n"
             "template <typename T> T twice(T x) { return 2 * x; }\n"
             "__device__ int scan_warp(int v, int *scratch);\n"
             "__host__ __device__ int pad(int i);\n"
             "cudaError_t run_all(const unsigned *in, unsigned *out, size_t n, void *work);\n"
             "extern \"C\" __global__ void kernel_c(const int *src, int *dst);\n"
             "extern \"C\" {\nint in_block(int);\n}\n"
             "extern int table_size;\nextern float weights[4];\n"
             "static const char *const NAMES[2] = {\"a\", \"b(\"};\n"
             "enum { TILE = 1024 };\n#endif\n",
             0);
  snprintf(out, sizeof out, "%s/names", dir);
  snprintf(cmd, sizeof cmd, "awk -f grader/inspect/header-decls.awk '%s' | sort > '%s'", h, out);
  ck_assert_int_eq(run_shell(cmd), 0);
  char *names = read_text(out);
  ck_assert(names != NULL);
  ck_assert_str_eq(names, "in_block\nkernel_c\npad\nrun_all\nscan_warp\ntable_size\nweights\n");
  free(names);
  remove_dir(dir);
  free(dir);
}
END_TEST

enum { MAX_ASSIGNMENTS = 64 };

/* The assignments, read from the folders as the grader finds them (assignments/NN-name/grade.conf),
 * so that a new one is checked without a list to edit. Returns how many. */
static int assignment_folders(char names[][64]) {
  glob_t g;
  int n = 0;
  if (glob("assignments/*/grade.conf", 0, NULL, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc && n < MAX_ASSIGNMENTS; i++) {
      const char *a = g.gl_pathv[i] + strlen("assignments/");
      snprintf(names[n++], 64, "%.*s", (int)(strchr(a, '/') - a), a);
    }
    globfree(&g);
  }
  ck_assert_msg(n > 0, "no assignments/*/grade.conf: run from the repository root");
  return n;
}

/* Every starter and solution, as the build compiled it (make test builds them all
 * before the unit tests), passes every check: the link's too. */
START_TEST(test_inspect_course_builds) {
  static char NN[MAX_ASSIGNMENTS][64];
  int n_nn = assignment_folders(NN);
  static const char *const SRC[] = {"starter", "solutions"};
  int seen = 0;
  for (size_t s = 0; s < 2; s++)
    for (int i = 0; i < n_nn; i++) {
      char dir[256], o[600], d[600], cu[600], folders[600], b[1200], cmd[1024], what[300];
      snprintf(dir, sizeof dir, "%s/%s", SRC[s], NN[i]);
      if (access(dir, F_OK) != 0) continue; /* a clone without solutions/ */
      snprintf(o, sizeof o, "build/%s/student.o", dir);
      snprintf(d, sizeof d, "build/%s/student.d", dir);
      ck_assert_msg(access(o, R_OK) == 0 && access(d, R_OK) == 0, "%s or %s is missing: make %s ARCH=sm_90 builds it", o, d, o);
      snprintf(cmd, sizeof cmd, "ls %s/*.cu | head -1 | xargs basename > '%s/cu'", dir, objs);
      ck_assert_int_eq(run_shell(cmd), 0);
      snprintf(cmd, sizeof cmd, "%s/cu", objs);
      char *name = read_text(cmd);
      ck_assert(name && *name);
      name[strcspn(name, "\n")] = 0;
      snprintf(cu, sizeof cu, "'%s'", name);
      free(name);
      /* the student's folder as the build inspects it: its staged copy (grader/src/submission.c) */
      snprintf(folders, sizeof folders, "assignments/%s build/%s/stage", NN[i], dir);
      snprintf(b, sizeof b, "'%s'", bindir);
      snprintf(what, sizeof what, "%s as built", o);
      expect_accepted(inspect_in(repo, "", o, d, cu, b, folders), what);
      seen++;
    }
  ck_assert_msg(seen >= n_nn, "only %d starters and solutions found for %d assignments", seen, n_nn);
}
END_TEST

/* ---------------------------------------------------------------- depfiles written by hand */

/* A fictional assignment (no course folder is named): its FOLDERs, as the build gives a
 * student's file, and its student file's name. The course they are paths of is a folder
 * that fiction_course makes; the repository's own files are never read here. */
#define FICTION "90-fiction"
#define FOLDERS_FICTION "assignments/" FICTION " starter/" FICTION
#define STUDENT_FILE "fiction.cu"
#define STARTER "starter/" FICTION "/"
#define ASSIGNMENT "assignments/" FICTION "/"

/* dir/assignments/90-fiction and dir/starter/90-fiction made, under objs/name
 * (the course's root for inspect_depfile); dir is filled. */
static void fiction_course(const char *name, char *dir, size_t cap) {
  char path[1400];
  snprintf(dir, cap, "%s/%s", objs, name);
  snprintf(path, sizeof path, "%s/" STARTER ".keep", dir);
  write_text(path, "", 0);
  snprintf(path, sizeof path, "%s/" ASSIGNMENT ".keep", dir);
  write_text(path, "", 0);
}

/* The script on the kernel-only object (accepted with any headers) with a depfile
 * of text, run from cwd (a course's root), as on the fictional assignment's starter. */
static inspect_run inspect_depfile(const char *cwd, const char *text) {
  char dep[1200], o[1200], d[1200], b[1200];
  need_fixture("kernel_only");
  snprintf(dep, sizeof dep, "%s/hand.d", objs);
  write_text(dep, text, 0);
  snprintf(o, sizeof o, "'%s/kernel_only.o'", objs);
  snprintf(d, sizeof d, "'%s'", dep);
  snprintf(b, sizeof b, "'%s'", bindir);
  return inspect_in(cwd, "", o, d, STUDENT_FILE, b, FOLDERS_FICTION);
}

START_TEST(test_inspect_depfile_syntax) {
  char root[1200];
  fiction_course("course", root, sizeof root);
  /* an escaped space in a path, headers after the continuation lines */
  const char *const want[] = {"refused: " STUDENT_FILE " uses Thrust (it includes thrust/scan.h)", NULL};
  expect_refused(inspect_depfile(root, "student.o : " STARTER STUDENT_FILE " \\\n    /usr/include/stdio.h \\\n"
                                       "    /opt/my\\ cuda/include/cccl/thrust/scan.h\n"),
                 "escaped space", want);
  /* libcu++ and a name that only contains cub */
  expect_accepted(inspect_depfile(root, "student.o: " STARTER STUDENT_FILE " /cuda/include/cccl/cuda/std/atomic \\\n"
                                        "  /cuda/include/cccl/cuda/atomic " STARTER "cubic.h /opt/mycub/x.h\n"),
                  "libcu++ and cub-like names");
  /* a vendored copy in the student's folder */
  const char *const vendored[] = {"uses CUB (it includes cub/device/device_scan.cuh)", NULL};
  expect_refused(inspect_depfile(root, "student.o: " STARTER STUDENT_FILE " " STARTER "cub/device/device_scan.cuh\n"),
                 "a vendored CUB", vendored);
}
END_TEST

/* A file of the repository outside the FOLDERs is named as the repository has it,
 * however the path to it was spelled; files outside the repository (the system's
 * and CUDA's headers) are not the course's. */
START_TEST(test_inspect_course_files) {
  static const struct {
    const char *dep, *named; /* named: NULL when accepted */
  } CASES[] = {
      {"s.o: " STARTER STUDENT_FILE " " ASSIGNMENT "fiction.h /usr/include/stdio.h\n", NULL},
      {"s.o: " STARTER STUDENT_FILE " " STARTER "../../grader/lib/scan_cpu.c\n", "grader/lib/scan_cpu.c"},
      /* another assignment's header */
      {"s.o: " STARTER STUDENT_FILE " " ASSIGNMENT "../91-other/other_spec.h\n", "assignments/91-other/other_spec.h"},
      {"s.o: " STARTER STUDENT_FILE " solutions/" FICTION "/helper.cuh\n", "solutions/" FICTION "/helper.cuh"},
      /* a folder whose name only begins like an allowed one */
      {"s.o: starter/" FICTION "-old/" STUDENT_FILE "\n", "starter/" FICTION "-old/" STUDENT_FILE},
      /* a folder below an allowed one: the assignment's trusted side (its CPU reference) and its runner */
      {"s.o: " STARTER STUDENT_FILE " " ASSIGNMENT "judge/fiction_cpu.c\n", ASSIGNMENT "judge/fiction_cpu.c"},
      {"s.o: " STARTER STUDENT_FILE " " ASSIGNMENT "runner/runner.cu\n", ASSIGNMENT "runner/runner.cu"},
  };
  char root[1200];
  fiction_course("course", root, sizeof root);
  for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
    char what[64], want[300];
    snprintf(what, sizeof what, "course files %zu", i);
    if (!CASES[i].named) {
      expect_accepted(inspect_depfile(root, CASES[i].dep), what);
      continue;
    }
    snprintf(want, sizeof want, "refused: " STUDENT_FILE " includes a course file (%s): ", CASES[i].named);
    const char *const w[] = {want, NULL};
    expect_refused(inspect_depfile(root, CASES[i].dep), what, w);
  }
}
END_TEST

/* A symbolic link in the student's folder counts as the file it points to. */
START_TEST(test_inspect_course_file_link) {
  char dir[1200], path[1300], cmd[4096];
  fiction_course("linked", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/" ASSIGNMENT "fiction.h", dir);
  write_text(path, "", 0);
  snprintf(path, sizeof path, "%s/grader/lib/scan_cpu.c", dir);
  write_text(path, "", 0);
  snprintf(cmd, sizeof cmd, "ln -sf ../../grader/lib/scan_cpu.c '%s/" STARTER "helpers.h'", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  const char *const want[] = {"refused: " STUDENT_FILE " includes a course file (grader/lib/scan_cpu.c): ", NULL};
  expect_refused(inspect_depfile(dir, "s.o: " STARTER "helpers.h " ASSIGNMENT "fiction.h\n"), "a link to a course file", want);
}
END_TEST

/* A checkout under a folder named thrust is not Thrust: paths are matched below
 * the current folder. */
START_TEST(test_inspect_checkout_path) {
  char dir[1200], text[4096];
  fiction_course("thrust/course", dir, sizeof dir);
  snprintf(text, sizeof text, "student.o: %s/" STARTER STUDENT_FILE " %s/" ASSIGNMENT "fiction.h\n", dir, dir);
  expect_accepted(inspect_depfile(dir, text), "a checkout under thrust/");
}
END_TEST

START_TEST(test_inspect_bad_arguments) {
  need_fixture("clean");
  char o[1200], d[1200], empty[1200];
  snprintf(o, sizeof o, "'%s/clean.o'", objs);
  snprintf(d, sizeof d, "'%s/clean.d'", objs);
  snprintf(empty, sizeof empty, "%s/empty.d", objs);
  write_text(empty, "", 0);
  snprintf(empty, sizeof empty, "'%s/empty.d'", objs);
  char src_as_obj[1200];
  snprintf(src_as_obj, sizeof src_as_obj, "'%s/grader/tests/inspect/clean.cu'", repo);
  const struct {
    const char *obj, *dep, *src, *folders, *say;
  } bad[] = {
      {"", "", "", "", "usage"},
      {o, d, "x.cu", "", "usage"}, /* no FOLDER */
      {"/nonexistent/student.o", d, "x.cu", FX, "no object file"},
      {o, "/nonexistent/student.d", "x.cu", FX, "no dependency file"},
      {o, d, "x.cu", FX " /nonexistent/folder", "no folder /nonexistent/folder"},
      {src_as_obj, d, "x.cu", FX, "not an ELF object"},
      {o, empty, "x.cu", FX, "lists no prerequisites"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    inspect_run r = inspect_in(repo, "", bad[i].obj, bad[i].dep, bad[i].src, "''", bad[i].folders);
    ck_assert_msg(r.rc == 2 && !*r.out && text_is_one_line(r.err) && strstr(r.err, "inspect-student: ") == r.err &&
                      strstr(r.err, bad[i].say),
                  "bad arguments %zu: want exit 2 and one 'inspect-student: ... %s' line on stderr, got %d:\n%s%s", i,
                  bad[i].say, r.rc, r.out, r.err);
    run_free(&r);
  }
}
END_TEST

/* The script leaves no file behind, even for a refusal with a long symbol list
 * (bash may back a here-string with a file in TMPDIR). */
START_TEST(test_inspect_no_temp_files) {
  need_fixture("thrust_alias");
  need_fixture("clean");
  char *tmp = make_temp_dir("inspect-tmp"), o[1200], d[1200], env[400], cmd[600];
  snprintf(o, sizeof o, "'%s/thrust_alias.o'", objs);
  snprintf(d, sizeof d, "'%s/clean.d'", objs);
  snprintf(env, sizeof env, "TMPDIR='%s'", tmp);
  inspect_run r = inspect_in(repo, env, o, d, "x.cu", "/nonexistent", FX);
  ck_assert_msg(r.rc == 1, "thrust_alias.o with clean.d: want exit 1, got %d:\n%s%s", r.rc, r.out, r.err);
  run_free(&r);
  snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", tmp);
  ck_assert_msg(run_shell(cmd) == 0, "the script left files in TMPDIR %s", tmp);
  remove_dir(tmp);
  free(tmp);
}
END_TEST

/* ---------------------------------------------------------------- the course's names */

#define PREFIXES "grader/inspect/course-prefixes.txt"
#define MAX_PREFIXES 64

/* The prefixes of PREFIXES as the script reads them: the first word of each line, `#` on is a comment. */
static int read_prefixes(char prefixes[][64]) {
  char *text = read_text(PREFIXES);
  ck_assert_msg(text != NULL, "%s is missing", PREFIXES);
  int n = 0;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    line[strcspn(line, "#")] = 0;
    char word[64];
    if (sscanf(line, "%63s", word) != 1) continue;
    ck_assert_msg(n < MAX_PREFIXES, "%s: more than %d prefixes", PREFIXES, MAX_PREFIXES);
    snprintf(prefixes[n++], 64, "%s", word);
  }
  free(text);
  ck_assert_msg(n > 0, "%s lists no prefix", PREFIXES);
  return n;
}

static int has_prefix(const char *name, char prefixes[][64], int n) {
  for (int i = 0; i < n; i++)
    if (!strncmp(name, prefixes[i], strlen(prefixes[i]))) return 1;
  return 0;
}

/* Every module of grader/protocol, grader/lib, grader/runner and grader/judge, and of every assignment's judge/
 * (but its spec, build/judge/spec-NN-name.o), has its object, built by make before the unit tests (tests.mk):
 * a new module is checked as soon as it exists. */
static void need_objects(void) {
  static const char *const DIRS[][2] = {{"grader/protocol", "build/protocol"}, {"grader/lib", "build/lib"}, {"grader/runner", "build/runner"}, {"grader/judge", "build/judge"}};
  char cmd[1024];
  for (size_t i = 0; i < sizeof DIRS / sizeof *DIRS; i++) {
    snprintf(cmd, sizeof cmd, "for c in %s/*.c; do o=%s/$(basename \"$c\" .c).o; [ -f \"$o\" ] || { echo \"$o\"; exit 1; }; done > /dev/null",
             DIRS[i][0], DIRS[i][1]);
    ck_assert_msg(run_shell(cmd) == 0, "an object of %s/*.c is missing from %s: make build/tests/unit builds them", DIRS[i][0], DIRS[i][1]);
  }
  ck_assert_msg(run_shell("for c in assignments/*/judge/*.c; do case $c in */spec.c) continue ;; esac; "
                          "[ -f \"build/${c%.c}.o\" ] || exit 1; done") == 0,
                "an object of assignments/*/judge/*.c is missing from build/assignments/: make build/tests/unit builds them");
}

/* Every global symbol the course's libraries define begins with a prefix the
 * inspection refuses, so that a module added without its prefix fails here. */
START_TEST(test_inspect_course_prefixes_cover) {
  static char prefixes[MAX_PREFIXES][64];
  int n = read_prefixes(prefixes);
  need_objects();
  char *dir = make_temp_dir("prefixes"), cmd[2048], path[512];
  /* "OBJECT<TAB>NAME" for every defined global symbol, demangled, without its parameters
   * (the judge's main and the C++ runtime's DW.ref.* aside) */
  snprintf(cmd, sizeof cmd,
           "for o in build/protocol/*.o build/lib/*.o build/runner/*.o build/judge/*.o build/assignments/*/judge/*.o; do "
           "[ \"${o##*/}\" = judge_main.o ] && continue; "
           "nm -g --defined-only -C \"$o\" | sed -E 's/^[[:xdigit:]]+ [A-Za-z] //; s/\\(.*//' | grep -v '^DW\\.ref\\.' "
           "| sed \"s|^|$o\t|\"; done > '%s/names'", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/names", dir);
  char *names = read_text(path);
  ck_assert(names != NULL);
  int count = 0;
  char *save = NULL;
  for (char *line = strtok_r(names, "\n", &save); line; line = strtok_r(NULL, "\n", &save), count++) {
    char *name = strchr(line, '\t');
    ck_assert_msg(name != NULL, "not OBJECT<TAB>NAME: %s", line);
    *name++ = 0;
    ck_assert_msg(has_prefix(name, prefixes, n),
                  "%s defines %s, which begins with no prefix of %s: add its module's prefix there, so that the build "
                  "refuses a student's file that carries it",
                  line, name, PREFIXES);
  }
  ck_assert_msg(count > 50, "only %d symbols in the course's objects: are build/protocol, build/lib, build/runner and build/judge built?", count);
  free(names);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* The link checks let a student's object define symbols of vague linkage (inline
 * functions and template instantiations, in COMDAT groups), since the linker keeps
 * the first copy it meets and runner.cu's object comes before the student's: that
 * holds only while librunner.a, which comes after, defines none of its own. */
START_TEST(test_inspect_runner_no_vague_symbols) {
  need_objects();
  char *dir = make_temp_dir("vague"), cmd[1024], path[512];
  snprintf(cmd, sizeof cmd,
           "for o in build/runner/*.o build/protocol/*.o; do nm -g --defined-only \"$o\" | awk -v o=\"$o\" "
           "'NF == 3 && $2 ~ /^[WVu]$/ && $3 != \"DW.ref.__gxx_personality_v0\" { print o \": \" $3 }'; done > '%s/weak'", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/weak", dir);
  char *weak = read_text(path);
  ck_assert(weak != NULL);
  ck_assert_msg(!*weak, "the runner's library defines symbols of vague linkage, which a student's copy could replace at the link:\n%s", weak);
  free(weak);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* And every prefix is one the course's headers use (no stale or misspelt line). */
START_TEST(test_inspect_course_prefixes_used) {
  static char prefixes[MAX_PREFIXES][64];
  int n = read_prefixes(prefixes);
  for (int i = 0; i < n; i++) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "grep -rqF --include='*.h' -- '%s' grader/protocol grader/lib grader/runner grader/judge assignments/*/judge",
             prefixes[i]);
    ck_assert_msg(run_shell(cmd) == 0,
                  "%s: prefix %s is in no header of grader/protocol, grader/lib, grader/runner, grader/judge or an assignment's judge/",
                  PREFIXES, prefixes[i]);
  }
}
END_TEST


/* ---------------------------------------------------------------- include paths */

/* The build's trust boundary is its include paths and libraries (docs/architecture.md,
 * "The student's object is compiled alone"): a student's file sees only
 * assignments/NN and its staged folder; the runner (grader/runner, runner/runner.cu,
 * runner/model_tables.cu) sees the contracts (grader/protocol), its own folder and
 * assignments/NN (and, where link = inline, which includes the student's file, the staged
 * folder); librunner.a holds only grader/runner's and grader/protocol's
 * objects, and no runner links the course library or the grader's. Read from
 * the nvcc commands of the grader's build of every solution (grade --build-only
 * with an nvcc that records its arguments), and from `make -n -B` of librunner.a. */

/* Whether folder is one of the space-separated allowed ones. */
static int include_allowed(const char *folder, const char *allowed) {
  size_t n = strlen(folder);
  for (const char *p = allowed; (p = strstr(p, folder)) != NULL; p += n)
    if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return 1;
  return 0;
}

/* Checks one shell command of the build (cmd is modified). Returns the number of problems, printed to why. */
static int check_build_command(char *cmd, const char *nn, char *why, size_t cap) {
  char allowed[512], student_src[128], *tok, *save = NULL, *words[256];
  int n = 0, bad = 0;
  for (tok = strtok_r(cmd, " \t", &save); tok && n < 256; tok = strtok_r(NULL, " \t", &save)) words[n++] = tok;
  if (n == 0) return 0;
  const char *prog = strrchr(words[0], '/') ? strrchr(words[0], '/') + 1 : words[0];
  int compiler = !strcmp(prog, "nvcc") || !strcmp(prog, "cc"), archive = !strcmp(prog, "ar");
  if (!compiler && !archive) return 0;
  snprintf(student_src, sizeof student_src, "build/solutions/%s/stage/", nn);
  const char *what = NULL;
  for (int i = 1; i < n && compiler; i++) {
    const char *w = words[i];
    if (strstr(w, "grader/protocol/") && strstr(w, ".c") && !strncmp(w, "grader/protocol/", 16)) {
      what = "a contract (grader/protocol)";
      snprintf(allowed, sizeof allowed, "grader/protocol");
    } else if (!strncmp(w, "grader/runner/", 14) || strstr(w, "/runner.cu") || strstr(w, "/model_tables.cu")) {
      what = "the runner";
      snprintf(allowed, sizeof allowed, "grader/protocol grader/runner assignments/%s build/solutions/%s/stage", nn, nn);
    } else if (i > 1 && !strcmp(words[i - 1], "-c") && !strncmp(w, student_src, strlen(student_src))) {
      what = "the student's file";
      snprintf(allowed, sizeof allowed, "assignments/%s build/solutions/%s/stage", nn, nn);
    }
    if (what) break;
  }
  for (int i = 1; i < n && compiler && what; i++) {
    const char *w = words[i];
    if (strncmp(w, "-I", 2)) continue;
    const char *folder = w[2] ? w + 2 : (i + 1 < n ? words[i + 1] : "");
    if (!include_allowed(folder, allowed)) {
      size_t len = strlen(why);
      snprintf(why + len, cap - len, "%s: %s is compiled with -I%s (allowed: %s)\n", nn, what, folder, allowed);
      bad++;
    }
  }
  for (int i = 1; i < n; i++) {
    const char *w = words[i];
    int course_lib = strstr(w, "libcourse") || strstr(w, "libgrader") || !strncmp(w, "build/lib/", 10) || !strncmp(w, "build/grader/", 13);
    int foreign_obj = archive && strstr(w, ".o") && strncmp(w, "build/runner/", 13) && strncmp(w, "build/protocol/", 15);
    if ((compiler && what && course_lib) || foreign_obj) {
      size_t len = strlen(why);
      snprintf(why + len, cap - len, "%s: %s takes %s, which is not the runner's nor the contracts'\n", nn,
               archive ? "librunner.a" : what, w);
      bad++;
    }
  }
  return bad;
}

/* Checks every command of text (split at ; && || and newlines) as one of nn's build; returns the problems. */
static int check_commands_text(char *text, const char *nn, int *commands, char *why, size_t cap) {
  int bad = 0;
  for (char *p = text; *p;) {
    size_t len = strcspn(p, ";\n&|");
    char sep = p[len];
    p[len] = 0;
    if (len) ++*commands, bad += check_build_command(p, nn, why, cap);
    p += len + (sep != 0);
  }
  return bad;
}

/* A stand-in for nvcc: records each call's arguments (one line) in NVCC_ARGS_LOG
 * and writes what was asked for (-o), with a dependency file (-MF) naming the
 * .cu inputs and the staged folder's files, as the grader's build checks them. */
static const char RECORDING_NVCC[] =
    "#!/bin/sh\n"
    "[ \"$1\" = --version ] && { echo 'recording nvcc'; exit 0; }\n"
    "printf 'nvcc %s\\n' \"$*\" >> \"$NVCC_ARGS_LOG\"\n"
    "out=; dep=; prev=; deps=\n"
    "for a in \"$@\"; do\n"
    "  case $prev in -o) out=$a ;; -MF) dep=$a ;; esac\n"
    "  case $a in *.cu) deps=\"$deps $a\" ;; -I*/stage) deps=\"$deps $(ls -d \"${a#-I}\"/* | tr '\\n' ' ')\" ;; esac\n"
    "  prev=$a\n"
    "done\n"
    "[ -n \"$dep\" ] && echo \"$out: $deps\" > \"$dep\"\n"
    "echo built > \"$out\"\n";

START_TEST(test_inspect_include_paths) {
  static char NN[MAX_ASSIGNMENTS][64];
  int n_nn = assignment_folders(NN);
  /* a copy of what the build reads, with an inspection that accepts everything (its checks are tested above) */
  char *root = make_temp_dir("include-paths"), cmd[4096], path[1024], grade[1024];
  ck_assert(realpath("build/grader/grade", grade) != NULL);
  snprintf(cmd, sizeof cmd,
           "cp -r assignments solutions '%s'/ && mkdir -p '%s'/grader/inspect '%s'/build/runner '%s'/build/lib && "
           "cp -r grader/runner grader/protocol '%s'/grader/ && cp grader/inspect/course-prefixes.txt grader/inspect/inspect-links.sh grader/inspect/header-decls.awk "
           "grader/inspect/student-calls.txt '%s'/grader/inspect/ && echo 'exit 0' > '%s'/grader/inspect/inspect-student.sh && touch '%s'/build/runner/librunner.a "
           "'%s'/build/runner/sandbox.o '%s'/build/runner/guard.o '%s'/build/lib/libcourse.a",
           root, root, root, root, root, root, root, root, root, root, root);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/nvcc", root);
  write_text(path, RECORDING_NVCC, 1);
  snprintf(cmd, sizeof cmd,
           "NVCC_ARGS_LOG='%s/args' '%s' --root '%s' --build-only --bench --src solutions --nvcc '%s/nvcc' --gencode -arch=sm_90 > '%s/log' 2>&1",
           root, grade, root, root, root);
  ck_assert_msg(run_shell(cmd) == 0, "grade --build-only with the recording nvcc failed (see %s/log)", root);
  for (int i = 0; i < n_nn; i++) {
    char why[4096] = "";
    int commands = 0;
    snprintf(cmd, sizeof cmd, "grep -e 'assignments/%s' '%s/args' > '%s/one'", NN[i], root, root);
    ck_assert_int_eq(run_shell(cmd), 0);
    snprintf(path, sizeof path, "%s/one", root);
    char *text = read_text(path);
    ck_assert(text != NULL);
    int bad = check_commands_text(text, NN[i], &commands, why, sizeof why);
    free(text);
    ck_assert_msg(commands >= 3, "%s: the build ran only %d nvcc commands", NN[i], commands);
    ck_assert_msg(bad == 0, "%s", why);
  }
  /* librunner.a: the archive command make would run */
  char why[2048] = "";
  int commands = 0;
  snprintf(cmd, sizeof cmd, "make -n -B ARCH=sm_90 build/runner/librunner.a > '%s/dry' 2>&1", root);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(path, sizeof path, "%s/dry", root);
  char *dry = read_text(path);
  ck_assert(dry != NULL);
  ck_assert_msg(check_commands_text(dry, NN[0], &commands, why, sizeof why) == 0, "%s", why);
  free(dry);
  remove_dir(root);
  free(root);
}
END_TEST

/* The check reads what it must: a runner command with grader/lib on its path is refused. */
START_TEST(test_inspect_include_paths_refuse) {
  char cmd[] = "/usr/local/cuda/bin/nvcc -O3 -Igrader/protocol -Igrader/lib -Iassignments/" FICTION " " ASSIGNMENT "runner/runner.cu "
               "build/solutions/" FICTION "/student.o build/lib/libcourse.a -o x";
  char why[1024] = "";
  ck_assert_int_eq(check_build_command(cmd, FICTION, why, sizeof why), 2);
  ck_assert_msg(strstr(why, "-Igrader/lib") && strstr(why, "libcourse.a"), "%s", why);
  char student[] = "nvcc -O3 -Iassignments/" FICTION " -Ibuild/solutions/" FICTION "/stage -Igrader/runner -c "
                   "build/solutions/" FICTION "/stage/" STUDENT_FILE " -o s.o";
  why[0] = 0;
  ck_assert_int_eq(check_build_command(student, FICTION, why, sizeof why), 1);
  ck_assert_msg(strstr(why, "the student's file is compiled with -Igrader/runner"), "%s", why);
  char archive[] = "ar rcs build/runner/librunner.a build/runner/runner_loop.o build/lib/scan_cpu.o";
  why[0] = 0;
  ck_assert_int_eq(check_build_command(archive, FICTION, why, sizeof why), 1);
}
END_TEST

Suite *inspect_suite(void) {
  Suite *s = suite_create("inspect");
  TCase *t = tcase_create("student object");
  /* nvcc runs once for the case, in the runner; the tests only run the script */
  tcase_add_unchecked_fixture(t, compile_fixtures, remove_fixtures);
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, test_inspect_fixture, 0, (int)N_CASES);
  tcase_add_test(t, test_inspect_course_code);
  tcase_add_test(t, test_inspect_device_symbols);
  tcase_add_test(t, test_inspect_device_symbols_parsed);
  tcase_add_test(t, test_inspect_cuobjdump_fails);
  tcase_add_test(t, test_inspect_depfile_syntax);
  tcase_add_test(t, test_inspect_course_files);
  tcase_add_test(t, test_inspect_course_file_link);
  tcase_add_test(t, test_inspect_checkout_path);
  tcase_add_test(t, test_inspect_bad_arguments);
  tcase_add_test(t, test_inspect_no_temp_files);
  tcase_add_loop_test(t, test_inspect_impostors, 0, (int)N_IMPOSTORS);
  tcase_add_test(t, test_inspect_missing_library);
  tcase_add_test(t, test_inspect_library_list_kept);
  tcase_add_test(t, test_inspect_header_decls);
  tcase_add_test(t, test_inspect_course_builds);
  suite_add_tcase(s, t);
  t = tcase_create("course prefixes");
  tcase_set_timeout(t, 60); /* nm over every object of the course: past Check's default 4 s on a busy machine */
  tcase_add_test(t, test_inspect_course_prefixes_cover);
  tcase_add_test(t, test_inspect_course_prefixes_used);
  tcase_add_test(t, test_inspect_runner_no_vague_symbols);
  suite_add_tcase(s, t);
  t = tcase_create("include paths");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_inspect_include_paths);
  tcase_add_test(t, test_inspect_include_paths_refuse);
  suite_add_tcase(s, t);
  return s;
}
