"""Translator speed benchmark: python3 -m gen.benchgen --qhasm build/qhasm

Generates straight-line .q programs (12 live values, mixed int64 and
vector; and 40 live int64 values, which forces spilling), times the
translator on them at several sizes and prints lines per second and how
the time grows with the number of instructions.
"""
import argparse
import os
import random
import subprocess
import tempfile
import time


def mixed(lines: int, seed: int = 1) -> str:
    """About 12 live values: 8 int64 and 4 reg256."""
    rng = random.Random(seed)
    ints = [f"a{i}" for i in range(8)]
    vecs = [f"y{i}" for i in range(4)]
    out = ["int64 p " + " ".join(ints), "reg256 " + " ".join(vecs), "cpu avx2", "enter mixed", "input p"]
    out += [f"{v} = mem64[p + {8 * i}]" for i, v in enumerate(ints)]
    out += [f"{v} = mem256[p + {64 + 32 * i}]" for i, v in enumerate(vecs)]
    ops = ["+=", "^=", "-=", "&=", "|="]
    while len(out) < lines - 10:
        if rng.random() < 0.6:
            a, b = rng.sample(ints, 2)
            r = rng.random()
            if r < 0.15:
                out.append(f"{a} <<<= {rng.randrange(1, 63)}")
            else:
                out.append(f"{a} {rng.choice(ops)} {b}")
        else:
            a, b = rng.sample(vecs, 2)
            r = rng.random()
            if r < 0.3:
                out.append(f"8x {a} = {b} <<< {rng.randrange(1, 31)}")
            elif r < 0.6:
                out.append(f"8x {a} = {a} + {b}")
            else:
                out.append(f"{a} ^= {b}")
    out += [f"mem64[p + {8 * i}] = {v}" for i, v in enumerate(ints)]
    out += [f"mem256[p + {64 + 32 * i}] = {v}" for i, v in enumerate(vecs)]
    out += ["leave"]
    return "\n".join(out) + "\n"


def spilling(lines: int, seed: int = 2) -> str:
    """40 live int64 values on 15 registers."""
    rng = random.Random(seed)
    vs = [f"v{i}" for i in range(40)]
    out = ["int64 p " + " ".join(vs), "enter spilling", "input p"]
    out += [f"{v} = mem64[p + {8 * i}]" for i, v in enumerate(vs)]
    while len(out) < lines - 41:
        a, b = rng.sample(vs, 2)
        out.append(f"{a} {rng.choice(['+=', '^=', '-='])} {b}")
    out += [f"mem64[p + {8 * i}] = {v}" for i, v in enumerate(vs)]
    out += ["leave"]
    return "\n".join(out) + "\n"


def timeit(qhasm: str, text: str, tmp: str) -> float:
    src = os.path.join(tmp, "bench.q")
    with open(src, "w") as f:
        f.write(text)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([qhasm, src, "-o", os.path.join(tmp, "bench.asm")], check=True)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--qhasm", default="build/qhasm")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, gen, sizes in (("mixed, 12 live values", mixed, [25000, 50000, 100000]),
                                 ("40 live values, spilling", spilling, [5000, 10000, 20000])):
            prev = None
            for n in sizes:
                t = timeit(args.qhasm, gen(n), tmp)
                growth = f"  time x{t / prev:.2f} for x2 lines" if prev else ""
                print(f"{name:26s} {n:7d} lines  {t:7.3f} s  {n / t:10.0f} lines/s{growth}")
                prev = t
    print("target: at least 100000 lines/s; doubling the lines should about double the time (n log n)")


if __name__ == "__main__":
    main()
