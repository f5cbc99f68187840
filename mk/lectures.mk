# lectures.mk: the lecture examples that stand alone, and `make lectures-run`.
# Included by the top-level Makefile, after the lecture rules there.
#
# An example that includes no course library header (grader/lib: banks.h,
# stats.h, ...) is standalone: it includes lectures/examples/example.h (its
# CUDA checks) and links nothing but the CUDA runtime. These static pattern
# rules take precedence over the Makefile's $(B)/lectures/% rule, which links
# the course libraries (bank_stride.cu uses banks.h and stats.h).
LECTURE_HEADERS := $(wildcard lectures/examples/*.h)
STANDALONE_EXAMPLES := $(patsubst lectures/examples/%.cu,$(B)/lectures/%,\
  $(shell grep -LE '^#include "(banks|stats|prng|scan_cpu)\.h"' lectures/examples/*.cu 2>/dev/null))

# CDP2 examples (lectures/examples/cdp2_*.cu) launch kernels from the device:
# relocatable device code and the device runtime library.
CDP2_EXAMPLES := $(filter $(B)/lectures/cdp2_%,$(STANDALONE_EXAMPLES))
STANDALONE_EXAMPLES := $(filter-out $(CDP2_EXAMPLES),$(STANDALONE_EXAMPLES))

$(CDP2_EXAMPLES): $(B)/lectures/%: lectures/examples/%.cu $(LECTURE_HEADERS) $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(NVCC_STRICT) -rdc=true $< -lcudadevrt -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

$(addsuffix .ptx,$(CDP2_EXAMPLES)): $(B)/lectures/%.ptx: lectures/examples/%.cu $(LECTURE_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) -ptx -rdc=true -arch=$(PTX_ARCH) -std=c++17 $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

$(STANDALONE_EXAMPLES): $(B)/lectures/%: lectures/examples/%.cu $(LECTURE_HEADERS) $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(NVCC_STRICT) $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

$(addsuffix .ptx,$(STANDALONE_EXAMPLES)): $(B)/lectures/%.ptx: lectures/examples/%.cu $(LECTURE_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=$(PTX_ARCH) -std=c++17 $< -o $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

.PHONY: lectures-run
# Whether there is a GPU is asked first: building every example takes minutes.
lectures-run: ## run every lecture example on the GPU present: prints its table, keeps lectures/data/<example>-<gpu>.csv
	@bash tools/need-gpu.sh lectures-run $(GPUINFO)
	@$(MAKE) $(LECTURE_EXAMPLES)
	@bash tools/lectures-run.sh lectures/data $(LECTURE_EXAMPLES)
