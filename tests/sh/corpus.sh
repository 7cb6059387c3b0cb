#!/usr/bin/env bash
# Differential test of the qhasm-dialect front end: every file of the djb
# qhasm corpus (../shared/qhasm-corpus) listed in tests/corpus/corpus.conf
# is translated and run against the assembly SUPERCOP ships for it, once
# in source order and once scheduled for a model (-u zen4); the files that
# do not translate are listed with their located error.  Skipped (exit 77)
# when the corpus, nasm or gcc is absent.
set -u
Q=${QHASM:-build/qhasm}
python3 tests/corpus/corpus.py --qhasm "$Q" --calls "${CORPUS_CALLS:-100}" "$@" || exit $?
python3 tests/corpus/corpus.py --qhasm "$Q" --calls 20 --model zen4 "$@" | tail -1
exit "${PIPESTATUS[0]}"
