# ch07_sin_waves.gp -- columns 0, 4, 8 and 16 of the sinusoidal table as
# functions of the position: dots are the table, the curve is sin(pos w_i).
fig_w = 1.0
fig_h = 1.35
load 'figures/style.gp'
set multiplot layout 4, 1 margins char 10, screen 0.97, char 4, char 1 spacing 0, 0.035
set yrange [-1.25:1.25]
set ytics -1, 1, 1
set xrange [0:99]
unset key   # each panel names its column on the left, over no wave
cols = "0 4 8 16"
do for [t=1:4] {
    set ylabel sprintf('column %s', word(cols, t))
    if (t == 4) { set xlabel 'position pos'; set format x '%g' } else { unset xlabel; set format x '' }
    plot data.'sin_waves.dat' index 1 using 1:(column(t + 1)) with lines ls t lw 1.2 \
             notitle, \
         '' index 0 using 1:(column(t + 1)) with points ls t pt 7 ps 0.45 notitle
}
unset multiplot
