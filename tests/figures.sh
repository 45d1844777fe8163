#!/usr/bin/env bash
# figures.sh BUILD_DIR -- every figure is readable, in the HTML and EPUB (SVG) and
# in the PDF book:
#  - each title and axis label a gnuplot script writes is drawn in both outputs
#    (tests/figure_labels.py; gnuplot drops a label whose place falls off the
#    canvas without a word);
#  - in the PDF, no text prints under 6 pt and no two words overlap
#    (tests/figure_print.py);
#  - in the SVG, no two texts overlap, no text or key runs off the canvas (or is
#    dropped by gnuplot), and no key covers a plotted line, point or bar
#    (tests/browser/figures.mjs layout, in Chromium);
#  - a heatmap (a script plotting `with image` or pm3d) ends with its colour box
#    drawn (gnuplot's own `show colorbox` after the script);
#  - (on the chapter pages, at 1280 and 390 px wide, light and dark, every figure
#    text renders at 11 CSS px or more: measured by the browser group on the pages
#    it loads, tests/browser/check.mjs with tests/browser/figsizes.mjs; the
#    planted pages below show here that the measurement names a fault);
#  - the TikZ diagrams (figures/ch*.tex): the same checks of their PDF
#    (figure_print.py) and of their SVG as Chromium lays it out (layout).
# Then one planted figure (and page) per fault, beside one that is clean: each
# check must name the planted fault and only it; so do planted diagrams.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
ls figures/ch*.gp >/dev/null 2>&1 || { fail "figure scripts in figures/"; exit 0; }
[ -s "$B/figures/ch01_nw_widths.svg" ] || { fail "the figures are drawn" "make B=$B figures first"; exit 0; }

