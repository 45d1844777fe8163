#!/usr/bin/env bash
# html.sh BUILD_DIR TARGET KIND SOURCE... -- one self-contained HTML page of the
# book, by pandoc and book/literate.lua. KIND is
#   chapter  one chapter (SOURCE chapters/NN-slug.md): numbered from NN, its
#            dependency, snippet and search records into BUILD_DIR/deps/
#   index    the contents page (SOURCE book/index.md)
#   matter   a page of front or back matter (SOURCE book/preface.md,
#            book/glossary.md), titled by its first header without its {attributes}
#   book     the whole book on one page, for printing and for Ctrl-F (SOURCE: the
#            book's html5 pieces, book/build/piece.sh, each written to HTML once and
#            kept, then joined by book/build/book_html.py)
#   search   not a page: TARGET is the offline search index, the records the
#            filter wrote for each chapter page (SOURCE: BUILD_DIR/deps/*.search),
#            which book/book.js loads with a <script> tag
# Everything is written under names of this process and renamed when complete.
# Reads LITERATE_BUILD, LITERATE_CHAPTERS, LITERATE_PROGRAMS (the Makefile sets them).
set -euo pipefail
export LC_ALL=C
B=$1 target=$2 kind=$3; shift 3
tmp=$target.tmp.$$ d=$B/deps/tmp.$$
trap 'rm -rf "$tmp" "$tmp.raw" "$d"' EXIT
mkdir -p "$(dirname "$target")" "$B/deps"
# A page is written by pandoc, then made self-contained by book/build/inline.py (its
# figures, stylesheet and script inlined): pandoc --self-contained would read the whole
# page again to do it (a fifth of the largest chapter page's time; inline.py says more).
page() {
  pandoc --from markdown --to html5 --standalone \
    --template book/template.html --css book/style.css --mathml \
    --metadata-file book/metadata.yaml --lua-filter book/literate.lua \
    --citeproc --bibliography book/references.bib --highlight-style pygments "$@" -o "$tmp.raw"
  book/build/inline.py "$tmp.raw" "$tmp"
  rm -f "$tmp.raw"
}
case $kind in
  chapter)
    name=$(basename "$1" .md)
    mkdir -p "$d"
    LITERATE_TARGET=$target LITERATE_DEPS=$d/$name.html.d \
      page --toc --toc-depth 2 --number-sections --number-offset $(( 10#${name:0:2} - 1 )) \
      --metadata pagetitle="$(sed -n 's/^# //p' "$1" | head -n 1)" "$1"
    mv "$d/$name.html".* "$B/deps/" ;;
  index) page "$@" ;;
  matter)
    page --metadata pagetitle="$(sed -n 's/^# //p' "$1" | head -n 1 | sed 's/ *{.*}$//')" "$1" ;;
  book)
    rm -f "$B/deps/book.html.d" "$B/deps/book.html.snippets"   # the filter's logs, before pieces
    book/build/book_html.py "$B" "$tmp" "$@" ;;
  search)
    { echo '// Search records of the book (made by book/filter/search.lua).'
      echo 'window.BOOK_SEARCH = ['; cat "$@"; echo '];'; } > "$tmp" ;;
  *) echo "html.sh: unknown kind '$kind'" >&2; exit 2 ;;
esac
mv "$tmp" "$target"
