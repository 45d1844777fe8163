#!/usr/bin/env bash
# grade.sh -- grade an assignment pack: build the submission as the test user,
# refuse what it has no business defining, run every graded test with a judge
# that holds no student code, print a score table and write results.json.
#
#   grader/grade.sh [-o RESULTS.json] [-q]      (run from the pack's top directory)
#   grader/grade.sh --prebuild                  (once, when the autograder is set up)
#
# --prebuild builds what holds no student code -- the judges, the runner's own
# objects, the pack's library files that hold no task and the stubs' objects --
# into grader/built/,
# with a checksum of the pack files they were built from; a grading uses them when the checksum still matches, and builds
# them itself otherwise (a student's pack has none: make grade builds them).
#
# Reads grader/tasks.tsv (task, source file, what to write) and grader/tests.tsv
# (task, test file, Criterion suite/test, points, visible|hidden). Every task is
# judged across two processes (grader/call.h, grader/calls/TASK.c): the test
# binary (the judge) is built from the stubs and holds no student code; the
# student's function runs in a runner, as the test user, under a syscall filter;
# only the judge's own report counts, and what the runner prints is only shown.
#
# Limits (environment): GRADER_CPU seconds of CPU per test (5), GRADER_WALL seconds
# of wall time per test (3 x CPU), GRADER_MEM_MB address space (1024), GRADER_OUT_KB
# output kept per test (256), GRADER_USER the test user when started as root
# (compiling and running drop to it; nobody if unset), GRADER_SEED the seed of the
# hidden inputs (default: 8 bytes of /dev/urandom, recorded in results.json),
# GRADER_NO_REFUSE (set: skip the include and symbol refusals, to test that the
# judge and the runner's filter hold on their own),
# GRADER_HIDDEN_VISIBILITY (visible) and GRADER_CC (cc).
set -u
export LC_ALL=C
umask 022
cd "$(dirname "$0")/.." || exit 2
PACK=$(pwd)
RESULTS=results.json
QUIET=0
PREBUILD=0
while [ $# -gt 0 ]; do
  case "$1" in
    -o) [ $# -ge 2 ] || { echo "grade.sh: -o needs a file name" >&2; exit 2; }
        RESULTS=$2; shift 2 ;;
    -q) QUIET=1; shift ;;
    --prebuild) PREBUILD=1; shift ;;
    *) echo "usage: grader/grade.sh [-o RESULTS.json] [-q] | grader/grade.sh --prebuild" >&2; exit 2 ;;
  esac
