# bank-stride.gp: lecture 03's figure. Time of a warp's shared-memory load
# against the lanes' stride, measured by lectures/examples/bank_stride.cu, next
# to the passes that the CPU count of assignments/03-blelloch/judge/banks.h predicts.
#   gnuplot -e "out='lectures/figures/bank-stride.png'" lectures/figures/bank-stride.gp   (make figures)
data = 'lectures/data/bank-stride-h100.csv'
if (!exists("out")) out = 'lectures/figures/bank-stride.png'
gpu = system("sed -n '1s/^# lecture 03, bank_stride: //p' ".data)

set terminal pngcairo noenhanced size 900,560 font 'sans,11'
set output out
set datafile separator ','
set key below
set bmargin 7
set title "Shared-memory loads at a stride: time vs the bank-conflict count\n".gpu." (".data.")"
set xlabel 'stride between the lanes of a warp (4-byte words)'
set ylabel 'time relative to stride 1'
set xrange [-1:65]
set yrange [0:34]
set xtics 0,4,64
set ytics 0,4,32
set grid ytics
plot data using 1:2 every ::1 with impulses lw 6 lc rgb '#9ecae1' title 'passes predicted: gcd(stride, 32) distinct words in one bank', \
     data using 1:4 every ::1 with points pt 7 ps 1.2 lc rgb '#d62728' title 'measured time / time at stride 1'
