#!/usr/bin/env bash
# pdf.sh BUILD_DIR TARGET PIECE... -- the PDF book: pandoc writes LaTeX from the
# book's latex pieces (book/build/piece.sh: each chapter through book/literate.lua,
# which cuts listings and splices values, as for the HTML), joined by
# book/build/assemble.py; XeLaTeX typesets it.
#
# LaTeX runs in a folder of its own (BUILD_DIR/tex.tmp.PID), seeded with the
# auxiliary files of the last complete run, and is rerun until those files stop
# changing (page labels, contents and references then agree with the pages): after
# an edit that moves no page, one run; in a clean build, two (a stand-in contents
# file, below). Each run stops at XeTeX's XDV and the last
# one becomes the PDF (the PDF driver costs a sixth of a run, and only the last
# counts). If LaTeX fails on the saved files, it starts once more without them
# (from the stand-in contents, as a clean run does).
# Only a complete run replaces BUILD_DIR/tex and TARGET,
# so a run killed at any moment leaves nothing half-written behind; the next make
# removes the leftover folder (its PID is gone).
set -euo pipefail
export LC_ALL=C
B=$1 target=$2; shift 2
aux=(book.aux book.toc book.out)
w=$B/tex.tmp.$$
rm -rf "$w"; mkdir -p "$w" "$B/deps" "$(dirname "$target")"
for f in "${aux[@]}"; do if [ -f "$B/tex/$f" ]; then cp "$B/tex/$f" "$w/"; fi; done

rm -f "$B/deps/book.pdf.d" "$B/deps/book.pdf.snippets"   # the filter's logs, before pieces
book/build/assemble.py "$w/book.json" "$@"
pandoc --from json --pdf-engine xelatex --standalone --lua-filter book/assemble.lua \
  --citeproc --bibliography book/references.bib --highlight-style tango \
  --top-level-division chapter --number-sections --toc --toc-depth 2 \
  -H book/preamble.tex -V documentclass=book -V classoption=oneside \
  -V papersize=a4 -V geometry:margin=2.4cm -V fontsize=10pt \
  -V mainfont='DejaVu Serif' -V sansfont='DejaVu Sans' -V monofont='DejaVu Sans Mono' \
  -V monofontoptions='Scale=0.9' -V colorlinks=true -V linkcolor=blue -V urlcolor=blue \
  "$w/book.json" -o "$w/book.tex"

# A clean run has no contents file: book/build/toc_seed.py writes a stand-in
# (the real entries, made-up page numbers) so the first run already gives the
# contents its length, and the second usually agrees with it: two runs, not
# three. The runs below still go on until LaTeX's files stop changing.
if [ ! -f "$w/book.toc" ]; then book/build/toc_seed.py "$w/book.tex" > "$w/book.toc"; fi

# the auxiliary files' checksum (absent files count as empty)
aux_sum() { { cat "${aux[@]}" 2>/dev/null || true; } | md5sum; }
seed=$PWD/book/build/toc_seed.py
(
  cd "$w"
  pass=0 retried=
  while [ $pass -lt 6 ]; do
    pass=$((pass + 1))
    before=$(aux_sum)
    if ! xelatex -no-pdf -interaction=nonstopmode -halt-on-error book.tex > xelatex.log 2>&1; then
      # once more from nothing but the stand-in contents, as a clean run starts
      if [ -z "$retried" ]; then
        retried=1; pass=0; rm -f "${aux[@]}"; "$seed" book.tex > book.toc; continue
      fi
      echo "error: xelatex failed, see $w/book.log:" >&2; grep -A5 '^!' book.log >&2
      exit 1
    fi
    if [ "$(aux_sum)" = "$before" ]; then
      # the PDF once, from the last run's XDV: as XeLaTeX makes it (its driver
      # is "xdvipdfmx -q -E", fed on stdin), byte for byte
      xdvipdfmx -q -E -o book.pdf < book.xdv > xdvipdfmx.log 2>&1 && exit 0
      echo "error: xdvipdfmx failed, see $w/xdvipdfmx.log:" >&2; head -n 5 xdvipdfmx.log >&2
      exit 1
    fi
  done
  echo "error: LaTeX's auxiliary files in $w still change after 6 runs" >&2
  exit 1
)
mv "$w/book.pdf" "$target.tmp.$$"
{ rm -rf "$B/tex" && mv -T "$w" "$B/tex"; } || rm -rf "$w"
mv "$target.tmp.$$" "$target"
