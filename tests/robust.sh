#!/usr/bin/env bash
# robust.sh BUILD_DIR -- the build depends neither on where the tree sits, nor on
# how many makes run at once, nor on the caller's locale:
#   1. a copy of the tree in a folder whose path has a space ("a b") builds what
#      touches a path: a program compiled and linked (book/build/link.sh), a TikZ
#      diagram (TEXINPUTS), a chapter page, a chapter tarball and the Gradescope
#      zips; and is then up to date;
#   2. two makes at once in that copy remake the tarballs, the EPUB (its staging
#      path: so the EPUB is made in the path with a space here, not in 1) and the
#      zips: both succeed, and what they leave equals BUILD_DIR's, byte for byte;
#   3. the text checks (book/check-*.sh) print the same under LC_ALL=tr_TR.UTF-8
#      as under C (a dotless i breaks [a-z] and grep -i there), and every script
#      of book/ and the test groups fixes its locale (a new one that forgets
#      fails here);
#   4. a module moved to another group (as linear went from layers/ to base/):
#      the next make of the programs succeeds, relinks the program that used it,
#      and is then up to date (the old object, which the program's list of linked
#      modules names, must not send make looking for the old source);
#   5. a header moves with it, its includes edited (as the engine moved
#      train/additive.h to layers/): the unit test that includes it rebuilds (its
#      stale .d must not hand the old header to the compiler);
#   6. two make -j2 at once from nothing in one build directory: the compile
#      steps, where both write the same objects at the same moment, succeed.
# (A make killed at any moment: tests/reproducible.sh kills its second build.)
# The copy starts from BUILD_DIR's finished build (tar keeps file times, so make
# finds it up to date) and only what is removed from it is remade: a few seconds.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/robust.XXXXXX"); trap 'rm -rf "$T"' EXIT
W="$T/a b/tree"

[ -s "$B/attention-in-c.epub" ] && [ -d "$B/bin" ] ||
  { fail "the book is built" "make B=$B first"; exit 0; }
# --- 1. a path with a space -------------------------------------------------
mkdir -p "$W/build"
git ls-files -co --exclude-standard | grep -vE '^(build|tests/browser/node_modules)/' |
  tar -cf - -T - | tar -xf - -C "$W" || { fail "copy the sources into '$W'"; exit 0; }
(cd "$B" && tar -cf - --exclude='./broken' --exclude='./killed' --exclude='./repro' \
   --exclude='./test' --exclude='./tests' --exclude='./san' --exclude='./screenshots' \
   --exclude='./assignments' --exclude='*.tmp.[0-9]*' .) | tar -xf - -C "$W/build"
# The copy has no .git: lend it this tree's, so its build stamp (commit, local
# changes) is the same and its pages stay up to date.
GIT_DIR=$(git rev-parse --absolute-git-dir)
mk() {
  (cd "$W" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL GIT_DIR="$GIT_DIR" GIT_WORK_TREE="$W" \
     make --no-print-directory B=build "$@")
}

prog=ch01_intuition diag=ch01_flow page=html/01-intuition.html
made=(bin/$prog figures/$diag.pdf figures/$diag.svg $page html/download/$prog.tar.gz
      gradescope/.stamp)
if mk -q all 2>/dev/null; then pass "the copy of the build in '$W' is up to date"
else fail "the copy of the build in '$W' is up to date" "$(mk -n all 2>&1 | head -n 5)"; fi
for f in "${made[@]}"; do rm -rf "$W/build/$f"; done
rm -rf "$W/build/gradescope"
if mk "${made[@]/#/build/}" > "$T/space.log" 2>&1 && mk -q "${made[@]/#/build/}"; then
  pass "in a path with a space: link, TikZ, a page, a tarball, the zips"
else
  fail "in a path with a space: link, TikZ, a page, a tarball, the zips" \
    "$(tail -n 12 "$T/space.log")"
fi
for f in html/download/$prog.tar.gz figures/$diag.pdf figures/$diag.svg; do
  check "in a path with a space: $f is the same as $B's" cmp "$W/build/$f" "$B/$f"
done

cp -R "$W/build/gradescope" "$T/zips" 2>/dev/null   # the zips made alone

