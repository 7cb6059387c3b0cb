#!/bin/bash
# README.md's "A kernel in 20 lines": the .q shown is tests/run/loop_sum.q
# and the assembly shown is the translator's real output for it, less the
# %line directives (the README says so).
set -e
QHASM=${QHASM:-build/qhasm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the two code blocks after the "A kernel in 20 lines" heading
awk '/^## A kernel in 20 lines/{on=1} on&&/^```/{n++; next} on&&n==1{print > "'$tmp'/q"} on&&n==3{print > "'$tmp'/asm"} n>=4{exit}' README.md
[ -s "$tmp/q" ] && [ -s "$tmp/asm" ] || { echo "README: code blocks not found"; exit 1; }
cmp -s "$tmp/q" tests/run/loop_sum.q || { echo "README's .q differs from tests/run/loop_sum.q"; diff "$tmp/q" tests/run/loop_sum.q; exit 1; }
"$QHASM" -m amd64 tests/run/loop_sum.q -o "$tmp/sum.asm"
grep -v '^%line' "$tmp/sum.asm" > "$tmp/real"
cmp -s "$tmp/asm" "$tmp/real" || { echo "README's output differs from qhasm's:"; diff "$tmp/asm" "$tmp/real"; exit 1; }
echo "README example matches tests/run/loop_sum.q and its translation ($(wc -l < "$tmp/real") lines)"
