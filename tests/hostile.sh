#!/usr/bin/env bash
# hostile.sh BUILD_DIR -- attacks on the grader; TAP out. Each attack is a
# submission made from the ch02 pack's own logsoftmax stub with one to four lines
# added (so it follows the stub when it changes), graded through run_autograder
# as Gradescope runs it (as root, dropping to the test user; plainly when not
# root). Every attack must be refused with a named reason or score 0 (the size
# special-case: lose its hidden test), with results.json valid and score <= max;
# after them a planted victim file is unchanged, no process of the test user
# survives, no file is left in /tmp and no secret reached any results.json.
# Then the same attacks again with the refusals switched off
# (GRADER_NO_REFUSE=1): the judge and the runner's syscall filter must hold on
# their own. The book's solution, built the same way, must score full marks.
set -u
export LC_ALL=C
B=$1
. tests/tap.sh
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1767225600}
make --no-print-directory -s B="$B" gradescope >&2 || { fail "make gradescope"; exit 0; }
T=$(mktemp -d /tmp/hostile-test.XXXXXX)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
H="$T/hostile"; mkdir -p "$H/src"; chmod 755 "$H"
VICTIM="$H/victim"; echo "planted by the hostile suite" > "$VICTIM"; chmod 644 "$VICTIM"
VSUM=$(cksum < "$VICTIM")
LEFT=/tmp/grader-hostile-leftover.$$
# The test users: run_autograder kills every process of its test user after
# each test, so two gradings at once need two users kept for grading (made here
# if missing, as setup.sh makes grader-run).
USERS=(grader-run grader-run2)
if [ "$(id -u)" = 0 ]; then
  for u in "${USERS[@]}"; do
    id "$u" >/dev/null 2>&1 || useradd --system --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin "$u" 2>/dev/null
  done
fi

# A logsoftmax-only copy of the ch02 autograder: the attacks target logsoftmax.
rm -rf "$H/zip"; mkdir -p "$H/zip"
(cd "$H/zip" && unzip -q "$(cd "$OLDPWD" && readlink -f "$B/gradescope/ch02.zip")")
for f in tasks tests; do
  awk -F'\t' '$1 == "logsoftmax"' "$H/zip/pack/grader/$f.tsv" > "$H/x" && mv "$H/x" "$H/zip/pack/grader/$f.tsv"
done
python3 - "$H/zip" "$H/ch02-logsoftmax.zip" <<'PY'
import os, sys, zipfile
top, out = sys.argv[1:]
with zipfile.ZipFile(out, "w") as z:
    for d, _, fs in os.walk(top):
        for f in fs:
            p = os.path.join(d, f)
            info = zipfile.ZipInfo(os.path.relpath(p, top))
            info.external_attr = (0o100000 | os.stat(p).st_mode & 0o777) << 16
            with open(p, "rb") as fh:
                z.writestr(info, fh.read())
PY
# The autograder's image, set up once as Gradescope's is (tap.sh).
autograder_image "$H/ch02-logsoftmax.zip" "$H/image" ||
  { fail "hostile: the autograder's setup builds its judges" "$(head -c 2000 "$H/image.log")"; exit 0; }
STUB="$H/zip/pack/grader/stubs/code/lib/attention/logsoftmax.c"   # the pack's own stub
[ -s "$STUB" ] || { fail "hostile: the ch02 zip has a logsoftmax stub" "$STUB"; exit 0; }
HIDDEN_SRC="$H/r-x/autograder/source/pack/tests/unit/test_logsoftmax.c"   # as graded

# attack NAME HEADER BODY: the stub with HEADER after its first line and BODY
# after the TODO line of logsoftmax's region (both may be empty; \n separates lines).
attack() {
  mkdir -p "$H/src/$1"
  awk -v h="$2" -v b="$3" '
    NR == 1 {print; if (h != "") print h; next}
    {print}
    /TODO\(logsoftmax\)/ && b != "" {print "    " b}' "$STUB" > "$H/src/$1/logsoftmax.c"
}
SOL_BODY=$(sed -n '/^void logsoftmax(float \*x, int n)/,/^}/p' code/lib/attention/logsoftmax.c |
           sed -n '/BEGIN SOLUTION/,/END SOLUTION/p' | grep -v SOLUTION | sed 's|//.*||' | tr '\n' ' ')
