# tests.mk: the CPU test tier (`make test`), included by the top-level Makefile.
# Check unit suites (build/tests/unit: the grader's tests in grader/tests/, the
# course's in tests/ and each assignment's in assignments/NN/tests/, one binary, its
# suites found by wildcard), the fault-injection suite (build/tests/faults),
# every starter and solution compiled, the ptx checks.

CHECK_FLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)
TEST_CFLAGS := $(CFLAGS) $(ASSIGNMENT_INCLUDES) -Igrader/tests -Itests -Igrader/runner -Igrader/judge $(CHECK_FLAGS)
# The course's test files (every C file of tests/) build into build/tests/course/.
COURSE_TEST_O := $(patsubst tests/%.c,$(B)/tests/course/%.o,$(wildcard tests/*.c))
# Each assignment's own unit tests (assignments/NN/tests/test_*.c) build into
# build/tests/assignments/NN/tests/, with its headers (assignments/NN, its judge/) on the path.
ASSIGNMENT_TEST_C := $(wildcard assignments/*/tests/test_*.c)
ASSIGNMENT_TEST_O := $(patsubst assignments/%.c,$(B)/tests/assignments/%.o,$(ASSIGNMENT_TEST_C))
# Every suite of those files, registered in build/tests/suites.c (grader/tests/suites.sh).
UNIT_TEST_C := $(wildcard grader/tests/test_*.c) $(wildcard tests/test_*.c) $(ASSIGNMENT_TEST_C)
UNIT_SUITES_C := $(B)/tests/suites.c
# spec_scan.c: the scan assignments' tests' shared check of a spec (spec_scan.h).
UNIT_O := $(patsubst grader/tests/%.c,$(B)/tests/%.o,$(wildcard grader/tests/test_*.c) grader/tests/unit_main.c grader/tests/support.c \
  grader/tests/spec_scan.c) \
  $(COURSE_TEST_O) $(ASSIGNMENT_TEST_O) $(B)/tests/suites.o
# The runner on the host-memory device with a fake student (test_judge.c), and two builds of
# it that only tests have: one whose "student" defines the runner's filter functions (linked
# ahead of the runner's library, so the runner has no filter and believes it has), and one
# whose "student" defines `syscall` and `prctl` (ahead of libc).
FAKE_RUNNER := $(B)/tests/fake-runner
FAKE_RUNNERS := $(FAKE_RUNNER) $(B)/tests/fake-runner-unfiltered $(B)/tests/fake-runner-syscall
FAULTS_O := $(B)/tests/faults_main.o $(B)/tests/faults_build.o $(B)/tests/support.o
UNIT := $(B)/tests/unit
FAULTS := $(B)/tests/faults
TEST_DEPS_H := $(wildcard grader/tests/*.h grader/tests/fixtures/*/*.h tests/*.h grader/src/*.h grader/runner/*.h grader/judge/*.h) $(LIB_H)

$(B)/tests/%.o: grader/tests/%.c $(TEST_DEPS_H)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c $< -o $@

$(B)/tests/course/%.o: tests/%.c $(TEST_DEPS_H)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c $< -o $@

$(B)/tests/assignments/%.o: assignments/%.c $(TEST_DEPS_H) $(wildcard assignments/*/*.h assignments/*/judge/*.h)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Iassignments/$(firstword $(subst /, ,$*)) -Iassignments/$(firstword $(subst /, ,$*))/judge -c $< -o $@

# Rewritten only when the list of suites changes (FORCE: a test file added or removed).
$(UNIT_SUITES_C): grader/tests/suites.sh FORCE
	@bash grader/tests/suites.sh $@ $(UNIT_TEST_C)
$(B)/tests/suites.o: $(UNIT_SUITES_C) grader/tests/tests.h
	$(CC) $(TEST_CFLAGS) -c $< -o $@

# The tests' judge (test_judge.c): the judge's own objects with every assignment's spec and
# the fixtures' (grader/tests/fixtures/NN-name/judge/spec.c: assignments that exist only for
# the grader's tests), whose table mk/libs.mk's judge_specs_c writes. build/grader/judge
# never holds a fixture.
FIXTURE_SPEC_C := $(wildcard grader/tests/fixtures/*/judge/spec.c)
TEST_JUDGE := $(B)/tests/judge
$(B)/tests/fixtures/spec-%.o: grader/tests/fixtures/%/judge/spec.c $(wildcard grader/tests/fixtures/*/*.h) $(wildcard grader/judge/*.h) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(JUDGE_CFLAGS) -Igrader/tests/fixtures/$* -c $< -o $@
$(B)/tests/fixtures/specs.c: FORCE
	@$(call judge_specs_c,$(wildcard assignments/*/judge/spec.c) $(FIXTURE_SPEC_C))
