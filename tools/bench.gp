# bench.gp: draws `make bench`'s joined table (tools/bench-table.awk's data file):
# median time per run, one line per column (copy, baselines, reference
# variants, your variants), against n, or against the case where the bench
# timed several cases (bycase=1).
#   gnuplot -e "dat='...'; out='...'; title='...'; bycase=0" tools/bench.gp
set terminal pngcairo size 900,560 noenhanced
set output out
set title title
set ylabel "median time per run (microseconds)"
set logscale y 2
set key top left
set grid
stats dat using 2 skip 1 nooutput
if (bycase) {
  set xlabel "case"
  set xtics rotate by -30
  plot for [i=2:STATS_columns] dat using 0:i:xtic(1) with linespoints title columnheader(i)
} else {
  set logscale x 2
  set format x "2^%L"
  set xlabel "n (elements)"
  plot for [i=2:STATS_columns] dat using 1:i with linespoints title columnheader(i)
}
