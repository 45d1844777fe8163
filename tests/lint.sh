#!/usr/bin/env bash
# lint.sh BUILD_DIR -- the code-shape rules (tests/lint.conf) hold in code/ and
# tests/unit/, except what tests/lint.allow lists; then the proof that each rule
# can fail: in a temporary copy of the tree, a violation of each rule is planted
# and the lint must fail on that rule (and pass on the clean copy, and at the
# thresholds themselves). BUILD_DIR is not used.
set -u
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# The rules on the tree itself: lint.py's TAP lines, renumbered into ours.
python3 tests/lint.py > "$T/lint.out" 2>&1; status=$?
while IFS= read -r line; do
  what=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ - //'); rule=${what%%:*}
  case "$line" in
    "not ok "*) fail "$what" "$(grep -E "^# (VIOLATION $rule |stale entry)" "$T/lint.out" \
                                | sed 's/^# //')" ;;
    "ok "*)     pass "$what" ;;
  esac
done < "$T/lint.out"
[ "$status" -le 1 ] || fail "lint.py runs" "$(cat "$T/lint.out")"

# A fresh copy of what the lint reads, with the allow-list of the tree.
fresh() {
  rm -rf "$T/tree"; mkdir -p "$T/tree/tests"
  cp -r code "$T/tree/code"; cp -r tests/unit "$T/tree/tests/unit"
  cp tests/lint.py tests/lint.conf tests/lint.allow "$T/tree/tests/"
}
lint_copy() { python3 "$T/tree/tests/lint.py" --root "$T/tree" > "$T/out" 2>&1; }
# expect_fail RULE WHY: the lint of the planted copy fails, on RULE.
expect_fail() {
  if lint_copy; then fail "planted $2: the lint fails" "it passed"
  elif grep -qE "^not ok [0-9]+ - $1:" "$T/out"; then pass "planted $2: $1 fails"
  else fail "planted $2: $1 fails" "$(grep '^not ok' "$T/out")"; fi
}
expect_pass() {
  if lint_copy; then pass "$1: the lint passes"
  else fail "$1: the lint passes" "$(grep -A3 '^not ok' "$T/out" | head -n 8)"; fi
}
# body N: N lines of statements, with braces inside strings and comments that
# a scanner which ignored them would miscount.
body() {
  echo '    const char *s = "}}";  /* } */ (void)s;  // }'
  for _ in $(seq 3 "$1"); do echo '    (void)0;'; done
}
# fn NAME LINES: a function of exactly LINES lines (signature to closing brace).
fn() { echo "int $1(void) {"; body $(($2 - 1)); echo "}"; }
prog=code/ch01_intuition.c; lib=code/lib/base/rng.c

fresh; expect_pass "clean copy"

fresh; fn planted_ok 70 >> "$T/tree/$lib"
expect_pass "a function of exactly 70 lines"
fresh; fn planted_long 71 >> "$T/tree/$lib"; expect_fail function-lines "a 71-line function"

fresh; printf 'static void planted(void) { exit(1); }\n' >> "$T/tree/$prog"
expect_fail exit "exit( in a chapter program"
fresh; printf 'static int planted(cli_t *c) { return cli_parse(c, 0, 0); }\n' \
  >> "$T/tree/$prog"
expect_fail cli_parse "cli_parse( in a chapter program"

# main padded to exactly 40 lines passes, to 41 fails.
pad_main() {
  python3 - "$T/tree/$prog" "$1" <<'EOF'
import re, sys
path, want = sys.argv[1], int(sys.argv[2])
lines = open(path).read().split("\n")
start = next(i for i, l in enumerate(lines) if re.match(r"int main\(", l))
end = next(i for i in range(start, len(lines)) if lines[i] == "}")
pad = ["    (void)0;"] * (want - (end - start + 1))
open(path, "w").write("\n".join(lines[:start + 1] + pad + lines[start + 1:]))
EOF
}
fresh; pad_main 40; expect_pass "a main of exactly 40 lines"
fresh; pad_main 41; expect_fail main-lines "a 41-line main"

fresh; printf '// %085d\n' 0 >> "$T/tree/$lib"; expect_pass "a line of exactly 88 columns"
fresh; printf '// %086d\n' 0 >> "$T/tree/$lib"; expect_fail columns "an 89-column line in code/"
fresh; printf '// %s\n' "$(printf 'é%.0s' $(seq 85))" >> "$T/tree/$lib"
expect_pass "88 columns of multi-byte characters"
fresh; printf '// %086d\n' 0 >> "$T/tree/tests/unit/test_rng.c"
expect_fail columns "an 89-column line in tests/unit/"

fresh; sed -i '0,/^#include "base/s//#include "attention\/softmax.h"\n&/' "$T/tree/$lib"
expect_fail include-order "base/ including attention/"
fresh; mkdir "$T/tree/code/lib/misc"; printf '#include "base/rng.h"\n' \
  > "$T/tree/code/lib/misc/x.c"
expect_fail include-order "a group lint.conf does not list"

ps() { local s=int; for _ in $(seq 2 "$1"); do s="$s, int"; done; echo "$s"; }
fresh; printf 'void planted_ok(%s);\n' "$(ps 10)" >> "$T/tree/code/lib/base/rng.h"
expect_pass "a prototype of 10 parameters"
fresh; printf 'void planted(%s);\n' "$(ps 11)" >> "$T/tree/code/lib/base/rng.h"
expect_fail params "a prototype of 11 parameters"
fresh; printf 'static void planted(%s) {\n}\n' "$(ps 11)" >> "$T/tree/$lib"
expect_fail params "a definition of 11 parameters"

# The allow-list: an entry lets its violation pass; an entry matching nothing fails.
fresh; fn planted_long 71 >> "$T/tree/$lib"
echo "function-lines $lib planted_long" >> "$T/tree/tests/lint.allow"
expect_pass "a violation the allow-list names"
fresh; echo "function-lines $lib no_such_function" >> "$T/tree/tests/lint.allow"
expect_fail allow "an allow-list entry that matches no violation"

# The thresholds are read from lint.conf, not built in.
fresh; sed -i 's/^max_function_lines .*/max_function_lines 5/' "$T/tree/tests/lint.conf"
expect_fail function-lines "max_function_lines lowered to 5 in lint.conf"
fresh; sed -i 's/^groups .*/groups program base attention layers variants masks position fast/' \
  "$T/tree/tests/lint.conf"
expect_fail include-order "base/ after program/ in lint.conf's group order"
