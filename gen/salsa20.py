"""Expand the Salsa20/R kernel templates (specs/salsa20/*.q.in) into .q files.

    python3 -m gen.salsa20 [--impl IMPL ...] [--rounds R ...] [--out DIR] [--stdout]

One template per implementation (the manifest's `gen=salsa20` lines,
specs/kernels.conf); the number of rounds R (20, 12, 8) is the template
parameter.  Each generated file specs/salsa20/generated/salsa20_<id>_r<R>.q
holds qhasm_kernel_salsa<R>_<id>_blocks and _core (see csrc/impl.h), where
<id> is the implementation name with '-' replaced by '_'.

Templates see these parameters (gen/template.py describes the syntax):
    R, ID, NAME (= qhasm_kernel_salsa<R>_<id>), HALF (= R // 2)
    COLUMN, ROW  the quarter-rounds of a column / row round as index tuples
                 (y0, y1, y2, y3): y1 ^= (y0+y3)<<<7, y2 ^= (y1+y0)<<<9,
                 y3 ^= (y2+y1)<<<13, y0 ^= (y3+y2)<<<18
    steps(QRS)   the 16 steps (t, a, b, rot) of a round, t ^= (a+b) <<< rot,
                 interleaved across the quarter-rounds (step 0 of each
                 quarter-round, then step 1, ...) for instruction-level
                 parallelism
    DR           steps(COLUMN) + steps(ROW): one double round
    SEQ          one double round quarter-round by quarter-round (SEQ_COLUMN,
                 SEQ_ROW: the order), for integer kernels short of registers
    X86_QRS      the quarter-rounds of a double round in the x86 kernel's order
    ROT1         how salsa20_block1.q.inc rotates: "rot" or "ternlog"
    groups(ST, n=4)  ST in groups of n independent steps (j, t, a, b, rot)
    PRE, PRE9, PREWORDS  the counter-independent steps of the first column
                 round, the step whose rotated sum is, and the words PRE writes
"""
from __future__ import annotations

import argparse
import os
import sys

from gen.template import expand

ROUNDS = [20, 12, 8]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = "specs/salsa20"
GENERATED = f"{SPECS}/generated"

COLUMN = [(0, 4, 8, 12), (5, 9, 13, 1), (10, 14, 2, 6), (15, 3, 7, 11)]
ROW = [(0, 1, 2, 3), (5, 6, 7, 4), (10, 11, 8, 9), (15, 12, 13, 14)]
ROTS = (7, 9, 13, 18)

Step = tuple[int, int, int, int]

# The integer amd64 kernel's order: whole quarter-rounds one after the
# other keep 17 values live (16 words and one sum) instead of the 20 of
# four interleaved quarter-rounds, on 15 registers; out-of-order cores
# overlap the independent quarter-rounds anyway.  Of the 576 orders of
# the column and row quarter-rounds, column 0, 2, 1, 3 then row 0, 1, 2, 3
# gives the fewest loop instructions with today's allocator (113 against
# 138 interleaved; docs/design.md).
SEQ_COLUMN = (0, 2, 1, 3)
SEQ_ROW = (0, 1, 2, 3)
# The same search for the x86 kernel (7 registers): column 0, 3, 1, 2 then
# row 2, 3, 0, 1 has 55 spill loads and stores per double round against 60
# in the plain order.
X86_COLUMN = (0, 3, 1, 2)
X86_ROW = (2, 3, 0, 1)


def qr_steps(y: tuple[int, int, int, int]) -> list[Step]:
    """The four steps (t, a, b, rot) of one quarter-round."""
    y0, y1, y2, y3 = y
    return [(y1, y0, y3, 7), (y2, y1, y0, 9), (y3, y2, y1, 13), (y0, y3, y2, 18)]


def steps(qrs: list[tuple[int, int, int, int]]) -> list[Step]:
    """The steps of a round, interleaved across its quarter-rounds."""
    per = [qr_steps(q) for q in qrs]
    return [per[q][s] for s in range(4) for q in range(len(qrs))]


