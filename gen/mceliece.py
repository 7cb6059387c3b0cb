"""Generate the Classic McEliece arithmetic kernels (.q) for every target.

    python3 -m gen.mceliece [--impl IMPL ...] [--out DIR] [--stdout] [--counts]

No templates: the networks of gen/mceliece_net.py (one description of
the multiplication, squaring and inversion networks) are emitted as .q
for each implementation's register type:

    amd64, ppc64, sparc64   int64: one 64-lane bit-vector per register
    x86, ppc32              int32: each 64-bit word as two 32-bit halves
    x86-sse2                reg128 (SSE2, 128 lanes per register)
    amd64-avx2              reg256 (256 lanes)
    amd64-avx512            reg512 (512 lanes), vpternlogd fusing and-xor
                            and three-way xor

Every implementation provides the lane counts 64, 256 and 512 its
register width divides (a 256-lane vector on int64 is four passes of the
64-lane network over the interleaved words; docs/mceliece.md).  The
manifest (specs/kernels.conf) lists the kernels: one primitive each,
`gen=mceliece params=kind=vec,m=12,lanes=256,op=mul` (kind vec, gf,
transpose, syndrome); qpath() names its .q,
specs/mceliece/generated/<primitive>_<impl id>.q, text() writes it, with
the kernel qhasm_kernel_<primitive>_<impl id>_<kernel>.
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from typing import Callable

from gen import mceliece_net as mn
from gen import mceliece_transpose
from gen import mceliece_gf
from gen import mceliece_syndrome as msyn
from gen.mceliece_syndrome import SynTgt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = "specs/mceliece"
GENERATED = f"{SPECS}/generated"
FIELDS = [12, 13]
LANES = [64, 256, 512]


@dataclass(frozen=True)
class Tgt:
    target: str      # qhasm -m
    vtype: str       # register type of a bit-vector
    bits: int        # bits per register
    ptr: str         # pointer type
    cpu: str         # cpu line ('' for none)
    ternlog: bool    # three-input logic (vpternlogd)
    asm: str         # .asm or .s
    big_endian: bool = False
    vec_align: int = 0  # vector loads/stores need this alignment (AltiVec lvx/stvx: 16)


IMPLS: dict[str, Tgt] = {
    "amd64": Tgt("amd64", "int64", 64, "int64", "", False, ".asm"),
    # vec_mul only: the column multiplier with andn terms (ANDN)
    "amd64-bmi1": Tgt("amd64", "int64", 64, "int64", "bmi1", False, ".asm"),
    "amd64-avx2": Tgt("amd64", "reg256", 256, "int64", "avx2", False, ".asm"),
    "amd64-avx512": Tgt("amd64", "reg512", 512, "int64", "avx512f avx512vl", True, ".asm"),
    # the syndrome only: its row parities by vpopcntq (AVX512_VPOPCNTDQ)
    "amd64-avx512popcnt": Tgt("amd64", "reg512", 512, "int64", "avx512f avx512vl avx512vpopcntdq", True, ".asm"),
    # single-element gf only: carry-less multiply on xmm registers (VEX forms)
    "amd64-pclmul": Tgt("amd64", "reg128", 128, "int64", "avx pclmulqdq", False, ".asm"),
    "x86": Tgt("x86", "int32", 32, "int32", "", False, ".asm"),
    "x86-sse2": Tgt("x86", "reg128", 128, "int32", "sse2", False, ".asm"),
    "ppc32": Tgt("ppc32", "int32", 32, "int32", "", False, ".s", True),
    # AltiVec: a 128-bit register holds two 64-lane words; lvx/stvx ignore
    # the low four address bits, so misaligned buffers go through aligned copies
    "ppc32-altivec": Tgt("ppc32", "reg128", 128, "int32", "altivec", False, ".s", True, 16),
    "ppc64": Tgt("ppc64", "int64", 64, "int64", "", False, ".s", True),
    "sparc64": Tgt("sparc64", "int64", 64, "int64", "", False, ".s", True),
}

# the syndrome's loads per implementation (gen/mceliece_syndrome.py); a
# word of 1 or 4 bytes where the target needs aligned loads (SPARC: the
# rows of mceliece6960119 are 677 bytes, of mceliece348864 340)
BIG = 1 << 31
SYNDROME: dict[str, dict[str, SynTgt]] = {
    "amd64": {p: SynTgt(8, "int64", "int64", 64, "", False, BIG, True) for p in msyn.PARAMS},
    "amd64-avx2": {p: SynTgt(32, "reg256", "int64", 64, "avx2", False, BIG, True) for p in msyn.PARAMS},
    # avx2 too: the row parities are merged by mceliece_syndrome.vector_merge's ymm code
    "amd64-avx512": {p: SynTgt(64, "reg512", "int64", 64, "avx2 avx512f avx512vl", True, BIG, True) for p in msyn.PARAMS},
    # the same with the parity byte by vpopcntq (docs/mceliece.md, session 10)
    "amd64-avx512popcnt": {p: SynTgt(64, "reg512", "int64", 64, "avx2 avx512f avx512vl avx512vpopcntdq", True, BIG, True,
                                     popcnt=True) for p in msyn.PARAMS},
    "x86": {p: SynTgt(4, "int32", "int32", 32, "", False, BIG) for p in msyn.PARAMS},
    "ppc32": {p: SynTgt(4, "int32", "int32", 32, "", False, 32767) for p in msyn.PARAMS},
    # ld takes displacements that are multiples of 4 only: 677-byte rows use lwz
    "ppc64": {"mceliece348864": SynTgt(8, "int64", "int64", 64, "", False, 32767),
              "mceliece6960119": SynTgt(4, "int64", "int64", 64, "", False, 32767)},
    "sparc64": {p: SynTgt(1, "int64", "int64", 64, "", False, 4095) for p in msyn.PARAMS},
}

# ternlog immediates: bit (A<<2 | B<<1 | C) of the result, A the
# destination operand, B and C the two sources
TERN_ANDXOR = sum(1 << i for i in range(8) if ((i >> 2) ^ ((i >> 1) & i)) & 1)  # A ^ (B & C)
TERN_XOR3 = sum(1 << i for i in range(8) if ((i >> 2) ^ (i >> 1) ^ i) & 1)      # A ^ B ^ C


def impl_id(impl: str) -> str:
    return impl.replace("-", "_")


def leaf(m: int, ternlog: bool) -> int:
    """Karatsuba leaf size with the fewest operations for this cost model
    (ternlog: a fused op counts one); see docs/mceliece.md."""
    best = None
    for lf in range(2, m + 1):
        net = mn.Net()
        mn.mul(net, [f"f{i}" for i in range(m)], [f"g{i}" for i in range(m)], m, lf)
        if ternlog:
            net = mn.fuse(net, [])
        n = len(net.ops)
        if best is None or n < best[0]:
            best = (n, lf)
    assert best
    return best[1]


def network(op: str, m: int, ternlog: bool) -> tuple[mn.Net, list[str]]:
    net = mn.Net()
    f = [f"f{i}" for i in range(m)]
    g = [f"g{i}" for i in range(m)]
    lf = leaf(m, ternlog)
    if op == "mul":
        out = mn.mul(net, f, g, m, lf)
    elif op == "sq":
        out = mn.sq(net, f, m)
    else:
        out = mn.inv(net, f, m, lf)
    return (mn.fuse(net, out) if ternlog else net), out


class Emitter:
    """Emits one network as .q lines with names reused after their last
    use (the allocator sees webs, not names), inputs loaded just before
    their first use, outputs stored after the last operation (so every
    input of a pass is read before h is written: h may equal f or g)."""

    def __init__(self, t: Tgt) -> None:
        self.t = t
        self.maxnames = 0

    def body(self, net: mn.Net, out: list[str], stride: int, loads: dict[str, str]) -> list[str]:
        t = self.t
        last: dict[str, int] = {}
        for k, op in enumerate(net.ops):
            for v in op[2:]:
                last[v] = k
        for v in out:
            last[v] = len(net.ops)
        names: dict[str, str] = {}
        free: list[str] = []
        lines: list[str] = []
        nxt = 0

        def name_for(v: str) -> str:
            nonlocal nxt
            if free:
                n = free.pop()
            else:
                n = f"v{nxt}"
                nxt += 1
            names[v] = n
            return n

        def use(v: str) -> str:
            if v not in names:
                ptr, i = loads[v[0]], int(v[1:])
                n = name_for(v)
                lines.append(f"{n} = mem{t.bits}[{ptr} + {i * stride}]")
            return names[v]

        def release(k: int, args: tuple[str, ...]) -> None:
            for v in dict.fromkeys(args):
                if last.get(v) == k:
                    free.append(names[v])

        for k, op in enumerate(net.ops):
            kind, d, *args = op
            srcs = [use(a) for a in args]
            release(k, tuple(args))
            n = name_for(d)
            if kind in ("andxor", "xor3") and n != srcs[2] and n in srcs[:2]:
                # `n = srcs[2]` would overwrite a source the ternlog still
                # reads (wrong code found by tests/diff/kernels.py): another name
                free.append(n)
                n = names[d] = f"v{nxt}"
                nxt += 1
            if kind == "and":
                lines.append(f"{n} = {srcs[0]} & {srcs[1]}")
            elif kind == "xor":
                lines.append(f"{n} = {srcs[0]} ^ {srcs[1]}")
            elif kind == "andxor":
                if n != srcs[2]:
                    lines.append(f"{n} = {srcs[2]}")
                lines.append(f"{n} = ternlog({n}, {srcs[0]}, {srcs[1]}, {hex(TERN_ANDXOR)})")
            elif kind == "xor3":
                if n != srcs[2]:
                    lines.append(f"{n} = {srcs[2]}")
                lines.append(f"{n} = ternlog({n}, {srcs[0]}, {srcs[1]}, {hex(TERN_XOR3)})")
            if last.get(d) is None:
                raise AssertionError(f"dead value {d}")
        for i, v in enumerate(out):
            lines.append(f"mem{t.bits}[h + {i * stride}] = {use(v)}")
        self.maxnames = max(self.maxnames, nxt)
        return lines


# the column multiplier (mul_columns) per implementation: f kept in
# registers, or read through memory operands ("memop") or loads ("load");
# the reduced high columns in stack slots or in variables (the allocator's)
MULCOL = {
    "amd64": ("memop", True), "amd64-bmi1": ("memop", True), "x86": ("memop", True), "x86-sse2": ("load", True),
    "amd64-avx2": ("reg", True), "amd64-avx512": ("reg", False),
    "ppc32": ("reg", False), "ppc64": ("reg", False), "sparc64": ("reg", False),
    "ppc32-altivec": ("reg", False),
}

# the column multiplier with fmode "reg": at most this many f_i in registers,
# the others read through memory operands (AVX2 m = 13: 13 f_i + A B G T
# would need 17 of the 16 ymm registers)
FREGS: dict[str, int] = {}
# the column multiplier with fmode "memop" and BMI1: this many complemented
# f_i (NF_i = ~f_i) in registers, each term one andn (T = ~NF_i & G: no
# copy of G) instead of a copy and an and with a memory operand.  Eight:
# A B G T and the three pointers leave nine of the 15 registers, and nine
# NF_i spill (docs/mceliece.md; measured 0.92 of the amd64 kernel)
ANDN: dict[str, int] = {"amd64-bmi1": 8}

# the column multiplier: columns per scan (each G_j loaded once per scan;
# two by default, three or four for measurement with --ncols)
NCOLS: dict[str, int] = {}

# the column multiplier with the high columns on the stack: the folds of
# adjacent exponents e, e + 1 of the modulus (m = 13: 0, 1 and 3, 4) shared,
# f - z^m = (z + 1)(z^3 + 1) for m = 13: Y_k = H_k + H_(k+1) stored once per
# high column, each column then XORs two Y instead of four H (361 -> 349
# operations, 48 -> 31 stack loads for m = 13; m = 12, exponents 0 and 3, has
# no adjacent pair and is unchanged).  docs/mceliece.md has the measurements.
SHAREFOLD: set[str] = set()

# implementations whose vec_mul is mul_rows (the operand-scanning schoolbook
# with the m accumulators of the current rows in registers and the folds done
# as each high column completes: no stack traffic) instead of mul_columns;
# with --no-krows for amd64-avx2 (measurement: KROWS is its default)
ROWS: set[str] = {"amd64-avx2"}

# mul_rows: g_0 .. g_(n-1) kept in registers (the others are memory operands
# of the ands); by default as many as the registers left free (m = 12: 2,
# m = 13: 1); set per implementation for measurement (--rowg)
ROWG: dict[str, int] = {}

# registers per vector type (the phases of mul_kara are sized to fit)
NREGS = {"reg128": 16, "reg256": 16, "reg512": 32}
# implementations whose vec_mul is mul_kara (one Karatsuba level over
# column-scanned products) instead of mul_columns.  Chosen by measurement
# (docs/mceliece.md): on AVX2 (Zen 3) mul_kara has 244 / 310 operations
# against 287 / 361 but 128 + 45 / 171 + 57 loads and stores and measured
# slower (69-71 against 64.5 ticks for m = 12), so none by default;
# `--kara IMPL` generates it for measurement.
KARA: set[str] = set()
# implementations whose vec_mul is mul_evenodd (the even/odd Karatsuba level)
EVENODD: set[str] = set()
# implementations whose vec_mul is mul_krows (one Karatsuba level over two row
# scans with g in registers: 244 / 310 operations against mul_rows' 287 / 350,
# but 20 / 29 stack stores more).  Chosen by measurement on Golden Cove (3
# vector ALU ports; docs/mceliece.md, session 9): 0.93-0.95 of mul_rows' time
KROWS: set[str] = {"amd64-avx2"}


def copy_words(dst: str, src: str, nbytes: int, lab: str) -> list[str]:
    """nbytes (a multiple of 16) from src to dst by 32-bit words, four per
    iteration (dst and src are advanced)"""
    L = [f"i = {nbytes // 16}", f"{lab}:"]
    for k in range(4):
        L.append(f"  t{k} = mem32[{src} + {4 * k}]")
    for k in range(4):
        L.append(f"  mem32[{dst} + {4 * k}] = t{k}")
    L += [f"  {dst} = {dst} + 16", f"  {src} = {src} + 16", "  i = i - 1", "  =? i - 0", f"  goto {lab} if !="]
    return L


def aligned_io(t: Tgt, m: int, lanes: int, ins: list[str], body: list[str]) -> list[str]:
    """Wrap a kernel body for a target whose vector loads and stores need
    t.vec_align-byte alignment (the API's buffers are 8-byte aligned): an
    input not so aligned is first copied into an aligned stack buffer (word
    by word; both inputs are copied before anything is written, so h may
    equal f or g), a misaligned h gets the result in a stack buffer that is
    then copied out.  Aligned buffers go straight to the vector code.  The
    tests are on the addresses only (public)."""
    if not t.vec_align:
        return body
    nbytes = m * lanes // 8
    a = t.vec_align - 1
    L: list[str] = []
    for x in ins:
        L += [f"=? {x} & {a}", f"goto {x}aligned if =", f"pa = &{x.upper()}B", "pb = {x}".replace("{x}", x)]
        L += ["  " + y for y in copy_words("pa", "pb", nbytes, f"{x}copy")]
        L += [f"{x} = &{x.upper()}B", f"{x}aligned:"]
    L += ["hs = h", f"=? h & {a}", "goto haligned if =", "h = &HB", "haligned:"]
    L += body
    L += [f"=? hs & {a}", "goto done if =", "pa = &HB"]
    L += copy_words("hs", "pa", nbytes, "hcopy")
    L += ["done:"]
    return L



def addterm(L: list[str], acc: str, started: bool, term: str) -> int:
    """append `acc = term` for a column's first product, else `acc ^= term`
    through T; returns the XORs added (the caller counts the product)"""
    if not started:
        L.append(f"{acc} = {term}")
        return 0
    L += [f"T = {term}", f"{acc} = {acc} ^ T"]
    return 1


def mul_columns(impl: str, m: int, stride: int) -> tuple[list[str], int]:
    """Schoolbook product scanning, two columns at a time from the top:
    each g_j is loaded once per pair and meets f_(l-j) and f_(l-1-j); a
    column starts from the reduced high columns that fold into it
    (z^k = z^(k-m) (f - z^m): column c gets c + m - e for every low term z^e
    of the modulus), so the 2m-1 columns are never live at once.  Top-down,
    column l needs f_i and g_j for i, j <= l only, so h_l is stored as soon
    as its pair of columns is done and h may equal f or g.  Returns the
    lines and the number of operations."""
    t = IMPLS[impl]
    fmode, hstack = MULCOL[impl]
    low = [e for e in mn.MODULUS[m] if e < m]
    L: list[str] = []
    nops = 0
    mem = f"mem{t.bits}"
    # f_i with i >= nf are memory operands (fmode "reg" keeps the others in registers)
    nf = min(m, FREGS.get(impl, m))
    if fmode == "reg":
        for i in range(nf):
            L.append(f"F{i} = {mem}[f + {i * stride}]")
    na = min(m, ANDN.get(impl, 0)) if fmode == "memop" else 0
    for i in range(na):
        L += [f"NF{i} = {mem}[f + {i * stride}]", f"NF{i} = ~NF{i}"]

    def hname(k: int) -> str:
        return f"H{k}"

    K = NCOLS.get(impl, 2)
    share = hstack and impl in SHAREFOLD
    folds, need_s, need_y = fold_plan(m, K) if share else ({}, set(), set())
    for top in range(2 * m - 2, -1, -K):
        cols = [c for c in range(top, top - K, -1) if c >= 0]
        assert 1 <= K <= 4
        accs = dict(zip(cols, ("A", "B", "C", "D")))
        started = {c: False for c in cols}
        jlo = max(0, min(cols) - (m - 1))
        jhi = min(m - 1, max(cols))
        for j in range(jlo, jhi + 1):
            L.append(f"G = {mem}[g + {j * stride}]")
            for c in cols:
                i = c - j
                if not 0 <= i < m:
                    continue
                a = accs[c]
                if fmode == "reg" and i >= nf:
                    nops += addterm(L, a, started[c], f"G & {mem}[f + {i * stride}]")
                elif fmode == "reg" and started[c] and t.ternlog:
                    L.append(f"{a} = ternlog({a}, F{i}, G, {hex(TERN_ANDXOR)})")
                elif fmode == "reg":
                    nops += addterm(L, a, started[c], f"F{i} & G")
                elif i < na:
                    nops += addterm(L, a, started[c], f"~NF{i} & G")
                else:
                    if fmode == "memop":
                        L.append("T = G")
                        L.append(f"T &= {mem}[f + {i * stride}]")
                    else:
                        L.append(f"T = {mem}[f + {i * stride}]")
                        L.append("T &= G")
                    if not started[c]:
                        L.append(f"{a} = T")
                    else:
                        L.append(f"{a} = {a} ^ T")
                        nops += 1
                nops += 1
                started[c] = True
        if share:
            L2, n2 = shared_folds(t, m, stride, cols, accs, folds, need_s, need_y)
            L += L2
            nops += n2
            continue
        for c in cols:
            a = accs[c]
            srcs = [c + m - e for e in low if m <= c + m - e <= 2 * m - 2]
            if t.ternlog and not hstack:
                while len(srcs) >= 2:
                    L.append(f"{a} = ternlog({a}, {hname(srcs[0])}, {hname(srcs[1])}, {hex(TERN_XOR3)})")
                    srcs = srcs[2:]
                    nops += 1
            for k in srcs:
                if hstack and t.vtype in ("int64", "int32", "reg256"):
                    L.append(f"{a} = {a} ^ S{k}")
                elif hstack:
                    L.append(f"T = S{k}")
                    L.append(f"{a} = {a} ^ T")
                else:
                    L.append(f"{a} = {a} ^ {hname(k)}")
                nops += 1
            if c >= m:
                L.append(f"S{c} = {a}" if hstack else f"{hname(c)} = {a}")
            else:
                L.append(f"{mem}[h + {c * stride}] = {a}")
    return L, nops


def modulus_pairs(m: int) -> tuple[list[int], list[int]]:
    """The low exponents of the modulus (below m) as adjacent pairs e, e + 1
    (listed by e) and singles, for the shared folds."""
    low = sorted(e for e in mn.MODULUS[m] if e < m)
    pairs: list[int] = []
    single: list[int] = []
    for e in low:
        if pairs and pairs[-1] + 1 == e:
            continue
        (pairs if e + 1 in low else single).append(e)
    return pairs, single


def fold_plan(m: int, K: int) -> tuple[dict[int, list[str]], set[int], set[int]]:
    """The shared folds of the column multiplier (SHAREFOLD): per column c
    the stack slots XORed into it (S<k>: the reduced high column H_k, SY<k>:
    Y_k = H_k + H_(k+1)), the H_k and the Y_k that must be stored.  A pair
    of adjacent exponents e + 1, e of the modulus folds H_(c+m-e) and
    H_(c+m-e-1) into c, i.e. Y_(c+m-e-1); at the edges only one of the two
    is a high column (H_m: column m - 1 is not folded; H_(2m-2) = Y_(2m-2)).
    Y_k is computed where H_k is finished, from H_(k+1) in the same scan's
    accumulator or, at the top of a scan, from its stack slot."""
    pairs, single = modulus_pairs(m)
    hi = 2 * m - 2
    folds: dict[int, list[str]] = {}
    need_s: set[int] = set()
    need_y: set[int] = set()
    for c in range(hi + 1):
        srcs: list[str] = []
        for e in pairs:
            k1, k2 = c + m - e, c + m - e - 1
            if m <= k2 and k1 <= hi:
                srcs.append(f"SY{k2}")
                need_y.add(k2)
            elif k2 == hi:
                srcs.append(f"S{hi}")
                need_s.add(hi)
            elif k1 == m:
                srcs.append(f"S{m}")
                need_s.add(m)
        for e in single:
            if m <= c + m - e <= hi:
                srcs.append(f"S{c + m - e}")
                need_s.add(c + m - e)
        folds[c] = srcs
    for top in range(hi, -1, -K):
        lo = max(0, top - K + 1)
        for k in need_y:
            if lo <= k <= top and k + 1 > top:
                need_s.add(k + 1)
    return folds, need_s, need_y


def shared_folds(t: Tgt, m: int, stride: int, cols: list[int], accs: dict[int, str],
                 folds: dict[int, list[str]], need_s: set[int], need_y: set[int]) -> tuple[list[str], int]:
    """The end of one scan with shared folds (fold_plan): each accumulator
    gets its folds; then from the lowest column up (H_(c+1) is still in its
    accumulator when Y_c is formed) the low columns go to h, the high ones
    to S<c> where needed and, XORed with H_(c+1), to SY<c>."""
    mem = f"mem{t.bits}"
    L: list[str] = []
    nops = 0
    for c in cols:
        for x in folds[c]:
            if t.vtype in ("int64", "int32", "reg256"):
                L.append(f"{accs[c]} = {accs[c]} ^ {x}")
            else:
                L += [f"T = {x}", f"{accs[c]} = {accs[c]} ^ T"]
            nops += 1
    for c in sorted(cols):
        a = accs[c]
        if c < m:
            L.append(f"{mem}[h + {c * stride}] = {a}")
            continue
        if c in need_s:
            L.append(f"S{c} = {a}")
        if c in need_y:
            nxt = accs[c + 1] if c + 1 in cols else f"S{c + 1}"
            if nxt.startswith("S") and t.vtype not in ("int64", "int32", "reg256"):
                L += [f"T = {nxt}", f"{a} = {a} ^ T"]
            else:
                L.append(f"{a} = {a} ^ {nxt}")
            L.append(f"SY{c} = {a}")
            nops += 1
    return L, nops


def _rowlike(impl: str) -> bool:
    """vec_mul of impl is mul_rows or mul_krows (the measurement options
    --kara, --evenodd, --fregs, --ncols and --no-rows select the others)"""
    return (impl in ROWS and impl not in KARA and impl not in EVENODD
            and not FREGS.get(impl) and not NCOLS.get(impl))


def uses_rows(impl: str) -> bool:
    """vec_mul of impl is mul_rows"""
    return _rowlike(impl) and impl not in KROWS


def uses_krows(impl: str) -> bool:
    """vec_mul of impl is mul_krows"""
    return _rowlike(impl) and impl in KROWS


def rows_gregs(impl: str, m: int) -> int:
    """g_j kept in registers by mul_rows: the registers left by the m live
    accumulators, F and T (the value kept for a fold or Z_k takes the place
    of the column not yet started), unless ROWG says otherwise; more spill
    (AVX2: m = 12 with 3, m = 13 with 2)"""
    if impl in ROWG:
        return min(m, ROWG[impl])
    return max(0, NREGS[IMPLS[impl].vtype] - (m + 2))


def mul_rows(impl: str, m: int, stride: int) -> tuple[list[str], int]:
    """Operand-scanning schoolbook: row i (from the top) adds f_i g_j to
    column i + j for every j; the columns i .. i + m - 1 of the rows still to
    come are accumulators C<c> in registers, g_j a memory operand of each
    and.  A row's first term is j = m - 1: it completes column k = i + m - 1
    (no later row reaches it), which is folded at once (z^k = z^(k-m)
    (f - z^m)) into live or not yet started columns: a pair of adjacent
    exponents e, e + 1 of the modulus gets Z<k> = H_k + H_(k+1) in column
    k - m + e + 1 (one XOR for both folds; H_m alone goes to the columns e
    of the pairs: column m - 1 is not folded), a single exponent e gets H_k
    in column k - m + e.  A fold into a column not yet started is its
    initial value (merged into its first term, j = 0 of the next row, which
    comes second).  Nothing goes to the stack; h is written after the last
    read of f and g, so h may equal f or g.  m accumulators, the kept H_(k+1),
    F, T and the folded value fit in 16 ymm registers."""
    t = IMPLS[impl]
    mem = f"mem{t.bits}"
    pairs, single = modulus_pairs(m)
    L: list[str] = []
    nops = 0
    started: dict[int, bool] = {}
    pending: dict[int, list[str]] = {}
    ng = rows_gregs(impl, m)
    for j in range(ng):
        L.append(f"G{j} = {mem}[g + {j * stride}]")

    def add(c: int, x: str) -> None:
        nonlocal nops
        if started.get(c):
            L.append(f"C{c} = C{c} ^ {x}")
            nops += 1
        else:
            pending.setdefault(c, []).append(x)

    def term(i: int, j: int) -> None:
        nonlocal nops
        c = i + j
        prod = f"F & G{j}" if j < ng else f"F & {mem}[g + {j * stride}]"
        nops += 1
        if started.get(c):
            L.extend([f"T = {prod}", f"C{c} = C{c} ^ T"])
            nops += 1
            return
        started[c] = True
        xs = pending.pop(c, [])
        if not xs:
            L.append(f"C{c} = {prod}")
            return
        L.extend([f"T = {prod}", f"C{c} = T ^ {xs[0]}"])
        nops += 1
        for x in xs[1:]:
            L.append(f"C{c} = C{c} ^ {x}")
            nops += 1

    def complete(k: int) -> None:
        nonlocal nops
        for e in single:
            add(k - m + e, f"C{k}")
        if pairs:
            if k + 1 <= 2 * m - 2:
                L.append(f"Z{k} = C{k} ^ C{k + 1}")
                nops += 1
                y = f"Z{k}"
            else:
                y = f"C{k}"
            for e in pairs:
                add(k - m + e + 1, y)
            if k == m:
                for e in pairs:
                    add(e, f"C{m}")

    for i in range(m - 1, -1, -1):
        L.append(f"F = {mem}[f + {i * stride}]")
        order = [m - 1] + list(range(m - 1))
        for n, j in enumerate(order):
            term(i, j)
            if n == 0 and i + m - 1 >= m:
                complete(i + m - 1)
    assert not pending, pending
    for c in range(m):
        L.append(f"{mem}[h + {c * stride}] = C{c}")
    return L, nops


def mul_evenodd(impl: str, m: int, stride: int) -> tuple[list[str], int]:
    """One Karatsuba level on the even/odd split f = fe(z^2) + z fo(z^2)
    (fe_i = f_2i, fo_i = f_(2i+1)), g likewise: Pe = fe ge, Po = fo go,
    Pm = (fe + fo)(ge + go), and fg = Pe(z^2) + z^2 Po(z^2)
    + z (Pm + Pe + Po)(z^2): column 2K+1 = Pm_K + Pe_K + Po_K, column
    2K = Pe_K + Po_(K-1).  Unlike the high/low split (mul_kara) the
    columns of fg need the K-th columns of the three products only, so the
    three are scanned together, two K at a time from the top, and no
    product column goes to memory: the stack holds the sums gs_j (read as
    memory operands) and the reduced high columns (as in mul_columns).
    Registers: the sums fs_i, six accumulators, ge_j, go_j and a temporary;
    fe and fo are memory operands.  Every f_i and g_j that a pair reads
    has index <= 2K+1 of its upper K, and the columns it writes are >= 2K
    of its lower K, so h may equal f or g.  Returns the lines and the
    number of operations."""
    t = IMPLS[impl]
    mem = f"mem{t.bits}"
    ne, no = (m + 1) // 2, m // 2
    low = [e for e in mn.MODULUS[m] if e < m]
    L: list[str] = []
    nops = 0
    for i in range(ne):
        L.append(f"FS{i} = {mem}[f + {2 * i * stride}]")
        if i < no:
            L.append(f"FS{i} = FS{i} ^ {mem}[f + {(2 * i + 1) * stride}]")
            nops += 1
    for j in range(no):
        L += [f"G = {mem}[g + {2 * j * stride}]", f"G = G ^ {mem}[g + {(2 * j + 1) * stride}]", f"GS{j} = G"]
        nops += 1

    def gs(j: int) -> str:
        return f"GS{j}" if j < no else f"{mem}[g + {2 * j * stride}]"

    def finish(c: int, a: str) -> list[str]:
        nonlocal nops
        out: list[str] = []
        for k in [c + m - e for e in low if m <= c + m - e <= 2 * m - 2]:
            out.append(f"{a} = {a} ^ S{k}")
            nops += 1
        out.append(f"S{c} = {a}" if c >= m else f"{mem}[h + {c * stride}] = {a}")
        return out

    def xor_into(d: str, srcs: list[str]) -> list[str]:
        nonlocal nops
        srcs = [x for x in srcs if x is not None]
        out = [f"{d} = {srcs[0]}"] if srcs[0] != d else []
        for x in srcs[1:]:
            out.append(f"{d} = {d} ^ {x}")
            nops += 1
        return out

    carried: str | None = None           # Pe_K of the previous pair's lower K (stack slot SE)
    kmax = 2 * ne - 2
    for kh in range(kmax, -1, -2):
        ks = [k for k in (kh, kh - 1) if k >= 0]
        acc = {k: {"E": f"E{n}", "O": f"O{n}", "M": f"M{n}"} for n, k in enumerate(ks)}
        started: set[str] = set()

        def term(a: str, opnd: str, other: str) -> None:
            nonlocal nops
            if a not in started:
                L.append(f"{a} = {opnd} & {other}")
                started.add(a)
            else:
                L.extend([f"T = {opnd} & {other}", f"{a} = {a} ^ T"])
                nops += 1
            nops += 1
        for j in range(max(0, min(ks) - (ne - 1)), min(ne - 1, max(ks)) + 1):
            L.append(f"GE = {mem}[g + {2 * j * stride}]")
            if j < no:
                L.append(f"GO = {mem}[g + {(2 * j + 1) * stride}]")
            for k in ks:
                i = k - j
                if not 0 <= i < ne:
                    continue
                term(acc[k]["E"], "GE", f"{mem}[f + {2 * i * stride}]")
                if i < no and j < no:
                    term(acc[k]["O"], "GO", f"{mem}[f + {(2 * i + 1) * stride}]")
                if not (m % 2 and i == j == ne - 1):
                    term(acc[k]["M"], f"FS{i}", gs(j))

        def val(k: int, x: str) -> str | None:
            a = acc[k][x] if k in acc else None
            return a if a in started else None
        # the columns of this pair, top-down: 2kh+1, 2kh, 2kl+1 (2kl waits for Po_(kl-1))
        if carried is None and kh == kmax and 2 * kh + 2 <= 2 * m - 2:
            L += xor_into("A", [val(kh, "O")])   # the top column (even m): Po_kh alone
            L += finish(2 * kh + 2, "A")
        if carried is not None:          # column 2(kh+1) = Pe_(kh+1) + Po_kh
            o = val(kh, "O")
            L += [f"A = {o} ^ SE"] if o else ["A = SE"]
            nops += 1 if o else 0
            L += finish(2 * kh + 2, "A")
            carried = None
        for n, k in enumerate(ks):
            if 2 * k + 1 <= 2 * m - 2:
                L += xor_into("A", [val(k, "M"), val(k, "E"), val(k, "O")])
                L += finish(2 * k + 1, "A")
            if n == 0 and len(ks) == 2:
                L += xor_into("A", [val(k, "E"), val(ks[1], "O")])
                L += finish(2 * k, "A")
        kl = ks[-1]
        e = val(kl, "E")
        if kl == 0:
            L += finish(0, e)
        elif len(ks) == 1:
            raise AssertionError("pairs from the top end at K = 0")
        else:
            L.append(f"SE = {e}")
            carried = "SE"
    return L, nops


def _scan(na: int, nb: int, aname, bget, finish, tern: bool) -> tuple[list[str], int]:
    """the columns of the product of a (na terms, registers aname(i)) and
    b (nb terms: bget(j) gives the lines that bring b_j into a register and
    its name), two columns at a time from the top; finish(c, acc) gives
    the lines that consume column c (in register acc).  Returns the lines
    and the number of and/xor operations."""
    L: list[str] = []
    nops = 0
    for top in range(na + nb - 2, -1, -2):
        cols = [c for c in (top, top - 1) if c >= 0]
        accs = dict(zip(cols, ("A", "B")))
        started = {c: False for c in cols}
        for j in range(max(0, min(cols) - (na - 1)), min(nb - 1, max(cols)) + 1):
            pre, b = bget(j)
            L += pre
            for c in cols:
                i = c - j
                if not 0 <= i < na:
                    continue
                a = accs[c]
                if not started[c]:
                    L.append(f"{a} = {aname(i)} & {b}")
                elif tern:
                    L.append(f"{a} = ternlog({a}, {aname(i)}, {b}, {hex(TERN_ANDXOR)})")
                else:
                    L += [f"T = {aname(i)} & {b}", f"{a} = {a} ^ T"]
                    nops += 1
                nops += 1
                started[c] = True
        for c in cols:
            L += finish(c, accs[c])
    return L, nops


def kara_split(m: int) -> int:
    return (m + 1) // 2


def mul_kara(impl: str, m: int, stride: int) -> tuple[list[str], int]:
    """One refined Karatsuba level over three column-scanned schoolbook
    products (f = f0 + z^s f1, g likewise, s = ceil(m/2)):
    P0 = f0 g0, P2 = f1 g1, P1 = (f0 + f1)(g0 + g1), and
    fg = P0 + z^s (P0 + P1 + P2) + z^2s P2, with T_k = P0_(s+k) + P2_k
    computed once (it is in columns s+k and 2s+k).  Phases, each within
    the 16 registers of AVX2: P1 (the sums f0+f1 in registers, g0+g1 in
    registers or stack slots), P2 and P0 (f1, f0 in registers, g_j
    loaded once per pair of columns), each column stored to a stack slot;
    then the columns of fg from the top as XORs of the slots (memory
    operands), the high ones reduced and kept in registers, each folded
    into its targets (z^k = z^(k-m) (f - z^m)); two folds from adjacent
    exponents e, e+1 of the modulus share one XOR y_k = R_k ^ R_(k+1).
    Every input is read before h is written (h may equal f or g).
    Returns the lines and the number of operations."""
    t = IMPLS[impl]
    mem = f"mem{t.bits}"
    tern = t.ternlog
    s = kara_split(m)
    n1 = m - s
    L: list[str] = []
    nops = 0
    # P1: FS_i = f_i ^ f_(s+i), GS_j likewise (in registers if they fit)
    for i in range(s):
        L.append(f"FS{i} = {mem}[f + {i * stride}]")
        if i < n1:
            L.append(f"FS{i} = FS{i} ^ {mem}[f + {(s + i) * stride}]")
            nops += 1
    gs_regs = 2 * s + 3 <= NREGS.get(t.vtype, 16)
    for j in range(s):
        d = f"GS{j}" if gs_regs else "G"
        L.append(f"{d} = {mem}[g + {j * stride}]")
        if j < n1:
            L.append(f"{d} = {d} ^ {mem}[g + {(s + j) * stride}]")
            nops += 1
        if not gs_regs:
            L.append(f"U{j} = G")

    def gsum(j: int) -> tuple[list[str], str]:
        return ([], f"GS{j}") if gs_regs else ([f"G = U{j}"], "G")

    body, k = _scan(s, s, lambda i: f"FS{i}", gsum, lambda c, a: [f"M{c} = {a}"], tern)
    L += body
    nops += k

    def gload(off: int):
        return lambda j: ([f"G = {mem}[g + {(off + j) * stride}]"], "G")

    # P2 = f1 g1 into Q
    L += [f"F{i} = {mem}[f + {(s + i) * stride}]" for i in range(n1)]
    body, k = _scan(n1, n1, lambda i: f"F{i}", gload(s), lambda c, a: [f"Q{c} = {a}"], tern)
    L += body
    nops += k
    nq = 2 * n1 - 1
    # P0 = f0 g0: columns s+k paired with Q_k into T_k, the others into P
    paired = {k for k in range(s - 1) if k < nq}

    def p0_done(c: int, a: str) -> list[str]:
        nonlocal nops
        if c >= s and c - s in paired:
            nops += 1
            return [f"{a} = {a} ^ Q{c - s}", f"T{c - s} = {a}"]
        return [f"P{c} = {a}"]
    L += [f"F{i} = {mem}[f + {i * stride}]" for i in range(s)]
    body, k = _scan(s, s, lambda i: f"F{i}", gload(0), p0_done, tern)
    L += body
    nops += k

    # the columns of fg as slot names
    def atoms(c: int) -> list[str]:
        a: list[str] = []
        for name, idx, n in (("P", c, 2 * s - 1), ("P", c - s, 2 * s - 1), ("M", c - s, 2 * s - 1),
                             ("Q", c - s, nq), ("Q", c - 2 * s, nq)):
            if 0 <= idx < n:
                a.append(f"{name}{idx}")
        for k in paired:
            if f"P{s + k}" in a and f"Q{k}" in a:
                a.remove(f"P{s + k}")
                a.remove(f"Q{k}")
                a.append(f"T{k}")
        return a
    low = sorted(e for e in mn.MODULUS[m] if e < m)
    pairs = [e for e in low if e + 1 in low]
    single = [e for e in low if e not in pairs and e - 1 not in pairs]
    ys: dict[int, str] = {}

    def y(k: int) -> str | None:
        """R_k ^ R_(k+1) (R_k the reduced column k >= m, zero outside m..2m-2)"""
        if k in ys:
            return ys[k]
        have = [x for x in (k, k + 1) if m <= x <= 2 * m - 2]
        if not have:
            return None
        if len(have) == 1:
            ys[k] = f"R{have[0]}"
        else:
            nonlocal nops
            L.append(f"Y{k} = R{k} ^ R{k + 1}")
            nops += 1
            ys[k] = f"Y{k}"
        return ys[k]
    for c in range(2 * m - 2, -1, -1):
        a = atoms(c)
        d = f"R{c}" if c >= m else "A"
        L.append(f"{d} = {a[0]}")
        for x in a[1:]:
            L.append(f"{d} = {d} ^ {x}")
            nops += 1
        srcs = [f"R{c + m - e}" for e in single if m <= c + m - e <= 2 * m - 2]
        srcs += [v for e in pairs if (v := y(c + m - e - 1)) is not None]
        for v in srcs:
            L.append(f"{d} = {d} ^ {v}")
            nops += 1
        if c < m:
            L.append(f"{mem}[h + {c * stride}] = A")
    return L, nops


def _rowscan(rows: list[tuple[list[str], list[tuple[str, int]]]],
             start: Callable[[int, str], list[str]], done: Callable[[int], list[str]]) -> list[str]:
    """Operand scanning (as in mul_rows) over rows given as (the lines that
    put the row's f word in F, its terms (g operand, column)): a term adds
    F & g to the accumulator C<c> of its column, the first through
    start(c, product), the others through T.  A column is complete after
    the last row that reaches it (done(c)); a row's completing terms come
    first, so their accumulators are free before the row starts new
    columns; the columns open after the last row complete from the top."""
    last: dict[int, int] = {}
    for r, (_, terms) in enumerate(rows):
        for _, c in terms:
            last[c] = r
    L: list[str] = []
    started: set[int] = set()
    for r, (pre, terms) in enumerate(rows):
        L += pre
        ends = sorted((x for x in terms if last[x[1]] == r), key=lambda x: -x[1])
        for g, c in ends + [x for x in terms if last[x[1]] != r]:
            prod = f"F & {g}"
            if c in started:
                L += [f"T = {prod}", f"C{c} = C{c} ^ T"]
            else:
                started.add(c)
                L += start(c, prod)
            if last[c] == r and r < len(rows) - 1:
                L += done(c)
    for c in sorted((c for c in last if last[c] == len(rows) - 1), reverse=True):
        L += done(c)
    return L


def krows_atoms(m: int, c: int) -> list[str]:
    """column c of fg = (1 + z^s) U + z^s P1 with U = f0 g0 + z^s f1 g1 and
    P1 = (f0 + f1)(g0 + g1) (one Karatsuba level, split s): U<i> and M<i>
    (P1's columns) that add up to it"""
    s = kara_split(m)
    nu = max(2 * s - 1, s + 2 * (m - s) - 1)
    return [f"{x}{i}" for x, i, n in (("U", c, nu), ("U", c - s, nu), ("M", c - s, 2 * s - 1)) if 0 <= i < n]


def mul_krows(impl: str, m: int, stride: int) -> tuple[list[str], int]:
    """One Karatsuba level (f = f0 + z^s f1, g likewise, s = ceil(m/2))
    as fg = (1 + z^s) U + z^s P1 (krows_atoms) over two row scans
    (_rowscan) with their g words in registers: U = f0 g0 + z^s f1 g1 is
    one scan (the rows of f1 against g1, then those of f0 against g0, each
    window s or m - s columns wide; the columns where f0 g0 and f1 g1 meet
    are added in their accumulators), its columns to stack slots KU; then
    P1 = (f0 + f1)(g0 + g1) with F = f_i + f_(s+i) per row and the sums
    g_j + g_(s+j) in registers.  P1's column k is column s + k of fg: when
    it completes (top-down, as in mul_rows) U_k and U_(s+k) (memory
    operands) and the folds pending for it are added (last, so that P1's
    products need not wait for the U scan), and a high column is folded
    (z^k = z^(k-m) (f - z^m); the adjacent exponents of m = 13 share
    Z_k = R_k + R_(k+1)) into the accumulators still live; the others get
    it through a stack slot (KR, KZ) or, while registers are left over
    (m = 12: two), in its register.  The columns above P1's (U alone) fold
    from KU before P1; the columns below s are KU plus their folds at the
    end.  h is written after the last read of f and g (h may equal f or
    g).  Returns the lines and the number of operations (ands and xors)."""
    t = IMPLS[impl]
    mem = f"mem{t.bits}"
    s = kara_split(m)
    n1 = m - s
    hi = 2 * m - 2
    pairs, single = modulus_pairs(m)
    assert not (pairs and single)
    spare = NREGS[t.vtype] - (2 * s + 2)
    L: list[str] = []

    def opnd(a: str) -> str:
        return "K" + a

    # U: the rows of f1 (g1 in G0 ..), then of f0 (g0 in G0 ..)
    rows: list[tuple[list[str], list[tuple[str, int]]]] = []
    for i in range(m - 1, -1, -1):
        pre = [f"F = {mem}[f + {i * stride}]"]
        if i == m - 1 or i == s - 1:
            base = s if i >= s else 0
            pre = [f"G{j} = {mem}[g + {(base + j) * stride}]" for j in range(n1 if i >= s else s)] + pre
        n, lo = (n1, i) if i >= s else (s, i)
        rows.append((pre, [(f"G{j}", lo + j) for j in range(n)]))
    L += _rowscan(rows, lambda c, p: [f"C{c} = {p}"], lambda c: [f"KU{c} = C{c}"])

    # the folds of a reduced high column R_k: to k - m + e for a single
    # exponent e; for adjacent exponents e, e + 1 Z_k = R_k + R_(k+1) to
    # k - m + e + 1 (and R_m alone to e: column m - 1 is not folded).
    # pending[c]: operands for column c of fg not yet started; live: the
    # fg columns whose P1 accumulator is started and not complete
    pending: dict[int, list[str]] = {}
    live: set[int] = set()
    rslot: dict[int, str] = {}
    held = {"n": 0}

    def send(reg: str, mslot: str, cols: list[int]) -> list[str]:
        """add reg to the fg columns cols: live accumulators directly, the
        others through mslot (stored once unless reg is a slot already) or,
        while spare registers are left and only the final low columns wait
        for it, in reg itself"""
        out: list[str] = []
        waiting = [c for c in cols if c not in live]
        keep = reg.startswith("C") and all(c < s for c in waiting) and held["n"] < spare
        if keep and waiting:
            held["n"] += 1
        stored = reg == mslot or keep
        for c in cols:
            if c in live:
                out.append(f"C{c - s} = C{c - s} ^ {reg}")
                continue
            if not stored:
                out.append(f"{mslot} = {reg}")
                stored = True
            pending.setdefault(c, []).append(reg if keep else mslot)
        return out

    def fold(k: int, reg: str) -> list[str]:
        """R_k (final, in reg) to its targets; with adjacent exponents
        Z_k = R_k + R_(k+1), R_(k+1) still in its register (kept one row:
        the completed column's register is free until the row starts a new
        column) or in KU"""
        if not pairs:
            return send(reg, f"KR{k}", [k - m + e for e in single])
        out = [f"Z{k} = {reg} ^ {rslot[k + 1]}"]
        rslot[k] = reg
        out += send(f"Z{k}", f"KZ{k}", [k - m + e + 1 for e in pairs])
        if k == m:
            # R_m alone to the columns e: in its register until the end
            for e in pairs:
                pending.setdefault(e, []).append(reg)
        return out

    # the columns above P1's: U alone, no folds reach them
    for k in range(hi, 3 * s - 2, -1):
        a = krows_atoms(m, k)
        assert len(a) == 1 and a[0][0] == "U" and k > m and not pending.get(k), k
        rslot[k] = opnd(a[0])
        if not pairs:
            L += send(rslot[k], rslot[k], [k - m + e for e in single])
        elif k == hi:
            L += send(rslot[k], rslot[k], [k - m + e + 1 for e in pairs])
        else:
            L += [f"A = {rslot[k]}", f"A = A ^ {rslot[k + 1]}"]
            L += send("A", f"KZ{k}", [k - m + e + 1 for e in pairs])

    # P1: the sums g_j + g_(s+j) in registers, f_i + f_(s+i) per row
    def frow(i: int) -> list[str]:
        out = [f"F = {mem}[f + {i * stride}]"]
        if i < n1:
            out.append(f"F = F ^ {mem}[f + {(s + i) * stride}]")
        if i == s - 1:
            gs = []
            for j in range(s):
                gs.append(f"G{j} = {mem}[g + {j * stride}]")
                if j < n1:
                    gs.append(f"G{j} = G{j} ^ {mem}[g + {(s + j) * stride}]")
            out = gs + out
        return out

    def p1_start(c: int, p: str) -> list[str]:
        live.add(s + c)
        return [f"C{c} = {p}"]

    def p1_done(c: int) -> list[str]:
        """U's columns and the pending folds are added last, so P1's
        products need not wait for the U scan"""
        d = s + c
        live.discard(d)
        xs = [opnd(a) for a in krows_atoms(m, d) if a != f"M{c}"] + pending.pop(d, [])
        out = [f"C{c} = C{c} ^ {x}" for x in xs]
        return out + (fold(d, f"C{c}") if d >= m else [f"{mem}[h + {d * stride}] = C{c}"])
    prow = [(frow(i), [(f"G{j}", i + j) for j in range(s)]) for i in range(s - 1, -1, -1)]
    L += _rowscan(prow, p1_start, p1_done)
    # the columns below s: U alone plus their folds
    for c in range(s - 1, -1, -1):
        xs = [opnd(a) for a in krows_atoms(m, c)] + pending.pop(c, [])
        L.append(f"A = {xs[0]}")
        L += [f"A = A ^ {x}" for x in xs[1:]]
        L.append(f"{mem}[h + {c * stride}] = A")
    assert not pending, pending
    reads = [n for n, x in enumerate(L) if f"{mem}[f " in x or f"{mem}[g " in x]
    assert max(reads) < min(n for n, x in enumerate(L) if x.startswith(f"{mem}[h ")), "h before the last read"
    nops = sum(1 for x in L if " ^ " in x or " & " in x)
    return L, nops


def function(impl: str, m: int, lanes: int, op: str, em: Emitter) -> list[str]:
    t = IMPLS[impl]
    if op == "mul":
        return function_mul(impl, m, lanes, em)
    net, out = network(op, m, t.ternlog)
    stride = lanes // 8                    # bytes between the words of bit i and i+1
    passes = lanes // t.bits
    vec = "vec" if lanes == 64 else f"vec{lanes}"
    name = f"qhasm_kernel_mceliece_gf{m}_{vec}_{op}_{impl_id(impl)}_{op}"
    c = mn.count(net)
    lines = ["", f"# {vec}_{op} in GF(2^{m}): {lanes} lanes, {passes} pass(es) of "
             + ", ".join(f"{v} {k}" for k, v in sorted(c.items())) + f" ({len(net.ops)} operations)",
             f"enter {name}", "input h f g" if op == "mul" else "input h f",
             "secret [f] [g]" if op == "mul" else "secret [f]"]
    body = em.body(net, out, stride, {"f": "f", "g": "g"})
    core: list[str] = []
    if passes == 1:
        core += body
    else:
        core += [f"i = {passes}", "pass:"] + ["  " + x for x in body]
        step = t.bits // 8
        core += [f"  h = h + {step}", f"  f = f + {step}"] + ([f"  g = g + {step}"] if op == "mul" else [])
        core += ["  i = i - 1", "  =? i - 0", "  goto pass if !="]
    lines += aligned_io(t, m, lanes, ["f", "g"] if op == "mul" else ["f"], core)
    lines.append("leave")
    return lines


def function_mul(impl: str, m: int, lanes: int, em: Emitter) -> list[str]:
    t = IMPLS[impl]
    stride = lanes // 8
    passes = lanes // t.bits
    vec = "vec" if lanes == 64 else f"vec{lanes}"
    name = f"qhasm_kernel_mceliece_gf{m}_{vec}_mul_{impl_id(impl)}_mul"
    if impl in EVENODD:
        body, nops = mul_evenodd(impl, m, stride)
        what = f"one even/odd Karatsuba level over three interleaved column scans ({nops} operations)"
    elif uses_krows(impl):
        body, nops = mul_krows(impl, m, stride)
        what = (f"one Karatsuba level (split {kara_split(m)}) over two row scans"
                f" ({nops} operations)")
    elif impl in KARA:
        body, nops = mul_kara(impl, m, stride)
        what = (f"one Karatsuba level (split {kara_split(m)}) over column-scanned products"
                f" ({nops} operations)")
    elif uses_rows(impl):
        body, nops = mul_rows(impl, m, stride)
        what = f"the row multiplier ({nops} operations; accumulators in registers, folds as columns complete)"
    else:
        body, nops = mul_columns(impl, m, stride)
        fmode, hstack = MULCOL[impl]
        what = (f"the column multiplier ({nops} operations; f {fmode}, high columns"
                f" {'on the stack' if hstack else 'in variables'})")
    lines = ["", f"# {vec}_mul in GF(2^{m}): {lanes} lanes, {passes} pass(es) of {what}",
             f"enter {name}", "input h f g", "secret [f] [g]"]
    core: list[str] = []
    if passes == 1:
        core += body
    else:
        step = t.bits // 8
        core += [f"i = {passes}", "pass:"] + ["  " + x for x in body]
        core += [f"  h = h + {step}", f"  f = f + {step}", f"  g = g + {step}"]
        core += ["  i = i - 1", "  =? i - 0", "  goto pass if !="]
    lines += aligned_io(t, m, lanes, ["f", "g"], core)
    lines.append("leave")
    return lines


def render_vec(impl: str, m: int, only: tuple[int, str] | None = None) -> str:
    t = IMPLS[impl]
    em = Emitter(t)
    funcs: list[str] = []
    for lanes in LANES:
        if lanes % t.bits:
            continue
        for op in ("mul", "sq", "inv"):
            if only is None or only == (lanes, op):
                funcs += function(impl, m, lanes, op, em)
    what = f"GF(2^{m}) bitsliced arithmetic" if only is None else f"GF(2^{m}) {only[0]}-lane {only[1]}"
    head = [f"# generated by gen/mceliece.py ({what}, {impl}). DO NOT EDIT.",
            f"# Karatsuba leaf {leaf(m, t.ternlog)} (schoolbook below it); the networks are"
            " gen/mceliece_net.py's, the layouts docs/mceliece.md's."]
    if t.cpu:
        head.append(f"cpu {t.cpu}")
    head.append(f"{t.ptr} h f g i")
    names = [f"v{k}" for k in range(em.maxnames)]
    for k in range(0, len(names), 16):
        head.append(f"{t.vtype} " + " ".join(names[k:k + 16]))
    head.append(f"{t.vtype} A B G T " + " ".join(f"F{i}" for i in range(m)))
    if NCOLS.get(impl, 2) > 2:
        head.append(f"{t.vtype} C D")
    head.append(f"{t.vtype} " + " ".join(f"H{k}" for k in range(m, 2 * m - 1)))
    if ANDN.get(impl):
        head.append(f"{t.vtype} " + " ".join(f"NF{i}" for i in range(min(m, ANDN[impl]))))
    stype = {"int64": "stack64", "int32": "stack32", "reg128": "stack128", "reg256": "stack256",
             "reg512": "stack512"}[t.vtype]
    head.append(f"{stype} " + " ".join(f"S{k}" for k in range(m, 2 * m - 1)))
    if impl in SHAREFOLD and MULCOL[impl][1] and (only is None or only[1] == "mul"):
        ys = sorted(fold_plan(m, NCOLS.get(impl, 2))[2])
        if ys:
            head.append(f"{stype} " + " ".join(f"SY{k}" for k in ys))
    if uses_rows(impl) and (only is None or only[1] == "mul"):
        head.append(f"{t.vtype} F " + " ".join(f"C{c}" for c in range(2 * m - 1)))
        if rows_gregs(impl, m):
            head.append(f"{t.vtype} " + " ".join(f"G{j}" for j in range(rows_gregs(impl, m))))
        if any(e + 1 in mn.MODULUS[m] for e in mn.MODULUS[m] if e + 1 < m):
            head.append(f"{t.vtype} " + " ".join(f"Z{k}" for k in range(m, 2 * m - 2)))
    if impl in EVENODD and only is not None and only[1] == "mul":
        head.append(f"{t.vtype} " + " ".join([f"FS{i}" for i in range((m + 1) // 2)]
                                           + ["E0", "E1", "O0", "O1", "M0", "M1", "GE", "GO"]))
        head.append(f"{stype} SE " + " ".join(f"GS{j}" for j in range(m // 2)))
    if impl in KARA and only is not None and only[1] == "mul":
        s = kara_split(m)
        head.append(f"{t.vtype} " + " ".join([f"FS{i}" for i in range(s)] + [f"GS{i}" for i in range(s)]))
        head.append(f"{t.vtype} " + " ".join([f"R{k}" for k in range(m, 2 * m - 1)] + [f"Y{k}" for k in range(m - 1, 2 * m - 1)]))
        head.append(f"{stype} " + " ".join([f"U{i}" for i in range(s)] + [f"M{c}" for c in range(2 * s - 1)]))
        head.append(f"{stype} " + " ".join([f"Q{c}" for c in range(2 * (m - s) - 1)] + [f"T{c}" for c in range(s)]
                                           + [f"P{c}" for c in range(2 * s - 1)]))
    if uses_krows(impl) and only is not None and only[1] == "mul":
        s = kara_split(m)
        nu = max(2 * s - 1, 2 * m - s - 1)
        head.append(f"{t.vtype} F " + " ".join([f"C{c}" for c in range(nu)] + [f"G{j}" for j in range(s)]))
        head.append(f"{stype} " + " ".join(f"KU{c}" for c in range(nu)))
        head.append(f"{stype} " + " ".join([f"KR{k}" for k in range(m, 2 * m - 1)]
                                           + [f"KZ{k}" for k in range(m, 2 * m - 1)]))
        head.append(f"{t.vtype} " + " ".join(f"Z{k}" for k in range(m, 2 * m - 1)))
    if t.vec_align and only is not None:
        nv = m * only[0] // t.bits
        head.append(f"{t.ptr} hs pa pb t0 t1 t2 t3")
        bufs = ("F", "G", "H") if only[1] == "mul" else ("F", "H")
        head.append(f"stack{t.bits} " + " ".join(f"{x}B[{nv}]" for x in bufs))
    return "\n".join(head + funcs) + "\n"


def vec64_reduce(m: int, Q: int) -> list[str]:
    """the reduction of the column groups C0..C(Q-1) (column c in lane c%4
    of C(c/4)) in the registers: the high columns in blocks from the top,
    each block [lo, hi) narrow enough (m - max e) that its folds
    c -> c - m + e land below lo; a fold by d = m - e is a shift down by d
    lanes: whole groups for d%4 = 0, else vpermq rotations of two
    neighbouring groups merged by vpblendd (with zero at the block's edges)."""
    low = [e for e in mn.MODULUS[m] if e < m]
    ncol = 2 * m - 1
    width = m - max(low)
    blocks, hi = [], ncol
    while hi > m:
        blocks.append((max(m, hi - width), hi))
        hi = blocks[-1][0]
    L: list[str] = []
    dw = lambda lanes: sum(3 << 2 * j for j in lanes)      # vpblendd immediate: these qword lanes from t
    for lo, hi in blocks:
        src: dict[int, str] = {}
        for g in range(lo // 4, (hi - 1) // 4 + 1):
            out = [j for j in range(4) if not lo <= 4 * g + j < hi]
            if out:
                L.append(f"M{g} = blend32(C{g}, z, {dw(out)})")
                src[g] = f"M{g}"
            else:
                src[g] = f"C{g}"
        rot: dict[tuple[int, int], str] = {}

        def rotated(g: int, r: int) -> str:
            if (g, r) not in rot:
                imm = sum(((j + r) % 4) << 2 * j for j in range(4))
                rot[g, r] = f"R{g}_{r}"
                L.append(f"R{g}_{r} = permute64({src[g]}, {imm})")
            return rot[g, r]
        for e in low:
            d = m - e
            a, r = divmod(d, 4)
            for k in range(Q):
                first, second = src.get(k + a), src.get(k + a + 1) if r else None
                if first is None and second is None:
                    continue
                if r == 0:
                    w = first
                else:
                    hi_lanes = list(range(4 - r, 4))
                    if first and second:
                        L.append(f"W = blend32({rotated(k + a, r)}, {rotated(k + a + 1, r)}, {dw(hi_lanes)})")
                    elif first:
                        L.append(f"W = blend32({rotated(k + a, r)}, z, {dw(hi_lanes)})")
                    else:
                        L.append(f"W = blend32(z, {rotated(k + a + 1, r)}, {dw(hi_lanes)})")
                    w = "W"
                L.append(f"C{k} = C{k} ^ {w}")
    return L


def vec64_packed(m: int) -> str:
    """64-lane vec_mul with 256-bit registers (amd64-avx2): four product
    columns per register.  With G_s = (g_s, .., g_(s+3)) (zero outside
    0..m-1), column group q (columns 4q..4q+3) is XOR over i of
    broadcast(f_i) & G_(4q-i): about m^2/4 vector and-xors instead of m^2
    scalar ones.  G_s is an unaligned load of g for 0 <= s <= m-4; the six
    edge vectors (s = -3..-1, m-3..m-1) come from the first and last four
    words by vperm2i128 / vpshufd / vpunpckhqdq with zero (no store is
    reloaded, so no store-forwarding stall).  The groups are stored once
    (aligned) and the reduction is scalar: the high columns that fold into
    high columns first (top down), then h_l = c_l ^ XOR_e c'_(l+m-e)."""
    low = [e for e in mn.MODULUS[m] if e < m]
    ncol = 2 * m - 1
    Q = (ncol + 3) // 4
    L: list[str] = ["z = 0", "Y0 = mem256[g + 0]", f"Yt = mem256[g + {8 * (m - 4)}]"]
    # edges: E[s] names the register holding G_s
    L += ["Em2 = permute128(z, Y0, 0x21)",          # (0, 0, g0, g1)
          "t = shuffle32(Y0, 0x4e)",
          "Em1 = unpackhi64(Em2, t)",               # (0, g0, g1, g2)
          "t = shuffle32(Em2, 0x4e)",
          "Em3 = unpackhi64(z, t)",                 # (0, 0, 0, g0)
          "Ep2 = permute128(Yt, z, 0x21)",          # (g_m-2, g_m-1, 0, 0)
          "t = shuffle32(Ep2, 0x4e)",
          "Ep3 = unpackhi64(Yt, t)",                # (g_m-3, g_m-2, g_m-1, 0)
          "Ep1 = unpackhi64(Ep2, z)"]               # (g_m-1, 0, 0, 0)
    edge = {-3: "Em3", -2: "Em2", -1: "Em1", m - 3: "Ep3", m - 2: "Ep2", m - 1: "Ep1"}
    # f_i broadcast once; the inner windows are memory operands of vpand
    started = [False] * Q
    for i in range(m):
        L.append(f"4x F = mem64[f + {8 * i}]")
        for q in range(Q):
            s_ = 4 * q - i
            if not -3 <= s_ < m:
                continue
            gs = edge.get(s_, f"mem256[g + {8 * s_}]")
            if not started[q]:
                L.append(f"C{q} = F & {gs}")
                started[q] = True
            else:
                L.append(f"G = F & {gs}")
                L.append(f"C{q} = C{q} ^ G")
    L += vec64_reduce(m, Q)
    for q in range(m // 4):
        L.append(f"mem256[h + {32 * q}] = C{q}")
    if m % 4:
        assert m % 4 == 1
        L += [f"X = low128(C{m // 4})", f"mem64[h + {32 * (m // 4)}] = X"]
    head = [f"# generated by gen/mceliece.py (GF(2^{m}) 64-lane mul, amd64-avx2: four columns per ymm). DO NOT EDIT.",
            "# gen/mceliece.py vec64_packed; docs/mceliece.md.",
            "cpu avx2",
            "int64 h f g",
            "reg256 F G t z Y0 Yt Em1 Em2 Em3 Ep1 Ep2 Ep3 W " + " ".join(f"C{q}" for q in range(Q)),
            "reg256 " + " ".join(f"M{q}" for q in range(Q)) + " " + " ".join(f"R{q}_{r}" for q in range(Q) for r in (1, 2, 3)),
            "reg128 X",
            "", f"enter qhasm_kernel_mceliece_gf{m}_vec_mul_amd64_avx2_mul", "input h f g", "secret [f] [g]"]
    return "\n".join(head + L + ["leave"]) + "\n"


def vec64_zmm(m: int) -> str:
    """64-lane vec_mul with 512-bit registers (amd64-avx512): eight product
    columns per zmm.  Column group q (columns 8q..8q+7) is XOR over i of
    broadcast(f_i) & G_(8q-i), G_s = (g_s, .., g_(s+7)) zero outside
    0..m-1, each term one vpternlogd (and-xor).  G_s is an unaligned load
    (a memory operand) for 0 <= s <= m-8; the edge windows are one
    vpermi2q each (its index, loaded, is overwritten: no copy) from the zero register and A = g_0..g_7 (s < 0) or
    B = g_(m-8)..g_(m-1) (s > m-8).  The reduction stays in the registers:
    the high columns in blocks from the top whose folds c -> c - m + e land
    below the block; per block and target group the folds are gathered by
    vpermi2q (a lane of a permute takes one fold, so a target lane with k
    folds from the block needs k permutes; the lanes without one read a
    zero lane) and xored in three at a time.  h: group 0 and the words
    m-8..m-1 (one permute of groups 0 and 1), two overlapping stores after
    every read of f and g (h may equal f or g)."""
    low = [e for e in mn.MODULUS[m] if e < m]
    ncol = 2 * m - 1
    Q = (ncol + 7) // 8
    assert ncol % 8 and 8 < m <= 16
    consts: dict[tuple[int, ...], str] = {}

    def idx(lanes: list[int]) -> str:
        key = tuple(lanes)
        if key not in consts:
            consts[key] = f"CI{len(consts)}"
        return consts[key]

    L: list[str] = ["Z = 0", "A = mem512[g + 0]", f"B = mem512[g + {8 * (m - 8)}]"]
    wins: dict[int, str] = {}

    def window(s: int) -> str:
        if 0 <= s <= m - 8:
            return f"mem512[g + {8 * s}]"
        if s not in wins:
            w = f"E{s + 7}"
            if s < 0:
                lanes, src = [8 + s + j if s + j >= 0 else 0 for j in range(8)], "A"
            else:
                lanes, src = [8 + s + j - (m - 8) if s + j < m else 0 for j in range(8)], "B"
            L.append(f"{w} = mem512[{idx(lanes)}]")
            L.append(f"{w} = permute2x64(Z, {w}, {src})")
            wins[s] = w
        return wins[s]
    started = [False] * Q
    for i in range(m):
        L.append(f"8x F = mem64[f + {8 * i}]")
        for q in range(Q):
            s_ = 8 * q - i
            if not -7 <= s_ < m:
                continue
            gs = window(s_)
            if not started[q]:
                L.append(f"C{q} = F & {gs}")
                started[q] = True
            else:
                L.append(f"C{q} = ternlog(C{q}, F, {gs}, {hex(TERN_ANDXOR)})")
    # reduction: blocks [lo, hi) from the top, hi - lo <= m - max(low)
    width = m - max(low)
    blocks, hi = [], ncol
    while hi > m:
        lo = max(m, hi - width)
        if lo % 8 and lo > m and lo // 8 != (hi - 1) // 8:
            lo = (lo + 7) // 8 * 8          # whole groups where possible
        blocks.append((lo, hi))
        hi = lo
    zero_col = Q * 8 - 1                    # a column >= ncol: zero by construction
    for lo, hi in blocks:
        for k in range(Q):
            # the folds landing in group k: (target lane, source column)
            folds = [(c - m + e - 8 * k, c) for c in range(lo, hi) for e in low if 0 <= c - m + e - 8 * k < 8]
            if not folds:
                continue
            groups = sorted({c // 8 for _, c in folds})
            if len(groups) == 2 and zero_col // 8 not in groups:
                parts = [[f for f in folds if f[1] // 8 == g] for g in groups]
            else:
                parts = [folds]
            perms: list[str] = []
            for part in parts:
                gs_ = sorted({c // 8 for _, c in part})
                if len(gs_) == 1:
                    tabs, zero = ["Z", f"C{gs_[0]}"], 0
                    base = {gs_[0]: 8}
                else:
                    tabs, zero = [f"C{gs_[0]}", f"C{gs_[1]}"], 8 * (zero_col // 8 - gs_[0]) + zero_col % 8
                    base = {gs_[0]: 0, gs_[1]: 8}
                rounds: list[list[int]] = []
                for lane, c in part:
                    for r in rounds:
                        if r[lane] is None:
                            break
                    else:
                        r = [None] * 8
                        rounds.append(r)
                    r[lane] = base[c // 8] + c % 8
                for r in rounds:
                    w = f"P{len(perms)}"
                    L.append(f"{w} = mem512[{idx([zero if x is None else x for x in r])}]")
                    L.append(f"{w} = permute2x64({tabs[0]}, {w}, {tabs[1]})")
                    perms.append(w)
            while len(perms) >= 2:
                L.append(f"C{k} = ternlog(C{k}, {perms[0]}, {perms[1]}, {hex(TERN_XOR3)})")
                perms = perms[2:]
            if perms:
                L.append(f"C{k} = C{k} ^ {perms[0]}")
    # words m-8..m-1 of h: lanes m-8..7 of C0 and 0..m-9 of C1
    L.append(f"P0 = mem512[{idx([m - 8 + j for j in range(8)])}]")
    L += ["P0 = permute2x64(C0, P0, C1)", "mem512[h + 0] = C0", f"mem512[h + {8 * (m - 8)}] = P0"]
    head = [f"# generated by gen/mceliece.py (GF(2^{m}) 64-lane mul, amd64-avx512: eight columns per zmm). DO NOT EDIT.",
            "# gen/mceliece.py vec64_zmm; docs/mceliece.md.",
            "cpu avx512f",
            "int64 h f g"]
    head += [f"const {n} u64 " + " ".join(str(x) for x in key) for key, n in consts.items()]
    head += ["reg512 F Z A B " + " ".join(f"C{q}" for q in range(Q)) + " " + " ".join(f"P{k}" for k in range(8)),
             "reg512 " + " ".join(f"E{s + 7}" for s in sorted(wins)),
             "", f"enter qhasm_kernel_mceliece_gf{m}_vec_mul_amd64_avx512_mul", "input h f g", "secret [f] [g]"]
    return "\n".join(head + L + ["leave"]) + "\n"


# ---- the manifest's interface (specs/kernels.conf: gen=mceliece params=...) --
def _p(params: dict[str, str], key: str) -> str:
    if key not in params:
        raise SystemExit(f"gen.mceliece: parameter {key} missing in {params}")
    return params[key]


def qpath(impl: str, params: dict[str, str]) -> str:
    """the generated .q of one kernel: specs/mceliece/generated/<primitive>_<impl id>.q"""
    kind = _p(params, "kind")
    if kind == "vec":
        lanes = int(_p(params, "lanes"))
        vec = "vec" if lanes == 64 else f"vec{lanes}"
        name = f"mceliece_gf{_p(params, 'm')}_{vec}_{_p(params, 'op')}"
    elif kind == "gf":
        name = f"mceliece_gf{_p(params, 'm')}_{_p(params, 'op')}"
    elif kind == "transpose":
        name = "mceliece_transpose_64x64"
    elif kind == "syndrome":
        name = f"{_p(params, 'set')}_syndrome"
    else:
        raise SystemExit(f"gen.mceliece: unknown kind {kind}")
    return f"{GENERATED}/{name}_{impl_id(impl)}.q"


def text(impl: str, params: dict[str, str], root: str = ROOT) -> str:
    """the text of qpath(impl, params)"""
    t = IMPLS[impl]
    kind = params["kind"]
    if kind == "vec" and impl == "amd64-avx2" and params["lanes"] == "64":
        return vec64_packed(int(params["m"]))
    if kind == "vec" and impl == "amd64-avx512" and params["lanes"] == "64":
        return vec64_zmm(int(params["m"]))
    if kind == "vec":
        return render_vec(impl, int(params["m"]), (int(params["lanes"]), params["op"]))
    if kind == "gf" and "pclmulqdq" in t.cpu:
        return mceliece_gf.render_clmul(impl, impl_id(impl), t.cpu, int(params["m"]), params["op"])
    if kind == "gf":
        return mceliece_gf.render(impl, impl_id(impl), t.vtype, int(params["m"]), params["op"])
    if kind == "transpose":
        return mceliece_transpose.render(impl, impl_id(impl), t.vtype, t.bits, t.ptr, t.cpu, t.ternlog,
                                         t.big_endian)
    return msyn.render(impl, impl_id(impl), params["set"], SYNDROME[impl][params["set"]])


def counts() -> str:
    rows = ["| m | cost model | Karatsuba leaf | mul ops | sq ops | inv ops |", "|---|---|---|---|---|---|"]
    for m in FIELDS:
        for tern in (False, True):
            n = [len(network(op, m, tern)[0].ops) for op in ("mul", "sq", "inv")]
            rows.append(f"| {m} | {'ternlog' if tern else 'two-input'} | {leaf(m, tern)} | {n[0]} | {n[1]} | {n[2]} |")
    return "\n".join(rows) + "\n"


def _jobs() -> list[tuple[str, dict[str, str]]]:
    from gen import manifest
    return [(im.name, im.params) for im in manifest.parse().impls(variants=False) if im.gen == "mceliece"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.mceliece", description=__doc__.splitlines()[0])
    ap.add_argument("--impl", action="append", choices=list(IMPLS), help="implementation (default: all)")
    ap.add_argument("--out", default=ROOT, help="root directory to write under (default: the repository)")
    ap.add_argument("--stdout", action="store_true", help="print instead of writing files")
    ap.add_argument("--counts", action="store_true", help="print the operation counts of the networks")
    ap.add_argument("--kara", action="append", default=[], choices=list(IMPLS),
                    help="vec_mul of IMPL by mul_kara (for measurement; see KARA)")
    ap.add_argument("--evenodd", action="append", default=[], choices=list(IMPLS),
                    help="vec_mul of IMPL by mul_evenodd (for measurement; see EVENODD)")
    ap.add_argument("--krows", action="append", default=[], choices=list(IMPLS),
                    help="vec_mul of IMPL by mul_krows (see KROWS)")
    ap.add_argument("--no-krows", action="append", default=[], choices=list(IMPLS),
                    help="vec_mul of IMPL without mul_krows (mul_rows where ROWS has it; for measurement)")
    ap.add_argument("--fregs", action="append", default=[], metavar="IMPL=N",
                    help="column multiplier of IMPL with at most N f_i in registers (for measurement)")
    ap.add_argument("--andn", action="append", default=[], metavar="IMPL=N",
                    help="column multiplier of IMPL with N complemented f_i in registers, andn terms (for measurement)")
    ap.add_argument("--ncols", action="append", default=[], metavar="IMPL=K",
                    help="column multiplier of IMPL scanning K columns at a time (for measurement)")
    ap.add_argument("--sharefold", action="append", default=[], choices=list(IMPLS),
                    help="column multiplier of IMPL with the shared folds of adjacent modulus exponents (SHAREFOLD)")
    ap.add_argument("--no-sharefold", action="append", default=[], choices=list(IMPLS),
                    help="column multiplier of IMPL without shared folds (for measurement)")
    ap.add_argument("--rows", action="append", default=[], choices=list(IMPLS),
                    help="vec_mul of IMPL by mul_rows (see ROWS)")
    ap.add_argument("--no-rows", action="append", default=[], choices=list(IMPLS),
                    help="vec_mul of IMPL by the column multiplier instead of mul_rows (for measurement)")
    ap.add_argument("--rowg", action="append", default=[], metavar="IMPL=N",
                    help="mul_rows of IMPL with g_0 .. g_(N-1) in registers (for measurement; see ROWG)")
    a = ap.parse_args(argv)
    for x in a.rowg:
        impl, n = x.split("=")
        ROWG[impl] = int(n)
    ROWS.update(a.rows)
    ROWS.difference_update(a.no_rows)
    SHAREFOLD.update(a.sharefold)
    SHAREFOLD.difference_update(a.no_sharefold)
    for x in a.ncols:
        impl, n = x.split("=")
        NCOLS[impl] = int(n)
    KARA.update(a.kara)
    for x in a.andn:
        impl, n = x.split("=")
        ANDN[impl] = int(n)
    EVENODD.update(a.evenodd)
    KROWS.update(a.krows)
    ROWS.update(a.krows)
    KROWS.difference_update(a.no_krows)
    for x in a.fregs:
        impl, n = x.split("=")
        FREGS[impl] = int(n)
    if a.counts:
        sys.stdout.write(counts())
        return 0
    for impl, params in _jobs():
        if a.impl and impl not in a.impl:
            continue
        out = text(impl, params)
        if a.stdout:
            sys.stdout.write(out)
            continue
        path = os.path.join(a.out, qpath(impl, params))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
