#!/usr/bin/env bash
# check-snippets.sh BUILD_DIR -- every snippet marker in code/ is shown in the
# book exactly once. Reads the usage logs the filter wrote for the HTML chapters.
# Prints one line per problem; exits 1 if there is any.
set -u
export LC_ALL=C   # match names byte by byte (tr_TR: [a-z] skips i)
B=${1:-build}
used=$(cat "$B"/deps/[0-9][0-9]-*.html.snippets 2>/dev/null | awk -F'\t' 'NF == 3 { print $2 "\t" $3 "\t" $1 }')
status=0
# markers: FILE<TAB>LINE<TAB>NAME
while IFS=$'\t' read -r file line name; do
  n=$(printf '%s\n' "$used" | awk -F'\t' -v f="$file" -v s="$name" '$1 == f && $2 == s' | wc -l)
  if [ "$n" -eq 0 ]; then
    echo "$file:$line: snippet '$name' is marked but no chapter shows it"; status=1
  elif [ "$n" -gt 1 ]; then
    where=$(printf '%s\n' "$used" | awk -F'\t' -v f="$file" -v s="$name" '$1 == f && $2 == s { print $3 }' | paste -sd' ')
    echo "$file:$line: snippet '$name' is shown $n times: $where"; status=1
  fi
done < <(grep -rHnoE '^\s*//\s*snippet:\s*[A-Za-z0-9_.-]+' code --include='*.c' --include='*.h' \
         | sed -E 's/^([^:]*):([0-9]+):\s*\/\/\s*snippet:\s*/\1\t\2\t/' | sort)
exit $status