done
case "$RESULTS" in /*) ;; *) RESULTS=$PACK/$RESULTS ;; esac

CPU=${GRADER_CPU:-5}
WALL=${GRADER_WALL:-$((3 * CPU))}
MEM_MB=${GRADER_MEM_MB:-1024}
MEM_KB=$(( MEM_MB * 1024 ))
OUT_KB=${GRADER_OUT_KB:-256}
CAP=$(( OUT_KB * 1024 ))
CC=${GRADER_CC:-cc}
SEED=${GRADER_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
# Warnings are shown, never fatal: a student loses points for wrong results only.
CFLAGS="-std=c11 -O2 -ffp-contract=off -Wall -Wextra -Icode/lib"

W=$(mktemp -d "${TMPDIR:-/tmp}/grade.XXXXXX") || exit 2
chmod 711 "$W"
mkdir -p "$W/msg" "$W/stub" && chmod 700 "$W/msg" "$W/stub"
mkdir -p "$W/bin" && chmod 755 "$W/bin"

say() { [ "$QUIET" = 1 ] || printf '%s\n' "$*"; }
head_msg() { head -c 4000 "$1" | head -n 40; }   # compiler errors can be long

# The test user: as root, every compile and every run of student code drops to
# GRADER_USER; without root everything runs as the caller (see the guide).
AS=(); RUN_UID=""; RUN_GID=""; SWEEP=0
if [ "$(id -u)" = 0 ]; then
  GRADER_USER=${GRADER_USER:-nobody}   # never run a submission as root
  RUN_UID=$(id -u "$GRADER_USER" 2>/dev/null) && RUN_GID=$(id -g "$GRADER_USER") &&
    [ "$RUN_UID" != 0 ] || { echo "grade.sh: as root, GRADER_USER must name an unprivileged user" >&2; exit 2; }
  AS=(setpriv --reuid="$RUN_UID" --regid="$RUN_GID" --clear-groups --inh-caps=-all --)
  # Killing every process of the user is safe only for a user kept for grading.
  [ "$GRADER_USER" != nobody ] && [ "$PREBUILD" = 0 ] && SWEEP=1
fi
# Two gradings with one kept test user would kill each other's compilers and
# tests (each sweeps the user): one at a time, by a lock in a folder only root
# can write (a lock in /tmp could be a student's symlink). fd 9, the lock, is
# closed for everything run as the test user (compile_as, run_judged).
if [ "$SWEEP" = 1 ]; then
  L=/run/attention-grader
  if mkdir -p -m 700 "$L" 2>/dev/null && [ -d "$L" ] && [ ! -L "$L" ] &&
     [ "$(stat -c %u "$L")" = 0 ] && exec 9>>"$L/$GRADER_USER.lock"; then
    flock -w 900 9 || { echo "grade.sh: another grading kept $GRADER_USER for 900 s" >&2
                        rm -rf "$W"; exit 2; }
  fi
fi
# Kill every process of the user, again until none is left (one forked while
# pkill read the process table escapes a single pass).
sweep() {
  [ "$SWEEP" = 1 ] || return 0
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do
    pkill -KILL -U "$RUN_UID" 2>/dev/null || return 0; sleep 0.05
  done
  return 0
}
cleanup() { sweep; [ -n "${GRADER_KEEP:-}" ] && { echo "kept $W" >&2; return; }; rm -rf "$W"; }
trap cleanup EXIT

# ---------------------------------------------------------------------------
# The manifest

declare -A TASK_SRC=() BROKEN=() MISSING=() REFUSED=()
TASKS=()
while IFS=$'\t' read -r task src _todo; do
  case "$task" in ''|'#'*) continue ;; esac
  TASKS+=("$task"); TASK_SRC[$task]=$src
  [ -f "grader/calls/$task.c" ] || { echo "grade.sh: task $task has no grader/calls/$task.c" >&2; exit 2; }
done < grader/tasks.tsv
if [ -f grader/missing.txt ]; then
  while IFS= read -r f; do [ -n "$f" ] && MISSING[$f]=1; done < grader/missing.txt
fi
is_task_src() { local t; for t in "${TASKS[@]}"; do [ "${TASK_SRC[$t]}" = "$1" ] && return 0; done; return 1; }

# ---------------------------------------------------------------------------
# What holds no student code, built once per pack (--prebuild) or per grading:
# the runner's own objects (our main, the call shims) and the judges (test files
# + the stubbed library + proxies).

SECCOMP=-lseccomp
echo 'int main(void){return 0;}' > "$W/t.c"
"$CC" "$W/t.c" -lseccomp -o "$W/t" 2>/dev/null || SECCOMP="-DGRADER_NO_SECCOMP"
calls=(); for t in "${TASKS[@]}"; do calls+=("grader/calls/$t.c"); done
TEST_FILES=$(awk -F'\t' '$1 !~ /^#/ && NF >= 5 {print $2}' grader/tests.tsv | sort -u)

# A task the book keeps static (attend_row_backward) is made visible, in the
# submission and in the stubs alike, so the runner can call it and the judge's
# copy of its file calls the proxy.
unstatic() {   # unstatic FILE (in place)
  local t e=()
  for t in "${TASKS[@]}"; do
    e+=(-e "s/^static[[:space:]]+(([A-Za-z_][A-Za-z0-9_]*[[:space:]*]+)+$t[[:space:]]*\()/\1/")
  done
  [ ${#e[@]} -eq 0 ] || sed -i -E "${e[@]}" "$1"
}
# fixed_sum: a checksum of what build_fixed reads (every pack file but the task
# sources, which a submission replaces) and of how it compiles
fixed_sum() {
  { "$CC" --version 2>&1 | head -n 1; echo "$CFLAGS $SECCOMP"
    find code grader tests -type f ! -path 'grader/built*' ! -path grader/missing.txt | sort |
      grep -vxF -f <(printf '%s\n' "${TASK_SRC[@]}") | xargs -r -d '\n' sha256sum
  } | sha256sum | cut -d' ' -f1
}
# build_fixed DIR [lib]: DIR/runner/*.o and DIR/judge/TESTFILE (a judge that does
# not build is left out: its tests report a link error); messages in $W/msg. With
# "lib" (--prebuild) also DIR/lib/*.o: the pack's library files that hold no task,
# compiled as a grading compiles them (the same flags, from the same folder),
# which a grading that uses DIR then copies instead of compiling them again; and
# DIR/stub/*.o, the task files' stubs whose symbols a submission's are compared with.
build_fixed() {
  local d=$1 src s o t tf def="" weak
  mkdir -p "$d/runner" "$d/jobj" "$d/judge"
  [ "$SECCOMP" != -lseccomp ] && def=$SECCOMP
  { echo '#include "call.h"'
    for t in "${TASKS[@]}"; do echo "GRADER_SHIM($t);"; done
    echo 'typedef struct { const char *name; grader_shim_fn *fn; } shim_entry;'
    echo 'extern const shim_entry grader_shims[]; extern const int grader_nshims;'
    echo 'const shim_entry grader_shims[] = {'
    for t in "${TASKS[@]}"; do echo "  {\"$t\", grader_shim_$t},"; done
    echo '}; const int grader_nshims = sizeof grader_shims / sizeof *grader_shims;'
  } > "$d/shims.c"
  "$CC" $CFLAGS -Igrader $def -c grader/runner.c -o "$d/runner/runner.o" &&
    "$CC" $CFLAGS -Igrader $def -c "$d/shims.c" -o "$d/runner/shims.o" || return 1
  for t in "${TASKS[@]}"; do
    "$CC" $CFLAGS -Igrader $def -c "grader/calls/$t.c" -o "$d/runner/call_$t.o" || return 1
  done
  # The judges' library: the pack's stubs (never the submission), unoptimised so
  # that a call inside a file goes through the symbol the proxy replaces.
  for src in code/lib/*/*.c; do
    s=$src; [ -f "grader/stubs/$src" ] && s="grader/stubs/$src"
    o="$d/jobj/${src//\//_}.o"
    cp "$s" "$d/src.c"; unstatic "$d/src.c"
    "$CC" -std=c11 -O0 -ffp-contract=off -Icode/lib -I"${src%/*}" \
      -c "$d/src.c" -o "$o" 2>>"$W/msg/judge.log"
    weak=(); for t in "${TASKS[@]}"; do weak+=("--weaken-symbol=$t"); done
    objcopy "${weak[@]}" "$o"
  done
  ar rcs "$d/jlib.a" "$d"/jobj/*.o
  for tf in $TEST_FILES; do
    "$CC" $CFLAGS -O0 -Igrader -DGRADER_JUDGE -Wno-unused-function "tests/unit/$tf.c" \
      grader/judge.c "${calls[@]}" "$d/jlib.a" -lcriterion -lm \
      -o "$d/judge/$tf" > "$W/msg/judge-$tf.log" 2>&1 || rm -f "$d/judge/$tf"
  done
  rm -rf "$d/jobj" "$d/jlib.a" "$d/src.c" "$d/shims.c"
  if [ "${2:-}" = lib ]; then
    mkdir -p "$d/lib" "$d/stub"
    for src in code/lib/*/*.c; do
      if is_task_src "$src"; then   # the stub a submitted file's symbols are compared with
        o="$d/stub/${src//\//_}"
        [ -f "grader/stubs/$src" ] || continue
        cp "grader/stubs/$src" "$o.c"; unstatic "$o.c"
        "$CC" $CFLAGS -c "$o.c" -o "$o.o" 2>/dev/null || rm -f "$o.o"
        rm -f "$o.c"
        continue
      fi
      o="$d/lib/${src//\//_}.o"
      "$CC" $CFLAGS -c "$src" -o "$o" 2>/dev/null || rm -f "$o"
    done
  fi
}