mkdir -p "$H/src/solution" "$H/src/stub"
cp code/lib/attention/logsoftmax.c "$H/src/solution/"; cp "$STUB" "$H/src/stub/"
I='#include <stdio.h>\n#include <stdlib.h>'
attack forged_digits "$I" 'printf("[====] Synthesis: Tested: 1 | Passing: %0400d | Failing: 0 | Crashing: 0 \\n", 1); fflush(stdout);'
FORGE='printf("[====] Synthesis: Tested: 1 | Passing: 1000 | Failing: 0 | Crashing: 0 \\n");'
attack forged_line "$I" "$FORGE fflush(stdout);"
attack atexit_forge "$I\nstatic void forge(void) { $FORGE }" "atexit(forge);"
attack constructor "$I\nstatic void forge(void) { $FORGE }\n__attribute__((constructor)) static void early(void) { atexit(forge); }" ""
attack exit_group '#define _GNU_SOURCE\n#include <unistd.h>\n#include <sys/syscall.h>' 'syscall(SYS_exit_group, 0);'
attack exit '#include <stdlib.h>' 'exit(0);'
attack execv '#include <unistd.h>' 'execv("/bin/true", (char *[]){"true", NULL});'
attack own_main '' '}\nint main(void) { return 0; }\nstatic void unused_tail(float *x, int n) { (void)x; (void)n;'
attack criterion_noop 'void criterion_send_assert(void *a);\nvoid criterion_send_assert(void *a) { (void)a; }' ''
attack read_hidden "$I" "{ char l[256]; FILE *f = fopen(\"$HIDDEN_SRC\", \"r\"); while (f && fgets(l, sizeof l, f)) fputs(l, stdout); }"
attack include_hidden "#include \"$HIDDEN_SRC\"" ''
attack include_shadow '#include "/etc/shadow"' ''
attack symlink_plant '#include <unistd.h>' "symlink(\"$VICTIM\", \"results.json.tmp\"); symlink(\"$VICTIM\", \"../results.json\");"
attack write_victim "$I" "{ FILE *f = fopen(\"$VICTIM\", \"w\"); if (f) { fputs(\"owned\", f); fclose(f); } }"
attack fork_holder '#include <unistd.h>' 'if (fork() == 0) { sleep(100); }'
attack fork_storm '#include <unistd.h>' 'for (int k = 0; k < 10000; k++) fork();'
attack env_leak "$I\nextern char **environ;" 'for (char **e = environ; *e; e++) puts(*e);'
attack getenv_leak "$I" 'puts(getenv("GRADER_PROBE") ? getenv("GRADER_PROBE") : "none");'
attack network '#include <sys/socket.h>\n#include <netinet/in.h>' 'socket(AF_INET, SOCK_STREAM, 0);'
attack tmp_leftover "$I" "{ FILE *f = fopen(\"$LEFT\", \"w\"); if (f) { fputs(\"x\", f); fclose(f); } }"
attack off_by_one '' "$SOL_BODY x[n] = 0.0f;"
attack big_rows_skipped '' "if (n > 16) return; $SOL_BODY"
attack endless_loop '' 'for (volatile int spin = 1; spin;) { }'
attack sleep '#define _POSIX_C_SOURCE 200809L\n#include <time.h>' 'nanosleep(&(struct timespec){100, 0}, NULL);'
attack malloc_10gb "$I" '{ volatile char *p = malloc((size_t)10 << 30); if (p) p[0] = 1; }'
attack output_1gb "$I" '{ static char mb[1 << 20]; for (int k = 0; k < 1024; k++) fwrite(mb, 1, sizeof mb, stdout); }'
attack stack_overflow 'static int deep(volatile int k) { volatile char b[4096]; b[0] = (char)k; return deep(k + 1) + b[0]; }' '(void)deep(0);'
attack include_dev_zero '#include "/dev/zero"' ''
attack missing_function '#define logsoftmax logsoftmax_renamed' ''
attack macro_bomb '#define A0 x\n#define A1 A0 A0 A0 A0 A0 A0 A0 A0\n#define A2 A1 A1 A1 A1 A1 A1 A1 A1\n#define A3 A2 A2 A2 A2 A2 A2 A2 A2' 'int bomb[] = {A3 A3 A3 A3 A3 A3 A3 A3};'
ATTACKS=$(ls "$H/src" | grep -vE '^(solution|stub)$')
# Expected when the refusals are on: a named reason (refused ...) or these words.
declare -A WANT=(
  [forged_line]="failed" [forged_digits]="failed" [atexit_forge]="refused.*atexit" [constructor]="refused.*constructor"
  [exit_group]="refused" [exit]="refused.*exit" [execv]="refused" [own_main]="refused.*main"
  [criterion_noop]="refused.*criterion_send_assert" [read_hidden]="refused.*fopen"
  [include_hidden]="refused.*include" [include_shadow]="refused.*include"
  [symlink_plant]="refused" [write_victim]="refused.*fopen" [fork_holder]="refused.*include"
  [fork_storm]="refused.*include" [env_leak]="refused.*environ" [getenv_leak]="refused.*getenv"
  [network]="refused" [tmp_leftover]="refused.*fopen" [off_by_one]="wrote past the end"
  [big_rows_skipped]="" [endless_loop]="did not return" [sleep]="did not return"
  [malloc_10gb]="failed" [output_1gb]="printed more" [stack_overflow]="crashed"
  [include_dev_zero]="refused.*include" [missing_function]="refused.*logsoftmax_renamed"
  [macro_bomb]="compile error|failed")
