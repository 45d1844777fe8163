# ch08_alignment.gp -- the trained model's attention weights on one test
# sentence: a row per output word, a column per source word. The bright cells
# run along the anti-diagonal: output word j looks at source word n-1-j.
fig_w = 1.0
fig_h = 1.6
load 'figures/style.gp'
@palette_attention
set cbrange [0:1]
set cblabel 'attention weight'
set size ratio -1
set tics scale 0
unset grid
set border 0
set xtics rotate by 90 right
set ylabel 'output word'
set xlabel 'source word'
set autoscale xfix
set autoscale yfix
set yrange [*:*] reverse
plot data.'align_long.dat' matrix rowheaders columnheaders using 1:2:3 \
        with image pixels notitle
