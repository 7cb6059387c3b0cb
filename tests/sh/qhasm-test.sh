#!/bin/sh
# Runs the kernel test harness: every implementation of every primitive
# against the reference C and published vectors (csrc/test.c).
BUILD=${BUILD:-build}
t="$BUILD/qhasm-test"
if [ ! -x "$t" ]; then
  echo "qhasm-test.sh: $t not built (make $t)"
  exit 1
fi
# the last lines: the skipped implementations (with the reason), then the summary
exec "$t"
