#!/usr/bin/env bash
# assignments.sh BUILD_DIR -- course packs and the autograder; TAP out.
#   packs and zips build and are byte-reproducible; every stub compiles;
#   in every Gradescope zip (run in a fake /autograder, as 'nobody'): the solution
#   scores full marks, the untouched stubs score 0; in chapter 1: a submission that
#   segfaults, loops, prints 100 MB or does not compile is graded in time, with the
#   right message; a copy of a student pack builds and grades with only the
#   commands of the packages its README lists.
set -u
B=$1
. tests/tap.sh
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1767225600}
make --no-print-directory -s B="$B" assignments gradescope >&2 ||
  { fail "make assignments gradescope"; exit 0; }
pass "make assignments gradescope"

T=$(mktemp -d /tmp/assign-test.XXXXXX)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
CHAPTERS=$(cd tests/assignments && ls ch[0-9][0-9].tsv | sed 's/\.tsv$//')

# --- solution markers: pairs, never nested, lines of their own -----------------
printf 'void f(void) {\n    // BEGIN SOLUTION\n    // END SOLUTION\n}\n' > "$T/good.c"
printf 'void f(void) {\n    // BEGIN SOLUTION\n}\n' > "$T/unpaired.c"
printf 'void f(void) {\n    // END SOLUTION\n}\n' > "$T/unopened.c"
printf '    // BEGIN SOLUTION\n    // BEGIN SOLUTION\n    // END SOLUTION\n    // END SOLUTION\n' \
  > "$T/nested.c"
printf '    int x; // BEGIN SOLUTION\n    // END SOLUTION\n' > "$T/inline.c"
check "marker check accepts a pair" python3 tests/grader/pack.py check "$T/good.c"
for bad in unpaired unopened nested inline; do
  if out=$(python3 tests/grader/pack.py check "$T/$bad.c" 2>&1); then
    fail "marker check rejects $bad markers" "accepted"
  elif echo "$out" | grep -q "$bad.c:[0-9]"; then pass "marker check rejects $bad markers"
  else fail "marker check rejects $bad markers" "$out"; fi
done

# --- reproducible ----------------------------------------------------------
python3 tests/grader/pack.py assignments "$T/a2" >/dev/null &&
  python3 tests/grader/pack.py gradescope "$T/g2" >/dev/null
for c in $CHAPTERS; do
  check "$c.tar.gz is byte-reproducible" cmp "$B/assignments/$c.tar.gz" "$T/a2/$c.tar.gz"
  check "$c.zip is byte-reproducible" cmp "$B/gradescope/$c.zip" "$T/g2/$c.zip"
done

