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
    INTDR        the integer kernel's double round with its stack traffic
                 (int_plan): ("step", t, a, b, rot, m), m = 1 when the old
                 x_t is read from its slot; ("store", w, 0, 0, 0, 0)
    INTHEAD      the words in their slots at the head of the double round
    INTSLOTS     the words INTDR keeps in slots at some point
    FFWORDS      three words the feed-forward parks in slots of their own
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

# The order of the integer amd64 kernel's _core (the _blocks double round
# is int_plan's, below): whole quarter-rounds one after the
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


# The integer amd64 kernel's double round with its stack traffic planned
# here rather than left to the allocator (docs/salsa20-kernels.md, "Where
# the cycles go").  16 words and one sum need 17 registers of 15, so two
# words are in memory at every step.  The allocator's choice (furthest
# next use) reloads x0 at the loop head as the first addend of the double
# round: the store-to-load forwarding (about 5 cycles) is then on the
# 24-cycle recurrence.  The words in memory here are those in the role y2
# of both rounds (x8, x13, x2, x7): each is read last by step 3 of its
# quarter-round and read next as the old value its step 1 xors into, a
# read 11 cycles off the recurrence, done straight from the stack slot
# (`x ^= x_s`, the sum computed into the word's own register).  A window
# (ROUND, q) keeps the y2 word of column quarter-round q in memory from the
# end of its quarter-round of ROUND ("c" column, "r" row) to step 1 of its
# quarter-round in the other round; these four cover every step at least
# twice (check_windows; generate() refuses a plan that does not) with four
# stores and four memory reads per double round.
INT_COLUMN = (0, 1, 2, 3)
INT_ROW = (0, 1, 2, 3)
INT_WINDOWS = (("c", 0), ("c", 1), ("r", 2), ("r", 3))
# two quarter-rounds at a time, interleaved step by step: 1-2% fewer
# cycles than one at a time on Golden Cove (docs/salsa20-kernels.md)
INT_LANES = 2
# the row quarter-round in which column quarter-round q's y2 word is y2
Y2_ROW = {q: next(k for k, r in enumerate(ROW) if r[2] == COLUMN[q][2]) for q in range(4)}

IntOp = tuple[str, int, int, int, int, int]


def int_order(col: tuple[int, ...] = INT_COLUMN, row: tuple[int, ...] = INT_ROW,
              lanes: int = INT_LANES) -> list[tuple[str, int, int]]:
    """The steps (round, quarter-round, step) of a double round: the
    quarter-rounds of each round in the given order, LANES of them at a
    time interleaved step by step."""
    out: list[tuple[str, int, int]] = []
    for rnd, order in (("c", col), ("r", row)):
        for g in range(0, 4, lanes):
            out += [(rnd, q, k) for k in range(4) for q in order[g:g + lanes]]
    return out


def int_plan(order: list[tuple[str, int, int]] | None = None,
             windows: tuple[tuple[str, int], ...] = INT_WINDOWS) -> list[IntOp]:
    """The integer double round: ("step", t, a, b, rot, m) with m = 1 when
    the old x_t is read from its slot, and ("store", w, 0, 0, 0, 0) storing
    x_w to its slot after its last read before a window."""
    fromslot = set()
    storeafter: dict[tuple[str, int], list[int]] = {}
    for rnd, q in windows:
        w = COLUMN[q][2]
        if rnd == "c":
            storeafter.setdefault(("c", q), []).append(w)
            fromslot.add(("r", Y2_ROW[q]))
        else:
            storeafter.setdefault(("r", Y2_ROW[q]), []).append(w)
            fromslot.add(("c", q))
    ops: list[IntOp] = []
    for rnd, q, k in order or int_order():
        t, a, b, rot = qr_steps((COLUMN if rnd == "c" else ROW)[q])[k]
        ops.append(("step", t, a, b, rot, int(k == 1 and (rnd, q) in fromslot)))
        if k == 3:
            ops += [("store", w, 0, 0, 0, 0) for w in storeafter.get((rnd, q), [])]
    return ops


def int_headmem(windows: tuple[tuple[str, int], ...] = INT_WINDOWS) -> list[int]:
    """The words in their slots at the head of the double-round loop."""
    return sorted(COLUMN[q][2] for rnd, q in windows if rnd == "r")


def check_windows(ops: list[IntOp], head: list[int]) -> int:
    """The fewest words in memory at any step of the double round."""
    inmem = set(head)
    least = 16
    for kind, t, _a, _b, _r, m in ops + ops:
        if kind == "store":
            inmem.add(t)
            continue
        least = min(least, len(inmem))
        if m:
            inmem.discard(t)
    return least


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
        "INTDR": int_plan(), "INTHEAD": int_headmem(), "INTSLOTS": sorted({COLUMN[q][2] for _, q in INT_WINDOWS}),
        "FFWORDS": [w for w in range(16) if w not in int_headmem()][:3],
        "PRE": PRE, "PRE9": PRE9, "PREWORDS": sorted({t for t, _, _, _ in PRE}),
    }
    if check_windows(env["INTDR"], env["INTHEAD"]) < 2:
        raise ValueError("int_plan: fewer than two words in memory at a step (the allocator would spill)")
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
