#!/usr/bin/env bash
# The qhasm-dialect front end and the language features it brought
# (extern data, stack sub-slots, early return): translator tests in
# tests/corpus/q/*.q and run tests in tests/corpus/run/*.q, with the
# conventions of tests/run.py (#! directives, NAME.c drivers).
set -u
exec python3 - "$@" <<'PY'
import glob, os, sys, tempfile
sys.path.insert(0, "tests")
import run
with tempfile.TemporaryDirectory() as tmp:
    for p in sorted(glob.glob("tests/corpus/q/*.q")):
        run.qtest(os.path.abspath(p), tmp)
    for p in sorted(glob.glob("tests/corpus/run/*.q")):
        run.runtest(os.path.abspath(p), tmp)
        for m in ("haswell", "zen4"):
            run.runtest(os.path.abspath(p), tmp, m)
r = run.results
print(f"dialects: {r['ok']} passed, {r['fail']} failed")
sys.exit(1 if r["fail"] else 0)
PY
