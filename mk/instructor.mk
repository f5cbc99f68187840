# instructor.mk: the instructor's targets (docs/instructor-guide.md), included by the
# top-level Makefile: make timings, make handout, make gradescope, make grade-all, make gpu-carry.
# Each one's work is a small program under tools/; this file only wires them up.

TIMINGS := $(B)/tools/timings
DIST := dist
HANDOUT_TGZ := $(DIST)/scan-lab-handout.tar.gz
GRADESCOPE_ZIP := $(DIST)/gradescope-autograder.zip

.PHONY: timings handout gradescope grade-all gpu-carry

# make test runs the timings tool on a fake reference (tests/test_instructor.c).
test-builds: $(TIMINGS)

$(TIMINGS): tools/timings.c $(LIBGRADER)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(LIBGRADER) -o $@.tmp$$$$ -l:libinih.a -lm && mv -f $@.tmp$$$$ $@

# The GPU's name is gpuinfo's line up to its first comma; it names the CSV.
timings: ## time every reference over its case table on this GPU: assignments/NN/timings/<gpu>.csv, .png, suggested full_ratio
	@$(MAKE) tools $(TIMINGS) $(if $(HAVE_SOLUTIONS),$(REFS))
	@line=$$($(if $(SCANLAB_NO_GPU),false,$(GPUINFO))) || { echo "make timings: exit 3: $${line:-no CUDA device (no-GPU mode asked for)}; timings need a GPU" >&2; exit 3; }; \
	gpu=$${line%%,*}; echo "make timings: $$line"; \
	for a in $(SELECTED); do $(TIMINGS) --ref assignments/$$a/ref/reference --conf assignments/$$a/grade.conf \
	  --gpu "$$gpu" --dir assignments/$$a/timings $(if $(RUNS),--runs $(RUNS)) || exit $$?; done

# A handout's references must run on every supported GPU: they are built with the
# fat list whatever GPU this machine has (a no-op when that is already the build).
handout: ## write dist/scan-lab-handout.tar.gz: the course without solutions, fat reference binaries, a prebuilt grader
	@$(MAKE) reference $(GRADE) $(JUDGE) GENCODE='$(FAT_GENCODE)'
	@bash tools/package.sh handout '$(FAT_GENCODE)' $(HANDOUT_TGZ)

gradescope: ## write dist/gradescope-autograder.zip (setup.sh, run_autograder, the handout): make gradescope [A=01]
	@$(MAKE) reference $(GRADE) $(JUDGE) GENCODE='$(FAT_GENCODE)'
	@bash tools/package.sh gradescope '$(FAT_GENCODE)' $(GRADESCOPE_ZIP) $(A)

# Where the students are graded (tools/grade-all.sh): BACKEND=local (GPUS=0,1,...: one
# worker per GPU) or BACKEND=slurm (a job array; SLURM_GRES= asks for no GPU); RUN= resumes.
BACKEND ?= local
SLURM_GRES ?= gpu:1
WAIT ?= 1
grade-all: ## grade one folder per student: make grade-all SUBMISSIONS=dir/ [A=01] [STUDENT_TIMEOUT=1800] [GPUS=0,1] [BACKEND=slurm] [RUN=dir]; writes gradebook.csv
	@test -n "$(SUBMISSIONS)$(RUN)" || { echo "make grade-all: name the folder of submissions: make grade-all SUBMISSIONS=dir/ (or RUN=grade-results/all-... to resume a run)" >&2; exit 2; }
	@$(GRADE_ALL) --check "$(SUBMISSIONS)" "$(A)" "$(STUDENT_TIMEOUT)"
	@$(MAKE) tools $(if $(HAVE_SOLUTIONS),$(REFS))
	@$(GRADE_ALL) "$(SUBMISSIONS)" "$(A)" "$(STUDENT_TIMEOUT)"

# The settings and arguments are checked (--check) before the tools are built and before a run folder is made.
GRADE_ALL = BACKEND='$(BACKEND)' GPUS='$(GPUS)' RUN='$(RUN)' WAIT='$(WAIT)' SLURM_GRES='$(SLURM_GRES)' SLURM_PARTITION='$(SLURM_PARTITION)' \
  SLURM_ACCOUNT='$(SLURM_ACCOUNT)' SLURM_TIME='$(SLURM_TIME)' SLURM_CPUS='$(SLURM_CPUS)' bash tools/grade-all.sh

# One file to carry to a GPU host lent for a short time (tools/gpu-session.sh):
# the binaries the GPU tier, the benches, the timings and the lecture examples
# run, the reference binaries and what an assignment.mk adds (GPU_CARRY); no objects,
# logs or lecture PTX. Build it with ARCH=sm_90 (or the host's GPU) to keep it small (about 21 MB).
gpu-carry: ## pack what the GPU tier and tools/gpu-session.sh run into gpu-carry.tar.gz: make gpu-carry ARCH=sm_90
	@$(MAKE) test-gpu-build
	@tar czf gpu-carry.tar.gz.tmp --exclude='*.log' --exclude='*.o' --exclude='*.d' --exclude='$(B)/lectures/*.ptx' $(B)/.gencode $(GRADE) $(JUDGE) $(GPUINFO) \
	  $(TIMINGS) $(B)/starter $(B)/solutions $(B)/gpu-faults $(B)/lectures $(B)/adversarial $(GPU_CARRY) assignments/*/ref && \
	  mv -f gpu-carry.tar.gz.tmp gpu-carry.tar.gz && echo "gpu-carry.tar.gz: $$(du -h gpu-carry.tar.gz | cut -f1); on the GPU host: tar xzf gpu-carry.tar.gz && bash tools/gpu-session.sh OUTDIR"
