# ch09_cross.gp -- one long test sentence, two models: the cross-attention of
# the Transformer's most mirror-like head (left) beside the additive attention
# of chapter 8's GRU model (right). Rows are output words, columns source
# words; the Transformer's source ends with its marker </s>.
if (!exists('alldata')) alldata = data.'../'
fig_w = 1.0
fig_h = 1.0
load 'figures/style.gp'
@heatmap_style
set size ratio 1   # both panels square (the left has one column more: </s>)
set cbrange [0:1]
unset colorbox
set tics scale 0 font ',8'
set border 0
set xtics rotate by 90 right
set yrange [*:*] reverse
set autoscale xfix
set autoscale yfix
set multiplot layout 1, 2 margins 0.1, 0.99, 0.16, 0.93 spacing 0.07, 0
set title sprintf('Transformer: block %s, head %s', recorded('mirror_block'), \
                  recorded('mirror_head')) font ',11'
set ylabel 'output word' font ',10'
set xlabel 'source word' font ',10'
plot data.'cross_long.dat' matrix rowheaders columnheaders using 1:2:3 \
     with image pixels notitle
set title 'GRU + additive attention (chapter 8)' font ',11'
set ylabel ' ' font ',10'   # the same room as the left label: panels of one size
plot alldata.'ch08_seq2seq/align_long.dat' matrix rowheaders columnheaders \
     using 1:2:3 with image pixels notitle
unset multiplot