# With the refusals off, the reason each refused attack must fail for (the
# judge's or the filter's); the attacks not refused are graded once only.
declare -A WANT_BARE=(
  [atexit_forge]="failed" [constructor]="failed" [criterion_noop]="failed"
  [env_leak]="failed" [getenv_leak]="failed" [execv]="system call" [network]="system call"
  [exit]="ended the program" [exit_group]="ended the program"
  [fork_holder]="system call" [fork_storm]="system call" [read_hidden]="system call"
  [symlink_plant]="system call" [tmp_leftover]="system call" [write_victim]="system call"
  [include_hidden]="compile error" [include_shadow]="compile error"
  [missing_function]="link error" [own_main]="link error")
# HOSTILE_ONLY="NAME..." grades only those attacks (to show a planted weakness).
if [ -n "${HOSTILE_ONLY:-}" ]; then ATTACKS=$HOSTILE_ONLY; fi
skip() {   # skip NAME MODE: not graded in this mode
  [ "$2" = bare ] && [ -z "${WANT_BARE[$1]:-}" ]
}

# grade NAME MODE: run_autograder on $H/src/NAME; MODE refuse or bare.
grade_one() {   # grade_one NAME MODE USER
  local root="$H/r-$1-$2" env=(GRADER_CPU=1 GRADER_WALL=2 GRADER_PROBE=canary-$$)
  [ "$2" = bare ] && env+=(GRADER_NO_REFUSE=1)
  [ "$(id -u)" = 0 ] && env+=(GRADER_USER="$3")
  rm -rf "$root"; mkdir -p "$root/autograder/source" "$root/tmp"
  cp -R "$H/image/." "$root/autograder/source/"
  cp -R "$H/src/$1" "$root/autograder/submission"; chmod 755 "$root" "$root/tmp"
  # the hidden test path the attacks name points at this grading's own pack
  sed -i "s#$H/r-x/#$root/#g" "$root/autograder/submission/logsoftmax.c"
  (cd "$root/autograder" && env "${env[@]}" AUTOGRADER_ROOT="$root/autograder" \
     TMPDIR="$root/tmp" timeout 200 bash source/run_autograder > "$root/stdout" 2>&1)
}
JOBS=()   # "NAME MODE", the gradings to make
for mode in refuse bare; do
  for a in solution stub $ATTACKS; do
    skip "$a" "$mode" && continue
    JOBS+=("$a $mode")
  done