$(B)/tests/fixtures/specs.o: $(B)/tests/fixtures/specs.c grader/judge/spec.h
	$(CC) $(JUDGE_CFLAGS) -c $< -o $@
$(TEST_JUDGE): $(filter-out $(B)/judge/specs.o,$(JUDGE_O)) $(SPEC_O) $(B)/tests/fixtures/specs.o \
  $(patsubst grader/tests/fixtures/%/judge/spec.c,$(B)/tests/fixtures/spec-%.o,$(FIXTURE_SPEC_C)) $(LIBCOURSE)
	$(CC) -o $@ $^ $(PNG_LIBS) -pthread

# The judge's objects without its main, every spec (the assignments' tests/test_specNN.c) and the assignments' trusted modules.
JUDGE_LIB_O := $(filter-out $(B)/judge/judge_main.o $(B)/judge/specs.o,$(JUDGE_O)) $(SPEC_O) $(ASSIGNMENT_O)
# Order-only: the objects test_inspect.c reads the course's symbols from (not linked), and the
# programs test_judge.c runs.
$(UNIT): $(UNIT_O) $(B)/runner/sandbox.o $(B)/runner/guard.o $(B)/runner/profiling.o $(JUDGE_LIB_O) $(LIBGRADER) | $(RUNNER_C_O) $(JUDGE_O) $(TEST_JUDGE) $(FAKE_RUNNERS)
	$(CC) -o $@ $^ -l:libinih.a -ljansson $(CHECK_LIBS) $(PNG_LIBS) -pthread -lm

# Linked as a runner is (-z now: a read-only GOT inside the image the sandbox guards).
FAKE_LDFLAGS := -pthread -Wl,-z,now,-z,relro
$(FAKE_RUNNER): $(B)/tests/fake_runner.o $(B)/tests/backend_cpu.o $(RUNNER_C_O)
	$(CC) -o $@ $^ $(FAKE_LDFLAGS)
