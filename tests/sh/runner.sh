#!/bin/sh
# The test runner fails closed: a misspelt or misplaced `#!` directive, and a
# test expecting an error from a translation that succeeds, are failures,
# never passes.  Runs tests/run.py in a scratch tree holding only such tests.
set -u
BUILD=${BUILD:-build}
QHASM=${QHASM:-$BUILD/qhasm}
case "$QHASM" in /*) ;; *) QHASM="$(pwd)/$QHASM" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests/q" "$tmp/specs" "$tmp/tests/sh"
cp tests/run.py "$tmp/tests/"
cp -r gen "$tmp/gen"
cp specs/kernels.conf "$tmp/specs/"
prog='int64 a
enter f
input a
output a
leave'
check() {   # name, directive lines, expected result (ok|fail), expected text
  printf '%s\n%s\n' "$2" "$prog" > "$tmp/tests/q/$1.q"
  out=$(QHASM="$QHASM" python3 "$tmp/tests/run.py" --translator-only "$1" 2>&1)
  rm -f "$tmp/tests/q/$1.q"
  echo "$out" | grep -q "^\[$3\] tests/q/$1.q" || { echo "runner.sh: FAIL: $1: expected [$3]:"; echo "$out"; exit 1; }
  [ -z "$4" ] || echo "$out" | grep -q "$4" || { echo "runner.sh: FAIL: $1: expected '$4':"; echo "$out"; exit 1; }
  n=$((n + 1))
}
n=0
check typo '#! cuont mov 1' fail "unknown directive '#! cuont'"
check misplaced '#! driver x.c' fail "does not apply to q tests"
check noerror '#! error 3:1: something' fail "translation succeeded"
check wrongcount '#! count ^\s+ret 2' fail "1 lines match"
check good '#! count ^\s+ret 1' ok ""
echo "runner.sh: $n cases: unknown and misplaced directives and unmet expectations fail"
