#!/usr/bin/env bash
# reference.sh BUILD_DIR [NAME...] -- the library against PyTorch; TAP out.
#
# Builds the C driver (tests/reference/driver.c, fns_*.c + the library) into
# BUILD_DIR/tests/refdriver and runs tests/reference/test_reference.py with
# Debian's python3 (python3-torch, python3-numpy): one TAP line per library
# function, with its largest difference from PyTorch. The table of all
# differences goes to BUILD_DIR/test/reference-max-diff.txt. NAMEs limit the
# run to those functions.
set -u
B=$1; shift
. tests/tap.sh
PY=${REFERENCE_PYTHON:-/usr/bin/python3}   # Debian's, with python3-torch
mkdir -p "$B/tests" "$B/test"

drv="$B/tests/refdriver"
if out=$(make --no-print-directory -s B="$B" refdriver 2>&1); then
  pass "reference driver builds"
else
  fail "reference driver builds" "$out"; exit 0
fi

if ! out=$("$PY" -c 'import numpy, torch' 2>&1); then
  fail "PyTorch reference tests: $PY cannot import torch and numpy (make deps)" "$out"
  exit 0
fi

summary=(--summary "$B/test/reference-max-diff.txt")
[ $# -eq 0 ] || summary=()        # a partial run keeps the full run's table
timeout 900 "$PY" tests/reference/test_reference.py "$drv" --tap-start $((TAP_N + 1)) \
  "${summary[@]}" "$@"
status=$?
[ "$status" -eq 0 ] || fail "test_reference.py exited with status $status"
exit 0
