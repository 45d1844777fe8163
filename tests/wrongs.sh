#!/usr/bin/env bash
# wrongs.sh BUILD_DIR -- the graded tests tell right from wrong (issue 25 item 4);
# TAP out. Every wrong version tests/grader/wrong/FUNCTION/NAME.c, graded by the
# real judge (tests/grader/wrongs.py: the judge built once per chapter, one source
# recompiled per wrong version, only that task's tests run, two jobs at a time),
# scores less than full; the solution scores full; every task has at least three
# wrong versions. The grading is the build's (make wrongs: BUILD_DIR/wrongs.json,
# which the instructor edition reads too); the planted fault, a "wrong" version
# identical to the solution, is graded here and must make the check fail.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d /tmp/wrongs-test.XXXXXX)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
# the record every wrong version graded once (make wrongs; make test makes it first)
make --no-print-directory -s B="$B" wrongs >&2 || { fail "make wrongs"; exit 0; }

python3 tests/grader/wrongs.py --from "$B/wrongs.json" > "$T/out" 2> "$T/err"
rc=$?
while IFS= read -r line; do
  case $line in
    "ok - "*) pass "${line#ok - }" ;;
    "not ok - "*) fail "${line#not ok - }" ;;
  esac
done < "$T/out"
n=$(grep -c ' loses points ' "$T/out"); caught=$(grep -c '^ok - .* loses points ' "$T/out")
if [ "$rc" -le 1 ] && [ "$n" -gt 0 ]; then pass "wrongs.py graded $n wrong versions, $caught caught"
else fail "wrongs.py runs" "exit $rc: $(head -c 2000 "$T/err")"; fi

# --- a planted fault: a wrong version that is the solution itself -------------
fn=$(awk -F'\t' '$1 == "task" {f = $2} END {print f}' \
       "$(ls tests/assignments/ch[0-9][0-9].tsv | tail -n 1)")
mkdir -p "$T/wrong/$fn"
{ echo "// MISTAKE: none, this is the solution"; python3 tests/grader/leak.py --body "$fn"; } \
  > "$T/wrong/$fn/identical.c"
out=$(python3 tests/grader/wrongs.py "$B" --wrong-dir "$T/wrong" --only "$fn" 2>&1); rc=$?
if [ "$rc" = 1 ] && echo "$out" | grep -q "^not ok - $fn/identical loses points (score \([0-9.]*\)/\1)$" &&
   echo "$out" | grep -q "^ok - $fn: the solution scores full"; then
  pass "a planted wrong version identical to the solution fails the check ($fn)"
else fail "a planted wrong version identical to the solution fails the check ($fn)" "exit $rc: $out"; fi
