#!/usr/bin/env bash
# cover.sh BUILD_DIR TARGET MATRIX -- the book's cover (book/cover.tex) as
# TARGET: cover.pdf (the PDF book's title page, XeLaTeX) or cover.png (the
# EPUB's cover image, that PDF rasterised by pdftocairo, 1240 px wide).
# MATRIX is an attention matrix as the chapter programs write it for gnuplot
# (a header row of column labels, then one row per query: label, weights).
# The title, subtitle and author come from book/metadata.yaml.
# Works in BUILD_DIR/diagrams/cover.PID and renames when done.
set -euo pipefail
export LC_ALL=C
B=$1 target=$2 matrix=$3
kind=${target##*.}
case $kind in pdf|png) ;; *) echo "cover.sh: $target: not .pdf or .png" >&2; exit 2 ;; esac
[ -s "$matrix" ] || { echo "cover.sh: no attention matrix: $matrix" >&2; exit 2; }
top=$PWD
t=$B/diagrams/cover.$kind.$$
rm -rf "$t"; mkdir -p "$t" "$(dirname "$target")"
trap 'rm -rf "$t"' EXIT
# meta KEY: the value of a top-level "KEY: ..." line of the metadata, unquoted,
# TeX's special characters escaped
meta() {
  sed -n "s/^$1: *\"\{0,1\}\([^\"]*\)\"\{0,1\} *\$/\1/p" book/metadata.yaml | head -n 1 \
    | sed 's/[\\{}$&#^_%~]/\\&/g'
}
title=$(meta title) subtitle=$(meta subtitle) author=$(meta author)
[ -n "$title" ] || { echo "cover.sh: book/metadata.yaml has no title" >&2; exit 1; }
{ printf '\\def\\booktitle{%s}\n\\def\\booksubtitle{%s}\n\\def\\bookauthor{%s}\n' \
    "$title" "$subtitle" "$author"
  # the cells: rows of weights in [0, 1], all as long as the header; nearly
  # empty cells are left out
  awk 'NR == 1 { n = NF - 1; next }
       { if (NF != n + 1) { bad = 1; exit }
         for (j = 2; j <= NF; j++) { w = $j + 0; if ($j !~ /^[0-9.eE+-]+$/ || w < 0 || w > 1) { bad = 1; exit }
           if (w >= 0.002) cells = cells sprintf("\\cell{%d}{%d}{%.4f}", NR - 2, j - 2, w) } }
       END { if (bad || n < 2 || NR < 3) exit 1
             printf "\\def\\ncols{%d}\n\\def\\nrows{%d}\n\\def\\cells{%s}\n", n, NR - 1, cells }' "$matrix"
} > "$t/cover-data.tex" || { echo "cover.sh: $matrix is not a matrix of weights with a header row" >&2; exit 1; }
cp book/cover.tex "$t/cover.tex"
if ! (cd "$t" && FORCE_SOURCE_DATE=1 TEXINPUTS="$top": xelatex -halt-on-error -interaction=nonstopmode \
      cover.tex > xelatex.out 2>&1); then
  echo "book/cover.tex: XeLaTeX failed:" >&2; grep -A3 '^!' "$t/cover.log" >&2 || tail -5 "$t/xelatex.out" >&2
  exit 1
fi
if [ "$kind" = pdf ]; then
  mv "$t/cover.pdf" "$target"
else
  pdftocairo -png -singlefile -scale-to-x 1240 -scale-to-y -1 "$t/cover.pdf" "$t/cover-png"
  mv "$t/cover-png.png" "$target"
fi
