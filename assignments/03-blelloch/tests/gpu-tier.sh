# gpu-tier.sh of assignment 03: its extra checks in the GPU tier, sourced by
# grader/tests/gpu-tier.sh (which defines ok, bad, TMP and CUDA_HOME, and calls
# extra_<assignment> after the common checks).
#
# 03: the CPU model's bank-conflict prediction against Nsight Compute's
# counters, on two full tiles (case tiles2), for
# the padded, unpadded and 16-bank layouts of the solution's scan. The runner is
# in its sandbox under ncu, as in grading (--profiled: grader/runner/profiling.h,
# issue 39): this row is also the proof that ncu's library profiles from inside it.
extra_03-blelloch() {
  local ncu=$CUDA_HOME/bin/ncu src v model bin pred want got
  local M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  [ -x "$ncu" ] || { echo "NOTE  03: ncu not found at $ncu: model vs ncu not compared"; return; }
  printf '    %-10s %-18s %12s %12s\n' source variant "model ld/st" "ncu ld/st"
  # The solution's scan makes exactly the standard sweep's accesses, which the
  # model counts; the starter's stops after the up-sweep, so it is not compared.
  for src in solutions; do
    for v in blelloch_padded blelloch_unpadded blelloch_gems16; do
      model=build/$src/03-blelloch/model
      bin=build/$src/03-blelloch/runner
      # The model's extra passes per block of the 2048-leaf tree (printed first), times two blocks.
      pred=$("$model" --variant "$v" --case banks | grep -m1 -o 'extra passes per block: [0-9]* on loads, [0-9]* on stores' |
        awk '{print 2 * $5 "/" 2 * $8}')
      build/grader/judge --assignment 03-blelloch --runner "$bin" --variant "$v" --case tiles2 --reps 1 --warmup 0 --profiled \
        -- "$ncu" --metrics "$M" --kernel-name "$v" --launch-count 1 --csv --print-units base > "$TMP/ncu.csv" 2>&1
      if grep -q ERR_NVGPUCTRPERM "$TMP/ncu.csv"; then
        echo "NOTE  03: ncu may not read the GPU counters here (ERR_NVGPUCTRPERM): model vs ncu not compared"; return
      fi
      got=$(awk -F'","' '/op_ld.sum/ {gsub(/[^0-9.]/, "", $NF); ld = $NF} /op_st.sum/ {gsub(/[^0-9.]/, "", $NF); st = $NF}
        END {print ld "/" st}' "$TMP/ncu.csv")
      printf '    %-10s %-18s %12s %12s\n' $src $v "$pred" "$got"
      if [ -n "$pred" ] && [ "$pred" = "$got" ]; then ok "03: ncu agrees with the model on $src $v: $got extra ld/st passes"
      else bad "03: ncu reads $got extra ld/st passes on $src $v, the model predicts ${pred:-nothing}: $(grep -m1 -i error "$TMP/ncu.csv")"; fi
    done
  done
}
