#!/usr/bin/env bash
# tune-04.sh: try other shapes of assignment 04's reference scan on the GPU at
# hand, side by side with CUB and a copy (solutions/04-large-scan/large_scan.cu
# reads LS_CFG_THREADS, LS_CFG_ITEMS, LS_CFG_MIN_BLOCKS, LS_CFG_RING,
# LS_CFG_DEPTH, LS_CFG_LOOKS, LS_CFG_BACKOFF_NS, LS_CFG_PERSISTENT,
# LS_CFG_STREAM, LS_CFG_WARPSCAN, LS_CFG_HELD_SMEM and LS_CFG_AHEAD).
#
#   bash tools/tune-04.sh build [SHAPE...]   here (nvcc): one harness per shape
#   bash tools/tune-04.sh check              on the GPU host: every case, every shape
#   bash tools/tune-04.sh run                on the GPU host: the table
#
# A SHAPE is THREADSxITEMSxBLOCKS, then optionally r (the held tiles in a ring
# of buffers in dynamic shared memory, not in registers: LS_CFG_RING, which
# lets a tile pass 48 KiB, e.g. 512x24x2r, 512x32x2r or 1024x16x1r), dD (look
# back on a tile D rounds after publishing its sum, from a ring of D + 1
# tiles: LS_CFG_DEPTH, which implies r, e.g. 512x16x2d2), sNS (a back-off of
# NS ns between polls), wK (K rows of 32 tiles in each look-back window after
# the first; without it the reference's 1), n (no persistent blocks: one
# block a tile, as the reference was before 2026-11-23), c (streaming,
# evict-first loads and stores of full tiles: LS_CFG_STREAM; l: the loads
# alone, LS_CFG_STREAM 2) and x (no transpose: each warp scans its own part
# of the tile in registers, LS_CFG_WARPSCAN; not with r or dD) and h (after
# x: a scan's held results wait in a double buffer of dynamic shared memory,
# not in registers, so that 512x24x2xh and 512x28x2xh fit: LS_CFG_HELD_SMEM)
# and a (after x: each look-back ends at the block's own previous tile, every
# thread reading one slot of the gap: LS_CFG_AHEAD; it reads no windows, so
# not with sNS or wK; without a, the look-back to the nearest PREFIX, as
# before 5181187, 2026-11-26), in that order.
# 384x32x2xha is the reference's own shape (384x32x2xh from 8607c1e,
# 2026-11-25, to 5181187, 2026-11-26; 512x20x2x from e519b7d, 2026-11-25, and
# 512x16x2 before it). The default shapes are its neighbours: the look-back
# to the nearest PREFIX (with one block a tile too), other tiles and the
# earlier reference
# (docs/results/tuning-04-h100.txt). REV:SHAPE builds SHAPE from the files as
# they were at git revision REV (c93fb41:512x16x2: an earlier reference, timed
# beside today's). `build` writes build/tune-04/ afresh, so that `check` and
# `run` see only the shapes of the last build (make gpu-carry packs it: build
# the shapes after the carry, or unpack them after it). `check` runs every
# case of the spec (TUNE_CHECK_CASES) once with the scan, lookback_acqrel and
# find_repeats on every shape, and fails if any is wrong or dies. `run` duels
# each against a copy of the same bytes at 2^24, 2^26 and 2^28 (TUNE_CASES, TUNE_REPS), every call verified,
# after the reference's duels with the copy and with CUB; with TUNE_REPEATS=1
# each shape's find_repeats also duels CUB's select (TUNE_REPEATS=only: that
# alone, no scan).
set -u
cd "$(dirname "$0")/.."
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-sm_90}
dir=build/tune-04
# check's and run's start on the GPU host: the binaries named are there, a build
# of shapes is too, and a GPU ($gpu says which).
need_gpu_and_shapes() {
  for f in "$@"; do [ -x "$f" ] || { echo "tune-04: $f is missing (make gpu-carry)" >&2; exit 2; }; done
  ls "$dir"/*x*x* > /dev/null 2>&1 || { echo "tune-04: nothing built in $dir ('bash tools/tune-04.sh build' first)" >&2; exit 2; }
  gpu=$(build/tools/gpuinfo 2>&1) || { echo "tune-04: $gpu" >&2; exit 3; }
}
# The built shapes' runners, one a line.
built_shapes() { for b in "$dir"/*x*x*; do case $b in *.log | *.o) ;; *) echo "$b" ;; esac; done; }
case ${1:-} in
  build)
    shift
    shapes=${*:-384x32x2xha 384x32x2xh 384x32x2nxh 512x24x2xha 512x20x2xa 256x32x3xha 512x16x2}
    [ -f build/runner/librunner.a ] || { echo "tune-04: build/runner/librunner.a is missing: run 'make gpu-carry ARCH=$ARCH' first" >&2; exit 2; }
    shape_re='^([0-9]+)x([0-9]+)x([0-9]+)(r)?(d([0-9]+))?(s([0-9]+))?(w([0-9]+))?(n)?([cl])?(x)?(h)?(a)?$'
    for spec in $shapes; do # every shape and revision is checked before the last build is cleared
      s=${spec#*:}
      [[ $s =~ $shape_re ]] || { echo "tune-04: '$s' is not THREADSxITEMSxBLOCKS[r][dD][sNS][wK][n][c|l][x][h][a] (e.g. 256x16x4, 512x32x2r, 512x16x2d2, 128x12x16s64w2 or 256x16x4n)" >&2; exit 2; }
      [ -n "${BASH_REMATCH[13]}" ] && [ -n "${BASH_REMATCH[4]}${BASH_REMATCH[5]}" ] &&
        { echo "tune-04: '$s': x (no transpose) keeps no ring of tiles, so it takes no r or dD" >&2; exit 2; }
      [ -n "${BASH_REMATCH[14]}" ] && [ -z "${BASH_REMATCH[13]}" ] &&
        { echo "tune-04: '$s': h (held results in shared memory) is a way of x's kernels: write xh" >&2; exit 2; }
      [ -n "${BASH_REMATCH[15]}" ] && [ -z "${BASH_REMATCH[13]}" ] &&
        { echo "tune-04: '$s': a (the look-back anchored on the block's previous tile) is a way of x's kernels: write xa or xha" >&2; exit 2; }
      [ -n "${BASH_REMATCH[15]}" ] && [ -n "${BASH_REMATCH[7]}${BASH_REMATCH[9]}" ] &&
        { echo "tune-04: '$s': a (the look-back anchored on the block's previous tile) reads no windows, so it takes no sNS or wK" >&2; exit 2; }
      [[ $spec == *:* ]] || continue
      for f in large_scan.cu lookback.cuh; do
        git cat-file -e "${spec%%:*}:solutions/04-large-scan/$f" 2> /dev/null ||
          { echo "tune-04: no solutions/04-large-scan/$f at git revision '${spec%%:*}'" >&2; exit 2; }
      done
    done
    mkdir -p "$dir"
    find "$dir" -maxdepth 1 -type f -delete # an earlier build's shapes would be run with these
    for spec in $shapes; do
      # REV:SHAPE builds the shape from large_scan.cu and lookback.cuh as they were at git revision REV.
      src=solutions/04-large-scan s=$spec name=$spec
      if [[ $spec == *:* ]]; then
        rev=${spec%%:*} s=${spec#*:} name=$s@$rev src=$dir/src-$rev
        mkdir -p "$src"
        for f in large_scan.cu lookback.cuh; do git show "$rev:solutions/04-large-scan/$f" > "$src/$f" || exit 2; done
      fi
      [[ $s =~ $shape_re ]]
      flags="-DLS_CFG_THREADS=${BASH_REMATCH[1]} -DLS_CFG_ITEMS=${BASH_REMATCH[2]} -DLS_CFG_MIN_BLOCKS=${BASH_REMATCH[3]}"
      flags+=" -DLS_CFG_RING=$([ -n "${BASH_REMATCH[4]}${BASH_REMATCH[5]}" ] && echo 1 || echo 0) -DLS_CFG_DEPTH=${BASH_REMATCH[6]:-1}"
      flags+=" -DLS_CFG_BACKOFF_NS=${BASH_REMATCH[8]:-0} -DLS_CFG_LOOKS=${BASH_REMATCH[10]:-1}"
      flags+=" -DLS_CFG_PERSISTENT=$([ -n "${BASH_REMATCH[11]}" ] && echo 0 || echo 1)"
      flags+=" -DLS_CFG_STREAM=$(case ${BASH_REMATCH[12]} in c) echo 1 ;; l) echo 2 ;; *) echo 0 ;; esac)"
      flags+=" -DLS_CFG_WARPSCAN=$([ -n "${BASH_REMATCH[13]}" ] && echo 1 || echo 0)"
      flags+=" -DLS_CFG_HELD_SMEM=$([ -n "${BASH_REMATCH[14]}" ] && echo 1 || echo 0)"
      flags+=" -DLS_CFG_AHEAD=$([ -n "${BASH_REMATCH[15]}" ] && echo 1 || echo 0)"
      # shellcheck disable=SC2086
      # The shape's solution object, then the bench runner (CUB rows) linked with it.
      { "$NVCC" -O3 -std=c++17 -arch="$ARCH" $flags -Xptxas -warn-spills -Iassignments/04-large-scan -I"$src" \
          -c "$src/large_scan.cu" -o "$dir/$name.o" &&
        "$NVCC" -O3 -std=c++17 -arch="$ARCH" -DHX_BENCH -Igrader/lib -Igrader/runner -Iassignments/04-large-scan \
          assignments/04-large-scan/runner.cu "$dir/$name.o" build/runner/librunner.a -lpthread -o "$dir/$name"; } \
        2> "$dir/$name.log" || { cat "$dir/$name.log" >&2; exit 1; }
      note=; grep -q spill "$dir/$name.log" && note=" (ptxas warns of register spills)"
      echo "tune-04: built $dir/$name$note"
    done ;;
  check)
    judge=build/grader/judge
    need_gpu_and_shapes "$judge"
    cases=${TUNE_CHECK_CASES:-$("$judge" --assignment 04-large-scan --list | awk '/^case / {printf "%s%s", sep, $2; sep = ","}')}
    echo "# tune-04 check on $gpu: cases $cases, one call each"
    failed=0
    for b in $(built_shapes); do
      for v in decoupled_lookback lookback_acqrel find_repeats; do
        out=$("$judge" --assignment 04-large-scan --runner "$b" --variant "$v" --case "$cases" --reps 1 --result-fd 1 2>&1)
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
  *) echo "usage: tools/tune-04.sh build [[REV:]THREADSxITEMSxBLOCKS[r][dD][sNS][wK][n][c|l][x][h][a]...] | check | run" >&2; exit 2 ;;
esac
