#!/usr/bin/env bash
# gpu-session.sh OUT: everything the repository measures on a GPU, in one
# command, for a GPU host lent for a short time (docs/instructor-guide.md,
# "The GPU test tier"). Pack here, where Check and inih are:
#
#   make gpu-carry ARCH=sm_90
#
# carry gpu-carry.tar.gz to the GPU host, and run there
#
#   tar xzf gpu-carry.tar.gz && bash tools/gpu-session.sh $OUT [PART...]
#
# PARTs (default: all, in this order): tier, bench, timings, lectures. A lent
# host may limit one command to 10 minutes: run the parts in separate calls,
# and split them further with TIER_ARGS (gpu-tier.sh's arguments, e.g.
# "--no-common 04 05" or --common-only) and ASSIGNMENTS (e.g. "04 05": bench
# and timings of those only).
#
# It uses only the binaries built here (no make, no compiler). Into OUTDIR go
# three files (a lent host returns only a few): summary.txt, gpu-tier.txt (the
# GPU test tier, for docs/results/) and gpu-session.tar.gz with everything:
#   gpu-tier.txt              the GPU test tier (grader/tests/gpu-tier.sh)
#   bench-NN.txt, .raw        reference and solutions --bench, joined (tools/bench-table.awk)
#   lectures-run.txt, *.csv   every lecture example's table (tools/lectures-run.sh)
#   timings-NN/               every reference over its case table (build/tools/timings)
# Each part runs even when one before it failed; the summary says which did.
set -u
dest=${1:?usage: tools/gpu-session.sh OUTDIR [tier|bench|timings|lectures ...]}
shift
parts=" ${*:-tier bench timings lectures} "
for p in $parts; do
  case $p in tier | bench | timings | lectures) ;; *) echo "gpu-session: unknown part '$p' (tier, bench, timings, lectures)" >&2; exit 2 ;; esac
done
want() { [[ $parts == *" $1 "* ]]; }
cd "$(dirname "$0")/.."
mkdir -p "$dest"
out=$(mktemp -d /tmp/gpu-session-XXXXXX)
status=()
part() { # part NAME COMMAND...: runs it, keeps its status for the summary
  local name=$1
  shift
  echo "== $name ($(date -u +%H:%M:%S))"
  if "$@"; then status+=("ok      $name"); else status+=("FAILED  $name (exit $?)"); fi
}

want tier && part "GPU test tier" bash -c "bash grader/tests/gpu-tier.sh ${TIER_ARGS:-} > '$out/gpu-tier.txt' 2>&1"
for conf in assignments/*/grade.conf; do
  a=$(basename "$(dirname "$conf")")
  if [ -n "${ASSIGNMENTS:-}" ]; then # keep only the named ones (a number such as 04, or the full folder name)
    keep=0
    for w in $ASSIGNMENTS; do case $a in "$w" | "$w"-*) keep=1 ;; esac; done
    [ $keep = 1 ] || continue
  fi
  ref=assignments/$a/ref/bench
  [ -x "$ref" ] || ref=assignments/$a/ref/reference
  sol=build/solutions/$a/bench
  [ -x "$sol" ] || sol=build/solutions/$a/runner
  want bench && part "bench $a" bash -c "{ echo '## reference: $a'; '$ref' --bench; echo '## solutions: $a'; '$sol' --bench; } \
    > '$out/bench-$a.raw' 2>&1; awk -f tools/bench-table.awk '$out/bench-$a.raw' > '$out/bench-$a.txt'"
  gpu=$(build/tools/gpuinfo | cut -d, -f1)
  want timings && part "timings $a" build/tools/timings --ref "assignments/$a/ref/reference" --conf "$conf" --gpu "$gpu" --dir "$out/timings-$a"
done
want lectures && part "lecture examples" bash -c "bash tools/lectures-run.sh '$out' $(find build/lectures -maxdepth 1 -type f -perm -u+x ! -name '*.*' | sort | tr '\n' ' ') > '$out/lectures-run.txt' 2>&1"

echo
echo "== summary"
printf '%s\n' "${status[@]}" | tee "$out/summary.txt"
tar -C "$out" -czf "$dest/gpu-session.tar.gz" . && cp "$out/summary.txt" "$dest/" &&
  { [ ! -f "$out/gpu-tier.txt" ] || cp "$out/gpu-tier.txt" "$dest/"; }
