#!/bin/sh
# The bitsliced GF(3) design for mult3sntrupP (docs/ntruprime.md): the
# GF(3) plane formulas on every pair of elements, and the model's products
# for p = 653, 761, 857 against schoolbook R/3 arithmetic.
set -e
cd "$(dirname "$0")/../.."
python3 -m gen.ntruprime_bs3 --trials 1

# The generated kernels' code stays well inside Zen 3's 32 KB L1
# instruction cache (the straight-line version was 110863 bytes for
# p = 761 and ran at twice its bound; the loops made it 16211).
BUILD=${BUILD:-build}
command -v size >/dev/null 2>&1 || { echo "ntruprime-bs3.sh: skipped: no size(1)"; exit 77; }
# The AVX-512 kernels (amd64-avx512bs, zmm) have the same three loops; their
# bodies are larger (EVEX encodings, 16-slot transposes), 24 KB as well.
for impl in avx2bs avx512bs; do
  for p in 653 761 857; do
    o="$BUILD/out/amd64-$impl/ntruprime_mult3_amd64_${impl}_$p.o"
    [ -f "$o" ] || { echo "ntruprime-bs3.sh: FAIL: $o not built"; exit 1; }
    n=$(size -A "$o" | awk '$1 == ".text" { print $2 }')
    [ -n "$n" ] && [ "$n" -le 24576 ] || { echo "ntruprime-bs3.sh: FAIL: $o: .text $n bytes > 24576"; exit 1; }
    echo "amd64-$impl p=$p: .text $n bytes (<= 24576)"
  done
done
