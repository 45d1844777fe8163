#!/usr/bin/env bash
# instructors.sh BUILD_DIR -- the instructor edition (issue 25 item 5); TAP out.
#   `make instructors` builds the HTML and the PDF; every task has its "why" and
#   every ungraded exercise its hint and answer, with every {{number}} spliced
#   from an answer program (tests/grader/instructors.py --check), and a planted
#   omission of each kind fails that check; the HTML and PDF hold one "Why it is
#   right" per task and one hint and answer per exercise; no passage of the notes
#   is in a reader-facing output or a student pack (and a planted one is found);
#   every student pack gives one or two hints per task, and a third is refused.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d /tmp/instructors-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
N=tests/assignments/notes

# --- the notes are complete ----------------------------------------------------
make --no-print-directory -s B="$B" library >&2 || { fail "make library"; exit 0; }
out=$(python3 tests/grader/instructors.py --check "$B" 2>&1); rc=$?
n_tasks=$(cat tests/assignments/ch[0-9][0-9].tsv | grep -c $'^task\t')
if [ "$rc" = 0 ] && echo "$out" | grep -q "^instructors: $n_tasks tasks with their why, "; then
  pass "every task has its why, every ungraded exercise a hint and an answer ($out)"
else fail "every task has its why, every ungraded exercise a hint and an answer" "$out"; fi
n_ex=$(echo "$out" | sed -n 's/.*, \([0-9]*\) exercises with.*/\1/p')

# --- planted omissions: each kind fails the check, naming what is missing -------
planted() {   # planted WHAT EXPECTED-LINE-PATTERN: the check on $T/notes fails with it
  local o r
  o=$(python3 tests/grader/instructors.py --check "$B" --notes "$T/notes" 2>&1); r=$?
  if [ "$r" = 1 ] && echo "$o" | grep -q "$2"; then pass "a planted omission fails: $1"
  else fail "a planted omission fails: $1" "exit $r: $o"; fi
}
fresh() { rm -rf "$T/notes"; cp -r "$N" "$T/notes"; }
fresh   # the last task of chapter 5 loses its why
fn=$(awk -F'\t' '$1 == "task" {f = $2} END {print f}' tests/assignments/ch05.tsv)
python3 - "$T/notes/ch05.md" "$fn" <<'PY'
import re, sys
p, fn = sys.argv[1:]
s = open(p).read()
s2 = re.sub(r"^## why " + fn + r"\n.*?(?=^## )", "", s, flags=re.S | re.M)
assert s2 != s
open(p, "w").write(s2)
PY
planted "a task without its why ($fn)" "task $fn has no '## why $fn'"
fresh   # exercise 2 of chapter 2 loses its answer
python3 - "$T/notes/ch02.md" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s2 = re.sub(r"(^## exercise 2\n.*?)^Answer:.*?(?=^## )", r"\1", s, count=1, flags=re.S | re.M)
assert s2 != s
open(sys.argv[1], "w").write(s2)
PY
planted "an exercise without its answer (2.2)" "exercise 2 of chapters/02-[a-z-]*.md has no Answer:"
fresh   # exercise 9 of chapter 6 loses its hint
sed -i '/^## exercise 9$/,/^## /{/^Hint:/,/^$/d}' "$T/notes/ch06.md"
planted "an exercise without its hint (6.9)" "exercise 9 of chapters/06-[a-z-]*.md has no Hint:"
fresh   # a number the answer program does not print
sed -i '0,/{{reach_s}}/s//{{reach_t}}/' "$T/notes/ch05.md"
planted "a number no answer program prints" "{{reach_t}} is not printed by the answer program"
fresh   # a number typed by hand instead of spliced: the printed key is then unused
sed -i 's/{{band_ratio}}/2.00/' "$T/notes/ch06.md"
planted "a printed number left unused (typed by hand)" "prints band_ratio, which no note uses"

