#!/usr/bin/env bash
# sweep.sh BUILD_DIR -- remove what killed makes left behind: every temporary
# (*.tmp.PID, *.tmp.PID.err, tex.tmp.PID/, dl/NAME.tmp.PID/ ...) whose process is
# gone. Those of a make still running are kept. Then the library objects whose
# source is gone (a module moved to another group, or removed), with their .d: a
# program's list of linked modules (book/build/link.sh) still names the old object,
# which, gone, relinks the program; left, its stale .d would ask for the old source.
# Run by the Makefile as it starts.
export LC_ALL=C
B=$1
[ -d "$B" ] || exit 0
find "$B" -name '*.tmp.[0-9]*' -prune 2>/dev/null | while IFS= read -r f; do
  p=$(printf '%s\n' "$f" | sed 's/.*\.tmp\.\([0-9]*\).*/\1/')
  if [ -n "$p" ] && [ ! -d "/proc/$p" ]; then rm -rf "$f"; fi
done
for o in "$B"/obj/lib/*/*.o "$B"/san/lib/*/*.o; do
  [ -e "$o" ] || continue
  src=${o#"$B"/*/}
  [ -f "code/${src%.o}.c" ] || rm -f "$o" "${o%.o}.d"
done
exit 0
