#!/usr/bin/env bash
# broken.sh BUILD_DIR -- a broken input is a broken build, and the error names
# the file: a figure script reading a data file that does not exist, a figure
# script deleted while a chapter still uses it, an unterminated snippet marker.
# Works on a copy of the sources in BUILD_DIR/broken (removed when all passed).
set -u
B=$1
. tests/tap.sh
W=$B/broken
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
rm -rf "$W"; mkdir -p "$W"
git ls-files -co --exclude-standard | grep -vE '^(build|tests/browser/node_modules)/' \
  | tar -cf - -T - | tar -xf - -C "$W" || { fail "copy the sources into $W"; exit 0; }
# Start from a copy of the finished build (tar and cp -a keep every file's time,
# so make finds it up to date): only what a broken input touches is remade, and
# chapter 8 is not trained again. A build directory of another name is not
# copied (its dependency files name it); the copy then builds from scratch. Other
# groups may be writing into BUILD_DIR meanwhile (tests/run.sh runs them side by
# side): their temporaries (*.tmp.PID) are not copied.
BB=build
if [ "$(basename "$B")" = build ] && [ -d "$B/bin" ]; then
  mkdir -p "$W/$BB" && (cd "$B" && tar -cf - --exclude=./broken --exclude=./killed --exclude=./repro \
    --exclude=./test --exclude='./tests' --exclude='./san' --exclude=./screenshots \
    --exclude='*.tmp.[0-9]*' .) | tar -xf - -C "$W/$BB"
fi
mk() { (cd "$W" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory B=$BB "$@"); }
bad=0
# expect_fail WHAT PATTERN TARGET...: make fails and its stderr matches PATTERN
expect_fail() {
  local what=$1 pat=$2; shift 2
  if mk "$@" > "$T/out" 2> "$T/err"; then fail "$what fails the build" "make returned 0"; bad=1
  elif grep -qE "$pat" "$T/err"; then pass "$what fails the build, naming it"
  else fail "$what fails the build, naming it" "stderr lacks /$pat/: $(tail -n 5 "$T/err")"; bad=1; fi
}

# 1. a figure script that reads a missing data file
# (one curve of several: gnuplot draws the others and only warns)
fig=figures/ch02_spread.gp; name=ch02_spread
cp "$W/$fig" "$T/fig.gp"
sed -i "0,/data\.'[a-z_0-9]*\.dat'/s//data.'no_such_file.dat'/" "$W/$fig"
expect_fail "a figure reading a missing data file ($fig)" "$fig.*no_such_file\.dat|no_such_file\.dat.*$fig|$fig" \
  "$BB/figures/$name.svg"
grep -q "no_such_file.dat" "$T/err" || { fail "the error names the missing data file" "$(cat "$T/err")"; bad=1; }
cp "$T/fig.gp" "$W/$fig"

# 2. a figure script deleted while a chapter still uses it (the chapter untouched)
page=$BB/html/02-scaled-attention.html   # the page that uses the figure (enough to show it)
if mk "$page" > "$T/out" 2>&1; then
  rm "$W/$fig"
  expect_fail "a deleted figure script that chapter 2 uses" "figures/$name\.gp" "$page"
else fail "the copy builds its HTML" "$(tail -n 5 "$T/out")"; bad=1; fi
cp "$T/fig.gp" "$W/$fig"

# 3. an unterminated snippet marker that no chapter uses (in a module only
# chapter 1 links: editing a module reruns the programs that link it, and one
# that chapters 8 and 9 link would retrain both before the check fails)
src=code/lib/attention/kernel_regression.c
printf '\n// snippet: never_closed\n' >> "$W/$src"
line=$(wc -l < "$W/$src")
expect_fail "an unterminated snippet marker" "${src//./\\.}:$line: .*never_closed" "$page"
[ $bad -eq 0 ] && rm -rf "$W"
exit 0
