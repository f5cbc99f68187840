#!/usr/bin/env bash
# tune.sh (research, assignment 04): time other shapes of the 04 reference
# scan on the GPU at hand, side by side with CUB and a copy. The shape is the
# three knobs of solutions/04-large-scan/policy.cuh (LS_CFG_THREADS,
# LS_CFG_ITEMS, LS_CFG_MIN_BLOCKS), set on the compiler's command line.
#
#   bash assignments/04-large-scan/research/tune.sh build [SHAPE...]   here (nvcc): one runner per shape
#   bash assignments/04-large-scan/research/tune.sh check              on the GPU host: every case, every shape
#   bash assignments/04-large-scan/research/tune.sh run                on the GPU host: the table
#
# A SHAPE is THREADSxITEMSxBLOCKS (384x32x2 is the reference's own). REV:SHAPE
# builds SHAPE from the solution's files as they were at git revision REV
# (e.g. c93fb41:512x16x2, an earlier reference, timed beside today's). The
# experiments that lost (a ring of tiles, deeper look-backs, wider windows,
# back-off, one block a tile, evict-first accesses, the transpose, results
# held in registers, the look-back to the nearest PREFIX) were knobs of the
# reference up to 70878bb, and this script's shape suffixes there: `git show
# 70878bb:tools/tune-04.sh` (docs/tuning-04.md, "Where the experiments are").
# `build` writes build/tune-04/ afresh, so that `check` and `run` see only the
# shapes of the last build (make gpu-carry packs it: build the shapes after
# the carry, or unpack them after it). `check` runs every case of the spec
# (TUNE_CHECK_CASES) once with the scan, lookback_acqrel and find_repeats on
# every shape, and fails if any is wrong or dies (the tests run it on the judge's
# fixture: TUNE_CHECK_JUDGE, TUNE_CHECK_ASSIGNMENT, TUNE_CHECK_VARIANTS). `run` duels each against a
# copy of the same bytes at 2^24, 2^26 and 2^28 (TUNE_CASES, TUNE_REPS), every
# call verified, after the reference's duels with the copy and with CUB; with
# TUNE_REPEATS=1 each shape's find_repeats also duels CUB's select
# (TUNE_REPEATS=only: that alone, no scan). Results go to
# docs/results/tuning-04-<gpu>.txt by hand (assignments/04-large-scan/research/README.md).
set -u
cd "$(dirname "$0")/../../.."
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-sm_90}
dir=build/tune-04
# check's and run's start on the GPU host: the binaries named are there, a build
# of shapes is too, and a GPU ($gpu says which).
need_gpu_and_shapes() {
  for f in "$@"; do [ -x "$f" ] || { echo "tune-04: $f is missing (make gpu-carry)" >&2; exit 2; }; done
  ls "$dir"/*x*x* > /dev/null 2>&1 || { echo "tune-04: nothing built in $dir ('bash assignments/04-large-scan/research/tune.sh build' first)" >&2; exit 2; }
  gpu=$(build/tools/gpuinfo 2>&1) || { echo "tune-04: $gpu" >&2; exit 3; }
}
# The built shapes' runners, one a line.
built_shapes() { for b in "$dir"/*x*x*; do case $b in *.log | *.o) ;; *) echo "$b" ;; esac; done; }
case ${1:-} in
  build)
    shift
    shapes=${*:-384x32x2 512x24x2 512x20x2 256x32x3}
    [ -f build/runner/librunner.a ] || { echo "tune-04: build/runner/librunner.a is missing: run 'make gpu-carry ARCH=$ARCH' first" >&2; exit 2; }
    shape_re='^([0-9]+)x([0-9]+)x([0-9]+)$'
    for spec in $shapes; do # every shape and revision is checked before the last build is cleared
      s=${spec#*:}
      [[ $s =~ $shape_re ]] || { echo "tune-04: '$s' is not THREADSxITEMSxBLOCKS (e.g. 384x32x2 or 256x32x3)" >&2; exit 2; }
      [[ $spec == *:* ]] || continue
      git cat-file -e "${spec%%:*}:solutions/04-large-scan/large_scan.cu" 2> /dev/null ||
        { echo "tune-04: no solutions/04-large-scan/large_scan.cu at git revision '${spec%%:*}'" >&2; exit 2; }
    done
    mkdir -p "$dir"
    find "$dir" -maxdepth 1 -type f -delete # an earlier build's shapes would be run with these
    for spec in $shapes; do
      # REV:SHAPE builds the shape from the solution's .cu and .cuh files as they were at git revision REV.
      src=solutions/04-large-scan s=$spec name=$spec
      if [[ $spec == *:* ]]; then
        rev=${spec%%:*} s=${spec#*:} name=$s@$rev src=$dir/src-$rev
        mkdir -p "$src"
        for f in $(git ls-tree --name-only "$rev" solutions/04-large-scan/ | grep -E '\.cuh?$'); do
          git show "$rev:$f" > "$src/${f##*/}" || exit 2
        done
      fi
      [[ $s =~ $shape_re ]]
      flags="-DLS_CFG_THREADS=${BASH_REMATCH[1]} -DLS_CFG_ITEMS=${BASH_REMATCH[2]} -DLS_CFG_MIN_BLOCKS=${BASH_REMATCH[3]}"
      # shellcheck disable=SC2086
      # The shape's solution object, then the bench runner (CUB rows) linked with it.
      { "$NVCC" -O3 -std=c++17 -arch="$ARCH" $flags -Xptxas -warn-spills -Iassignments/04-large-scan -I"$src" \
          -c "$src/large_scan.cu" -o "$dir/$name.o" &&
        "$NVCC" -O3 -std=c++17 -arch="$ARCH" -DRUNNER_BENCH -Igrader/protocol -Igrader/runner -Iassignments/04-large-scan \
          assignments/04-large-scan/runner/runner.cu "$dir/$name.o" build/runner/librunner.a -lpthread -o "$dir/$name"; } \
        2> "$dir/$name.log" || { cat "$dir/$name.log" >&2; exit 1; }
      note=; grep -q spill "$dir/$name.log" && note=" (ptxas warns of register spills)"
      echo "tune-04: built $dir/$name$note"
    done ;;
  check)
    judge=${TUNE_CHECK_JUDGE:-build/grader/judge} a=${TUNE_CHECK_ASSIGNMENT:-04-large-scan}
    need_gpu_and_shapes "$judge"
    cases=${TUNE_CHECK_CASES:-$("$judge" --assignment "$a" --list | awk '/^case / {printf "%s%s", sep, $2; sep = ","}')}
    echo "# tune-04 check on $gpu: cases $cases, one call each"
    failed=0
    for b in $(built_shapes); do
      for v in ${TUNE_CHECK_VARIANTS:-decoupled_lookback lookback_acqrel find_repeats}; do
        out=$("$judge" --assignment "$a" --runner "$b" --variant "$v" --case "$cases" --reps 1 --result-fd 1 2>&1)
        rc=$?
        right=$(grep -c '^result .* ok=1 ' <<< "$out") all=$(grep -c '^result ' <<< "$out")
        if [ "$rc" = 0 ] && [ "$right" = "$all" ]; then
          echo "$(basename "$b") $v: $right cases right"
        else
          failed=1
          echo "$(basename "$b") $v: FAILED (judge exit $rc; $right of $all cases right)"
          grep -v '^result .* ok=1 ' <<< "$out" | sed 's/^/  /'
        fi
      done
    done
    exit $failed ;;
  run)
    bench=assignments/04-large-scan/ref/bench judge=build/grader/judge
    need_gpu_and_shapes "$bench" "$judge"
    cases=${TUNE_CASES:-n2^24,n2^26,n2^28} reps=${TUNE_REPS:-15}
    echo "# tune-04 on $gpu: duels (the two rows of a case take turns sample by sample on the same inputs, every call"
    echo "# verified by the judge), $reps samples a case; ratio = row / other, medians"
    printf '%-22s %-8s %10s  %-20s %10s %7s\n' row case median_ms other other_ms ratio
    # duel LABEL RUNNER VARIANT OTHER_VARIANT: RUNNER's VARIANT against its own OTHER_VARIANT.
    duel() {
      "$judge" --assignment 04-large-scan --runner "$2" --variant "$3" --versus "$2" --versus-variant "$4" \
        --case "$cases" --reps "$reps" --result-fd 1 2>&1 |
        awk -v label="$1" '/^result / {for (i = 2; i <= NF; i++) {split($i, kv, "="); f[kv[1]] = kv[2]}
            if (++k % 2) {other = f["variant"]; oms = f["median_ms"]; ook = f["ok"]; next}
            printf "%-22s %-8s %10.4f  %-20s %10.4f %7.3f%s\n", label, f["case"], f["median_ms"], other, oms,
              f["median_ms"] / oms, f["ok"] == 1 && ook == 1 ? "" : "  WRONG"; next}
          {print "  " $0}'
    }
    only=${TUNE_REPEATS:-0}
    [ "$only" = only ] || duel reference "$bench" decoupled_lookback copy_d2d
    [ "$only" = only ] || duel reference "$bench" decoupled_lookback cub_exclusive_sum
    duel find_repeats "$bench" find_repeats cub_select_repeats
    for b in $(built_shapes); do
      [ "$only" = only ] || duel "$(basename "$b")" "$b" decoupled_lookback copy_d2d
      [ "$only" = 0 ] || duel "$(basename "$b")" "$b" find_repeats cub_select_repeats
    done ;;
  *) echo "usage: assignments/04-large-scan/research/tune.sh build [[REV:]THREADSxITEMSxBLOCKS...] | check | run" >&2; exit 2 ;;
esac