$(B)/tests/fake_runner-%.o: grader/tests/fake_runner.c $(wildcard grader/tests/*.h grader/runner/*.h) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -DFAKE_$(if $(filter unfiltered,$*),NO_FILTER,SYSCALL) -c $< -o $@
$(B)/tests/librunner-c.a: $(RUNNER_C_O)
	rm -f $@ && ar rcs $@ $^
$(B)/tests/fake-runner-%: $(B)/tests/fake_runner-%.o $(B)/tests/backend_cpu.o $(B)/tests/librunner-c.a
	$(CC) -o $@ $^ $(FAKE_LDFLAGS)

# Every assignment's spec against its grade.conf and itself, on the CPU (spec_check.c).
SPEC_CHECK := $(B)/tests/spec-check
$(SPEC_CHECK): $(B)/tests/spec_check.o $(B)/judge/specs.o $(JUDGE_LIB_O) $(LIBGRADER)
	$(CC) -o $@ $^ -l:libinih.a $(PNG_LIBS) -pthread -lm

$(FAULTS): $(FAULTS_O) $(LIBGRADER)
	$(CC) -o $@ $^ -l:libinih.a -ljansson $(CHECK_LIBS) -lm

.PHONY: test-builds test-run
# An assignment.mk adds its own prerequisites of test-builds and test-run; the PTX of every
# GPU fault (GPU_FAULTS_PTX, below) is derived from the folders.
# Every starter, solution, lecture example and tool must compile (a starter is wrong, never broken):
# the grader's build of each (grade --build-only exits 1 when one does not build).
test-builds: tools $(BUILD_TOOLS)
	@$(call grade_build,starter) $(if $(HAVE_SOLUTIONS),&& $(call grade_build,solutions))
	@$(MAKE) gpu-faults $(GPU_FAULTS_PTX) $(if $(HAVE_SOLUTIONS),$(VARIANT_PTX)) $(LECTURE_EXAMPLES) $(LECTURE_PTX) $(if $(HAVE_SOLUTIONS),$(REFS))

# The fault-injection suite and the hostile builds run beside the unit tests: the suite
# spends most of its time waiting on its fakes' time limits and hangs, so on two cores
# the pair costs little more than the unit tests alone. Their output is kept in
# build/tests/*.log and shown once the unit tests end; make stops on the first that failed.
test-run: test-builds $(UNIT) $(FAULTS) $(FAKE_RUNNERS) $(TEST_JUDGE) $(SPEC_CHECK)
	@echo "== unit tests (Check); beside them the fault-injection suite and the hostile builds (output below)"
	@rm -f $(B)/tests/faults.rc $(B)/tests/build-hostile.rc; \
	  { $(FAULTS) > $(B)/tests/faults.log 2>&1; echo $$? > $(B)/tests/faults.rc; \
	  ARCH=$(or $(ARCH),sm_90) bash grader/tests/build-hostile.sh > $(B)/tests/build-hostile.log 2>&1; \
	  echo $$? > $(B)/tests/build-hostile.rc; } & side=$$!; trap 'kill $$side 2> /dev/null' INT TERM; \
	  NVCC=$(NVCC) $(UNIT); unit=$$?; wait $$side; \
	  echo "== fault-injection suite (Check)"; cat $(B)/tests/faults.log; \
	  echo "== the student's build against hostile folders, real nvcc (grader/tests/build-hostile.sh)"; \
	  cat $(B)/tests/build-hostile.log; \
	  [ $$unit -eq 0 ] || { echo "make test: the unit tests failed (above)" >&2; exit 1; }; \
	  [ "$$(cat $(B)/tests/faults.rc 2> /dev/null)" = 0 ] || { echo "make test: the fault-injection suite failed (above)" >&2; exit 1; }; \
	  [ "$$(cat $(B)/tests/build-hostile.rc 2> /dev/null)" = 0 ] || { echo "make test: build-hostile.sh failed (above)" >&2; exit 1; }
	@echo "== every assignment's spec against its grade.conf, on the CPU (grader/tests/spec_check.c)"
	@$(SPEC_CHECK)
	@echo "== the GPU tier's scripts parse, and each assignments/NN-name/tests/gpu-tier.sh defines extra_NN-name"
	@bash -n grader/tests/gpu-tier.sh && for f in $(wildcard assignments/*/tests/gpu-tier.sh); do a=$${f#assignments/}; a=$${a%%/*}; \
	  bash -n "$$f" && bash -c 'source "$$1" && declare -F "extra_$$2" > /dev/null' _ "$$f" "$$a" || \
	  { echo "$$f: does not parse, or defines no function extra_$$a (grader/tests/gpu-tier.sh runs that one)" >&2; exit 1; }; done
	@echo "== the duel's noise figures (grader/judge/phase_clock.h) cover every phase-noise table measured (docs/results/phase-noise-*.txt)"
	@for f in $(wildcard docs/results/phase-noise-*.txt); do bash grader/tests/phase-noise.sh --summary "$$f" > /dev/null || \
	  { echo "$$f: phase_clock.h's figures would charge or disturb an honest duel of this table (bash grader/tests/phase-noise.sh --summary $$f)" >&2; exit 1; }; done; \
	  t=$$(mktemp) && awk 'NF == 9 && $$4 ~ /^[0-9]+$$/ { $$6 = $$6 * 40 } 1' $(firstword $(wildcard docs/results/phase-noise-*.txt)) > "$$t" && \
	  { bash grader/tests/phase-noise.sh --summary "$$t" > /dev/null 2>&1; rc=$$?; rm -f "$$t"; [ $$rc = 1 ]; } || \
	  { echo "phase-noise.sh --summary passed a table whose excesses are 40 times the measured ones" >&2; exit 1; }
	@echo "== adding an assignment: the template, built and graded in a scratch copy of the course (tests/template-assignment.sh)"
	@ARCH=$(or $(ARCH),sm_90) NVCC=$(NVCC) bash tests/template-assignment.sh
	@echo "== adversarial suite, the part a CPU decides: refusals and link failures (grader/tests/adversarial.sh)"
	@bash grader/tests/adversarial.sh
	@echo "== lecture figures (gnuplot, into $(B)/figures)"
	@mkdir -p $(B)/figures && $(call draw_figures,$(B)/figures)
	@echo "== make test: all passed"

# The PTX of every GPU fault (below), for the course's tests that count what a fault's
# kernels do (an assignment's tests/test_courseNN.c, test_counts.c): the runner.ptx of its
# build (the fault's file alone, as a student's), as build/gpu-faults/<fault>/<NN>/student.ptx.
GPU_FAULTS_PTX := $(foreach d,$(wildcard assignments/*/tests/gpu-faults/*/), \
  $(B)/gpu-faults/$(notdir $(d:/=))/$(word 2,$(subst /, ,$(d)))/student.ptx)
$(GPU_FAULTS_PTX): gpu-faults
	cp $(@D)/runner.ptx $@

# GPU-tier faults: a solution with one fault injected each, kept by its assignment
# (assignments/<NN>/tests/gpu-faults/<fault>/: the fault's files, and expect.tsv,
# memcheck.txt, racecheck-ends and no-inspect, which gpu-tier.sh reads and are not copied). make assembles
# each into build/gpu-faults/<fault>/<NN>/src/: the solution's files, then the fault's files
# over them. A fault that replaces the student file itself #includes "solution.cu" (the
# solution's student file, renamed); one that changes a layer (a .cuh) is a patch of it,
# FILE.patch, applied exactly (patch -F0: a solution that moves under it fails the build);
# a fault folder with a file no-inspect (saying why) is a probe of the sandbox that does what the
# inspection refuses, so it is built past it (grade --no-inspect, --dir only); every other
# the grader builds that folder as a student's (grade --build-only --dir ... --out
# build/gpu-faults/<fault>/<NN>), and gpu-tier.sh grades that build (--no-build).
.PHONY: gpu-faults
gpu-faults: $(BUILD_TOOLS)
	@for d in $(wildcard assignments/*/tests/gpu-faults/*/); do d=$${d%/}; fault=$${d##*/}; a=$${d#assignments/}; a=$${a%%/*}; \
	  out=$(B)/gpu-faults/$$fault/$$a; \
	  student=$$(sed -n 's/^student *= *//p' assignments/$$a/grade.conf); \
	  rm -rf "$$out/src" && mkdir -p "$$out/src" && cp -p solutions/$$a/* "$$out/src/" && \
	  { [ ! -f "$$d/$$student" ] || mv "$$out/src/$$student" "$$out/src/solution.cu"; } && \
	  for f in "$$d"/*; do case $${f##*/} in *.patch|expect.tsv|memcheck.txt|racecheck-ends|no-inspect) ;; *) cp -p "$$f" "$$out/src/" ;; esac; done && \
	  for p in "$$d"/*.patch; do [ -e "$$p" ] || continue; t=$${p##*/}; \
	    patch -s -F0 "$$out/src/$${t%.patch}" "$$p" || { echo "$$p: does not apply to solutions/$$a/$${t%.patch}" >&2; exit 1; }; done && \
	  $(GRADE) --build-only $$([ ! -f "$$d/no-inspect" ] || echo --no-inspect) --dir "$$out/src" --out "$$out" $(BUILD_ARGS) "$$a" || exit 1; done

