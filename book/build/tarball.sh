#!/usr/bin/env bash
# tarball.sh BUILD_DIR PROGRAM TARGET FILE... -- one chapter's program with the
# library, as a reproducible tarball (names sorted, dates SOURCE_DATE_EPOCH, owner
# 0). Staged in a folder of this process's own (two makes at once never share it),
# then renamed. The functions the course packs grade (tests/assignments/chNN.tsv)
# are stubbed exactly as a pack stubs them (tests/grader/pack.py stub-all): a
# download never carries a graded solution (tests/leaks.sh).
set -euo pipefail
export LC_ALL=C
B=$1 p=$2 target=$3; shift 3
: "${SOURCE_DATE_EPOCH:?SOURCE_DATE_EPOCH must be set (the Makefile exports it)}"
s=$B/dl/$p.tmp.$$
trap 'rm -rf "$s" "$target.tmp.$$"' EXIT
rm -rf "$s"; mkdir -p "$s/$p" "$(dirname "$target")"
cp --parents "$@" "$s/$p/"
python3 tests/grader/pack.py stub-all "$s/$p"
printf '%s\n' "$p: the program of one chapter of Attention in C, with the library." \
  '' 'Build and run it:' \
  "  cc -std=c11 -O3 -ffp-contract=off -Icode/lib code/$p.c code/lib/*/*.c -lm -o $p" \
  "  ./$p --help" '' \
  'The functions graded in the course assignments are left as stubs marked TODO.' \
  > "$s/$p/README.txt"
tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
  --mode=u+rw,go+r,go-w -C "$s" -cf - "$p" | gzip -9n > "$target.tmp.$$"
mv "$target.tmp.$$" "$target"
