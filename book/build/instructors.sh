#!/usr/bin/env bash
# instructors.sh BUILD_DIR -- the instructor edition, BUILD_DIR/instructors/:
# instructors.md (tests/grader/instructors.py: per task the exercise, the reference
# solution cut from code/lib/, hints, rubric, the common mistakes graded by the
# real judge), then instructors.html and instructors.pdf by pandoc. Never part of
# the book or a student pack. Written under names of this process, then renamed.
set -euo pipefail
export LC_ALL=C.UTF-8
B=$1
d=$B/instructors
t=$d.tmp.$$
trap 'rm -rf "$t"' EXIT
rm -rf "$t"; mkdir -p "$t"
python3 tests/grader/instructors.py "$B" "$t/instructors.md"
# Read once, for both writers. Without raw HTML: the text has none, and pandoc's
# reader, trying every "<" of "j <= i" as the start of a tag, took 5 s of this file
# instead of 2 (the same output: only what would be a tag is read differently).
pandoc --from markdown-raw_html "$t/instructors.md" --to json -o "$t/instructors.json"
pandoc --from json "$t/instructors.json" -s --toc --toc-depth=2 --mathml --metadata lang=en \
  -o "$t/instructors.html"
pandoc --from json "$t/instructors.json" --toc --toc-depth=2 --pdf-engine=xelatex \
  -V papersize=a4 -V geometry:margin=2.2cm -V fontsize=10pt \
  -V mainfont='DejaVu Serif' -V sansfont='DejaVu Sans' -V monofont='DejaVu Sans Mono' \
  -V monofontoptions='Scale=0.85' -o "$t/instructors.pdf"
rm -f "$t/instructors.json"
rm -rf "$d.old"; [ -e "$d" ] && mv -T "$d" "$d.old"
mv -T "$t" "$d"; rm -rf "$d.old"
