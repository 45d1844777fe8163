# ch08_baselines.gp -- the fixed-context baseline's losses on a linear axis:
# the chapter's baseline (10 epochs) and the wider one trained twice as long.
# Training loss keeps falling; validation loss levels off above it.
load 'figures/style.gp'
set xlabel 'epoch'
set ylabel 'loss per target word'
set yrange [0:*]
set key below Left reverse
plot data.'loss.dat' using 1:5 with linespoints ls 2 title 'baseline, train', \
     '' using 1:6 with linespoints ls 2 dt 2 title 'baseline, validation', \
     data.'wide_loss.dat' using 1:2 with linespoints ls 4 title 'wider baseline, train', \
     '' using 1:3 with linespoints ls 4 dt 2 title 'wider baseline, validation'