# Chromium, driven by playwright-core as in the browser group (tests/browser.sh)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
installed() {
  (cd tests/browser && node -e '
    const lock = require("./package-lock.json").packages;
    const v = (p) => require("./node_modules/" + p + "/package.json").version;
    process.exit(lock["node_modules/playwright-core"].version === v("playwright-core") ? 0 : 1)' 2>/dev/null)
}
node_ok=1
if ! command -v node >/dev/null || [ ! -x /usr/bin/chromium ]; then
  fail "node and Chromium are installed" "run 'sudo make deps'"; node_ok=0
elif ! installed; then
  # one npm ci at a time with the browser group, which runs beside this one
  # (tests/browser.sh)
  if ! out=$( (flock 9 && { installed || (cd tests/browser && npm ci --no-audit --no-fund \
         --loglevel=error); }) 9> "$B/npm-browser.lock" 2>&1 ) || ! installed; then
    fail "npm ci installs playwright-core in tests/browser" "$out"; node_ok=0
  fi
fi

# heatmap_boxed SCRIPT SVG_OUT: a script that plots `with image` or pm3d leaves
# its colour box drawn (its last panel, or its only one, shows the scale).
heatmap_boxed() {
  local gp=$1 out=$2 dir=${3:-.} data=${4:-./}
  grep -Eq 'with +image|with +pm3d|pm3d +map' "$gp" || return 0
  local shown
  shown=$(cd "$dir" && TZ=UTC gnuplot -e "term='svg'; out='$out'; data='$data'; alldata='$(dirname "$data")/'" \
    "$gp" -e 'show colorbox' 2>&1 >/dev/null) || { echo "gnuplot failed: $shown"; return 1; }
  if echo "$shown" | grep -q 'is NOT drawn'; then
    echo "$(basename "$gp" .gp): a heatmap without a colour box (its scale): set colorbox"; return 1
  fi
}

names=()
for gp in figures/ch*.gp; do names+=("$(basename "$gp" .gp)"); done
diagrams=()
for tex in figures/ch*.tex; do [ -e "$tex" ] && diagrams+=("$(basename "$tex" .tex)"); done
layout=$T/layout.txt
if [ $node_ok = 1 ]; then
  svgs=(); for n in "${names[@]}" "${diagrams[@]}"; do svgs+=("$B/figures/$n.svg"); done
  timeout 300 node tests/browser/figures.mjs layout "${svgs[@]}" > "$layout" 2>&1
  [ $? -le 1 ] || { fail "Chromium measures the figures' SVGs" "$(cat "$layout")"; node_ok=0; }
fi
# Each checker runs once over every figure (a Python start per figure cost more
# than the checks) and prints a line "NAME: problem" per problem; a figure passes
# when no line names it. A checker that fails with no such line (a crash, a
# missing tool) fails every figure, with its output.
labels_out=$(python3 tests/figure_labels.py "$B" "${names[@]}" 2>&1); labels_rc=$?
print_out=$(python3 tests/figure_print.py "$B" "${names[@]}" "${diagrams[@]}" 2>&1); print_rc=$?
# broken OUTPUT STATUS: what a failed checker printed that names no figure
# (empty when every line names one: then only those figures fail)
broken() {
  [ "$2" -eq 0 ] && return
  [ -n "$1" ] || { echo "exit $2 with no output"; return; }
  local re; re="^($(IFS='|'; echo "${names[*]} ${diagrams[*]}" | tr ' ' '|')): "
  printf '%s\n' "$1" | grep -v -E -- "$re" | head -n 20
}
labels_broken=$(broken "$labels_out" $labels_rc)
print_broken=$(broken "$print_out" $print_rc)
# checked WHAT NAME OUTPUT BROKEN: one TAP line for NAME
checked() {
  local mine; mine=$(printf '%s\n' "$3" | grep -- "^$2: ")
  if [ -n "$mine" ]; then fail "$1" "$mine"
  elif [ -n "$4" ]; then fail "$1" "the checker failed: $4"
  else pass "$1"; fi
}
for name in "${names[@]}"; do
  checked "$name: every label is drawn in the SVG and in the PDF" "$name" "$labels_out" \
    "$labels_broken"
  checked "$name: the PDF prints no text under 6 pt, no words on top of each other" "$name" \
    "$print_out" "$print_broken"
  if [ $node_ok = 1 ]; then
    probs=$(grep "^$name: " "$layout")
    what="$name: the SVG has no texts on top of each other or off the canvas,"
    what+=" no key over data"
    if [ -z "$probs" ]; then pass "$what"; else fail "$what" "$probs"; fi
  fi
  prog=$(ls "$B/data" 2>/dev/null | grep "^${name%%_*}_" | head -n 1)
  check "$name: a heatmap shows its colour box" \
    heatmap_boxed "figures/$name.gp" /dev/null . "$B/data/$prog/"
done
# The TikZ diagrams (book/build/diagram.sh): their SVG as Chromium lays it out
# (dvisvgm keeps the text as text, several lines of a node in one <text>), and
# their PDF as the PDF book prints it.
for name in "${diagrams[@]}"; do
  checked "$name: the PDF prints no text under 6 pt, no words on top of each other" "$name" \
    "$print_out" "$print_broken"
  if [ $node_ok = 1 ]; then
    probs=$(grep "^$name: " "$layout")
    what="$name: the SVG has no texts on top of each other or off the canvas"
    if [ -z "$probs" ]; then pass "$what"; else fail "$what" "$probs"; fi
  fi
done
# (Figure text sizes on the book's own pages: tests/browser/check.mjs, the browser
# group, measures them on the pages it loads anyway. The planted pages below are
# measured here, by the same code: tests/browser/figsizes.mjs.)

# the planted fault: the same style, one label off the canvas
mkdir -p "$T/figures" "$T/b/figures"
cp figures/style.gp "$T/figures/"
cat > "$T/figures/planted.gp" <<'GP'
load 'figures/style.gp'
set xlabel 'a label that fits'
set label 'a label off the canvas' at screen 0.5, screen 1.3
plot x
GP
# draw DIR NAME: DIR/figures/NAME.gp drawn as DIR/b/figures/NAME.svg and .pdf
draw() {
  local term
  for term in svg pdf; do
    (cd "$1" && gnuplot -e "term='$term'; out='b/figures/$2.$term'" "figures/$2.gp") \
      2>/dev/null || return 1
  done
}
ok=1; draw "$T" planted || ok=0
out=$(cd "$T" && python3 "$OLDPWD/tests/figure_labels.py" b planted 2>&1); rc=$?
if [ $ok = 1 ] && [ $rc -ne 0 ] && echo "$out" | grep -q "off the canvas' is missing from the SVG and the PDF" \
   && ! echo "$out" | grep -q "fits"; then
  pass "a label off the canvas is named, one that fits is not"
else
  fail "a label off the canvas is named, one that fits is not" "exit $rc: $out"
fi
# a title built by sprintf (which figure_labels.py cannot read in the script)
# that the SVG drops and the PDF prints: its words are missing from the SVG
cat > "$T/figures/pdf_only.gp" <<'GP'
fig_h = 2.7
load 'figures/style.gp'
set multiplot layout 2,1 margins 0.14, 0.86, 0.07, 0.97 spacing 0, 0.12
set title sprintf('a title the %s drops', 'SVG')
plot x
unset title
plot x
unset multiplot
GP
ok=1; draw "$T" pdf_only || ok=0
out=$(cd "$T" && python3 "$OLDPWD/tests/figure_labels.py" b pdf_only planted 2>&1); rc=$?
if [ $ok = 1 ] && [ $rc -ne 0 ] \
   && echo "$out" | grep -q "^pdf_only: the PDF's words a title the SVG drops are missing" \
   && ! echo "$out" | grep -q "^planted: the PDF's words"; then
  pass "a word the PDF prints and the SVG drops is named"
else
  fail "a word the PDF prints and the SVG drops is named" "exit $rc: $out"
fi
# One planted fault of each other kind, beside clean figures in the same style:
# each check names its planted figure and no clean one.
P=$T/p; mkdir -p "$P/figures" "$P/b/figures" "$P/b/html"
cp figures/style.gp "$P/figures/"
plant() { printf "load 'figures/style.gp'\n%s\n" "$2" > "$P/figures/$1.gp"; }
plant clean "set xlabel 'x'; set ylabel 'y'; set key top center; plot x**2 title 'a parabola'"
plant clean_heatmap "set xlabel 'key'; plot '++' using 1:2:(\$1*\$2) with image notitle"
plant small_text "set xlabel 'x'; set label 'small text' at graph 0.5, graph 0.5 font fsize(0.5); plot x notitle"
plant overlap "set label 'first label' at graph 0.3, graph 0.5; set label 'second label' at graph 0.33, graph 0.51; plot x notitle"
plant key_over_line "set key at graph 0.5, graph 0.5 center center; plot x title 'a line'"
plant no_colorbox "unset colorbox; plot '++' using 1:2:(\$1*\$2) with image notitle"
plant off_canvas "set label 'a label past the edge' at graph 0.9, graph 0.5
plot x notitle"
# a key whose sample the canvas's right edge cuts (its text inside), and one
# that gnuplot drops (at a place a panel's key has no room)
plant key_off_canvas "set key at screen 1.03, graph 0.5 right; plot x title 'a line'"
plant key_dropped "set multiplot layout 1,2 margins 0.07, 0.8, 0.24, 0.84 \
spacing 0.09, 0
set key at screen 0.82, screen 0.75 left top vertical
plot x title 'a line', -x title 'another line'
unset key; plot x; unset multiplot"
planted=(clean clean_heatmap small_text overlap key_over_line no_colorbox off_canvas
         key_off_canvas key_dropped)
drawn=1
for f in "${planted[@]}"; do draw "$P" "$f" || drawn=0; done
# names_only OUTPUT NAME: OUTPUT names NAME and no other planted figure
names_only() {
  local out=$1 want=$2 f
  echo "$out" | grep -q "^$want:\|fig-$want " || return 1
  for f in "${planted[@]}"; do
    [ "$f" = "$want" ] && continue
    echo "$out" | grep -q "^$f:\|fig-$f " && return 1
  done
  return 0
}
planted_check() {   # planted_check WHAT NAME OUTPUT
  if [ $drawn = 1 ] && names_only "$3" "$2"; then pass "$1"; else fail "$1" "$3"; fi
}
out=$(cd "$P" && python3 "$OLDPWD/tests/figure_print.py" b "${planted[@]}" 2>&1)
planted_check "a planted text under 6 pt in the PDF is named, and only it" small_text \
  "$(echo "$out" | grep -v " overlap$")"
planted_check "two planted words on top of each other in the PDF are named, and only they"\
  overlap "$(echo "$out" | grep -v " print under ")"
if [ $node_ok = 1 ]; then
  svgs=(); for f in "${planted[@]}"; do svgs+=("$P/b/figures/$f.svg"); done
  out=$(node tests/browser/figures.mjs layout "${svgs[@]}" 2>&1)
  planted_check "two planted texts on top of each other are named, and only they" \
    overlap "$(echo "$out" | grep " overlap$")"
  planted_check "a planted key over a plotted line is named, and only it" \
    key_over_line "$(echo "$out" | grep " covers ")"
  planted_check "a planted text off the canvas is named, and only it" off_canvas \
    "$(echo "$out" | grep "the text .* runs off the canvas")"
  planted_check "a planted key cut by the canvas's edge is named, and only it" \
    key_off_canvas "$(echo "$out" | grep "the key sample of .* runs off the canvas")"
  planted_check "a planted key gnuplot drops is named, and only it" key_dropped \
    "$(echo "$out" | grep " is not drawn$")"
  # a page of the book's style with the planted figures, as the HTML embeds them
  { echo '<!doctype html><html><head><meta charset="utf-8">'
    echo '<meta name="viewport" content="width=device-width, initial-scale=1">'
    echo "<style>$(cat book/style.css)</style></head><body><div class=\"page\"><main>"
    for f in "${planted[@]}"; do
      echo "<figure><img id=\"fig-$f\" alt=\"$f\" src=\"data:image/svg+xml;base64,$(base64 -w0 "$P/b/figures/$f.svg")\"></figure>"
    done
    echo '</main></div></body></html>'; } > "$P/b/html/planted.html"
  out=$(node tests/browser/figures.mjs sizes "$P/b" 2>&1)
  for width in 1280 390; do
    for scheme in light dark; do
      planted_check "a planted text under 11 px at $width px, $scheme, is named, and only it" small_text \
        "$(echo "$out" | grep "^SIZE $width $scheme ")"
    done
  done
  # The dark theme is measured again where it shows a figure in another box than
  # the light one: a planted page whose dark theme alone narrows a clean figure.
  mkdir -p "$P/dark/html"
  { echo '<!doctype html><html><head><meta charset="utf-8">'
    echo '<meta name="viewport" content="width=device-width, initial-scale=1">'
    echo "<style>$(cat book/style.css)"
    echo ':root[data-theme="dark"] #fig-clean { width: 20%; }</style></head>'
    echo '<body><div class="page"><main><figure><img id="fig-clean" alt="clean"'
    echo "src=\"data:image/svg+xml;base64,$(base64 -w0 "$P/b/figures/clean.svg")\"></figure>"
    echo '</main></div></body></html>'; } > "$P/dark/html/planted.html"
  out=$(node tests/browser/figures.mjs sizes "$P/dark" 2>&1)
  for width in 1280 390; do
    what="a figure the dark theme alone shows too small at $width px is named in dark only"
    if [ $drawn = 1 ] && [ -z "$(echo "$out" | grep "^SIZE $width light ")" ] &&
       names_only "$(echo "$out" | grep "^SIZE $width dark ")" clean; then pass "$what"
    else fail "$what" "$out"; fi
  done
fi
out=$(for f in "${planted[@]}"; do heatmap_boxed "$P/figures/$f.gp" /dev/null "$P"; done 2>&1)
planted_check "a planted heatmap without a colour box is named, and only it" no_colorbox "$out"

# Planted diagrams in the style of figures/diagram.tex, drawn by diagram.sh as
# the book draws them: a clean one, two labels on top of each other, and a
# label off the canvas (an overlay node, outside the picture's bounding box).
D=$T/d; mkdir -p "$D/figures" "$D/b/figures"; : > "$D/values.tsv"
diagram() { printf '%s\n' '\begin{tikzpicture}' "$2" '\end{tikzpicture}' > "$D/figures/$1.tex"; }
diagram clean_diagram '\node[box] (a) at (0, 0) {a box}; \node[note, right=4mm of a] {a note beside it};'
diagram overlap_diagram '\node[box] (a) at (0, 0) {first label}; \node at (0.3, 0.1) {second label};'
diagram off_canvas_diagram '\node[box] (a) at (0, 0) {a box};
  \node[overlay, anchor=west] at (1.2, 0) {a label past the edge};'
planted=(clean_diagram overlap_diagram off_canvas_diagram)
drawn=1
for f in "${planted[@]}"; do
  for kind in pdf svg; do
    SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-0} book/build/diagram.sh "$D/b" "$D/b/figures/$f.$kind" \
      "$D/figures/$f.tex" "$D/values.tsv" 2>/dev/null || drawn=0
  done
done
out=$(python3 tests/figure_print.py "$D/b" "${planted[@]}" 2>&1)
planted_check "two planted diagram labels on top of each other in the PDF are named, and only they" \
  overlap_diagram "$out"
if [ $node_ok = 1 ]; then
  svgs=(); for f in "${planted[@]}"; do svgs+=("$D/b/figures/$f.svg"); done
  out=$(node tests/browser/figures.mjs layout "${svgs[@]}" 2>&1)
  planted_check "two planted diagram labels on top of each other in the SVG are named, and only they" \
    overlap_diagram "$(echo "$out" | grep " overlap$")"
  planted_check "a planted diagram label off the canvas of the SVG is named, and only it" \
    off_canvas_diagram "$(echo "$out" | grep "the text .* runs off the canvas")"
fi
exit 0