# --- packs follow their chapter: title and graded exercises --------------------
# A pack's README quotes its chapter's title and graded exercises: make rebuilds
# the packs when a chapter changes (-W: as if it were edited), and a copy of the
# tree with a retitled chapter and a reworded exercise makes a pack that says so.
last=$(echo "$CHAPTERS" | tail -n 1)
md=$(ls chapters/${last#ch}-*.md)
if make --no-print-directory -q B="$B" assignments gradescope; then
  ok_before=1; else ok_before=0; fi
stale=0
for kind in assignments gradescope; do
  make --no-print-directory -q -W "$md" B="$B" "$kind" || stale=$((stale + 1))
done
if [ "$ok_before" = 1 ] && [ "$stale" = 2 ]; then
  pass "$last: the packs and the zip are rebuilt when $(basename "$md") changes"
else fail "$last: the packs and the zip are rebuilt when $(basename "$md") changes" \
  "up to date before: $ok_before; stale after touching it: $stale of 2"; fi
mkdir -p "$T/tree"
cp -R chapters code tests "$T/tree/"
fn=$(awk -F'\t' '$1 == "task" {print $2; exit}' "tests/assignments/$last.tsv")
sed -i -e '0,/^# /s/^# \(.*\)$/# \1 Retitled/' \
  -e "s/(pack task \`$fn\`/(pack task \`$fn\`, reworded,/" "$T/tree/$md"
python3 "$T/tree/tests/grader/pack.py" assignments "$T/tree-out" >/dev/null 2>&1
readme="$T/tree-out/$last/README.md"
if head -n 1 "$readme" 2>/dev/null | grep -q ' Retitled$' &&
   grep -q "(pack task \`$fn\`, reworded," "$readme"; then
  pass "$last: a retitled chapter and a reworded exercise reach the pack's README"
else fail "$last: a retitled chapter and a reworded exercise reach the pack's README" \
  "$(head -n 1 "$readme" 2>&1); $(grep -c reworded "$readme" 2>&1) reworded"; fi

# --- run a zip in an imitation of Gradescope's /autograder ---------------------
# image CHAPTER: the chapter's zip set up once, in $T/image-CHAPTER (tap.sh)
image() { autograder_image "$B/gradescope/$1.zip" "$T/image-$1"; }
# autograde CHAPTER SUBMISSION_DIR NAME [ENV...] -> $T/NAME/autograder/results/results.json
autograde() {
  local c=$1 sub=$2 name=$3; shift 3
  local root="$T/$name"
  rm -rf "$root"; mkdir -p "$root/autograder/source" "$root/autograder/results"
  cp -R "$T/image-$c/." "$root/autograder/source/"
  cp -R "$sub" "$root/autograder/submission"
  mkdir -p "$root/tmp"
  chmod -R a+rX "$root"; chmod 777 "$root/autograder/results"; chmod 1777 "$root/tmp"
  local as=()
  if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then   # as 'nobody'
    as=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
  fi
  local t0=$(date +%s)
  (cd "$root/autograder" && env "$@" AUTOGRADER_ROOT="$root/autograder" TMPDIR="$root/tmp" \
     timeout 300 "${as[@]}" bash source/run_autograder > "$root/stdout" 2>&1)
  echo $(( $(date +%s) - t0 )) > "$root/seconds"
}
results() { echo "$T/$1/autograder/results/results.json"; }
# score FILE -> "score max" (and fails unless the file is valid JSON)
score() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
print(r["score"], sum(t["max_score"] for t in r["tests"]))' "$1"
}
# verdicts FILE TASK WORDS -> "yes" when every test of TASK has full marks (WORDS
# "passed") or scores 0 with WORDS in its output; else what each test got
verdicts() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
ts = [t for t in r["tests"] if t["name"].startswith(sys.argv[2] + ":")]
w = sys.argv[3]
ok = ts and all((t["score"] == t["max_score"]) if w == "passed" else
                (t["score"] == 0 and w in t["output"]) for t in ts)
print("yes" if ok else "; ".join("%g %s" % (t["score"], t["output"][:200]) for t in ts))' \
    "$1" "$2" "$3"
}

# Every chapter's solution (the task files of the book's own library) and its
# untouched stubs, graded two at a time: a grading runs one test after another,
# and the machine has a core for each.
n_jobs=$(nproc 2>/dev/null || echo 2)
for c in $CHAPTERS; do
  image "$c" &
  while [ "$(jobs -rp | wc -l)" -ge "$n_jobs" ]; do wait -n; done
done
wait
nobuilt=""
for c in $CHAPTERS; do
  [ -s "$T/image-$c/pack/grader/built/sum" ] && [ -n "$(ls "$T/image-$c/pack/grader/built/judge")" ] ||
    nobuilt="$nobuilt $c: $(head -c 300 "$T/image-$c.log")"
