# bench.gp: draws `make bench`'s joined table (mk/bench-table.awk's data file):
# median time per run against n, one line per column (copy, baselines,
# reference variants, your variants). gnuplot -e "dat='...'; out='...'; title='...'" mk/bench.gp
set terminal pngcairo size 900,560 noenhanced
set output out
set title title
set logscale xy 2
set format x "2^%L"
set xlabel "n (elements)"
set ylabel "median time per run (microseconds)"
set key top left
set grid
stats dat skip 1 nooutput
plot for [i=2:STATS_columns] dat using 1:i with linespoints title columnheader(i)
