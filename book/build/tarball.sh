#!/usr/bin/env bash
# tarball.sh BUILD_DIR PROGRAM TARGET -- one chapter's program with the library
# modules it uses, as a reproducible tarball (names sorted, dates SOURCE_DATE_EPOCH,
# owner 0). The modules are those the linker took for BUILD_DIR/bin/PROGRAM
# (BUILD_DIR/obj/PROGRAM.link.d, book/build/link.sh), the headers those the
# compiler read for the program and for them (their .d files). Staged in a folder
# of this process's own (two makes at once never share it), then renamed. The
# functions the course packs grade (tests/assignments/chNN.tsv) are stubbed
# exactly as a pack stubs them (tests/grader/pack.py stub-all): a download never
# carries a graded solution (tests/leaks.sh).
set -euo pipefail
export LC_ALL=C
B=$1 p=$2 target=$3
: "${SOURCE_DATE_EPOCH:?SOURCE_DATE_EPOCH must be set (the Makefile exports it)}"
link=$B/obj/$p.link.d
[ -s "$link" ] || { echo "tarball.sh: $link is missing (make $B/bin/$p first)" >&2; exit 1; }
mapfile -t mods < <(head -n 1 "$link" | grep -o 'obj/lib/[a-z_0-9]*/[a-z_0-9]*\.o' \
  | sed 's|^obj/\(.*\)\.o$|code/\1.c|' | sort -u)
[ ${#mods[@]} -gt 0 ] || { echo "tarball.sh: $link names no library module" >&2; exit 1; }
deps=("$B/obj/$p.d"); for m in "${mods[@]}"; do deps+=("$B/obj/${m#code/}"); done
deps=("${deps[@]/%.c/.d}")
for d in "${deps[@]}"; do
  [ -s "$d" ] || { echo "tarball.sh: $d is missing (make $B/bin/$p first)" >&2; exit 1; }
done
mapfile -t hdrs < <(cat "${deps[@]}" | grep -o 'code/lib/[a-z_0-9]*/[a-z_0-9]*\.h' | sort -u)
set -- "code/$p.c" "${mods[@]}" "${hdrs[@]}"
for f; do [ -f "$f" ] || { echo "tarball.sh: $f is missing" >&2; exit 1; }; done
s=$B/dl/$p.tmp.$$
trap 'rm -rf "$s" "$target.tmp.$$"' EXIT
rm -rf "$s"; mkdir -p "$s/$p" "$(dirname "$target")"
cp --parents "$@" "$s/$p/"
python3 tests/grader/pack.py stub-all "$s/$p"
printf '%s\n' "$p: the program of one chapter of Attention in C, with the library modules" \
  'it uses.' \
  '' 'Build and run it:' \
  "  cc -std=c11 -O3 -ffp-contract=off -Icode/lib code/$p.c code/lib/*/*.c -lm -o $p" \
  "  ./$p --help" '' \
  'The functions graded in the course assignments are left as stubs marked TODO.' \
  > "$s/$p/README.txt"
tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
  --mode=u+rw,go+r,go-w -C "$s" -cf - "$p" | gzip -9n > "$target.tmp.$$"
mv "$target.tmp.$$" "$target"
