# style.gp -- the one look every figure shares. Each figure script starts with
#     load 'figures/style.gp'
# The build passes three variables with -e:
#     term  'svg' (HTML book) or 'pdf' (PDF book)
#     out   the file to write
#     data  the program's data directory, ending in '/'
# A script may set fig_w / fig_h (multiples of the default size) before loading.

if (!exists('term')) term = 'svg'
if (!exists('out'))  out = '/dev/null'
if (!exists('data')) data = './'
if (!exists('fig_w')) fig_w = 1.0
if (!exists('fig_h')) fig_h = 1.0

if (term eq 'svg') {
    # The SVG is scaled to the page's width, so its text is sized against the
    # figure's width, whatever fig_w is: 14 units in 640 is 16 px on a desktop
    # and 9 px on a phone, where style.css keeps figures at least 26rem wide.
    # The PDF's text is smaller against its canvas (pdfcairo's fontscale is
    # 0.5), so a label that fits there may fall off the SVG's canvas, where
    # gnuplot drops it without a word: margins leave room for the SVG's text
    # (tests/figures.sh checks every label of every figure in both outputs).
    set terminal svg size 640*fig_w, 390*fig_h dynamic enhanced \
        font sprintf('DejaVu Sans,%.1f', 14*fig_w) linewidth 1.3 background rgb 'white'
} else {
    set terminal pdfcairo size 5.6*fig_w, 3.4*fig_h enhanced \
        font 'DejaVu Sans,9' linewidth 1.2
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
hm_font = ',12'
hm_zero_text = '0.00'
hm_text(v) = v == 0 ? hm_zero_text : sprintf('%.2f', v)
labelled_heatmap_axes = heatmap_style . "; set xrange [-0.5:hm_n-0.5]; set yrange [hm_n-0.5:-0.5]; set tics scale 0; set border 0"
labelled_heatmap = "matrix rowheaders columnheaders using 1:2:3 with image pixels notitle, '' matrix rowheaders columnheaders using 1:2:(hm_text($3)):($3 >= hm_dark ? 0xffffff : 0x1a1a1a) with labels tc rgb variable font hm_font notitle"

# A 2 x 4 multiplot of heatmap panels h = 0..7 with one colour bar as tall as
# both rows: run @panel_colorbox before plotting panel h, @panel_measure after.
panel_colorbox = "if (h == 7) { set colorbox user origin 0.925, cb_bottom size 0.018, cb_top - cb_bottom } else { unset colorbox }"
panel_measure = "if (h == 0) { cb_top = 1.0 * GPVAL_TERM_YMAX * GPVAL_TERM_SCALE / GPVAL_TERM_YSIZE }; if (h == 4) { cb_bottom = 1.0 * GPVAL_TERM_YMIN * GPVAL_TERM_SCALE / GPVAL_TERM_YSIZE }"