# --- 2. two makes at once ----------------------------------------------------
both=(attention-in-c.epub gradescope/.stamp)
for t in "$B"/html/download/*.tar.gz; do both+=("html/download/$(basename "$t")"); done
for f in "${both[@]}"; do rm -f "$W/build/$f"; done
rm -rf "$W/build/gradescope"
mk "${both[@]/#/build/}" > "$T/one.log" 2>&1 & one=$!
mk "${both[@]/#/build/}" > "$T/two.log" 2>&1; s2=$?
wait $one; s1=$?
if [ $s1 -eq 0 ] && [ $s2 -eq 0 ]; then
  pass "two makes at once in the path with a space, of the tarballs, the EPUB and the zips, both succeed"
else
  fail "two makes at once in the path with a space, of the tarballs, the EPUB and the zips, both succeed" \
    "exit $s1 and $s2: $(tail -n 6 "$T/one.log"; tail -n 6 "$T/two.log")"
fi
bad=()
for f in "${both[@]}"; do
  [ "$f" = gradescope/.stamp ] && continue
  cmp -s "$W/build/$f" "$B/$f" || bad+=("$f differs from $B/$f")
done
for z in "$T"/zips/*.zip; do
  cmp -s "$z" "$W/build/gradescope/$(basename "$z")" ||
    bad+=("gradescope/$(basename "$z") differs from the one made alone")
done
left=$(cd "$W/build" && find . -name '*.tmp.[0-9]*' | head -n 5)
[ -n "$left" ] && bad+=("left behind: $left")
if [ ${#bad[@]} -eq 0 ]; then pass "after two makes at once: the same bytes, no temporary left"
else fail "after two makes at once: the same bytes, no temporary left" "$(printf '%s\n' "${bad[@]}")"; fi

# --- 3. the caller's locale --------------------------------------------------
if ! locale -a 2>/dev/null | grep -qix 'tr_TR.utf8'; then
  fail "the locale tr_TR.UTF-8 is installed" "run 'sudo make deps' (it generates it)"
else
  mapfile -t srcs < <(git ls-files 'code/*.c' 'code/lib/*/*.[ch]')
  for c in book/check-*.sh; do
    case $c in   # each with what the build gives it (no arguments: the chapters)
      */check-markers.sh) args=("${srcs[@]}") ;;
      */check-units.sh|*/check-glossary.sh) args=() ;;
      *) args=("$B") ;;
    esac
    want=$(env LC_ALL=C bash "$c" "${args[@]}" 2>&1)
    got=$(env LC_ALL=tr_TR.UTF-8 bash "$c" "${args[@]}" 2>&1)
    if [ "$want" = "$got" ]; then pass "$c says the same under tr_TR.UTF-8"
    else fail "$c says the same under tr_TR.UTF-8" "$(diff <(echo "$want") <(echo "$got") | head)"; fi
  done
fi
# every script fixes its locale (test groups through tests/tap.sh)
loose=()
for s in book/*.sh book/build/*.sh tests/*.sh; do
  [ -f "$s" ] || continue
  grep -qE '^[[:space:]]*export LC_ALL=C(\.UTF-8)?\b' "$s" ||
    grep -qE '^\. tests/tap\.sh' "$s" || loose+=("$s")
done
if [ ${#loose[@]} -eq 0 ]; then pass "every script of book/ and the test groups sets LC_ALL"
else fail "every script of book/ and the test groups sets LC_ALL" "$(printf '%s: no export LC_ALL=C\n' "${loose[@]}")"; fi

# --- 4. a module moves to another group --------------------------------------
what="a module moved to another group: make programs relinks its user, then is up to date"
mv "$W/code/lib/attention/kernel_regression.c" "$W/code/lib/base/kernel_regression.c"
touch -d '1 minute ago' "$W/build/bin/ch01_intuition"
before=$(stat -c %Y "$W/build/bin/ch01_intuition")
if ! mk programs > "$T/move.log" 2>&1; then fail "$what" "$(tail -n 6 "$T/move.log")"
elif [ "$(stat -c %Y "$W/build/bin/ch01_intuition")" = "$before" ]; then
  fail "$what" "build/bin/ch01_intuition was not relinked"
elif ! mk -q programs; then fail "$what" "$(mk -n programs 2>&1 | head -n 4)"
else pass "$what"; fi

# --- 5. a header moves, and a unit test that includes it ------------------------
what="a header moved to another group: the unit test that includes it rebuilds"
# first built where the header is (case 4 moved the source only), leaving its .d
mk build/tests/test_kernel_regression > "$T/move-h0.log" 2>&1
if ! grep -q 'attention/kernel_regression.h' "$W/build/tests/test_kernel_regression.d" 2>/dev/null; then
  fail "$what" "the unit test did not build before the move: $(tail -n 4 "$T/move-h0.log")"
  exit 0
fi
mv "$W/code/lib/attention/kernel_regression.h" "$W/code/lib/base/kernel_regression.h"
grep -rl 'attention/kernel_regression.h' "$W/code" "$W/tests/unit" |
  xargs -d '\n' sed -i 's|attention/kernel_regression.h|base/kernel_regression.h|'
if ! mk build/tests/test_kernel_regression > "$T/move-h.log" 2>&1; then
  fail "$what" "$(tail -n 6 "$T/move-h.log")"
elif ! "$W/build/tests/test_kernel_regression" > "$T/move-h.run" 2>&1; then
  fail "$what" "the rebuilt test fails: $(tail -n 3 "$T/move-h.run")"
else pass "$what"; fi

# --- 6. two makes at once from nothing -----------------------------------------
# They compile at -O0 (the race is the same, the compiler three times faster).
what="two make -j2 at once in one build directory, from nothing"
fast=(CFLAGS="-std=c11 -O0 -ffp-contract=off -g -Wall -Wextra -Wpedantic -Wshadow -Werror")
race() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j2 B="$T/race" \
           "${fast[@]}" library programs; }
race > "$T/race-a.log" 2>&1 & a=$!
race > "$T/race-b.log" 2>&1; sb=$?
wait $a; sa=$?
if [ $sa -eq 0 ] && [ $sb -eq 0 ]; then pass "$what"
else fail "$what" "$(tail -n 6 "$T/race-a.log"; tail -n 6 "$T/race-b.log")"; fi
exit 0
