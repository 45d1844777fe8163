#!/usr/bin/env bash
# check-markers.sh FILE... -- the snippet and solution markers in C sources are
# well formed, so the book can cut listings from them. One line per problem,
# "FILE:LINE: what", and exit status 1 if there is any:
#   // snippet: NAME ... // end snippet     pair up (snippets may nest), a NAME
#                                           is marked once per file
#   // BEGIN SOLUTION ... // END SOLUTION   pair up and never nest
# A marker the lines above do not match exactly (a typo such as "//snippet"
# without a name, or "// end-snippet") is reported too.
set -u
export LC_ALL=C   # match names byte by byte (tr_TR: [a-z] skips i)
[ $# -gt 0 ] || exit 0
awk '
function report(line, msg) { printf "%s:%d: %s\n", file, line, msg; bad = 1 }
function close_file(   i) {
  for (i = depth; i >= 1; i--)
    report(open_line[i], "snippet '\''" open_name[i] "'\'' has no // end snippet")
  if (sol) report(sol, "// BEGIN SOLUTION has no // END SOLUTION")
  depth = 0; sol = 0; delete seen
}
FNR == 1 { if (NR > 1) close_file(); file = FILENAME }
/^[ \t]*\/\/[ \t]*snippet:/ {
  if (match($0, /^[ \t]*\/\/[ \t]*snippet:[ \t]*[A-Za-z0-9_.-]+[ \t]*$/)) {
    name = $0; sub(/^[ \t]*\/\/[ \t]*snippet:[ \t]*/, "", name); sub(/[ \t]*$/, "", name)
    if (name in seen) report(FNR, "snippet '\''" name "'\'' is marked twice (first at line " seen[name] ")")
    else seen[name] = FNR
    depth++; open_name[depth] = name; open_line[depth] = FNR
  } else report(FNR, "malformed snippet marker (expected // snippet: NAME): " $0)
  next
}
/^[ \t]*\/\/[ \t]*end[ \t]*snippet/ {
  if (!match($0, /^[ \t]*\/\/[ \t]*end snippet[ \t]*$/)) report(FNR, "malformed marker (expected // end snippet): " $0)
  else if (depth == 0) report(FNR, "// end snippet without a // snippet: above it")
  else depth--
  next
}
/^[ \t]*\/\/[ \t]*BEGIN SOLUTION[ \t]*$/ {
  if (sol) report(FNR, "// BEGIN SOLUTION inside the solution region opened at line " sol)
  else sol = FNR
  next
}
/^[ \t]*\/\/[ \t]*END SOLUTION[ \t]*$/ {
  if (!sol) report(FNR, "// END SOLUTION without a // BEGIN SOLUTION above it")
  sol = 0
  next
}
/^[ \t]*\/\/[ \t]*(end[-_]snippet|snippet[ \t]*[A-Za-z0-9_.-]*[ \t]*$|BEGIN[ _-]SOLUTION|END[ _-]SOLUTION)/ {
  report(FNR, "malformed marker: " $0)
}
END { close_file(); exit bad }
' "$@"
