# ch08_loss.gp -- training and validation loss per target word, epoch by epoch,
# for both models.
load 'figures/style.gp'
set xlabel 'epoch'
set ylabel 'cross-entropy per target word'
set logscale y
set key below Left reverse   # under the axes: inside, every place is crossed by a curve
plot data.'loss.dat' using 1:2 with linespoints ls 1 title 'attention, train', \
     '' using 1:3 with linespoints ls 1 dt 2 title 'attention, validation', \
     '' using 1:5 with linespoints ls 2 title 'baseline, train', \
     '' using 1:6 with linespoints ls 2 dt 2 title 'baseline, validation'
