#!/usr/bin/env bash
# programs.sh BUILD_DIR -- every chapter program: runs, is deterministic, and
# rejects bad input with one line on stderr and exit status 2, never a crash.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# run PROGRAM ARGS... -> sets rc, and $T/out, $T/err
run() { timeout 120 "$@" >"$T/out" 2>"$T/err"; rc=$?; }

# expect_reject "why" PROGRAM ARGS...: exit 2, exactly one stderr line, no stdout.
expect_reject() {
  local why=$1; shift
  run "$@"
  local lines; lines=$(wc -l <"$T/err")
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ]; then
    pass "$(basename "$1") rejects $why"
  else
    fail "$(basename "$1") rejects $why: ${*:2}" \
      "exit $rc, $lines stderr line(s): $(head -c 300 "$T/err")"
  fi
}

for bin in "$B"/bin/ch[0-9][0-9]_*; do
  p=$(basename "$bin")

  run "$bin"
  if [ "$rc" -eq 0 ] && [ -s "$T/out" ] && [ ! -s "$T/err" ]; then pass "$p runs with no arguments"
  else fail "$p runs with no arguments" "exit $rc: $(head -c 300 "$T/err")"; fi
  cp "$T/out" "$T/first"
  if grep -q '^== .* ==$' "$T/first"; then pass "$p prints sections"; else fail "$p prints sections"; fi
  long=$(awk 'length > 80' "$T/first" | head -n 3)
  if [ -z "$long" ]; then pass "$p prints lines of at most 80 columns"
  else fail "$p prints lines of at most 80 columns" "$long"; fi

  run "$bin"   # timings ("== measured ... ==", measured_*) may differ, nothing else
  if cmp -s <(unmeasured "$T/out") <(unmeasured "$T/first"); then
    pass "$p is deterministic (same stdout twice)"
  else fail "$p is deterministic (same stdout twice)" "$(diff "$T/first" "$T/out" | head)"; fi

  run "$bin" --data "$T/d1"; run "$bin" --data "$T/d2"
  if [ "$rc" -eq 0 ] && diff -r -x 'measured_*' "$T/d1" "$T/d2" >/dev/null && [ -s "$T/d1/values.tsv" ]; then
    pass "$p --data writes the same data twice"
  else fail "$p --data writes the same data twice" "exit $rc"; fi
  if cmp -s <(unmeasured "$T/out") <(unmeasured "$T/first"); then
    pass "$p prints the same with --data"
  else fail "$p prints the same with --data"; fi

  run "$bin" --seed 7
  if [ "$rc" -eq 0 ]; then pass "$p --seed 7 runs"; else fail "$p --seed 7 runs" "exit $rc"; fi
  cp "$T/out" "$T/seed7"; run "$bin" --seed=7
  if cmp -s <(unmeasured "$T/out") <(unmeasured "$T/seed7"); then
    pass "$p --seed=7 equals --seed 7"
  else fail "$p --seed=7 equals --seed 7"; fi

  run "$bin" --help
  if [ "$rc" -eq 0 ] && grep -q '^usage:' "$T/out"; then pass "$p --help"
  else fail "$p --help" "exit $rc"; fi

  expect_reject "an unknown option" "$bin" --bogus
  expect_reject "a positional argument" "$bin" extra
  expect_reject "--data into a missing directory" "$bin" --data "$T/no/such/dir"
  expect_reject "--data without a value" "$bin" --data

  # Every numeric option listed by --help, e.g. "  --seq-len N   ... (1..512, default 8)".
  "$bin" --help | sed -nE 's/^  (--[a-z-]+) [A-Z]+ .*\(([-0-9.e+]+)\.\.([-0-9.e+]+), default.*$/\1 \2 \3/p' \
    > "$T/opts"
  echo "--seed 0 4294967295" >> "$T/opts"
  while read -r opt lo hi; do
    expect_reject "$opt without a value" "$bin" "$opt"
    expect_reject "$opt with an empty value" "$bin" "$opt" ""
    expect_reject "$opt abc" "$bin" "$opt" abc
    expect_reject "$opt 12abc" "$bin" "$opt" 12abc
    expect_reject "$opt 1e999" "$bin" "$opt" 1e999
    expect_reject "$opt 99999999999999999999999" "$bin" "$opt" 99999999999999999999999
    expect_reject "$opt -99999999999999999999999" "$bin" "$opt" -99999999999999999999999
    expect_reject "$opt nan" "$bin" "$opt" nan
    expect_reject "$opt below its minimum" "$bin" "$opt" "$(awk -v v="$lo" 'BEGIN { print v - 1 }')"
    expect_reject "$opt above its maximum" "$bin" "$opt" "$(awk -v v="$hi" 'BEGIN { printf "%.0f", v + 1 }')"
    expect_reject "$opt -1" "$bin" "$opt" -1
    if awk -v v="$lo" 'BEGIN { exit !(v > 0) }'; then expect_reject "$opt 0" "$bin" "$opt" 0; fi
  done < "$T/opts"
done
