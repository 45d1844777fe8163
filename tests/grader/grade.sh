#!/usr/bin/env bash
# grade.sh -- grade an assignment pack: build it, run every graded test in its own
# limited process, print a score table and write results.json (Gradescope's format).
#
#   grader/grade.sh [-o RESULTS.json] [-q]      (run from the pack's top directory)
#
# Reads grader/tasks.tsv (task, source file, what to write) and grader/tests.tsv
# (task, test file, Criterion suite/test, points, visible|hidden). It always
# finishes and always writes its results: a file that does not compile falls back
# to its stub (its tasks score 0 with the compiler's message), a test that crashes,
# hangs or floods its output scores 0 with a message saying which.
#
# Limits (environment): GRADER_CPU seconds of CPU per test (5), GRADER_WALL seconds
# of wall time per test (3 x CPU), GRADER_MEM_MB address space (1024), GRADER_OUT_KB
# output kept per test (256; more is a flood), GRADER_USER run tests as this user
# when started as root (e.g. nobody), GRADER_HIDDEN_VISIBILITY (visible) and
# GRADER_CC (cc). Needs only bash, coreutils, make's compiler and Criterion.
set -u
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
PACK=$(pwd)
RESULTS=results.json
QUIET=0
while [ $# -gt 0 ]; do
  case "$1" in
    -o) RESULTS=$2; shift 2 ;;
    -q) QUIET=1; shift ;;
    *) echo "usage: grader/grade.sh [-o RESULTS.json] [-q]" >&2; exit 2 ;;
  esac
done
case "$RESULTS" in /*) ;; *) RESULTS=$PACK/$RESULTS ;; esac

CPU=${GRADER_CPU:-5}
WALL=${GRADER_WALL:-$((3 * CPU))}
MEM_KB=$(( ${GRADER_MEM_MB:-1024} * 1024 ))
CAP=$(( ${GRADER_OUT_KB:-256} * 1024 ))
CC=${GRADER_CC:-cc}
HIDDEN_VIS=${GRADER_HIDDEN_VISIBILITY:-visible}
# Warnings are shown, never fatal: a student loses points for wrong results only.
CFLAGS="-std=c11 -O2 -ffp-contract=off -Wall -Wextra -Icode/lib"
START=$(date +%s)

W=$(mktemp -d "${TMPDIR:-/tmp}/grade.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/obj" "$W/bin" "$W/msg" "$W/run"
chmod 755 "$W" "$W/bin"; chmod 1777 "$W/run"

say() { [ "$QUIET" = 1 ] || printf '%s\n' "$*"; }
# Keep the first lines of a message (compiler errors can be long).
head_msg() { head -c 4000 "$1" | head -n 40; }

# Drop root privileges for the tests when asked and possible.
DROP=()
if [ "$(id -u)" = 0 ] && [ -n "${GRADER_USER:-}" ] && command -v setpriv >/dev/null; then
  uid=$(id -u "$GRADER_USER" 2>/dev/null) && gid=$(id -g "$GRADER_USER") &&
    DROP=(setpriv --reuid="$uid" --regid="$gid" --clear-groups --)
fi

# ---------------------------------------------------------------------------
# The manifest

declare -A TASK_SRC=() BROKEN=() MISSING=() BIN_MSG=()
TASKS=()
while IFS=$'\t' read -r task src _todo; do
  case "$task" in ''|'#'*) continue ;; esac
  TASKS+=("$task"); TASK_SRC[$task]=$src
done < grader/tasks.tsv
if [ -f grader/missing.txt ]; then
  while IFS= read -r f; do [ -n "$f" ] && MISSING[$f]=1; done < grader/missing.txt
fi
is_task_src() { local t; for t in "${TASKS[@]}"; do [ "${TASK_SRC[$t]}" = "$1" ] && return 0; done; return 1; }

# ---------------------------------------------------------------------------
# Build: each library file on its own, so one broken file breaks only its tasks

compile() {   # compile SRC OBJ LOG -- under a time limit and an output cap
  ( ulimit -t 60; ulimit -v $((2 * MEM_KB)) 2>/dev/null
    timeout -k 2 120 "$CC" $CFLAGS -c "$1" -o "$2" ) > "$3.full" 2>&1
  local rc=$?
  head -c 20000 "$3.full" > "$3"; rm -f "$3.full"
  return $rc
}

say "building the library"
FATAL=""
for src in $(ls code/lib/*/*.c 2>/dev/null | sort); do
  obj="$W/obj/$(echo "$src" | tr / _).o"
  log="$W/msg/$(echo "$src" | tr / _).log"
  if compile "$src" "$obj" "$log"; then continue; fi
  if is_task_src "$src" && [ -f "grader/stubs/$src" ]; then
    BROKEN[$src]=$log
    say "  $src does not compile: its tasks score 0 (the stub is used instead)"
    compile "grader/stubs/$src" "$obj" "$log.stub" || FATAL="$FATAL$src "
  else
    FATAL="$FATAL$src "
  fi
