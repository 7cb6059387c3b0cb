#!/usr/bin/env bash
# The translator on 1500 deterministic mutants of every .q in the repository.
exec python3 tests/malformed.py "${QHASM:-build/qhasm}" 1500
