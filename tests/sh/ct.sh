#!/bin/sh
# Constant time, dynamically (valgrind memcheck; djb's method): the
# self-test first -- deliberately leaky kernels (tests/ct/leaky.c: a
# secret-dependent branch, a secret-dependent table index) must be caught
# and the constant-time one must pass -- then every implementation of every
# kernel valgrind can emulate, and the C glue, under
#   valgrind --error-exitcode=1 qhasm-test --valgrind-ct
# Implementations valgrind cannot run (AVX-512) are listed as NOT CHECKED.
set -u
BUILD=${BUILD:-build}
CC=${CC:-cc}
T="$BUILD/qhasm-test"
command -v valgrind >/dev/null 2>&1 || { echo "ct.sh: skipped: valgrind not installed"; exit 77; }
[ -x "$T" ] || { echo "ct.sh: FAIL: $T not built (make $T)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
VG="valgrind -q --error-exitcode=1 --track-origins=yes"

# 1. the self-test: the check must catch leaks
if ! $CC -O2 -g -o "$tmp/leaky" tests/ct/leaky.c 2> "$tmp/cc.err"; then
  if grep -q 'memcheck.h' "$tmp/cc.err"; then
    echo "ct.sh: skipped: valgrind/memcheck.h not available"; exit 77
  fi
  cat "$tmp/cc.err"; echo "ct.sh: FAIL: cannot build tests/ct/leaky.c"; exit 1
fi
for k in branch index; do
  if $VG "$tmp/leaky" $k > /dev/null 2> "$tmp/$k.err"; then
    cat "$tmp/$k.err"; echo "ct.sh: FAIL: the leaky kernel '$k' was NOT caught"; exit 1
  fi
  grep -q 'uninitialised' "$tmp/$k.err" || { cat "$tmp/$k.err"; echo "ct.sh: FAIL: leaky '$k': valgrind failed for another reason"; exit 1; }
  echo "ct.sh: leaky kernel '$k' caught: $(grep -m1 'uninitialised' "$tmp/$k.err" | sed 's/^==[0-9]*== //')"
done
$VG "$tmp/leaky" clean > /dev/null 2> "$tmp/clean.err" || { cat "$tmp/clean.err"; echo "ct.sh: FAIL: the constant-time kernel was reported"; exit 1; }
echo "ct.sh: constant-time comparison passes"

# 2. every kernel valgrind can run
$VG "$T" --valgrind-ct > "$tmp/out" 2> "$tmp/err"
rc=$?
cat "$tmp/out"
[ -s "$tmp/err" ] && cat "$tmp/err"
[ $rc -eq 77 ] && { echo "ct.sh: skipped: qhasm-test built without valgrind/memcheck.h"; exit 77; }
[ $rc -eq 0 ] || { echo "ct.sh: FAIL (status $rc)"; exit 1; }
grep -q 'NOT CHECKED' "$tmp/out" && echo "ct.sh: WARNING: some implementations were NOT checked for constant time (see above)"
echo "ct.sh: ok"
