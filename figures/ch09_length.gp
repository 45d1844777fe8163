# ch09_length.gp -- exact match on the test sentences against source length for
# the three models trained on the mirror task: chapter 8's GRU with attention
# and its no-attention baseline, and chapter 9's Transformer (same test set,
# same length bins).
if (!exists('alldata')) alldata = data.'../'
load 'figures/style.gp'
set xlabel 'source length (words)'
set ylabel 'exact match on the test set'
set yrange [0:1.05]
set key center center
plot alldata.'ch08_seq2seq/length.dat' using 1:3 with linespoints ls 1 \
         title 'GRU + attention (chapter 8)', \
     '' using 1:4 with linespoints ls 2 title 'GRU, no attention (chapter 8)', \
     data.'length.dat' using 1:3 with linespoints ls 3 title 'Transformer'
