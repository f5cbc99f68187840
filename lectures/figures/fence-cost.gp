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
set yrange [0.5:*]
set grid ytics
set style fill solid 0.8
set boxwidth 0.7
set xtics rotate by -60 left
# columns: op, scope, median_ms, ns_per_iteration, x_baseline, baseline; rows after the header
plot data using 0:5:xticlabels(1) every ::1 with boxes lc rgb '#3182bd'
