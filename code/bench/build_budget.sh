#!/usr/bin/env bash
# build_budget.sh OUT_TSV -- the build's own time budget, measured on a copy of
# the tree (every file git knows, as it is now): a clean `make -j2` (HTML, PDF,
# every program including chapter 8's training), a no-op `make`, and the rebuilds
# after editing one chapter (issue 29's edit loop: `make html` within 3 s, the
# whole `make`, HTML, PDF and EPUB, within 10 s): a sentence added to its first
# paragraph, then another. Writes
# "what<TAB>seconds<TAB>target_seconds" lines.
set -euo pipefail
out=$(realpath -m "$1")
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
( cd "$top" && git ls-files -z | xargs -0 cp --parents -t "$tmp" )
cd "$tmp"
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || { echo "build_budget: '$*' failed" >&2; exit 1; }; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'; }
clean=$(seconds make -j2)
noop=$(seconds make)
chapter=$(ls chapters/[0-9][0-9]-*.md | head -n 3 | tail -n 1)
# An edit, not a touch: a sentence goes into the chapter's first paragraph (the
# text below it moves, as after a real edit; a touch leaves every piece the same).
edit_chapter() {
  awk -v s="$1" '!done && /^[A-Z][a-z]/ { $0 = s " " $0; done = 1 } 1' "$chapter" \
    > "$chapter.new" && mv "$chapter.new" "$chapter"
}
edit_chapter "This sentence is an edit."
edit_html=$(seconds make html)
edit_chapter "So is this one."
edit=$(seconds make)
{
  printf 'clean make -j2\t%.1f\t90\n' "$clean"
  printf 'no-op make\t%.2f\t1\n' "$noop"
  printf 'make html after editing %s\t%.1f\t3\n' "$chapter" "$edit_html"
  printf 'make after editing %s\t%.1f\t10\n' "$chapter" "$edit"
} > "$out.tmp" && mv "$out.tmp" "$out"
