#!/bin/sh
# Differential testing of the translator against the reference semantics
# (issue 13, docs/semantics.md), a bounded deterministic amount:
#   1. every kernel of specs/*/generated/ (all of them: Salsa20, Poly1305,
#      McEliece, NTRU Prime, SHA-512, SHAKE256) on the interpreter agrees
#      with the reference C (tests/diff/kernels.py, two at a time);
#   2. every kept mismatch of tests/diff/regressions/ now agrees;
#   3. fixed seeds of random programs (gen/qgen.py) on all five targets,
#      each translated without and with -u MODEL for every model of the
#      target, agree with the interpreter (gen/qdiff.py).  Seed 6 is an
#      AVX-512 batch (every AVX-512 form once): run where the CPU has
#      avx512f, translated and assembled (and said NOT RUN) elsewhere.
# `make fuzz-diff SECONDS=N` runs step 3 longer with fresh seeds.
set -e
cd "$(dirname "$0")/../.."
SEEDS=${DIFF_SEEDS:-1-6}
python3 tests/diff/kernels.py
python3 -m gen.qdiff --regressions tests/diff/regressions
python3 -m gen.qdiff --seeds "$SEEDS" --n 6 --coverage "${BUILD:-build}/diff-coverage.txt"
