#!/usr/bin/env bash
# packs.sh BUILD_DIR KIND -- course packs by tests/grader/pack.py into BUILD_DIR/KIND:
#   assignments  the student packs; every pack's stubs are built once, to show they compile
#   gradescope   one Gradescope autograder zip per chapter
# Made in a folder of this process's own and renamed when complete: two makes at
# once, or one killed midway, never leave a half-made folder of packs.
set -euo pipefail
export LC_ALL=C
B=$1 kind=$2
a=$B/$kind.tmp.$$
trap 'rm -rf "$a" "$a.old"' EXIT
rm -rf "$a"; mkdir -p "$B"
python3 tests/grader/pack.py "$kind" "$a" >/dev/null
if [ "$kind" = assignments ]; then
  for d in "$a"/ch*/; do
    if ! make --no-print-directory -s -C "$d" >/dev/null 2>"$a/build.log"; then
      { echo "error: the stubs in $B/$kind/$(basename "$d") do not build:"
        cat "$a/build.log"; } >&2
      exit 1
    fi
    rm -rf "$d/build"
  done
  rm -f "$a/build.log"
fi
touch "$a/.stamp"
# Replace the old folder. If another make puts its own there in between (the
# same bytes: packs are reproducible), keep that one.
if [ -e "$B/$kind" ]; then mv -T "$B/$kind" "$a.old" 2>/dev/null || true; fi
if ! mv -T "$a" "$B/$kind" 2>/dev/null && [ ! -f "$B/$kind/.stamp" ]; then
  echo "error: cannot move $a to $B/$kind" >&2; exit 1
fi
