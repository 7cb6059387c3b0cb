#!/bin/sh
# The bitsliced GF(3) design for mult3sntrupP (docs/ntruprime.md): the
# GF(3) plane formulas on every pair of elements, and the model's products
# for p = 653, 761, 857 against schoolbook R/3 arithmetic.
set -e
cd "$(dirname "$0")/../.."
python3 -m gen.ntruprime_bs3 --trials 1
