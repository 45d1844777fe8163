#!/usr/bin/env bash
# check-snippets.sh BUILD_DIR -- every snippet marker in code/ is shown in the
# book exactly once. Reads the usage logs the filter wrote for the HTML chapters.
# Prints one line per problem; exits 1 if there is any.
set -u
export LC_ALL=C   # match names byte by byte (tr_TR: [a-z] skips i)
B=${1:-build}
used=$(cat "$B"/deps/[0-9][0-9]-*.html.snippets 2>/dev/null | awk -F'\t' 'NF == 3 { print $2 "\t" $3 "\t" $1 }')
# markers: FILE<TAB>LINE<TAB>NAME, each counted against the logs in one awk
awk -F'\t' 'NR == FNR { if (NF == 3) { k = $1 "\t" $2; n[k]++; w[k] = (n[k] > 1 ? w[k] " " : "") $3 }; next }
  { k = $1 "\t" $3; c = n[k] + 0
    if (c == 0) { print $1 ":" $2 ": snippet \047" $3 "\047 is marked but no chapter shows it"; bad = 1 }
    else if (c > 1) { print $1 ":" $2 ": snippet \047" $3 "\047 is shown " c " times: " w[k]; bad = 1 } }
  END { exit bad }' <(printf '%s\n' "$used") \
  <(grep -rHnoE '^\s*//\s*snippet:\s*[A-Za-z0-9_.-]+' code --include='*.c' --include='*.h' \
    | sed -E 's/^([^:]*):([0-9]+):\s*\/\/\s*snippet:\s*/\1\t\2\t/' | sort)
