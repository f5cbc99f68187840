# Scan Lab: build, grade and test. `make help` lists the targets.
#
#   make grade [A=01] [SRC=solutions]   build your code and grade it against the reference
#   make test                           the CPU test tier (no GPU needed; CI runs it)
#
# Layout (docs/architecture.md): an assignment is its three folders, assignments/NN-name
# (handout, grade.conf, interface headers, judge/: its trusted code, runner/: its untrusted
# code, ref/), starter/NN-name and solutions/NN-name; grader/ holds what every assignment
# uses. This file only builds the grader, its libraries and the tools, and calls the grader,
# which builds the student's code (grader/src/build.c). Nothing here names an assignment:
# every list of them is read from the folders. Rule groups: mk/*.mk, and an assignment's
# own targets in assignments/NN-name/assignment.mk.

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
GENCODE := $(if $(ARCH),-arch=$(ARCH),$(if $(HAVE_GPU),-arch=native,$(FAT_GENCODE)))
# PTX for the ptx checks is always made for one fixed virtual GPU, so the counts are the same on every machine.
PTX_ARCH := compute_75

# Include paths are the build's trust boundary (docs/architecture.md; test_inspect checks them):
# a student's file and the runner are compiled by the grader (grader/src/build_recipe.c); here,
# the runner library sees the contracts (grader/protocol) and grader/runner, never a CPU
# reference; the grader and the judge see grader/lib too (COURSE_INCLUDES), an assignment's
# spec its own folder; the tests and lecture examples every assignment's judge/ folder too.
COURSE_INCLUDES := -Igrader/protocol -Igrader/lib
ASSIGNMENT_INCLUDES := $(addprefix -I,$(wildcard assignments/*/judge))
BASE_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-format-truncation -D_GNU_SOURCE
CFLAGS := $(BASE_CFLAGS) $(COURSE_INCLUDES) -Igrader/src
RUNNER_INCLUDES := -Igrader/protocol -Igrader/runner
NVCCFLAGS := -O3 -std=c++17 $(GENCODE) $(COURSE_INCLUDES)
# Course-owned CUDA code is warning-free; a student's file only gets warnings.
NVCC_STRICT := -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror

# ----------------------------------------------------------------- assignments (read from the folders)
ASSIGNMENTS := $(patsubst assignments/%/grade.conf,%,$(wildcard assignments/*/grade.conf))
SELECTED := $(if $(A),$(filter $(A) $(A)-%,$(ASSIGNMENTS)),$(ASSIGNMENTS))
$(if $(SELECTED),,$(error A=$(A) matches no assignment; choose one of: $(ASSIGNMENTS)))
$(if $(filter-out starter solutions,$(SRC)),$(error SRC=$(SRC): use SRC=starter (the default) or SRC=solutions))
HAVE_SOLUTIONS := $(wildcard solutions)
# Those whose grade.conf declares `baselines` (a bench build: docs/grading.md, "The build").
BENCHED := $(patsubst assignments/%/grade.conf,%,$(shell grep -l '^baselines *=' assignments/*/grade.conf 2>/dev/null))

# ----------------------------------------------------------------- libraries and programs
# The GPU flags in use: changing ARCH rebuilds everything compiled with them.
$(B)/.gencode: FORCE
	@mkdir -p $(B)
	@echo '$(GENCODE)' | cmp -s - $@ || echo '$(GENCODE)' > $@

include mk/libs.mk

# ----------------------------------------------------------------- the student's builds
# The grader's own code (grader/src/build.c; docs/architecture.md, "The student's build")
# builds <src>/NN into build/<src>/NN/, rebuilding only when the hash of its files changed;
# make passes only nvcc's path and GENCODE, each one argument.
BUILD_ARGS = --nvcc '$(NVCC)' --gencode '$(GENCODE)'
# What the grader's build takes from make: the grader, the runner library, the sandbox (model-tables), the course library (model).
BUILD_TOOLS := $(GRADE) $(LIBRUNNER) $(B)/runner/sandbox.o $(B)/runner/guard.o $(LIBCOURSE) $(B)/.gencode
# grade_build SRC [OPTIONS]: build the selected assignments' runners from SRC/.
grade_build = $(GRADE) --build-only --src $(1) $(BUILD_ARGS) $(2) $(SELECTED)

# One output of a build (build/<src>/NN/runner or bench), for the targets that name one:
# FORCE, since the grader decides from the files' content whether anything is rebuilt.
.PRECIOUS: $(B)/%/runner $(B)/%/bench
$(B)/%/runner: $(BUILD_TOOLS) FORCE
	@$(GRADE) --build-only --src $(*D) $(BUILD_ARGS) $(*F)
$(B)/%/bench: $(BUILD_TOOLS) FORCE
	@$(GRADE) --build-only --bench --src $(*D) $(BUILD_ARGS) $(*F)

# The reference runners of a handout, from the solutions (`make reference`), and the bench build where there is one.
REFS := $(foreach a,$(SELECTED),assignments/$(a)/ref/reference $(if $(filter $(a),$(BENCHED)),assignments/$(a)/ref/bench))
assignments/%/ref/reference: $(B)/solutions/%/runner
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
assignments/%/ref/bench: $(B)/solutions/%/bench
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# ----------------------------------------------------------------- targets
.PHONY: all grade test test-gpu test-gpu-build reference ptx clean help deps-grade deps-test tools FORCE

all: tools $(BUILD_TOOLS) $(if $(HAVE_SOLUTIONS),reference) ## build the grader, the reference binaries and the starter runners
	@$(call grade_build,starter)

tools: $(GRADE) $(JUDGE) $(GPUINFO)

reference: ## build assignments/NN/ref/reference from solutions/ (instructors)
	@$(if $(HAVE_SOLUTIONS),$(MAKE) $(REFS),echo "reference: there is no solutions/ here; a handout ships assignments/NN/ref/reference prebuilt." >&2; exit 1)

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

include mk/bench.mk mk/lectures.mk mk/instructor.mk grader/tests/tests.mk
# An assignment's own targets and tools (a renderer's program, a research build), from its folder.
include $(wildcard assignments/*/assignment.mk)
