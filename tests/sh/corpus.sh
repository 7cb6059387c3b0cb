#!/usr/bin/env bash
# Differential test of the qhasm-dialect front end: every file of the djb
# qhasm corpus (../shared/qhasm-corpus) listed in tests/corpus/corpus.conf
# is translated and run against the assembly SUPERCOP ships for it; the
# files that do not translate are listed with their located error.
# Skipped (exit 77) when the corpus, nasm or gcc is absent.
set -u
exec python3 tests/corpus/corpus.py --qhasm "${QHASM:-build/qhasm}" --calls "${CORPUS_CALLS:-100}" "$@"
