#!/usr/bin/env python3
"""The vec_mul networks of gen/mceliece.py, every variant (the column
multiplier in each operand mode, with f partly in memory (FREGS), K columns per scan (NCOLS), andn terms (ANDN),
shared folds of adjacent modulus exponents (SHAREFOLD), the row multiplier
mul_rows, the
high/low Karatsuba level mul_kara, the same level over row products mul_krows and the even/odd one mul_evenodd),
evaluated line by line on 64-lane words against a bit-serial GF(2^m)
product, with h separate and with h = f and h = g (the writes land in the
input, so a read after a write of the same word shows up).  The .q
semantics are the few forms these bodies use (x = y, x = y ^ z,
x = y & z, x = ~y & z, x = ~y, x &= y, ternlog).  Not the translator: tests/sh/mceliece-mulvariants.sh
also translates the variants.

    python3 tests/diff/mceliece_mulvariants.py     exit 0 when all agree
"""
from __future__ import annotations

import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from gen import mceliece as M  # noqa: E402
from gen import mceliece_net as mn  # noqa: E402

W = 64
MASK = (1 << W) - 1
MEM = re.compile(r"mem\d+\[(\w+) \+ (\d+)\]$")


def gf_mul(m: int, a: int, b: int) -> int:
    p = 0
    for i in range(m):
        if b >> i & 1:
            p ^= a << i
    f = sum(1 << e for e in mn.MODULUS[m])
    for i in range(2 * m - 2, m - 1, -1):
        if p >> i & 1:
            p ^= f << (i - m)
    return p


