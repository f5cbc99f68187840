#!/usr/bin/env bash
# lectures-run.sh DATA_DIR PROGRAM...: runs each lecture example on the GPU
# present (`make lectures-run`), prints its table and keeps its CSV as
# DATA_DIR/<example>-<gpu>.csv: <example> is the program's name with - for _,
# <gpu> the GPU's short name (NVIDIA H100 80GB HBM3: h100). Measured data is
# never overwritten: when that file exists, the new table goes to
# <example>-<gpu>-run2.csv, -run3, and so on. Every program runs, even after
# one fails; the exit status is 1 if any failed, 3 if there is no GPU.
set -u
data=$1
shift
limit=${LECTURES_RUN_TIMEOUT:-600} # seconds per example; each should take seconds

name=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -n 1)
if [ -z "$name" ]; then
  echo "lectures-run: no NVIDIA GPU here (nvidia-smi lists none); the examples need one ('make lectures' builds them)" >&2
  exit 3
fi
# The short name: drop the vendor's words, keep the model ("a100" of "A100-SXM4-40GB";
# "rtx4090" of "GeForce RTX 4090").
gpu=$(echo "$name" | tr 'A-Z' 'a-z' | tr -- '-_' '  ' |
  awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i !~ /^(nvidia|geforce|tesla|quadro)$/) w[++n] = $i;
         s = w[1]; if (s ~ /^[a-z]+$/ && n > 1) s = s w[2]; gsub(/[^a-z0-9]/, "", s); print s }')
[ -n "$gpu" ] || gpu=gpu
mkdir -p "$data"
echo "lectures-run: $name ($gpu): ${#} examples"

failed=0
for prog in "$@"; do
  ex=$(basename "$prog" | tr _ -)
  out="$data/$ex-$gpu.csv"
  n=2
  while [ -e "$out" ]; do out="$data/$ex-$gpu-run$n.csv"; n=$((n + 1)); done
  echo
  echo "## $prog -> $out"
  timeout "$limit" "$prog" > "$out.tmp"
  rc=$?
  if [ $rc -ne 0 ]; then
    [ $rc -eq 124 ] && echo "lectures-run: $prog ran past ${limit} s and was stopped" >&2
    echo "lectures-run: $prog exited $rc; nothing kept" >&2
    rm -f "$out.tmp"
    failed=1
    continue
  fi
  mv -f "$out.tmp" "$out"
  if command -v column > /dev/null; then column -t -s, "$out"; else cat "$out"; fi
done
exit $failed
