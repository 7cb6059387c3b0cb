#!/bin/sh
# Cross-target kernel tests (docs/cross.md): for each of x86, ppc32, ppc64
# and sparc64, build libqhasm + qhasm-test + qhasm-speed with the target's
# compiler (make cross-<target>, csrc/cross.mk) and run them: natively for
# x86, under qemu-ppc -cpu 7400 / qemu-ppc64 / qemu-sparc64 for the others.
#
# Checks per target:
#   - the toolchain exists (a missing one is a FAILURE naming the packages,
#     never a skip: CI installs them all, see .ci/packages);
#   - qhasm-test (the full harness: vectors, differential against ref C on
#     every length 0..1100 and random longer ones, alignments, in place,
#     aliasing, canaries) passes with nothing failed and nothing skipped;
#   - its calls went through the target's ABI checker (qhasm-test prints
#     "abi: N calls through the ... checker"; tests/sh/abicheck-cross.sh
#     proves each checker catches violations);
#   - every implementation folder out/<target>*/ is linked in and listed
#     (a folder without its dispatch line would otherwise go untested);
#   - qhasm-speed runs, and under qemu says its figures are not speeds.
# The targets run in parallel; each one's log and time is printed.
#
# CROSS_TARGETS="x86 ppc32" limits the targets (default: all four).
set -u
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
# the cross targets of the manifest (every target but the host's amd64)
TARGETS=${CROSS_TARGETS:-$(python3 -m gen.manifest list | awk '$3 != "c" && $3 != "amd64" { print $3 }' | awk '!s[$0]++' | tr '\n' ' ')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# ---- build (sequential: the sub-makes share nothing but are noisy) -------
built=""
for t in $TARGETS; do
  if $MAKE -s --no-print-directory "cross-$t" > "$tmp/build-$t" 2>&1; then
    built="$built $t"
  else
    echo "cross.sh: FAIL: $t: build failed:"
    grep -m1 '^cross toolchain' "$tmp/build-$t" || tail -n 20 "$tmp/build-$t"
    status=1
  fi
done

# ---- run (in parallel) ----------------------------------------------------
run_target() {
  t=$1
  run=$($MAKE -s --no-print-directory "cross-info-$t" | sed -n 's/^run=//p')
  log="$tmp/run-$t"
  start=$(date +%s)
  ok=1
  if [ -n "$run" ]; then export QHASM_EMULATED=1; else export QHASM_EMULATED=0; fi
  # shellcheck disable=SC2086
  $run "$BUILD/$t/qhasm-test" > "$log.test" 2>&1 || ok=0
  tail -n 1 "$log.test" | grep -Eq '^[0-9]+ passed, 0 failed, 0 skipped$' || ok=0
  # every implementation went through the target's ABI checker (csrc/abicheck_<target>.S)
  grep -Eq '^abi: [1-9][0-9]* calls through the .* checker$' "$log.test" || {
    echo "the calls were not checked by an ABI checker for $t" >> "$log.test"; ok=0; }
  # every implementation the manifest lists for the target is in the
  # dispatch tables and ran
  # shellcheck disable=SC2086
  $run "$BUILD/$t/qhasm-test" -l > "$log.list" 2>&1 || ok=0
  python3 -m gen.manifest list --target "$t" | while read -r p impl _ kind _; do
    grep -Eq "^$p: (.* )?$impl(\(selected\))?( |\$)" "$log.list" || {
      echo "implementation $impl of $p (specs/kernels.conf) is not in the dispatch tables" >> "$log.test"; echo bad; }
    [ "$kind" = alias ] && continue
    grep -Eq "^$p +$impl +ok\$" "$log.test" || {
      echo "implementation $impl of $p did not pass" >> "$log.test"; echo bad; }
  done > "$log.missing"
  [ -s "$log.missing" ] && ok=0
  # shellcheck disable=SC2086
  $run "$BUILD/$t/qhasm-speed" -n 4 -m 64 -p poly1305 -p salsa20 > "$log.speed" 2>&1 || {
    echo "qhasm-speed exited with status $?" >> "$log.test"; ok=0; }
  grep -q '^onetimeauth_poly1305 selected [0-9]* [0-9]* ' "$log.speed" || {
    echo "qhasm-speed printed no poly1305 timing" >> "$log.test"; ok=0; }
  if [ -n "$run" ]; then
    grep -q '^qhasm-speed emulated .*figures under emulation are not speeds$' "$log.speed" || {
      echo "qhasm-speed under $run does not say figures are not speeds" >> "$log.test"; ok=0; }
  fi
  end=$(date +%s)
  echo "$ok $((end - start))" > "$log.result"
}

for t in $built; do
  run_target "$t" &
done
wait

for t in $built; do
  log="$tmp/run-$t"
  read -r ok secs < "$log.result" || { ok=0; secs=?; }
  if [ "$ok" = 1 ]; then
    impls=$(grep -Ec ' ok$' "$log.test")
    echo "cross.sh: $t: ok ($impls primitive x implementation runs, ${secs}s): $(tail -n 1 "$log.test")"
  else
    echo "cross.sh: FAIL: $t (${secs}s):"
    grep -v ' ok$' "$log.test" | tail -n 30
    status=1
  fi
done
[ $status = 0 ] && echo "cross.sh: all targets ok:$built"
exit $status
