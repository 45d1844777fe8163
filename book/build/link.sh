#!/usr/bin/env bash
# link.sh BUILD_DIR TARGET OBJECT ARCHIVE CC CFLAGS... -- link a chapter program
# against the library archive, and write BUILD_DIR/obj/NAME.link.d: the program
# depends on the archive members the linker took (read from its map), not on the
# whole archive, so editing one module reruns only the programs that use it.
set -euo pipefail
export LC_ALL=C
B=$1 target=$2 obj=$3 lib=$4; shift 4
name=$(basename "$target")
mkdir -p "$(dirname "$target")"
t=$target.tmp.$$
trap 'rm -f "$t" "$t.map" "$t.d"' EXIT
"$@" "$obj" "$lib" -lm -Wl,-Map="$t.map" -o "$t"
mapfile -t members < <(grep -o 'libattention\.a([a-z_0-9]*\.o)' "$t.map" | sort -u \
  | sed 's/.*(\(.*\)\.o)/\1/')
deps=()
for m in "${members[@]}"; do deps+=("$B"/obj/lib/*/"$m.o"); done
{ printf '%s:' "$target"; printf ' %s' "${deps[@]}"; echo
  for d in "${deps[@]}"; do printf '%s:\n' "$d"; done; } > "$t.d"
mv "$t.d" "$B/obj/$name.link.d"
mv "$t" "$target"
