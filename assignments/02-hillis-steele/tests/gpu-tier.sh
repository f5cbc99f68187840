# gpu-tier.sh of assignment 02: its extra checks in the GPU tier, sourced by
# grader/tests/gpu-tier.sh (which defines ok, bad and TMP, and calls
# extra_<assignment> after the common checks).
#
# 02: the starter's in-place scan is wrong, and wrong differently from run to
# run (the race of the handout's question 1): five runs of one case and seed.
extra_02-hillis-steele() {
  local bin=build/starter/02-hillis-steele/runner i wrong=0 distinct
  for i in 1 2 3 4 5; do
    "$bin" --variant hillis_steele_inclusive --case L1024 --check --reps 1 --warmup 0 --out "$TMP/hs$i.bin" \
      2>/dev/null | grep -q ' ok=0 ' && wrong=$((wrong + 1))
  done
  distinct=$(md5sum "$TMP"/hs?.bin 2>/dev/null | cut -d' ' -f1 | sort -u | wc -l)
  if [ "$wrong" -eq 5 ] && [ "$distinct" -gt 1 ]; then
    ok "02: starter inclusive scan wrong in 5 of 5 runs, with $distinct different outputs (a race, not a fixed bug)"
  else bad "02: starter inclusive scan wrong in $wrong of 5 runs with $distinct different outputs (want 5, and more than 1)"; fi
}
