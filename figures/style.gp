# style.gp -- the one look every figure shares. Each figure script starts with
#     load 'figures/style.gp'
# The build passes three variables with -e:
#     term  'svg' (HTML book) or 'pdf' (PDF book)
#     out   the file to write
#     data  the program's data directory, ending in '/'
# A script may set fig_w / fig_h (multiples of the default size, fig_w <= 1.25)
# before loading.

if (!exists('term')) term = 'svg'
if (!exists('out'))  out = '/dev/null'
if (!exists('data')) data = './'
if (!exists('fig_w')) fig_w = 1.0
if (!exists('fig_h')) fig_h = 1.0

# One size for every figure's text, chosen per output so that it is the size
# the reader sees (tests/figures.sh measures it):
#  - PDF: the canvas is the size the figure is printed at (5 in at fig_w = 1,
#    6.25 in at most: the text is 16.2 cm wide, so LaTeX never scales a figure
#    down), and its text is 9 pt on paper (pdfcairo draws a font of size s at
#    s * fontscale * 4/3 pt: fontscale 0.75).
#  - SVG: the canvas in px is the width it is shown at on a desktop (the text
#    column is 782 px; the SVG says its size, 'fixed', so the page shows it at
#    that size, not stretched to the column), and its text is 16 px. On a
#    phone the figure is shown at 11/16 of that (book/style.css: zoom), so its
#    text is 11 px, and a figure wider than the screen scrolls sideways inside
#    its box. A sub- or superscript is drawn at 0.8 of the text: write it at the
#    base size, d_{/*1.25 k}, 10^{/*1.25 %T} (tests/figures.sh measures it).
# Both canvases hold the same number of lines of text (9 pt in 5 in is 16 px in
# 640 px), so what fits in one fits in the other. Text never goes below the
# base size (the tests fail under 11 CSS px or 6 pt): a figure that runs out
# of room gets a bigger canvas or fewer panels across, not smaller type.
# fsize(k) is the font spec of k times the base size: font fsize(1.1).
fbase = (term eq 'svg') ? 16 : 9
fsize(k) = sprintf(',%.2f', fbase * k)
if (term eq 'svg') {
    set terminal svg size 640*fig_w, 390*fig_h fixed enhanced \
        font 'DejaVu Sans,16' linewidth 1.3 background rgb 'white'
} else {
    set terminal pdfcairo size 5.0*fig_w, 3.05*fig_h enhanced \
        font 'DejaVu Sans,9' fontscale 0.75 linewidth 1.2
}
set output out
set encoding utf8

# Quiet frame, light grid, legend without a box.
set border 3 lc rgb '#444444'
set tics nomirror out scale 0.6 textcolor rgb '#333333'
set grid back lc rgb '#dddddd' lw 0.8 dt 1
set key noautotitle top right nobox samplen 2.5 spacing 1.1
set style fill solid 0.85 noborder
set datafile separator whitespace
set datafile missing '?'

# Six distinguishable colours (Okabe-Ito, safe for colour blindness).
set linetype 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.7
set linetype 2 lc rgb '#D55E00' lw 2 pt 5 ps 0.7
set linetype 3 lc rgb '#009E73' lw 2 pt 9 ps 0.8
set linetype 4 lc rgb '#CC79A7' lw 2 pt 11 ps 0.8
set linetype 5 lc rgb '#E69F00' lw 2 pt 13 ps 0.8
set linetype 6 lc rgb '#56B4E9' lw 2 pt 15 ps 0.8
set linetype cycle 6
do for [i=1:6] { set style line i lt i }

# Attention weights: white (0) to deep blue (max).  Use: @palette_attention
palette_attention = "set palette defined (0 '#ffffff', 0.25 '#c6dbef', 0.5 '#6baed6', 0.75 '#2171b5', 1 '#08306b')"
# Signed values: blue (negative), white (0), red (positive).  Use: @palette_signed
palette_signed = "set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')"

# ---------------------------------------------------------------------------
# Helpers the figure scripts share (one block: keep the look settings above).

# recorded('key'): the value the program recorded for key in its values.tsv,
# as a string (add 0 for a number).
recorded(key) = system("awk '$1==\"".key."\"{print $2}' ".data."values.tsv")

# Heatmap panels of attention weights: the palette, a square cell per weight,
# no grid. Use: @heatmap_style
heatmap_style = palette_attention . "; set size ratio -1; unset grid"

# One n x n heatmap with the value written in each cell: rows are queries (top
# to bottom), columns keys; the file is a matrix with row and column headers
# (the tokens). Set hm_n (cells per side) and run @labelled_heatmap_axes, then
#     plot hm_file @labelled_heatmap
# Text is white on cells >= hm_dark, near-black below; an exact zero shows
# hm_zero_text; hm_font is the font of the cell text.
hm_dark = 0.5
hm_font = fsize(1)
hm_zero_text = '0.00'
hm_text(v) = v == 0 ? hm_zero_text : sprintf('%.2f', v)
labelled_heatmap_axes = heatmap_style . "; set xrange [-0.5:hm_n-0.5]; set yrange [hm_n-0.5:-0.5]; set tics scale 0; set border 0"
labelled_heatmap = "matrix rowheaders columnheaders using 1:2:3 with image pixels notitle, '' matrix rowheaders columnheaders using 1:2:(hm_text($3)):($3 >= hm_dark ? 0xffffff : 0x1a1a1a) with labels tc rgb variable font hm_font notitle"

# A grid of heatmap panels h = 0..panel_n-1, panel_cols across, with one colour
# bar as tall as the grid: run @panel_colorbox before plotting panel h,
# @panel_measure after. Eight heads are 4 rows of 2: four across leave a
# token's row less room than its label needs.
panel_n = 8
panel_cols = 2
panel_colorbox = "if (h == panel_n - 1) { set colorbox user origin 0.895, cb_bottom size 0.018, cb_top - cb_bottom } else { unset colorbox }"
panel_measure = "if (h == 0) { cb_top = 1.0 * GPVAL_TERM_YMAX * GPVAL_TERM_SCALE / GPVAL_TERM_YSIZE }; if (h == panel_n - panel_cols) { cb_bottom = 1.0 * GPVAL_TERM_YMIN * GPVAL_TERM_SCALE / GPVAL_TERM_YSIZE }"