if [ "$PREBUILD" = 1 ]; then
  sum=$(fixed_sum)
  rm -rf grader/built.tmp
  # every judge builds from the stubs alone, or the pack is broken: say which
  if build_fixed grader/built.tmp lib > "$W/msg/runner.log" 2>&1; then
    for tf in $TEST_FILES; do
      [ -x "grader/built.tmp/judge/$tf" ] ||
        echo "the judge $tf does not build: $(head -c 600 "$W/msg/judge-$tf.log")" >> "$W/msg/runner.log"
    done
    if ! grep -q '^the judge ' "$W/msg/runner.log" && echo "$sum" > grader/built.tmp/sum; then
      rm -rf grader/built && mv -T grader/built.tmp grader/built &&
        { echo "grade.sh: the judges and the runner's objects are in grader/built"; exit 0; }
    fi
  fi
  echo "grade.sh: --prebuild failed: $(head -c 1500 "$W/msg/runner.log")" >&2
  rm -rf grader/built.tmp; exit 1
fi
# A grading uses grader/built when it was made from this pack, else builds its own.
FIXED=$W/fixed
if [ -f grader/built/sum ] && [ "$(cat grader/built/sum)" = "$(fixed_sum)" ]; then
  FIXED=$PACK/grader/built
elif ! build_fixed "$FIXED" > "$W/msg/runner.log" 2>&1; then
  echo "grade.sh: the runner's own objects do not build: $(head -c 1000 "$W/msg/runner.log")" >&2; exit 2
