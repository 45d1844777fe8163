#!/usr/bin/env bash
# check-units.sh [FILE...] -- no time, speed or size in the chapters' prose
# unless it is a spliced value. Flags a number (digits, or a number word such as
# "a", "few", "ten") written next to a unit of time, size or speed ("70 s",
# "under a minute", "a few GFLOP/s", "12 MB", "3x faster"), or a plural unit
# with no number after a word such as "in" or "takes" ("trained in seconds").
# Measured numbers are never quoted (CONTRIBUTING, "Measurements"); counted ones
# are spliced as [key]{.val}, which this check does not flag. Code blocks, inline code and
# math are not prose and are skipped. Prints FILE:LINE: the phrase, one line
# per problem; exits 1 if there is any, 2 if a file cannot be read.
set -u
export LC_ALL=C.UTF-8   # the same in any locale of the caller (tr_TR: [a-z] skips i)
[ $# -gt 0 ] || set -- chapters/[0-9][0-9]-*.md
for f in "$@"; do
  [ -r "$f" ] || { echo "check-units.sh: cannot read $f" >&2; exit 2; }
done
exec perl -CSD -e '
use strict; use warnings;
my $num = qr/(?:\d[\d.,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|
  fifteen|twenty|thirty|forty|fifty|sixty|hundred|thousand|few|several|dozen|half|a|an|
  couple\s+of)/xi;
# Units of time, size and speed. A bare "s" or "second" only after digits
# ("a second" is usually an ordinal).
my $unit = qr/(?:minutes?|mins?|hours?|days?|seconds|secs?|milliseconds?|microseconds?|
  nanoseconds?|ms|µs|us|ns|[KMGT]i?B|kB|bytes|kilobytes?|megabytes?|gigabytes?|terabytes?|
  [KMGT]?FLOP\/s|[KMGT]?FLOPS|tokens?\/s|tokens\s+per\s+second|[KMG]Hz|[KMGT]B\/s)/x;
my $faster = qr/(?:x|×|times)\s+(?:faster|slower|quicker|the\s+speed)/x;
# A unit with no number at all still claims a size or a duration ("trained in
# seconds", "takes microseconds"): a plural unit right after such a word.
my $bare = qr/(?:in|takes?|took|taking|within|under|over|only|just|mere|about|around)
  \s+(?:seconds|minutes|hours|days|milliseconds|microseconds|nanoseconds|kilobytes|
  megabytes|gigabytes|terabytes)/x;
my $status = 0;
for my $file (@ARGV) {
  open(my $fh, "<", $file) or die "check-units.sh: cannot read $file\n";
  my ($fence, $n) = (0, 0);
  while (my $line = <$fh>) {
    $n++;
    if ($line =~ /^\s*(```|~~~)/) { $fence = !$fence; next; }
    next if $fence;
    my $t = $line;
    $t =~ s/\[[^\]]*\]\{\.val[^}]*\}/VALUE/g;   # spliced values are fine
    $t =~ s/`[^`]*`/CODE/g;                      # inline code
    $t =~ s/\$\$.*?\$\$/MATH/g;
    $t =~ s/\$[^\$]*\$/MATH/g;                   # inline math
    $t =~ s/<!--.*?-->//g;
    while ($t =~ /(?<![\w.])($num(?:[\s-]+|&nbsp;|\x{a0})?(?:$unit)(?![\w\/])
                 |\d[\d.,]*\s*(?:s|sec|second)(?![\w\/])
                 |$num\s*$faster
                 |$bare)/gix) {
      print "$file:$n: unspliced quantity \"$1\"\n";
      $status = 1;
    }
  }
}
exit $status;
' "$@"
