#!/usr/bin/env bash
# labels.sh BUILD_DIR CHAPTER... -- BUILD_DIR/labels.tsv: every figure, section and
# equation label of the chapters with its number (book/filter/labels.lua), which
# every page reads. Run by the Makefile as it starts (like stamp.sh), so that
# the file is rewritten only when a label changed: editing a chapter's prose
# then rebuilds that chapter's page, not every page of the book.
#
# Each chapter's labels are kept in BUILD_DIR/labels/NAME.tsv with a stamp
# NAME.ok; the chapters edited since their stamp (or all, when the filters
# changed) are read again, one pandoc run each (side by side), since pandoc
# makes a header's identifier unique within its run and the index page links
# to the chapter pages' own (the table also holds each chapter's level-1 and
# level-2 headers for the index, book/filter/contents.lua). An error (a label used twice, in
# one chapter or two) removes labels.tsv and leaves its message in
# BUILD_DIR/labels.err, which the Makefile's rule for labels.tsv prints and
# fails on. Reads LITERATE_* like html.sh.
set -uo pipefail
export LC_ALL=C
B=$1; shift
d=$B/labels
mkdir -p "$d" || exit 0
rm -f "$B/labels.err"
fail() { printf '%s\n' "$@" > "$B/labels.err"; rm -f "$B/labels.tsv"; exit 0; }
filters=(book/literate.lua book/filter/*.lua book/build/labels.sh)

stale=()
for ch in "$@"; do
  ok=$d/$(basename "$ch" .md).ok
  if [ ! -f "$ok" ] || [ ! -f "${ok%.ok}.tsv" ] || [ "$ch" -nt "$ok" ]; then stale+=("$ch"); continue; fi
  for f in "${filters[@]}"; do [ "$f" -nt "$ok" ] && { stale+=("$ch"); break; }; done
done

if [ ${#stale[@]} -gt 0 ]; then
  trap 'rm -f "$d"/*.tmp.$$' EXIT
  pids=()
  for ch in "${stale[@]}"; do
    name=$(basename "$ch" .md)
    LITERATE_LABELS=$d/$name.all.tmp.$$ pandoc --from markdown --to plain \
      --lua-filter book/literate.lua "$ch" -o /dev/null > "$d/$name.err.tmp.$$" 2>&1 &
    pids+=($!)
  done
  failed=()
  for i in "${!stale[@]}"; do wait "${pids[$i]}" || failed+=("${stale[$i]}"); done
  if [ ${#failed[@]} -gt 0 ]; then
    fail "labels.sh: reading the labels of ${failed[*]} failed:" \
      "$(for ch in "${failed[@]}"; do cat "$d/$(basename "$ch" .md).err.tmp.$$"; done)"
  fi
  for ch in "${stale[@]}"; do
    name=$(basename "$ch" .md)
    awk -F '\t' -v f="$ch" '$4 == f' "$d/$name.all.tmp.$$" > "$d/$name.tsv.tmp.$$"
    cmp -s "$d/$name.tsv.tmp.$$" "$d/$name.tsv" || mv "$d/$name.tsv.tmp.$$" "$d/$name.tsv"
    rm -f "$d/$name.tsv.tmp.$$"
    touch "$d/$name.ok"
  done
fi

# the book's table, in the order of the chapters; an id in two chapters is an error
all=$B/labels.tsv.tmp.$$ heads=$B/contents.tsv.tmp.$$ rows=$d/rows.tmp.$$
trap 'rm -f "$d"/*.tmp.$$ "$all" "$heads"' EXIT
for ch in "$@"; do cat "$d/$(basename "$ch" .md).tsv"; done > "$rows"
grep -v '^contents:' "$rows" > "$all" || true
# the headers for the index page, in BUILD_DIR/contents.tsv (its own file, so that
# a changed section title remakes the index, not every page)
grep '^contents:' "$rows" > "$heads" || true
cmp -s "$heads" "$B/contents.tsv" || mv "$heads" "$B/contents.tsv"
# and each chapter's title (its first level-1 header, without attributes), which
# the pages' links to their neighbours read (book/filter/book.lua's title_of)
for ch in "$@"; do
  awk -v f="$ch" '/^# / { t = substr($0, 3); sub(/[ \t]*\{[^}]*\}[ \t]*$/, "", t)
                          printf "title:%s\tTitle\t%s\t%s\n", f, t, f; exit }' "$ch"
done >> "$all"
dup=$(cut -f1 "$all" | sort | uniq -d | head -n 3)
if [ -n "$dup" ]; then
  fail "labels.sh: label used twice in the book: $(echo $dup)" \
    "$(for id in $dup; do awk -F '\t' -v id="$id" '$1 == id { print "  " $1 " in " $4 }' "$all"; done)"
fi
cmp -s "$all" "$B/labels.tsv" || mv "$all" "$B/labels.tsv"
exit 0
