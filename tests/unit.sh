#!/usr/bin/env bash
# unit.sh BUILD_DIR -- build and run every Criterion unit test; TAP out.
set -u
B=$1
. tests/tap.sh
make --no-print-directory -s B="$B" unit-tests >&2 || { fail "unit tests build"; exit 0; }
for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  name=${t##*/}
  tap=$(mktemp)
  timeout 300 "$t" --tap="$tap" >/dev/null 2>"$tap.err"
  status=$?
  n=$(grep -cE '^(not )?ok' "$tap")
  if [ "$n" -eq 0 ]; then fail "$name ran no test (status $status)" "$(cat "$tap.err")"; fi
  # Criterion numbers from 1 per binary: renumber into our own TAP stream.
  # (In bash: a sed per line was a process per test, thousands in all.)
  while IFS= read -r line; do
    case "$line" in
      "not ok"*|"ok"*)
        what=$line
        [[ $what =~ ^(not\ )?ok(\ [0-9]+)?\ -\ (.*)$ ]] && what=${BASH_REMATCH[3]}
        if [[ $what =~ ^(.*)\ +\([0-9.]+s\)$ ]]; then   # Criterion's "(0.01s)", and the spaces before
          what=${BASH_REMATCH[1]}; what=${what%"${what##*[! ]}"}
        fi
        case "$line" in "not ok"*) fail "$name: $what" ;; *) pass "$name: $what" ;; esac ;;
      "#"*|"  "*) echo "$line" ;;
    esac
  done < "$tap"
  rm -f "$tap" "$tap.err"
done
