#!/bin/sh
# tests/fuzz/fuzz.sh: run the translator's libFuzzer harness (build/qhasm-fuzz,
# `make build/qhasm-fuzz`) for FUZZ_SECONDS per target, each target on its
# own persistent corpus (build/fuzz/corpus/TARGET), seeded with every .q
# file of the repository (tests/**.q, specs/**.q) and the regression inputs
# (tests/fuzz/regressions/).  Prints executions and findings per target;
# exit status 1 if anything was found.  Crash/hang/leak reproducers are kept
# in build/fuzz/artifacts/TARGET/: minimise one with
#   build/qhasm-fuzz -minimize_crash=1 -runs=10000 FILE
# and add it to tests/fuzz/regressions/ (tests/sh/fuzz.sh replays them).
#
# Environment: FUZZ_SECONDS (default 60) per target, FUZZ_TARGETS (default:
# every target of `qhasm --help`), BUILD (default build), QHASM, FUZZER.
set -u
BUILD=${BUILD:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
QHASM=${QHASM:-$BUILD/qhasm}
FUZZER=${FUZZER:-$BUILD/qhasm-fuzz}
[ -x "$FUZZER" ] || { echo "fuzz: $FUZZER not built (make $FUZZER; needs clang and libclang-rt-14-dev)"; exit 2; }
[ -x "$QHASM" ] || { echo "fuzz: $QHASM not built"; exit 2; }
targets=${FUZZ_TARGETS:-$("$QHASM" --help | sed -n 's/.*one of: *//p')}
[ -n "$targets" ] || { echo "fuzz: cannot list the targets of $QHASM"; exit 2; }

dir="$BUILD/fuzz"
seed="$dir/seed"
rm -rf "$seed"
mkdir -p "$seed"
n=0
for f in $(find tests specs -name '*.q' -type f | sort) tests/fuzz/regressions/*; do
  [ -f "$f" ] || continue
  cp "$f" "$seed/$(echo "$f" | tr '/' '_')"
  n=$((n + 1))
done
echo "fuzz: seed corpus: $n files (tests/**.q, specs/**.q, tests/fuzz/regressions/)"

total_exec=0
total_find=0
for t in $targets; do
  corpus="$dir/corpus/$t"
  art="$dir/artifacts/$t"
  mkdir -p "$corpus" "$art"
  before=$(ls "$art" | wc -l)
  log="$dir/$t.log"
  QHASM_FUZZ_TARGET=$t ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    "$FUZZER" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -print_final_stats=1 -dict=tests/fuzz/q.dict \
      -artifact_prefix="$art/" "$corpus" "$seed" > "$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -n "$execs" ] || execs=0
  after=$(ls "$art" | wc -l)
  found=$((after - before))
  [ $rc -ne 0 ] && [ $found -eq 0 ] && found=1
  total_exec=$((total_exec + execs))
  total_find=$((total_find + found))
  echo "fuzz: $t: $execs executions in ${FUZZ_SECONDS}s, corpus $(ls "$corpus" | wc -l) inputs, findings: $found"
  if [ $found -ne 0 ]; then
    grep -E 'ERROR: |runtime error|SUMMARY|==.*ABORTING|Test unit written|deadly signal' "$log" | head -8 | sed 's/^/fuzz:   /'
    echo "fuzz:   full log: $log; reproducers: $art/"
  fi
done
echo "fuzz: total: $total_exec executions, $total_find findings (targets: $targets)"
[ $total_find -eq 0 ]
