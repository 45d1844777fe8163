#!/usr/bin/env bash
# run.sh BUILD_DIR PROGRAM -- run a chapter program: its stdout into
# BUILD_DIR/out/PROGRAM.txt, its figure data and values into BUILD_DIR/data/PROGRAM/.
# Both are written under names of this process and renamed when the program
# succeeded; if it fails, nothing of the run is left and the old output is
# removed (so the next make runs it again). If another make put its data folder
# in place in between, that one stays (the same bytes).
set -uo pipefail
export LC_ALL=C
B=$1 p=$2
out=$B/out/$p.txt tmp=$B/data/$p.tmp.$$
mkdir -p "$B/out" "$B/data"
rm -f "$out"; rm -rf "$tmp"
if "$B/bin/$p" --data "$tmp" > "$out.tmp.$$"; then
  { rm -rf "$B/data/$p" && mv -T "$tmp" "$B/data/$p"; } || { rm -rf "$tmp"; [ -d "$B/data/$p" ]; }
  mv "$out.tmp.$$" "$out"
else
  rm -rf "$tmp" "$out.tmp.$$"; echo "error: $p failed" >&2; exit 1
fi