def sequential(qrs: list[tuple[int, int, int, int]], order: tuple[int, ...]) -> list[Step]:
    """The steps of a round, one quarter-round after the other in ORDER."""
    return [st for q in order for st in qr_steps(qrs[q])]


def groups(st: list[Step], n: int = 4) -> list[list[tuple[int, int, int, int, int]]]:
    """Steps in groups of n independent ones, each step as (j, t, a, b, rot)
    with j its position in the group (to name per-step temporaries)."""
    return [[(j, *st[k + j]) for j in range(n)] for k in range(0, len(st), n)]


# The steps of the first column round that no block counter (words 8, 9)
# reaches: quarter-rounds 2 and 3 and the first step of quarter-round 0;
# PRE9 is the first step of quarter-round 1, whose rotated sum is
# counter-independent though it is xored into word 9.
PRE: list[Step] = qr_steps(COLUMN[0])[:1] + qr_steps(COLUMN[2]) + qr_steps(COLUMN[3])
PRE9: Step = qr_steps(COLUMN[1])[0]


def impl_id(impl: str) -> str:
    return impl.replace("-", "_")


def template_path(impl: str) -> str:
    return f"{SPECS}/salsa20_{impl_id(impl)}.q.in"


def generated_path(impl: str, rounds: int) -> str:
    return f"{GENERATED}/salsa20_{impl_id(impl)}_r{rounds}.q"


def generate(impl: str, rounds: int, root: str = ROOT) -> str:
    """The text of the generated .q for one implementation and round count."""
    tpath = template_path(impl)
    with open(os.path.join(root, tpath), encoding="utf-8") as f:
        text = f.read()
    env = {
        "R": rounds, "HALF": rounds // 2, "ID": impl_id(impl),
        "NAME": f"qhasm_kernel_salsa{rounds}_{impl_id(impl)}",
        "COLUMN": COLUMN, "ROW": ROW, "steps": steps, "qr_steps": qr_steps,
        "DR": steps(COLUMN) + steps(ROW),
        "SEQ": sequential(COLUMN, SEQ_COLUMN) + sequential(ROW, SEQ_ROW),
        "X86_QRS": [COLUMN[q] for q in X86_COLUMN] + [ROW[q] for q in X86_ROW], "groups": groups, "ROT1": "rot",
        "PRE": PRE, "PRE9": PRE9, "PREWORDS": sorted({t for t, _, _, _ in PRE}),
    }
    head = f"# generated by gen/salsa20.py from {tpath} (R={rounds}). DO NOT EDIT.\n"
    return head + expand(text, env, os.path.join(root, tpath))


def qpath(impl: str, params: dict[str, str]) -> str:
    """The generated .q of a manifest entry (params: R)."""
    return generated_path(impl, int(params["R"]))


def text(impl: str, params: dict[str, str], root: str = ROOT) -> str:
    """The generated .q text of a manifest entry (specs/kernels.conf)."""
    return generate(impl, int(params["R"]), root)


def _impls() -> list[str]:
    """The implementations the manifest generates with this module."""
    from gen import manifest
    return list(dict.fromkeys(im.name for im in manifest.parse().impls(variants=False) if im.gen == "salsa20"))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.salsa20", description=__doc__.splitlines()[0])
    impls = _impls()
    ap.add_argument("--impl", action="append", choices=impls, help="implementation (default: all)")
    ap.add_argument("--rounds", action="append", type=int, choices=ROUNDS, help="rounds (default: all)")
    ap.add_argument("--out", default=ROOT, help="root directory to write under (default: the repository)")
    ap.add_argument("--stdout", action="store_true", help="print instead of writing files")
    a = ap.parse_args(argv)
    for impl in a.impl or impls:
        for r in a.rounds or ROUNDS:
            text = generate(impl, r)
            if a.stdout:
                sys.stdout.write(text)
                continue
            path = os.path.join(a.out, generated_path(impl, r))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
