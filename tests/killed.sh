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
# two makes at once from nothing, in the same build directory: the compile
# steps, where both write the same objects at the same moment. They compile at
# -O0 (the race is the same, the compiler three times faster); the copy of the
# finished build below replaces what they made.
fast=(CFLAGS="-std=c11 -O0 -ffp-contract=off -g -Wall -Wextra -Wpedantic -Wshadow -Werror")
mk -j2 "${fast[@]}" library programs > "$T/a.log" 2>&1 & a=$!
mk -j2 "${fast[@]}" library programs > "$T/b.log" 2>&1; sb=$?
wait $a; sa=$?
if [ $sa -eq 0 ] && [ $sb -eq 0 ]; then pass "two make -j2 at once in one build directory"
else fail "two make -j2 at once in one build directory" "$(tail -n 6 "$T/a.log"; tail -n 6 "$T/b.log")"; bad=1; fi

# kill KILL_AFTER ARGS...: make killed (with everything it started) after a while
kill_make() {
  local t=$1; shift
  ( ( timeout -s KILL "$t" make --no-print-directory B="$K" "$@" ) > /dev/null 2>&1 ) 2> /dev/null
}

# killed while the programs run and the figures are drawn, then the first PDF
# From here on, start from a copy of the finished build (tar keeps the files'
# times, so make finds it up to date) with three programs' outputs removed:
# a kill then lands while those programs run, and chapter 8 is not retrained.
# (A build directory named otherwise than 'build' is not copied: its dependency
# files name it. The kill tests then start from scratch, only slower.) Other
# groups may be writing into BUILD_DIR meanwhile (tests/run.sh runs them side by
# side): their temporaries (*.tmp.PID) are not copied.
if [ "$(basename "$B")" = build ] && [ -s "$B/attention-in-c.pdf" ]; then
  (cd "$B" && tar -cf - --exclude=./broken --exclude=./killed --exclude=./repro \
     --exclude=./test --exclude=./tests --exclude=./san --exclude=./screenshots \
     --exclude='*.tmp.[0-9]*' .) | tar -xf - -C "$K"
  rm -f "$K"/out/ch0[125]_*.txt
else
  rm -rf "$K"    # not the -O0 objects: chapter 8 would train at -O0
fi
kill_make 3 -j2 all
finish "killed 3 s into running the programs"

# killed at two moments of the PDF (LaTeX writing book.aux, .toc, the PDF)
for t in 1 3; do
  rm -f "$K/attention-in-c.pdf"
  kill_make $t all
  finish "killed $t s into the PDF"
done

# a book.aux cut short, as a kill while LaTeX writes it leaves one
if [ -s "$K/tex/book.aux" ]; then
  head -c $(( $(stat -c %s "$K/tex/book.aux") / 2 )) "$K/tex/book.aux" > "$T/aux" && cp "$T/aux" "$K/tex/book.aux"
  rm -f "$K/attention-in-c.pdf"
  finish "a book.aux cut in half"
else fail "the build keeps LaTeX's auxiliary files in $K/tex"; bad=1; fi

mk -q all 2>/dev/null   # a make that does nothing but start: it sweeps up
left=$(find "$K" -name '*.tmp.*' 2>/dev/null | head -n 5)
if [ -z "$left" ]; then pass "no temporary file of a killed make outlives the next make"
else fail "no temporary file of a killed make outlives the next make" "$left"; bad=1; fi
[ $bad -eq 0 ] && rm -rf "$K"
exit 0
