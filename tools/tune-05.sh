#!/usr/bin/env bash
# tune-05.sh: try variants of assignment 05's reference renderer on the GPU at
# hand, each in a duel with the reference binary (solutions/05-renderer/
# renderer.cu reads RT_SMALL_TW, RT_SMALL_N, RT_MIN_BLOCKS, RT_K and RT_CFG_PDL).
#
#   bash tools/tune-05.sh build [VARIANT...]   here (nvcc): one harness per variant
#   bash tools/tune-05.sh run [VARIANT...]     on the GPU host: the table (every variant built, or these)
#
# A VARIANT is one or more settings joined by '-': twN (the small path's tile
# side, 16 or 32), smallN (the most circles drawn by the small path), mbN
# (render_image's blocks an SM), kN (circles a thread stages a chunk), skN
# (the same on the small path only) and
# pdl0 / pdl1 / pdl2 (programmatic dependent launches on the list path: off;
# on, the default; on with each grid letting the next start early); atREV builds
# renderer.cu as it was at git revision REV (at4b1c11f: an earlier reference,
# to measure a change beside it). `ref` is the reference's own settings, built
# the same way: its ratios show the noise.
# `build` writes build/tune-05/ (make gpu-carry packs it); `run` duels each
# variant against assignments/05-renderer/ref/reference on every scene of
# TUNE_CASES, sample by sample on the same frames, each frame checked against
# the CPU reference (TUNE_REPS samples a case).
set -u
cd "$(dirname "$0")/.."
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-sm_90}
dir=build/tune-05
case ${1:-} in
  build)
    shift
    variants=${*:-ref pdl0 tw16}
    [ -f build/runner/librunner.a ] || { echo "tune-05: build/runner/librunner.a is missing: run 'make gpu-carry ARCH=$ARCH' first" >&2; exit 2; }
    mkdir -p "$dir"
    for v in $variants; do
      flags= src=solutions/05-renderer/renderer.cu
      IFS=- read -ra parts <<< "$v"
      for p in "${parts[@]}"; do
        case $p in
          ref) ;;
          tw16 | tw32) flags+=" -DRT_SMALL_TW=${p#tw}" ;;
          small[0-9]*) flags+=" -DRT_SMALL_N=${p#small}" ;;
          mb[0-9]*) flags+=" -DRT_MIN_BLOCKS=${p#mb}" ;;
          k[0-9]*) flags+=" -DRT_K=${p#k}" ;;
          sk[0-9]*) flags+=" -DRT_SMALL_K=${p#sk}" ;;
          pdl0 | pdl1 | pdl2) flags+=" -DRT_CFG_PDL=${p#pdl}" ;;
          at?*)
            src=$dir/$v.cu
            git show "${p#at}:solutions/05-renderer/renderer.cu" > "$src" ||
              { echo "tune-05: no renderer.cu at git revision '${p#at}'" >&2; exit 2; } ;;
          *) echo "tune-05: '$p' of '$v' is not twN (16, 32), smallN, mbN, kN, skN, pdl0, pdl1, pdl2, atREV or ref" >&2; exit 2 ;;
        esac
      done
      # shellcheck disable=SC2086
      { "$NVCC" -O3 -std=c++17 -arch="$ARCH" $flags -Xptxas -warn-spills -Igrader/lib -Iassignments/05-renderer \
          -Isolutions/05-renderer -c "$src" -o "$dir/$v.o" &&
        "$NVCC" -O3 -std=c++17 -arch="$ARCH" -Igrader/lib -Igrader/runner -Iassignments/05-renderer \
          assignments/05-renderer/runner.cu "$dir/$v.o" build/runner/librunner.a -lpthread -o "$dir/$v"; } \
        2> "$dir/$v.log" || { cat "$dir/$v.log" >&2; exit 1; }
      note=; grep -q spill "$dir/$v.log" && note=" (ptxas warns of register spills)"
      echo "tune-05: built $dir/$v ($flags )$note"
    done ;;
  run)
    ref=assignments/05-renderer/ref/reference judge=build/grader/judge
    [ -x "$ref" ] && [ -x "$judge" ] || { echo "tune-05: $ref or $judge is missing (make gpu-carry)" >&2; exit 2; }
    gpu=$(build/tools/gpuinfo 2>&1) || { echo "tune-05: $gpu" >&2; exit 3; }
    cases=${TUNE_CASES:-pattern,rand10k,snow,biglittle,rand100k,rand1M,micro2M} reps=${TUNE_REPS:-15}
    echo "# tune-05 on $gpu: duels with the reference binary (the two take turns sample by sample on the same"
    echo "# frames, every frame checked by the judge), $reps samples a case; ratio = variant / reference, medians"
    printf '%-22s %-10s %10s %10s %7s\n' variant case median_ms ref_ms ratio
    shift
    runs=("$@")
    if [ ${#runs[@]} -eq 0 ]; then
      for b in "$dir"/*; do
        case $b in *.*) continue ;; esac
        [ -x "$b" ] && runs+=("$(basename "$b")")
      done
    fi
    [ ${#runs[@]} -gt 0 ] || { echo "tune-05: nothing built in $dir ('bash tools/tune-05.sh build' first)" >&2; exit 2; }
    for v in "${runs[@]}"; do
      b=$dir/$v
      [ -x "$b" ] || { echo "tune-05: $b is not built" >&2; exit 2; }
      "$judge" --assignment 05-renderer --runner "$b" --versus "$ref" --case "$cases" --reps "$reps" --result-fd 1 2>&1 |
        awk -v label="$(basename "$b")" '/^result / {for (i = 2; i <= NF; i++) {split($i, kv, "="); f[kv[1]] = kv[2]}
            if (++k % 2) {rms = f["median_ms"]; rok = f["ok"]; next}
            printf "%-22s %-10s %10.4f %10.4f %7.3f%s\n", label, f["case"], f["median_ms"], rms,
              f["median_ms"] / rms, f["ok"] == 1 && rok == 1 ? "" : "  WRONG"; next}
          {print "  " $0}'
    done ;;
  *) echo "usage: tools/tune-05.sh build [VARIANT...] | run [VARIANT...]   (VARIANT: settings joined by '-': twN smallN mbN kN skN pdl0 pdl1 pdl2 atREV ref)" >&2; exit 2 ;;
esac
