#!/usr/bin/env bash
# diagram.sh BUILD_DIR TARGET TEX VALUES -- draw one TikZ picture (TEX, a
# figures/*.tex in the style figures/diagram.tex) as TARGET, a .pdf or an .svg.
# VALUES is a program's values.tsv, read by \val{key} (may be /dev/null).
#
# PDF (the PDF book): XeLaTeX, as any LaTeX document.
# SVG (the HTML book, the EPUB): XeLaTeX writes DVI (.xdv) with the dvisvgm
# drivers of PGF and graphicx, and dvisvgm turns it into SVG whose text stays
# text (<text> elements in the fonts of the PDF, embedded as WOFF): selectable,
# searchable, read by a screen reader, drawn the same in every browser.
# Works in BUILD_DIR/diagrams/NAME.PID and renames when done.
set -euo pipefail
export LC_ALL=C
B=$1 target=$2 tex=$3 values=$4
name=$(basename "$tex" .tex)
kind=${target##*.}
case $kind in pdf) opt= ;; svg) opt=dvisvgm, ;; *) echo "diagram.sh: $target: not .pdf or .svg" >&2; exit 2 ;; esac
[ -f "$tex" ] || { echo "diagram.sh: no such picture: $tex" >&2; exit 2; }
[ -f "$values" ] || { echo "diagram.sh: no such values file: $values" >&2; exit 2; }
top=$PWD
t=$B/diagrams/$name.$kind.$$
rm -rf "$t"; mkdir -p "$t" "$(dirname "$target")"
trap 'rm -rf "$t"' EXIT
# values.tsv -> one \def per key (TeX's special characters escaped)
awk -F '\t' '{ v = $2; gsub(/[\\{}$&#^_%~]/, "\\\\&", v);
  printf "\\expandafter\\def\\csname diagval@%s\\endcsname{%s}\n", $1, v }' "$values" > "$t/values.tex"
printf '%s\n' "\\documentclass[${opt}tikz,border=3pt]{standalone}" '\input{figures/diagram.tex}' \
  '\input{values.tex}' '\begin{document}' "\\input{$tex}" '\end{document}' > "$t/$name.tex"
flags=(-halt-on-error -interaction=nonstopmode)
[ "$kind" = svg ] && flags+=(-no-pdf)
# FORCE_SOURCE_DATE=1: TeX takes its clock from SOURCE_DATE_EPOCH too.
if ! (cd "$t" && FORCE_SOURCE_DATE=1 TEXINPUTS="$top": xelatex "${flags[@]}" "$name.tex" > xelatex.out 2>&1); then
  echo "$tex: TikZ failed:" >&2; grep -A3 '^!' "$t/$name.log" >&2 || tail -5 "$t/xelatex.out" >&2
  exit 1
fi
if [ "$kind" = pdf ]; then
  mv "$t/$name.pdf" "$target"
else
  # --font-format=woff: the fonts as WOFF data inside the SVG (WOFF is a core
  # media type of EPUB 3; epubcheck reads it); --optimize: fewer groups;
  # --precision: 3 decimals are a thousandth of a point; --bbox: the
  # drawing's own bounds (--exact-bbox: of its glyphs too) and 3 pt around.
  # dvisvgm stamps each font with the clock: faketime stops the clock at
  # SOURCE_DATE_EPOCH (the Makefile exports it), so the SVG is reproducible.
  stamp=$(date -u -d "@${SOURCE_DATE_EPOCH:?SOURCE_DATE_EPOCH must be set}" '+%Y-%m-%d %H:%M:%S')
  if ! TZ=UTC faketime -f "$stamp" dvisvgm --font-format=woff --optimize --precision=3 --exact-bbox --bbox=3pt --output="$t/$name.svg" \
      "$t/$name.xdv" > "$t/dvisvgm.out" 2>&1 || grep -qi 'warning\|error' "$t/dvisvgm.out"; then
    echo "$tex: dvisvgm failed or warned:" >&2; sed 's/^/  /' "$t/dvisvgm.out" >&2; exit 1
  fi
  # dvisvgm writes the @font-face rules in an order that depends on where the
  # build directory is (seen: a path with a space swapped two): sort them, so
  # the SVG is the same wherever it is made.
  perl -0pi -e 's{(<!\[CDATA\[)((?:\@font-face\{[^\n]*\}\n)+)}{$1 . join("", sort split(/(?<=\n)/, $2))}e' \
    "$t/$name.svg"
  grep -q '@font-face' "$t/$name.svg" || ! grep -q '<text' "$t/$name.svg" ||
    { echo "$tex: dvisvgm wrote text but no font" >&2; exit 1; }
  mv "$t/$name.svg" "$target"
fi
