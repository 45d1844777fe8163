# tap.sh -- sourced by the shell test scripts: print TAP lines.
#   check "description" command args...   -> ok / not ok, by the command's status
#   pass "description" / fail "description" "why"
TAP_N=0
# Text is matched, sorted and measured the same in every locale of the caller
# (tr_TR.UTF-8 folds i to a dotless one): characters are UTF-8, order is bytes.
export LC_ALL=C.UTF-8
pass() { TAP_N=$((TAP_N + 1)); printf 'ok %d - %s\n' "$TAP_N" "$1"; }
fail() {
  TAP_N=$((TAP_N + 1)); printf 'not ok %d - %s\n' "$TAP_N" "$1"
  [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/# /' | head -n 20
  return 0
}
check() {
  local what=$1; shift
  local out
  if out=$("$@" 2>&1); then pass "$what"; else fail "$what" "$out"; fi
}
# nap SECONDS: wait without starting a process, for a loop that polls for
# minutes (a sleep each time: thousands of processes): a read that times out on
# a pipe nobody writes, opened at the first nap (its number in NAP_FD).
nap() {
  [ -n "${NAP_FD:-}" ] || exec {NAP_FD}<> <(:)
  read -rt "$1" -u "$NAP_FD" || :
}
# unmeasured FILE: a program's stdout without its "== measured ... ==" sections,
# the only output allowed to vary from run to run (wall-clock timings).
unmeasured() { awk '/^== measured.* ==$/ { skip = 1; next } /^== .* ==$/ { skip = 0 } !skip' "$1"; }
# test_args PROGRAM: the arguments a slow program asks its tests to use, from a
# line "// Test args: ..." in code/PROGRAM.c (chapter 8: a small training run).
test_args() { sed -n 's|^// Test args: *||p' "code/$1.c" 2>/dev/null | head -n 1; }
# autograder_image ZIP DIR: a Gradescope zip unpacked into DIR and set up once, as
# Gradescope's image is by the zip's setup.sh: its --prebuild line, run as written
# there (the rest installs packages and a user); its messages in DIR.log.
autograder_image() {
  local zip dir=$2
  zip=$(readlink -f "$1")
  rm -rf "$dir"; mkdir -p "$dir"
  (cd "$dir" && unzip -q "$zip" && bash -c "$(grep -e '--prebuild' setup.sh)" setup.sh) \
    > "$dir.log" 2>&1
}
