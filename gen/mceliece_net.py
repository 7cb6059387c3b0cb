"""Bitsliced GF(2^m) networks for the Classic McEliece kernels (gen/mceliece.py).

A network is straight-line SSA over bit-vectors (one machine word or
vector register per bit of m field elements in parallel): AND and XOR,
and for targets with a three-input logic instruction (AVX-512 vpternlog)
the fused forms ANDXOR (c ^ (a & b)) and XOR3 (a ^ b ^ c).  One
description of each operation serves every target and every lane count:

    mul      schoolbook or Karatsuba product of two m-term polynomials
             (2m-1 terms), then reduction by the field modulus
    sq       the linear map a -> a^2 (x^(2i) mod f for every i)
    inv      a^(2^m - 2) by an addition chain on the exponent 2^(m-1) - 1
             (a_(i+j) = a_i^(2^j) * a_j with a_k = a^(2^k - 1)), then a square

docs/mceliece.md explains the choice between schoolbook and Karatsuba
(fewest operations for the target's cost, counted by count()).
"""
from __future__ import annotations

from dataclasses import dataclass, field

MODULUS = {12: (12, 3, 0), 13: (13, 4, 3, 1, 0)}  # exponents of f(z)


@dataclass
class Net:
    """ops: (kind, dst, args...) with kind in and, xor, andxor, xor3;
    values are strings: inputs 'f0', 'g3', temporaries 't17'."""
    ops: list[tuple[str, ...]] = field(default_factory=list)
    n: int = 0

    def new(self) -> str:
        self.n += 1
        return f"t{self.n}"

    def op(self, kind: str, *args: str) -> str:
        d = self.new()
        self.ops.append((kind, d) + args)
        return d

    def xor(self, a: str, b: str) -> str:
        return self.op("xor", a, b)

    def and_(self, a: str, b: str) -> str:
        return self.op("and", a, b)


def xor_all(net: Net, vals: list[str]) -> str:
    acc = vals[0]
    for v in vals[1:]:
        acc = net.xor(acc, v)
    return acc


def schoolbook(net: Net, a: list[str], b: list[str]) -> list[str]:
    """Product coefficients c_k = XOR_{i+j=k} a_i & b_j, column by column."""
    n, k2 = len(a), len(b)
    out = []
    for k in range(n + k2 - 1):
        terms = [net.and_(a[i], b[k - i]) for i in range(max(0, k - k2 + 1), min(n, k + 1))]
        out.append(xor_all(net, terms))
    return out


def karatsuba(net: Net, a: list[str], b: list[str], leaf: int) -> list[str]:
    """Recursive Karatsuba down to leaf terms (then schoolbook): with
    a = a0 + x^h a1, b likewise, ab = L + x^h (M - L - H) + x^2h H,
    M = (a0 + a1)(b0 + b1); the shared part L_hi ^ H_lo is computed once
    (refined Karatsuba)."""
    n = len(a)
    if n <= leaf or n != len(b):
        return schoolbook(net, a, b)
    h = (n + 1) // 2
    a0, a1, b0, b1 = a[:h], a[h:], b[:h], b[h:]
    lo = karatsuba(net, a0, b0, leaf)               # 2h-1 terms
    hi = karatsuba(net, a1, b1, leaf)               # 2(n-h)-1 terms
    sa = [net.xor(a0[i], a1[i]) if i < len(a1) else a0[i] for i in range(h)]
    sb = [net.xor(b0[i], b1[i]) if i < len(b1) else b0[i] for i in range(h)]
    mid = karatsuba(net, sa, sb, leaf)              # 2h-1 terms
    out: list[str | None] = [None] * (2 * n - 1)

    def add(k: int, v: str) -> None:
        out[k] = v if out[k] is None else net.xor(out[k], v)  # type: ignore[arg-type]

    # x^h (mid ^ lo ^ hi): term k of mid gets lo_k and hi_k
    for k in range(2 * h - 1):
        t = mid[k]
        t = net.xor(t, lo[k])
        if k < len(hi):
            t = net.xor(t, hi[k])
        add(k + h, t)
    for k, v in enumerate(lo):
        add(k, v)
    for k, v in enumerate(hi):
        add(k + 2 * h, v)
    return [v for v in out]  # type: ignore[misc]


