# gpu-tier-05.sh: assignment 05's extra checks for the GPU tier; gpu-tier.sh
# sources it (it uses that script's $TMP, ok and bad).
#
# The starter breaks both rules the handout names:
#   order      - rgb (three overlapping circles): wrong in every run, since
#                the blue circle's thread reaches the green one's pixels first;
#   atomicity  - rand100k (many overlaps): wrong, and a different image from
#                run to run, since which racing update is lost depends on timing.
# The solution draws the same, correct image every run.
# Each run renders the case's first frame (--reps 1 --warmup 0), so the
# inputs of all runs are the same and only the renderer can make them differ.
r05_runs() { # r05_runs BIN CASE TAG RUNS: writes $TMP/TAG-K.ppm, prints how many runs verified (ok=1)
  local i good=0
  for i in $(seq 1 "$4"); do
    "$1" --case "$2" --check --reps 1 --warmup 0 --out "$TMP/$3-$i.ppm" 2>/dev/null | grep -q ' ok=1 ' && good=$((good + 1))
  done
  echo "$good"
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
}
