#!/usr/bin/env bash
# figures.sh BUILD_DIR -- every figure shows the reader the same labels in the
# HTML and EPUB (SVG) as in the PDF book: each title and axis label a gnuplot
# script writes is drawn in both outputs (tests/figure_labels.py; gnuplot drops
# a label whose place falls off the canvas without a word). Then a planted
# figure with a label off the canvas and one that fits: the check must name the
# first and only the first.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
ls figures/ch*.gp >/dev/null 2>&1 || { fail "figure scripts in figures/"; exit 0; }
[ -s "$B/figures/ch01_nw_widths.svg" ] || { fail "the figures are drawn" "make B=$B figures first"; exit 0; }

for gp in figures/ch*.gp; do
  name=$(basename "$gp" .gp)
  check "$name: every label is drawn in the SVG and in the PDF" \
    python3 tests/figure_labels.py "$B" "$name"
done

# the planted fault: the same style, one label off the canvas
mkdir -p "$T/figures" "$T/b/figures"
cp figures/style.gp "$T/figures/"
cat > "$T/figures/planted.gp" <<'GP'
load 'figures/style.gp'
set xlabel 'a label that fits'
set label 'a label off the canvas' at screen 0.5, screen 1.3
plot x
GP
ok=1
for term in svg pdf; do
  (cd "$T" && gnuplot -e "term='$term'; out='b/figures/planted.$term'" figures/planted.gp) \
    2>/dev/null || ok=0
done
out=$(cd "$T" && python3 "$OLDPWD/tests/figure_labels.py" b planted 2>&1); rc=$?
if [ $ok = 1 ] && [ $rc -ne 0 ] && echo "$out" | grep -q "off the canvas' is missing from the SVG and the PDF" \
   && ! echo "$out" | grep -q "fits"; then
  pass "a label off the canvas is named, one that fits is not"
else
  fail "a label off the canvas is named, one that fits is not" "exit $rc: $out"
fi
exit 0
