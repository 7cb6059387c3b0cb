"""Static spill code of every out/ kernel: regenerate everything with a
translator (default build/qhasm) into a temporary tree and sum, per
assembly file, the spill loads and stores `qhasm --report` gives.

    python3 tests/alloc/spillcount.py [--qhasm PATH] [--json OUT] [--against OLD.json]

--against prints before/after per kernel and the totals (issue 14)."""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from gen import regen  # noqa: E402


def counts(qhasm: str) -> dict[str, int]:
    tmp = tempfile.mkdtemp(prefix="spillcount-")
    log = os.path.join(tmp, "log")
    wrap = os.path.join(tmp, "qhasm")
    with open(wrap, "w") as f:
        f.write(f"#!/bin/sh\nset -e\n'{qhasm}' \"$@\"\n"
                f"o=; p=; for a in \"$@\"; do [ \"$p\" = -o ] && o=$a; p=$a; done\n"
                f"echo \"== $o\" >>'{log}'\n'{qhasm}' \"$@\" --report >>'{log}'\n")
    os.chmod(wrap, 0o755)
    regen.regen(os.path.join(tmp, "tree"), wrap)
    res: dict[str, int] = {}
    cur = ""
    for line in open(log):
        if line.startswith("== "):
            cur = line[3:].strip()
            res.setdefault(cur, 0)
        m = re.match(r"\s*spill code: (\d+) loads, (\d+) stores", line)
        if m and cur:
            res[cur] += int(m.group(1)) + int(m.group(2))
    return res


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--qhasm", default=os.path.join(ROOT, "build", "qhasm"))
    ap.add_argument("--json")
    ap.add_argument("--against")
    a = ap.parse_args()
    c = counts(os.path.abspath(a.qhasm))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(c, f, indent=1, sort_keys=True)
    if a.against:
        old = json.load(open(a.against))
        for k in sorted(set(old) | set(c)):
            o, n = old.get(k, 0), c.get(k, 0)
            if o or n:
                print(f"{k:60s} {o:5d} -> {n:5d}{'  WORSE' if n > o else ''}")
        print(f"total spill instructions: {sum(old.values())} -> {sum(c.values())}")
    else:
        for k in sorted(c):
            print(f"{k:60s} {c[k]:5d}")
        print(f"total spill instructions: {sum(c.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
