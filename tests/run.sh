#!/usr/bin/env bash
# run.sh BUILD_DIR [GROUP...] -- run the test groups; each prints TAP.
# Prints a line per group and ends with one line: "N passed, N failed".
set -u
B=${1:-build}; shift || true
cd "$(dirname "$0")/.."
all_groups=(unit programs book checks sanitize reference valgrind pdf browser reproducible
            assignments hostile determinism broken killed lint)
groups=("$@"); [ ${#groups[@]} -eq 0 ] && groups=("${all_groups[@]}")
mkdir -p "$B/test"
total_pass=0; total_fail=0
for g in "${groups[@]}"; do
  log="$B/test/$g.tap"
  start=$(date +%s)
  bash "tests/$g.sh" "$B" > "$log" 2>&1
  status=$?
  p=$(grep -c '^ok ' "$log"); f=$(grep -c '^not ok ' "$log")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "not ok - group $g exited with status $status" >> "$log"; f=1
  fi
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  printf '%-13s %4d passed, %d failed  (%ds, %s)\n' "$g" "$p" "$f" $(( $(date +%s) - start )) "$log"
  grep -A12 '^not ok' "$log" | head -n 60 | sed 's/^/    /'
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
