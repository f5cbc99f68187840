# fence-cost.gp: lecture 04's figure. The time of each ordering operation over
# its baseline (a plain volatile store or load), from the CSV that
# lectures/examples/fence_cost.cu printed on a GPU (make lectures-run). Draws
# from lectures/data/fence-cost-h100.csv, or else the first fence-cost-*.csv
# there; with none yet, says so and draws nothing.
#   gnuplot -e "out='lectures/figures/fence-cost.png'" lectures/figures/fence-cost.gp   (make figures)
data = system("f=lectures/data/fence-cost-h100.csv; [ -f $f ] || f=$(ls lectures/data/fence-cost-*.csv 2>/dev/null | head -n 1); echo $f")
if (data eq "") {
  print "fence-cost.gp: no lectures/data/fence-cost-*.csv yet (make lectures-run on a GPU): nothing drawn"
  exit
}
if (!exists("out")) out = 'lectures/figures/fence-cost.png'
gpu = system("sed -n '1s/^# lecture 04, fence_cost: //p' ".data)

set terminal pngcairo noenhanced size 1000,560 font 'sans,11'
set output out
set datafile separator ','
set key off
set bmargin 11
set title "Cost of ordering, by operation and scope: time / time without ordering\n".gpu." (".data.")"
set ylabel 'time relative to the same loop without ordering (log scale)'
set logscale y
# Down to 0.1: a CTA-scope acquire load runs at 0.18 of the volatile load's time.
set yrange [0.1:100]
set grid ytics
set style fill solid 0.8
set xtics rotate by -60 left
set offsets 0.7, 0.7, 0, 0
# Each bar grows from 1 (the baseline's own time), up when the operation is
# slower than its baseline, down when it is faster.
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#444444'
# columns: op, scope, median_ms, ns_per_iteration, x_baseline, baseline; rows after the header
plot data using 0:5:($0 - 0.35):($0 + 0.35):(1):5:xticlabels(1) every ::1 with boxxyerror lc rgb '#3182bd'
