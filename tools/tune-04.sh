#!/usr/bin/env bash
# tune-04.sh: try other shapes of assignment 04's reference scan on the GPU at
# hand, side by side with CUB and a copy (solutions/04-large-scan/large_scan.cu
# reads LS_CFG_THREADS, LS_CFG_ITEMS, LS_CFG_MIN_BLOCKS, LS_CFG_LOOKS,
# LS_CFG_BACKOFF_NS and LS_CFG_PERSISTENT).
#
#   bash tools/tune-04.sh build [SHAPE...]   here (nvcc): one harness per shape
#   bash tools/tune-04.sh run                on the GPU host: the table
#
# A SHAPE is THREADSxITEMSxBLOCKS, then optionally sNS (a back-off of NS ns
# between polls), wK (K rows of 32 tiles in each look-back window after the
# first; without it the reference's 1) and n (no persistent blocks: one
# block a tile, as the reference was before 2026-11-23).
# 512x16x2 is the reference's own shape. The default shapes are its neighbours:
# one block a tile, a wider window, other shapes and a back-off
# (docs/results/tuning-04-h100.txt). `build` writes build/tune-04/
# (make gpu-carry packs it); `run` times each at 2^24 and 2^28, every rep
# verified, next to the reference bench build's CUB and copy rows.
set -u
cd "$(dirname "$0")/.."
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-sm_90}
dir=build/tune-04
case ${1:-} in
  build)
    shift
    shapes=${*:-512x16x2 512x16x2n 512x16x2w4 512x20x2 256x16x4 128x16x8 512x16x2s64}
    [ -f build/runner/librunner.a ] || { echo "tune-04: build/runner/librunner.a is missing: run 'make gpu-carry ARCH=$ARCH' first" >&2; exit 2; }
    mkdir -p "$dir"
    for s in $shapes; do
      if ! [[ $s =~ ^([0-9]+)x([0-9]+)x([0-9]+)(s([0-9]+))?(w([0-9]+))?(n)?$ ]]; then
        echo "tune-04: '$s' is not THREADSxITEMSxBLOCKS[sNS][wK][n] (e.g. 256x16x4, 128x12x16s64w2 or 256x16x4n)" >&2; exit 2
      fi
      flags="-DLS_CFG_THREADS=${BASH_REMATCH[1]} -DLS_CFG_ITEMS=${BASH_REMATCH[2]} -DLS_CFG_MIN_BLOCKS=${BASH_REMATCH[3]}"
      flags+=" -DLS_CFG_BACKOFF_NS=${BASH_REMATCH[5]:-0} -DLS_CFG_LOOKS=${BASH_REMATCH[7]:-1}"
      flags+=" -DLS_CFG_PERSISTENT=$([ -n "${BASH_REMATCH[8]}" ] && echo 0 || echo 1)"
      # shellcheck disable=SC2086
      # The shape's solution object, then the bench runner (CUB rows) linked with it.
      { "$NVCC" -O3 -std=c++17 -arch="$ARCH" $flags -Xptxas -warn-spills -Iassignments/04-large-scan -Isolutions/04-large-scan \
          -c solutions/04-large-scan/large_scan.cu -o "$dir/$s.o" &&
        "$NVCC" -O3 -std=c++17 -arch="$ARCH" -DHX_BENCH -Igrader/lib -Igrader/runner -Iassignments/04-large-scan \
          assignments/04-large-scan/runner.cu "$dir/$s.o" build/runner/librunner.a -lpthread -o "$dir/$s"; } \
        2> "$dir/$s.log" || { cat "$dir/$s.log" >&2; exit 1; }
      note=; grep -q spill "$dir/$s.log" && note=" (ptxas warns of register spills)"
      echo "tune-04: built $dir/$s$note"
    done ;;
  run)
    bench=assignments/04-large-scan/ref/bench
    [ -x "$bench" ] || { echo "tune-04: $bench is missing (make gpu-carry)" >&2; exit 2; }
    ls "$dir"/*x*x* > /dev/null 2>&1 || { echo "tune-04: nothing built in $dir ('bash tools/tune-04.sh build' first)" >&2; exit 2; }
    gpu=$(build/tools/gpuinfo 2>&1) || { echo "tune-04: $gpu" >&2; exit 3; }
    echo "# tune-04 on $gpu: median ms of each case's reps, every rep verified"
    "$bench" --bench --case 'n2^24,n2^28' 2>&1 | awk '$1 ~ /^(copy_d2d|cub_exclusive_sum|decoupled_lookback)$/ {printf "%-22s %-8s %10s\n", ($1 == "decoupled_lookback" ? "reference" : $1), $3, $5}'
    for b in "$dir"/*x*x*; do
      case $b in *.log) continue ;; esac
      "$b" --variant decoupled_lookback --case 'n2^24,n2^28' --check 2>&1 |
        awk -v s="$(basename "$b")" '/^result / {for (i = 2; i <= NF; i++) {split($i, kv, "="); f[kv[1]] = kv[2]}
          printf "%-22s %-8s %10s%s\n", s, f["case"], f["median_ms"], f["ok"] == 1 ? "" : "  WRONG"}'
    done ;;
  *) echo "usage: tools/tune-04.sh build [THREADSxITEMSxBLOCKS[sNS][wK][n]...] | run" >&2; exit 2 ;;
esac
