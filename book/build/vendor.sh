#!/usr/bin/env bash
# vendor.sh BUILD_DIR TARGET -- the HTML book's search library, MiniSearch from
# npm, exactly as pinned in book/package-lock.json, copied into the book as
# TARGET (BUILD_DIR/html/minisearch.js) with its licence on top, so the search
# works from file:// with no network. `npm ci` runs (against the npm registry or
# npm's cache) in BUILD_DIR/npm only when the installed version is not the
# pinned one; it is staged in BUILD_DIR/npm.tmp.PID, copied from there, and
# then renamed.
set -euo pipefail
export LC_ALL=C
B=$1 target=$2
command -v npm >/dev/null || { echo "vendor.sh: npm is missing: run 'sudo make deps'" >&2; exit 1; }
pinned() {  # the version book/package-lock.json pins for minisearch
  sed -n '/"node_modules\/minisearch"/,/}/s/.*"version": *"\([^"]*\)".*/\1/p' book/package-lock.json
}
installed() {  # installed DIR: the version installed in DIR, or nothing
  sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$1/node_modules/minisearch/package.json" 2>/dev/null | head -n 1
}
want=$(pinned)
[ -n "$want" ] || { echo "vendor.sh: book/package-lock.json pins no minisearch" >&2; exit 1; }
dir=$B/npm
if [ "$(installed "$dir")" != "$want" ] || ! cmp -s book/package-lock.json "$dir/package-lock.json"; then
  # install into a folder of this process and copy from there (another make
  # may be replacing BUILD_DIR/npm meanwhile), then put it in place
  dir=$B/npm.tmp.$$
  trap 'rm -rf "$B/npm.tmp.$$"' EXIT
  rm -rf "$dir"; mkdir -p "$dir"
  cp book/package.json book/package-lock.json "$dir/"
  if ! out=$(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error 2>&1); then
    echo "vendor.sh: npm ci failed in $dir:" >&2; printf '%s\n' "$out" | sed 's/^/  /' >&2; exit 1
  fi
fi
[ "$(installed "$dir")" = "$want" ] || { echo "vendor.sh: minisearch $want is not what npm ci installed" >&2; exit 1; }
src=$dir/node_modules/minisearch
mkdir -p "$(dirname "$target")"
{ printf '/*! MiniSearch %s (npm), vendored by book/build/vendor.sh. Its licence:\n' "$want"
  sed 's/\*\//* \//g' "$src/LICENSE.txt"
  printf '*/\n'
  grep -v '^//# sourceMappingURL=' "$src/dist/umd/index.js"; } > "$target.tmp.$$"
mv "$target.tmp.$$" "$target"
if [ "$dir" != "$B/npm" ]; then
  { rm -rf "$B/npm" && mv -T "$dir" "$B/npm"; } 2>/dev/null || true
fi
