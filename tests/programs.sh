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
  # its stderr's lines as wc -l counts them (newlines), in bash: this runs a
  # thousand times, and two processes each time cost more than the check
  local lines=0 _l
  while IFS= read -r _l; do lines=$((lines + 1)); done <"$T/err"
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ]; then
    pass "${1##*/} rejects $why"
  else
    fail "${1##*/} rejects $why: ${*:2}" \
      "exit $rc, $lines stderr line(s): $(head -c 300 "$T/err")"
  fi
}

# test_args NAME: the arguments a slow program asks the tests to run it with,
# from a line "// Test args: ..." in code/NAME.c (none for most programs).

for bin in "$B"/bin/ch[0-9][0-9]_*; do
  p=$(basename "$bin")
  rm -rf "$T"/d1 "$T"/d2 "$T"/d3 "$T"/dc
  read -r -a A <<< "$(test_args "$p")"

  run "$bin" "${A[@]}"
  if [ "$rc" -eq 0 ] && [ -s "$T/out" ] && [ ! -s "$T/err" ]; then pass "$p runs with no arguments"
  else fail "$p runs with no arguments" "exit $rc: $(head -c 300 "$T/err")"; fi
  cp "$T/out" "$T/first"
  if grep -q '^== .* ==$' "$T/first"; then pass "$p prints sections"; else fail "$p prints sections"; fi
  long=$(awk 'length > 80' "$T/first" | head -n 3)
  if [ -z "$long" ]; then pass "$p prints lines of at most 80 columns"
  else fail "$p prints lines of at most 80 columns" "$long"; fi

  run "$bin" "${A[@]}"   # timings ("== measured ... ==", measured_*) may differ, nothing else
  if cmp -s <(unmeasured "$T/out") <(unmeasured "$T/first"); then
    pass "$p is deterministic (same stdout twice)"
  else fail "$p is deterministic (same stdout twice)" "$(diff "$T/first" "$T/out" | head)"; fi

  run "$bin" "${A[@]}" --data "$T/d1"; run "$bin" "${A[@]}" --data "$T/d2"
  if [ "$rc" -eq 0 ] && diff -r -x 'measured_*' "$T/d1" "$T/d2" >/dev/null && [ -s "$T/d1/values.tsv" ]; then
    pass "$p --data writes the same data twice"
  else fail "$p --data writes the same data twice" "exit $rc"; fi
  if cmp -s <(unmeasured "$T/out") <(unmeasured "$T/first"); then
    pass "$p prints the same with --data"
  else fail "$p prints the same with --data"; fi

  run "$bin" "${A[@]}" --seed 7
  if [ "$rc" -eq 0 ]; then pass "$p --seed 7 runs"; else fail "$p --seed 7 runs" "exit $rc"; fi
  cp "$T/out" "$T/seed7"; run "$bin" "${A[@]}" --seed=7
  if cmp -s <(unmeasured "$T/out") <(unmeasured "$T/seed7"); then
    pass "$p --seed=7 equals --seed 7"
  else fail "$p --seed=7 equals --seed 7"; fi

  run "$bin" --help
  if [ "$rc" -eq 0 ] && grep -q '^usage:' "$T/out"; then pass "$p --help"
  else fail "$p --help" "exit $rc"; fi
  timeout 60 "$bin" --help > /dev/full 2>"$T/err"; rc=$?
  if [ "$rc" -eq 2 ] && grep -q "standard output" "$T/err"; then pass "$p --help says when stdout cannot be written"
  else fail "$p --help says when stdout cannot be written" "exit $rc: $(cat "$T/err")"; fi

  expect_reject "an unknown option" "$bin" --bogus
  expect_reject "a positional argument" "$bin" extra
  expect_reject "--data into a missing directory" "$bin" --data "$T/no/such/dir"
  expect_reject "--data without a value" "$bin" --data
  expect_reject "an argument after --" "$bin" -- extra
  run "$bin" "${A[@]}" --
  if [ "$rc" -eq 0 ] && cmp -s <(unmeasured "$T/out") <(unmeasured "$T/first"); then pass "$p accepts a final --"
  else fail "$p accepts a final --" "exit $rc: $(head -c 300 "$T/err")"; fi

  # refusals name their cause (the system's reason after the last colon)
  : > "$T/plainfile"
  expect_reject "--data naming a regular file" "$bin" --data "$T/plainfile"
  grep -q "not a directory" "$T/err" || fail "$p: --data on a file says 'not a directory'" "$(cat "$T/err")"
  expect_reject "--data in an unwritable place" "$bin" --data /sys
  grep -qE "/sys': [A-Z][a-z]+" "$T/err" || fail "$p: unwritable --data says why" "$(cat "$T/err")"

  # stdout closed: refused, and nothing of the report lands in a data file
  rm -rf "$T/dc"; timeout 120 "$bin" "${A[@]}" --data "$T/dc" >&- 2>"$T/err"; rc=$?
  if [ "$rc" -eq 2 ] && ! grep -rqs '^== ' "$T/dc"; then pass "$p refuses to run with stdout closed"
  else fail "$p refuses to run with stdout closed" "exit $rc; $(grep -rls '^== ' "$T/dc")"; fi
  # stderr closed: the data files stay clean too
  timeout 120 "$bin" "${A[@]}" --data "$T/dc" >/dev/null 2>&-
  if diff -r -x 'measured_*' "$T/dc" "$T/d1" >/dev/null; then pass "$p with stderr closed writes the usual data"
  else fail "$p with stderr closed writes the usual data" "$(diff -r "$T/dc" "$T/d1" | head -n 3)"; fi

  # a reused --data folder: the previous run's files go, other files stay
  echo old > "$T/d1/from_an_earlier_run.dat"; echo from_an_earlier_run.dat >> "$T/d1/.report-files"
  echo mine > "$T/d1/not_ours.txt"
  run "$bin" "${A[@]}" --data "$T/d1"
  if [ ! -e "$T/d1/from_an_earlier_run.dat" ] && [ -e "$T/d1/not_ours.txt" ] \
     && diff -r -x not_ours.txt -x 'measured_*' "$T/d1" "$T/d2" >/dev/null
  then pass "$p: a reused --data folder keeps no file of the previous run"
  else fail "$p: a reused --data folder keeps no file of the previous run" "$(ls -A "$T/d1")"; fi

  # a write that fails names the file and fails the program
  mkdir -p "$T/d3"; ln -s /dev/full "$T/d3/values.tsv"
  run "$bin" "${A[@]}" --data "$T/d3"
  if [ "$rc" -eq 1 ] && grep -q "d3/values.tsv" "$T/err"; then pass "$p names a data file it cannot write"
  else fail "$p names a data file it cannot write" "exit $rc: $(cat "$T/err")"; fi
  timeout 120 "$bin" "${A[@]}" > /dev/full 2>"$T/err"; rc=$?
  if [ "$rc" -eq 1 ] && grep -q "standard output" "$T/err"; then pass "$p says when stdout cannot be written"
  else fail "$p says when stdout cannot be written" "exit $rc: $(cat "$T/err")"; fi

  # Every numeric option listed by --help, e.g. "  --seq-len N   ... (1..512, default 8)".
  "$bin" --help | sed -nE 's/^  (--[a-z-]+) [A-Z]+ .*\(([-0-9.e+]+)\.\.([-0-9.e+]+), default.*$/\1 \2 \3/p' \
    > "$T/opts"
  if grep -q -- '--seed N .*(0\.\.4294967295, default' <("$bin" --help); then
    pass "$p --help shows the seed range 0..4294967295"
  else fail "$p --help shows the seed range 0..4294967295" "$("$bin" --help | grep -- --seed)"; fi
  grep -q '^--seed ' "$T/opts" || echo "--seed 0 4294967295" >> "$T/opts"
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
    for v in " 5" "5 " "+5" "-0" "0x10" "inf"; do expect_reject "$opt '$v'" "$bin" "$opt" "$v"; done
    run "$bin" "$opt" 99999999999
    if grep -q "$lo\.\.$hi" "$T/err" && ! grep -q 'e+' "$T/err"; then pass "$p $opt says its range as $lo..$hi"
    else fail "$p $opt says its range as $lo..$hi" "$(cat "$T/err")"; fi
    if awk -v v="$lo" 'BEGIN { exit !(v > 0) }'; then expect_reject "$opt 0" "$bin" "$opt" 0; fi
  done < "$T/opts"
  # Every text option, e.g. "  --prompt TEXT  ... (1..256 bytes, default "%\n")".
  "$bin" --help | sed -nE 's/^  (--[a-z-]+) [A-Z]+ .*\(([0-9]+)\.\.([0-9]+) bytes, default.*$/\1 \2 \3/p' \
    > "$T/texts"
  while read -r opt lo hi; do
    expect_reject "$opt without a value" "$bin" "$opt"
    if [ "$lo" -gt 0 ]; then expect_reject "$opt with an empty value" "$bin" "$opt" ""; fi
    expect_reject "$opt of $((hi + 1)) bytes" "$bin" "$opt" "$(head -c $((hi + 1)) /dev/zero | tr '\0' x)"
  done < "$T/texts"
done

# One of a thing is singular: ch04 with one head says "1 head", never "1 heads".
if [ -x "$B/bin/ch04_multi_head" ]; then
  run "$B/bin/ch04_multi_head" --heads 1
  if [ "$rc" -eq 0 ] && ! grep -qE '(^|[^0-9])1 heads' "$T/out"; then pass "ch04_multi_head --heads 1 says '1 head'"
  else fail "ch04_multi_head --heads 1 says '1 head'" "exit $rc: $(grep -E '1 heads' "$T/out" | head -n 2)"; fi
fi

# ch10 reads a pinned corpus: a missing or changed file is refused (exit 2, one
# line), and nothing is printed before the refusal.
if [ -x "$B/bin/ch10_gpt" ]; then
  expect_reject "a missing corpus" "$B/bin/ch10_gpt" --small --corpus "$T/no_such_file"
  head -c 1000 /usr/share/games/fortunes/cookie > "$T/changed" 2>/dev/null
  expect_reject "a changed corpus" "$B/bin/ch10_gpt" --small --corpus "$T/changed"
fi
