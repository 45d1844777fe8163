#!/usr/bin/env bash
# run.sh BUILD_DIR [GROUP...] -- run the test groups; each prints TAP.
#
# Groups run side by side, TEST_JOBS at a time (default: two more than the cores,
# since several groups spend much of their time waiting on Chromium or a grader's
# time limit and would leave a core idle), the longest
# first; each keeps its TAP log in BUILD_DIR/test/GROUP.tap. The report is in the
# fixed order of the groups whatever finishes first: a line per group (its tests,
# wall time and CPU time), its failures, then each group's time, the ten slowest
# tests, and one last line: "N passed, N failed".
set -u
export LC_ALL=C.UTF-8
# Debian's tools first, as in the Makefile (not a Python another installer put ahead)
export PATH=/usr/bin:$PATH
B=${1:-build}; shift || true
cd "$(dirname "$0")/.."
. tests/tap.sh   # nap, for the polling loops below
all_groups=(unit programs book checks sanitize reference valgrind pdf figures browser validate
            reproducible assignments hostile determinism broken robust lint leaks wrongs instructors)
# the order to start them in: longest wall time first (as measured on two cores;
# reproducible, a whole second build, is the longest chain), so the last to
# finish is a short one
longest_first=(reproducible valgrind determinism assignments hostile sanitize figures browser
               robust programs book validate reference unit leaks instructors lint pdf
               wrongs checks broken)
# What a group reads beyond `make all`, which several groups share (a group makes
# its own too, so that it runs alone). It is made once, as one of the jobs from
# the start; a group that needs it starts only once it is made (the next group in
# the order that needs none of it goes first), so no two groups make the same
# thing at the same moment.
declare -A needs=([unit]=unit-tests [sanitize]=sanitize [reference]=refdriver
                  [assignments]="assignments gradescope" [hostile]=gradescope
                  [leaks]=assignments [wrongs]=wrongs [instructors]=instructors)
groups=("$@"); [ ${#groups[@]} -eq 0 ] && groups=("${all_groups[@]}")
jobs=${TEST_JOBS:-$(( $(nproc 2>/dev/null || echo 2) + 2 ))}
D=$B/test
T0=$EPOCHREALTIME
mkdir -p "$D"

# CPU time per group. /usr/bin/time counts only the processes a group waits
# for; Chromium's renderers and anything else that leaves its parent escape it.
# Where the kernel's CPU accounting groups can be made (cgroup v1 cpuacct, as
# root), each group runs in one of its own and its CPU time is all of its
# processes'; otherwise the count from time.
CG=
for root in /sys/fs/cgroup/cpuacct /sys/fs/cgroup/cpu,cpuacct; do
  [ -f "$root/cpuacct.usage" ] || continue
  mkdir "$root/attention-tests.$$" 2>/dev/null && CG=$root/attention-tests.$$
  break
done
# in_cgroup NAME: the calling subshell and all it starts from now on count as NAME
in_cgroup() {
  [ -n "$CG" ] && mkdir -p "$CG/$1" 2>/dev/null && echo "$BASHPID" > "$CG/$1/cgroup.procs" 2>/dev/null
}
# cgroup_seconds NAME: the CPU seconds counted as NAME, or nothing
cgroup_seconds() {
  local ns
  [ -n "$CG" ] && [ -f "$CG/$1/cpuacct.usage" ] && read -r ns < "$CG/$1/cpuacct.usage" &&
    [ -n "$ns" ] || return 0
  echo $(( (ns + 500000000) / 1000000000 ))
}
# Debian's Criterion links libgit2, whose TLS set-up parses the system's CA
# bundle (220 KB of PEM) as every test process starts (Criterion starts one per
# test; under ASan the PEM search goes through its quadratic strstr check):
# without it test_sweep takes 1.2 CPU-s instead of 2.2, and 5.0 instead of 9.0
# under ASan. The groups made of such processes (unit tests,
# sanitizer runs, the grader's judges) and the shared build (which grades the
# wrong versions) use no TLS, so where a private mount namespace can be made
# (as root) they run with that file reading as empty (/dev/null bound over it,
# seen by them alone). Never a group that may install from npm (browser,
# figures, validate): npm checks the registry's certificate against that file,
# and without it retries for minutes.
CA=/etc/ssl/certs/ca-certificates.crt
NOCA=() noca_groups=" unit sanitize assignments hostile leaks wrongs instructors "
if [ -f "$CA" ] && [ "$(id -u)" = 0 ] &&
   unshare -m bash -c 'mount --bind /dev/null "$0"' "$CA" 2>/dev/null; then
  NOCA=(unshare -m bash -c 'mount --bind /dev/null "$0" && exec "$@"' "$CA")
fi
for g in "${groups[@]}"; do
  [ -f "tests/$g.sh" ] || { echo "run.sh: no test group '$g' (tests/$g.sh)" >&2; exit 2; }
  rm -f "$D/$g.done" "$D/$g.times" "$D/$g.cpu"
done

# run_group G: G's TAP into $D/G.tap, each test's seconds into $D/G.times (the
# time since the group's previous TAP line), its CPU seconds into $D/G.cpu, then
# $D/G.done holding its exit status and wall seconds.
run_group() {
  local g=$1 start=$EPOCHREALTIME
  [ -z "${NAP_FD:-}" ] || exec {NAP_FD}>&-   # the groups never see the pool's pipe
  in_cgroup "$g"
  local mask=()
  case $noca_groups in *" $g "*) mask=("${NOCA[@]}") ;; esac
  /usr/bin/time -f '%U %S' -o "$D/$g.cpu" "${mask[@]}" bash "tests/$g.sh" "$B" 2>&1 |
    { # in bash alone: a line is one test of thousands, and a process per line
      # (awk, sed) cost more CPU than some groups. Times in microseconds.
      last=${start/./} re='^(not )?ok [0-9]* *-? *(.*)$'
      while IFS= read -r line; do
        printf '%s\n' "$line"
        if [[ $line =~ $re ]]; then
          now=${EPOCHREALTIME/./} tenths=$(( (now - last + 50000) / 100000 ))
          printf '%d.%d\t%s\t%s\n' $((tenths / 10)) $((tenths % 10)) "$g" "${BASH_REMATCH[2]}" \
            >> "$D/$g.times"
          last=$now
        fi
      done; } > "$D/$g.tap"
  local status=${PIPESTATUS[0]} cs
  cs=$(cgroup_seconds "$g"); [ -z "$cs" ] || echo "$cs 0" > "$D/$g.cpu"
  echo "$status $(awk -v a="$start" -v b="$EPOCHREALTIME" -v t="$T0" \
         'BEGIN { printf "%d %d", b - a + 0.5, a - t + 0.5 }')" \
    > "$D/$g.done.tmp" && mv "$D/$g.done.tmp" "$D/$g.done"
}

# start the requested groups, longest first, at most $jobs at a time
order=()
for g in "${longest_first[@]}"; do
  for h in "${groups[@]}"; do [ "$g" = "$h" ] && order+=("$g"); done
done
for h in "${groups[@]}"; do
  case " ${order[*]} " in *" $h "*) ;; *) order+=("$h") ;; esac
