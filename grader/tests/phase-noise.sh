#!/usr/bin/env bash
# phase-noise.sh [--runs N] [ASSIGNMENT...]: the noise figures of a duel's clocks, measured on a GPU.
#
# The judge charges a student what its steps around the timed window (RUN -> SET,
# DONE -> OUT, IDLE -> QUIET) take beyond the reference's, less the phase noise,
# and fails a duel whose reference is slower than alone beyond the ceiling noise
# (grader/judge/phase_clock.h; docs/grading.md, "Timing: a duel"). This script
# measures both with the reference against itself: for every perf check of every
# grade.conf (or of the assignments named), N duels (default 10) of
#   build/grader/judge --assignment A --runner REF --versus REF --variant V --case C --floor F [--reps R]
# with SCANLAB_JUDGE_PHASES=1 (one line per side: each step's median and range,
# the median of the samples' step sums, the window's, and the reference alone)
# and the judge's own figures opened wide (nothing charged matters, no duel is
# ended), so that every duel reports. Per case it prints, per batch:
#   steps_ms     the median over the duels of the reference side's step sum
#   excess_max   the largest |student side - reference side| of the step sums (ms)
#   excess_rel   that over steps_ms
#   window_ms    the reference's median window
#   duel/solo    the largest ratio of the reference's duel median to its median alone
# and last the figures that would charge none of these honest duels and
# disturb none, with a margin of 1.5 (as phase_clock.h names them):
# PHASE_NOISE_REL from the cases whose steps take 10 ms or more (04's and 01-03's
# batches upload and download hundreds of MiB), PHASE_NOISE_ABS_MS from the
# others, and CEILING_NOISE_REL from the largest duel/solo ratio. Run on the course's GPU
# after `make` (the judge and the references built), from the repository root:
#   bash grader/tests/phase-noise.sh --runs 10 > phase-noise-<gpu>.txt
# --summary TABLE prints only the last lines, for a table saved before (no GPU): make test
# runs it on the latest docs/results/phase-noise-*.txt, which phase_clock.h's figures must cover
# (exit 1 when an honest duel of that table would be charged or called disturbed).
# Exit status: 0; 1 when a judge run failed, or the figures in force do not cover the table; 2 on bad usage or a missing judge or reference.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=10
ONLY=()
SUMMARY_OF=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs)
      [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "phase-noise: --runs needs a positive integer" >&2; exit 2; }
      RUNS=$2
      shift
      ;;
    --summary)
      [ $# -ge 2 ] && [ -r "$2" ] || { echo "phase-noise: --summary needs a readable table (a saved run of this script)" >&2; exit 2; }
      SUMMARY_OF=$2
      shift
      ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "phase-noise: unknown option '$1'" >&2; exit 2 ;;
    *) ONLY+=("$1") ;;
  esac
  shift
done
# The figures that charge none of these duels and disturb none, with a margin of 1.5. An
# honest side may exceed the reference's steps by REL of them plus ABS (phase_clock.h): REL
# is set by the cases whose steps take 10 ms or more (the upload and download of 2^24 and
# more elements, where the relative part dominates), ABS by the largest excess of the
# others. Then, for the figures in force and for those suggested, the largest share of its
# allowance (REL * steps + ABS) that any case's honest excess used: above 1, a case would
# be charged.
in_force() { sed -n "s/^#define $1 \([0-9.]*\).*/\1/p" grader/judge/phase_clock.h; }
summary() { # summary TABLE: the suggested figures, and the share of the allowance used
  awk -v rel_now="$(in_force PHASE_NOISE_REL)" -v abs_now="$(in_force PHASE_NOISE_ABS_MS)" -v ceil_now="$(in_force CEILING_NOISE_REL)" '
  NF != 9 || $4 !~ /^[0-9]+$/ { next }
  { n++; steps[n] = $5 + 0; excess[n] = $6 + 0; name[n] = $1 " " $3
    if ($5 + 0 >= 10 && $7 + 0 > maxrel) maxrel = $7 + 0; if ($5 + 0 < 10 && $6 + 0 > maxabs) maxabs = $6 + 0; if ($9 + 0 > ratio) ratio = $9 + 0 }
  function worst(rel, abs,   i, u, m, at) { for (i = 1; i <= n; i++) { u = excess[i] / (rel * steps[i] + abs); if (u > m) { m = u; at = name[i] } }
    return sprintf("%.2f (%s)", m, at) }
  END {
    rel = 1.5 * maxrel; abs = 1.5 * maxabs
    printf "# suggested: PHASE_NOISE_REL %.3f (the largest excess_rel among cases whose steps take 10 ms or more), ", rel
    printf "PHASE_NOISE_ABS_MS %.3f (the largest excess among the others), ", abs
    printf "CEILING_NOISE_REL %.3f (from the largest duel/solo ratio %.3f)\n", (ratio > 1 ? 1.5 * (ratio - 1) : 0), ratio
    if (!n) { print "phase-noise: no rows in the table" > "/dev/stderr"; exit 2 }
    if (rel_now == "" || abs_now == "" || ceil_now == "") { print "phase-noise: grader/judge/phase_clock.h defines no PHASE_NOISE_REL, PHASE_NOISE_ABS_MS or CEILING_NOISE_REL" > "/dev/stderr"; exit 2 }
    now = worst(rel_now, abs_now)
    printf "# in force (phase_clock.h): PHASE_NOISE_REL %s, PHASE_NOISE_ABS_MS %s: the largest share of its allowance used %s; CEILING_NOISE_REL %s: duel/solo up to %.3f\n", rel_now, abs_now, now, ceil_now, ratio
    printf "# suggested figures: the largest share of its allowance used %s\n", worst(rel, abs)
    if (now + 0 > 1) { printf "phase-noise: the figures in force would charge an honest duel (share %s > 1)\n", now > "/dev/stderr"; exit 1 }
    if (ratio > 1 + ceil_now) { printf "phase-noise: the figures in force would call an honest duel disturbed (duel/solo %.3f > 1 + %s)\n", ratio, ceil_now > "/dev/stderr"; exit 1 }
  }' "$1"
}
if [ -n "$SUMMARY_OF" ]; then
  grep -q '^# phase noise, the reference against itself' "$SUMMARY_OF" || { echo "phase-noise: $SUMMARY_OF: not a table of this script (no '# phase noise' line)" >&2; exit 2; }
  summary "$SUMMARY_OF"
  exit 0
