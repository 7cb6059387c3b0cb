#!/bin/sh
# The ABI checker catches violations: builds tests/abi/abitest.c with the
# checker (csrc/abicheck.c + the amd64 trampoline) and the hand-written
# kernels of tests/abi/broken.asm (one correct; the others clobber r12,
# rbx/rbp, rsp, the caller's stack, DF, MXCSR, or return with dirty ymm
# state) and asserts each verdict.  The ABI checks of the real kernels run
# inside qhasm-test (and `qhasm-test --abi-only`).
set -u
CC=${CC:-cc}
NASM=${NASM:-nasm}
case "$($CC -dumpmachine 2>/dev/null)" in
  x86_64-*) ;;
  *) echo "abicheck.sh: skipped: the checker has an amd64 trampoline only; $($CC -dumpmachine) is not x86_64"; exit 77 ;;
esac
command -v "$NASM" >/dev/null 2>&1 || { echo "abicheck.sh: skipped: nasm not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$NASM" -f elf64 -o "$tmp/broken.o" tests/abi/broken.asm || { echo "abicheck.sh: FAIL: nasm tests/abi/broken.asm"; exit 1; }
$CC -O2 -g -std=c11 -Wall -Wextra -Werror -Icsrc -o "$tmp/abitest" tests/abi/abitest.c \
    csrc/abicheck.c csrc/abicheck_amd64.S "$tmp/broken.o" -Wl,-z,noexecstack ||
  { echo "abicheck.sh: FAIL: cannot build the self-test"; exit 1; }
"$tmp/abitest"
rc=$?
[ $rc -eq 0 ] && echo "abicheck.sh: ok" || echo "abicheck.sh: FAIL (status $rc)"
exit $rc
