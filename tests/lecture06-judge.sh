#!/usr/bin/env bash
# lecture06-judge.sh EXAMPLE CSV: the GPU tier's verdict on one of lecture 06's
# examples (app_compact, app_radix_sort, app_binning) from the CSV it printed:
# every version verified against its CPU reference (ok = 1 in every row), the
# scan versions keep the input order exactly (the atomic versions' order is
# printed, not judged: nothing promises it), and every row is there.
# Prints one line; exits 0 when right, 1 when not, 2 on bad arguments.
# gpu-tier.sh calls it on a fresh run; the unit tests call it on the measured
# CSVs of lectures/data/ and on broken copies of them.
set -u
ex=${1:?usage: lecture06-judge.sh EXAMPLE CSV}
csv=${2:?usage: lecture06-judge.sh EXAMPLE CSV}
# Per example: its result rows (awk), a wrong row (awk), how many rows.
case $ex in
  app_compact) rows='$1 ~ /^(scan_scatter|atomic_append|copy)$/' wrong='$5 != 1 || ($1 == "scan_scatter" && $6 != 100.0)' want=9 ;;
  app_radix_sort) rows='$1 ~ /^(cub_sort_keys|radix_sort_4bit)$/' wrong='$4 != 1' want=6 ;;
  app_binning) rows='$1 ~ /^(scan_lists|atomic_lists)$/' wrong='$5 != 1 || ($1 == "scan_lists" && $6 != $3)' want=4 ;;
  *) echo "lecture06-judge: unknown example '$ex' (app_compact, app_radix_sort, app_binning)" >&2; exit 2 ;;
esac
[ -r "$csv" ] || { echo "lecture06-judge: cannot read $csv" >&2; exit 2; }
n=$(awk -F, "$rows" "$csv" | wc -l)
off=$(awk -F, "($rows) && ($wrong) {print \$1 \" n=\" \$2}" "$csv" | paste -sd, -)
if [ "$n" -eq "$want" ] && [ -z "$off" ]; then
  echo "$ex: all $n rows verified, the scan versions in order"
else
  echo "$ex: ${off:-$n rows, want $want}"
  exit 1
fi
