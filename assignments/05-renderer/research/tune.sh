#!/usr/bin/env bash
# assignments/05-renderer/research/tune.sh: builds variants of assignment 05's reference
# renderer, and times each in a duel with the reference binary on the GPU at
# hand. A variant is the reference with other values in its tuning policy
# (rt_policy in solutions/05-renderer/policy.cuh), or the reference as it was
# at an earlier git revision.
#
#   bash assignments/05-renderer/research/tune.sh build [VARIANT...]   here (nvcc): one runner per variant
#   bash assignments/05-renderer/research/tune.sh run [VARIANT...]     on the GPU host: the table (every variant built, or these)
#
# A VARIANT is one or more settings joined by '-':
#   smallN  rt_policy::small_n, the most circles the small path draws
#   kN      rt_policy::stage_k, circles a thread of render_image stages a chunk (1 to 4)
#   mbN     rt_policy::min_blocks, render_image's blocks of 256 threads an SM must fit
#   atREV   solutions/05-renderer as it was at git revision REV (at70878bb: the
#           last one with the experiments' switches), to time a change beside
#           what it replaced; with other settings only where REV has policy.cuh
#   ref     the reference's own policy, built the same way: its ratios show the noise
# `build` copies solutions/05-renderer to build/tune-05-src/VARIANT/, writes the
# settings into its policy.cuh, and builds build/tune-05/VARIANT (make gpu-carry
# packs build/tune-05). `run` duels each variant against
# assignments/05-renderer/ref/reference on every scene of TUNE_CASES, sample by
# sample on the same frames, each frame checked against the CPU reference by the
# judge (TUNE_REPS samples a case). assignments/05-renderer/research/README.md has more.
set -u
cd "$(dirname "$0")/../../.."
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-sm_90}
SOL=solutions/05-renderer
dir=build/tune-05 srcs=build/tune-05-src
usage="usage: assignments/05-renderer/research/tune.sh build [VARIANT...] | run [VARIANT...]   (VARIANT: settings joined by '-': smallN kN mbN atREV ref)"

die() {
  echo "tune-05: $*" >&2
  exit 2
}

# The policy's value for one setting: "NAME VALUE" (rt_policy's member), or a refusal.
setting() {
  local v=$1 p=$2
  case $p in
    small[0-9]*) [[ ${p#small} =~ ^[0-9]+$ ]] && echo "small_n ${p#small}" && return ;;
    k[1-4]) echo "stage_k ${p#k}" && return ;;
    k[0-9]*) die "'$p' of '$v': stage_k is 1 to 4 (the small path scans its stage_k x 8 hit counts in one warp)" ;;
    mb[1-9]) echo "min_blocks ${p#mb}" && return ;;
  esac
  die "'$p' of '$v' is not smallN, kN, mbN, atREV or ref"
}

# Writes VARIANT's sources into $srcs/VARIANT: the solution's folder (at REV for
# atREV) with each setting's value in policy.cuh.
prepare() {
  local v=$1 rev= out=$srcs/$1 p name value
  local -a parts sets=()
  IFS=- read -ra parts <<< "$v"
  for p in "${parts[@]}"; do
    case $p in
      ref) ;;
      at?*) rev=${p#at} ;;
      *) sets+=("$(setting "$v" "$p")") ;; # checked before
    esac
  done
  rm -rf "$out" && mkdir -p "$out"
  if [ -n "$rev" ]; then
    git archive "$rev" "$SOL" | tar -x -C "$out" --strip-components=2
  else
    cp "$SOL"/*.cu "$SOL"/*.cuh "$out"/
  fi
  for p in "${sets[@]}"; do
    read -r name value <<< "$p"
    [ -f "$out/policy.cuh" ] || die "'$v': ${rev:+revision $rev has }no policy.cuh to set $name in"
    grep -q "^  static constexpr int $name = " "$out/policy.cuh" || die "'$v': policy.cuh has no rt_policy::$name"
    sed -i "s/^\(  static constexpr int $name = \)[^;]*;/\1$value;/" "$out/policy.cuh"
  done
}

case ${1:-} in
  build)
    shift
    variants=${*:-ref}
    # Every variant is checked before anything is built.
    for v in $variants; do
      IFS=- read -ra parts <<< "$v"
      for p in "${parts[@]}"; do
        case $p in
          ref) ;;
          at?*) git cat-file -e "${p#at}:$SOL" 2> /dev/null || die "no $SOL at git revision '${p#at}'" ;;
          *) setting "$v" "$p" > /dev/null || exit 2 ;;
        esac
      done
    done
    [ -f build/runner/librunner.a ] || die "build/runner/librunner.a is missing: run 'make gpu-carry ARCH=$ARCH' first"
    mkdir -p "$dir"
    for v in $variants; do
      prepare "$v"
      src=$srcs/$v
      { "$NVCC" -O3 -std=c++17 -arch="$ARCH" -Xptxas -warn-spills -Iassignments/05-renderer -I"$src" \
          -c "$src/renderer.cu" -o "$dir/$v.o" &&
        "$NVCC" -O3 -std=c++17 -arch="$ARCH" -Igrader/protocol -Igrader/runner -Iassignments/05-renderer \
          assignments/05-renderer/runner/runner.cu "$dir/$v.o" build/runner/librunner.a -lpthread -o "$dir/$v"; } \
        2> "$dir/$v.log" || { cat "$dir/$v.log" >&2; exit 1; }
      note=
      grep -q spill "$dir/$v.log" && note=" (ptxas warns of register spills)"
      policy="its own settings"
      [ -f "$src/policy.cuh" ] &&
        policy=$(sed -n 's/^  static constexpr int \([a-z_]*\) = \([^;]*\);.*/\1 = \2/p' "$src/policy.cuh" | paste -sd';' - | sed 's/;/, /g')
      echo "tune-05: built $dir/$v from $src ($policy)$note"
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
        [ -f "$b" ] && [ -x "$b" ] && runs+=("$(basename "$b")")
      done
    fi
    [ ${#runs[@]} -gt 0 ] || { echo "tune-05: nothing built in $dir ('bash assignments/05-renderer/research/tune.sh build' first)" >&2; exit 2; }
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
  *) echo "$usage" >&2; exit 2 ;;
esac