fi

# ---------------------------------------------------------------------------
# Build the submission: a copy of the pack's library owned by the test user,
# compiled by it, then taken back before anything is linked.

B="$W/build"
mkdir -p "$B/tmp" && cp -R code "$B/code"   # tmp: the compiler's, removed with $W
for src in $(printf '%s\n' "${TASK_SRC[@]}" | sort -u); do
  [ -f "$B/$src" ] && unstatic "$B/$src"
done
[ -n "$RUN_UID" ] && chown -R "$RUN_UID:$RUN_GID" "$B"

compile_as() {   # compile_as SRC OBJ LOG (inside $B, as the test user, limited)
  ( cd "$B" && ulimit -t 60 && ulimit -v $((2 * MEM_KB)) 2>/dev/null
    exec 9>&-
    exec "${AS[@]}" env -i PATH=/usr/bin:/bin LC_ALL=C TMPDIR="$B/tmp" timeout -k 2 120 \
      "$CC" $CFLAGS -c "$1" -o "$2" ) > "$3.full" 2>&1
  local rc=$?
  head -c 20000 "$3.full" > "$3"; rm -f "$3.full"
  return $rc
}

# A submitted source may include only the pack's headers and the C library's,
# and may not carry assembly (which could .incbin any file).
STD_H='assert|complex|ctype|errno|fenv|float|inttypes|iso646|limits|locale|math|stdalign|stdarg|stdatomic|stdbool|stddef|stdint|stdio|stdlib|stdnoreturn|string|tgmath|time|uchar|wchar|wctype'
source_refusal() {   # source_refusal FILE -> prints one line, or nothing
  local bad
  bad=$(grep -nE '^[[:space:]]*#[[:space:]]*(include|embed|include_next|import)' "$1" |
        grep -vE "#[[:space:]]*include[[:space:]]*(<($STD_H)\.h>|\"[A-Za-z0-9_]+(/[A-Za-z0-9_]+)?\.h\")[[:space:]]*(//.*)?$" |
        head -n 1)
  [ -n "$bad" ] && { echo "line ${bad%%:*}: only the pack's headers and the C standard headers may be included"; return; }
  bad=$(grep -nE '(^|[^A-Za-z0-9_])(asm|__asm__|__asm|_Pragma)([^A-Za-z0-9_]|$)|__has_include|__FILE__|\\$' "$1" | head -n 1)
  [ -n "$bad" ] && echo "line ${bad%%:*}: assembly, _Pragma, __has_include, __FILE__ and line splices are not accepted"
}

