#!/usr/bin/env bash
# valgrind.sh BUILD_DIR -- every chapter program under valgrind's memcheck, as
# built for the book (-O3 -g, no sanitizer): no invalid access, no use of
# uninitialised memory, no leak of any kind (still-reachable counts too). Each
# program runs once, with --data (the path that also writes every data file),
# and must print and write exactly what the book was built from. (The run
# without --data prints the same, programs.sh checks.) The runs go one per core.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

command -v valgrind >/dev/null || { fail "valgrind is installed" "run 'sudo make deps'"; exit 0; }
bins=("$B"/bin/ch[0-9][0-9]_*)
[ -x "${bins[0]}" ] || { fail "the chapter programs are built" "nothing in $B/bin (make programs)"; exit 0; }

# --track-origins=yes only explains an error (where an uninitialised value came
# from) and doubles the run time: a program that fails runs again with it.
# glibc picks its FMA and AVX2 versions of expf, sin, memcpy... by the processor;
# valgrind runs FMA instructions through a slow helper, so the runs ask glibc for
# its plain SSE2 versions (the group's CPU time 74 -> 63 s; the output is the
# same: checked against the book below).
export GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F
VG=(valgrind --tool=memcheck --leak-check=full --show-leak-kinds=all
    --errors-for-leak-kinds=all --error-exitcode=99)
jobs=$(nproc 2>/dev/null || echo 2)

# run_one NAME ARGS...: valgrind's report in $T/NAME.vg, exit status in $T/NAME.rc;
# when valgrind found errors, the report is of a second run with --track-origins
run_one() {
  local name=$1; shift
  timeout 900 "${VG[@]}" --log-file="$T/$name.vg" "$@" >"$T/$name.out" 2>"$T/$name.err"
  local rc=$?
  if [ "$rc" = 99 ]; then
    rm -rf "$T/data/${name%.data}"
    timeout 900 "${VG[@]}" --track-origins=yes --log-file="$T/$name.vg" "$@" >/dev/null 2>&1
  fi
  echo "$rc" > "$T/$name.rc"
}
# arguments from a "// Test args: ..." line in the program's source (see programs.sh)
for bin in "${bins[@]}"; do
  p=$(basename "$bin")
  read -r -a A <<< "$(test_args "$p")"
  mkdir -p "$T/data"
  run_one "$p.data" "$bin" "${A[@]}" --data "$T/data/$p" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done
wait

# report NAME "what": ok if valgrind exited 0 and found nothing.
report() {
  local name=$1 what=$2 rc
  rc=$(cat "$T/$name.rc" 2>/dev/null || echo '?')
  if [ "$rc" = 0 ] && grep -q 'ERROR SUMMARY: 0 errors' "$T/$name.vg"; then pass "$what"; return; fi
  local why
  case $rc in
    99) why="valgrind found errors or leaks:" ;;
    124) why="timed out under valgrind after 900 s" ;;
    *) why="exit status $rc: $(head -c 300 "$T/$name.err")" ;;
  esac
  # the summary lines, then the first two errors with their stacks
  fail "$what" "$why
$(grep -E 'ERROR SUMMARY|definitely lost:|indirectly lost:|possibly lost:|still reachable:' "$T/$name.vg" \
    | sed 's/^==[0-9]*== *//')
$(awk '{ sub(/^==[0-9]+== ?/, "") }
       /^(Invalid|Conditional jump|Use of uninit|Syscall param|Mismatched|Source and destination|Argument|.* are (definitely|indirectly|possibly) lost|.* still reachable in loss)/ { n++; on = (n <= 2) }
       on && /^$/ { on = 0 }
       on' "$T/$name.vg" | head -n 14)"
}

for bin in "${bins[@]}"; do
  p=$(basename "$bin")
  report "$p.data" "$p --data DIR runs clean under valgrind memcheck"
  # Under valgrind the program must print and write what the build recorded:
  # a difference means behaviour that depends on memory contents.
  if [ -f "$B/out/$p.txt" ] && [ -z "$(test_args "$p")" ]; then
    if cmp -s <(unmeasured "$T/$p.data.out") <(unmeasured "$B/out/$p.txt") &&
       diff -r -x 'measured_*' "$T/data/$p" "$B/data/$p" >/dev/null 2>&1; then
      pass "$p under valgrind prints and writes what the book shows"
    else
      fail "$p under valgrind prints and writes what the book shows" \
        "$( { diff "$B/out/$p.txt" "$T/$p.data.out"; diff -r "$B/data/$p" "$T/data/$p"; } 2>&1 | head -n 10)"
    fi
  fi
done
