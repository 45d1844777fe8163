#!/usr/bin/env bash
# stamp.sh BUILD_DIR CC -- the build stamp (book/filter/stamp.lua): commit, compiler,
# date, tab-separated, into BUILD_DIR/stamp.txt, written only when it changed, so a
# no-op make stays a no-op. Run by the Makefile as it starts.
export LC_ALL=C
B=$1 cc=$2
c=$(git rev-parse --short=12 HEAD 2>/dev/null) \
  && { git diff --quiet HEAD 2>/dev/null || c="$c+local changes"; } || c=''
s=$(printf '%s\t%s\t%s' "$c" "$($cc --version 2>/dev/null | head -n 1)" \
  "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)")
mkdir -p "$B"
if [ "$(cat "$B/stamp.txt" 2>/dev/null)" != "$s" ]; then
  printf '%s' "$s" > "$B/stamp.txt.tmp.$$" && mv "$B/stamp.txt.tmp.$$" "$B/stamp.txt"
fi
