"""The additive FFT of the Classic McEliece kernels: the Gao-Mateer
recursion, its constants and a bit-level model (docs/mceliece-fft.md).

Evaluates f (NCOEF = 128 coefficients over GF(2^m)) at the 2^m points
P(e) = sum_i e_i beta_i, basis beta_i = z^(m-1-i): P(e) is the field element
whose integer is bitrev_m(e).

Level d = 0 .. LEVELS-1 (LEVELS = 7 = log2 NCOEF) has 2^d polynomials of
2^(7-d) coefficients, all evaluated on the span of the same basis B_d
(m-d elements; B_0 = beta).  With b_d the last element of B_d and
gamma_i = B_d[i] / b_d (so the last gamma is 1):
    g(x) = f(b_d x) = g0(x^2 + x) + x g1(x^2 + x)        (radix conversion)
    B_(d+1)[i] = gamma_i^2 + gamma_i,  i < m-d-1
and, for e' < 2^(m-d-1) with X_d(e') = sum_i e'_i gamma_i,
    f(P_d(e'))              = g0(P_(d+1)(e')) + X_d(e') g1(P_(d+1)(e'))
    f(P_d(e' + 2^(m-d-1)))  = f(P_d(e')) + g1(P_(d+1)(e')).
At level 7 the polynomials are constants (their value at every point).

Layouts, in place: the coefficient vector (128 lanes) holds polynomial u
of level d at lanes rev_d(u) 2^(7-d) .. (child h of a polynomial at the
low (h = 0) or high (h = 1) half of its lanes); the evaluation array
(2^m positions per plane) holds the value of polynomial u of level d at
point e' at position rev_d(u) 2^(m-d) + e'.  Level 0 is the output:
position e = f(P(e)).
"""
from __future__ import annotations

import functools
import random

from gen import mceliece_net as mn

NCOEF = 128
LEVELS = 7


def modulus(m: int) -> int:
    return sum(1 << e for e in mn.MODULUS[m])


def gmul(m: int, a: int, b: int) -> int:
    p = 0
    for i in range(m):
        if (b >> i) & 1:
            p ^= a << i
    f = modulus(m)
    for k in range(2 * m - 2, m - 1, -1):
        if (p >> k) & 1:
            p ^= f << (k - m)
    return p


def gpow(m: int, a: int, e: int) -> int:
    r = 1
    while e:
        if e & 1:
            r = gmul(m, r, a)
        a = gmul(m, a, a)
        e >>= 1
    return r


@functools.lru_cache(maxsize=None)
def ginv(m: int, a: int) -> int:
    return gpow(m, a, (1 << m) - 2)


def bitrev(x: int, bits: int) -> int:
    return int(format(x, f"0{bits}b")[::-1], 2) if bits else 0


@functools.lru_cache(maxsize=None)
def bases(m: int) -> list[list[int]]:
    """B_0 .. B_LEVELS (B_d has m-d elements)"""
    B = [[1 << (m - 1 - i) for i in range(m)]]
    for _ in range(LEVELS + 1):
        cur = B[-1]
        b = cur[-1]
        binv = ginv(m, b)
        gam = [gmul(m, x, binv) for x in cur[:-1]]
        B.append([gmul(m, g, g) ^ g for g in gam])
    return B


def scale(m: int, d: int) -> int:
    """b_d: f(x) -> f(b_d x) before the radix conversion of level d"""
    return bases(m)[d][-1]


@functools.lru_cache(maxsize=None)
def xconst(m: int, d: int, e: int) -> int:
    """X_d(e') = sum_i e'_i gamma_i"""
    cur = bases(m)[d]
    binv = ginv(m, cur[-1])
    x = 0
    for i in range(len(cur) - 1):
        if (e >> i) & 1:
            x ^= gmul(m, cur[i], binv)
    return x


def point(m: int, e: int) -> int:
    return bitrev(e, m)


def naive(m: int, f: list[int]) -> list[int]:
    out = []
    for e in range(1 << m):
        a, v = point(m, e), 0
        for c in reversed(f):
            v = gmul(m, v, a) ^ c
        out.append(v)
    return out


