#!/bin/sh
# Model files are user input (qhasm -u FILE): each malformed one below must
# give a FILE:LINE:1: error: line naming the problem, exit status 1, and no
# output file; a well-formed one (tests/q/inorder.model) must work.
set -u
QHASM=${QHASM:-${BUILD:-build}/qhasm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
# case: EXPECTED-LINE EXPECTED-TEXT, then the model text
check() {
  want_line=$1 want=$2 text=$3
  n=$((n + 1))
  printf '%b' "$text" > "$tmp/m$n.model"
  rm -f "$tmp/out.s"
  "$QHASM" -u "$tmp/m$n.model" tests/q/sched_flags.q -o "$tmp/out.s" 2> "$tmp/err"
  rc=$?
  got=$(head -1 "$tmp/err")
  case "$got" in
    "$tmp/m$n.model:$want_line:1: error: "*"$want"*) ;;
    *) echo "models.sh: case $n: expected '$tmp/m$n.model:$want_line:1: error: ...$want...', got '$got'"; fail=1 ;;
  esac
  [ $rc -eq 1 ] || { echo "models.sh: case $n: exit status $rc, expected 1"; fail=1; }
  [ ! -e "$tmp/out.s" ] || { echo "models.sh: case $n: an output file was written"; fail=1; }
}
head='model m amd64\nsource test\n'
check 3 "issue width must be a number of at least 1: 0" "${head}issue 0\nunits a\nclass alu latency 1 units a\n"
check 3 "issue width must be a number of at least 1: four" "${head}issue four\nunits a\nclass alu latency 1 units a\n"
check 4 "window must be a number of at least 0: -3" "${head}issue 4\nwindow -3\nunits a\nclass alu latency 1 units a\n"
check 5 "unknown unit b" "${head}issue 4\nunits a\nclass alu latency 1 units b\n"
check 5 "bad class line" "${head}issue 4\nunits a\nclass alu latency -1 units a\n"
check 5 "bad class line" "${head}issue 4\nunits a\nclass alu latency 1 units a slots 0\n"
check 4 "too many units (the limit is 32)" "${head}issue 4\nunits $(seq -s ' ' -f 'u%g' 1 40)\n"
check 4 "cannot parse: latency" "${head}issue 4\nlatency 3\n"
check 3 "needs model, issue, units and class lines" "source test\nissue 4\n"
check 4 "orders must be own or all: some" "${head}issue 4\norders some\nunits a\nclass alu latency 1 units a\n"
# a model lacking a class the target's instructions use: an error naming it
check 1 "has no class 'vrot'" "$(sed '/^class vrot /d' tests/q/inorder.model)\n"
# a well-formed model schedules
"$QHASM" -u tests/q/inorder.model tests/q/sched_flags.q -o "$tmp/ok.s" 2> "$tmp/err" ||
  { echo "models.sh: tests/q/inorder.model rejected: $(head -1 "$tmp/err")"; fail=1; }
# `orders all` accepted, and it schedules (the other models as candidates)
{ cat tests/q/inorder.model; echo "orders all"; } > "$tmp/all.model"
"$QHASM" -u "$tmp/all.model" tests/q/sched_flags.q -o "$tmp/all.s" 2> "$tmp/err" ||
  { echo "models.sh: orders all rejected: $(head -1 "$tmp/err")"; fail=1; }
[ $fail -eq 0 ] || { echo "models.sh: FAIL"; exit 1; }
echo "models.sh: $n malformed models rejected with located errors; a good one accepted"
