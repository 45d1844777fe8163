#!/usr/bin/env bash
# unit.sh BUILD_DIR -- build and run every Criterion unit test; TAP out.
set -u
B=$1
. tests/tap.sh
make --no-print-directory -s B="$B" unit-tests >&2 || { fail "unit tests build"; exit 0; }
for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  tap=$(mktemp)
  timeout 300 "$t" --tap="$tap" >/dev/null 2>"$tap.err"
  status=$?
  n=$(grep -cE '^(not )?ok' "$tap")
  if [ "$n" -eq 0 ]; then fail "$name ran no test (status $status)" "$(cat "$tap.err")"; fi
  # Criterion numbers from 1 per binary: renumber into our own TAP stream.
  while IFS= read -r line; do
    case "$line" in
      "not ok"*) fail "$name: $(echo "$line" | sed -E 's/^not ok( [0-9]+)? - //; s/ +\([0-9.]+s\)$//')" ;;
      "ok"*)     pass "$name: $(echo "$line" | sed -E 's/^ok( [0-9]+)? - //; s/ +\([0-9.]+s\)$//')" ;;
      "#"*|"  "*) echo "$line" ;;
    esac
  done < "$tap"
  rm -f "$tap" "$tap.err"
done