# Symbols a graded function has no business referring to.
FORBIDDEN='^(main|_start|_init|_fini|exec[a-z]*|fexecve|fork|vfork|clone|clone3|system|popen|posix_spawn[a-z]*|syscall|atexit|at_quick_exit|on_exit|__cxa_atexit|__cxa_thread_atexit_impl|exit|_exit|_Exit|quick_exit|dlopen|dlsym|dlmopen|socket|connect|bind|ptrace|kill|signal|sigaction|raise|setjmp|longjmp|_setjmp|__longjmp_chk|open|open64|openat|fopen|fopen64|freopen|creat|unlink|symlink|link|rename|remove|chmod|chown|mkdir|getenv|secure_getenv|setenv|putenv|environ|__environ|__libc_start_main|pthread_create|mmap|mprotect|prctl|seccomp)$'
symbol_refusal() {   # symbol_refusal SUBMITTED.o STUB.o -> one line, or nothing
  local s
  if objdump -h "$1" 2>/dev/null | grep -qE '\.(init_array|fini_array|ctors|dtors|preinit_array)'; then
    echo "defines a constructor or destructor (code that runs before or after the tests)"; return
  fi
  s=$(comm -23 <(nm -g --defined-only "$1" 2>/dev/null | awk '{print $NF}' | sort -u) \
               <(nm -g --defined-only "$2" 2>/dev/null | awk '{print $NF}' | sort -u) | head -n 1)
  [ -n "$s" ] && { echo "defines '$s', which the stub does not (make helpers static)"; return; }
  s=$(nm -u "$1" 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' | grep -E "$FORBIDDEN" | head -n 1)
  [ -n "$s" ] && echo "refers to '$s', which a graded function has no business calling"
}

say "building the library"
FATAL=""
mkdir -p "$B/obj"; [ -n "$RUN_UID" ] && chown "$RUN_UID:$RUN_GID" "$B/obj"
submitted() {   # submitted SRC: a task file the student changed (else the pack's own)
  [ -f "grader/stubs/$1" ] && is_task_src "$1" && [ -z "${MISSING[$1]:-}" ] &&
    ! cmp -s "$1" "grader/stubs/$1"
}
use_stub() {   # use_stub SRC: the stub replaces a refused or broken file
  cp "grader/stubs/$1" "$B/$1"; unstatic "$B/$1"
  compile_as "$1" "obj/${1//\//_}.o" "$W/msg/${1//\//_}.log.lib" ||
    FATAL="$FATAL$1 "
}
SRCS=$(cd "$B" && ls code/lib/*/*.c 2>/dev/null | sort)
for src in $SRCS; do
  base=${src//\//_}
  if submitted "$src"; then
    why=""; [ -z "${GRADER_NO_REFUSE:-}" ] && why=$(source_refusal "$B/$src")
    if [ -n "$why" ]; then
      REFUSED[$src]="${src##*/} is refused ($why)"; say "  ${REFUSED[$src]}"
      use_stub "$src"
    elif ! compile_as "$src" "obj/$base.o" "$W/msg/$base.log"; then
      BROKEN[$src]="$W/msg/$base.log"
      say "  $src does not compile: its tasks score 0 (the stub is used instead)"
      use_stub "$src"
    fi
  elif ! is_task_src "$src" && [ -f "$FIXED/lib/$base.o" ]; then
    cp "$FIXED/lib/$base.o" "$B/obj/$base.o"   # the pack's own file, compiled by --prebuild
  else
    compile_as "$src" "obj/$base.o" "$W/msg/$base.log.lib" || FATAL="$FATAL$src "
  fi
done
# Take the objects back, then compare each submitted one with its stub's symbols.
[ -n "$RUN_UID" ] && chown -R 0:0 "$B"
for src in $SRCS; do
  [ -z "${GRADER_NO_REFUSE:-}" ] && submitted "$src" && [ -z "${REFUSED[$src]:-}" ] && [ -z "${BROKEN[$src]:-}" ] || continue
  base=${src//\//_}
  stub=$FIXED/stub/$base.o   # compiled by --prebuild, or here
  if [ ! -f "$stub" ]; then
    stub=$W/stub/$base.o
    cp "grader/stubs/$src" "$W/stub/$base.c"; unstatic "$W/stub/$base.c"
    "$CC" $CFLAGS -c "$W/stub/$base.c" -o "$stub" 2>/dev/null
  fi
  why=$(symbol_refusal "$B/obj/$base.o" "$stub")
  if [ -n "$why" ]; then
    REFUSED[$src]="${src##*/} is refused: it $why"; say "  ${REFUSED[$src]}"
    cp "grader/stubs/$src" "$B/$src"; unstatic "$B/$src"
    "$CC" $CFLAGS -c "$B/$src" -o "$B/obj/$base.o" > "$W/msg/$base.log.lib" 2>&1 ||
      FATAL="$FATAL$src "
  fi
done
[ -n "$RUN_UID" ] && chown -R 0:0 "$B"
chmod -R go-w "$B"
LIB="$W/libpack.a"
if [ -z "$FATAL" ]; then
  ar rcs "$LIB" "$B"/obj/*.o 2>"$W/msg/ar.log" || FATAL="the library archive"
fi
if [ -n "$FATAL" ]; then
  say "  cannot build: $FATAL"
  { echo "The pack does not build: $FATAL"; for f in $FATAL; do
      l="$W/msg/${f//\//_}.log.lib"; [ -f "$l" ] && head_msg "$l"; done; } > "$W/msg/fatal"
fi

# ---------------------------------------------------------------------------
# The runner: the submission's library linked with our main and the call shims

RUNNER_OK=0
if [ -z "$FATAL" ]; then
  lseccomp=""; [ "$SECCOMP" = -lseccomp ] && lseccomp=-lseccomp
  if "$CC" "$FIXED"/runner/*.o "$LIB" $lseccomp -lm -o "$W/bin/runner" >> "$W/msg/runner.log" 2>&1
  then RUNNER_OK=1; chmod 755 "$W/bin/runner"
  else say "  the runner does not link against the submission"; fi
fi
chmod 755 "$W/bin" "$W"/bin/* 2>/dev/null   # Criterion re-reads its own binary

# ---------------------------------------------------------------------------
# Run: one process per graded test, with limits

# run_judged TESTFILE FILTER OUT RUNOUT -> the judge's exit status in RC; the
# judge runs as us. (Not in a $(...): a grading forks as few shells as it can.)
run_judged() {
  local dir="$W/run.$N"
  mkdir -p "$dir"; : > "$4"
  [ -n "$RUN_UID" ] && chown "$RUN_UID:$RUN_GID" "$dir" && chmod 700 "$dir"
  ( ulimit -c 0
    exec 9>&-
    exec env -i PATH=/usr/bin:/bin LC_ALL=C GRADER_RUNNER="$W/bin/runner" \
      GRADER_RUN_DIR="$dir" GRADER_RUN_OUT="$4" GRADER_RUN_UID="$RUN_UID" \
      GRADER_RUN_GID="$RUN_GID" GRADER_CALL_SECONDS="$WALL" GRADER_CPU="$CPU" \
      GRADER_MEM_MB="$MEM_MB" GRADER_OUT_KB="$OUT_KB" GRADER_SEED="$SEED" \
      timeout -k 1 "$((WALL * 2))" "$FIXED/judge/$1" --filter "$2" -j1 --color=never \
      --short-filename </dev/null ) > "$3" 2>&1
  RC=$?
  sweep; rm -rf "$dir"
}

declare -a ROWS=()
TOTAL_ROWS="$W/rows.tsv"; : > "$TOTAL_ROWS"
N=0
while IFS=$'\t' read -r task tf filter points vis; do
  case "$task" in ''|'#'*) continue ;; esac
  N=$((N + 1))
  src=${TASK_SRC[$task]:-}
  out="$W/msg/out.$N"; msg="$W/msg/msg.$N"; runout="$W/msg/runout.$N"; : > "$msg"
  tested=0; passing=0; verdict=""
  if [ -n "$FATAL" ]; then
    verdict="build failed"; cat "$W/msg/fatal" > "$msg"
  elif [ -n "$src" ] && [ -n "${MISSING[$src]:-}" ]; then
    verdict="not submitted"; echo "${src##*/} was not found in the submission." > "$msg"
  elif [ -n "$src" ] && [ -n "${REFUSED[$src]:-}" ]; then
    verdict="refused"; echo "${REFUSED[$src]} Its tasks score 0." > "$msg"
  elif [ -n "$src" ] && [ -n "${BROKEN[$src]:-}" ]; then
    verdict="compile error"
    { echo "$src does not compile, so $task scores 0:"; head_msg "${BROKEN[$src]}"; } > "$msg"
  else
    if [ "$RUNNER_OK" != 1 ] || [ ! -x "$FIXED/judge/$tf" ]; then
      verdict="link error"
      { echo "The submission does not link:"; head_msg "$W/msg/runner.log"
        [ -f "$W/msg/judge-$tf.log" ] && head_msg "$W/msg/judge-$tf.log"; } > "$msg"
    else
      run_judged "$tf" "$filter" "$out" "$runout"; rc=$RC
      # The judge's own report: it links no student code, so its lines are ours.
      # Its last synthesis line; the numbers after its last "Tested: " and "Passing: ".
      syn=$(grep -a '^\[====\] Synthesis:' "$out"); syn=${syn##*$'\n'}
      tested=""; passing=""
      [[ $syn =~ .*Tested:\ ([0-9]*) ]] && tested=${BASH_REMATCH[1]}
      [[ $syn =~ .*Passing:\ ([0-9]*) ]] && passing=${BASH_REMATCH[1]}
      if [ -z "$tested" ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; }; then
        verdict="time limit"; tested=0; passing=0
        echo "The test did not finish within $((WALL * 2)) s; it scores 0. Look for a slow or endless loop." > "$msg"
      elif [ -z "$tested" ]; then
        verdict="judge failed"; tested=0; passing=0
        echo "The judge stopped (status $rc) without a report; tell your instructor." > "$msg"
      elif [ "$tested" = 0 ]; then
        verdict="no such test"; echo "Manifest error: no test matches $filter in $tf." > "$msg"
      elif [ "$passing" = "$tested" ]; then verdict="passed"
      else
        verdict="failed"
        why=$(grep -a -m1 -oE '(did not return within|ended the program|made a system call|crashed|wrote (before|past)|changed argument|printed more)[^:]*' "$out")
        [ -n "$why" ] && verdict="failed: $why"
      fi
      case "$verdict" in failed*) echo "$task: $verdict." >> "$msg" ;; esac
      if [ "$vis" = visible ] && [ "$verdict" != passed ]; then
        grep -av '^\[====\]' "$out" | head -c 3000 >> "$msg"
      elif [ "$verdict" != passed ]; then
        echo "Hidden test $filter: $verdict." >> "$msg"
      fi
      if [ -s "$runout" ]; then
        { echo "What your code printed (shown, never read by the grader):"
          head -c 2000 "$runout" | tr -d '\000-\010\016-\037'; echo; } >> "$msg"
      fi
    fi
  fi
  name="$task: $filter"
  case "$tested" in ''|*[!0-9]*) tested=0 ;; esac
  case "$passing" in ''|*[!0-9]*) passing=0 ;; esac
  [ "$verdict" = passed ] || [ "${verdict%% *}" = passed ] || [ "${verdict%% *}" = failed ] ||
    [ "${verdict%% *}" = crashed ] || { tested=0; passing=0; }
  # points x passing / tested; awk's %g where it is not whole points or none
  if [ "$tested" = 0 ]; then score=0
  elif [[ $points =~ ^(0|[1-9][0-9]{0,5})$ && $tested =~ ^[1-9][0-9]{0,8}$ &&
          $passing =~ ^[0-9]{1,9}$ ]] && { [ "$passing" -ge "$tested" ] || [ "$passing" = 0 ]; }; then
    [ "$passing" = 0 ] && score=0 || score=$points
  else
    score=$(awk -v p="$points" -v a="$passing" -v b="$tested" \
            'BEGIN {if (a > b) a = b; printf "%g", (b > 0 ? p * a / b : 0)}')
  fi
  printf -v row '%-66.66s %5s / %-3s %s' "$name" "$score" "$points" "$verdict"
  ROWS+=("$row")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$points" "$vis" "$tested" "$passing" \
    "$verdict" "$msg" >> "$TOTAL_ROWS"
