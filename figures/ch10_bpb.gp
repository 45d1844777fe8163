# ch10_bpb.gp -- the GPT's held-out bits per byte round by round (the same
# held-out windows as the loss curve, converted with their exact bytes), the
# whole held-out text's value after training (one point), and the chapter's
# yardsticks on the whole held-out text as horizontal lines: unigram and bigram
# over the same BPE tokens, gzip -9 and xz -9 (a compressor that did not run
# recorded -1 and is left out).
fig_h = 1.25
load 'figures/style.gp'
uni = recorded('bpb_unigram_tok') + 0
bi = recorded('bpb_bigram_tok') + 0
gz = recorded('bpb_gzip') + 0
xz = recorded('bpb_xz') + 0
gpt = recorded('bpb_gpt') + 0
last = recorded('train_steps') + 0
set print $whole
print sprintf('%g %g', last, gpt)
unset print
set xlabel 'training step'
set ylabel 'held-out bits per byte'
# two columns of three, the sample first (a second column's text ends inside)
set key below Left reverse maxrows 3 samplen 1.5 width -3 height 1
set offsets 0, graph 0.04, graph 0.06, graph 0.06
plot data.'loss.dat' using 1:4 with linespoints ls 1 title 'GPT, held-out windows', \
     $whole using 1:2 with points ls 1 pt 9 ps 1.6 title 'GPT, whole held-out text', \
     uni with lines ls 2 dt 2 title 'unigram (BPE tokens)', \
     bi with lines ls 2 title 'bigram (BPE tokens)', \
     (gz > 0 ? gz : NaN) with lines ls 3 dt 4 title 'gzip -9', \
     (xz > 0 ? xz : NaN) with lines ls 3 dt 3 title 'xz -9'
