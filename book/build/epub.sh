#!/usr/bin/env bash
# epub.sh BUILD_DIR TARGET PIECE... -- the EPUB book: MathML math, SVG figures,
# the cover image BUILD_DIR/figures/cover.png, from the book's html5 pieces
# (book/build/piece.sh: the same filter as the HTML), joined by
# book/build/assemble.py. Pandoc's zip is then repacked with every file dated
# SOURCE_DATE_EPOCH, mimetype first and stored, in a name order that does not depend
# on the locale, so the EPUB is byte-reproducible. Everything is staged under names
# of this process (TARGET.tmp.PID, TARGET.tmp.PID.d) and renamed at the end.
set -euo pipefail
export LC_ALL=C TZ=UTC
B=$1 target=$2; shift 2
: "${SOURCE_DATE_EPOCH:?SOURCE_DATE_EPOCH must be set (the Makefile exports it)}"
mkdir -p "$B/deps" "$(dirname "$target")"
cover=$B/figures/cover.png   # the cover image (book/build/cover.sh)
[ -s "$cover" ] || { echo "epub.sh: the cover $cover is missing" >&2; exit 1; }
case $target in           # absolute: zip runs inside the unpacked folder
  /*) t=$target.tmp.$$ ;;
  *) t=$PWD/$target.tmp.$$ ;;
esac
trap 'rm -rf "$t" "$t.d" "$t.json"' EXIT
rm -f "$B/deps/book.epub.d" "$B/deps/book.epub.snippets"   # the filter's logs, before pieces
book/build/assemble.py "$t.json" "$@"
pandoc --from json --to epub3 --standalone --mathml \
  --metadata identifier=urn:uuid:0f6b3c8e-5a1d-4c2e-9b7a-3d2e1f0a4c5b \
  --lua-filter book/assemble.lua --citeproc --bibliography book/references.bib \
  --highlight-style pygments --toc --toc-depth 1 --number-sections --epub-chapter-level 1 \
  --epub-cover-image "$cover" \
  "$t.json" -o "$t"
rm -rf "$t.d"; unzip -q -d "$t.d" "$t"; rm -f "$t"
find "$t.d" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
(
  cd "$t.d"
  zip -X0q "$t" mimetype
  find . -type f ! -name mimetype | sed 's|^\./||' | sort | zip -X9q -@ "$t"
)
mv "$t" "$target"
