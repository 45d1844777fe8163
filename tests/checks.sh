#!/usr/bin/env bash
# checks.sh BUILD_DIR -- a check that does not hold fails the program, and with
# it the build. Copies the source tree to a temporary directory, builds and runs
# ch04_multi_head there (it passes), then plants a bug in the library -- head i
# of the per-head loop takes its values through W_K instead of W_V -- and runs
# make again: it must stop with a non-zero status, and stderr must name the
# program and the failed check. The copy starts from BUILD_DIR's compiled
# objects and programs (file times kept, so only the planted file recompiles);
# everything happens in the copy, so the real build is never touched.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

git ls-files -z --cached --others --exclude-standard | xargs -0 cp -p --parents -t "$T" 2>/dev/null \
  || { fail "copy the source tree" "git ls-files | cp failed"; exit 0; }
mkdir -p "$T/build" && cp -a "$B/obj" "$B/lib" "$B/bin" "$T/build/" 2>/dev/null \
  || { fail "copy the build's objects" "make B=$B programs first"; exit 0; }
cd "$T"
prog=ch04_multi_head
target=build/out/$prog.txt

# Pass case: the tree as it is runs, and every check says ok.
if make --no-print-directory -s "$target" >make.out 2>make.err; then
  pass "$prog runs as it is (the build's objects are up to date in the copy)"
  if grep -q '^check: .* ok$' "$target" && ! grep -q 'FAILED' "$target"; then
    pass "$prog prints its checks, all ok"
  else fail "$prog prints its checks, all ok" "$(grep '^check:' "$target" | head -5)"; fi
else
  fail "$prog runs as it is (the build's objects are up to date in the copy)" "$(tail -5 make.err)"
fi

# Fail case: plant the bug, and make must fail naming the check.
lib=code/lib/layers/multihead.c
bug='s/slice_columns(p->w_v, w_v, d, d, i \* d_k, d_k);/slice_columns(p->w_k, w_v, d, d, i * d_k, d_k);/'
sed -i "$bug" "$lib"
if cmp -s "$lib" "$OLDPWD/$lib"; then
  fail "plant a bug in $lib" "the line the test edits is gone; update tests/checks.sh"
  exit 0
fi
if make --no-print-directory -s "$target" >make.out 2>make.err; then
  fail "make fails when a check fails" "make exited 0; stderr: $(head -5 make.err)"
else
  pass "make fails when a check fails"
  if grep -q "^$prog: check failed: .*max |fused - loop|" make.err; then
    pass "stderr names the program and the failed check"
  else fail "stderr names the program and the failed check" "$(head -8 make.err)"; fi
  if grep -q "error: $prog failed" make.err; then pass "make says which program failed"
  else fail "make says which program failed" "$(head -8 make.err)"; fi
  # The failed run wrote nothing: no temporary file, and the old output is
  # still out of date, so the next make runs the program again.
  if [ ! -e "$target.tmp" ] && ! make --no-print-directory -q "$target" 2>/dev/null; then
    pass "the failed run leaves nothing that looks up to date"
  else fail "the failed run leaves nothing that looks up to date" "$(ls -l build/out)"; fi
fi