# ---- the radix conversion as lane operations on 128-lane vectors ----------
def radix_steps(n: int) -> list[tuple[str, int]]:
    """the lane operations that split every n-lane block g into
    (g0 | g1): ('xor', s): block2 ^= block3 then block1 ^= block2 in every
    4s-lane block; ('swap', s): exchange blocks 1 and 2 of every 4s block"""
    steps: list[tuple[str, int]] = []
    q = n
    while q >= 4:
        steps.append(("xor", q // 4))
        q //= 2
    q = 4
    while q <= n:
        steps.append(("swap", q // 4))
        q *= 2
    return steps


def lane_mask(s: int, blk: int, nl: int = NCOEF) -> int:
    """lanes of block `blk` (0..3) of every 4s-lane block"""
    return sum(((1 << s) - 1) << (4 * s * q + blk * s) for q in range(nl // (4 * s)))


def apply_step(x: int, step: tuple[str, int]) -> int:
    """one radix step on a 128-lane plane (a 128-bit integer)"""
    kind, s = step
    if kind == "xor":
        x ^= (x >> s) & lane_mask(s, 2)
        x ^= (x >> s) & lane_mask(s, 1)
    else:
        t = ((x >> s) ^ x) & lane_mask(s, 1)
        x ^= t ^ (t << s)
    return x


def lane_consts(m: int, d: int, K: int = NCOEF) -> list[int]:
    """per lane the scaling constant of level d: b_d^(lane mod K/2^d)"""
    n = K >> d
    b = scale(m, d)
    return [gpow(m, b, k % n) for k in range(K)]


def planes_of(m: int, vals: list[int]) -> list[int]:
    return [sum(((v >> b) & 1) << k for k, v in enumerate(vals)) for b in range(m)]


def vals_of(m: int, planes: list[int], n: int) -> list[int]:
    return [sum(((planes[b] >> k) & 1) << b for b in range(m)) for k in range(n)]


def model(m: int, f: list[int]) -> list[int]:
    """the kernel's algorithm on python integers (planes), for checking"""
    c = list(f) + [0] * (NCOEF - len(f))
    for d in range(LEVELS):
        if d:
            k = lane_consts(m, d)
            c = [gmul(m, x, y) for x, y in zip(c, k)]
        P = planes_of(m, c)
        for st in radix_steps(NCOEF >> d):
            P = [apply_step(x, st) for x in P]
        c = vals_of(m, P, NCOEF)
    # level 7: broadcast lane L to positions L 2^(m-7) ..
    n = 1 << m
    w = n >> LEVELS
    E = [c[e // w] for e in range(n)]
    for d in range(LEVELS - 1, -1, -1):
        D = 1 << (m - d - 1)
        for base in range(0, n, 2 * D):
            for e in range(D):
                lo, hi = E[base + e], E[base + D + e]
                lo ^= gmul(m, xconst(m, d, e), hi)
                E[base + e], E[base + D + e] = lo, lo ^ hi
    return E


def tsteps(n: int) -> list[tuple[str, int, int]]:
    """the transposes of radix_steps(n), in reverse order: ('xorT', s, blk)
    is x ^= (x & mask(s, blk)) << s; ('swap', s, 1) is its own transpose"""
    out: list[tuple[str, int, int]] = []
    for kind, s in reversed(radix_steps(n)):
        if kind == "xor":
            out += [("xorT", s, 1), ("xorT", s, 2)]
        else:
            out.append(("swap", s, 1))
    return out


def apply_tstep(x: int, st: tuple[str, int, int], K: int) -> int:
    kind, s, blk = st
    if kind == "xorT":
        return x ^ ((x & lane_mask(s, blk, K)) << s)
    t = ((x >> s) ^ x) & lane_mask(s, 1, K)
    return x ^ t ^ (t << s)


def tnaive(m: int, r: list[int], K: int) -> list[int]:
    """s_j = sum_e r_e P(e)^j, j < K"""
    out = [0] * K
    for e, re in enumerate(r):
        a, y = point(m, e), re
        for j in range(K):
            out[j] ^= y
            y = gmul(m, y, a)
    return out


def tmodel(m: int, r: list[int], K: int) -> list[int]:
    """the transposed kernel's algorithm: the forward steps transposed, in
    reverse order"""
    n = 1 << m
    lev = K.bit_length() - 1
    E = list(r)
    for d in range(lev):
        D = 1 << (m - d - 1)
        for base in range(0, n, 2 * D):
            for e in range(D):
                lo, hi = E[base + e], E[base + D + e]
                lo ^= hi
                hi ^= gmul(m, xconst(m, d, e), lo)
                E[base + e], E[base + D + e] = lo, hi
    w = n // K
    c = [0] * K
    for e in range(n):
        c[e // w] ^= E[e]
    for d in range(lev - 1, -1, -1):
        P = planes_of(m, c)
        for st in tsteps(K >> d):
            P = [apply_tstep(x, st, K) for x in P]
        c = vals_of(m, P, K)
        if d:
            k = lane_consts(m, d, K)
            c = [gmul(m, x, y) for x, y in zip(c, k)]
    return c


def selfcheck(m: int, trials: int = 2) -> None:
    rng = random.Random(m)
    for _ in range(trials):
        f = [rng.randrange(1 << m) for _ in range(NCOEF)]
        assert model(m, f) == naive(m, f), m


def tselfcheck(m: int, K: int) -> None:
    rng = random.Random(m + K)
    r = [rng.randrange(1 << m) for _ in range(1 << m)]
    assert tmodel(m, r, K) == tnaive(m, r, K), (m, K)


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--transposed"]:
        for m, K in ((12, 128), (13, 256)):
            tselfcheck(m, K)
            print(f"m={m} K={K}: transposed model = naive")
        sys.exit(0)
    for m in (12, 13):
        selfcheck(m, 1)
        print(f"m={m}: model = naive")