done
targets=()
for g in "${groups[@]}"; do
  for t in ${needs[$g]:-}; do
    case " ${targets[*]} " in *" $t "*) ;; *) targets+=("$t") ;; esac
  done
done
rm -f "$D/prebuild.done"
[ ${#targets[@]} -gt 0 ] || touch "$D/prebuild.done"
(
  # The shared build takes a place of its own among the jobs (a make of its
  # own, one job a core; its messages in prebuild.log: a failure shows in the
  # groups, whose own make then fails). The next group to start is the first in
  # the order that can: one that needs the shared build waits for it.
  if [ ! -f "$D/prebuild.done" ]; then
    { [ -z "${NAP_FD:-}" ] || exec {NAP_FD}>&-
      in_cgroup prebuild
      "${NOCA[@]}" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s \
        -j"$(nproc 2>/dev/null || echo 2)" B="$B" "${targets[@]}" > "$D/prebuild.log" 2>&1
      touch "$D/prebuild.done"; } &
  fi
  pending=("${order[@]}")
  while [ ${#pending[@]} -gt 0 ]; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    pick=
    for i in "${!pending[@]}"; do
      g=${pending[$i]}
      if [ -z "${needs[$g]:-}" ] || [ -f "$D/prebuild.done" ]; then pick=$i; break; fi
    done
    if [ -z "$pick" ]; then nap 0.2; continue; fi
    run_group "${pending[$pick]}" &
    unset "pending[$pick]"; pending=("${pending[@]}")
  done
  wait
) &
pool=$!
trap 'kill -- -$pool 2>/dev/null; kill $pool 2>/dev/null' INT TERM

total_pass=0; total_fail=0
for g in "${groups[@]}"; do
  while [ ! -f "$D/$g.done" ]; do
    kill -0 "$pool" 2>/dev/null || [ -f "$D/$g.done" ] ||
      { echo "not ok - group $g never finished" >> "$D/$g.tap"; echo "1 0" > "$D/$g.done"; }
    nap 0.5
  done
  read -r status secs _ < "$D/$g.done"
  log=$D/$g.tap
  p=$(grep -c '^ok ' "$log"); f=$(grep -c '^not ok ' "$log")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "not ok - group $g exited with status $status" >> "$log"; f=1
  fi
  cpu=$(awk '{ printf "%d", $1 + $2 + 0.5 }' "$D/$g.cpu" 2>/dev/null)
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  printf '%-13s %4d passed, %d failed  (%ds, cpu %ss, %s)\n' "$g" "$p" "$f" "$secs" "${cpu:-?}" "$log"
  grep -A12 '^not ok' "$log" | head -n 60 | sed 's/^/    /'
done
wait "$pool" 2>/dev/null

echo
echo "time per group (wall s, cpu s; started and ended, s after the first), $jobs at a time:"
for g in "${groups[@]}"; do
  read -r _ secs at < "$D/$g.done"
  printf '  %-13s %5s %5s   %4s-%s\n' "$g" "$secs" \
    "$(awk '{ printf "%d", $1 + $2 + 0.5 }' "$D/$g.cpu" 2>/dev/null)" "${at:-?}" "$(( ${at:-0} + secs ))"
done
pre=$(cgroup_seconds prebuild)
[ -z "$pre" ] || echo "  (the shared build before them: cpu ${pre}s)"
if [ -n "$CG" ]; then
  echo "cpu: counted by the kernel's accounting groups, every process of a group"
else
  echo "cpu: the processes a group waited for (no accounting groups here)"
fi
echo "the ten slowest tests (s, group, test):"
for g in "${groups[@]}"; do cat "$D/$g.times" 2>/dev/null; done | sort -t$'\t' -k1,1gr |
  head -n 10 | awk -F'\t' '{ printf "  %6.1f  %-12s %s\n", $1, $2, substr($3, 1, 70) }'
# the accounting groups go once empty (a process left running keeps its own)
[ -z "$CG" ] || rmdir "$CG"/*/ "$CG" 2>/dev/null
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