done
LIB="$W/libpack.a"
if [ -z "$FATAL" ]; then
  ar rcs "$LIB" "$W"/obj/*.o 2>"$W/msg/ar.log" || FATAL="the library archive"
fi
if [ -n "$FATAL" ]; then
  say "  cannot build: $FATAL"
  { echo "The pack does not build: $FATAL"; for f in $FATAL; do
      l="$W/msg/$(echo "$f" | tr / _).log"; [ -f "$l" ] && head_msg "$l"; done; } > "$W/msg/fatal"
fi

# One binary per test file named in the manifest.
GUARD="-Wl,--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit"
TEST_FILES=$(awk -F'\t' '$1 !~ /^#/ && NF >= 5 {print $2}' grader/tests.tsv | sort -u)
for tf in $TEST_FILES; do
  [ -n "$FATAL" ] && break
  log="$W/msg/$tf.log"
  # With the exit() guard (GNU ld); without it where the linker has no --wrap.
  if ( ulimit -t 60; timeout -k 2 120 "$CC" $CFLAGS -Wno-unused-function \
         "tests/unit/$tf.c" grader/guard.c "$LIB" $GUARD -lcriterion -lm -o "$W/bin/$tf" \
     ) > "$log" 2>&1 ||
     ( ulimit -t 60; timeout -k 2 120 "$CC" $CFLAGS -Wno-unused-function \
         "tests/unit/$tf.c" "$LIB" -lcriterion -lm -o "$W/bin/$tf" ) > "$log" 2>&1; then
    continue
  fi
  BIN_MSG[$tf]=$log
  say "  tests/unit/$tf.c does not build against the submission"
done

# ---------------------------------------------------------------------------
# Run: one process per graded test, with limits

# run_test BIN FILTER OUT -> prints "status elapsed"
run_test() {
  local t0 t1 rc
  t0=$(date +%s%N)
  ( cd "$W/run" || exit 99
    ulimit -t "$CPU"; ulimit -v "$MEM_KB"; ulimit -f 32768; ulimit -c 0
    # Fork bombs: a process limit only for the unprivileged user (it counts all of
    # a user's processes, so a student's own desktop would hit it).
    [ ${#DROP[@]} -gt 0 ] && ulimit -u 256
    exec "${DROP[@]}" timeout -k 1 "$WALL" "$1" --filter "$2" -j1 --color=never \
      --short-filename </dev/null
  ) 2>&1 | head -c $((CAP + 1)) > "$3"
  rc=${PIPESTATUS[0]}
  t1=$(date +%s%N)
  echo "$rc $(( (t1 - t0) / 1000000 ))"
}

json_str() {   # stdin -> a JSON string (ASCII: other bytes are dropped)
  printf '"'
  tr -d '\000-\010\013-\037\177-\377' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' |
    awk 'NR > 1 {printf "\\n"} {printf "%s", $0}'
  printf '"'
}

declare -a ROWS=()
JSON_TESTS=""
TOTAL=0; MAX=0; N=0
TSV="${RESULTS%.json}.tsv"
: > "$W/tsv"
while IFS=$'\t' read -r task tf filter points vis; do
  case "$task" in ''|'#'*) continue ;; esac
  N=$((N + 1))
  src=${TASK_SRC[$task]:-}
  out="$W/out.$N"; msg="$W/msg.$N"; : > "$msg"
  score=0; verdict=""
  if [ -n "$FATAL" ]; then
    verdict="build failed"; cat "$W/msg/fatal" > "$msg"
  elif [ -n "$src" ] && [ -n "${MISSING[$src]:-}" ]; then
    verdict="not submitted"; echo "$(basename "$src") was not found in the submission." > "$msg"
  elif [ -n "$src" ] && [ -n "${BROKEN[$src]:-}" ]; then
    verdict="compile error"
    { echo "$src does not compile, so $task scores 0:"; head_msg "${BROKEN[$src]}"; } > "$msg"
  elif [ -n "${BIN_MSG[$tf]:-}" ]; then
    verdict="link error"
    { echo "tests/unit/$tf.c does not build against the submission:"; head_msg "${BIN_MSG[$tf]}"; } > "$msg"
  else
    read -r rc ms < <(run_test "$W/bin/$tf" "$filter" "$out")
    size=$(wc -c < "$out")
    syn=$(grep -a '^\[====\] Synthesis:' "$out" | tail -n 1)
    tested=$(echo "$syn" | sed -n 's/.*Tested: \([0-9]*\).*/\1/p')
    passing=$(echo "$syn" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
    crashing=$(echo "$syn" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
    if [ "$size" -gt "$CAP" ]; then
      verdict="output flood"
      echo "The test printed more than $((CAP / 1024)) KB and was stopped; it scores 0. Remove the printing from your function." > "$msg"
    elif [ "$rc" = 124 ] || [ "$rc" = 137 ] ||
         { [ "$ms" -ge $((CPU * 1000)) ] && [ "$passing" != "$tested" ]; }; then
      verdict="time limit"
      echo "The test did not finish within the limit of $CPU s of CPU time ($WALL s wall) and was stopped; it scores 0. Look for an endless loop." > "$msg"
    elif grep -aq '^grader: the code called' "$out"; then
      verdict="called exit"
      echo "The code $(grep -a -m1 '^grader: the code called' "$out" | sed 's/^grader: the code //'): a graded function must return, not end the program; it scores 0." > "$msg"
    elif [ -z "$tested" ]; then
      verdict="crashed"
      echo "The test program died before reporting (exit status $rc); it scores 0." > "$msg"
    elif [ "$tested" = 0 ]; then
      verdict="no such test"
      echo "Manifest error: no test matches $filter in $tf (tell your instructor)." > "$msg"
    else
      score=$(awk -v p="$points" -v a="$passing" -v b="$tested" 'BEGIN {printf "%g", p * a / b}')
      if [ "$passing" = "$tested" ]; then verdict="passed"
      elif [ "${crashing:-0}" != 0 ]; then
        verdict="crashed"
        echo "The function crashed (a bad memory access, an abort, or the memory limit of ${GRADER_MEM_MB:-1024} MB); it scores 0 for the crashed cases." > "$msg"
      else verdict="failed"
      fi
      [ "$tested" -gt 1 ] && verdict="$verdict ($passing/$tested)"
    fi
    # What the student sees: visible tests show Criterion's report, hidden ones only
    # the verdict (their code and assertion text stay secret).
    if [ "$vis" = visible ] && [ "${verdict%% *}" != passed ]; then
      { head -c 3000 "$out" | grep -av '^\[====\]'; } >> "$msg"
    elif [ "$vis" != visible ] && [ "${verdict%% *}" != passed ]; then
      echo "Hidden test $filter: $verdict." >> "$msg"
    fi
  fi
  TOTAL=$(awk -v a="$TOTAL" -v b="$score" 'BEGIN {printf "%g", a + b}')
  MAX=$(awk -v a="$MAX" -v b="$points" 'BEGIN {printf "%g", a + b}')
  name="$task: $filter"
  [ "$vis" = visible ] && jv=visible || jv=$HIDDEN_VIS
  ROWS+=("$(printf '%-66.66s %5s / %-3s %s' "$name" "$score" "$points" "$verdict")")
  printf '%s\t%s\t%s\t%s\n' "$name" "$score" "$points" "$verdict" >> "$W/tsv"
  [ -n "$JSON_TESTS" ] && JSON_TESTS="$JSON_TESTS,"
  JSON_TESTS="$JSON_TESTS
    {\"name\": $(printf '%s' "$name" | json_str), \"score\": $score, \"max_score\": $points,
     \"visibility\": \"$jv\", \"output\": $(printf '%s\n' "$verdict" | cat - "$msg" | json_str)}"
done < grader/tests.tsv

ELAPSED=$(( $(date +%s) - START ))
SUMMARY="Score: $TOTAL / $MAX ($N graded tests, limits: $CPU s CPU, ${GRADER_MEM_MB:-1024} MB, $((CAP / 1024)) KB output per test)"
{
  printf '{\n  "score": %s,\n  "execution_time": %s,\n  "output": %s,\n  "tests": [%s\n  ]\n}\n' \
    "$TOTAL" "$ELAPSED" "$(printf '%s\n' "$SUMMARY" | json_str)" "$JSON_TESTS"
} > "$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS"
mv "$W/tsv" "$TSV"

if [ "$QUIET" != 1 ]; then
  printf '\n%-66s %11s %s\n' "test" "points" "verdict"
  printf '%s\n' "${ROWS[@]}"
  printf '%s\n' "$SUMMARY"
  echo "details: $RESULTS"
fi
exit 0
