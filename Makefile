# Scan Lab: build, grade and test. `make help` lists the targets.
#
#   make grade [A=01] [SRC=solutions]   build your code and grade it against the reference
#   make test                           the CPU test tier (no GPU needed; CI runs it)
#
# Layout (docs/architecture.md): assignments/NN (handout, runner.cu, grade.conf, ref/),
# starter/NN (the files students edit), solutions/NN (the same files, solved),
# grader/ (protocol: the contracts between processes, lib: trusted C modules and CPU references,
# runner: the untrusted side, judge: the trusted side, src: the grader, tests).

SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
MAKEFLAGS += --no-print-directory

# ----------------------------------------------------------------- toolchain
# nvcc lives in /usr/local/cuda/bin on a standard install; PATH is a fallback.
CUDA_HOME ?= $(or $(wildcard /usr/local/cuda),$(patsubst %/bin/nvcc,%,$(shell command -v nvcc 2>/dev/null)),/usr/local/cuda)
NVCC := $(CUDA_HOME)/bin/nvcc
CC := cc
B := build
SRC ?= starter

# GPU target. ARCH=sm_90 (or native) overrides. Otherwise the GPU present, or,
# with none visible, SASS for sm_75..sm_90 plus PTX that later GPUs can JIT.
HAVE_GPU := $(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU' && echo 1)
FAT_GENCODE := -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89 \
  -gencode arch=compute_90,code=[sm_90,compute_90]
ifneq ($(ARCH),)
  GENCODE := -arch=$(ARCH)
else ifeq ($(HAVE_GPU),1)
  GENCODE := -arch=native
else
  GENCODE := $(FAT_GENCODE)
endif
# PTX for the ptx checks is always made for one fixed virtual GPU, so the counts
# are the same on every machine.
PTX_ARCH := compute_75

BASE_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-format-truncation -D_GNU_SOURCE
CFLAGS := $(BASE_CFLAGS) -Igrader/protocol -Igrader/lib -Igrader/src
# Include paths are the build's trust boundary (docs/architecture.md; test_inspect checks them):
# - a student's file (the grader's build, grader/src/build.c): -O3 -std=c++17 GENCODE plus
#   -Iassignments/NN -I<its staged folder>, nothing of the course's;
# - the runner (grader/runner/, assignments/NN/runner.cu, model_tables.cu): the contracts
#   (grader/protocol/) and its own folder, never grader/lib's CPU references nor the grader's;
# - trusted CUDA programs (lecture examples, 03's model, gpuinfo): protocol and lib.
STUDENT_NVCCFLAGS := -O3 -std=c++17 $(GENCODE)
RUNNER_INCLUDES := -Igrader/protocol -Igrader/runner
RUNNER_NVCCFLAGS := $(STUDENT_NVCCFLAGS) $(RUNNER_INCLUDES)
RUNNER_CFLAGS := $(BASE_CFLAGS) $(RUNNER_INCLUDES)
NVCCFLAGS := $(STUDENT_NVCCFLAGS) -Igrader/protocol -Igrader/lib
# Course-owned CUDA code is warning-free; a student's file only gets warnings.
NVCC_STRICT := -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror

# ----------------------------------------------------------------- assignments
ASSIGNMENTS := $(patsubst assignments/%/grade.conf,%,$(wildcard assignments/*/grade.conf))
ifneq ($(A),)
  SELECTED := $(filter $(A) $(A)-%,$(ASSIGNMENTS))
  ifeq ($(SELECTED),)
    $(error A=$(A) matches no assignment; choose one of: $(ASSIGNMENTS))
  endif
else
  SELECTED := $(ASSIGNMENTS)
endif
ifneq ($(filter-out starter solutions,$(SRC)),)
  $(error SRC=$(SRC): use SRC=starter (the default) or SRC=solutions)
endif
HAVE_SOLUTIONS := $(wildcard solutions)

# ----------------------------------------------------------------- libraries
# grader/protocol: the contracts between the grader, the judge and the runner (wire, result
# lines, command line, call limit, clock); the only course code a runner links.
PROTOCOL_O := $(patsubst grader/protocol/%.c,$(B)/protocol/%.o,$(wildcard grader/protocol/*.c))
PROTOCOL_H := $(wildcard grader/protocol/*.h)
LIB_O := $(patsubst grader/lib/%.c,$(B)/lib/%.o,$(wildcard grader/lib/*.c)) $(PROTOCOL_O)
# The headers of grader/lib and grader/protocol, and 05's constants they include by path (render_cpu.h, scene.h).
LIB_H := $(wildcard grader/lib/*.h) $(PROTOCOL_H) assignments/05-renderer/render_spec.h
GRADER_O := $(patsubst grader/src/%.c,$(B)/grader/%.o,$(filter-out grader/src/grade.c,$(wildcard grader/src/*.c)))
LIBGRADER := $(B)/grader/libgrader.a
GRADE := $(B)/grader/grade
GPUINFO := $(B)/tools/gpuinfo

# The GPU flags in use: changing ARCH rebuilds everything compiled with them.
$(B)/.gencode: FORCE
	@mkdir -p $(B)
	@echo '$(GENCODE)' | cmp -s - $@ || echo '$(GENCODE)' > $@

$(B)/lib/%.o: grader/lib/%.c $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
$(B)/protocol/%.o: grader/protocol/%.c $(PROTOCOL_H)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -Igrader/protocol -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
# The CPU renderer draws every frame 05's judge verifies: -O3 vectorizes its
# loops (the same float operations, so the same bits as -O2; test_render checks).
$(B)/lib/render_cpu.o: CFLAGS += -O3

# What every program that writes PNG images needs (libpng, static, so programs
# run on a GPU host without it).
PNG_LIBS := -l:libpng16.a -l:libz.a -lm
# The course library (grader/lib: PRNG, statistics, CPU references, images,
# scenes; and grader/protocol) for the lecture examples and tools. Never linked into a runner.
LIBCOURSE := $(B)/lib/libcourse.a
$(LIBCOURSE): $(LIB_O)
	rm -f $@.tmp$$$$ && ar rcs $@.tmp$$$$ $^ && mv -f $@.tmp$$$$ $@

# The untrusted side (grader/runner/): the library every runner links with the
# student's object. It holds the protocol loop, the sandbox and the CUDA device,
# and nothing that knows a right answer: no CPU reference, no expected output.
RUNNER_C_O := $(B)/runner/runner_loop.o $(B)/runner/sandbox.o $(B)/runner/guard.o $(B)/runner/profiling.o $(B)/protocol/wire.o
LIBRUNNER := $(B)/runner/librunner.a
# -z now: every symbol bound at load, so the GOT is read-only (RELRO) before the student's
# code runs, inside the image the sandbox guards (grader/runner/guard.h).
RUNNER_LIBS := -lpthread -Xlinker -z,now,-z,relro
$(B)/runner/%.o: grader/runner/%.c $(wildcard grader/runner/*.h) $(PROTOCOL_H)
	@mkdir -p $(@D)
	$(CC) $(RUNNER_CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
$(B)/runner/runner_cuda.o: grader/runner/runner_cuda.cu $(wildcard grader/runner/*.h) $(PROTOCOL_H) $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(RUNNER_NVCCFLAGS) $(NVCC_STRICT) -c $< -o $@.tmp$$$$.o && mv -f $@.tmp$$$$.o $@
$(LIBRUNNER): $(RUNNER_C_O) $(B)/runner/runner_cuda.o
	rm -f $@.tmp$$$$ && ar rcs $@.tmp$$$$ $^ && mv -f $@.tmp$$$$ $@

# The trusted side (grader/judge/): the judge program, with every assignment's
# spec (assignments/NN/spec.c: cases, inputs, what is right).
JUDGE := $(B)/grader/judge
JUDGE_O := $(patsubst grader/judge/%.c,$(B)/judge/%.o,$(wildcard grader/judge/*.c))
SPEC_O := $(patsubst assignments/%/spec.c,$(B)/judge/spec-%.o,$(wildcard assignments/*/spec.c))
JUDGE_CFLAGS := $(BASE_CFLAGS) -Igrader/protocol -Igrader/lib -Igrader/judge # not grader/src: the judge uses nothing of the grader
$(B)/judge/%.o: grader/judge/%.c $(wildcard grader/judge/*.h) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(JUDGE_CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
$(B)/judge/spec-%.o: assignments/%/spec.c $(wildcard assignments/%/*.h grader/judge/*.h) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(JUDGE_CFLAGS) -Iassignments/$* -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
ifneq ($(wildcard grader/bin/judge),)
$(JUDGE): grader/bin/judge
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
else
$(JUDGE): $(JUDGE_O) $(SPEC_O) $(LIBCOURSE)
	$(CC) -o $@.tmp$$$$ $^ $(PNG_LIBS) -pthread && mv -f $@.tmp$$$$ $@
endif

$(B)/grader/%.o: grader/src/%.c $(wildcard grader/src/*.h) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# Written to a temporary name and renamed, as the binaries are: two make grade at once never link a half-written archive.
$(LIBGRADER): $(GRADER_O) $(LIB_O)
	rm -f $@.tmp$$$$ && ar rcs $@.tmp$$$$ $^ && mv -f $@.tmp$$$$ $@

# inih is linked statically so the grader runs on GPU hosts that lack it. A
# handout ships it prebuilt as grader/bin/grade (make handout): copied, not built.
ifneq ($(wildcard grader/bin/grade),)
$(GRADE): grader/bin/grade
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
else
$(GRADE): $(B)/grader/grade.o $(LIBGRADER)
	$(CC) -o $@.tmp$$$$ $^ -l:libinih.a -lm && mv -f $@.tmp$$$$ $@
endif

$(GPUINFO): grader/tools/gpuinfo.cu $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(NVCC_STRICT) $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# ----------------------------------------------------------------- student builds
# The student's build is the grader's own code (grader/src/build.c; docs/architecture.md,
# "The student's build"): for <src>/NN it stages the folder's files (refusing a name
# outside [A-Za-z0-9._-], a symbolic link, anything not a regular file), compiles the
# file grade.conf's `student` names alone, inspects it (grader/inspect/inspect-student.sh), links
# the runner, and makes runner.ptx, model and model-tables (and bench, with --bench)
# in build/<src>/NN/, rebuilding only when the hash of the files it depends on changed.
# No file name of a student's folder is ever a make variable or shell text: make
# only passes nvcc's path and GENCODE, each one argument.
BUILD_ARGS = --nvcc '$(NVCC)' --gencode '$(GENCODE)'
# What the grader's build takes from make: the grader, the runner library, the sandbox (model-tables), the course library (model).
BUILD_TOOLS := $(GRADE) $(LIBRUNNER) $(B)/runner/sandbox.o $(B)/runner/guard.o $(LIBCOURSE) $(B)/.gencode
# grade_build SRC [OPTIONS]: build the selected assignments' runners from SRC/.
grade_build = $(GRADE) --build-only --src $(1) $(BUILD_ARGS) $(2) $(SELECTED)

# One output of a build, for the targets that name one (render.mk, the references):
# FORCE, since the grader decides from the files' content whether anything is rebuilt.
# (One rule per source tree: a pattern rule with two targets would be one recipe making both.
# Precious: make must not delete them as the intermediate files of the references.)
.PRECIOUS: $(B)/starter/%/runner $(B)/solutions/%/runner $(B)/starter/%/bench $(B)/solutions/%/bench
$(B)/starter/%/runner: $(BUILD_TOOLS) FORCE
	@$(GRADE) --build-only --src starter $(BUILD_ARGS) $*
$(B)/solutions/%/runner: $(BUILD_TOOLS) FORCE
	@$(GRADE) --build-only --src solutions $(BUILD_ARGS) $*
$(B)/starter/%/bench: $(BUILD_TOOLS) FORCE
	@$(GRADE) --build-only --bench --src starter $(BUILD_ARGS) $*
$(B)/solutions/%/bench: $(BUILD_TOOLS) FORCE
	@$(GRADE) --build-only --bench --src solutions $(BUILD_ARGS) $*

# The binary `make bench` runs: the bench build where there is one, else the runner.
bench_bin = $(if $(wildcard assignments/$(2)/baselines.cu),$(B)/$(1)/$(2)/bench,$(B)/$(1)/$(2)/runner)
ref_bench = assignments/$(1)/ref/$(if $(wildcard assignments/$(1)/baselines.cu),bench,reference)
REFS := $(foreach a,$(SELECTED),assignments/$(a)/ref/reference $(if $(wildcard assignments/$(a)/baselines.cu),assignments/$(a)/ref/bench))

# The reference runner of a handout: the solutions' runner, built by `make reference`.
assignments/%/ref/reference: $(B)/solutions/%/runner
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# Its bench build, where the assignment has baselines (CUB rows).
assignments/%/ref/bench: $(B)/solutions/%/bench
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# ----------------------------------------------------------------- lectures
# lectures/examples/NAME.cu -> build/lectures/NAME (linked with the runner
# library for its CUDA checks and statistics); lectures/figures/NAME.gp draws
# lectures/figures/NAME.png from the measured data in lectures/data/.
LECTURE_EXAMPLES := $(patsubst lectures/examples/%.cu,$(B)/lectures/%,$(wildcard lectures/examples/*.cu))
LECTURE_PTX := $(addsuffix .ptx,$(LECTURE_EXAMPLES))
FIGURE_SCRIPTS := $(wildcard lectures/figures/*.gp)

$(B)/lectures/%: lectures/examples/%.cu $(LIBCOURSE) $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(NVCC_STRICT) $< $(LIBCOURSE) $(PNG_LIBS) -lpthread -o $@

# The PTX of an example, for the tests that check what a lecture says it compiles to.
$(B)/lectures/%.ptx: lectures/examples/%.cu
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=$(PTX_ARCH) -std=c++17 -Igrader/protocol -Igrader/lib $< -o $@

# draw_figures DIR: every figure script, its PNG written into DIR.
draw_figures = for gp in $(FIGURE_SCRIPTS); do \
	  out=$(1)/$$(basename $$gp .gp).png; gnuplot -e "out='$$out'" $$gp || { echo "figures: $$gp failed" >&2; exit 1; }; \
	  echo "drew $$out"; done

# ----------------------------------------------------------------- targets
.PHONY: all grade test test-gpu test-gpu-build reference bench ptx lectures figures clean help deps-grade deps-test tools gpu-carry FORCE

all: tools $(BUILD_TOOLS) $(if $(HAVE_SOLUTIONS),reference) ## build the grader, the reference binaries and the starter runners
	@$(call grade_build,starter)

tools: $(GRADE) $(JUDGE) $(GPUINFO)

reference: ## build assignments/NN/ref/reference from solutions/ (instructors)
ifeq ($(HAVE_SOLUTIONS),)
	@echo "reference: there is no solutions/ here; a handout ships assignments/NN/ref/reference prebuilt." >&2; exit 1
else
	@$(MAKE) $(REFS)
endif

grade: deps-grade ## build your code (SRC=starter) and grade it: make grade [A=01] [SRC=solutions] [JOBS=N]
	@$(MAKE) tools $(BUILD_TOOLS) $(if $(HAVE_SOLUTIONS),$(REFS))
	@$(GRADE) --src $(SRC) --cuda $(CUDA_HOME) $(BUILD_ARGS) $(if $(JOBS),--jobs $(JOBS)) $(SELECTED); rc=$$?; case $$rc in \
	  0) ;; 3) echo "make grade: exit 3: no CUDA device, so only the checks that need none were graded (docs/grading.md)" >&2 ;; \
	  *) echo "make grade: the grader exited $$rc (docs/grading.md lists the codes)" >&2 ;; esac; exit $$rc

ptx: $(BUILD_TOOLS) ## print the PTX of each kernel of the selected assignments: make ptx A=01 [SRC=solutions]
	@$(call grade_build,$(SRC))
	@for a in $(SELECTED); do \
	  echo "# PTX of $(SRC)/$$a ($(PTX_ARCH)); kernels: $$(grep -o '\.entry [A-Za-z_0-9]*' $(B)/$(SRC)/$$a/runner.ptx | cut -d' ' -f2 | tr '\n' ' ')"; \
	  awk '/\.entry /{on=1} on{print} on && /^}/{on=0; print ""}' $(B)/$(SRC)/$$a/runner.ptx; done

# With SRC=solutions (instructors) the starter's rows come too, labelled by source
# (a starter is wrong by design: its rows are marked, not an error).
BENCH_SRCS := $(SRC) $(if $(filter solutions,$(SRC)),starter)
bench: ## time the reference and your code against a device-to-device copy (and CUB, in 04; needs a GPU): make bench A=01
	@bash tools/need-gpu.sh bench $(GPUINFO)
	@$(MAKE) tools $(BUILD_TOOLS) $(if $(HAVE_SOLUTIONS),$(REFS))
	@$(foreach s,$(BENCH_SRCS),$(call grade_build,$(s),--bench) &&) true
	@mkdir -p $(B)/bench
	@set -o pipefail; $(foreach a,$(SELECTED),{ echo "## reference: $(a)"; $(call ref_bench,$(a)) --bench && \
	  echo "## $(SRC): $(a)" && $(call bench_bin,$(SRC),$(a)) --bench && \
	  $(if $(filter solutions,$(SRC)),{ echo "## starter: $(a)"; $(call bench_bin,starter,$(a)) --bench || true; } &&) true; } | tee $(B)/bench/$(a).txt && \
	  awk -v dat=$(B)/bench/$(a).dat -v named=$(if $(filter solutions,$(SRC)),1,0) -f tools/bench-table.awk $(B)/bench/$(a).txt && \
	  { ! command -v gnuplot >/dev/null || gnuplot -e "dat='$(B)/bench/$(a).dat'; out='$(B)/bench/$(a).png'; \
	    title='$(a): make bench'; bycase=$$(head -c4 $(B)/bench/$(a).dat | grep -c case)" tools/bench.gp && \
	    echo "drew $(B)/bench/$(a).png"; } || exit 1;) true

# With no GPU and no ARCH, the test tier builds for sm_90 alone: no test runs
# the code, and five architectures took 9 of a fresh clone's 14 minutes on 2
# cores. compute_75's front end still sees every runner and student file, since
# the ptx checks compile them all for PTX_ARCH.
TEST_ARCH := $(if $(or $(ARCH),$(HAVE_GPU)),$(ARCH),sm_90)
test: deps-test ## the CPU test tier: unit tests, fault suite, every build, ptx checks (no GPU needed)
	@$(MAKE) test-run $(if $(TEST_ARCH),ARCH=$(TEST_ARCH))

test-gpu: ## the GPU test tier, on a machine with a CUDA GPU (from a build made with `make test-gpu-build`)
	@bash grader/tests/gpu-tier.sh $(SELECTED)

test-gpu-build: deps-grade ## build everything the GPU tier runs (needs inih); copy build/ and ref/ to the GPU host
	@$(MAKE) tools reference $(BUILD_TOOLS)
	@$(call grade_build,starter,--bench) && $(call grade_build,solutions,--bench)
	@$(MAKE) gpu-faults $(LECTURE_EXAMPLES) $(TIMINGS)
	@ARCH=$(or $(ARCH),sm_90) bash grader/tests/adversarial.sh

# One file to carry to a GPU host lent for a short time (tools/gpu-session.sh):
# the binaries the GPU tier, the benches, the timings and the lecture examples
# run, and the reference binaries; no objects, logs or lecture PTX. Build it
# with ARCH=sm_90 (or the host's GPU) to keep it small (about 21 MB).
gpu-carry: ## pack what the GPU tier and tools/gpu-session.sh run into gpu-carry.tar.gz: make gpu-carry ARCH=sm_90
	@$(MAKE) test-gpu-build
	@tar czf gpu-carry.tar.gz.tmp --exclude='*.log' --exclude='*.o' --exclude='*.d' --exclude='$(B)/lectures/*.ptx' $(B)/.gencode $(GRADE) $(JUDGE) $(GPUINFO) \
	  $(TIMINGS) $(B)/starter $(B)/solutions $(B)/gpu-faults $(B)/lectures $(B)/adversarial $(wildcard $(B)/tune-04 $(B)/tune-05) assignments/*/ref && \
	  mv -f gpu-carry.tar.gz.tmp gpu-carry.tar.gz && echo "gpu-carry.tar.gz: $$(du -h gpu-carry.tar.gz | cut -f1); on the GPU host: tar xzf gpu-carry.tar.gz && bash tools/gpu-session.sh OUTDIR"

lectures: $(LECTURE_EXAMPLES) ## build the lecture examples into build/lectures/ (running them needs a GPU)

figures: ## draw the lecture figures (lectures/figures/*.png) from lectures/data/ with gnuplot (no GPU needed)
	@command -v gnuplot >/dev/null || { echo "figures: gnuplot is not installed: sudo apt-get install -y gnuplot-nox" >&2; exit 1; }
	@$(call draw_figures,lectures/figures)

deps-grade:
	@bash tools/deps.sh grade "$(NVCC)"

deps-test:
	@bash tools/deps.sh test "$(NVCC)"

# A handout has no solutions/ to build the references from: there they are kept.
clean: ## remove build/, grade-results/, dist/ and, where solutions/ can rebuild them, the reference binaries (a handout keeps its ref/)
	rm -rf $(B) grade-results dist gpu-carry.tar.gz $(if $(HAVE_SOLUTIONS),assignments/*/ref)

help: ## list the targets
	@echo "Scan Lab targets (A=01 picks an assignment, SRC=solutions grades the solutions, ARCH=sm_90 sets the GPU):"
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 18

FORCE:

include mk/render.mk
include grader/tests/tests.mk
include mk/lectures.mk
include mk/instructor.mk