# --- the edition builds, and holds what the notes say ------------------------
if make --no-print-directory -s B="$B" instructors >&2; then pass "make instructors"
else fail "make instructors"; exit 0; fi
H=$B/instructors/instructors.html P=$B/instructors/instructors.pdf
n=$(grep -c '>Why it is right<' "$H")
[ "$n" = "$n_tasks" ] && pass "the HTML has a 'Why it is right' for each of the $n_tasks tasks" ||
  fail "the HTML has a 'Why it is right' for each of the $n_tasks tasks" "found $n"
h=$(grep -c '<strong>Hint.</strong>' "$H"); a=$(grep -c '<strong>Answer.</strong>' "$H")
[ "$h" = "$n_ex" ] && [ "$a" = "$n_ex" ] &&
  pass "the HTML has a hint and an answer for each of the $n_ex exercises" ||
  fail "the HTML has a hint and an answer for each of the $n_ex exercises" "hints $h, answers $a"
if grep -q '{{' "$H"; then fail "no unspliced {{key}} in the HTML" "$(grep -o '{{[^}]*}}' "$H" | head)"
else pass "no unspliced {{key}} in the HTML"; fi
pdftotext -enc UTF-8 "$P" "$T/pdf.txt" 2>/dev/null
p=$(tr -d '\f' < "$T/pdf.txt" | grep -c '^Why it is right$')
[ "$p" = "$n_tasks" ] && pass "the PDF has a 'Why it is right' for each task" ||
  fail "the PDF has a 'Why it is right' for each task" "found $p"

# --- never in the reader's book or a student pack ----------------------------
make --no-print-directory -s B="$B" all assignments >&2 || { fail "make all assignments"; exit 0; }
out=$(python3 tests/grader/instructors.py --find-build "$B" 2>&1); rc=$?
if [ "$rc" = 0 ]; then pass "no passage of the notes in the book, the downloads or a pack ($(echo "$out" | tail -n 1))"
else fail "no passage of the notes in the book, the downloads or a pack" "$out"; fi
cp "$B/html/index.html" "$T/index.html"
python3 - "$T/index.html" <<'PY'
import re, sys
p = sys.argv[1]
why = open("tests/assignments/notes/ch03.md").read().split("## why sagrad_wv\n")[1].split("\n## ")[0]
s = open(p).read().replace("</body>", "<p>" + why.replace("\n", " ") + "</p></body>")
open(p, "w").write(s)
PY
out=$(python3 tests/grader/instructors.py --find "$T/index.html" 2>&1); rc=$?
if [ "$rc" = 1 ] && echo "$out" | grep -q "^found: ch03 why sagrad_wv in "; then
  pass "a why planted in a page is found: $(echo "$out" | grep '^found' | head -n 1 | sed "s|$T/||")"
else fail "a why planted in a page is found" "exit $rc: $out"; fi

# --- the student packs: one or two hints per task, never more -----------------
bad=""
for tsv in tests/assignments/ch[0-9][0-9].tsv; do
  c=$(basename "$tsv" .tsv); r=$B/assignments/$c/README.md
  for fn in $(awk -F'\t' '$1 == "task" {print $2}' "$tsv"); do
    k=$(grep -c "^- \`$fn\`: " "$r")
    [ "$k" -ge 1 ] && [ "$k" -le 2 ] || bad+="$c $fn: $k hints; "
  done
done
[ -z "$bad" ] && pass "every student pack's README gives each task one or two hints" ||
  fail "every student pack's README gives each task one or two hints" "$bad"
mkdir -p "$T/a/tests/assignments"
tsv=$T/a/tests/assignments/ch03.tsv
cp tests/assignments/ch03.tsv "$tsv"
fn=$(awk -F'\t' '$1 == "hint" {print $2}' "$tsv" | uniq -d | head -n 1)
printf 'hint\t%s\ta third hint\n' "$fn" >> "$tsv"
out=$(python3 -c "
import importlib.util, sys
s = importlib.util.spec_from_file_location('p', 'tests/grader/pack.py')
m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
m.parse_manifest(sys.argv[1])" "$tsv" 2>&1); rc=$?
if [ "$rc" != 0 ] && echo "$out" | grep -q "a third hint for $fn"; then
  pass "a third hint for a task is refused ($fn)"
else fail "a third hint for a task is refused ($fn)" "exit $rc: $out"; fi
