# ch01_nw_fit.gp -- Nadaraya-Watson prediction against the truth.
fig_h = 1.3
load 'figures/style.gp'
h = recorded('nw_h')
set xlabel 'x'
set ylabel 'y'
set xrange [0:5]
set yrange [-1:5]
set key below spacing 1.3   # over no point; room for the sub- and superscripts
plot data.'nw_train.dat' using 1:2 with points pt 7 ps 0.55 lc rgb '#888888' \
         title 'training points (x_{/*1.25 j}, y_{/*1.25 j})', \
     data.'nw_fit.dat'   using 1:2 with lines ls 3 dt 2 \
         title 'truth 2 sin x + x^{/*1.25 0.8}', \
     ''                 using 1:3 with lines ls 1 title sprintf('attention pooling, h = %s', h)
