#!/bin/sh
# The ABI checker catches violations on the cross targets too (x86, ppc32,
# ppc64, sparc64; docs/cross.md).  For each target, builds
# tests/abi/abitest-cross.c with the checker (csrc/abicheck.c and the
# target's trampoline csrc/abicheck_<target>.S) and the hand-written kernels
# of tests/abi/broken_<target>.S, with the target's compiler and flags from
# csrc/cross.mk (make -s cross-info-<target>), and runs it natively (x86) or
# under qemu-user: the correct kernels must pass with the right result
# (which also checks the argument layout: 64-bit arguments in two words on
# the 32-bit targets, a stack argument on ppc32), and each broken one must
# be reported with its violation:
#   x86      ebx, esi/edi, ebp clobbered; esp off; caller stack written;
#            DF set; x87 control word; x87 stack left non-empty (a value,
#            MMX without emms); MXCSR
#   ppc32    r14, r31, f14, cr3, v20 clobbered; VSCR[NJ]; r1 off; r2
#            (thread pointer) changed; caller frame written; FPSCR RN
#   ppc64    r14, f31, cr4, v31 clobbered; r1 off; r2 (TOC) not restored;
#            r13 changed; caller frame written; FPSCR RN
#   sparc64  the caller's %l0, %i3, %fp written by a leaf routine; %sp
#            off; %g2 (application; allowed for compiled C), %g6, %g7
#            changed; caller frame written; %fsr rounding direction
# ppc32 runs twice: under qemu-ppc -cpu 7400 (AltiVec: v20-v31 and VSCR
# checked) and under the default CPU (no AltiVec: those kernels skipped,
# the rest still caught).  The ABI checks of the real kernels run inside
# each target's qhasm-test (tests/sh/cross.sh).
#
# A missing toolchain or emulator is a failure, as in tests/sh/cross.sh.
# CROSS_TARGETS="x86 ppc64" limits the targets (default: all four).
set -u
MAKE=${MAKE:-make}
# the cross targets of the manifest (specs/kernels.conf): every target but amd64
TARGETS=${CROSS_TARGETS:-$(python3 -m gen.manifest list | awk '$3 != "c" && $3 != "amd64" { print $3 }' | awk '!s[$0]++' | tr '\n' ' ')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# run_test TARGET LABEL RUN...: run the self-test binary, report
run_test() {
  t=$1; label=$2; shift 2
  if "$@" "$tmp/abitest-$t" > "$tmp/log-$label" 2>&1; then
    n=$(grep -c ' ok: ' "$tmp/log-$label")
    s=$(grep -c ' skipped ' "$tmp/log-$label")
    skip=""; [ "$s" = 0 ] || skip=", $s skipped"
    echo "abicheck-cross.sh: $label: ok ($n kernels judged right$skip; $(head -n 1 "$tmp/log-$label" | sed 's/^abitest-cross: //; s/:.*//'))"
    [ "$s" = 0 ] || grep ' skipped ' "$tmp/log-$label" | sed 's/^/    /'
  else
    echo "abicheck-cross.sh: FAIL: $label ($*):"
    sed 's/^/    /' "$tmp/log-$label"
    status=1
  fi
}

for t in $TARGETS; do
  info=$($MAKE -s --no-print-directory "cross-info-$t" 2>&1) || {
    echo "abicheck-cross.sh: FAIL: $t: make cross-info-$t: $info"; status=1; continue; }
  cc=$(printf '%s\n' "$info" | sed -n 's/^cc=//p')
  cflags=$(printf '%s\n' "$info" | sed -n 's/^cflags=//p')
  run=$(printf '%s\n' "$info" | sed -n 's/^run=//p')
  pkg=$(printf '%s\n' "$info" | sed -n 's/^pkg=//p')
  missing=""
  for tool in ${cc%% *} ${run%% *}; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
  done
  if [ -n "$missing" ]; then
    echo "abicheck-cross.sh: FAIL: $t: cross toolchain missing:$missing; install: $pkg"
    status=1
    continue
  fi
  # shellcheck disable=SC2086
  if ! $cc $cflags -O2 -g -std=c11 -Wall -Wextra -Werror -Icsrc -o "$tmp/abitest-$t" \
       tests/abi/abitest-cross.c csrc/abicheck.c "csrc/abicheck_$t.S" "tests/abi/broken_$t.S" \
       -Wl,-z,noexecstack > "$tmp/build-$t" 2>&1; then
    echo "abicheck-cross.sh: FAIL: $t: cannot build the self-test with $cc $cflags:"
    sed 's/^/    /' "$tmp/build-$t"
    status=1
    continue
  fi
  # shellcheck disable=SC2086
  run_test "$t" "$t" $run
  if [ "$t" = ppc32 ]; then
    run_test "$t" "ppc32-no-altivec" qemu-ppc
    grep -q '^abi_clobber_v20 .*skipped' "$tmp/log-ppc32-no-altivec" || {
      echo "abicheck-cross.sh: FAIL: ppc32 under the default qemu-ppc CPU: expected no AltiVec (AltiVec kernels skipped)"
      status=1; }
  fi
done
[ $status = 0 ] && echo "abicheck-cross.sh: ok: $TARGETS"
exit $status
