#!/usr/bin/env bash
# piece.sh BUILD_DIR FLAVOUR TARGET SOURCE -- one piece of a whole book: SOURCE (a
# chapter, or a page of front or back matter) through book/literate.lua as part of
# the whole book (LITERATE_WHOLE_BOOK=1: references to the other chapters and to
# the matter stay on the page), written as pandoc JSON into TARGET. FLAVOUR is
#   latex  for the PDF (book/build/pdf.sh)
#   html5  for the EPUB and book.html (book/build/epub.sh, html.sh book)
# A whole book is then the pieces joined (book/build/assemble.py) and written by
# one pandoc run without the filter, so an edit reruns the filter over one file.
# Its dependency and snippet logs go to BUILD_DIR/deps/NAME.FLAVOUR.json.*.
# Reads LITERATE_BUILD, LITERATE_CHAPTERS, LITERATE_PROGRAMS (the Makefile sets them).
set -euo pipefail
export LC_ALL=C
B=$1 flavour=$2 target=$3 src=$4
case $flavour in latex|html5) ;; *) echo "piece.sh: unknown flavour '$flavour'" >&2; exit 2 ;; esac
tmp=$target.tmp.$$
trap 'rm -f "$tmp"' EXIT
mkdir -p "$(dirname "$target")" "$B/deps"
LITERATE_FORMAT=$flavour LITERATE_WHOLE_BOOK=1 LITERATE_TARGET=$target \
  LITERATE_DEPS=$B/deps/$(basename "$src" .md).$flavour.json.d \
  pandoc --from markdown --to json --metadata-file book/metadata.yaml \
  --lua-filter book/literate.lua "$src" -o "$tmp"
mv "$tmp" "$target"
