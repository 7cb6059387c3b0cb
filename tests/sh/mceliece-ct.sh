#!/bin/sh
# Constant time of the Classic McEliece kernels, dynamically (valgrind
# memcheck, djb's method; see tests/sh/ct.sh for the self-test that shows
# the method catches secret branches and indices): csrc/test_mceliece.c
# built with -DQHASM_VALGRIND_CT marks every input of every kernel
# undefined and runs each kernel once under
#   valgrind --error-exitcode=1 test_mceliece --valgrind-ct
# amd64 and amd64-avx2 (valgrind runs them); AVX-512 is NOT CHECKED
# (valgrind cannot run it; the CPU may lack it too).  The static taint pass
# (`secret` in every generated .q) runs at every translation.
set -u
BUILD=${BUILD:-build}
command -v valgrind >/dev/null 2>&1 || { echo "mceliece-ct.sh: skipped: valgrind not installed"; exit 77; }
out="$BUILD/mceliece-ct"
mkdir -p "$out"
objs=""
defs="-DQHASM_HAVE_AMD64 -DQHASM_VALGRIND_CT"
for d in amd64 amd64-avx2; do
  defs="$defs -DQHASM_HAVE_OUT_$(echo $d | tr 'a-z-' 'A-Z_')"
  for f in out/$d/mceliece*.asm; do
    o="$out/$d-$(basename "$f" .asm).o"
    nasm -f elf64 -o "$o" "$f" || { echo "mceliece-ct.sh: FAIL: cannot assemble $f"; exit 1; }
    objs="$objs $o"
  done
done
# shellcheck disable=SC2086
cc -O1 -g -std=c11 -Icsrc/include -Icsrc $defs -o "$out/test_mceliece" csrc/test_mceliece.c csrc/mceliece.c \
  csrc/ref/mceliece_ref.c csrc/cpu.c $objs -Wl,-z,noexecstack 2> "$out/cc.err" || {
  if grep -q memcheck.h "$out/cc.err"; then echo "mceliece-ct.sh: skipped: valgrind/memcheck.h not available"; exit 77; fi
  cat "$out/cc.err"; echo "mceliece-ct.sh: FAIL: build"; exit 1; }
# the harness's marking works: the reference gf_mul (a branch per bit of b) is caught
if valgrind -q --error-exitcode=1 "$out/test_mceliece" --valgrind-ct-selftest > "$out/self" 2>&1; then
  cat "$out/self"; echo "mceliece-ct.sh: FAIL: the branchy reference gf_mul on a secret was NOT caught"; exit 1
fi
grep -q uninitialised "$out/self" || { cat "$out/self"; echo "mceliece-ct.sh: FAIL: selftest failed for another reason"; exit 1; }
echo "mceliece-ct.sh: selftest: the reference gf_mul's secret branch is caught"
valgrind -q --error-exitcode=1 --track-origins=yes "$out/test_mceliece" --valgrind-ct > "$out/log" 2>&1
rc=$?
cat "$out/log"
[ $rc -eq 0 ] || { echo "mceliece-ct.sh: FAIL: valgrind reported secret-dependent branches or addresses"; exit 1; }
grep -q "^mceliece amd64-avx2 .*constant time" "$out/log" || { echo "mceliece-ct.sh: FAIL: amd64-avx2 not run"; exit 1; }
grep -q "^mceliece amd64 .*constant time" "$out/log" || { echo "mceliece-ct.sh: FAIL: amd64 not run"; exit 1; }
echo "mceliece-ct.sh: ok (amd64, amd64-avx2 constant time under valgrind; amd64-avx512 NOT CHECKED)"
