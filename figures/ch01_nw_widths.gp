# ch01_nw_widths.gp -- four kernel widths: predictions (top), weights (bottom).
fig_w = 1.2
fig_h = 1.4
load 'figures/style.gp'
width(k) = recorded(sprintf('nw_panel_%d', k))
weights(k) = data.sprintf('nw_weights_%d.dat', k)
array hi[4]   # each width's largest weight
do for [k=1:4] {
    stats weights(k) matrix using 3 nooutput
    hi[k] = STATS_max
}
set multiplot layout 2,4 margins 0.09, 0.92, char 4, char 2.5 spacing 0.09, 0.2
unset key
set xrange [0:5]
set xtics 1
set yrange [-1.5:5.5]
do for [k=1:4] {
    set title sprintf('h = %s', width(k))
    if (k == 1) { set ylabel 'y' } else { unset ylabel; set format y '' }
    set xlabel 'x'
    plot data.'nw_train.dat' using 1:2 with points pt 7 ps 0.4 lc rgb '#999999', \
         data.'nw_widths.dat' using 1:2 with lines ls 3 dt 2, \
         ''                  using 1:(column(2 + k)) with lines ls 1
}
set format y '%g'
@palette_attention
# each width its own colour scale (its largest weight, and 0): the largest
# weight of the widest kernel is a small fraction of the narrowest's
set colorbox
set autoscale cbfix
set grid noxtics noytics
set border 15
set autoscale xfixmax
set xrange [-0.5:*]
set xtics 20
set yrange [5.025:-0.025]   # query 0 at the top, as every heatmap of the book
set cbrange [0:*]
do for [k=1:4] {
    unset title
    if (k == 1) { set ylabel 'query x' } else { unset ylabel; set format y '' }
    set xlabel 'training point j'
    set cbtics (sprintf('%.2g', hi[k]) hi[k], '0' 0) scale 0
    plot weights(k) matrix using 1:($2*0.05):3 with image
}
unset multiplot
