# Scan Lab: build, grade and test. `make help` lists the targets.
#
#   make grade [A=01] [SRC=solutions]   build your code and grade it against the reference
#   make test                           the CPU test tier (no GPU needed; CI runs it)
#
# Layout (docs/architecture.md): assignments/NN (handout, harness, grade.conf, ref/),
# starter/NN (the files students edit), solutions/NN (the same files, solved),
# grader/ (lib: shared C modules, harness: CUDA driver, src: grader, tests).

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

CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-format-truncation -D_GNU_SOURCE -Igrader/lib -Igrader/src
NVCCFLAGS := -O3 -std=c++17 $(GENCODE) -Igrader/lib -Igrader/harness
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
LIB_O := $(patsubst grader/lib/%.c,$(B)/lib/%.o,$(wildcard grader/lib/*.c))
LIBHARNESS := $(B)/lib/libharness.a
GRADER_O := $(patsubst grader/src/%.c,$(B)/grader/%.o,$(filter-out grader/src/grade.c,$(wildcard grader/src/*.c)))
LIBGRADER := $(B)/grader/libgrader.a
GRADE := $(B)/grader/grade
GPUINFO := $(B)/tools/gpuinfo

# The GPU flags in use: changing ARCH rebuilds everything compiled with them.
$(B)/.gencode: FORCE
	@mkdir -p $(B)
	@echo '$(GENCODE)' | cmp -s - $@ || echo '$(GENCODE)' > $@

$(B)/lib/%.o: grader/lib/%.c $(wildcard grader/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# The harness library: the driver and its outputs (C), the CUDA device (harness.cu).
# What every program linked with it needs besides (libpng for images, static so
# harnesses run on a GPU host without it).
PNG_LIBS := -l:libpng16.a -l:libz.a -lm
HARNESS_LIBS := $(PNG_LIBS) -lpthread
HARNESS_O := $(patsubst grader/harness/%.c,$(B)/lib/%.o,$(wildcard grader/harness/*.c))
$(B)/lib/%.o: grader/harness/%.c $(wildcard grader/harness/*.h grader/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Igrader/harness -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

$(B)/lib/harness.o: grader/harness/harness.cu $(wildcard grader/harness/*.h grader/lib/*.h) $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(NVCC_STRICT) -c $< -o $@.tmp$$$$.o && mv -f $@.tmp$$$$.o $@

$(LIBHARNESS): $(LIB_O) $(HARNESS_O) $(B)/lib/harness.o
	rm -f $@.tmp$$$$ && ar rcs $@.tmp$$$$ $^ && mv -f $@.tmp$$$$ $@

$(B)/grader/%.o: grader/src/%.c $(wildcard grader/src/*.h grader/lib/*.h)
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

$(GPUINFO): grader/harness/gpuinfo.cu $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(NVCC_STRICT) $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# ----------------------------------------------------------------- harness builds
# build/<src>/<NN>/harness: the assignment's harness with <src>/<NN>'s files
# compiled into it (the harness #includes them), and harness.ptx for the ptx
# checks. A failing student build leaves its compiler messages in build.log,
# which the grader reports as "does not compile". Each output is written to a
# temporary name and renamed, so that two `make grade` at once never run a
# half-written binary.
define harness_rules
$(B)/$(1)/$(2)/harness: $(wildcard assignments/$(2)/*.cu assignments/$(2)/*.h $(1)/$(2)/*) $(LIBHARNESS) $(B)/.gencode
	@mkdir -p $$(@D)
	@echo "NVCC $(1)/$(2) -> $$@"
	@t=$$@.tmp$$$$$$$$; $(NVCC) $(NVCCFLAGS) -Iassignments/$(2) -I$(1)/$(2) assignments/$(2)/main.cu $(LIBHARNESS) \
	  $(HARNESS_LIBS) -o $$$$t > $$$$t.log 2>&1; rc=$$$$?; cat $$$$t.log; mv -f $$$$t.log $$(@D)/build.log; \
	  if [ $$$$rc -ne 0 ]; then rm -f $$$$t $$@; echo "$(1)/$(2): does not compile" >&2; exit 1; fi; mv -f $$$$t $$@

$(B)/$(1)/$(2)/harness.ptx: $(wildcard assignments/$(2)/*.cu assignments/$(2)/*.h $(1)/$(2)/*)
	@mkdir -p $$(@D)
	@t=$$@.tmp$$$$$$$$; $(NVCC) -ptx -arch=$(PTX_ARCH) -std=c++17 -Igrader/lib -Igrader/harness -Iassignments/$(2) \
	  -I$(1)/$(2) assignments/$(2)/main.cu -o $$$$t 2> $$(@D)/ptx.log && mv -f $$$$t $$@ || { rm -f $$$$t $$@; exit 1; }

# The bench build: the same harness compiled with -DHX_BENCH, which makes
# main.cu include assignments/NN/baselines.cu (rows that are not student code,
# such as CUB's). Only assignments that have baselines.cu get one, so CUB is
# never compiled into a graded binary nor into the PTX the ptx checks read.
ifneq ($(wildcard assignments/$(2)/baselines.cu),)
$(B)/$(1)/$(2)/bench: $(wildcard assignments/$(2)/*.cu assignments/$(2)/*.h $(1)/$(2)/*) $(LIBHARNESS) $(B)/.gencode
	@mkdir -p $$(@D)
	@echo "NVCC $(1)/$(2) -> $$@ (with baselines)"
	@t=$$@.tmp$$$$$$$$; $(NVCC) $(NVCCFLAGS) -DHX_BENCH -Iassignments/$(2) -I$(1)/$(2) assignments/$(2)/main.cu $(LIBHARNESS) \
	  $(HARNESS_LIBS) -o $$$$t 2> $$(@D)/bench.log && mv -f $$$$t $$@ || { cat $$(@D)/bench.log; rm -f $$$$t $$@; exit 1; }
endif

# An optional CPU model (assignments/NN/model.cu): host code that includes the
# student's file and evaluates it without a GPU (the bank-conflict model of 03).
ifneq ($(wildcard assignments/$(2)/model.cu),)
$(B)/$(1)/$(2)/model: $(wildcard assignments/$(2)/*.cu assignments/$(2)/*.h $(1)/$(2)/*) $(LIB_O) $(B)/.gencode
	@mkdir -p $$(@D)
	@t=$$@.tmp$$$$$$$$; $(NVCC) $(NVCCFLAGS) -Iassignments/$(2) -I$(1)/$(2) assignments/$(2)/model.cu $(LIB_O) $(HARNESS_LIBS) \
	  -o $$$$t 2> $$(@D)/model.log && mv -f $$$$t $$@ || { cat $$(@D)/model.log; rm -f $$$$t $$@; exit 1; }
$(1)_EXTRA_$(2) := $(B)/$(1)/$(2)/model
endif
endef
$(foreach s,starter solutions,$(foreach a,$(ASSIGNMENTS),$(eval $(call harness_rules,$(s),$(a)))))

# Everything built from one source tree for one assignment: harness, PTX, model.
built_from = $(B)/$(1)/$(2)/harness $(B)/$(1)/$(2)/harness.ptx $($(1)_EXTRA_$(2))
# The binary `make bench` runs: the bench build where there is one, else the harness.
bench_bin = $(if $(wildcard assignments/$(2)/baselines.cu),$(B)/$(1)/$(2)/bench,$(B)/$(1)/$(2)/harness)
ref_bench = assignments/$(1)/ref/$(if $(wildcard assignments/$(1)/baselines.cu),bench,reference)
STUDENT_BINS := $(foreach a,$(SELECTED),$(call built_from,$(SRC),$(a)))
REFS := $(foreach a,$(SELECTED),assignments/$(a)/ref/reference $(if $(wildcard assignments/$(a)/baselines.cu),assignments/$(a)/ref/bench))

# The reference binary of a handout: the solutions' harness, built by `make reference`.
assignments/%/ref/reference: $(B)/solutions/%/harness
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# Its bench build, where the assignment has baselines (CUB rows).
assignments/%/ref/bench: $(B)/solutions/%/bench
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# ----------------------------------------------------------------- lectures
# lectures/examples/NAME.cu -> build/lectures/NAME (linked with the harness
# library for its CUDA checks and statistics); lectures/figures/NAME.gp draws
# lectures/figures/NAME.png from the measured data in lectures/data/.
LECTURE_EXAMPLES := $(patsubst lectures/examples/%.cu,$(B)/lectures/%,$(wildcard lectures/examples/*.cu))
LECTURE_PTX := $(addsuffix .ptx,$(LECTURE_EXAMPLES))
FIGURE_SCRIPTS := $(wildcard lectures/figures/*.gp)

$(B)/lectures/%: lectures/examples/%.cu $(LIBHARNESS) $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(NVCC_STRICT) $< $(LIBHARNESS) $(HARNESS_LIBS) -o $@

# The PTX of an example, for the tests that check what a lecture says it compiles to.
$(B)/lectures/%.ptx: lectures/examples/%.cu
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=$(PTX_ARCH) -std=c++17 -Igrader/lib -Igrader/harness $< -o $@

# draw_figures DIR: every figure script, its PNG written into DIR.
draw_figures = for gp in $(FIGURE_SCRIPTS); do \
	  out=$(1)/$$(basename $$gp .gp).png; gnuplot -e "out='$$out'" $$gp || { echo "figures: $$gp failed" >&2; exit 1; }; \
	  echo "drew $$out"; done

# ----------------------------------------------------------------- targets
.PHONY: all grade test test-gpu reference bench ptx lectures figures clean help deps-grade deps-test tools gpu-carry FORCE

all: tools $(foreach a,$(SELECTED),$(B)/starter/$(a)/harness) $(if $(HAVE_SOLUTIONS),reference) ## build the grader, the reference binaries and the starter harnesses

tools: $(GRADE) $(GPUINFO)

reference: ## build assignments/NN/ref/reference from solutions/ (instructors)
ifeq ($(HAVE_SOLUTIONS),)
	@echo "reference: there is no solutions/ here; a handout ships assignments/NN/ref/reference prebuilt." >&2; exit 1
else
	@$(MAKE) $(REFS)
endif

grade: deps-grade ## build your code (SRC=starter) and grade it: make grade [A=01] [SRC=solutions]
	@$(MAKE) tools $(if $(HAVE_SOLUTIONS),$(REFS))
	@for f in $(STUDENT_BINS); do $(MAKE) $$f || true; done
	@$(GRADE) --src $(SRC) --cuda $(CUDA_HOME) $(SELECTED); rc=$$?; case $$rc in \
	  0) ;; 3) echo "make grade: exit 3: no CUDA device, so only the checks that need none were graded (docs/grading.md)" >&2 ;; \
	  *) echo "make grade: the grader exited $$rc (docs/grading.md lists the codes)" >&2 ;; esac; exit $$rc

ptx: ## print the PTX of each kernel of the selected assignments: make ptx A=01 [SRC=solutions]
	@for a in $(SELECTED); do $(MAKE) $(B)/$(SRC)/$$a/harness.ptx || exit 1; \
	  echo "# PTX of $(SRC)/$$a ($(PTX_ARCH)); kernels: $$(grep -o '\.entry [A-Za-z_0-9]*' $(B)/$(SRC)/$$a/harness.ptx | cut -d' ' -f2 | tr '\n' ' ')"; \
	  awk '/\.entry /{on=1} on{print} on && /^}/{on=0; print ""}' $(B)/$(SRC)/$$a/harness.ptx; done

bench: ## time the reference and your code against a device-to-device copy (and CUB, in 04): make bench A=01
	@$(MAKE) tools $(if $(HAVE_SOLUTIONS),$(REFS)) $(foreach a,$(SELECTED),$(call bench_bin,$(SRC),$(a)))
	@mkdir -p $(B)/bench
	@set -o pipefail; $(foreach a,$(SELECTED),{ echo "## reference: $(a)"; $(call ref_bench,$(a)) --bench && \
	  echo "## $(SRC): $(a)" && $(call bench_bin,$(SRC),$(a)) --bench; } | tee $(B)/bench/$(a).txt && \
	  awk -v dat=$(B)/bench/$(a).dat -f mk/bench-table.awk $(B)/bench/$(a).txt && \
	  { ! command -v gnuplot >/dev/null || gnuplot -e "dat='$(B)/bench/$(a).dat'; out='$(B)/bench/$(a).png'; \
	    title='$(a): make bench'; bycase=$$(head -c4 $(B)/bench/$(a).dat | grep -c case)" mk/bench.gp && \
	    echo "drew $(B)/bench/$(a).png"; } || exit 1;) true

test: deps-test ## the CPU test tier: unit tests, fault suite, every build, ptx checks (no GPU needed)
	@$(MAKE) test-run

test-gpu: ## the GPU test tier, on a machine with a CUDA GPU (from a build made with `make test-gpu-build`)
	@bash grader/tests/gpu-tier.sh $(SELECTED)

test-gpu-build: ## build everything the GPU tier runs (needs Check and inih); copy build/ and ref/ to the GPU host
	@$(MAKE) tools reference
	@$(MAKE) $(foreach a,$(SELECTED),$(call built_from,starter,$(a)) $(call built_from,solutions,$(a)) \
	  $(call bench_bin,starter,$(a)) $(call bench_bin,solutions,$(a))) $(GPU_FAULT_BINS) $(LECTURE_EXAMPLES) $(TIMINGS)

# One file to carry to a GPU host lent for a short time (tools/gpu-session.sh):
# the binaries the GPU tier, the benches, the timings and the lecture examples
# run, and the reference binaries; no objects, logs or lecture PTX. Build it
# with ARCH=sm_90 (or the host's GPU) to keep it small (about 21 MB).
gpu-carry: ## pack what the GPU tier and tools/gpu-session.sh run into gpu-carry.tar.gz: make gpu-carry ARCH=sm_90
	@$(MAKE) test-gpu-build
	@tar czf gpu-carry.tar.gz.tmp --exclude='*.log' --exclude='$(B)/lectures/*.ptx' $(B)/.gencode $(GRADE) $(GPUINFO) \
	  $(TIMINGS) $(B)/starter $(B)/solutions $(B)/gpu-faults $(B)/lectures $(wildcard $(B)/tune-04) assignments/*/ref && \
	  mv -f gpu-carry.tar.gz.tmp gpu-carry.tar.gz && echo "gpu-carry.tar.gz: $$(du -h gpu-carry.tar.gz | cut -f1); on the GPU host: tar xzf gpu-carry.tar.gz && bash tools/gpu-session.sh OUTDIR"

lectures: $(LECTURE_EXAMPLES) ## build the lecture examples into build/lectures/ (running them needs a GPU)

figures: ## draw the lecture figures (lectures/figures/*.png) from lectures/data/ with gnuplot (no GPU needed)
	@command -v gnuplot >/dev/null || { echo "figures: gnuplot is not installed: sudo apt-get install -y gnuplot-nox" >&2; exit 1; }
	@$(call draw_figures,lectures/figures)

deps-grade:
	@bash mk/deps.sh grade "$(NVCC)"

deps-test:
	@bash mk/deps.sh test "$(NVCC)"

clean: ## remove build/, grade-results/, dist/ and the reference binaries
	rm -rf $(B) grade-results dist gpu-carry.tar.gz assignments/*/ref

help: ## list the targets
	@echo "Scan Lab targets (A=01 picks an assignment, SRC=solutions grades the solutions, ARCH=sm_90 sets the GPU):"
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 18

FORCE:

include mk/render.mk
include grader/tests/tests.mk
include mk/lectures.mk
include mk/instructor.mk
