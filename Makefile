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
# Include paths are the build's trust boundary (docs/architecture.md; test_build checks them):
# - a student's file: STUDENT_NVCCFLAGS plus -Iassignments/NN -I<its folder>, nothing of the course's;
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
RUNNER_C_O := $(B)/runner/runner_loop.o $(B)/runner/sandbox.o $(B)/protocol/wire.o
LIBRUNNER := $(B)/runner/librunner.a
RUNNER_LIBS := -lpthread
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
JUDGE_CFLAGS := $(CFLAGS) -Igrader/judge
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
$(JUDGE): $(JUDGE_O) $(SPEC_O) $(LIBGRADER)
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

# ----------------------------------------------------------------- runner builds
# build/<src>/<NN>/student.o: the student's file compiled on its own, with
# STUDENT_NVCCFLAGS and only assignments/<NN> and its own folder on the include
# path, then inspected (mk/inspect-student.sh): a build that uses CUB or Thrust,
# includes a course file from elsewhere or defines a name of the course's
# libraries (mk/course-prefixes.txt), or runs code of its own before the runner
# calls it, is refused with a one-line reason in `refused`. build/<src>/<NN>/runner: the
# runner, assignments/<NN>/runner.cu linked with student.o and the runner
# library; where the course kernels call the student's __device__ functions
# (INLINE_ASSIGNMENTS), runner.cu includes the student's file last instead, so
# the compiler inlines them (separate objects made 02 and 03 2-3.5x slower on
# the H100, and link-time optimisation needs an nvlink the build hosts lack);
# student.o is still compiled alone, with the student's flags, and inspected,
# and a refusal stops the runner's build. runner.ptx, for the
# ptx checks, is the PTX of the runner where it includes the student's file
# (its kernels, and probe kernels of one call each, with the student's functions
# inlined) or else of the student's file alone (with the student's include path):
# text for the grader to count. A failing student build leaves its compiler
# messages in build.log ("does not compile"). Each output is written to a
# temporary name and renamed, so that two `make grade` at once never run a
# half-written binary.
INLINE_ASSIGNMENTS := 01-warp-scan 02-hillis-steele 03-blelloch
inline = $(filter $(1),$(INLINE_ASSIGNMENTS))
rdc_flag = $(if $(call inline,$(1)),-rdc=true)
# What the runner takes of the student's: student.o, or (inlined) the folder of the file it includes.
student_link = $(if $(call inline,$(2)),-I$(1)/$(2),$(B)/$(1)/$(2)/student.o)
student_cu = $(firstword $(wildcard $(1)/$(2)/*.cu))
define runner_rules
$(B)/$(1)/$(2)/student.o: $(wildcard assignments/$(2)/*.h $(1)/$(2)/*) $(B)/.gencode mk/inspect-student.sh mk/course-prefixes.txt
	@mkdir -p $$(@D)
	@echo "NVCC $(1)/$(2) -> $$@"
	@rm -f $$(@D)/refused; t=$$@.tmp$$$$$$$$; $(NVCC) $(STUDENT_NVCCFLAGS) $(call rdc_flag,$(2)) -Iassignments/$(2) -I$(1)/$(2) \
	  -MD -MF $$$$t.d -c $(call student_cu,$(1),$(2)) -o $$$$t.o > $$$$t.log 2>&1; rc=$$$$?; cat $$$$t.log; mv -f $$$$t.log $$(@D)/build.log; \
	  if [ $$$$rc -ne 0 ]; then rm -f $$$$t.o $$$$t.d $$@ $$(@D)/runner $$(@D)/bench; echo "$(1)/$(2): does not compile" >&2; exit 1; fi; \
	  if ! bash mk/inspect-student.sh $$$$t.o $$$$t.d $(notdir $(call student_cu,$(1),$(2))) $(CUDA_HOME)/bin \
	    assignments/$(2) $(1)/$(2) > $$$$t.why 2>&1; then \
	    mv -f $$$$t.why $$(@D)/refused; rm -f $$$$t.o $$$$t.d $$@ $$(@D)/runner $$(@D)/bench; echo "$(1)/$(2): $$$$(cat $$(@D)/refused)" >&2; exit 1; fi; \
	  rm -f $$$$t.why; mv -f $$$$t.d $$(@D)/student.d; mv -f $$$$t.o $$@

$(B)/$(1)/$(2)/runner: assignments/$(2)/runner.cu $(wildcard assignments/$(2)/*.h) $(B)/$(1)/$(2)/student.o $(LIBRUNNER) $(B)/.gencode
	@t=$$@.tmp$$$$$$$$; $(NVCC) $(RUNNER_NVCCFLAGS) $(if $(call inline,$(2)),,$(NVCC_STRICT)) -Iassignments/$(2) assignments/$(2)/runner.cu \
	  $(call student_link,$(1),$(2)) $(LIBRUNNER) $(RUNNER_LIBS) -o $$$$t >> $$(@D)/build.log 2>&1 \
	  || { cat $$(@D)/build.log; rm -f $$$$t $$@; echo "$(1)/$(2): the runner does not link" >&2; exit 1; }; mv -f $$$$t $$@

$(B)/$(1)/$(2)/runner.ptx: $(wildcard assignments/$(2)/*.cu assignments/$(2)/*.h $(1)/$(2)/*)
	@mkdir -p $$(@D)
	@t=$$@.tmp$$$$$$$$; $(NVCC) -ptx -arch=$(PTX_ARCH) -std=c++17 $(if $(call inline,$(2)),$(RUNNER_INCLUDES)) -Iassignments/$(2) -I$(1)/$(2) \
	  $(if $(call inline,$(2)),assignments/$(2)/runner.cu,$(call student_cu,$(1),$(2))) -o $$$$t 2> $$(@D)/ptx.log && mv -f $$$$t $$@ || { rm -f $$$$t $$@; exit 1; }

# The bench build: the same runner compiled with -DHX_BENCH, which makes
# runner.cu include assignments/NN/baselines.cu (rows that are not student code,
# such as CUB's). Only assignments that have baselines.cu get one, so CUB is
# never compiled into a graded binary nor into the PTX the ptx checks read.
ifneq ($(wildcard assignments/$(2)/baselines.cu),)
$(B)/$(1)/$(2)/bench: assignments/$(2)/runner.cu assignments/$(2)/baselines.cu $(wildcard assignments/$(2)/*.h) $(B)/$(1)/$(2)/student.o $(LIBRUNNER) $(B)/.gencode
	@mkdir -p $$(@D)
	@echo "NVCC $(1)/$(2) -> $$@ (with baselines)"
	@t=$$@.tmp$$$$$$$$; $(NVCC) $(RUNNER_NVCCFLAGS) -DHX_BENCH -Iassignments/$(2) assignments/$(2)/runner.cu \
	  $(call student_link,$(1),$(2)) $(LIBRUNNER) $(RUNNER_LIBS) -o $$$$t 2> $$(@D)/bench.log && mv -f $$$$t $$@ || { cat $$(@D)/bench.log; rm -f $$$$t $$@; exit 1; }
endif

# An optional CPU model (assignments/NN/model.cu): a trusted host program that
# analyses the student's code without a GPU (the bank-conflict model of 03) and
# writes the result lines; it never links the student's object. Where
# assignments/NN/model_tables.cu exists, the table program model-tables is that
# file linked with student.o and the sandbox: the model runs it and reads only
# raw values of the student's functions from it (docs/grading.md, threat model).
# `make .../model` builds it too (order-only: a new student file relinks only it).
ifneq ($(wildcard assignments/$(2)/model.cu),)
$(B)/$(1)/$(2)/model: assignments/$(2)/model.cu $(wildcard assignments/$(2)/*.h) $(LIBCOURSE) $(B)/.gencode \
  $(if $(wildcard assignments/$(2)/model_tables.cu),| $(B)/$(1)/$(2)/model-tables)
	@mkdir -p $$(@D)
	@t=$$@.tmp$$$$$$$$; $(NVCC) $(NVCCFLAGS) -Iassignments/$(2) assignments/$(2)/model.cu \
	  $(LIBCOURSE) $(PNG_LIBS) -o $$$$t 2> $$(@D)/model.log && mv -f $$$$t $$@ || { cat $$(@D)/model.log; rm -f $$$$t $$@; exit 1; }
$(1)_EXTRA_$(2) := $(B)/$(1)/$(2)/model
ifneq ($(wildcard assignments/$(2)/model_tables.cu),)
$(B)/$(1)/$(2)/model-tables: assignments/$(2)/model_tables.cu $(wildcard assignments/$(2)/*.h) grader/runner/sandbox.h \
  $(B)/$(1)/$(2)/student.o $(B)/runner/sandbox.o $(B)/.gencode
	@t=$$@.tmp$$$$$$$$; $(NVCC) $(RUNNER_NVCCFLAGS) $(call rdc_flag,$(2)) -Iassignments/$(2) assignments/$(2)/model_tables.cu \
	  $(B)/$(1)/$(2)/student.o $(B)/runner/sandbox.o -o $$$$t 2> $$(@D)/model-tables.log && mv -f $$$$t $$@ \
	  || { cat $$(@D)/model-tables.log; rm -f $$$$t $$@; exit 1; }
$(1)_EXTRA_$(2) += $(B)/$(1)/$(2)/model-tables
endif
endif
endef
$(foreach s,starter solutions,$(foreach a,$(ASSIGNMENTS),$(eval $(call runner_rules,$(s),$(a)))))

# Everything built from one source tree for one assignment: runner, PTX, model.
built_from = $(B)/$(1)/$(2)/runner $(B)/$(1)/$(2)/runner.ptx $($(1)_EXTRA_$(2))
# The binary `make bench` runs: the bench build where there is one, else the runner.
bench_bin = $(if $(wildcard assignments/$(2)/baselines.cu),$(B)/$(1)/$(2)/bench,$(B)/$(1)/$(2)/runner)
ref_bench = assignments/$(1)/ref/$(if $(wildcard assignments/$(1)/baselines.cu),bench,reference)
STUDENT_BINS := $(foreach a,$(SELECTED),$(call built_from,$(SRC),$(a)))
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
.PHONY: all grade test test-gpu reference bench ptx lectures figures clean help deps-grade deps-test tools gpu-carry FORCE

all: tools $(foreach a,$(SELECTED),$(B)/starter/$(a)/runner) $(if $(HAVE_SOLUTIONS),reference) ## build the grader, the reference binaries and the starter runners

tools: $(GRADE) $(JUDGE) $(GPUINFO)

reference: ## build assignments/NN/ref/reference from solutions/ (instructors)
ifeq ($(HAVE_SOLUTIONS),)
	@echo "reference: there is no solutions/ here; a handout ships assignments/NN/ref/reference prebuilt." >&2; exit 1
else
	@$(MAKE) $(REFS)
endif

grade: deps-grade ## build your code (SRC=starter) and grade it: make grade [A=01] [SRC=solutions] [JOBS=N]
	@$(MAKE) tools $(if $(HAVE_SOLUTIONS),$(REFS))
	@for f in $(STUDENT_BINS); do $(MAKE) $$f || true; done
	@$(GRADE) --src $(SRC) --cuda $(CUDA_HOME) $(if $(JOBS),--jobs $(JOBS)) $(SELECTED); rc=$$?; case $$rc in \
	  0) ;; 3) echo "make grade: exit 3: no CUDA device, so only the checks that need none were graded (docs/grading.md)" >&2 ;; \
	  *) echo "make grade: the grader exited $$rc (docs/grading.md lists the codes)" >&2 ;; esac; exit $$rc

ptx: ## print the PTX of each kernel of the selected assignments: make ptx A=01 [SRC=solutions]
	@for a in $(SELECTED); do $(MAKE) $(B)/$(SRC)/$$a/runner.ptx || exit 1; \
	  echo "# PTX of $(SRC)/$$a ($(PTX_ARCH)); kernels: $$(grep -o '\.entry [A-Za-z_0-9]*' $(B)/$(SRC)/$$a/runner.ptx | cut -d' ' -f2 | tr '\n' ' ')"; \
	  awk '/\.entry /{on=1} on{print} on && /^}/{on=0; print ""}' $(B)/$(SRC)/$$a/runner.ptx; done

# With SRC=solutions (instructors) the starter's rows come too, labelled by source
# (a starter is wrong by design: its rows are marked, not an error).
BENCH_SRCS := $(SRC) $(if $(filter solutions,$(SRC)),starter)
bench: ## time the reference and your code against a device-to-device copy (and CUB, in 04; needs a GPU): make bench A=01
	@bash mk/need-gpu.sh bench $(GPUINFO)
	@$(MAKE) tools $(if $(HAVE_SOLUTIONS),$(REFS)) $(foreach s,$(BENCH_SRCS),$(foreach a,$(SELECTED),$(call bench_bin,$(s),$(a))))
	@mkdir -p $(B)/bench
	@set -o pipefail; $(foreach a,$(SELECTED),{ echo "## reference: $(a)"; $(call ref_bench,$(a)) --bench && \
	  echo "## $(SRC): $(a)" && $(call bench_bin,$(SRC),$(a)) --bench && \
	  $(if $(filter solutions,$(SRC)),{ echo "## starter: $(a)"; $(call bench_bin,starter,$(a)) --bench || true; } &&) true; } | tee $(B)/bench/$(a).txt && \
	  awk -v dat=$(B)/bench/$(a).dat -v named=$(if $(filter solutions,$(SRC)),1,0) -f mk/bench-table.awk $(B)/bench/$(a).txt && \
	  { ! command -v gnuplot >/dev/null || gnuplot -e "dat='$(B)/bench/$(a).dat'; out='$(B)/bench/$(a).png'; \
	    title='$(a): make bench'; bycase=$$(head -c4 $(B)/bench/$(a).dat | grep -c case)" mk/bench.gp && \
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
	@$(MAKE) tools reference
	@$(MAKE) $(foreach a,$(SELECTED),$(call built_from,starter,$(a)) $(call built_from,solutions,$(a)) \
	  $(call bench_bin,starter,$(a)) $(call bench_bin,solutions,$(a))) $(GPU_FAULT_BINS) $(LECTURE_EXAMPLES) $(TIMINGS)
	@ARCH=$(or $(ARCH),sm_90) bash grader/tests/adversarial.sh

# One file to carry to a GPU host lent for a short time (tools/gpu-session.sh):
# the binaries the GPU tier, the benches, the timings and the lecture examples
# run, and the reference binaries; no objects, logs or lecture PTX. Build it
# with ARCH=sm_90 (or the host's GPU) to keep it small (about 21 MB).
gpu-carry: ## pack what the GPU tier and tools/gpu-session.sh run into gpu-carry.tar.gz: make gpu-carry ARCH=sm_90
	@$(MAKE) test-gpu-build
	@tar czf gpu-carry.tar.gz.tmp --exclude='*.log' --exclude='*.o' --exclude='$(B)/lectures/*.ptx' $(B)/.gencode $(GRADE) $(JUDGE) $(GPUINFO) \
	  $(TIMINGS) $(B)/starter $(B)/solutions $(B)/gpu-faults $(B)/lectures $(B)/adversarial $(wildcard $(B)/tune-04 $(B)/tune-05) assignments/*/ref && \
	  mv -f gpu-carry.tar.gz.tmp gpu-carry.tar.gz && echo "gpu-carry.tar.gz: $$(du -h gpu-carry.tar.gz | cut -f1); on the GPU host: tar xzf gpu-carry.tar.gz && bash tools/gpu-session.sh OUTDIR"

lectures: $(LECTURE_EXAMPLES) ## build the lecture examples into build/lectures/ (running them needs a GPU)

figures: ## draw the lecture figures (lectures/figures/*.png) from lectures/data/ with gnuplot (no GPU needed)
	@command -v gnuplot >/dev/null || { echo "figures: gnuplot is not installed: sudo apt-get install -y gnuplot-nox" >&2; exit 1; }
	@$(call draw_figures,lectures/figures)

deps-grade:
	@bash mk/deps.sh grade "$(NVCC)"

deps-test:
	@bash mk/deps.sh test "$(NVCC)"

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
