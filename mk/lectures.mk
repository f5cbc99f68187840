# lectures.mk: the lecture examples, the figures, and `make lectures-run`. Included by the
# top-level Makefile.
#
# lectures/examples/NAME.cu -> build/lectures/NAME, linked with the course library
# (grader/lib and the assignments' judge/ modules: PRNG, statistics, bank counts) where it
# includes one of its headers; lectures/figures/NAME.gp draws lectures/figures/NAME.png from
# the measured data in lectures/data/.
LECTURE_EXAMPLES := $(patsubst lectures/examples/%.cu,$(B)/lectures/%,$(wildcard lectures/examples/*.cu))
LECTURE_PTX := $(addsuffix .ptx,$(LECTURE_EXAMPLES))
FIGURE_SCRIPTS := $(wildcard lectures/figures/*.gp)

.PHONY: lectures figures lectures-run
lectures: $(LECTURE_EXAMPLES) ## build the lecture examples into build/lectures/ (running them needs a GPU)

figures: ## draw the lecture figures (lectures/figures/*.png) from lectures/data/ with gnuplot (no GPU needed)
	@command -v gnuplot >/dev/null || { echo "figures: gnuplot is not installed: sudo apt-get install -y gnuplot-nox" >&2; exit 1; }
	@$(call draw_figures,lectures/figures)

# draw_figures DIR: every figure script, its PNG written into DIR.
draw_figures = for gp in $(FIGURE_SCRIPTS); do \
	  out=$(1)/$$(basename $$gp .gp).png; gnuplot -e "out='$$out'" $$gp || { echo "figures: $$gp failed" >&2; exit 1; }; \
	  echo "drew $$out"; done

$(B)/lectures/%: lectures/examples/%.cu $(LIBCOURSE) $(B)/.gencode
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(ASSIGNMENT_INCLUDES) $(NVCC_STRICT) $< $(LIBCOURSE) $(PNG_LIBS) -lpthread -o $@

# The PTX of an example, for the tests that check what a lecture says it compiles to.
$(B)/lectures/%.ptx: lectures/examples/%.cu
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=$(PTX_ARCH) -std=c++17 $(COURSE_INCLUDES) $(ASSIGNMENT_INCLUDES) $< -o $@

# An example that includes no course library header (banks.h, stats.h, ...) is standalone:
# it includes lectures/examples/example.h (its CUDA checks) and links nothing but the CUDA
# runtime. These static pattern rules take precedence over the $(B)/lectures/% rule above,
# which links the course library (bank_stride.cu uses banks.h and stats.h).
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

# Whether there is a GPU is asked first: building every example takes minutes.
lectures-run: ## run every lecture example on the GPU present: prints its table, keeps lectures/data/<example>-<gpu>.csv
	@bash tools/need-gpu.sh lectures-run $(GPUINFO)
	@$(MAKE) $(LECTURE_EXAMPLES)
	@bash tools/lectures-run.sh lectures/data $(LECTURE_EXAMPLES)
