# ch03_training.gp -- training W_Q and W_K to attend to the previous token:
# the loss per step (left), and the weights on one unseen sequence before
# (middle) and after (right) training. Rows are queries, row 1 at the top.
fig_w = 1.25
fig_h = 0.85
load 'figures/style.gp'
set multiplot layout 1, 3 margins 0.14, 0.88, 0.26, 0.88 spacing 0.07, 0
set xlabel 'step'
set xtics 100
set ylabel 'loss'
set yrange [0:*]
set title 'loss' offset 0, -0.5
plot data.'training_loss.dat' using 1:2 with lines ls 1 notitle
@palette_attention
unset colorbox
set cbrange [0:1]
set size ratio -1
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set tics scale 0
set xtics 0, 1, 7 format ''
set ytics 0, 1, 7 format ''
unset grid
set border 15 lc rgb '#888888'
set xlabel 'key'
set ylabel 'query'
set title 'before training'
plot data.'training_before.dat' matrix using 1:2:3 with image pixels notitle
set title 'after training'
unset ylabel
# one colour scale for both maps (the same cbrange)
set colorbox user origin screen 0.9, screen 0.26 size screen 0.012, screen 0.48
set cbtics 0, 0.5, 1 scale 0.5
plot data.'training_after.dat' matrix using 1:2:3 with image pixels notitle
unset multiplot