done < grader/tests.tsv

SUMMARY="Score: @SCORE@ ($N graded tests, limits: $CPU s CPU, $MEM_MB MB, $OUT_KB KB output per test)"
[ "$SECCOMP" = -lseccomp ] || SUMMARY="$SUMMARY (no libseccomp: the runner's system calls are not filtered)"
# results.json: by python's json module (the autograder's setup.sh installs it);
# a student pack without python3 gets the same document from awk, escaped by hand.
results_awk() {   # results_awk ROWS RESULTS SUMMARY -> prints the summary line
  [ -L "$2" ] && { echo "grade.sh: $2 is a symlink; not written" >&2; return 1; }
  awk -F'\t' -v summary="$3" -v out="$2.tmp.$$" '
    function esc(s) { gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s)
                      gsub(/\n/, "\\n", s); gsub(/[\001-\037\177]/, "", s); return s }
    function body(f,   l, t, k) { t = ""; k = 0
      while (k < 200 && (getline l < f) > 0) { t = t l "\n"; k++ } close(f); return t }
    { n = $4 + 0; k = $5 + 0; if (k > n) k = n; if (k < 0) k = 0
      sc = n > 0 ? $2 * k / n : 0; tot += sc; top += $2
      t = t (NR > 1 ? ",\n" : "") sprintf("    {\"name\": \"%s\", \"score\": %g, \"max_score\": %g, \"visibility\": \"visible\", \"output\": \"%s\"}",
            esc($1), sc, $2, esc($6 "\n" body($7))) }
    END { sub(/@SCORE@/, sprintf("%g / %g", tot, top), summary)
          printf "{\"score\": %g, \"output\": \"%s\", \"tests\": [\n%s\n]}\n", tot,
                 esc(summary), t > out
          print summary }' "$1" && mv -f "$2.tmp.$$" "$2"
}
if command -v python3 >/dev/null 2>&1; then
  summary=$(python3 grader/results.py "$TOTAL_ROWS" "$RESULTS" "$SUMMARY" "$SEED")
else
  summary=$(results_awk "$TOTAL_ROWS" "$RESULTS" "$SUMMARY")
fi || { echo "grade.sh: could not write $RESULTS" >&2; exit 1; }
awk -F'\t' -v OFS='\t' '{s = ($5 > $4 ? $4 : $5); print $1, ($4 > 0 ? $2 * s / $4 : 0), $2, $6}' \
  "$TOTAL_ROWS" > "$W/tsv" && mv "$W/tsv" "${RESULTS%.json}.tsv"

if [ "$QUIET" != 1 ]; then
  printf '\n%-66s %11s %s\n' "test" "points" "verdict"
  printf '%s\n' "${ROWS[@]}"
  printf '%s\n' "$summary"
  echo "details: $RESULTS"
fi
exit 0