fi
JUDGE=build/grader/judge
[ -x "$JUDGE" ] || { echo "phase-noise: $JUDGE is missing: make $JUDGE" >&2; exit 2; }

# The perf checks of one grade.conf: "variant case floor reps" lines (reps 0: the case's own).
perf_checks() {
  awk -F' *= *' '
    function out() { if (kind == "perf") print variant, cases, floor, reps }
    /^\[/ { out(); kind = variant = cases = ""; floor = "0.8"; reps = 0; next }
    $1 == "kind" { kind = $2 } $1 == "variant" { variant = $2 } $1 == "cases" { cases = $2 }
    $1 == "floor" { floor = $2 } $1 == "reps" { reps = $2 }
    END { out() }' "$1"
}

TMP=$(mktemp -d /tmp/scanlab-phase-noise-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
printf '# phase noise, the reference against itself, %s duels a case; ms a batch\n' "$RUNS"
printf '%-16s %-22s %-12s %6s %11s %11s %10s %11s %9s\n' assignment variant case batch steps_ms excess_max excess_rel window_ms duel/solo
all=$TMP/all
: > "$all"
for conf in assignments/*/grade.conf; do
  a=$(basename "$(dirname "$conf")")
  if [ ${#ONLY[@]} -gt 0 ]; then
    keep=0
    for o in "${ONLY[@]}"; do [[ $a == "$o"* ]] && keep=1; done
    [ $keep -eq 1 ] || continue
  fi
  ref=assignments/$a/ref/reference
  [ -x "$ref" ] || { echo "phase-noise: $ref is missing: make" >&2; exit 2; }
  while read -r variant kase floor reps; do
    [ -n "$variant" ] || continue
    out=$TMP/$a-$kase
    : > "$out"
    extra=()
    [ "${reps:-0}" = 0 ] || extra=(--reps "$reps")
    for ((r = 1; r <= RUNS; r++)); do
      SCANLAB_JUDGE_PHASES=1 SCANLAB_PHASE_NOISE="0 0" SCANLAB_CEILING_NOISE="10 10000" \
        "$JUDGE" --assignment "$a" --runner "$ref" --versus "$ref" --variant "$variant" --case "$kase" --floor "$floor" \
        "${extra[@]}" --result-fd 3 3> /dev/null 2>> "$out" > /dev/null || { echo "phase-noise: $a $kase: the judge failed: $(tail -1 "$out")" >&2; exit 1; }
    done
    # Each duel: the reference side's line, then the student side's.
    awk -v a="$a" -v v="$variant" -v c="$kase" '
      function field(name,   i) { for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2) + 0; return -1 }
      / judge: phases / {
        if ($0 ~ /side=reference/) { rs = field("steps"); rw = field("window"); solo = field("solo"); batch = $NF; next }
        ss = field("steps"); n++; steps[n] = rs; d = ss - rs; if (d < 0) d = -d; if (d > dmax) dmax = d
        win[n] = rw; if (solo > 0 && rw / solo > ratio) ratio = rw / solo
      }
      function median(x, m,   i, j, t) { for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
        return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2 }
      END {
        if (!n) exit
        s = median(steps, n); w = median(win, n)
        printf "%-16s %-22s %-12s %6d %11.4f %11.4f %10.4f %11.4f %9.3f\n", a, v, c, batch, s, dmax, (s > 0 ? dmax / s : 0), w, ratio
      }' "$out" | tee -a "$all"
  done < <(perf_checks "$conf")
done
summary "$all"
