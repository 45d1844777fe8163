#!/usr/bin/env bash
# ref-tables.sh TARGET FNS_FILE... -- the header that lists the reference driver's
# tables of wrappers: one REF_fns_NAME per tests/reference/fns_NAME.c, after REF_core.
set -euo pipefail
export LC_ALL=C
target=$1; shift
mkdir -p "$(dirname "$target")"
{ for f in "$@"; do echo "extern const ref_entry REF_$(basename "$f" .c)[];"; done
  echo 'static const ref_entry *const REF_TABLES[] = {'; echo '    REF_core,'
  for f in "$@"; do echo "    REF_$(basename "$f" .c),"; done
  echo '    NULL,'; echo '};'; } > "$target.tmp.$$"
mv "$target.tmp.$$" "$target"