done
for slot in 0 1; do   # two workers, each with its own test user
  ( for ((j = slot; j < ${#JOBS[@]}; j += 2)); do
      grade_one ${JOBS[$j]} "${USERS[$slot]}"
    done ) &
done
wait

# verdict FILE -> "score max random_rows_score" (fails unless valid JSON, score <= max,
# every test's score within [0, max_score])
hostile_score() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
top = sum(t["max_score"] for t in r["tests"])
assert 0 <= r["score"] <= top, r["score"]
assert all(0 <= t["score"] <= t["max_score"] for t in r["tests"])
rr = [t["score"] for t in r["tests"] if "random_rows" in t["name"]]
print("%g %g %g" % (r["score"], top, rr[0] if rr else -1))' "$1"
}
for mode in refuse bare; do
  for a in solution stub $ATTACKS; do
    skip "$a" "$mode" && continue
    root="$H/r-$a-$mode"; r="$root/autograder/results/results.json"
    what="hostile ($mode) $a"
    if ! s=$(hostile_score "$r" 2>&1); then
      fail "$what: results.json valid, score <= max" "$s
$(tail -n 5 "$root/stdout")"; continue
    fi
    set -- $s
    out=$(python3 -c 'import json,sys; print("\n".join(t["output"] for t in json.load(open(sys.argv[1]))["tests"]))' "$r")
    if grep -qE 'root:|canary-|2024u|GRADER_SEED' <<<"$out"; then
      fail "$what: no secret reaches results.json" "$(grep -E 'root:|canary-|2024u|GRADER_SEED' <<<"$out" | head -n 3)"
      continue
    fi
    case $a in
      solution) [ "$1" = "$2" ] && [ "$1" != 0 ] && pass "$what scores full marks ($1 / $2)" ||
                  fail "$what scores full marks" "$s"; continue ;;
      stub) [ "$1" = 0 ] && pass "$what scores 0 ($1 / $2)" || fail "$what scores 0" "$s"
            continue ;;
      big_rows_skipped)
        [ "$3" = 0 ] && [ "$1" != "$2" ] && pass "$what loses the hidden random rows ($1 / $2)" ||
          fail "$what loses the hidden random rows" "$s"; continue ;;
    esac
    want=${WANT[$a]}; [ $mode = bare ] && want=${WANT_BARE[$a]}
    reason=$(grep -m1 -oE "$want" <<<"$out" | head -n 1)
    if [ "$1" = 0 ] && { [ -z "$want" ] || [ -n "$reason" ]; }; then
      [ -n "$reason" ] && [ "$reason" != failed ] && { pass "$what scores 0 ($reason)"; continue; }
      pass "$what scores 0 ($(grep -m1 -oE 'refused[^.]*|did not return[^.]*|wrote [a-z ]*|crashed[^.]*|printed more[^.]*|system call[^(]*|ended the program|failed|link error|compile error' <<<"$out" | head -n 1))"
    else
      fail "$what scores 0 with '$want'" "score $s
$(head -c 1500 <<<"$out")"
    fi
  done
done
# Two gradings at once with the same kept test user (an instructor's second
# grade-folder.sh, another course's batch) would kill each other's compilers
# and tests: each kills the user's processes after every test. grade.sh takes
# the user's lock first, so a grading waits while another holds it: here the
# lock is held for 4 s, and the solution graded meanwhile must take at least
# that long and still score full marks.
LOCK=/run/attention-grader/grader-run.lock
if [ "$(id -u)" = 0 ] && mkdir -p -m 700 /run/attention-grader 2>/dev/null; then
  flock "$LOCK" sleep 4 & holder=$!
  sleep 0.3; t0=$EPOCHREALTIME
  grade_one solution same grader-run
  took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'); wait $holder
  s=$(hostile_score "$H/r-solution-same/autograder/results/results.json" 2>&1); set -- $s
  if [ "$1" = "$2" ] && [ "$1" != 0 ] && awk -v t="$took" 'BEGIN { exit !(t >= 3.5) }'; then
    pass "hostile: a grading waits while another holds its test user, then scores full marks ($1 / $2, ${took} s)"
  else fail "hostile: a grading waits while another holds its test user, then scores full marks" \
    "score $s after ${took} s (the lock was held for 4 s)"; fi
fi
[ "$(cksum < "$VICTIM")" = "$VSUM" ] && pass "hostile: the planted victim file is unchanged" ||
  fail "hostile: the planted victim file is unchanged" "$(head -c 200 "$VICTIM")"
if [ "$(id -u)" = 0 ]; then
  left=$(pgrep -U grader-run,grader-run2 -a 2>/dev/null)
  [ -z "$left" ] && pass "hostile: no process of the test user survives" ||
    fail "hostile: no process of the test user survives" "$left"
fi
[ ! -e "$LEFT" ] && pass "hostile: no file left in /tmp" || fail "hostile: no file left in /tmp" "$LEFT"
