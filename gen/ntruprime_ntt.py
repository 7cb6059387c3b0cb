"""Generate the NTT-based Streamlined NTRU Prime R/q product (.q files).

    python3 -m gen.ntruprime_ntt [--p P ...] [--stdout] [--selftest]

One function per parameter set and width (manifest implementations
amd64-avx2ntt, width 256, and amd64-avx512ntt, width 512 (zmm: the layout
of plan512 and docs/ntruprime-ntt.md, "AVX-512"); symbol
core_multsntrup<p>, kernel mul; byte layouts as gen/ntruprime.py):

    qhasm_kernel_core_multsntrup<p>_amd64_avx2ntt_mul(out, in, k)
    qhasm_kernel_core_multsntrup<p>_amd64_avx512ntt_mul(out, in, k)

f (reduced mod q) times g (in {-1,0,1}) over Z is computed modulo
x^1536 - 1 (degree < 2p - 1 <= 1535) modulo two NTT-friendly primes
P1 = 7681 and P2 = 10753 (both = 1 mod 1536), then recombined by the CRT,
reduced mod q, folded modulo x^p - x - 1 and frozen.  16-bit lanes, 16 per
ymm; coefficient i = 16a + b lives in lane b of vector a.  The NTT is a
four-step one (docs/ntruprime-ntt.md):

- y-stage (y = x^16, lanes independent, vertical only): x^1536 - 1 =
  y^96 - 1 splits by one radix-3 layer and five radix-2 layers into 96
  residues x^16 - psi^e (psi a primitive 1536th root of unity);
- each block of 16 such vectors is transposed (16-bit then 8x8 dword
  steps), so that vector j of a block holds coefficient x^j of 16 residues;
- x-stage: four radix-2 layers with per-lane twiddles split every
  x^16 - psi^e into linear factors.
Width 256 (plan256, transform256): four memory passes per transform -- the
radix-3 layer with the first two radix-2 layers (12 vectors), the last three
y-layers with the first half of the transpose (8 rows), the second half with
three x-layers (8 columns), the last x-layer, which for F and G is fused
with the pointwise product and the inverse's first layer.
Twiddle multiplications are Montgomery products by constants
(vpmullw, vpmulhw, vpmulhw, vpsubw); the pointwise product is a Montgomery
product of two variables; the inverse runs the layers backwards
(Gentleman-Sande), with the scale 2^16/1536 folded into g.

Every value is tracked by an upper bound on its absolute value; the
generator inserts a Barrett reduction wherever a sum could leave int16 and
asserts every bound (Montgomery outputs, Barrett outputs proved on all of
int16, the CRT window, the final freeze) -- a failed bound is an assertion
here, not a wrong kernel.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import random
import sys
from dataclasses import dataclass

from gen import ntruprime as nt

ROOT = nt.ROOT
IMPL = "amd64-avx2ntt"
IMPL512 = "amd64-avx512ntt"
WIDTHS = {IMPL: 256, IMPL512: 512}   # the vector width of each implementation
NTT_N = 1536           # cyclic length: 96 vectors of 16 lanes
V = NTT_N // 16
PRIMES = (7681, 10753)  # P1 (the CRT's x1: the smaller, so P1*|u| is small), P2
LIM = 32767
MONTR = True           # width 256: reductions by a Montgomery product by 2^16 (reduce)


def generated_path(p: int, impl: str = IMPL) -> str:
    return f"{nt.GENERATED}/ntruprime_mult_{nt.impl_id(impl)}_{p}.q"


def symbol(p: int, impl: str = IMPL) -> str:
    return nt.symbol(impl, p, "mult")


def hzmm(s: int) -> tuple[int, int]:
    """width 512: the zmm slot and half (0 low, 1 high) holding the 16-lane
    slot s; zmm Z holds slots lo(Z) = 32 (Z // 16) + Z % 16 and lo(Z) + 16"""
    return 16 * (s // 32) + s % 16, (s // 16) % 2


def hpos(s: int, width: int) -> int:
    """the byte offset of the 16-lane slot s in a transform buffer"""
    if width == 256:
        return 32 * s
    z, h = hzmm(s)
    return 64 * z + 32 * h


def wrap16(x: int) -> int:
    return nt.wrap16(x)


def centred(x: int, m: int) -> int:
    x %= m
    return x - m if x > m // 2 else x


# ---------------------------------------------------------------- a prime
@dataclass(frozen=True)
class Prime:
    P: int
    psi: int        # a primitive 1536th root of unity
    pinv: int       # P^-1 mod 2^16, signed
    bv: int         # Barrett constants (gen.ntruprime.barrett)
    bs: int
    red: int        # max |barrett(x)| over all int16
    K: int          # 2^16/1536 mod P (centred): g's scale
    uP: int = 0     # when nonzero: bound as if P <= uP, |w| <= uP/2 and
    ured: int = 0   # Barrett outputs <= ured (the primes share one loop)
    wall: bool = False  # with uP: the callers give |w| as the larger over all PRIMES

    @property
    def rb(self) -> int:
        """the Barrett output bound the tracking uses"""
        return max(self.red, self.ured)

    def w(self, e: int) -> int:
        """psi^e * 2^16 mod P, centred (a Montgomery constant)"""
        return centred(pow(self.psi, e % NTT_N, self.P) * 65536, self.P)

    def wq(self, w: int) -> int:
        return wrap16(w * self.pinv)

    def mont_bound(self, b: int, wmax: int) -> int:
        """|mont(x, w)| for |x| <= b, |w| <= wmax: (x w - m P)/2^16, |m| <= 2^15"""
        if self.uP:
            return (b * (wmax if self.wall else self.uP // 2) + 32768 * self.uP) // 65536
        return (b * wmax + 32768 * self.P) // 65536

    def mont2(self, b1: int, b2: int) -> int:
        """|mont(x, y)| for |x| <= b1, |y| <= b2"""
        return (b1 * b2 + 32768 * max(self.P, self.uP)) // 65536


@functools.lru_cache(maxsize=None)
def make_prime(P: int, bs: int | None = None) -> Prime:
    assert (P - 1) % NTT_N == 0 and all(P % d for d in range(2, int(P ** 0.5) + 1))
    # a generator of (Z/P)^*
    fac = [d for d in range(2, P) if (P - 1) % d == 0 and all(d % e for e in range(2, d))]
    g = next(g for g in range(2, P) if all(pow(g, (P - 1) // d, P) != 1 for d in fac))
    psi = pow(g, (P - 1) // NTT_N, P)
    assert pow(psi, NTT_N // 2, P) == P - 1 and pow(psi, NTT_N // 3, P) != 1
    pinv = wrap16(pow(P, -1, 65536))
    if bs is None:
        bs = max(s for s in range(1, 16) if round((1 << (16 + s)) / P) < 32768)
    bv = round((1 << (16 + bs)) / P)
    bt = (P, bv, bs, 16)
    red = 0
    for x in range(-32768, 32768):
        r = nt.barrett(x, bt)
        assert (r - x) % P == 0
        red = max(red, abs(r))
    K = centred(65536 * pow(NTT_N, -1, P), P)
    return Prime(P, psi, pinv, bv, bs, red, K)


def wmax_all(es: tuple[int, ...] | int) -> int:
    """max |psi^e 2^16 mod P| (centred) over the exponents es and PRIMES"""
    es = (es,) if isinstance(es, int) else es
    return max(abs(make_prime(P).w(x)) for P in PRIMES for x in set(es))


def mont(x: int, w: int, pr: Prime) -> int:
    """the lane arithmetic of a Montgomery product (x, w int16)"""
    m = wrap16(x * wrap16(w * pr.pinv))
    return wrap16(nt.mulhi(x, w, 16) - nt.mulhi(m, pr.P, 16))


# ------------------------------------------------------ the transform plan
def sqrt_e(e: int) -> int:
    """an exponent e' with 2e' = e mod 1536"""
    return e // 2 if e % 2 == 0 else (e + NTT_N) // 2


@dataclass
class Plan:
    """The forward transform as layers of operations on vector slots.
    ('r3', a, b, c, e_omega) radix-3 on slots a, b, c (y-stage, uniform);
    ('r2', lo, hi, es) radix-2 with per-lane twiddle exponents es;
    ('tr', slots) a 16x16 transpose of the block."""
    layers: list[list[tuple]]


@functools.lru_cache(maxsize=None)
def plan() -> Plan:
    layers: list[list[tuple]] = []
    # y-stage: residues (slots, e) meaning y^len(slots) - psi^e
    om = NTT_N // 3
    res = [(list(range(32 * k, 32 * k + 32)), om * k) for k in range(3)]
    layers.append([("r3", j, 32 + j, 64 + j, om) for j in range(32)])
    while len(res[0][0]) > 1:
        lay, nres = [], []
        for slots, e in res:
            m = len(slots) // 2
            s = sqrt_e(e)
            for j in range(m):
                lay.append(("r2", slots[j], slots[m + j], (s,) * 16))
            nres += [(slots[:m], s), (slots[m:], (s + NTT_N // 2) % NTT_N)]
        layers.append(lay)
        res = nres
    eslot = {slots[0]: e for slots, e in res}
    assert len(eslot) == V
    layers.append([("tr", tuple(range(16 * B, 16 * B + 16))) for B in range(V // 16)])
    # x-stage per block: residues (slots, per-lane exponents)
    xres = [(list(range(16 * B, 16 * B + 16)), tuple(eslot[16 * B + l] for l in range(16)))
            for B in range(V // 16)]
    while len(xres[0][0]) > 1:
        lay, nres = [], []
        for slots, es in xres:
            m = len(slots) // 2
            s = tuple(sqrt_e(e) for e in es)
            for j in range(m):
                lay.append(("r2", slots[j], slots[m + j], s))
            nres += [(slots[:m], s), (slots[m:], tuple((x + NTT_N // 2) % NTT_N for x in s))]
        layers.append(lay)
        xres = nres
    return Plan(layers)


@functools.lru_cache(maxsize=None)
def plan512() -> Plan:
    """The plan over 48 zmm slots: each 16-lane operation of plan() is
    paired with the one on the partner slots (hzmm: s and s + 16 for s with
    bit 4 clear) into one 32-lane operation with per-lane twiddles (the
    slots stay in the same halves through every layer and the transpose,
    which transposes the two halves of 16 zmm as two blocks).  The one layer
    whose butterflies join the two halves of a zmm (distance 16, the first
    radix-2 layer of the y-stage) becomes ('x2', Z, Z, es): done inside the
    register pairs by 128-bit lane shuffles (cross2)."""
    out: list[list[tuple]] = []
    for lay in plan().layers:
        kind = lay[0][0]
        if kind == "tr":
            for C in range(V // 32):
                for j in range(16):
                    assert hzmm(32 * C + j) == (16 * C + j, 0) and hzmm(32 * C + 16 + j) == (16 * C + j, 1)
            out.append([("tr", tuple(range(16 * C, 16 * C + 16))) for C in range(V // 32)])
            continue
        pairs: dict[tuple, list] = {}
        zl: list[tuple] = []
        for op in lay:
            slots = op[1:4] if kind == "r3" else op[1:3]
            zs = [hzmm(s) for s in slots]
            if kind == "r2" and zs[0][0] == zs[1][0]:
                assert zs[0][1] == 0 and zs[1][1] == 1 and len(set(op[3])) == 1
                zl.append(("x2", zs[0][0], zs[0][0], op[3]))
                continue
            hs = {h for _, h in zs}
            assert len(hs) == 1
            pairs.setdefault(tuple(z for z, _ in zs), [None, None])[hs.pop()] = op
        for key in sorted(pairs):
            lo, hi = pairs[key]
            assert lo is not None and hi is not None
            if kind == "r3":
                assert lo[4] == hi[4]
                zl.append(("r3",) + key + (lo[4],))
            else:
                zl.append(("r2",) + key + (lo[3] + hi[3],))
        kinds = {o[0] for o in zl}
        assert len(kinds) == 1, kinds
        out.append(zl)
    return Plan(out)


# ------------------------------------------------------ the 16x16 transpose
def transpose_steps(width: int = 256) -> list[tuple]:
    """A 16x16 transpose of int16 lanes from the available AVX2 forms, as
    (dst, op, a, b, imm) over names r0..r15 (inputs) and temporaries;
    proved by simulation in check_transpose.  Width 512: the same steps
    transpose the two 256-bit halves as two blocks (the 128-bit lane
    operations act per lane); the last step, a 128-bit lane permutation
    inside each half, is a two-source qword permutation (vpermt2q with the
    index vector imm: PQIDX).  Step 1 splits each row pair
    by column parity (masks and 32-bit shifts); steps 2-4 are two 8x8
    transposes of 32-bit lanes (unpack 32, unpack 64, permute128)."""
    st: list[tuple] = []
    ev, od = [], []
    for i in range(8):
        a, b = f"r{2 * i}", f"r{2 * i + 1}"
        st += [(f"ta", "and", a, "MLO", 0), (f"tb", "shl", b, None, 16), (f"e{i}", "add16", "ta", "tb", 0),
               (f"ta", "shr", a, None, 16), (f"tb", "and", b, "MHI", 0), (f"o{i}", "add16", "ta", "tb", 0)]
        ev.append(f"e{i}")
        od.append(f"o{i}")
    outs = []
    for g, rows in (("E", ev), ("O", od)):
        t = []
        for i in range(4):
            t += [(f"{g}t{2 * i}", "ulo32", rows[2 * i], rows[2 * i + 1], 0),
                  (f"{g}t{2 * i + 1}", "uhi32", rows[2 * i], rows[2 * i + 1], 0)]
        st += t
        u = []
        for h in (0, 4):
            for k in (0, 1):
                a, b = f"{g}t{h + k}", f"{g}t{h + k + 2}"
                u += [(f"{g}u{h + 2 * k}", "ulo64", a, b, 0), (f"{g}u{h + 2 * k + 1}", "uhi64", a, b, 0)]
        st += u
        # u_c (c = 0..3) holds rows 0-3 (u0..u3) / 4-7 (u4..u7): column c | c+4
        cols = {}
        for c in range(4):
            if width == 512:
                cols[c] = (f"{g}c{c}", "pq", f"{g}u{c}", f"{g}u{c + 4}", 0)
                cols[c + 4] = (f"{g}c{c + 4}", "pq", f"{g}u{c}", f"{g}u{c + 4}", 1)
                continue
            cols[c] = (f"{g}c{c}", "perm128", f"{g}u{c}", f"{g}u{c + 4}", 0x20)
            cols[c + 4] = (f"{g}c{c + 4}", "perm128", f"{g}u{c}", f"{g}u{c + 4}", 0x31)
        for c in range(8):
            st.append(cols[c])
        outs.append([f"{g}c{c}" for c in range(8)])
    # E column d is output column 2d, O column d is 2d+1
    res = [outs[j % 2][j // 2] for j in range(16)]
    return st + [("out", res)]


# width 512, op "pq": the qword indices of vpermt2q (0-7 the first source,
# 8-15 the second): per 256-bit half, the low (0) or high (1) 128-bit lanes
# of both sources, as vperm2i128 0x20 / 0x31 does on a ymm
PQIDX = ((0, 1, 8, 9, 4, 5, 12, 13), (2, 3, 10, 11, 6, 7, 14, 15))


def sim_transpose(rows: list[list[int]], width: int = 256) -> list[list[int]]:
    env = {f"r{i}": list(rows[i]) for i in range(16)}
    steps = transpose_steps(width)
    sim_steps(steps[:-1], env, width // 16)
    return [env[n] for n in steps[-1][1]]


def check_transpose(width: int = 256) -> None:
    """16 rows (of two blocks side by side for width 512) come out as the
    16 columns (of each block)"""
    n = width // 16
    rows = [[100 * i + j for j in range(n)] for i in range(16)]
    out = sim_transpose(rows, width)
    assert out == [[rows[i % 16][16 * (i // 16) + j] for i in range(n)] for j in range(16)], "transpose"


# ------------------------- width 256: the transpose split into two halves
# The 16x16 transpose of transpose_steps is P . H: H (the row-pair split S1,
# the 32-bit unpacks U32 and the 64-bit unpacks U64) acts on the rows 0-7
# and 8-15 separately, P (permute128) on the even-column group E (the u
# vectors of both halves) and the odd one O separately.  So H is fused into
# the y-stage's last pass (8 rows per unit) and P into the x-stage's first
# (the 8 vectors of E or O, which the x-layers of distances 8, 4 and 2 keep
# apart): no transpose pass.  Column j of a block then lives at slot SIGMA[j]:
# E's u_c (c < 4, from rows 0-7) at slot c and u_(c+4) (rows 8-15) at 8 + c,
# O's at 4 + c and 12 + c; P puts column 2c (2c + 1) where u_c was and
# column 2c + 8 (2c + 9) where u_(c+4) was.  The inverse is T = T^-1 =
# H^-1 . P^-1: P (an involution as a map of register pairs), U64 (also
# one), U32^-1 (shuffle32 0xd8 of both, then the 64-bit unpacks) in the
# x-stage's last pass, S1 (an involution) in the y-stage's first.
SIGMA = tuple(([c for c in range(4)] + [8 + c for c in range(4)])[j // 2] + 4 * (j % 2) for j in range(16))
EPOS = (0, 1, 2, 3, 8, 9, 10, 11)    # the slots of group E in a block (O: + 4)


def half_steps(kind: str, inverse: bool) -> tuple[list[tuple], list[str], list[str]]:
    """(steps, inputs, outputs) over names, 8 vectors in and out in local
    slot order: kind 'th' the rows 0-7 of a half block (slots 8h + 0..7),
    kind 'tp' a group E or O (slots EPOS, + 4 for O).  Steps as
    transpose_steps (dst, op, a, b, imm), op 'shuf32' added."""
    st: list[tuple] = []
    if kind == "th" and not inverse:
        ins = [f"r{i}" for i in range(8)]
        for i in range(4):
            a, b = f"r{2 * i}", f"r{2 * i + 1}"
            st += [("ta", "and", a, "MLO", 0), ("tb", "shl", b, None, 16), (f"e{i}", "add16", "ta", "tb", 0),
                   ("ta", "shr", a, None, 16), ("tb", "and", b, "MHI", 0), (f"o{i}", "add16", "ta", "tb", 0)]
        outs = []
        for g, rows in (("E", "e"), ("O", "o")):
            for i in range(2):
                st += [(f"{g}t{2 * i}", "ulo32", f"{rows}{2 * i}", f"{rows}{2 * i + 1}", 0),
                       (f"{g}t{2 * i + 1}", "uhi32", f"{rows}{2 * i}", f"{rows}{2 * i + 1}", 0)]
            for k in range(2):
                st += [(f"{g}u{2 * k}", "ulo64", f"{g}t{k}", f"{g}t{k + 2}", 0),
                       (f"{g}u{2 * k + 1}", "uhi64", f"{g}t{k}", f"{g}t{k + 2}", 0)]
            outs += [f"{g}u{c}" for c in range(4)]
        return st, ins, outs
    if kind == "th":
        ins = [f"e{i}" for i in range(4)] + [f"o{i}" for i in range(4)]
        for i in range(4):
            st += [("ta", "and", f"e{i}", "MLO", 0), ("tb", "shl", f"o{i}", None, 16),
                   (f"r{2 * i}", "add16", "ta", "tb", 0),
                   ("ta", "shr", f"e{i}", None, 16), ("tb", "and", f"o{i}", "MHI", 0),
                   (f"r{2 * i + 1}", "add16", "ta", "tb", 0)]
        return st, ins, [f"r{i}" for i in range(8)]
    ins = [f"r{k}" for k in range(8)]
    if not inverse:
        outs = [None] * 8
        for c in range(4):
            st += [(f"Ec{c}", "perm128", f"r{c}", f"r{c + 4}", 0x20),
                   (f"Ec{c + 4}", "perm128", f"r{c}", f"r{c + 4}", 0x31)]
        return st, ins, [f"Ec{c}" for c in range(8)]
    for c in range(4):
        st += [(f"Eu{c}", "perm128", f"r{c}", f"r{c + 4}", 0x20),
               (f"Eu{c + 4}", "perm128", f"r{c}", f"r{c + 4}", 0x31)]
    for h in (0, 4):
        for k in (0, 1):
            st += [(f"Et{h + k}", "ulo64", f"Eu{h + 2 * k}", f"Eu{h + 2 * k + 1}", 0),
                   (f"Et{h + k + 2}", "uhi64", f"Eu{h + 2 * k}", f"Eu{h + 2 * k + 1}", 0)]
    for i in range(4):
        st += [("ta", "shuf32", f"Et{2 * i}", None, 0xD8), ("tb", "shuf32", f"Et{2 * i + 1}", None, 0xD8),
               (f"e{2 * i}", "ulo64", "ta", "tb", 0), (f"e{2 * i + 1}", "uhi64", "ta", "tb", 0)]
    return st, ins, [f"e{k}" for k in range(8)]


def sim_steps(steps: list[tuple], env: dict[str, list[int]], n: int = 16) -> None:
    """run steps (transpose_steps' ops, and shuf32) on env, n 16-bit lanes"""
    for d, op, a, b, imm in steps:
        x = env[a]
        y = env[b] if b in env else None
        if op == "and":
            r = [v if (l % 2 == 0) == (b == "MLO") else 0 for l, v in enumerate(x)]
        elif op == "shl":
            r = [0 if l % 2 == 0 else x[l - 1] for l in range(n)]
        elif op == "shr":
            r = [x[l + 1] if l % 2 == 0 else 0 for l in range(n)]
        elif op == "add16":
            r = [wrap16(u + v) for u, v in zip(x, y)]
        elif op in ("ulo32", "uhi32", "ulo64", "uhi64"):
            w = 2 if "32" in op else 4
            r = []
            for half in range(0, n, 8):
                xs = [x[half + i:half + i + w] for i in range(0, 8, w)]
                ys = [y[half + i:half + i + w] for i in range(0, 8, w)]
                h = len(xs) // 2
                for i in (range(h) if "lo" in op else range(h, 2 * h)):
                    r += xs[i] + ys[i]
        elif op == "perm128":
            hs = {0: x[:8], 1: x[8:], 2: y[:8], 3: y[8:]}
            r = hs[imm & 3] + hs[(imm >> 4) & 3]
        elif op == "pq":
            qs = [x[i:i + 4] for i in range(0, n, 4)] + [y[i:i + 4] for i in range(0, n, 4)]
            r = [v for k in PQIDX[imm] for v in qs[k]]
        elif op == "shuf32":
            r = []
            for half in range(0, n, 8):
                ds = [x[half + 2 * i:half + 2 * i + 2] for i in range(4)]
                for i in range(4):
                    r += ds[(imm >> (2 * i)) & 3]
        else:
            raise AssertionError(op)
        env[d] = r


def check_split_transpose() -> None:
    """rows at slots 0-15 -> H on both halves, P on E and O -> column j at
    SIGMA[j]; and back (P, U64, U32^-1 on E and O, then S1) to the rows"""
    rows = [[100 * i + j for j in range(16)] for i in range(16)]
    slots = [list(r) for r in rows]

    def apply(kind: str, inverse: bool, pos: list[int]) -> None:
        st, ins, outs = half_steps(kind, inverse)
        env = {nm: slots[p] for nm, p in zip(ins, pos)}
        sim_steps(st, env)
        for nm, p in zip(outs, pos):
            slots[p] = env[nm]
    for h in (0, 1):
        apply("th", False, list(range(8 * h, 8 * h + 8)))
    for g in (0, 4):
        apply("tp", False, [g + p for p in EPOS])
    assert all(slots[SIGMA[j]] == [rows[i][j] for i in range(16)] for j in range(16)), "split transpose"
    for g in (0, 4):
        apply("tp", True, [g + p for p in EPOS])
    for h in (0, 1):
        apply("th", True, list(range(8 * h, 8 * h + 8)))
    assert slots == rows, "split transpose inverse"


@functools.lru_cache(maxsize=None)
def plan256() -> Plan:
    """plan() with the transpose split (('th', 8 rows) after the y-stage,
    ('tp', the slots of E or O) before the x-stage) and the x-stage's
    column j of block B at slot 16 B + SIGMA[j]"""
    base = plan().layers
    k = next(i for i, lay in enumerate(base) if lay[0][0] == "tr")
    layers = [list(lay) for lay in base[:k]]
    layers.append([("th", tuple(range(16 * B + 8 * h, 16 * B + 8 * h + 8))) for B in range(V // 16) for h in (0, 1)])
    layers.append([("tp", tuple(16 * B + g + p for p in EPOS)) for B in range(V // 16) for g in (0, 4)])
    # the residue of row l of block B (plan's y-stage output)
    res = [(list(range(32 * kk, 32 * kk + 32)), (NTT_N // 3) * kk) for kk in range(3)]
    while len(res[0][0]) > 1:
        nres = []
        for sl, e in res:
            m = len(sl) // 2
            s = sqrt_e(e)
            nres += [(sl[:m], s), (sl[m:], (s + NTT_N // 2) % NTT_N)]
        res = nres
    eslot = {sl[0]: e for sl, e in res}
    xres = [([16 * B + SIGMA[j] for j in range(16)], tuple(eslot[16 * B + l] for l in range(16)))
            for B in range(V // 16)]
    while len(xres[0][0]) > 1:
        lay, nres = [], []
        for sl, es in xres:
            m = len(sl) // 2
            s = tuple(sqrt_e(e) for e in es)
            for j in range(m):
                lay.append(("r2", sl[j], sl[m + j], s))
            nres += [(sl[:m], s), (sl[m:], tuple((x + NTT_N // 2) % NTT_N for x in s))]
        layers.append(lay)
        xres = nres
    # the x-stage must match plan()'s up to the slot permutation
    xs = [lay for lay in base[k + 1:]]
    perm = {16 * B + j: 16 * B + SIGMA[j] for B in range(V // 16) for j in range(16)}
    assert [[(o[0], perm[o[1]], perm[o[2]], o[3]) for o in lay] for lay in xs] == layers[k + 2:]
    return Plan(layers)


def shift_offsets(ln: str, dd: int, dt: int) -> str:
    """a unit's line with its dp offsets moved by dd and tp offsets by dt
    (the next unit of a run)"""
    import re

    def f(mo: "re.Match[str]") -> str:
        off = int(mo.group(3) or 0) + (dd if mo.group(2) == "dp" else dt)
        return f"{mo.group(1)}[{mo.group(2)}" + (f" + {off}]" if off else "]")
    return re.sub(r"(mem\d+)\[(dp|tp)(?: \+ (\d+))?\]", f, ln)


# --------------------------------------------------------------- emitter
class Gen:
    def __init__(self, p: int, impl: str = IMPL) -> None:
        self.p, self.q = p, nt.PARAMS[p]
        self.impl, self.W = impl, WIDTHS[impl]
        self.TL = self.W // 16   # lanes of the transforms' vectors
        self.L = self.TL         # lanes of the code being emitted (16: staging, CRT)
        self.VB = 2 * self.TL    # bytes of a transform vector
        self.NS = NTT_N // self.TL   # transform slots
        assert 2 * p - 1 <= NTT_N, "the cyclic length must hold the product"
        self.kn = nt.Kernel(nt.ISAS["amd64-avx2"], p, self.q, "mult")
        self.c = self.kn.c
        self.e = nt.Q(nt.ISAS["amd64-avx2"])
        self.consts: dict[str, tuple[int, ...]] = {}
        self.cnames: dict[tuple[int, ...], str] = {}
        self.nops = 0
        self.base: int | None = None
        self.ucon: list[tuple[int, ...]] = []
        self.units: list = []
        self.table: list[int] = []
        self.tseen: dict[tuple[int, ...], int] = {}
        self.wreg = "w"          # the base of the units' dp (wb in the f/g loop)
        self.wbase = "w"         # the base outside units (wp in the prime loop)
        self.kp = False          # prime constants through kp, the table through tb
        self.bcast = False       # uniform twiddles as broadcast 32-bit entries (tws)
        check_transpose(self.W)
        if self.W == 256:
            check_split_transpose()

    # -- constants
    def const(self, vals: tuple[int, ...] | int) -> str:
        if isinstance(vals, int):
            vals = (vals,) * self.L
        vals = tuple(v & 0xFFFF for v in vals)
        if vals not in self.cnames:
            name = f"NK{len(self.cnames)}"
            self.cnames[vals] = name
            self.consts[name] = vals
        return self.cnames[vals]

    @property
    def mw(self) -> str:
        return f"mem{16 * self.L}"

    @property
    def x(self) -> str:
        """the lane prefix of 16-bit operations"""
        return f"{self.L}x"

    def m(self, name: str) -> str:
        return f"{self.mw}[{name}]"

    @property
    def PCONST(self) -> tuple[str, ...]:
        # width 256: R = 2^16 mod P and R P^-1 for the Montgomery reduction (reduce)
        return ("P", "bv", "rnd", "pinv", "K") + (("R", "Rq") if self.W == 256 and MONTR else ())

    def pcval(self, pr: Prime, name: str) -> int:
        R = centred(65536, pr.P)
        return {"P": pr.P, "bv": pr.bv, "rnd": 1 << (pr.bs - 1), "pinv": pr.pinv, "K": pr.K,
                "R": R, "Rq": pr.wq(R)}[name]

    def pc(self, pr: Prime, name: str) -> str:
        """a constant vector of the prime: a named constant, or in the
        prime loop an entry of PRIMEK (read through kp)"""
        if self.kp:
            k = self.PCONST.index(name)
            return f"{self.mw}[kp + {2 * self.TL * k}]" if k else f"{self.mw}[kp]"
        return self.m(self.const(self.pcval(pr, name)))

    def at(self, off: int) -> str:
        if self.base is not None:
            assert off >= self.base
            return f"{self.mw}[dp + {off - self.base}]" if off > self.base else f"{self.mw}[dp]"
        return f"{self.mw}[{self.wbase} + {off}]" if off else f"{self.mw}[{self.wbase}]"

    def tw(self, vals: tuple[int, ...], key: tuple | None = None) -> str:
        """a per-unit constant vector: an entry of the unit's part of the
        table NTTW (read through tp).  Entries with the same key (the same
        layer and twiddle exponents: a structural property, identical in
        every unit of a loop) are stored once per unit."""
        assert self.base is not None
        vals = tuple(v & 0xFFFF for v in vals)
        if key is not None and key in self.ukeys:
            k = self.ukeys[key]
            assert self.ucon[k] == vals
        else:
            self.ucon.append(vals)
            k = len(self.ucon) - 1
            if key is not None:
                self.ukeys[key] = k
        return f"{self.mw}[tp + {self.VB * k}]" if k else f"{self.mw}[tp]"

    def tws(self, v: int, key: tuple | None) -> str:
        """a uniform twiddle value of the unit as a 32-bit table entry (v in
        both halves) for a dword broadcast (8x r = mem32[..]): 4 bytes
        instead of a 32-byte vector.  The entries follow the unit's vectors
        (packed 8 to a vector); the offset is a placeholder until unit_end."""
        assert self.base is not None
        v &= 0xFFFF
        if key is not None and key in self.skeys:
            k = self.skeys[key]
            assert self.uscal[k] == v
        else:
            self.uscal.append(v)
            k = len(self.uscal) - 1
            if key is not None:
                self.skeys[key] = k
        return f"mem32[tp + @S{k}@]"

    # -- loop rolling: identical units become loops
    def unit_begin(self, base: int) -> None:
        self.saved = self.e
        self.e = nt.Q(self.saved.isa)
        self.base = base
        self.ucon = []
        self.ukeys: dict[tuple, int] = {}
        self.uscal: list[int] = []
        self.skeys: dict[tuple, int] = {}
        self.lastb: tuple | None = None

    def unit_end(self) -> None:
        if self.uscal:
            # the broadcast entries after the unit's vectors, 8 to a vector
            b0 = self.VB * len(self.ucon)
            per = self.TL // 2
            for i in range(0, len(self.uscal), per):
                part = self.uscal[i:i + per]
                part = part + [0] * (per - len(part))
                self.ucon.append(tuple(x for v in part for x in (v, v)))
            lines = []
            for ln in self.e.lines:
                while "@S" in ln:
                    a = ln.index("@S")
                    b = ln.index("@", a + 2)
                    off = b0 + 4 * int(ln[a + 2:b])
                    ln = ln[:a - 3] + (f" + {off}" if off else "") + ln[b + 1:]
                lines.append(ln)
            self.e.lines[:] = lines
        self.units.append((tuple(self.e.lines), self.base, list(self.ucon)))
        self.e = self.saved
        self.base = None

    def flush(self) -> None:
        """emit the collected units: runs of identical bodies at a constant
        stride become a loop (dp and tp advance), runs of equal runs at a
        constant stride a loop around it"""
        units, self.units = self.units, []
        runs: list[list] = []          # [lines, base0, stride, n, consts]
        for lines, base, con in units:
            r = runs[-1] if runs else None
            if r and r[0] == lines and len(r[4][-1]) == len(con) and (r[3] == 1 or base - r[1] == r[2] * r[3]):
                if r[3] == 1:
                    r[2] = base - r[1]
                if base - r[1] == r[2] * r[3]:
                    r[3] += 1
                    r[4].append(con)
                    continue
            runs.append([lines, base, 0, 1, [con]])
        outer: list[list] = []         # [run, ostride, m]
        for r in runs:
            o = outer[-1] if outer else None
            if o:
                r0 = o[0]
                if r0[0] == r[0] and r0[2] == r[2] and r0[3] == r[3] and (o[2] == 1 or r[1] - r0[1] == o[1] * o[2]):
                    if o[2] == 1:
                        o[1] = r[1] - r0[1]
                    if r[1] - r0[1] == o[1] * o[2]:
                        o[2] += 1
                        o[3].extend(r[4])
                        continue
            outer.append([r, 0, 1, list(r[4])])
        e = self.e
        for r, ostride, m, cons in outer:
            lines, base0, stride, n, _ = r
            k = len(cons[0]) if cons else 0
            # the table holds one copy per inner run when the run's units
            # read the same constants (tp then stays), one per unit otherwise
            same = all(all(c == cons[j * n] for c in cons[j * n:(j + 1) * n]) for j in range(m))
            tin = 0 if same else self.VB * k
            tout = self.VB * k if same else 0
            if same and all(cons[j * n] == cons[0] for j in range(m)):
                tout = 0
            e(f"dp = {self.wreg} + {base0}" if base0 else f"dp = {self.wreg}")
            if k:
                if same:
                    keep = [cons[0]] if tout == 0 else [cons[j * n] for j in range(m)]
                else:
                    keep = cons
                # an identical sequence already in the table is read again
                seq = tuple(x for c in keep for vec in c for x in vec)
                if seq not in self.tseen:
                    self.tseen[seq] = len(self.table)
                    self.table.extend(seq)
                toff = 2 * self.tseen[seq]
                if self.kp:
                    e(f"tp = tbase + {toff}" if toff else "tp = tbase")
                else:
                    e("tp = &mem8[NTTW]")
                    if toff:
                        e(f"tp = tp + {toff}")
            lo = self.e.label("nto") if m > 1 else None
            if lo:
                e(f"i1 = {m}")
                e(f"{lo}:")
            # width 256: an inner loop of an even count >= 4 does two units
            # per iteration (the second's offsets shifted by a stride)
            un = 2 if self.W == 256 and n >= 4 and n % 2 == 0 else 1
            li = self.e.label("nti") if n > 1 else None
            if li:
                e(f"i0 = {n // un}")
                e(f"{li}:")
            e(list(lines))
            if un == 2:
                e([shift_offsets(ln, stride, tin if k else 0) for ln in lines])
            if n > 1 or m > 1:
                if stride:
                    e(f"dp = dp + {un * stride}")
                if k and tin:
                    e(f"tp = tp + {un * tin}")
            if li:
                if self.W == 256:
                    e("=? i0 -= 1")
                else:
                    e("i0 = i0 - 1")
                    e("=? i0 - 0")
                e(f"goto {li} if !=")
            if lo:
                back = ostride - n * stride
                if back:
                    e(f"dp = dp + {back}")
                if k and tout:
                    e(f"tp = tp + {tout}")
                if self.W == 256:
                    e("=? i1 -= 1")
                else:
                    e("i1 = i1 - 1")
                    e("=? i1 - 0")
                e(f"goto {lo} if !=")

    # -- arithmetic (bounds returned)
    def reduce(self, x: str, t: str, pr: Prime, b: int) -> int:
        """x (|x| <= b) reduced mod P in place; returns the new bound.
        Width 256: a Montgomery product by R = 2^16 mod P (four operations,
        one less than Barrett's; |.| <= (b |R| + 2^15 P)/2^16 with the
        larger |R| of the primes); else Barrett"""
        if not (self.W == 256 and MONTR):
            return self.barrett(x, t, pr)
        e = self.e
        rmax = max(abs(centred(65536, P)) for P in PRIMES) if pr.uP else abs(centred(65536, pr.P))
        nb = (b * rmax + 32768 * max(pr.P, pr.uP)) // 65536
        assert nb < b
        e(f"{self.x} {t} = {x} * {self.pc(pr, 'Rq')}")
        e(f"{self.x} {t} = mulhi({t}, rp)")
        e(f"{self.x} {x} = mulhi({x}, {self.pc(pr, 'R')})")
        e(f"{self.x} {x} = {x} - {t}")
        return nb

    def barrett(self, x: str, t: str, pr: Prime) -> int:
        e = self.e
        if self.W == 256:
            # (mulhi with a memory operand: one instruction less)
            e(f"{self.x} {t} = mulhi({x}, {self.pc(pr, 'bv')})")
        else:
            e(f"{t} = {self.pc(pr, 'bv')}")
            e(f"{self.x} {t} = mulhi({x}, {t})")
        e(f"{self.x} {t} = {t} + {self.pc(pr, 'rnd')}")
        e(f"(int16) {self.x} {t} >>= {pr.bs}")
        e(f"{self.x} {t} = {t} * {self.pc(pr, 'P')}")
        e(f"{self.x} {x} = {x} - {t}")
        return pr.rb

    def montc(self, d: str, x: str, w: tuple[int, ...], t: str, pr: Prime, key: tuple | None = None) -> None:
        """d = x * w / 2^16 mod P (w per lane); d may be x; t scratch;
        key: the twiddle's structural key (tw)"""
        e = self.e
        kq = kw = None
        if key is not None:
            kq, kw = key + ("wq",), key + ("w",)
        if self.bcast and len(set(w)) == 1:
            # a uniform twiddle: broadcast from 32-bit table entries (once
            # for consecutive butterflies with the same twiddle)
            again = key is not None and self.lastb == key
            self.lastb = key
            if not again:
                e(f"{self.L // 2}x wb1 = {self.tws(pr.wq(w[0]), kq)}")
                e(f"{self.L // 2}x wb2 = {self.tws(w[0], kw)}")
            e(f"{self.x} {t} = {x} * wb1")
            e(f"{self.x} {t} = mulhi({t}, rp)")
            e(f"{self.x} {d} = mulhi({x}, wb2)")
            e(f"{self.x} {d} = {d} - {t}")
            return
        e(f"{self.x} {t} = {x} * {self.tw(tuple(pr.wq(v) for v in w), kq)}")
        e(f"{self.x} {t} = mulhi({t}, rp)")
        if self.W == 256:
            e(f"{self.x} {d} = mulhi({x}, {self.tw(w, kw)})")
            e(f"{self.x} {d} = {d} - {t}")
            return
        e(f"{d} = {self.tw(w, kw)}" if d != x else f"tw = {self.tw(w, kw)}")
        if d != x:
            e(f"{self.x} {d} = mulhi({x}, {d})")
        else:
            e(f"{self.x} {d} = mulhi({x}, tw)")
        e(f"{self.x} {d} = {d} - {t}")

    # -- transforms
    def transform(self, pr: Prime, src: int, dst: int, bnd: dict[int, int], inverse: bool,
                  scale: int | None = None, pw: int | None = None) -> None:
        """the forward (or inverse) NTT over the 96 vectors at w+src into
        w+dst (in place when equal); bnd: slot -> bound (0 = known zero),
        updated.  scale: multiply the source vectors by this constant on
        load (forward, g: exact, |g| <= 1).  pw: the first pass multiplies
        each loaded vector by the one at the same slot from w+pw (the
        pointwise Montgomery product, fused)."""
        if self.W == 256:
            self.transform256(pr, src, dst, bnd, inverse, pw)
            return
        layers = plan512().layers
        order = list(reversed(layers)) if inverse else layers
        cur = src
        i = 0
        while i < len(order):
            lay = order[i]
            kind = lay[0][0]
            assert pw is None or kind in ("r2", "x2")
            if kind == "tr":
                self.transpose_pass(cur, dst, lay, bnd)
                cur = dst
                i += 1
                continue
            if kind == "r3":
                self.r3_pass(pr, cur, dst, lay, bnd, inverse, scale)
                scale = None
                cur = dst
                i += 1
                continue
            # up to 3 consecutive radix-2 layers per memory pass
            grp = [lay]
            # (width 512: every layer from the radix-3 one to the end, the
            # transpose included: 16 vectors of the 32 registers)
            while (len(grp) < (3 if self.W == 256 else 10) and i + len(grp) < len(order)
                   and order[i + len(grp)][0][0] in (("r2", "x2") if self.W == 256 else ("r2", "x2", "tr"))):
                grp.append(order[i + len(grp)])
            self.r2_pass(pr, cur, dst, grp, bnd, inverse, scale, pw)
            scale = pw = None
            cur = dst
            i += len(grp)

    # width 256: four memory passes per transform (plan256): the radix-3
    # layer with the first two radix-2 layers (12 vectors), the last three
    # y-layers with H (8 rows), P with three x-layers (E or O), the last x-layer
    PASSES256 = ((0, 1, 2), (3, 4, 5, 6), (7, 8, 9, 10), (11,))

    def transform256(self, pr: Prime, src: int, dst: int, bnd: dict[int, int], inverse: bool,
                     pw: int | None, sel: slice = slice(None)) -> None:
        """the passes sel (of the forward's or the inverse's order)"""
        layers = plan256().layers
        P256 = self.PASSES256
        passes = [tuple(reversed(g)) for g in reversed(P256)] if inverse else list(P256)
        cur = src
        for g in passes[sel]:
            # the pass with the y-stage's last layer has 7 different
            # uniform twiddles per unit: broadcast 32-bit entries
            self.bcast = 5 in g
            self.fused_pass(pr, cur, dst, [layers[i] for i in g], bnd, inverse, pw)
            self.bcast = False
            pw = None
            cur = dst

    def fused_pass(self, pr: Prime, src: int, dst: int, grp: list[list[tuple]], bnd: dict[int, int],
                   inverse: bool, pw: int | None, post: tuple | None = None) -> None:
        """one memory pass over units closed under the layers of grp
        (r3, r2, th, tp operations); a slot is loaded before its first
        use (known zeros are not), every slot stored at the end.  Each unit
        tracks its own bounds (so its own Barrett reductions); the units are
        independent (disjoint slots), so identical ones are grouped to roll
        into loops.  post: see fused_units."""
        self.fused_units(pr, src, dst, grp, bnd, inverse, pw, post)
        first: dict[tuple, int] = {}
        for u in self.units:
            first.setdefault(u[0], len(first))
        self.units.sort(key=lambda u: first[u[0]])
        self.flush()

    def fused_units(self, pr: Prime, src: int, dst: int, grp: list[list[tuple]], bnd: dict[int, int],
                    inverse: bool, pw: int | None, post: tuple | None = None) -> None:
        """the units of fused_pass (post = (G, layers, bounds): after grp,
        G's vectors at w + G go through grp too, the pointwise product,
        then the inverse's layers)"""
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        def slots_of(op: tuple) -> tuple:
            return op[1] if op[0] in ("th", "tp") else (op[1:4] if op[0] == "r3" else op[1:3])
        for lay in grp:
            for op in lay:
                ss = slots_of(op)
                for x in ss[1:]:
                    parent[find(x)] = find(ss[0])
        groups: dict[int, list[int]] = {}
        for sl in sorted(parent):
            groups.setdefault(find(sl), []).append(sl)
        for slots in sorted(groups.values()):
            assert len(slots) <= 12
            self.unit_begin(min(src, dst) + self.VB * min(slots))
            e = self.e
            regs = {sl: f"v{k}" for k, sl in enumerate(slots)}
            ss = set(slots)
            live: set[int] = set()

            def need(sls) -> None:
                for sl in sls:
                    if sl in live:
                        continue
                    live.add(sl)
                    if bnd[sl]:
                        self.load(regs[sl], src, sl, bnd, None)
                        if pw is not None:
                            self.pointwise(pr, regs[sl], pw + self.VB * sl)
                            bnd[sl] = pr.mont2(bnd[sl], bnd[sl])
                            assert bnd[sl] <= LIM
            def run(grp: list[list[tuple]], inverse: bool, lioff: int) -> None:
                for li, lay in enumerate(grp):
                    for op in lay:
                        sl = slots_of(op)
                        if sl[0] not in ss:
                            continue
                        if op[0] == "r3":
                            need([x for x in sl if bnd[x]])
                            for x in sl:
                                live.add(x)
                            if inverse:
                                self.r3_inv(pr, regs, bnd, *op[1:5])
                            else:
                                self.r3_fwd(pr, regs, bnd, *op[1:5])
                        elif op[0] == "r2":
                            if inverse or bnd[op[2]]:
                                need(sl)
                            else:
                                need(sl[:1])
                                live.add(sl[1])
                            self.butterfly(pr, regs, bnd, op[1], op[2], op[3], inverse, lioff + li)
                        else:
                            need(sl)
                            self.half_transpose(regs, bnd, op, inverse)
            run(grp, inverse, 0)
            if post is not None:
                # G (at w + post[0], bounds post[2]) through the same layers,
                # the pointwise product, then the inverse's layers post[1]
                # (their twiddle keys apart)
                regg = {sl: f"v{len(slots) + k}" for k, sl in enumerate(slots)}
                bg = {sl: post[2][sl] for sl in slots}
                for sl in slots:
                    assert bg[sl]
                    self.load(regg[sl], post[0], sl, bg, None)
                for li, lay in enumerate(grp):
                    for op in lay:
                        if op[0] == "r2" and op[1] in ss:
                            self.butterfly(pr, regg, bg, op[1], op[2], op[3], False, li)
                        else:
                            assert op[1] not in ss or op[0] == "r2"
                for sl in slots:
                    assert sl in live and bnd[sl]
                    self.pointwise(pr, regs[sl], None, regg[sl])
                    bnd[sl] = pr.mont2(bnd[sl], bg[sl])
                    assert bnd[sl] <= LIM
                run(post[1], True, len(grp))
            for sl in slots:
                assert sl in live
                e(f"{self.at(dst + self.VB * sl)} = {regs[sl]}")
            self.unit_end()

    def half_transpose(self, regs: dict[int, str], bnd: dict[int, int], op: tuple, inverse: bool) -> None:
        e = self.e
        mlo = self.const(tuple(65535 if l % 2 == 0 else 0 for l in range(self.L)))
        mhi = self.const(tuple(0 if l % 2 == 0 else 65535 for l in range(self.L)))
        st, ins, outs = half_steps(op[0], inverse)
        for nm, sl in zip(ins, op[1]):
            e(f"{nm} = {regs[sl]}")
        for d, o, a, b, imm in st:
            if o == "shuf32":
                e(f"{d} = shuffle32({a}, {imm:#x})")
            else:
                self.transpose_steps_emit([(d, o, a, b, imm), None], mlo, mhi, [])
        for nm, sl in zip(outs, op[1]):
            e(f"{regs[sl]} = {nm}")
        bmax = max(bnd[sl] for sl in op[1])
        for sl in op[1]:
            bnd[sl] = bmax

    def load(self, reg: str, base: int, slot: int, bnd: dict[int, int], scale: int | None) -> None:
        e = self.e
        e(f"{reg} = {self.at(base + self.VB * slot)}")
        if scale is not None:
            e(f"{self.x} {reg} = {reg} * {self.m(self.const(scale))}")

    def ensure(self, pr: Prime, regs: dict[int, str], b: dict[int, int], need: list[tuple[int, int]]) -> None:
        """reduce slots so that each pair's sum of bounds fits int16"""
        for s1, s2 in need:
            while b[s1] + b[s2] > LIM:
                big = s1 if b[s1] >= b[s2] else s2
                assert b[big] > pr.rb, "cannot reduce further"
                b[big] = self.reduce(regs[big], "tt", pr, b[big])

    def butterfly(self, pr: Prime, regs: dict[int, str], b: dict[int, int], lo: int, hi: int,
                  es: tuple[int, ...], inverse: bool, layer: int = -1, special: bool = True) -> None:
        """special: twiddles 1 and -1 without a multiplication (False: every
        butterfly the same code, so that units differing only there roll)"""
        e = self.e
        key = (layer, es)
        rl, rh = regs[lo], regs[hi]
        if inverse:
            # (u, v) -> (u + v, (u - v) s^-1)
            es = tuple((-x) % NTT_N for x in es)
        ws = tuple(pr.w(x) for x in es)
        one = special and all(x == 0 for x in es)
        neg = special and all(x == NTT_N // 2 for x in es)
        wmax = wmax_all(es) if pr.wall else max(abs(v) for v in ws)
        if not inverse:
            if b[hi] == 0:
                e(f"{rh} = {rl}")
                b[hi] = b[lo]
                return
            if one or neg:
                self.ensure(pr, regs, b, [(lo, hi)])
                tb = b[hi]
                src = rh
            else:
                self.montc("tm", rh, ws, "tt", pr, key)
                tb = pr.mont_bound(b[hi], wmax)
                src = "tm"
            while b[lo] + tb > LIM:
                assert b[lo] > pr.rb
                b[lo] = self.reduce(rl, "tt", pr, b[lo])
            a, s = ("-", "+") if neg else ("+", "-")
            if src == rh:
                e(f"{self.x} tm = {rl} {s} {rh}")
                e(f"{self.x} {rl} = {rl} {a} {rh}")
                e(f"{rh} = tm")
            else:
                e(f"{self.x} {rh} = {rl} {s} tm")
                e(f"{self.x} {rl} = {rl} {a} tm")
            b[lo] = b[hi] = b[lo] + tb
            return
        self.ensure(pr, regs, b, [(lo, hi)])
        tot = b[lo] + b[hi]
        e(f"{self.x} tm = {rl} - {rh}")
        e(f"{self.x} {rl} = {rl} + {rh}")
        if one:
            e(f"{rh} = tm")
            hb = tot
        elif neg:
            e(f"{self.x} {rh} = {rh} - {rh}")
            e(f"{self.x} {rh} = {rh} - tm")
            hb = tot
        else:
            self.montc(rh, "tm", ws, "tt", pr, key)
            hb = pr.mont_bound(tot, wmax)
        b[lo], b[hi] = tot, hb

    def cross2(self, pr: Prime, regs: dict[int, str], b: dict[int, int], o1: tuple, o2: tuple,
               inverse: bool, layer: int) -> None:
        """width 512: the radix-2 butterflies between the two 256-bit halves
        (u, v) of two registers (ops ('x2', Z, Z, es)): the low halves of
        both into xa, the high halves into xb (vshufi32x4), one ordinary
        butterfly on (xa, xb) with the two twiddles side by side, and back.
        The twiddle 1 (residue 0) is multiplied too: the units then roll into
        one loop (measured: 3% faster than the smaller operation count with
        one more copy of the pass's code)"""
        e = self.e
        z1, z2 = o1[1], o2[1]
        r1, r2 = regs[z1], regs[z2]
        assert self.W == 512 and len(o1[3]) == len(o2[3]) == self.L // 2
        e(f"xa = shuffle128({r1}, {r2}, 0x44)")
        e(f"xb = shuffle128({r1}, {r2}, 0xee)")
        bb = {0: max(b[z1], b[z2]), 1: max(b[z1], b[z2])}
        self.butterfly(pr, {0: "xa", 1: "xb"}, bb, 0, 1, tuple(o1[3]) + tuple(o2[3]), inverse, layer,
                       special=False)
        e(f"{r1} = shuffle128(xa, xb, 0x44)")
        e(f"{r2} = shuffle128(xa, xb, 0xee)")
        b[z1] = b[z2] = max(bb.values())

    def r2_pass(self, pr: Prime, src: int, dst: int, grp: list[list[tuple]], bnd: dict[int, int],
                inverse: bool, scale: int | None, pw: int | None = None) -> None:
        # groups of slots closed under the pass's butterflies (union-find)
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x
        for lay in grp:
            for op in lay:
                if op[0] == "tr":
                    for x in op[1][1:]:
                        parent[find(x)] = find(op[1][0])
                    continue
                parent[find(op[1])] = find(op[2])
        groups: dict[int, list[int]] = {}
        for s in sorted(parent):
            groups.setdefault(find(s), []).append(s)
        for slots in sorted(groups.values()):
            assert len(slots) <= (8 if self.W == 256 else 16)
            self.unit_begin(min(src, dst) + self.VB * min(slots))
            regs = {s: f"v{k}" for k, s in enumerate(slots)}
            for s in slots:
                if bnd[s]:
                    self.load(regs[s], src, s, bnd, scale)
                    if pw is not None:
                        self.pointwise(pr, regs[s], pw + self.VB * s)
                        bnd[s] = pr.mont2(bnd[s], bnd[s])
                        assert bnd[s] <= LIM
                else:
                    self.e(f"{regs[s]} = 0")
            ss = set(slots)
            for li, lay in enumerate(grp):
                if lay[0][0] == "tr":
                    for op in lay:
                        if op[1][0] in ss:
                            self.transpose_regs(regs, bnd, op[1])
                    continue
                xs = [op for op in lay if op[1] in ss and op[0] == "x2"]
                assert len(xs) % 2 == 0
                for k in range(0, len(xs), 2):
                    self.cross2(pr, regs, bnd, xs[k], xs[k + 1], inverse, li)
                for op in lay:
                    if op[1] in ss and op[0] == "r2":
                        self.butterfly(pr, regs, bnd, op[1], op[2], op[3], inverse, li)
            for s in slots:
                self.e(f"{self.at(dst + self.VB * s)} = {regs[s]}")
            self.unit_end()
        self.flush()

    def pointwise(self, pr: Prime, r: str, off: int | None, other: str | None = None) -> None:
        """r = r * mem256[w+off] / 2^16 mod P (Montgomery, both variables;
        the caller bounds the product)"""
        e = self.e
        tt = other or "tt"
        if other is None:
            e(f"tt = {self.at(off)}")
        e(f"{self.x} tm = {r} * {tt}")
        e(f"{self.x} {r} = mulhi({r}, {tt})")
        e(f"{self.x} tm = tm * {self.pc(pr, 'pinv')}")
        e(f"{self.x} tm = mulhi(tm, rp)")
        e(f"{self.x} {r} = {r} - tm")

    def r3_pass(self, pr: Prime, src: int, dst: int, lay: list[tuple], bnd: dict[int, int],
                inverse: bool, scale: int | None) -> None:
        e = self.e
        for _, a, b_, c, eo in lay:
            self.unit_begin(min(src, dst) + self.VB * a)
            e = self.e
            regs = {a: "v0", b_: "v1", c: "v2"}
            for s in (a, b_, c):
                if bnd[s]:
                    self.load(regs[s], src, s, bnd, scale)
            if not inverse:
                self.r3_fwd(pr, regs, bnd, a, b_, c, eo)
            else:
                self.r3_inv(pr, regs, bnd, a, b_, c, eo)
            for s in (a, b_, c):
                e(f"{self.at(dst + self.VB * s)} = {regs[s]}")
            self.unit_end()
        self.flush()

    def r3key(self, eo: int) -> tuple | None:
        """width 256: the radix-3 twiddle is one table entry per unit (the
        fused pass has four radix-3 operations per unit)"""
        return ("r3", eo) if self.W == 256 else None

    def r3_fwd(self, pr: Prime, regs, bnd, a: int, b: int, c: int, eo: int) -> None:
        """(A, B, C) -> (A + B + C, A + wB - C - wC, A - B - wB + wC), w = psi^eo"""
        e = self.e
        ra, rb, rc = regs[a], regs[b], regs[c]
        w = (pr.w(eo),) * self.L
        Ba, Bb, Bc = bnd[a], bnd[b], bnd[c]
        assert Ba > 0
        if Bb == 0 and Bc == 0:
            e(f"{rb} = {ra}")
            e(f"{rc} = {ra}")
            bnd[b] = bnd[c] = Ba
            return
        wb = pr.mont_bound(Bb, wmax_all(eo) if pr.wall else abs(w[0]))
        wc = pr.mont_bound(Bc, wmax_all(eo) if pr.wall else abs(w[0])) if Bc else 0
        if Bc == 0:
            self.montc("tm", rb, w, "tt", pr, self.r3key(eo))      # tm = wB
            # r0 = A + B, r1 = A + wB, r2 = A - B - wB
            b0, b1, b2 = Ba + Bb, Ba + wb, Ba + Bb + wb
            assert max(b0, b1, b2) <= LIM
            e(f"{self.x} {rc} = {ra} - {rb}")
            e(f"{self.x} {rc} = {rc} - tm")
            e(f"{self.x} {rb} = {ra} + {rb}")
            e(f"{self.x} {ra} = {ra} + tm")
            # slots: a <- r0, b <- r1, c <- r2
            if self.W == 256:
                # (width 256: the unit's slot registers are exchanged, no copies)
                regs[a], regs[b] = rb, ra
                bnd[a], bnd[b], bnd[c] = b0, b1, b2
                return
            e(f"tm = {ra}")
            e(f"{ra} = {rb}")
            e(f"{rb} = tm")
            bnd[a], bnd[b], bnd[c] = b0, b1, b2
            return
        if self.W == 256:
            # one multiplication: r1 = A - C + w(B - C), r2 = A - B - w(B - C)
            self.ensure(pr, regs, bnd, [(b, c)])
            Bb, Bc = bnd[b], bnd[c]
            wd = pr.mont_bound(Bb + Bc, wmax_all(eo) if pr.wall else abs(w[0]))
            b0, b1, b2 = Ba + Bb + Bc, Ba + Bc + wd, Ba + Bb + wd
            while max(b0, b1, b2) > LIM:
                assert Ba > pr.rb
                Ba = bnd[a] = self.reduce(ra, "tt", pr, Ba)
                b0, b1, b2 = Ba + Bb + Bc, Ba + Bc + wd, Ba + Bb + wd
            e(f"{self.x} tw2 = {rb} - {rc}")
            self.montc("tm", "tw2", w, "tt", pr, self.r3key(eo))     # tm = w(B - C)
            e(f"{self.x} tw2 = {rb} + {rc}")
            e(f"{self.x} {rb} = {ra} - {rb}")
            e(f"{self.x} {rc} = {ra} - {rc}")
            e(f"{self.x} {ra} = {ra} + tw2")         # r0
            e(f"{self.x} {rb} = {rb} - tm")          # r2
            e(f"{self.x} {rc} = {rc} + tm")          # r1
            regs[b], regs[c] = rc, rb                # (no copies)
            bnd[a], bnd[b], bnd[c] = b0, b1, b2
            return
        self.montc("tm", rb, w, "tt", pr, self.r3key(eo))          # tm = wB
        self.montc("tw2", rc, w, "tt", pr, self.r3key(eo))         # tw2 = wC
        b0, b1, b2 = Ba + Bb + Bc, Ba + wb + Bc + wc, Ba + Bb + wb + wc
        assert max(b0, b1, b2) <= LIM
        e(f"{self.x} tt = {ra} + {rb}")
        e(f"{self.x} tt = tt + {rc}")            # r0
        e(f"{self.x} {rb} = {ra} - {rb}")
        e(f"{self.x} {rb} = {rb} - tm")
        e(f"{self.x} {rb} = {rb} + tw2")         # r2
        e(f"{self.x} {ra} = {ra} + tm")
        e(f"{self.x} {ra} = {ra} - {rc}")
        e(f"{self.x} {ra} = {ra} - tw2")         # r1
        e(f"{rc} = {rb}")
        e(f"{rb} = {ra}")
        e(f"{ra} = tt")
        bnd[a], bnd[b], bnd[c] = b0, b1, b2

    def r3_inv(self, pr: Prime, regs, bnd, a: int, b: int, c: int, eo: int) -> None:
        """(r0, r1, r2) -> (r0 + r1 + r2, r0 - r1 - w r1 + w r2, r0 + w r1 - r2 - w r2) = 3(A, B, C)"""
        e = self.e
        ra, rb, rc = regs[a], regs[b], regs[c]
        w = (pr.w(eo),) * self.L
        if self.W == 256:
            # one multiplication: 3B = r0 - r1 + w(r2 - r1), 3C = r0 - r2 - w(r2 - r1)
            self.ensure(pr, regs, bnd, [(b, c)])
            wd = pr.mont_bound(bnd[b] + bnd[c], wmax_all(eo) if pr.wall else abs(w[0]))
            # the outputs go to the CRT, which needs |x1| + |x2| <= LIM: at
            # most LIM - rb leaves it one Barrett reduction (of x1) to do
            lim = LIM - pr.rb
            while True:
                sums = [bnd[a] + bnd[b] + bnd[c], bnd[a] + bnd[b] + wd, bnd[a] + bnd[c] + wd]
                if max(sums) <= lim:
                    break
                big = max((a, b, c), key=lambda z: bnd[z])
                assert bnd[big] > pr.rb
                bnd[big] = self.reduce(regs[big], "tt", pr, bnd[big])
                wd = pr.mont_bound(bnd[b] + bnd[c], wmax_all(eo) if pr.wall else abs(w[0]))
            e(f"{self.x} tw2 = {rc} - {rb}")
            self.montc("tm", "tw2", w, "tt", pr, self.r3key(eo))     # w(r2 - r1)
            e(f"{self.x} tw2 = {rb} + {rc}")
            e(f"{self.x} {rb} = {ra} - {rb}")
            e(f"{self.x} {rc} = {ra} - {rc}")
            e(f"{self.x} {ra} = {ra} + tw2")         # 3A
            e(f"{self.x} {rb} = {rb} + tm")          # 3B
            e(f"{self.x} {rc} = {rc} - tm")          # 3C
            bnd[a], bnd[b], bnd[c] = sums
            return
        while True:
            wb = pr.mont_bound(bnd[b], abs(w[0]))
            wc = pr.mont_bound(bnd[c], abs(w[0]))
            sums = [bnd[a] + bnd[b] + bnd[c], bnd[a] + bnd[b] + wb + wc, bnd[a] + wb + bnd[c] + wc]
            if max(sums) <= LIM:
                break
            big = max((a, b, c), key=lambda z: bnd[z])
            assert bnd[big] > pr.rb
            bnd[big] = self.barrett(regs[big], "tt", pr)
        self.montc("tm", rb, w, "tt", pr, self.r3key(eo))          # w r1
        self.montc("tw2", rc, w, "tt", pr, self.r3key(eo))         # w r2
        e(f"{self.x} tt = {ra} + {rb}")
        e(f"{self.x} tt = tt + {rc}")            # 3A
        e(f"{self.x} {rb} = {ra} - {rb}")
        e(f"{self.x} {rb} = {rb} - tm")
        e(f"{self.x} {rb} = {rb} + tw2")         # 3B
        e(f"{self.x} {ra} = {ra} + tm")
        e(f"{self.x} {ra} = {ra} - {rc}")
        e(f"{self.x} {rc} = {ra} - tw2")         # 3C
        e(f"{ra} = tt")
        bnd[a], bnd[b], bnd[c] = sums[0], sums[1], sums[2]

    def transpose_pass(self, src: int, dst: int, lay: list[tuple], bnd: dict[int, int]) -> None:
        e = self.e
        steps = transpose_steps(self.W)
        mlo = self.const(tuple(65535 if l % 2 == 0 else 0 for l in range(self.L)))
        mhi = self.const(tuple(0 if l % 2 == 0 else 65535 for l in range(self.L)))
        pqi = [self.const(tuple(v for k in ix for v in (k, 0, 0, 0))) for ix in PQIDX] if self.W == 512 else []
        for (_, slots) in lay:
            self.unit_begin(min(src, dst) + self.VB * min(slots))
            e = self.e
            bmax = max(bnd[s] for s in slots)
            names: dict[str, str] = {}
            free = [f"v{k}" for k in range(16)] + ["tm", "tt"]
            # straight-line: every temporary its own name (the allocator
            # coalesces); rows loaded first
            for i, s in enumerate(slots):
                e(f"r{i} = {self.at(src + self.VB * s)}")
            self.transpose_steps_emit(steps, mlo, mhi, pqi)
            for j, n in enumerate(steps[-1][1]):
                e(f"{self.at(dst + self.VB * slots[j])} = {n}")
            for s in slots:
                bnd[s] = bmax
            self.unit_end()
        self.flush()

    def transpose_regs(self, regs: dict[int, str], bnd: dict[int, int], slots: tuple[int, ...]) -> None:
        """the transpose of a block held in registers (width 512: fused into
        the radix-2 pass between the y-stage and the x-stage)"""
        e = self.e
        mlo = self.const(tuple(65535 if l % 2 == 0 else 0 for l in range(self.L)))
        mhi = self.const(tuple(0 if l % 2 == 0 else 65535 for l in range(self.L)))
        pqi = [self.const(tuple(v for k in ix for v in (k, 0, 0, 0))) for ix in PQIDX] if self.W == 512 else []
        steps = transpose_steps(self.W)
        for i, s in enumerate(slots):
            e(f"r{i} = {regs[s]}")
        self.transpose_steps_emit(steps, mlo, mhi, pqi)
        for j, n in enumerate(steps[-1][1]):
            e(f"{regs[slots[j]]} = {n}")
        bmax = max(bnd[s] for s in slots)
        for s in slots:
            bnd[s] = bmax

    def transpose_steps_emit(self, steps: list[tuple], mlo: str, mhi: str, pqi: list[str]) -> None:
        e = self.e
        if True:
            for d, op, a, b, imm in steps[:-1]:
                if op == "and":
                    e(f"{d} = {a} & {self.m(mlo if b == 'MLO' else mhi)}")
                elif op == "shl":
                    e(f"{self.L // 2}x {d} = {a} << 16")
                elif op == "shr":
                    e(f"{self.L // 2}x {d} = {a} >> 16")
                elif op == "add16":
                    e(f"{self.x} {d} = {a} + {b}")
                elif op == "ulo32":
                    e(f"{d} = unpacklo32({a}, {b})")
                elif op == "uhi32":
                    e(f"{d} = unpackhi32({a}, {b})")
                elif op == "ulo64":
                    e(f"{d} = unpacklo64({a}, {b})")
                elif op == "uhi64":
                    e(f"{d} = unpackhi64({a}, {b})")
                elif op == "pq":
                    e(f"tidx = {self.m(pqi[imm])}")
                    e(f"{d} = {a}")
                    e(f"{d} = permute2x64({d}, tidx, {b})")
                elif op == "perm128":
                    e(f"{d} = permute128({a}, {b}, {imm:#x})")

    def tnames(self) -> list[str]:
        names = [f"r{i}" for i in range(16)] + ["ta", "tb"]
        for s in transpose_steps(self.W)[:-1]:
            if s[0] not in names:
                names.append(s[0])
        return names

    # -- the function
    def generate(self) -> str:
        e, kn, c = self.e, self.kn, self.c
        p, q = self.p, self.q
        # one Barrett shift for both primes (the loop's code is shared)
        bs = min(make_prime(P).bs for P in PRIMES)
        P1, P2 = (make_prime(P, bs) for P in PRIMES)
        nv = -(-p // 16)                      # vectors holding p coefficients
        # Per prime P a block FQ_P, GS_P, F_P, G_P (the blocks at a stride S:
        # the primes share one loop, the base wp advancing by S); f and g
        # are transformed by one inner loop of two iterations (the same code,
        # the base wb advancing by D = GS_P - FQ_P = G_P - F_P).
        self.L = 16
        lay = nt.Layout(32 if self.W == 256 else 64)
        lay.add("IN", 32 * V)
        lay.add("GS", 32 * V)
        for P in PRIMES:
            for nm in ("FQ", "GS", "F", "G"):
                lay.add(f"{nm}{P}", 32 * V)
        lay.add("KB", 16 * V)
        lay.add("H", 32 * V + 64)
        lay.add("OUT", 32 * nv)
        S = lay.off[f"FQ{PRIMES[1]}"] - lay.off[f"FQ{PRIMES[0]}"]
        for nm in ("GS", "F", "G"):
            assert lay.off[f"{nm}{PRIMES[1]}"] - lay.off[f"{nm}{PRIMES[0]}"] == S
        body = nt.Q(e.isa)
        self.e = body
        e2 = body
        name = symbol(p, self.impl)
        # stage the inputs (everything read before anything is written)
        kn.stage(e2, lay, "IN", "in", 2 * p, 32 * V, True)
        kn.stage(e2, lay, "KB", "k", p, 16 * V, False)
        # f mod q (|f| <= fmax), a copy per prime block, and g in {-1,0,1}
        for r, cname in (("x6", "BV"), ("x7", "QQ")):
            kn.cld(e2, r, cname)
        for v in range(nv):
            e2(f"x0 = {self.at(lay.off['IN'] + 32 * v)}")
            kn.barrett(e2, "x0", "x1")
            for P in PRIMES:
                e2(f"{self.at(lay.off[f'FQ{P}'] + hpos(v, self.W))} = x0")
        for P in PRIMES:
            self.zero_halves(lay.off[f"FQ{P}"], nv)
        kn.small_from_bytes(e2, lay.off["KB"], lay.off["GS"], 16 * nv)
        # the per-prime code, generated for each prime with bounds valid for
        # both (uP, ured) and the constants read through kp and tb: it must
        # come out identical, then it is emitted once in a loop
        uP, ured = max(P1.P, P2.P), max(P1.red, P2.red)
        bodies = []
        self.kp, self.wbase, self.wreg = True, "wp", "wp"
        for pr in (P1, P2):
            qb = nt.Q(e.isa)
            qb.labels = body.labels
            self.e, self.table, self.tseen = qb, [], {}
            bf = self.prime_body(dataclasses.replace(pr, uP=uP, ured=ured, wall=self.W == 256), lay, nv)
            bodies.append((qb, self.table, bf))
        self.kp, self.wbase, self.wreg = False, "w", "w"
        self.e = body
        (q1, t1, bf), (q2, t2, _) = bodies
        assert q1.lines == q2.lines and len(t1) == len(t2), "the primes' code differs"
        self.table = t1 + t2
        self.tseen = {}
        e2("kp = &mem8[PRIMEK]")
        e2("tbase = &mem8[NTTW]")
        e2("wp = w")
        e2("i3 = 2")
        lp = e2.label("ntpr")
        e2(f"{lp}:")
        e2(q1.lines)
        body.labels = q1.labels
        e2(f"kp = kp + {2 * self.TL * len(self.PCONST)}")
        e2(f"tbase = tbase + {2 * len(t1)}")
        e2(f"wp = wp + {S}")
        e2("i3 = i3 - 1")
        e2("=? i3 - 0")
        e2(f"goto {lp} if !=")
        hbnd = {P1.P: bf, P2.P: bf}
        # the CRT reads F_P1 and F_P2
        lay.off[f"F{P1.P}"], lay.off[f"F{P2.P}"] = lay.off[f"F{PRIMES[0]}"], lay.off[f"F{PRIMES[1]}"]
        self.crt(lay, P1, P2, hbnd, nv)
        # fold modulo x^p - x - 1 and freeze
        H = lay.off["H"]
        e2(f"z0 = 0")
        e2(f"{self.at(H + 32 * V)} = z0")
        e2(f"{self.at(H + 32 * V + 32)} = z0")
        assert nv * 16 + p <= NTT_N + 16
        for r, cname in (("x6", "BV"), ("x7", "QQ")):
            kn.cld(e2, r, cname)
        kn.fold(e2, H, lay.off["OUT"], nv, lambda x: kn.barrett(e2, x, "x1"))
        kn.unstage16(e2, lay, "OUT", p)
        e2("leave")

        # the header: declarations, constants, the frame
        hdr = nt.Q(e.isa)
        hdr(f"# generated by gen/ntruprime_ntt.py ({self.impl}, mult, p={p}, q={q}). DO NOT EDIT.")
        hdr("# Streamlined NTRU Prime R/q product by NTTs modulo x^1536 - 1 over the primes "
            f"{PRIMES[0]} and {PRIMES[1]}, CRT, mod q; see docs/ntruprime-ntt.md.")
        hdr(f"# |f mod q| <= {c.fmax}; products {self.proof}")
        if self.W == 256:
            hdr("cpu avx2")
        else:
            hdr("# width 512: 48 zmm slots (docs/ntruprime-ntt.md, 'AVX-512')")
            hdr("cpu avx512bw avx512vl")
        hdr("int64 out in k c w wb wp kp tbase pa pb pc qa qb qc qd i0 i1 i2 i3 t0 t1 dp tp")
        if self.W == 256:
            hdr("reg256 z0 x0 x1 x2 x3 x4 x5 x6 x7 rp tw tm tt tw2 wb1 wb2 " + " ".join(f"v{k}" for k in range(12)))
            hdr("reg256 " + " ".join(self.tnames()))
        else:
            hdr("reg256 z0 x0 x1 x2 x3 x4 x5 x6 x7 c0 c1 c2 ct crp")
            hdr("reg512 rp tw tm tt tw2 tidx xa xb " + " ".join(f"v{k}" for k in range(16)))
            hdr("reg512 " + " ".join(self.tnames()))
        kn.consts(hdr)
        for nm, vals in self.consts.items():
            hdr(f"const {nm} u16 " + " ".join(str(v) for v in vals))
        # the primes' constant vectors, in the order of PCONST, P1 then P2
        hdr("const PRIMEK u16 " + " ".join(str(self.pcval(pr, n) & 0xFFFF) for pr in (P1, P2)
                                           for n in self.PCONST for _ in range(self.TL)))
        # the twiddle table, in the order the loops read it
        # (lines are limited to 64 KB: chunks of 256 vectors, a multiple of
        # the 64-byte alignment of a const, so the chunks are contiguous;
        # check_table_layout asserts it on the assembly)
        ch = 256 * 16
        for i in range(0, len(self.table), ch):
            nm = "NTTW" if i == 0 else f"NTTW_{i // ch}"
            hdr(f"const {nm} u16 " + " ".join(str(v) for v in self.table[i:i + ch]))
        hdr("")
        hdr(f"# void {name}(unsigned char *out /* 2p bytes */, const unsigned char *in /* 2p */, const unsigned char *k /* p */)")
        if self.W == 256:
            hdr(f"stack256 work{name}[{-(-lay.size // 32)}]")
        else:
            hdr(f"stack512 work{name}[{-(-lay.size // 64)}]")
        hdr(f"enter {name}")
        hdr("input out in k")
        hdr("secret [in] [k]")
        hdr(f"w = &work{name}")
        return "\n".join(hdr.lines + body.lines) + "\n"

    def prime_body(self, pr: Prime, lay: nt.Layout, nv: int) -> dict[int, int]:
        """one prime's transforms, pointwise product and inverse, addressed
        from wp (PRIMES[0]'s block offsets), into self.e; returns the bounds"""
        P0 = PRIMES[0]
        FQ, GP, F, G = (lay.off[f"{nm}{P0}"] for nm in ("FQ", "GS", "F", "G"))
        e2 = self.e
        self.L = self.TL
        e2(f"rp = {self.pc(pr, 'P')}")
        self.L = 16
        # g K mod P (exact: g in {-1,0,1}, |K| < P/2)
        kc = self.pc(pr, "K")
        for v in range(nv):
            e2(f"x0 = mem256[w + {lay.off['GS'] + 32 * v}]")
            e2(f"{self.x} x0 = x0 * {kc}")
            e2(f"{self.at(GP + hpos(v, self.W))} = x0")
        self.zero_halves(GP, nv)
        self.L = self.TL
        # f (|f| <= fmax) and g K share the loop: the larger bound
        # (width 256: |g K| = |K| exactly, the larger |K| of the two primes)
        kmax = max(abs(make_prime(P).K) for P in PRIMES) if self.W == 256 else (max(pr.P, pr.uP) - 1) // 2
        bf = {s: (max(self.c.fmax, kmax) if s < nv else 0) for s in range(V)}
        if self.W == 512:
            bz = {}
            for s, b in bf.items():
                z = hzmm(s)[0]
                bz[z] = max(bz.get(z, 0), b)
            bf = bz
        D = G - F
        assert GP - FQ == D
        e2("wb = wp")
        e2("i2 = 2")
        lfg = e2.label("ntfg")
        e2(f"{lfg}:")
        self.wreg = "wb"
        fuse = self.W == 256
        if fuse:
            # width 256: the last forward pass (one x-layer) of F and G
            # fused with the pointwise product and the inverse's first pass
            # (the same layer): two memory passes less
            self.transform256(pr, FQ, F, bf, False, None, slice(0, -1))
        else:
            self.transform(pr, FQ, F, bf, False)
        self.wreg = "wp"
        e2 = self.e
        e2(f"wb = wb + {D}")
        e2("i2 = i2 - 1")
        e2("=? i2 - 0")
        e2(f"goto {lfg} if !=")
        if fuse:
            layers = plan256().layers
            last = [[layers[i] for i in self.PASSES256[-1]]][0]
            assert self.PASSES256[-1] == (11,)
            self.fused_pass(pr, F, F, last, bf, False, None, post=(G, last, dict(bf)))
            self.transform256(pr, F, F, bf, True, None, slice(1, None))
            self.L = 16
            return bf
        # the pointwise Montgomery products (both operands int16) are
        # fused into the inverse's first pass (the same bound for F and G)
        self.transform(pr, F, F, bf, True, pw=G)
        self.L = 16
        return bf

    def zero_halves(self, base: int, nv: int) -> None:
        """width 512: zero the 16-lane slots >= nv that share a zmm with a
        slot < nv (the transforms read the whole zmm)"""
        if self.W == 256:
            return
        zs = [v for v in range(nv, V) if v ^ 16 < nv]
        if zs:
            self.e("z0 = 0")
        for v in zs:
            self.e(f"{self.at(base + hpos(v, self.W))} = z0")

    def crt(self, lay: nt.Layout, P1: Prime, P2: Prime, hb: dict[int, dict[int, int]], nv: int) -> None:
        """h = x1 + P1 u, u = (x2 - x1) P1^-1 mod P2 (Montgomery), then
        h mod q = barrett(barrett(x1) + (P1 mod q) u mod q); every bound asserted."""
        e, kn, c = self.e, self.kn, self.c
        q, p = self.q, self.p
        F1, F2, H = lay.off[f"F{P1.P}"], lay.off[f"F{P2.P}"], lay.off["H"]
        b1 = max(hb[P1.P].values())
        b2 = max(hb[P2.P].values())
        red1 = b1 + b2 > LIM
        if red1:
            b1 = P1.red
        red2 = b1 + b2 > LIM
        if red2:
            b2 = P2.red
        assert b1 + b2 <= LIM
        cu = centred(65536 * pow(P1.P, -1, P2.P), P2.P)
        umax = P2.mont_bound(b1 + b2, abs(cu))
        hmax = p * c.fmax
        # x1 + P1 u = h mod P1 P2, and |x1 + P1 u - h| < P1 P2: equal
        assert b1 + P1.P * umax + hmax < P1.P * P2.P, "CRT window"
        c1 = centred(P1.P, q)
        dw = round(c1 * 65536 / q)
        zmax = 0
        for u in range(-umax, umax + 1):
            z = nt.mulB(u, c1, dw, q, 16)
            assert (z - c1 * u) % q == 0
            zmax = max(zmax, abs(z))
        assert c.fmax + zmax <= LIM
        # width 256: x1 (|x1| <= b1) is not reduced mod q first when
        # x1 + (P1 mod q) u mod q fits int16 (the final Barrett takes any int16)
        skipq = self.W == 256 and b1 + zmax <= LIM
        # the fold adds three values |.| <= fmax; the final Barrett freezes
        bt = (q, c.bv, c.bs, 16)
        for x in range(-3 * c.fmax, 3 * c.fmax + 1):
            assert nt.barrett(x, bt) == nt.freeze(x, q), x
        assert nt.barrett(0, bt) == 0 and nt.mulB(0, c1, dw, q, 16) == 0
        self.proof = (f"|x1| <= {b1}, |x2| <= {b2}, |u| <= {umax}, |h| <= {hmax}: "
                      f"{b1} + {P1.P}*{umax} + {hmax} < {P1.P}*{P2.P}")
        for r, cname in (("x6", "BV"), ("x7", "QQ")):
            kn.cld(e, r, cname)
        e(f"x5 = {self.m(self.const(round(c1 * 65536 / q)))}")
        e(f"x4 = {self.m(self.const(cu))}")
        # width 512: the transforms' registers are zmm; the CRT (16 lanes)
        # has its own ymm names
        v0, v1, v2, tt, rp = ("v0", "v1", "v2", "tt", "rp") if self.W == 256 else ("c0", "c1", "c2", "ct", "crp")
        e(f"{rp} = {self.m(self.const(P2.P))}")
        cuq = self.const(P2.wq(cu))
        nvh = -(-(2 * p - 1) // 16)
        e0 = e

        def one(e, r1: str, r2: str, wr: str) -> None:
            e(f"{v0} = {r1}")
            e(f"{v1} = {r2}")
            if red1:
                self.barrett(v0, tt, P1)
            if red2:
                self.barrett(v1, tt, P2)
            e(f"16x {v1} = {v1} - {v0}")
            e(f"16x {v2} = {v1} * {self.m(cuq)}")
            e(f"16x {v1} = mulhi({v1}, x4)")
            e(f"16x {v2} = mulhi({v2}, {rp})")
            e(f"16x {v1} = {v1} - {v2}")       # u
            if not skipq:
                kn.barrett(e, v0, tt)          # x1 mod q, |.| <= fmax
            e(f"16x {v2} = {v1} * {self.m(self.const(c1))}")
            e(f"16x {v1} = mulhi({v1}, x5)")
            e(f"16x {v1} = {v1} * x7")
            e(f"16x {v2} = {v2} - {v1}")       # P1 u mod q
            e(f"16x {v0} = {v0} + {v2}")
            kn.barrett(e, v0, tt)
            e(f"{wr} = {v0}")
        if self.W == 512:
            self.crt512(F1, F2, H, P1, P2, red1, red2, cu, c1)
            return
        for v in range(V):
            self.unit_begin(min(F1, F2, H) + 32 * v)
            e = self.e
            if v >= nvh:
                e("z0 = 0")
                e(f"{self.at(H + 32 * v)} = z0")
                self.unit_end()
                continue
            one(e, self.at(F1 + 32 * v), self.at(F2 + 32 * v), self.at(H + 32 * v))
            self.unit_end()
        self.flush()


    def crt512(self, F1: int, F2: int, H: int, P1: Prime, P2: Prime, red1: bool, red2: bool,
               cu: int, c1: int) -> None:
        """width 512: the CRT of crt() on 32 lanes (the bounds proved there
        hold lane by lane).  F_P is in the zmm layout (hpos): zmm Z = 16 C + k
        holds slots 32 C + k and 32 C + 16 + k, each half stored to H in
        natural order (extract256); a loop with two pointers (pa reads, pb
        writes).  The slots at and above nvh (h = 0 there) are computed too:
        the CRT gives exactly 0 (|h| <= hmax), its reduction mod q a value
        = 0 mod q bounded like every other, which the fold and freeze accept."""
        e, c, q = self.e, self.c, self.q
        assert V == 96 and all(hpos(32 * C + k + 16 * hh, 512) == 1024 * C + 64 * k + 32 * hh
                               for C in range(3) for k in range(16) for hh in (0, 1))
        self.L = 32
        x = self.x
        cv = self.kn.cv

        def bq(r: str) -> None:
            """r = barrett(r) mod q: gen.ntruprime's Kernel.barrett on 32 lanes"""
            e(f"{x} tt = mulhi({r}, tw)")
            e(f"{x} tt = tt + {self.m(self.const(cv['BRND']))}")
            e(f"(int16) {x} tt >>= {c.bs}")
            e(f"{x} tt = tt * tw2")
            e(f"{x} {r} = {r} - tt")
        e(f"tw = {self.m(self.const(cv['BV']))}")
        e(f"tw2 = {self.m(self.const(cv['QQ']))}")
        e(f"xb = {self.m(self.const(round(c1 * 65536 / q)))}")
        e(f"xa = {self.m(self.const(cu))}")
        e(f"rp = {self.m(self.const(P2.P))}")
        cuq = self.const(P2.wq(cu))
        e(f"pa = w + {F1}")
        e(f"pb = w + {H}")
        l1, l0 = e.label("ntco"), e.label("ntci")
        e("i1 = 3")
        e(f"{l1}:")
        e("i0 = 16")
        e(f"{l0}:")
        e("v0 = mem512[pa]")
        e(f"v1 = mem512[pa + {F2 - F1}]")
        if red1:
            self.barrett("v0", "tt", P1)
        if red2:
            self.barrett("v1", "tt", P2)
        e(f"{x} v1 = v1 - v0")
        e(f"{x} v2 = v1 * {self.m(cuq)}")
        e(f"{x} v1 = mulhi(v1, xa)")
        e(f"{x} v2 = mulhi(v2, rp)")
        e(f"{x} v1 = v1 - v2")                 # u
        bq("v0")                               # x1 mod q, |.| <= fmax
        e(f"{x} v2 = v1 * {self.m(self.const(c1))}")
        e(f"{x} v1 = mulhi(v1, xb)")
        e(f"{x} v1 = v1 * tw2")
        e(f"{x} v2 = v2 - v1")                 # P1 u mod q
        e(f"{x} v0 = v0 + v2")
        bq("v0")
        e("c0 = extract256(v0, 0)")
        e("c1 = extract256(v0, 1)")
        e("mem256[pb] = c0")
        e("mem256[pb + 512] = c1")
        e("pa = pa + 64")
        e("pb = pb + 32")
        e("i0 = i0 - 1")
        e("=? i0 - 0")
        e(f"goto {l0} if !=")
        e("pb = pb + 512")
        e("i1 = i1 - 1")
        e("=? i1 - 0")
        e(f"goto {l1} if !=")
        self.L = 16


def generate(p: int, impl: str = IMPL) -> str:
    return Gen(p, impl).generate()


# ---- the manifest's generator interface (docs/adding-a-kernel.md) ----------
def qpath(impl: str, params: dict[str, str]) -> str:
    assert WIDTHS[impl] == int(params.get("width", "256")) and params.get("fn", "mult") == "mult"
    return generated_path(int(params["p"]), impl)


def text(impl: str, params: dict[str, str], root: str = ROOT) -> str:
    assert WIDTHS[impl] == int(params.get("width", "256"))
    return generate(int(params["p"]), impl)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.ntruprime_ntt", description=__doc__.splitlines()[0])
    ap.add_argument("--p", action="append", type=int, choices=[653, 761], help="parameter p (default: all)")
    ap.add_argument("--impl", action="append", choices=list(WIDTHS), help="implementation (default: all)")
    ap.add_argument("--stdout", action="store_true")
    a = ap.parse_args(argv)
    for impl, p in [(i, p) for i in (a.impl or list(WIDTHS)) for p in a.p or [653, 761]]:
        body = generate(p, impl)
        if a.stdout:
            sys.stdout.write(body)
            continue
        path = os.path.join(ROOT, generated_path(p, impl))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
