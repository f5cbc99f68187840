# gpu-tier.sh of assignment 05: its extra checks for the GPU tier; grader/tests/gpu-tier.sh
# sources it (it uses that script's $TMP, SAN, ok and bad).
#
# The starter breaks both rules the handout names:
#   order      - rgb (three overlapping circles): wrong in every run, since
#                the blue circle's thread reaches the green one's pixels first;
#   atomicity  - rand100k (many overlaps): wrong, and a different image from
#                run to run, since which racing update is lost depends on timing.
# The solution draws the same, correct image every run.
# The list path under racecheck: rand10k-80x60 (grade.conf's racecheck case that takes the
# reference's list path: more circles than its small path takes) is clean on the solution,
# and each GPU-tier fault of this assignment, tests/gpu-faults/<fault>/ (the solution with one
# barrier of binning, sort or the list draw removed) is reported, racecheck run through the
# judge on the fault's runner (the grader runs racecheck only once correct-small passes,
# which a missing barrier may also break).
# Each run renders the case's first frame (--reps 1 --warmup 0), so the
# inputs of all runs are the same and only the renderer can make them differ.
r05_runs() { # r05_runs BIN CASE TAG RUNS: writes $TMP/TAG-K.ppm, prints how many runs verified (ok=1)
  local i good=0
  for i in $(seq 1 "$4"); do
    "$1" --case "$2" --check --reps 1 --warmup 0 --out "$TMP/$3-$i.ppm" 2>/dev/null | grep -q ' ok=1 ' && good=$((good + 1))
  done
  echo "$good"
}
r05_racecheck() { # r05_racecheck BIN: racecheck's exit on rand10k-80x60 (0 clean, 99 hazards); its output in $TMP/r05-race.log
  build/grader/judge --assignment 05-renderer --runner "$1" --variant render --case rand10k-80x60 --reps 1 --warmup 0 \
    -- "$SAN" --tool racecheck --error-exitcode 99 --print-limit 5 > "$TMP/r05-race.log" 2>&1
}
r05_distinct() { md5sum "$TMP/$1"-*.ppm 2>/dev/null | cut -d' ' -f1 | sort -u | wc -l; }

extra_05-renderer() {
  local st=build/starter/05-renderer/runner sol=build/solutions/05-renderer/runner good distinct
  good=$(r05_runs "$st" rgb r05-st-rgb 3)
  distinct=$(r05_distinct r05-st-rgb)
  if [ "$good" -eq 0 ]; then ok "05: starter rgb wrong in 3 of 3 runs ($distinct distinct images): the order of overlapping circles"
  else bad "05: starter rgb verified in $good of 3 runs (want 0: its threads blend out of order)"; fi

  good=$(r05_runs "$st" rand100k r05-st-rand 3)
  distinct=$(r05_distinct r05-st-rand)
  if [ "$good" -eq 0 ] && [ "$distinct" -gt 1 ]; then
    ok "05: starter rand100k wrong in 3 of 3 runs with $distinct different images: lost updates (atomicity)"
  else bad "05: starter rand100k verified in $good of 3 runs with $distinct different images (want 0, and more than 1)"; fi

  good=$(r05_runs "$sol" rand100k r05-sol-rand 3)
  distinct=$(r05_distinct r05-sol-rand)
  if [ "$good" -eq 3 ] && [ "$distinct" -eq 1 ]; then ok "05: solution rand100k correct and identical in 3 of 3 runs"
  else bad "05: solution rand100k verified in $good of 3 runs with $distinct different images (want 3 and 1)"; fi

  local t0 rc fdir fault bin
  t0=$SECONDS
  r05_racecheck "$sol"
  rc=$?
  if [ $rc -eq 0 ]; then ok "05: racecheck clean on the solution's list path (rand10k-80x60, $((SECONDS - t0)) s)"
  else bad "05: racecheck on the solution's rand10k-80x60 exits $rc, want 0: $(grep -m1 '=========' "$TMP/r05-race.log")"; fi
  for fdir in assignments/05-renderer/tests/gpu-faults/*/; do
    fault=$(basename "$fdir")
    bin=build/gpu-faults/$fault/05-renderer/runner
    [ -x "$bin" ] || { bad "05: gpu fault $fault: $bin missing (make test-gpu-build)"; continue; }
    t0=$SECONDS
    r05_racecheck "$bin"
    rc=$?
    # How the run must end: a race reported, unless the fault's racecheck-ends says cuda-error
    # (the missing barrier crashes a later kernel before racecheck can report; the file says why).
    local ends=race
    [ -f "$fdir/racecheck-ends" ] && ends=$(head -1 "$fdir/racecheck-ends")
    if [ "$ends" = race ] && [ $rc -eq 99 ] && grep -qi 'race reported' "$TMP/r05-race.log"; then
      ok "05: racecheck reports gpu fault $fault (a barrier of the list path removed) on rand10k-80x60 ($((SECONDS - t0)) s)"
    elif [ "$ends" = cuda-error ] && [ $rc -eq 3 ] && grep -q 'CUDA error' "$TMP/r05-race.log"; then
      ok "05: racecheck on gpu fault $fault ends in a CUDA error, as its racecheck-ends says ($((SECONDS - t0)) s)"
    else
      bad "05: racecheck on gpu fault $fault, rand10k-80x60: exit $rc, want $([ "$ends" = race ] && echo "99 and a race reported" || echo "3 and a CUDA error")"
      grep -v 'COMPUTE-SANITIZER' "$TMP/r05-race.log" | grep -m8 -E '=========|judge|runner' | sed 's/^/      /'
    fi
  done
}