done
if [ -z "$nobuilt" ]; then pass "every zip's setup.sh builds its judges and the runner's objects (grade.sh --prebuild)"
else fail "every zip's setup.sh builds its judges and the runner's objects (grade.sh --prebuild)" "$nobuilt"; fi
for c in $CHAPTERS; do
  mkdir -p "$T/sol-$c" "$T/stub-$c"
  for src in $(awk -F'\t' '$1 == "task" {print $3}' "tests/assignments/$c.tsv" | sort -u); do
    cp "$src" "$T/sol-$c/"
  done
  cp "$B/assignments/$c/grader/stubs/code/lib"/*/*.c "$T/stub-$c/"
  for kind in solution stubs; do
    [ $kind = solution ] && sub="$T/sol-$c" || sub="$T/stub-$c"
    autograde "$c" "$sub" "$c-$kind" &
    while [ "$(jobs -rp | wc -l)" -ge "$n_jobs" ]; do wait -n; done
  done
done
# A submission that hard-codes the visible tests' answers (chapter 6's
# mask_window_causal: the three (n, w) of its visible tests, 0 elsewhere).
hard=0
if [ -f tests/assignments/ch06.tsv ] && grep -q $'^task\tmask_window_causal\t' tests/assignments/ch06.tsv; then
  hard=1
  mkdir -p "$T/hard-ch06" && cp "$T/sol-ch06/"*.c "$T/hard-ch06/"
  cat > "$T/hardcoded.c" <<'HARD'
            static const unsigned char by_hand[25] = {1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0,
                                                      1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0,
                                                      0, 1, 1};
            if (n == 5 && w == 1) visible = by_hand[i * 5 + j];
            if (n == 4 && w == 3) visible = j <= i;
            if (n == 4 && w == 0) visible = i == j;
HARD
  python3 -c 'import sys; sys.path.insert(0, "tests/grader"); import wrongs
sys.stdout.write(wrongs.replace_region("code/lib/masks/mask.c", "mask_window_causal",
                                       open(sys.argv[1]).read()))' "$T/hardcoded.c" \
    > "$T/hard-ch06/mask.c"
  while [ "$(jobs -rp | wc -l)" -ge "$n_jobs" ]; do wait -n; done
  autograde ch06 "$T/hard-ch06" ch06-hardcoded &
fi
wait
for c in $CHAPTERS; do
  s=$(score "$(results "$c-solution")" 2>&1)
  if [ -n "$s" ] && [ "${s% *}" = "${s#* }" ] && [ "${s% *}" != 0 ]; then
    pass "$c: the solution scores full marks ($s) as nobody"
  else
    fail "$c: the solution scores full marks" "score: $s
$(head -c 3000 "$T/$c-solution/stdout")"
  fi
  s=$(score "$(results "$c-stubs")" 2>&1)
  if [ "${s% *}" = 0 ]; then pass "$c: untouched stubs score 0 ($s)"
  else fail "$c: untouched stubs score 0" "score: $s"; fi
done
if [ "$hard" = 1 ]; then
  got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
ts = [t for t in r["tests"] if t["name"].startswith("mask_window_causal:")]
print("%g %g" % (sum(t["score"] for t in ts), sum(t["max_score"] for t in ts)))' \
    "$(results ch06-hardcoded)" 2>&1)
  if [ -n "$got" ] && awk -v s="${got% *}" -v m="${got#* }" 'BEGIN {exit !(m > 0 && 2 * s < m)}'; then
    pass "ch06: hard-coding the visible answers of mask_window_causal scores under half (${got% *}/${got#* })"
  else fail "ch06: hard-coding the visible answers of mask_window_causal scores under half" \
    "score: $got"; fi
fi
# The prebuilt judges are used while the pack is the one they were built from,
# and only then: with every prebuilt judge replaced by one that fails, the
# solution scores 0; with a pack file changed too, the grading builds its own
# judges and the solution scores full marks again.
for v in used stale; do
  cp -R "$T/image-ch01" "$T/image-ch01-$v"
  for j in "$T/image-ch01-$v"/pack/grader/built/judge/*; do printf '#!/bin/sh\nexit 3\n' > "$j"; done
done
echo '// changed' >> "$(ls "$T/image-ch01-stale"/pack/tests/unit/*.c | head -n 1)"
# So are the prebuilt objects of the pack's library files that hold no task
# (chapter 4's task calls into them) and of the task files' stubs (a submission's
# symbols are compared with theirs): with the first replaced by empty objects the
# solution does not link (0), with the second it is refused (0); once a pack file
# changed, with both planted, the grading compiles its own (kept: GRADER_KEEP) and
# scores full marks: the library's are the prebuilt bytes, the stubs' have the
# prebuilt symbols.
cc -c -x c /dev/null -o "$T/empty.o"
for v in libused stubused libstale; do cp -R "$T/image-ch04" "$T/image-ch04-$v"; done
for v in libused libstale; do
  for o in "$T/image-ch04-$v"/pack/grader/built/lib/*.o; do [ -f "$o" ] && cp "$T/empty.o" "$o"; done
done
for v in stubused libstale; do
  for o in "$T/image-ch04-$v"/pack/grader/built/stub/*.o; do [ -f "$o" ] && cp "$T/empty.o" "$o"; done
done
echo '// changed' >> "$(ls "$T/image-ch04-libstale"/pack/tests/unit/*.c | head -n 1)"
autograde ch01-used "$T/sol-ch01" ch01-used & autograde ch01-stale "$T/sol-ch01" ch01-stale &
wait
autograde ch04-libused "$T/sol-ch04" ch04-libused & autograde ch04-stubused "$T/sol-ch04" ch04-stubused &
wait
autograde ch04-libstale "$T/sol-ch04" ch04-libstale GRADER_KEEP=1
used=$(score "$(results ch01-used)" 2>&1); stale=$(score "$(results ch01-stale)" 2>&1)
full=$(score "$(results ch01-solution)" 2>&1)
if [ "${used% *}" = 0 ] && [ -n "$full" ] && [ "$stale" = "$full" ]; then
  pass "ch01: prebuilt judges are used while the pack matches them (planted failing judges: $used), and not once it changed ($stale)"
else fail "ch01: prebuilt judges are used while the pack matches them, and not once it changed" \
  "planted failing judges: $used; with a pack file changed too: $stale; the solution: $full"; fi
libused=$(score "$(results ch04-libused)" 2>&1); stubused=$(score "$(results ch04-stubused)" 2>&1)
libstale=$(score "$(results ch04-libstale)" 2>&1); libfull=$(score "$(results ch04-solution)" 2>&1)
kept=$(ls -d "$T/ch04-libstale/tmp"/grade.* 2>/dev/null | head -n 1)
same=0; differ=()
syms() { nm -g --defined-only "$1" 2>/dev/null | awk '{print $NF}' | sort; nm -u "$1" 2>/dev/null | sort; }
for o in "$T/image-ch04"/pack/grader/built/lib/*.o "$T/image-ch04"/pack/grader/built/stub/*.o; do
  [ -f "$o" ] || continue
  case $o in
    */lib/*) [ -n "$kept" ] && cmp -s "$o" "$kept/build/obj/$(basename "$o")" ;;
    *) [ -n "$kept" ] && [ -n "$(syms "$o")" ] && [ "$(syms "$o")" = "$(syms "$kept/stub/$(basename "$o")")" ] ;;
  esac && same=$((same + 1)) || differ+=("$(basename "$o")")
done
refused=$(grep -c 'is refused: it defines' "$T/ch04-stubused/stdout")
if [ "${libused% *}" = 0 ] && [ "${stubused% *}" = 0 ] && [ "$refused" -gt 0 ] && [ -n "$libfull" ] &&
   [ "$libstale" = "$libfull" ] && [ "$same" -gt 1 ] && [ ${#differ[@]} -eq 0 ]; then
  pass "ch04: prebuilt library and stub objects are used while the pack matches them (planted empty ones: $libused, refused $stubused), and not once it changed ($libstale), where the grading compiles the same ($same files)"
else fail "ch04: prebuilt library and stub objects are used while the pack matches them, and not once it changed, where the grading compiles the same" \
  "planted empty library objects: $libused; empty stub objects: $stubused ($refused refusals); with a pack file changed too: $libstale; the solution: $libfull; the same as compiled: $same; differ or missing: ${differ[*]:-none} (kept: ${kept:-none})"; fi
# No task can be passed by its visible tests alone: they carry under half its points.
for c in $CHAPTERS; do
  heavy=$(awk -F'\t' '$1 == "test" {t[$2] += $5; if ($6 == "visible") v[$2] += $5}
            END {for (f in t) if (2 * v[f] >= t[f]) printf "%s %g/%g; ", f, v[f], t[f]}' \
          "tests/assignments/$c.tsv")
  if [ -z "$heavy" ]; then pass "$c: every task's visible tests carry under half its points"
  else fail "$c: every task's visible tests carry under half its points" "visible/all: $heavy"; fi
done
cp "$T/ch01-stubs/stdout" "$B/test/assignments-ch01-stubs.txt" 2>/dev/null
cp "$T/ch01-solution/stdout" "$B/test/assignments-ch01-solution.txt" 2>/dev/null

# --- hostile submissions (chapter 1, in kern_nearest_predict) ------------------
# Each is the solution with one bad line at the top of kern_nearest_predict's region.
hostile() {   # NAME CODE [HEADER]
  mkdir -p "$T/h-$1"
  cp "$T/sol-ch01/"*.c "$T/h-$1/"
  awk -v code="$2" -v header="${3:-}" '
    NR == 1 && header != "" {print; print header; next}
    {print}
    /BEGIN SOLUTION/ && !done && seen {print "        " code; done = 1}
    /^int kern_nearest_predict/ {seen = 1}' code/lib/attention/kernels.c > "$T/h-$1/kernels.c"
}
hostile segfault '{ volatile float *bad = (volatile float *)0; pred = *bad; }'
hostile loop 'for (volatile int spin = 1; spin;) { }'
hostile flood '{ static char mb[1 << 20]; for (int i = 0; i < 100; i++) fwrite(mb, 1, sizeof mb, stdout); }' \
  '#include <stdio.h>'
hostile nocompile 'pred = this is not C;'
hostile exit 'exit(0);' '#include <stdlib.h>'   # Criterion alone would count a pass
# name: words in kern_nearest_predict's outputs, and in kern_laplace_weights'
# ("passed": full)
for h in "segfault crashed passed" "loop did.not.return passed" "flood printed.more passed" \
         "nocompile does.not.compile does.not.compile" "exit refused refused"; do
  set -- $h
  autograde ch01 "$T/h-$1" "ch01-$1" GRADER_CPU=1 GRADER_WALL=2
  r=$(results "ch01-$1"); secs=$(cat "$T/ch01-$1/seconds")
  cp "$T/ch01-$1/stdout" "$B/test/assignments-ch01-$1.txt" 2>/dev/null
  cp "$r" "$B/test/assignments-ch01-$1.json" 2>/dev/null
  if ! s=$(score "$r" 2>&1); then fail "ch01 $1: results.json is written" "$s"; continue; fi
  cos=$(verdicts "$r" kern_nearest_predict "${2//./ }")
  add=$(verdicts "$r" kern_laplace_weights "${3//./ }")
  nw=$(verdicts "$r" bw_loo_predict passed)
  if [ "$cos" = yes ] && [ "$add" = yes ] && [ "$nw" = yes ] && [ "$secs" -le 90 ]; then
    pass "ch01 $1: kern_nearest_predict gets 0 with '${2//./ }', the rest is graded ($s in ${secs}s)"
  else
    fail "ch01 $1: graded with the right message" "score $s in ${secs}s
kern_nearest_predict: $cos
kern_laplace_weights: $add
bw_loo_predict: $nw
$(head -c 2000 "$T/ch01-$1/stdout")"
  fi
done
# A folder of submissions graded into one CSV.
mkdir -p "$T/folder/alice/src" "$T/folder/bob"
cp "$T/sol-ch01/"*.c "$T/folder/alice/src/"          # files at any depth
cp "$T/h-nocompile/"*.c "$T/folder/bob/"
tests/grader/grade-folder.sh "$B/gradescope/ch01.zip" "$T/folder" "$T/folder-out" 2>/dev/null
csv=$(cut -d, -f1-3 "$T/folder-out/grades.csv" 2>&1)
full=$(score "$(results ch01-solution)" | cut -d' ' -f2)
# bob's kernels.c does not compile: kern_nearest_predict and kern_laplace_weights score 0
bob=$(awk -F'\t' '$1 == "test" && $2 != "kern_nearest_predict" && $2 != "kern_laplace_weights" {s += $5}
      END {print s}' tests/assignments/ch01.tsv)
if [ "$csv" = "$(printf 'student,total,max\n"alice",%s,%s\n"bob",%s,%s' "$full" "$full" "$bob" "$full")" ] &&
   [ "$(head -n1 "$T/folder-out/grades.csv" | tr ',' '\n' | wc -l)" -gt 3 ]; then
  pass "grade-folder.sh grades a folder into one CSV"
else fail "grade-folder.sh grades a folder into one CSV" "$csv"; fi

# A hidden test's output names the verdict, never its code.
if grep -q 'Hidden test kernels/nearest_random' "$(results ch01-segfault)" &&
   ! grep -q 'cr_assert' "$(results ch01-segfault)"; then
  pass "hidden tests report a verdict, not their code"
else fail "hidden tests report a verdict, not their code" "$(head -c 2000 "$(results ch01-segfault)")"; fi

# --- a student pack, with only the commands of the packages its README lists ----
# The pack's README asks for build-essential and libcriterion-dev; a machine has
# its Essential packages too. Link every command of those packages (and their
# dependencies) into one directory and make it the whole PATH.
pkgs=$( { dpkg-query -W -f='${Package} ${Essential} ${Priority}\n' |
            awk '$2 == "yes" || $3 == "required" {print $1}';
          apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
            --no-breaks --no-replaces --no-enhances build-essential libcriterion-dev \
            2>/dev/null | grep -v '^ ' | grep -v '^<'; } | sort -u)
mkdir -p "$T/minbin"
# cc, awk, ... are alternatives links made by maintainer scripts, not package files:
# keep those that lead to a command already linked. (One python3 for the whole
# directory: a shell loop forks three commands for each of /usr/bin's links.)
dpkg-query -L $pkgs 2>/dev/null | grep -E '^/(usr/)?s?bin/[^/]+$' | sort -u |
python3 -c '
import os, sys
d = sys.argv[1]
for f in sys.stdin.read().split("\n"):
    if f and os.access(f, os.X_OK) and not os.path.isdir(f):
        n = os.path.join(d, os.path.basename(f))
        if os.path.lexists(n):
            os.remove(n)
        os.symlink(f, n)
for top in ("/usr/bin", "/bin"):
    for name in sorted(os.listdir(top)):
        f = os.path.join(top, name)
        if not os.path.islink(f) or os.path.exists(os.path.join(d, name)):
            continue
        target = os.path.realpath(f)
        have = os.path.join(d, os.path.basename(target))
        if os.path.exists(have) and os.path.realpath(have) == target:
            os.symlink(target, os.path.join(d, name))
' "$T/minbin"
for tool in python3 zip unzip pandoc; do   # a sanity check of the restriction
  [ -e "$T/minbin/$tool" ] && { fail "minimal PATH excludes $tool"; }
done
cp -R "$B/assignments/ch02" "$T/student"
cp code/lib/attention/logsoftmax.c "$T/student/code/lib/attention/logsoftmax.c"   # two tasks done
out=$(cd "$T/student" && env -i PATH="$T/minbin" HOME="$T" TMPDIR="$T" \
        bash -c 'make -s && { make -s test >/dev/null 2>&1; echo "make test exit $?"; } &&
                 make -s grade' 2>&1)
if echo "$out" | grep -q 'make test exit [12]' && [ -s "$T/student/results.json" ] &&
   python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["score"] == sum(t["max_score"] for t in r["tests"] if t["name"].startswith(("logsoftmax:", "logsoftmax_backward:"))), r["score"]' \
     "$T/student/results.json" 2>&1; then
  pass "ch02 pack: make, make test, make grade with only the listed packages"
else
  fail "ch02 pack: make, make test, make grade with only the listed packages" \
    "$(echo "$out" | tail -n 30)"
fi
# make grade's table gives each test's score, and they add up to results.json's;
# grading leaves nothing in the pack but build/ and results.*
table_sum=$(echo "$out" | awk '/^test +points verdict$/ {on = 1; next} /^Score:/ {on = 0}
  on && substr($0, 73, 3) == " / " {n++; v = substr($0, 68, 5); gsub(/ /, "", v)
                                     if (v ~ /^[0-9.]+$/) s += v; else bad++}
  END {printf "%d %g %d", n, s, bad}')
json_sum=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%d %g" % (len(r["tests"]), r["score"]))' \
  "$T/student/results.json" 2>&1)
extra=$(comm -13 <(ls -A "$B/assignments/ch02") <(ls -A "$T/student") | grep -vxE 'build|results\.(json|tsv)')
if [ "$table_sum" = "$json_sum 0" ] && [ -z "$extra" ]; then
  pass "ch02 pack: make grade's table scores every test and adds up to results.json ($json_sum), and leaves no stray file"
else
  fail "ch02 pack: make grade's table scores every test and adds up to results.json, and leaves no stray file" \
    "table: tests, sum, rows without a score: $table_sum; results.json: $json_sum; new files: $extra"
fi
