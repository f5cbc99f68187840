# assignment.mk: this assignment's own make targets, included by the top-level Makefile
# (which includes every assignments/*/assignment.mk): the research builds make test checks.
#
# The probe (this folder's research/probe/tma.cu, run by hand on a GPU host) includes the
# solution and uses Hopper-only instructions (clusters, bulk copies), so it is built for
# sm_90 whatever ARCH is, and only where solutions/ is. With it, research/tune.sh
# must parse (bash -n), and a shape other than the reference's must compile as tune.sh
# compiles it (the object alone). tune.sh's refusals and its `check` on a fake runner are
# tests/test_tune04.c's.
R04 := assignments/04-large-scan
PROBE_04 := $(if $(HAVE_SOLUTIONS),$(B)/$(R04)/research/tma $(B)/$(R04)/research/tune-512x24x2.o)
$(B)/$(R04)/research/tma: $(R04)/research/probe/tma.cu $(R04)/research/probe/window_lookback.cuh \
  $(wildcard solutions/04-large-scan/* $(R04)/*.h) $(R04)/runner/baselines.cu grader/runner/runner.h
	@mkdir -p $(@D)
	$(NVCC) -O3 -std=c++17 -arch=sm_90 -Werror all-warnings -Isolutions/04-large-scan -I$(R04) -I$(R04)/runner \
	  -Igrader/runner $< -o $@
$(B)/$(R04)/research/tune-512x24x2.o: $(R04)/research/tune.sh $(wildcard solutions/04-large-scan/* $(R04)/*.h)
	@mkdir -p $(@D)
	bash -n $<
	$(NVCC) -O3 -std=c++17 -arch=sm_90 -DLS_CFG_THREADS=512 -DLS_CFG_ITEMS=24 -DLS_CFG_MIN_BLOCKS=2 -Werror all-warnings \
	  -I$(R04) -Isolutions/04-large-scan -c solutions/04-large-scan/large_scan.cu -o $@
# tune.sh's builds, carried to a GPU host with the rest (make gpu-carry).
GPU_CARRY += $(wildcard $(B)/tune-04)

test-builds: $(PROBE_04)
