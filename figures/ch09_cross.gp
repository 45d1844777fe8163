# ch09_cross.gp -- one long test sentence, two models: the cross-attention of
# the Transformer's most mirror-like head (left) beside the additive attention
# of chapter 8's GRU model (right). Rows are output words, columns source
# words; the Transformer's source ends with its marker </s>.
if (!exists('alldata')) alldata = data.'../'
fig_w = 1.0
fig_h = 2.7
load 'figures/style.gp'
@heatmap_style
set size noratio
set cbrange [0:1]
# one scale, [0, 1], beside each panel (one beside the lower only would make
# it narrower than the upper)
set tics scale 0
set border 0
set xtics rotate by 90 right
set yrange [*:*] reverse
set autoscale xfix
set autoscale yfix
set multiplot layout 2, 1 margins 0.14, 0.86, 0.07, char 2 spacing 0, 0.12
set title sprintf('Transformer: block %s, head %s', recorded('mirror_block'), \
                  recorded('mirror_head'))
set ylabel 'output word'
set xlabel 'source word'
plot data.'cross_long.dat' matrix rowheaders columnheaders using 1:2:3 \
     with image pixels notitle
set title 'GRU + additive attention (chapter 8)'
plot alldata.'ch08_seq2seq/align_long.dat' matrix rowheaders columnheaders \
     using 1:2:3 with image pixels notitle
unset multiplot