def run(lines: list[str], m: int, stride: int, fv: list[int], gv: list[int], alias: str) -> list[int]:
    bufs = {"f": list(fv), "g": list(gv)}
    bufs["h"] = bufs[alias] if alias in ("f", "g") else [0] * m
    env: dict[str, int] = {}

    def ev(x: str) -> int:
        x = x.strip()
        mm = MEM.match(x)
        if mm:
            off = int(mm.group(2))
            assert off % stride == 0, x
            return bufs[mm.group(1)][off // stride]
        if x not in env:
            raise AssertionError(f"read of unset {x}")
        return env[x]
    for ln in lines:
        if "=" not in ln or ln.endswith(":"):
            raise AssertionError(f"unexpected line {ln!r}")
        if "&=" in ln:
            lhs, rhs = [s.strip() for s in ln.split("&=")]
            v = env[lhs] & ev(rhs)
        else:
            lhs, rhs = [s.strip() for s in ln.split("=", 1)]
            tm = re.match(r"ternlog\((\w+), (\w+), (\w+), (0x[0-9a-f]+)\)$", rhs)
            if tm:
                a, b, c = (ev(tm.group(k)) for k in (1, 2, 3))
                imm = int(tm.group(4), 16)
                v = 0
                for bit in range(W):
                    idx = (a >> bit & 1) << 2 | (b >> bit & 1) << 1 | (c >> bit & 1)
                    v |= (imm >> idx & 1) << bit
            elif " ^ " in rhs:
                a, b = rhs.split(" ^ ")
                v = ev(a) ^ ev(b)
            elif " & " in rhs:
                a, b = rhs.split(" & ")
                a = a.strip()
                v = (~ev(a[1:]) if a.startswith("~") else ev(a)) & ev(b)
            elif rhs.startswith("~"):
                v = ~ev(rhs[1:])
            else:
                v = ev(rhs)
        mm = MEM.match(lhs)
        if mm:
            bufs[mm.group(1)][int(mm.group(2)) // stride] = v & MASK
        else:
            env[lhs] = v & MASK
    return bufs["h"]


def check(name: str, lines: list[str], m: int, stride: int, rng: random.Random) -> int:
    bad = 0
    cases = [([rng.getrandbits(W) for _ in range(m)], [rng.getrandbits(W) for _ in range(m)]) for _ in range(3)]
    cases.append(([MASK] * m, [MASK] * m))
    for fv, gv in cases:
        want = [0] * m
        for lane in range(W):
            a = sum((fv[i] >> lane & 1) << i for i in range(m))
            b = sum((gv[i] >> lane & 1) << i for i in range(m))
            c = gf_mul(m, a, b)
            for i in range(m):
                want[i] |= (c >> i & 1) << lane
        for alias in ("", "f", "g"):
            try:
                got = run(lines, m, stride, fv, gv, alias)
            except AssertionError as e:
                print(f"FAIL {name} m={m} h={alias or 'separate'}: {e}")
                return 1
            if got != want:
                print(f"FAIL {name} m={m} h={alias or 'separate'}: wrong product")
                bad = 1
    return bad


def main() -> int:
    rng = random.Random(16)
    bad = n = 0
    stride = 32
    for m in M.FIELDS:
        variants = [(f"columns {impl}", lambda impl=impl: M.mul_columns(impl, m, stride))
                    for impl in ("amd64", "x86-sse2", "amd64-avx2", "amd64-avx512", "ppc64")]
        for nf in (12, 11, 6):
            def cols_nf(nf: int = nf) -> tuple[list[str], int]:
                M.FREGS["amd64-avx2"] = nf
                try:
                    return M.mul_columns("amd64-avx2", m, stride)
                finally:
                    del M.FREGS["amd64-avx2"]
            variants.append((f"columns amd64-avx2 fregs={nf}", cols_nf))
        for k, nf in ((3, 11), (4, 10)):
            def cols_k(k: int = k, nf: int = nf) -> tuple[list[str], int]:
                M.NCOLS["amd64-avx2"], M.FREGS["amd64-avx2"] = k, nf
                try:
                    return M.mul_columns("amd64-avx2", m, stride)
                finally:
                    del M.NCOLS["amd64-avx2"], M.FREGS["amd64-avx2"]
            variants.append((f"columns amd64-avx2 ncols={k} fregs={nf}", cols_k))
        for na in (8, 13):
            def cols_andn(na: int = na) -> tuple[list[str], int]:
                old = M.ANDN["amd64-bmi1"]
                M.ANDN["amd64-bmi1"] = na
                try:
                    return M.mul_columns("amd64-bmi1", m, stride)
                finally:
                    M.ANDN["amd64-bmi1"] = old
            variants.append((f"columns amd64-bmi1 andn={na}", cols_andn))
        for impl, k in (("amd64-avx2", 2), ("amd64-avx2", 3), ("amd64-avx2", 4), ("amd64-bmi1", 2),
                        ("amd64", 2), ("x86-sse2", 2)):
            def cols_share(impl: str = impl, k: int = k) -> tuple[list[str], int]:
                old_s, old_k = set(M.SHAREFOLD), dict(M.NCOLS)
                M.SHAREFOLD.add(impl)
                M.NCOLS[impl] = k
                try:
                    return M.mul_columns(impl, m, stride)
                finally:
                    M.SHAREFOLD.clear()
                    M.SHAREFOLD.update(old_s)
                    M.NCOLS.clear()
                    M.NCOLS.update(old_k)
            variants.append((f"columns {impl} sharefold ncols={k}", cols_share))
        variants.append(("rows amd64-avx2", lambda: M.mul_rows("amd64-avx2", m, stride)))
        variants.append(("krows amd64-avx2", lambda: M.mul_krows("amd64-avx2", m, stride)))
        variants += [("kara amd64-avx2", lambda: M.mul_kara("amd64-avx2", m, stride)),
                     ("kara amd64-avx512", lambda: M.mul_kara("amd64-avx512", m, stride)),
                     ("evenodd amd64-avx2", lambda: M.mul_evenodd("amd64-avx2", m, stride))]
        for name, make in variants:
            lines, nops = make()
            r = check(name, lines, m, stride, rng)
            print(f"{'FAIL' if r else 'ok'} {name} m={m} ({nops} operations)")
            bad += r
            n += 1
    print(f"{n - bad} of {n} variants agree with the bit-serial product")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
