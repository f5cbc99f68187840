# libs.mk: the course's libraries and programs (docs/architecture.md), included by the
# top-level Makefile: the contracts (grader/protocol), the trusted library (grader/lib and
# every assignment's judge/ modules), the runner library (grader/runner), the judge with
# every assignment's spec, the grader, gpuinfo.

# grader/protocol: the contracts between the grader, the judge and the runner (wire, result
# lines, command line, call limit, clock); the only course code a runner links.
PROTOCOL_O := $(patsubst grader/protocol/%.c,$(B)/protocol/%.o,$(wildcard grader/protocol/*.c))
PROTOCOL_H := $(wildcard grader/protocol/*.h)
LIB_O := $(patsubst grader/lib/%.c,$(B)/lib/%.o,$(wildcard grader/lib/*.c)) $(PROTOCOL_O)
# An assignment's trusted modules (assignments/NN/judge/*.c but its spec: a CPU reference, scenes, a model),
# for its spec, the tools and the lecture examples; never the grader's nor a runner's.
ASSIGNMENT_O := $(patsubst %.c,$(B)/%.o,$(filter-out %/spec.c,$(wildcard assignments/*/judge/*.c)))
LIB_H := $(wildcard grader/lib/*.h assignments/*/judge/*.h assignments/*/*.h) $(PROTOCOL_H)

$(B)/lib/%.o: grader/lib/%.c $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
$(B)/protocol/%.o: grader/protocol/%.c $(PROTOCOL_H)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -Igrader/protocol -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
# ASSIGNMENT_CFLAGS: what an assignment.mk adds for one of its modules (a CPU reference that -O3 vectorizes).
$(B)/assignments/%.o: assignments/%.c $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ASSIGNMENT_CFLAGS) -I$(<D)/.. -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# What every program that writes PNG images needs (libpng, static, so programs run on a GPU host without it).
PNG_LIBS := -l:libpng16.a -l:libz.a -lm
# The course library (grader/lib, grader/protocol and the assignments' trusted modules) for the
# tools, the lecture examples and an assignment's model program. Never linked into a runner.
LIBCOURSE := $(B)/lib/libcourse.a
$(LIBCOURSE): $(LIB_O) $(ASSIGNMENT_O)
	rm -f $@.tmp$$$$ && ar rcs $@.tmp$$$$ $^ && mv -f $@.tmp$$$$ $@

