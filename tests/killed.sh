#!/usr/bin/env bash
# killed.sh BUILD_DIR -- a build killed at any moment (timeout -s KILL kills make
# and everything it started) leaves a build directory that the next make
# completes, LaTeX's auxiliary files included; and two makes running at once
# in one build directory do not trip over each other's temporary files.
# Works in BUILD_DIR/killed (removed again when everything passed).
set -u
B=$1
. tests/tap.sh
K=$B/killed
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory B="$K" "$@"; }
bad=0
finish() {   # finish WHAT: the next plain make completes and is then up to date
  if mk all > "$T/log" 2>&1 && mk -q all 2>/dev/null; then pass "$1: the next make completes"
  else fail "$1: the next make completes" "$(tail -n 12 "$T/log")"; bad=1; fi
}

rm -rf "$K"
# two makes at once from nothing, in the same build directory
mk -j2 all > "$T/a.log" 2>&1 & a=$!
mk -j2 all > "$T/b.log" 2>&1; sb=$?
wait $a; sa=$?
if [ $sa -eq 0 ] && [ $sb -eq 0 ]; then pass "two make -j2 at once in one build directory"
else fail "two make -j2 at once in one build directory" "$(tail -n 6 "$T/a.log"; tail -n 6 "$T/b.log")"; bad=1; fi

# killed while programs run and figures are drawn
rm -rf "$K/out" "$K/data"
timeout -s KILL 3 make --no-print-directory -j2 B="$K" all > /dev/null 2>&1
finish "killed 3 s into rerunning the programs"

# killed at several moments of the PDF (LaTeX writing book.aux, .toc, the PDF)
for t in 0.5 1 2 3 4; do
  rm -f "$K/attention-in-c.pdf"
  timeout -s KILL $t make --no-print-directory B="$K" all > /dev/null 2>&1
  finish "killed $t s into the PDF"
done

# killed a whole clean build early: the compiler writing objects and .d files
rm -rf "$K"
timeout -s KILL 2 make --no-print-directory -j2 B="$K" all > /dev/null 2>&1
finish "clean build killed after 2 s"

left=$(find "$K" -name '*.tmp.*' 2>/dev/null | head -n 5)
if [ -z "$left" ]; then pass "no temporary files left after a complete make"
else fail "no temporary files left after a complete make" "$left"; bad=1; fi
[ $bad -eq 0 ] && rm -rf "$K"
exit 0
