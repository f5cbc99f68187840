# gpu-tier.sh of assignment 04: its extra checks in the GPU tier, sourced by
# grader/tests/gpu-tier.sh (which defines ok, bad and TMP, and calls
# extra_<assignment> after the common checks).
#
# The starter is right while n fits two of its tiles (STARTER_TILE elements,
# large_scan.h) and wrong from one element more: the boundary of the handout's
# task 1, run on both sides. Then the solution's graded scan, run on the same
# workspace for many reps (the epoch and ticket reset themselves), must verify
# every rep.
extra_04-large-scan() {
  local bin=build/starter/04-large-scan/runner ref=assignments/04-large-scan/ref/reference tile n want got
  tile=$(grep -o 'STARTER_TILE = [0-9]*' assignments/04-large-scan/large_scan.h | grep -o '[0-9]*$')
  [ -n "$tile" ] || { bad "04: STARTER_TILE not found in large_scan.h"; return; }
  for n in 1 "$tile" $((tile + 1)) $((2 * tile - 1)) $((2 * tile)) $((2 * tile + 1)) $((3 * tile)) 65535; do
    want=1
    [ "$n" -gt $((2 * tile)) ] && want=0
    got=$("$bin" --variant decoupled_lookback --n "$n" --seed 4 --check --reps 1 --warmup 0 2>/dev/null | grep -o ' ok=[01] ' | tr -d ' ok=')
    if [ "$got" = "$want" ]; then ok "04: starter scan of n=$n is $([ "$want" = 1 ] && echo right || echo wrong), as task 1 says (tile $tile)"
    else bad "04: starter scan of n=$n gives ok=${got:-nothing}, want ok=$want (right up to 2 x $tile, wrong after)"; fi
  done
  got=$("$ref" --variant decoupled_lookback --case n2^24,n65535,n1025 --check --reps 200 --warmup 0 2>"$TMP/04.err" | grep -c ' ok=1 ')
  if [ "$got" -eq 3 ]; then ok "04: reference look-back verifies 200 reps in a row on one workspace (n2^24, n65535, n1025)"
  else bad "04: reference look-back: $got of 3 cases verified over 200 reps: $(tail -1 "$TMP/04.err")"; fi
}
