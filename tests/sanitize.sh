#!/usr/bin/env bash
# sanitize.sh BUILD_DIR -- every program and unit test built with ASan + UBSan
# (at -O1; the unit tests' own code at -O0: see SAN in the Makefile).
set -u
B=$1
. tests/tap.sh
make --no-print-directory -s -j"$(nproc 2>/dev/null || echo 2)" B="$B" sanitize >&2 \
  || { fail "sanitizer build"; exit 0; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# arguments from a "// Test args: ..." line in the program's source (see programs.sh)
for bin in "$B"/san/bin/ch[0-9][0-9]_*; do
  p=$(basename "$bin")
  read -r -a A <<< "$(test_args "$p")"
  # once, with --data: the path that also writes every data file (the run without
  # it computes the same and prints the same, programs.sh checks; valgrind.sh runs
  # each program with --data too)
  if timeout 600 "$bin" "${A[@]}" --data "$T/$p" >/dev/null 2>"$T/err"; then pass "$p under ASan+UBSan"
  else fail "$p under ASan+UBSan" "$(head -n 20 "$T/err")"; fi
  # the same program refusing bad input must not leak or misbehave either
  timeout 60 "$bin" --seed nope >/dev/null 2>"$T/err"
  if [ $? -eq 2 ]; then pass "$p rejects bad input under ASan+UBSan"
  else fail "$p rejects bad input under ASan+UBSan" "$(head -n 20 "$T/err")"; fi
done
for t in "$B"/san/tests/test_*; do
  [ -x "$t" ] || continue
  if timeout 600 "$t" >/dev/null 2>"$T/err"; then pass "$(basename "$t") under ASan+UBSan"
  else fail "$(basename "$t") under ASan+UBSan" "$(tail -n 20 "$T/err")"; fi
done
