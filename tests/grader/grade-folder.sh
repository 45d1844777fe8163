#!/usr/bin/env bash
# grade-folder.sh AUTOGRADER.zip SUBMISSIONS_DIR OUT_DIR -- grade many submissions
# locally with the same autograder Gradescope runs.
#
# SUBMISSIONS_DIR holds one folder per student (any layout inside: the task files
# are found by name). Writes OUT_DIR/NAME/results.json and the log for each
# student, and OUT_DIR/grades.csv: student, total, max, then one column per test.
# As root, run_autograder runs the student's code as 'grader-run' (else
# 'nobody'); no folder here is writable by it, and each student gets fresh
# folders, so one student's leftovers cannot touch another's results.
# Limits: see grader/grade.sh.
set -u
[ $# -eq 3 ] || { echo "usage: grade-folder.sh AUTOGRADER.zip SUBMISSIONS_DIR OUT_DIR" >&2; exit 2; }
zip=$(readlink -f "$1"); subs=$(readlink -f "$2"); out=$3
[ -f "$zip" ] && [ -d "$subs" ] || { echo "grade-folder: no $1 or no $2" >&2; exit 2; }
mkdir -p "$out"; out=$(readlink -f "$out")
root=$(mktemp -d "${TMPDIR:-/tmp}/grade-folder.XXXXXX")
trap 'rm -rf "$root"' EXIT
chmod 755 "$root"
mkdir -p "$root/autograder/source"
(cd "$root/autograder/source" && unzip -q "$zip") || exit 2
csv="$out/grades.csv.tmp"; header=""
for dir in "$subs"/*/; do
  name=$(basename "$dir")
  rm -rf "$root/autograder/submission" "$root/autograder/results" "$root/tmp"
  cp -R "$dir" "$root/autograder/submission"
  mkdir -p "$root/autograder/results" "$root/tmp"
  chmod -R a+rX,go-w "$root/autograder" "$root/tmp"
  (cd "$root/autograder" && AUTOGRADER_ROOT="$root/autograder" TMPDIR="$root/tmp" \
     bash source/run_autograder > "$root/autograder/results/stdout" 2>&1)
  mkdir -p "$out/$name"
  cp "$root/autograder/results/results.json" "$root/autograder/results/stdout" "$out/$name/"
  tsv="$root/autograder/results/results.tsv"
  if [ -z "$header" ] && [ -f "$tsv" ]; then   # columns: one per graded test
    header="student,total,max$(cut -f1 "$tsv" | sed 's/"/""/g; s/.*/,"&"/' | tr -d '\n')"
    echo "$header" > "$csv"
  fi
  if [ -f "$tsv" ]; then
    total=$(awk -F'\t' '{s += $2} END {printf "%g", s}' "$tsv")
    max=$(awk -F'\t' '{s += $3} END {printf "%g", s}' "$tsv")
    echo "\"$name\",$total,$max$(cut -f2 "$tsv" | sed 's/^/,/' | tr -d '\n')" >> "$csv"
  else
    echo "\"$name\",0,,\"the autograder failed: see $name/stdout\"" >> "$csv"
  fi
  echo "  $name: $(grep -m1 '^Score:' "$out/$name/stdout" || echo 'no score')" >&2
done
[ -f "$csv" ] && mv "$csv" "$out/grades.csv" && echo "wrote $out/grades.csv" >&2
