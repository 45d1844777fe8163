#!/usr/bin/env bash
# check-dead.sh BUILD_DIR -- every value a program records in
# BUILD_DIR/data/PROGRAM/values.tsv is quoted by some chapter as [key]{.val}
# (the chapter's own program, or another one named with program="..."), or by
# a diagram of its chapter, figures/chNN_*.tex, as \val{key} or \getval\x{key}.
# Prints one line per value no chapter quotes; exits 1 if there is any.
set -u
export LC_ALL=C   # match names byte by byte (tr_TR: [a-z] skips i)
B=${1:-build}
status=0
# quoted: PROGRAM<TAB>KEY, one per [key]{.val} in the chapters.
quoted=$(for md in chapters/[0-9][0-9]-*.md; do
  prog=$(awk 'NR == 1 && $0 != "---" { exit } NR > 1 && /^---$/ { exit }
    /^program:/ { sub(/^program: */, ""); print; exit }' "$md")
  grep -oE '\[[A-Za-z0-9_.-]+\]\{\.val( +program="[^"]+")?\}' "$md" \
    | sed -E 's/^\[([^]]+)\]\{\.val( +program="([^"]+)")?\}$/\3\t\1/' \
    | awk -F'\t' -v p="$prog" '{ print ($1 == "" ? p : $1) "\t" $2 }'
done
for tex in figures/ch[0-9][0-9]_*.tex; do
  [ -f "$tex" ] || continue
  n=$(basename "$tex" | cut -c1-4)
  prog=$(basename "$(ls code/"$n"_*.c 2>/dev/null | head -n 1)" .c)
  grep -oE '\\(val|getval\\[A-Za-z]+)\{[A-Za-z0-9_.-]+\}' "$tex" \
    | sed -E 's/.*\{([^}]+)\}$/\1/' | awk -v p="$prog" '{ print p "\t" $0 }'
done | sort -u)
for tsv in "$B"/data/ch[0-9][0-9]_*/values.tsv; do
  [ -f "$tsv" ] || continue
  prog=$(basename "$(dirname "$tsv")")
  awk -F'\t' -v p="$prog" 'NR == FNR { q[$0] = 1; next }
    !((p "\t" $1) in q) { print "code/" p ".c: value \047" $1 "\047 is recorded but no chapter quotes it"; bad = 1 }
    END { exit bad }' <(printf '%s\n' "$quoted") "$tsv" || status=1
done
exit $status
