# ch09_loss.gp -- the Transformer's training and validation loss per target
# word, epoch by epoch, and its validation exact match (right axis).
load 'figures/style.gp'
set xlabel 'epoch'
set ylabel 'cross-entropy per target word'
set logscale y
set y2label 'validation exact match'
set y2range [0:1]
set y2tics 0, 0.25, 1 nomirror out scale 0.6 textcolor rgb '#333333'
set key below Left reverse
plot data.'loss.dat' using 1:2 with linespoints ls 1 title 'train loss', \
     '' using 1:3 with linespoints ls 1 dt 2 title 'validation loss', \
     '' using 1:4 axes x1y2 with linespoints ls 3 title 'validation exact match'