def reduce(net: Net, c: list[str], m: int) -> list[str]:
    """c (2m-1 terms) modulo f: from the top, z^k = z^(k-m) * (f - z^m)."""
    c = list(c)
    low = [e for e in MODULUS[m] if e < m]
    for k in range(2 * m - 2, m - 1, -1):
        for e in low:
            c[k - m + e] = net.xor(c[k - m + e], c[k])
    return c[:m]


def mul(net: Net, a: list[str], b: list[str], m: int, leaf: int) -> list[str]:
    prod = schoolbook(net, a, b) if leaf >= m else karatsuba(net, a, b, leaf)
    return reduce(net, prod, m)


def sq_matrix(m: int) -> list[int]:
    """row j: bit i set when z^(2i) mod f has the term z^j"""
    f = sum(1 << e for e in MODULUS[m])
    rows = [0] * m
    for i in range(m):
        p = 1 << (2 * i)
        for k in range(2 * m - 2, m - 1, -1):
            if (p >> k) & 1:
                p ^= f << (k - m)
        for j in range(m):
            if (p >> j) & 1:
                rows[j] |= 1 << i
    return rows


def sq(net: Net, a: list[str], m: int) -> list[str]:
    return [xor_all(net, [a[i] for i in range(m) if (r >> i) & 1]) for r in sq_matrix(m)]


def inv_chain(n: int) -> list[tuple[int, int]]:
    """Steps (i, j): a_(i+j) = a_i^(2^j) * a_j, building a_n from a_1 by the
    binary expansion of n (doubling, plus one at each set bit)."""
    steps: list[tuple[int, int]] = []
    cur = 1
    for b in bin(n)[3:]:
        steps.append((cur, cur))
        cur *= 2
        if b == "1":
            steps.append((cur, 1))
            cur += 1
    return steps


def inv(net: Net, a: list[str], m: int, leaf: int) -> list[str]:
    have = {1: a}
    cur = 1
    for i, j in inv_chain(m - 1):
        x = have[i]
        for _ in range(j):
            x = sq(net, x, m)
        cur = i + j
        have[cur] = mul(net, x, have[j], m, leaf)
    assert cur == m - 1
    return sq(net, have[m - 1], m)


def fuse(net: Net, keep: list[str]) -> Net:
    """Three-input forms: xor(x, and(a, b)) -> andxor(a, b, x) and
    xor(xor(a, b), c) -> xor3(a, b, c) when the inner value has no other
    use and is not an output in keep (an inner value already fused stays
    as it is)."""
    uses: dict[str, int] = {}
    for op in net.ops:
        for v in op[2:]:
            uses[v] = uses.get(v, 0) + 1
    for v in keep:
        uses[v] = uses.get(v, 0) + 1
    emitted: dict[str, tuple[str, ...]] = {}
    dead: set[str] = set()
    ops: list[tuple[str, ...]] = []
    for op in net.ops:
        if op[0] == "xor":
            for x, y in ((op[2], op[3]), (op[3], op[2])):
                d = emitted.get(y)
                if d and uses[y] == 1 and d[0] in ("and", "xor"):
                    op = ("andxor" if d[0] == "and" else "xor3", op[1], d[2], d[3], x)
                    dead.add(y)
                    break
        emitted[op[1]] = op
        ops.append(op)
    return Net([op for op in ops if op[1] not in dead], net.n)


def count(net: Net) -> dict[str, int]:
    res: dict[str, int] = {}
    for op in net.ops:
        res[op[0]] = res.get(op[0], 0) + 1
    return res


def simulate(net: Net, env: dict[str, int], mask: int) -> dict[str, int]:
    """Evaluate the network on integers (bit-vectors), for self-checks."""
    v = dict(env)
    for op in net.ops:
        k, d, *a = op
        x = [v[t] for t in a]
        if k == "and":
            v[d] = x[0] & x[1]
        elif k == "xor":
            v[d] = x[0] ^ x[1]
        elif k == "andxor":
            v[d] = (x[0] & x[1]) ^ x[2]
        elif k == "xor3":
            v[d] = x[0] ^ x[1] ^ x[2]
        else:
            raise AssertionError(k)
        v[d] &= mask
    return v
