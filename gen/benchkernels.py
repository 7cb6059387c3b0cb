"""Run-time of every amd64 kernel translated by an older translator and by
this one, side by side: `make bench-kernels [OLD=rev]` or

    python3 -m gen.benchkernels [--old REV] [--rounds N] [--prefix P]

Issue 14 asks that no kernel in out/ gets slower with the allocator's
work.  The older revision (default df6640b, the last main commit before
the allocator merge da2d5e9) is checked out into a temporary worktree and
only its translator is built.  A second worktree of HEAD gets today's
generated .q translated by that old translator into its out/ (the files
the old one rejects keep today's translation and are reported as not
comparable) and its own qhasm-speed.  Then both qhasm-speed programs run
alternately, pinned to one core, forcing one implementation at a time,
and each round gives the ratio new/old of the sum of the IQMs of the
implementation's operations (each at its largest measured length, at most
4096 bytes).  The table gives the median and the range of the ratios over
the rounds; a kernel is faster or slower only when its whole range lies
more than 2% from 1.  Not a test: the figures depend on the machine.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from gen import manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OLD = "df6640b"
MAXLEN = 4096


def run(cmd: list[str], cwd: str = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def must(cmd: list[str], cwd: str = ROOT) -> None:
    p = run(cmd, cwd)
    if p.returncode != 0:
        sys.stderr.write(p.stdout[-2000:] + p.stderr[-2000:])
        raise SystemExit(f"benchkernels: {' '.join(cmd)} failed (status {p.returncode})")


def worktree(rev: str, path: str) -> None:
    must(["git", "worktree", "add", "--detach", "--force", path, rev])


def old_translations(oldq: str, tree: str) -> tuple[list[tuple[str, str]], dict[tuple[str, str], str]]:
    """Translate every generic amd64 implementation's .q in tree with the old
    translator over tree's out/; return the comparable (prim, impl) pairs
    and, for the others, the old translator's first error line."""
    m = manifest.parse(root=tree)
    ok: list[tuple[str, str]] = []
    bad: dict[tuple[str, str], str] = {}
    for im in m.impls("amd64", variants=False):
        if not im.gen or im.target != "amd64":
            continue
        apath = manifest.asm_path(m, im)
        probe = apath + ".old"
        p = run([oldq, "-m", "amd64", manifest.qpath(im), "-o", probe], cwd=tree)
        if p.returncode != 0:
            first = (p.stderr.strip().splitlines() or ["status %d" % p.returncode])[0]
            bad[(im.prim, im.name)] = "the old translator rejects it: " + first.replace("|", "/")
            continue
        os.replace(os.path.join(tree, probe), os.path.join(tree, apath))
        ok.append((im.prim, im.name))
    return ok, bad


def figure(speed: str, prim: str, impl: str) -> float | None:
    """The sum over the operations of the forced implementation of the IQM
    at the operation's largest length (ticks), or None if nothing ran."""
    p = run(["taskset", "-c", "1", speed, "-p", prim, "-i", impl, "-m", str(MAXLEN)])
    best: dict[str, tuple[int, int]] = {}
    for line in p.stdout.splitlines():
        w = line.split()
        if len(w) < 4 or not w[1].isdigit() or not w[2].isdigit() or not w[3].isdigit():
            continue
        n, iqm = int(w[2]), int(w[3])
        if w[0] not in best or n > best[w[0]][0]:
            best[w[0]] = (n, iqm)
    return float(sum(v for _, v in best.values())) if best else None


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default=DEFAULT_OLD, help="the older revision (default %(default)s)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--prefix", default="", help="only primitives whose name starts with this")
    ap.add_argument("--keep", action="store_true", help="keep the temporary worktrees")
    a = ap.parse_args(argv)
    new_speed = os.path.join(ROOT, os.environ.get("BUILD", "build"), "qhasm-speed")
    if not os.path.exists(new_speed):
        raise SystemExit("benchkernels: build/qhasm-speed missing (make)")
    tmp = tempfile.mkdtemp(prefix="qhasm-benchkernels.")
    old, oldtree = os.path.join(tmp, "old"), os.path.join(tmp, "new-with-old-translator")
    try:
        worktree(a.old, old)
        must(["make", "-s", "build/qhasm"], cwd=old)
        worktree("HEAD", oldtree)
        pairs, bad = old_translations(os.path.join(old, "build", "qhasm"), oldtree)
        must(["make", "-s", "-j2", "build/qhasm-speed", "build/qhasm-test"], cwd=oldtree)
        old_speed = os.path.join(oldtree, "build", "qhasm-speed")
        pairs = [pi for pi in pairs if pi[0].startswith(a.prefix)]
        # a wrong translation's time means nothing: the old code must pass
        for prim, impl in list(pairs):
            t = run([os.path.join(oldtree, "build", "qhasm-test"), "-q", "--no-abi", "-p", prim, "-i", impl])
            if t.returncode != 0:
                pairs.remove((prim, impl))
                bad[(prim, impl)] = "its old translation fails qhasm-test"
        ratios: dict[tuple[str, str], list[float]] = {pi: [] for pi in pairs}
        for r in range(a.rounds):
            for prim, impl in pairs:
                order = [(old_speed, 0), (new_speed, 1)]
                if r % 2:
                    order.reverse()
                v = [0.0, 0.0]
                for speed, k in order:
                    v[k] = figure(speed, prim, impl) or 0.0
                if v[0] > 0 and v[1] > 0:
                    ratios[(prim, impl)].append(v[1] / v[0])
        report(a.old, ratios, bad, a.prefix)
    finally:
        if not a.keep:
            for path in (old, oldtree):
                run(["git", "worktree", "remove", "--force", path])
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


def report(rev: str, ratios: dict[tuple[str, str], list[float]], bad: dict[tuple[str, str], str],
           prefix: str) -> None:
    print(f"# amd64 kernels: time with this translator / with the translator of {rev} "
          "(today's .q; median of per-round ratios, range)\n")
    print("| primitive | implementation | ratio | range | rounds | verdict |")
    print("|---|---|---:|---|---:|---|")
    tally = {"faster": 0, "same": 0, "slower": 0}
    for (prim, impl), rs in ratios.items():
        if not rs:
            print(f"| {prim} | {impl} | - | - | 0 | not measured (not run on this CPU) |")
            continue
        lo, hi = min(rs), max(rs)
        verdict = "faster" if hi < 0.98 else "slower" if lo > 1.02 else "same"
        tally[verdict] += 1
        print(f"| {prim} | {impl} | {statistics.median(rs):.3f} | {lo:.3f}-{hi:.3f} | {len(rs)} | {verdict} |")
    for (prim, impl), why in bad.items():
        if prim.startswith(prefix):
            print(f"| {prim} | {impl} | - | - | 0 | not comparable: {why} |")
    print(f"\n{tally['faster']} faster, {tally['same']} the same, {tally['slower']} slower "
          "(beyond 2% over every round)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
