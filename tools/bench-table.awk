# bench-table.awk: joins the reference's and your runner's `--bench` output
# (as `make bench` prints them, each after a "## reference: NN" or
# "## starter: NN" / "## solutions: NN" line) into one table: one row per n,
# one column per bench row (the copy, the baselines, each reference variant
# "ref:SLUG", each of your variants "you:SLUG", or "starter:SLUG" /
# "solutions:SLUG" when the input is labelled so), in microseconds, then as
# ratios to the copy and to each baseline (CUB's scan and CUB's select, in 04). With
# -v dat=FILE it also writes the microseconds as a gnuplot data file.
#
#   make bench A=04        (runs this at the end)
#
# A bench row (the judge's, grader/judge/judge_main.c):
#   ROW KIND CASE N MEDIAN_MS GB/S X_COPY X_BASE WORK_MIB OK [OVH_US]
# KIND one of copy, baseline, variant.
# "## starter: NN" and "## solutions: NN" keep their source's name when `make
# bench` labels them (SIDES=named), so one table can show both beside the reference.
/^## / { side = ($2 == "reference:") ? "ref" : (named && $2 ~ /^(starter|solutions):$/) ? substr($2, 1, length($2) - 1) : "you"; next }
/^#/ || (NF != 10 && NF != 11) || $5 !~ /^[0-9.]+$/ { next }
{
  row = $1; kind = $2; key = $3 "@" $4
  if (kind != "variant" && side != "ref") next # the same copy and baselines as the reference's
  col = kind == "copy" ? "copy" : kind == "baseline" ? row : side ":" row
  if (kind == "baseline" && !(row in is_base)) { is_base[row] = 1; bases[++nbase] = row }
  if (!(col in seen)) { seen[col] = 1; cols[++ncols] = col }
  if (!(key in seen_n)) { seen_n[key] = 1; ns[++nn] = key; label_case[key] = $3; label_n[key] = $4 }
  if (!($3 in seen_case)) { seen_case[$3] = 1; ncase++ }
  us[key, col] = $5 * 1000
  if ($10 == "NO") wrong[key, col] = 1
}
# A row's label: n when the bench timed one case at several sizes, else the case.
function label(key) { return ncase == 1 ? label_n[key] : label_case[key] }
function table(title, kind, base,    i, j, n, v, d) {
  printf "\n%s\n%-12s", title, ncase == 1 ? "n" : "case"
  for (j = 1; j <= ncols; j++) printf " %15s", cols[j]
  printf "\n"
  for (i = 1; i <= nn; i++) {
    n = ns[i]
    printf "%-12s", label(n)
    for (j = 1; j <= ncols; j++) {
      v = us[n, cols[j]]
      d = kind == "us" ? 1 : kind == "copy" ? us[n, "copy"] : us[n, base]
      if (v == "" || d == "" || d == 0) printf " %15s", "-"
      else if (kind != "us" && v / d < 0.1) printf " %14.3g%s", v / d, wrong[n, cols[j]] ? "!" : " " # the GPU against the CPU: 0.00378, not 0.00
      else printf " %14.*f%s", kind == "us" ? 1 : 2, v / d, wrong[n, cols[j]] ? "!" : " "
    }
    printf "\n"
  }
}
END {
  if (!nn) { print "bench-table: no bench rows in the input" > "/dev/stderr"; exit 1 }
  table("median time, microseconds (! = wrong output on some rep)", "us")
  table("time / device-to-device copy of the same bytes", "copy")
  for (b = 1; b <= nbase; b++) table("time / " bases[b], "base", bases[b])
  if (dat != "") {
    printf "%s", ncase == 1 ? "n" : "case" > dat
    for (j = 1; j <= ncols; j++) printf " %s", cols[j] > dat
    printf "\n" > dat
    for (i = 1; i <= nn; i++) {
      printf "%s", label(ns[i]) > dat
      for (j = 1; j <= ncols; j++) printf " %s", (us[ns[i], cols[j]] == "" ? "NaN" : us[ns[i], cols[j]]) > dat
      printf "\n" > dat
    }
  }
}
