# bench.mk: `make bench` (docs/grading.md), included by the top-level Makefile: the
# reference's and your runner's --bench rows for each selected assignment, a table and
# a plot (tools/bench-table.awk, tools/bench.gp) in build/bench/. An assignment whose
# grade.conf declares `baselines` (BENCHED) has a bench build with extra rows (CUB).
.PHONY: bench

# The binary `make bench` runs: the bench build where there is one, else the runner.
bench_bin = $(B)/$(1)/$(2)/$(if $(filter $(2),$(BENCHED)),bench,runner)
ref_bench = assignments/$(1)/ref/$(if $(filter $(1),$(BENCHED)),bench,reference)

# With SRC=solutions (instructors) the starter's rows come too, labelled by source
# (a starter is wrong by design: its rows are marked, not an error).
BENCH_SRCS := $(SRC) $(if $(filter solutions,$(SRC)),starter)
bench: ## time the reference and your code against a device-to-device copy (and CUB where declared; needs a GPU): make bench A=01
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
