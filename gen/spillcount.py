"""Static spill instructions of every kernel in out/, per translator:

    python3 -m gen.spillcount [--qhasm build/qhasm] [--base OTHER_QHASM]

Replays the translations `gen.regen` makes (the same commands, its -v
output) and counts, in the final IR each one dumps (`-d A`, or `-d K` after
the post-allocation schedule of a `-u` variant), the instructions that
access a spill slot.  With --base, a second translator (say, the one
before a change) is measured the same way, side by side.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def commands(qhasm: str, tmp: str) -> list[list[str]]:
    """the translator commands of a regeneration into tmp"""
    p = subprocess.run([sys.executable, "-m", "gen.regen", "--out", tmp, "--qhasm", qhasm, "-v"],
                       cwd=ROOT, capture_output=True, text=True, check=True)
    out = []
    for line in p.stdout.splitlines():
        if line.startswith("qhasm "):
            line = line[len("qhasm "):]
        if line.startswith("-m "):
            out.append(line.split())
    return out


def count(qhasm: str, args: list[str], cwd: str) -> int:
    args = [a for a in args]
    i = args.index("-o")
    del args[i:i + 2]
    stage = "K" if "-u" in args else "A"
    p = subprocess.run([qhasm, "-d", stage] + args + ["-o", os.devnull], cwd=cwd, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(f"spillcount: {' '.join(args)} failed: {p.stderr[:300]}")
    return sum(1 for line in p.stderr.splitlines() if re.search(r"\[spill\d+\]", line))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--qhasm", default="build/qhasm")
    ap.add_argument("--base", default=None)
    a = ap.parse_args()
    qhasm = os.path.abspath(a.qhasm)
    base = os.path.abspath(a.base) if a.base else None
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(qhasm, tmp)
        tot_new = tot_base = 0
        print(f"{'kernel':52s} {'before':>7s} {'after':>7s}" if base else f"{'kernel':52s} {'spills':>7s}")
        for c in cmds:
            name = c[c.index("-o") + 1][len("out/"):]
            n = count(qhasm, c, tmp)
            tot_new += n
            if base:
                b = count(base, c, tmp)
                tot_base += b
                print(f"{name:52s} {b:7d} {n:7d}")
            else:
                print(f"{name:52s} {n:7d}")
        print(f"{'total':52s} {tot_base:7d} {tot_new:7d}" if base else f"{'total':52s} {tot_new:7d}")


if __name__ == "__main__":
    main()