# The variants of a starter or solution that the texts discuss ("drop the last
# store", "a one-word change"), for the count tags of tests/test_counts.c:
# assignments/NN/tests/variants/NAME.patch (found by vpath: NAME is unique), a unified diff
# against the file its `--- PATH` line names, applied into build/variants/NAME/ and compiled to
# PTX as the ptx checks compile that file (runner/runner.cu including it, for an assignment whose
# grade.conf says link = inline).
VARIANT_PATCHES := $(wildcard assignments/*/tests/variants/*.patch)
vpath %.patch $(sort $(dir $(VARIANT_PATCHES)))
VARIANT_PTX := $(patsubst %.patch,$(B)/variants/%.ptx,$(notdir $(VARIANT_PATCHES)))
$(B)/variants/%.ptx: %.patch $(wildcard starter/*/* solutions/*/* assignments/*/runner/*.cu assignments/*/*.h)
	@rm -rf $(B)/variants/$* && mkdir -p $(B)/variants/$*
	@src=$$(sed -n 's/^--- \([^[:space:]]*\).*/\1/p' $< | head -1); a=$$(echo "$$src" | cut -d/ -f2); d=$(B)/variants/$*; \
	  test -f "$$src" || { echo "$<: --- names $$src, not a file" >&2; exit 1; }; \
	  patch -s -F0 -o $$d/$$(basename $$src) $$src $< || { echo "$<: does not apply to $$src" >&2; exit 1; }; \
	  case "$$(sed -n 's/^link *= *//p' assignments/$$a/grade.conf)" in \
	    inline) in=assignments/$$a/runner/runner.cu; inc="$(RUNNER_INCLUDES)" ;; \
	    *) in=$$d/$$(basename $$src); inc=-I$$(dirname $$src) ;; esac; \
	  $(NVCC) -ptx -arch=$(PTX_ARCH) -std=c++17 $$inc -Iassignments/$$a -I$$d $$in -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
