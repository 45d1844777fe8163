# ch07_alibi_bias.gp -- ALiBi bias matrices of heads 1, 4 and 8 (of 8), n = 8.
# Rows are queries, columns keys; future keys (blank) are hidden by the
# causal mask; the diagonal (bias 0) is pale yellow. Each panel has its own colour scale: the slopes differ 128-fold.
fig_w = 1.2   # three square panels, each with its colour bar
fig_h = 0.74
load 'figures/style.gp'
heads = "1 4 8"
slopes = "'1/2' '1/16' '1/256'"
bias(t) = data.sprintf('alibi_bias_h%s.dat', word(heads, t))
array lo[3]   # each head's most negative bias (future keys, > 0.5, are hidden)
do for [t=1:3] {
    stats bias(t) matrix using ($3 > 0.5 ? NaN : $3) nooutput
    lo[t] = STATS_min
}
set palette defined (0 '#08306b', 0.5 '#6baed6', 1 '#fff3b0')
unset grid
set border 15 lc rgb '#888888'
set size ratio -1
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set tics scale 0
set xtics 0, 2
set ytics 0, 2
set autoscale cbfix   # each panel its own range: the slopes differ 128-fold
set multiplot layout 1, 3 margins char 6, screen 0.9, char 4, char 2.5 spacing 0.11, 0
do for [t=1:3] {
    set title sprintf('head %s, m = %s', word(heads, t), word(slopes, t))
    set xlabel 'key j'
    if (t == 1) { set ylabel 'query i' } else { unset ylabel }
    # two ticks on each colour bar: its most negative bias, and 0
    set cbtics (sprintf('%.2g', lo[t]) lo[t], '0' 0)
    plot bias(t) matrix \
         using 1:2:($3 > 0.5 ? NaN : $3) with image pixels notitle
}
unset multiplot