# The untrusted side (grader/runner/): the library every runner links with the student's
# object: the protocol loop, the sandbox and the CUDA device, nothing that knows a right answer.
RUNNER_C_O := $(B)/runner/runner_loop.o $(B)/runner/sandbox.o $(B)/runner/guard.o $(B)/runner/profiling.o $(B)/protocol/wire.o
LIBRUNNER := $(B)/runner/librunner.a
RUNNER_CFLAGS := $(BASE_CFLAGS) $(RUNNER_INCLUDES)
$(B)/runner/%.o: grader/runner/%.c $(wildcard grader/runner/*.h) $(PROTOCOL_H)
	@mkdir -p $(@D)
	$(CC) $(RUNNER_CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
$(B)/runner/runner_cuda.o: grader/runner/runner_cuda.cu $(wildcard grader/runner/*.h) $(PROTOCOL_H) $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) -O3 -std=c++17 $(GENCODE) $(RUNNER_INCLUDES) $(NVCC_STRICT) -c $< -o $@.tmp$$$$.o && mv -f $@.tmp$$$$.o $@
$(LIBRUNNER): $(RUNNER_C_O) $(B)/runner/runner_cuda.o
	rm -f $@.tmp$$$$ && ar rcs $@.tmp$$$$ $^ && mv -f $@.tmp$$$$ $@

# The grader (grader/src/) and its library. inih is linked statically so the grader runs on
# GPU hosts that lack it. A handout ships it prebuilt as grader/bin/grade (make handout): copied, not built.
GRADER_O := $(patsubst grader/src/%.c,$(B)/grader/%.o,$(filter-out grader/src/grade.c,$(wildcard grader/src/*.c)))
LIBGRADER := $(B)/grader/libgrader.a
GRADE := $(B)/grader/grade
$(B)/grader/%.o: grader/src/%.c $(wildcard grader/src/*.h) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
# Written to a temporary name and renamed, as the binaries are: two make grade at once never link a half-written archive.
$(LIBGRADER): $(GRADER_O) $(LIB_O)
	rm -f $@.tmp$$$$ && ar rcs $@.tmp$$$$ $^ && mv -f $@.tmp$$$$ $@
ifneq ($(wildcard grader/bin/grade),)
$(GRADE): grader/bin/grade
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
else
$(GRADE): $(B)/grader/grade.o $(LIBGRADER)
	$(CC) -o $@.tmp$$$$ $^ -l:libinih.a -lm && mv -f $@.tmp$$$$ $@
endif

# The trusted side (grader/judge/): the judge program, with every assignment's spec
# (assignments/NN-name/judge/spec.c, which defines judge_spec_NN) and the table of them,
# written from the folders into build/judge/specs.c (rewritten only when it changes).
JUDGE := $(B)/grader/judge
SPEC_O := $(patsubst assignments/%/judge/spec.c,$(B)/judge/spec-%.o,$(wildcard assignments/*/judge/spec.c))
JUDGE_O := $(patsubst grader/judge/%.c,$(B)/judge/%.o,$(wildcard grader/judge/*.c)) $(B)/judge/specs.o
JUDGE_CFLAGS := $(BASE_CFLAGS) $(COURSE_INCLUDES) -Igrader/judge # not grader/src: the judge uses nothing of the grader
$(B)/judge/%.o: grader/judge/%.c $(wildcard grader/judge/*.h) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(JUDGE_CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
$(B)/judge/spec-%.o: assignments/%/judge/spec.c $(wildcard grader/judge/*.h) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(JUDGE_CFLAGS) -Iassignments/$* -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
# judge_specs_c SPEC_C...: writes $@, the table of the specs whose files are SPEC_C (each
# DIR/NN-name/judge/spec.c defines judge_spec_NN), rewritten only when it changes; the
# tests' judge (grader/tests/tests.mk) writes its own with its fixtures' specs added.
spec_nn = $(foreach s,$(1),$(firstword $(subst -, ,$(notdir $(s:/judge/spec.c=)))))
judge_specs_c = mkdir -p $(@D) && printf '%s\n' '/* specs.c: the table of the specs of the judge, written by mk/libs.mk from each NN-name/judge/spec.c. */' \
  '\#include "spec.h"' $(foreach n,$(call spec_nn,$(1)),'extern const judge_spec judge_spec_$(n);') \
  'const judge_spec *const judge_specs[] = {$(foreach n,$(call spec_nn,$(1)),&judge_spec_$(n),)};' \
  'const int judge_n_specs = $(words $(1));' > $@.tmp$$$$ && { cmp -s $@.tmp$$$$ $@ && rm -f $@.tmp$$$$ || mv -f $@.tmp$$$$ $@; }
$(B)/judge/specs.c: FORCE
	@$(call judge_specs_c,$(wildcard assignments/*/judge/spec.c))
$(B)/judge/specs.o: $(B)/judge/specs.c grader/judge/spec.h
	$(CC) $(JUDGE_CFLAGS) -c $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
ifneq ($(wildcard grader/bin/judge),)
$(JUDGE): grader/bin/judge
	@mkdir -p $(@D)
	cp $< $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
else
$(JUDGE): $(JUDGE_O) $(SPEC_O) $(LIBCOURSE)
	$(CC) -o $@.tmp$$$$ $^ $(PNG_LIBS) -pthread && mv -f $@.tmp$$$$ $@
endif

GPUINFO := $(B)/tools/gpuinfo
$(GPUINFO): grader/tools/gpuinfo.cu $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(NVCC_STRICT) $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
