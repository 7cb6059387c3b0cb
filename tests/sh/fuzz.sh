#!/bin/sh
# The translator under hostile input, bounded for `make test`:
# 1. replays every file of tests/fuzz/regressions/ (crash reproducers found
#    by fuzzing) through $QHASM on every target: exit 0, or exit 1 with a
#    clean FILE:LINE:COL: error, within 30 s and 4 GB;
# 2. builds build/qhasm-fuzz (clang, libFuzzer) and fuzzes every target for
#    FUZZ_TOTAL seconds in total (default 20), printing executions and
#    findings (tests/fuzz/fuzz.sh; `make fuzz` is the long run);
#    the regressions are replayed through the sanitized fuzzer too.
# Exit 77 (skipped) if the fuzzer cannot be built, after the replay passed.
set -u
BUILD=${BUILD:-build}
QHASM=${QHASM:-$BUILD/qhasm}
FUZZ_TOTAL=${FUZZ_TOTAL:-20}
[ -x "$QHASM" ] || { echo "fuzz.sh: FAIL: $QHASM not built"; exit 1; }
targets=$("$QHASM" --help | sed -n 's/.*one of: *//p')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
n=0
for f in tests/fuzz/regressions/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  for t in $targets; do
    ( ulimit -v 4000000 2>/dev/null; exec timeout 30 "$QHASM" -m "$t" "$f" -o "$tmp/out" ) > /dev/null 2> "$tmp/err"
    rc=$?
    rm -f "$tmp/out"
    if [ $rc -eq 1 ]; then
      head -1 "$tmp/err" | grep -Eq '^[^:]+:[0-9]+:[0-9]+: error: ' ||
        { echo "fuzz.sh: FAIL: $f ($t): exit 1 without a FILE:LINE:COL: error: $(head -1 "$tmp/err")"; bad=1; }
    elif [ $rc -ne 0 ]; then
      echo "fuzz.sh: FAIL: $f ($t): status $rc: $(head -c 200 "$tmp/err" | head -1)"; bad=1
    fi
  done
done
echo "fuzz.sh: replayed $n regression inputs on targets: $targets"

if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz.sh: fuzzing skipped: clang not installed (Debian: clang, libclang-rt-14-dev)"
  [ $bad -eq 0 ] && exit 77 || exit 1
fi
if ! make -s BUILD="$BUILD" "$BUILD/qhasm-fuzz" > "$tmp/build" 2>&1; then
  cat "$tmp/build"
  echo "fuzz.sh: fuzzing skipped: cannot build $BUILD/qhasm-fuzz (libclang-rt-14-dev installed?)"
  [ $bad -eq 0 ] && exit 77 || exit 1
fi
if [ $n -gt 0 ]; then
  for t in $targets; do
    QHASM_FUZZ_TARGET=$t "$BUILD/qhasm-fuzz" tests/fuzz/regressions/* > "$tmp/replay" 2>&1 ||
      { grep -E 'ERROR|error:|SUMMARY' "$tmp/replay" | head -5; echo "fuzz.sh: FAIL: a regression input fails under the sanitized fuzzer ($t)"; bad=1; }
  done
fi
nt=$(echo $targets | wc -w)
secs=$((FUZZ_TOTAL / nt))
[ $secs -ge 1 ] || secs=1
FUZZ_SECONDS=$secs QHASM="$QHASM" BUILD="$BUILD" sh tests/fuzz/fuzz.sh || bad=1
[ $bad -eq 0 ] && echo "fuzz.sh: ok" || echo "fuzz.sh: FAIL"
exit $bad
