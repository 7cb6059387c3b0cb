#!/bin/sh
# Constant time of the Streamlined NTRU Prime kernels, dynamically:
# test_ntruprime --valgrind-ct under valgrind memcheck (in and k undefined,
# so a secret-dependent branch or address is an error), natively.  The
# static check is the translator's taint pass (`secret [in] [k]` in every
# generated .q; gen/regen.py fails on a violation).
set -u
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null 2>&1 || { echo "ntruprime-ct.sh: skipped: valgrind not installed"; exit 77; }
B=${BUILD:-build}/ntruprime
tests/sh/ntruprime.sh native -- -n 0 > /dev/null 2>&1 || true
T="$B/native/test_ntruprime"
[ -x "$T" ] || { echo "ntruprime-ct.sh: FAIL: $T not built"; exit 1; }
valgrind -q --error-exitcode=1 "$T" --valgrind-ct
rc=$?
[ $rc -eq 77 ] && { echo "ntruprime-ct.sh: skipped: built without valgrind/memcheck.h"; exit 77; }
[ $rc -eq 0 ] || { echo "ntruprime-ct.sh: FAIL (status $rc)"; exit 1; }
echo "ntruprime-ct.sh: ok"
