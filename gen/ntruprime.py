"""Generate the Streamlined NTRU Prime multiplication kernels (.q files).

    python3 -m gen.ntruprime [--impl IMPL ...] [--p P ...] [--out DIR] [--stdout]

For every implementation IMPL and parameter set (p, q) in PARAMS it writes
specs/ntruprime/generated/ntruprime_<id>_<p>.q with two functions

    qhasm_kernel_core_multsntrup<p>_<id>(out, in, k)    R/q product
    qhasm_kernel_core_mult3sntrup<p>_<id>(out, in, k)   R/3 product

(<id> = IMPL with '-' replaced by '_'; byte layouts in docs/ntruprime.md).

One algorithm for every target, written against a small table of 16-bit
lane statements per instruction set (ISAS): every product is an exact
product over Z computed modulo 2^16 -- exact because the true coefficients
are proved (below, by exhaustive evaluation of the same lane arithmetic in
Python) to lie in -32768..32767 -- by d levels of Karatsuba (evaluation at
0, 1, infinity: additions only, so wrap-around modulo 2^16 is harmless)
over an S x S schoolbook base case: for each coefficient b_j of one
factor, a broadcast of b_j times an unaligned window of the zero-padded
other factor, accumulated in registers (2S/L accumulators).  The levels
run breadth-first over contiguous arrays, so the generated code is a few
loops, not 3^d unrolled copies.

R/3: f and g in {-1,0,1}; one product (|coefficient| <= p), folded modulo
x^p - x - 1 (|c| <= 3p), reduced modulo 3 with one multiply-high.
R/q: f reduced modulo q (Barrett, |f| <= (q+1)/2) and split into two
balanced digits f = f0 + B*f1 (|f0|, |f1| <= ~sqrt(q)/2), so that
p*max|digit| < 2^15; two products f0*g, f1*g; then h0 + B*h1 reduced
modulo q per coefficient, folded, and frozen exactly (Barrett).
docs/ntruprime.md explains the choices and the measurements behind them.
"""
from __future__ import annotations

import argparse
import functools
import os
import sys
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = "specs/ntruprime"
GENERATED = f"{SPECS}/generated"

# No per-microarchitecture variants (gen/regen.py's out/<impl>-<model>/):
# they rename symbols by the `_<impl>_` infix, and these kernels' symbols
# end with the implementation name (qhasm_kernel_core_multsntrup761_amd64_avx2).
UARCH_VARIANTS = False

# parameter sets: p -> q (a new set is one entry)
PARAMS: dict[int, int] = {653: 4621, 761: 4591, 857: 5167}


# ---------------------------------------------------------------- lane ISAs
@dataclass(frozen=True)
class Isa:
    """How the 16-bit lane statements are spelled for one instruction set."""
    name: str
    lanes: int            # 16-bit lanes per vector
    reg: str              # vector register type
    stack: str            # stack type aligned like a vector (the work area)
    cpu: str              # `cpu` line ("" for the baseline)
    ptr: str              # integer register type for pointers and counters
    word: int             # bytes of the widest scalar load/store (tail copies)
    nregs: int = 16       # vector registers the allocator may use
    mulhi_shift: int = 16  # mulhi(a, b) = floor(a*b / 2^mulhi_shift)
    pack: str = "packs16_permute"  # how 16-bit lanes become bytes (mult3 output)

    @property
    def pre(self) -> str:
        return f"{self.lanes}x"

    @property
    def vbytes(self) -> int:
        return 2 * self.lanes

    @property
    def mem(self) -> str:
        return f"mem{16 * self.lanes}"


ISAS: dict[str, Isa] = {
    # baseline x86-64: SSE2, 8 lanes (legacy two-operand forms)
    "amd64": Isa("amd64", 8, "reg128", "stack128", "", "int64", 8, pack="packs16"),
    "amd64-avx2": Isa("amd64-avx2", 16, "reg256", "stack256", "avx2", "int64", 8),
    # AVX-512BW: 32 lanes, 32 registers; bytes by vpmovwb
    "amd64-avx512": Isa("amd64-avx512", 32, "reg512", "stack512", "avx512bw avx512vl", "int64", 8,
                        nregs=32, pack="truncate8"),
    # i386 with SSE2: 8 xmm registers
    "x86-sse2": Isa("x86-sse2", 8, "reg128", "stack128", "sse2", "int32", 4, nregs=8, pack="packs16"),
}


def impl_id(impl: str) -> str:
    return impl.replace("-", "_")


def generated_path(impl: str, p: int) -> str:
    return f"{GENERATED}/ntruprime_{impl_id(impl)}_{p}.q"


# ------------------------------------------------- lane arithmetic, proved
def wrap16(x: int) -> int:
    return ((x + 0x8000) & 0xFFFF) - 0x8000


@dataclass(frozen=True)
class Consts:
    """The constants of one (p, q) and their proved bounds."""
    p: int
    q: int
    mh: int               # mulhi shift of the target
    bv: int               # Barrett: round(2^(mh+bs)/q)
    bs: int
    dig: int              # digit base B
    dc: int               # digit reciprocal
    dw: int               # round(B*2^mh/q), for h1*B mod q
    fmax: int             # |f| after the input reduction
    d0max: int
    d1max: int
    red_max: int          # |barrett(h0 + B h1 mod q)|
    m3off: int            # mod-3 offset (multiple of 3, plus 1)
    h0red: bool           # h0 needs a Barrett reduction before adding B*h1


def mulhi(a: int, b: int, mh: int) -> int:
    return wrap16((wrap16(a) * wrap16(b)) >> mh)


def barrett(x: int, c: Consts | tuple[int, int, int, int]) -> int:
    q, bv, bs, mh = (c.q, c.bv, c.bs, c.mh) if isinstance(c, Consts) else c
    t = mulhi(x, bv, mh)
    t = wrap16(t + (1 << (bs - 1)))
    t = t >> bs
    return wrap16(x - wrap16(t * q))


def digits(f: int, dig: int, dc: int, mh: int) -> tuple[int, int]:
    f1 = mulhi(wrap16(f + dig // 2), dc, mh)
    return wrap16(f - wrap16(f1 * dig)), f1


def mulB(h1: int, dig: int, dw: int, q: int, mh: int) -> int:
    return wrap16(wrap16(h1 * dig) - wrap16(mulhi(h1, dw, mh) * q))


def freeze(x: int, m: int) -> int:
    r = x % m
    return r - m if r > (m - 1) // 2 else r


def mod3(c: int, off: int, mh: int) -> int:
    # r = c + (off - 1) - 3*floor((c + off) / 3), floor by a multiply-high
    m = mulhi(wrap16(c + off), (1 << mh) // 3 + 1, mh)
    return wrap16(wrap16(c + off - 1) - wrap16(3 * m))


@functools.lru_cache(maxsize=None)
def make_consts(p: int, q: int, mh: int) -> Consts:
    """Choose the constants for (p, q) and prove every bound the kernels
    rely on by evaluating the lane arithmetic on every possible input."""
    bs = 10
    bv = round((1 << (mh + bs)) / q)
    assert bv < 1 << 15
    bt = (q, bv, bs, mh)
    fr = [barrett(x, bt) for x in range(-32768, 32768)]
    assert all((fr[x + 32768] - x) % q == 0 for x in range(-32768, 32768))
    fmax = max(abs(v) for v in fr)
    best = None
    for dig in range(40, 120):
        for dc in (round((1 << mh) / dig), -(-(1 << mh) // dig)):
            if dc >= 1 << 15:
                continue
            ds = [digits(f, dig, dc, mh) for f in range(-fmax, fmax + 1)]
            if any(f0 + dig * f1 != f for f, (f0, f1) in zip(range(-fmax, fmax + 1), ds)):
                continue
            if digits(0, dig, dc, mh) != (0, 0):
                continue
            m0 = max(abs(a) for a, _ in ds)
            m1 = max(abs(b) for _, b in ds)
            if best is None or max(m0, m1) < max(best[2], best[3]):
                best = (dig, dc, m0, m1)
    assert best is not None
    dig, dc, d0max, d1max = best
    # products are exact in 16 bits
    assert p * d0max <= 32767 and p * d1max <= 32767, (p, q, best)
    dw = round(dig * (1 << mh) / q)
    h0m, h1m = p * d0max, p * d1max
    rmax = 0
    for h1 in range(-h1m, h1m + 1):
        r = mulB(h1, dig, dw, q, mh)
        tr = dig * h1 - q * mulhi(h1, dw, mh)
        assert r == tr and (r - dig * h1) % q == 0
        rmax = max(rmax, abs(r))
    # h0 + (B*h1 mod q) must not wrap; otherwise reduce h0 first
    h0red = h0m + rmax > 32767
    if h0red:
        h0m = max(abs(barrett(x, bt)) for x in range(-h0m, h0m + 1))
    assert h0m + rmax <= 32767
    red_max = max(abs(barrett(s, bt)) for s in range(-(h0m + rmax), h0m + rmax + 1))
    # the fold adds three reduced values; the final Barrett freezes exactly
    for c in range(-3 * red_max, 3 * red_max + 1):
        assert barrett(c, bt) == freeze(c, q), c
    # R/3: |product| <= p, |fold| <= 3p
    m3off = 3 * ((3 * p) // 3 + 1) + 1
    for c in range(-3 * p, 3 * p + 1):
        assert mod3(c, m3off, mh) == freeze(c, 3), c
    return Consts(p, q, mh, bv, bs, dig, dc, dw, fmax, d0max, d1max, red_max, m3off, h0red)


# ------------------------------------------------------- Karatsuba shape
def macs(S: int, L: int) -> int:
    """Vector multiply-adds of the S x S base case (windows that touch a)."""
    n = 0
    for k in range(2 * S // L):
        lo, hi = max(0, k * L - S + 1), min(S - 1, k * L + L - 1)
        n += max(0, hi - lo + 1)
    return n


def shape(p: int, L: int, nregs: int = 16) -> tuple[int, int]:
    """(levels d, base size S) with S*2^d >= p, S a multiple of L, minimising
    an estimate: base multiply-adds plus the per-level linear work.  The
    base case keeps 2S/L accumulators, a broadcast and two scratch
    registers live, so that many must fit in nregs."""
    best = None
    for d in range(1, 8):
        S = -(-p // (L << d))
        S *= L
        if 2 * S // L + 3 > nregs:
            continue
        N = S << d
        cost = 3 ** d * macs(S, L) * 2 + sum(3 ** l * (N >> l) // L * 6 for l in range(d))
        if best is None or cost < best[0]:
            best = (cost, d, S)
    assert best is not None
    return best[1], best[2]


# ------------------------------------------------------------- .q writer
@dataclass
class Q:
    isa: Isa
    lines: list[str] = field(default_factory=list)
    labels: int = 0

    def __call__(self, s: str) -> None:
        self.lines.append(s)

    def label(self, base: str) -> str:
        self.labels += 1
        return f"{base}{self.labels}"

    def vmem(self, ptr: str, off: int) -> str:
        return f"{self.isa.mem}[{ptr} + {off}]" if off else f"{self.isa.mem}[{ptr}]"


def mem(w: str, ptr: str, off: int) -> str:
    return f"{w}[{ptr} + {off}]" if off else f"{w}[{ptr}]"


class Layout:
    """Offsets (bytes) of the buffers in one aligned stack work area."""

    def __init__(self, align: int) -> None:
        self.size = 0
        self.align = align
        self.off: dict[str, int] = {}

    def add(self, name: str, nbytes: int) -> int:
        self.size = -(-self.size // self.align) * self.align
        self.off[name] = self.size
        self.size += nbytes
        return self.off[name]


class Kernel:
    """The common parts of the two functions for one (impl, p, q)."""

    def __init__(self, isa: Isa, p: int, q: int) -> None:
        self.isa = isa
        self.p, self.q = p, q
        self.L = isa.lanes
        self.d, self.S = shape(p, self.L, isa.nregs)
        self.N = self.S << self.d
        self.c = make_consts(p, q, isa.mulhi_shift)

    # -- helpers emitting code --------------------------------------------
    def copy_bytes(self, e: Q, dst: str, doff: int, src: str, soff: int, n: int) -> None:
        """n bytes from src+soff to dst+doff: whole vectors, then scalars."""
        vb = self.isa.vbytes
        i = 0
        while i + vb <= n:
            e(f"x0 = {e.vmem(src, soff + i)}")
            e(f"{e.vmem(dst, doff + i)} = x0")
            i += vb
        for w in (self.isa.word, 4, 2, 1):
            if w > self.isa.word:
                continue
            while i + w <= n:
                e(f"t0 = {mem(f'mem{8 * w}', src, soff + i)}")
                e(f"{mem(f'mem{8 * w}', dst, doff + i)} = t0")
                i += w

    def zero_bytes(self, e: Q, dst: str, doff: int, n: int) -> None:
        """n bytes (a multiple of the vector size) of zeros (z0 holds 0)."""
        vb = self.isa.vbytes
        assert n % vb == 0
        if n:
            e("z0 = 0")
        for i in range(0, n, vb):
            e(f"{e.vmem(dst, doff + i)} = z0")

    def loop(self, e: Q, count: int, body, ptrs: list[tuple[str, int]]) -> None:
        """count iterations of body(); after each, ptr += step."""
        if count == 1:
            body()
            return
        lab = e.label("loop")
        e(f"i0 = {count}")
        e(f"{lab}:")
        body()
        for ptr, step in ptrs:
            e(f"{ptr} += {step}")
        e(f"unsigned>? i0 -= 1")
        e(f"goto {lab} if unsigned>")

    def evaluate(self, e: Q, src: int, cnt: int, n: int, dst: int, last: bool) -> None:
        """Karatsuba evaluation: cnt polys of n coefficients at w+src become
        3*cnt polys of n/2 at w+dst (0, 1, infinity).  The last a-level is
        written into padded slots (stride 2*(n/2), data in the upper half,
        zeros in the lower half)."""
        P = self.isa.pre
        h = n // 2
        hb = 2 * h
        slot = 2 * hb if last else hb
        base = hb if last else 0
        e(f"pa = w + {src}" if src else "pa = w")
        e(f"pb = w + {dst}" if dst else "pb = w")

        def body() -> None:
            for v in range(0, hb, self.isa.vbytes):
                e(f"x0 = {e.vmem('pa', v)}")
                e(f"x1 = {e.vmem('pa', hb + v)}")
                e(f"{e.vmem('pb', base + v)} = x0")
                e(f"{e.vmem('pb', 2 * slot + base + v)} = x1")
                e(f"{P} x0 += x1")
                e(f"{e.vmem('pb', slot + base + v)} = x0")
                if last:
                    e("z0 = 0")
                    for s in range(3):
                        e(f"{e.vmem('pb', s * slot + v)} = z0")
        self.loop(e, cnt, body, [("pa", 2 * n), ("pb", 3 * slot)])

    def base_products(self, e: Q, aoff: int, boff: int, coff: int, count: int) -> None:
        """count S x S products: a in padded slots (stride 4S bytes, data at
        +2S), b contiguous (stride 2S bytes), c contiguous (stride 4S)."""
        S, L, P = self.S, self.L, self.isa.pre
        nb = 2 * S // L
        e(f"pa = w + {aoff}")
        e(f"pb = w + {boff}")
        e(f"pc = w + {coff}")

        def body() -> None:
            first = [True] * nb
            for j in range(S):
                e(f"{P} x0 = {mem('mem16', 'pb', 2 * j)}")
                for k in range(nb):
                    if not (k * L - S + 1 <= j <= k * L + L - 1):
                        continue
                    off = 2 * (S + k * L - j)
                    if first[k]:
                        e(f"{P} a{k} = x0 * {e.vmem('pa', off)}")
                        first[k] = False
                    else:
                        e(f"{P} x1 = x0 * {e.vmem('pa', off)}")
                        e(f"{P} a{k} += x1")
            for k in range(nb):
                e(f"{e.vmem('pc', 2 * k * L)} = a{k}")
        self.loop(e, count, body, [("pa", 4 * S), ("pb", 2 * S), ("pc", 4 * S)])

    def interpolate(self, e: Q, src: int, cnt: int, m: int, dst: int) -> None:
        """cnt groups of three products (2m coefficients each, at w+src)
        become cnt products of 4m coefficients at w+dst."""
        P = self.isa.pre
        mb = 2 * m
        e(f"pa = w + {src}")
        e(f"pb = w + {dst}")

        def body() -> None:
            for v in range(0, mb, self.isa.vbytes):
                e(f"x0 = {e.vmem('pa', v)}")               # P0 lo
                e(f"x1 = {e.vmem('pa', mb + v)}")          # P0 hi
                e(f"x2 = {e.vmem('pa', 4 * mb + v)}")      # P2 lo
                e(f"x3 = {e.vmem('pa', 5 * mb + v)}")      # P2 hi
                e(f"{e.vmem('pb', v)} = x0")
                e(f"{e.vmem('pb', 3 * mb + v)} = x3")
                e(f"{P} x4 = x1 - x2")                      # t = P0hi - P2lo
                e(f"x5 = {e.vmem('pa', 2 * mb + v)}")
                e(f"{P} x5 -= x0")
                e(f"{P} x5 += x4")                          # P1lo - P0lo + t
                e(f"{e.vmem('pb', mb + v)} = x5")
                e(f"x5 = {e.vmem('pa', 3 * mb + v)}")
                e(f"{P} x5 -= x3")
                e(f"{P} x5 -= x4")                          # P1hi - P2hi - t
                e(f"{e.vmem('pb', 2 * mb + v)} = x5")
        self.loop(e, cnt, body, [("pa", 6 * mb), ("pb", 4 * mb)])

    def product(self, e: Q, lay: Layout, K: int) -> int:
        """K products (polys at 'A', K*N coefficients; g at 'B'), exact mod
        2^16; returns the offset of the K results (2N coefficients each)."""
        d, S, N = self.d, self.S, self.N
        ea = [lay.off["A"]]
        eb = [lay.off["B"]]
        for l in range(d):
            n = N >> l
            last = l == d - 1
            # a-side: K*3^l polys of n -> 3x of n/2 (padded at the last level)
            nxt = lay.off[f"EA{l + 1}"]
            self.evaluate(e, ea[-1], K * 3 ** l, n, nxt, last)
            ea.append(nxt)
            nxt = lay.off[f"EB{l + 1}"]
            self.evaluate(e, eb[-1], 3 ** l, n, nxt, False)
            eb.append(nxt)
        if d == 0:
            # no Karatsuba: copy a into one padded slot
            self.evaluate_copy(e, lay)
            ea.append(lay.off["EA0P"])
        # zeros after the last padded slot
        self.zero_bytes(e, "w", ea[-1] + K * 3 ** d * 4 * S, 2 * S)
        cnt = 3 ** d
        for kk in range(K):
            self.base_products(e, ea[-1] + kk * cnt * 4 * S, eb[-1], lay.off[f"C{d}"] + kk * cnt * 4 * S, cnt)
        src = lay.off[f"C{d}"]
        for l in range(d - 1, -1, -1):
            m = N >> (l + 1)
            dst = lay.off[f"C{l}"]
            self.interpolate(e, src, K * 3 ** l, m, dst)
            src = dst
        return src

    def evaluate_copy(self, e: Q, lay: Layout) -> None:
        raise NotImplementedError("d == 0")

    def layout(self, K: int, extra: list[tuple[str, int]]) -> Layout:
        d, S, N = self.d, self.S, self.N
        lay = Layout(self.isa.vbytes)
        lay.add("A", 2 * K * N)
        lay.add("B", 2 * N)
        for l in range(1, d + 1):
            if l == d:
                lay.add(f"EA{l}", K * 3 ** d * 4 * S + 4 * S)
            else:
                lay.add(f"EA{l}", 2 * K * N * 3 ** l // 2 ** l)
            lay.add(f"EB{l}", 2 * N * 3 ** l // 2 ** l)
        for l in range(d, -1, -1):
            lay.add(f"C{l}", K * 3 ** l * 4 * (N >> l))
        for name, n in extra:
            lay.add(name, n)
        return lay

    # -- input mapping ----------------------------------------------------
    def small_from_bytes(self, e: Q, src: int, dst: int, n: int) -> None:
        """n bytes at w+src (SUPERCOP small layout) -> n int16 in {-1,0,1}
        at w+dst: g = b0 - 2*(b0 & b1) for the two low bits b0, b1."""
        P, L = self.isa.pre, self.L
        e("x7 = mem%d[ONES]" % (16 * L))
        for v in range(0, n, L):
            e(f"{P} x0 = zeroext8({mem(f'mem{8 * L}', 'w', src + v)})")
            e("x1 = x0 & x7")
            e(f"{P} x0 >>= 1")
            e("x0 &= x1")
            e(f"{P} x1 -= x0")
            e(f"{P} x1 -= x0")
            e(f"{e.vmem('w', dst + 2 * v)} = x1")

    def consts(self, e: Q, extra: dict[str, int]) -> None:
        for name, v in extra.items():
            e(f"const {name} u16 " + " ".join([str(v & 0xFFFF)] * self.L))

    def prologue(self, e: Q, name: str, lay: Layout) -> None:
        nv = -(-lay.size // self.isa.vbytes)
        e(f"{self.isa.stack} work{name}[{nv}]")
        e(f"enter {name}")
        e("input out in k")
        e("secret [in] [k]")
        e(f"w = &work{name}")

    # -- the two functions ------------------------------------------------
    def mult3(self, e: Q, name: str) -> None:
        p, L, N, P = self.p, self.L, self.N, self.isa.pre
        vb = self.isa.vbytes
        nvp = -(-p // L)            # vectors covering p coefficients
        inb = -(-N // L) * L        # staged bytes
        lay = self.layout(1, [("IN", inb), ("KB", inb), ("OUT", nvp * L + vb)])
        self.prologue(e, name, lay)
        # stage both inputs (zeros up to N), read everything before writing
        for buf, ptr in (("IN", "in"), ("KB", "k")):
            self.zero_bytes(e, "w", lay.off[buf] + (p // vb) * vb, inb - (p // vb) * vb)
            self.copy_bytes(e, "w", lay.off[buf], ptr, 0, p)
        self.small_from_bytes(e, lay.off["IN"], lay.off["A"], N)
        self.small_from_bytes(e, lay.off["KB"], lay.off["B"], N)
        h = self.product(e, lay, 1)
        # fold modulo x^p - x - 1: c_j = h_j + h_{j+p} + h_{j+p-1} (j >= 1)
        # (h is zero from 2p-1 on, inside its 2N coefficients)
        assert (nvp * L) + p <= 2 * N
        c = self.c
        e(f"x6 = mem{16 * L}[M3OFF]")
        e(f"x7 = mem{16 * L}[M3MUL]")
        e(f"x5 = mem{16 * L}[THREE]")
        for v in range(nvp):
            j = v * L
            e(f"x0 = {e.vmem('w', h + 2 * j)}")
            e(f"x1 = {e.vmem('w', h + 2 * (j + p))}")
            e(f"x2 = {e.vmem('w', h + 2 * (j + p - 1))}")
            if v == 0:
                e(f"x2 &= mem{16 * L}[LANE0OFF]")
            e(f"{P} x0 += x1")
            e(f"{P} x0 += x2")
            # r = c + off - 1 - 3*floor((c + off)/3)
            e(f"{P} x0 += x6")
            e(f"{P} x1 = mulhi(x0, x7)")
            e(f"{P} x1 = x1 * x5")
            e(f"{P} x0 -= x1")
            e(f"x2 = mem{16 * L}[ONES]")
            e(f"{P} x0 -= x2")
            e(f"{e.vmem('w', h + 2 * j)} = x0")    # in place: block v is read before
        # pack to bytes: two vectors of 16-bit lanes -> one of bytes
        self.pack_bytes(e, h, lay.off["OUT"], nvp)
        self.copy_bytes(e, "out", 0, "w", lay.off["OUT"], p)
        e("leave")

    def pack_bytes(self, e: Q, src: int, dst: int, nv: int) -> None:
        vb = self.isa.vbytes
        if self.isa.pack == "truncate8":
            # one vector of 16-bit lanes -> half a vector of bytes
            for v in range(nv):
                e(f"x0 = {e.vmem('w', src + vb * v)}")
                e("y0 = truncate8(x0)")
                e(f"{mem(f'mem{8 * self.L}', 'w', dst + self.L * v)} = y0")
            return
        for v in range(0, nv, 2):
            e(f"x0 = {e.vmem('w', src + vb * v)}")
            if v + 1 < nv:
                e(f"x1 = {e.vmem('w', src + vb * (v + 1))}")
            else:
                e("x1 = 0")
            e("x0 = packs16(x0, x1)")
            if self.isa.pack == "packs16_permute":
                e("x0 = permute64(x0, 0xd8)")
            elif self.isa.pack == "packs16":
                pass
            else:
                raise NotImplementedError(self.isa.pack)
            e(f"{e.vmem('w', dst + vb * (v // 2))} = x0")

    def barrett_lines(self, e: Q, x: str, t: str) -> None:
        """x = barrett(x) (x6 = BV, x7 = Q constants; t scratch)."""
        P = self.isa.pre
        e(f"{P} {t} = mulhi({x}, x6)")
        e(f"{P} {t} += mem{16 * self.L}[BRND]")
        e(f"(int16) {P} {t} >>= {self.c.bs}")
        e(f"{P} {t} = {t} * x7")
        e(f"{P} {x} -= {t}")

    def mult(self, e: Q, name: str) -> None:
        p, L, N, P = self.p, self.L, self.N, self.isa.pre
        vb = self.isa.vbytes
        nvp = -(-p // L)
        inb = -(-2 * N // vb) * vb
        kb = -(-N // L) * L
        lay = self.layout(2, [("IN", inb), ("KB", kb), ("H", 4 * N + 2 * vb)])
        self.prologue(e, name, lay)
        self.zero_bytes(e, "w", lay.off["IN"] + (2 * p // vb) * vb, inb - (2 * p // vb) * vb)
        self.copy_bytes(e, "w", lay.off["IN"], "in", 0, 2 * p)
        self.zero_bytes(e, "w", lay.off["KB"] + (p // vb) * vb, kb - (p // vb) * vb)
        self.copy_bytes(e, "w", lay.off["KB"], "k", 0, p)
        self.small_from_bytes(e, lay.off["KB"], lay.off["B"], N)
        # f: reduce modulo q, split into digits f0 (at A) and f1 (at A + 2N)
        a = lay.off["A"]
        e(f"x6 = mem{16 * L}[BV]")
        e(f"x7 = mem{16 * L}[QQ]")
        e(f"x5 = mem{16 * L}[DC]")
        e(f"x4 = mem{16 * L}[DIG]")
        for v in range(0, 2 * N, vb):
            e(f"x0 = {e.vmem('w', lay.off['IN'] + v)}")
            self.barrett_lines(e, "x0", "x1")
            e(f"{P} x1 = x0 + mem{16 * L}[DHALF]")
            e(f"{P} x1 = mulhi(x1, x5)")
            e(f"{e.vmem('w', a + 2 * N + v)} = x1")
            e(f"{P} x1 = x1 * x4")
            e(f"{P} x0 -= x1")
            e(f"{e.vmem('w', a + v)} = x0")
        h = self.product(e, lay, 2)
        for r, cname in (("x4", "DIG"), ("x5", "DW"), ("x6", "BV"), ("x7", "QQ")):
            e(f"{r} = mem{16 * L}[{cname}]")
        # per coefficient: barrett(h0 + (B*h1 mod q)); only 2p-1 are nonzero
        H = lay.off["H"]
        for v in range(0, 4 * N, vb):
            if v >= 2 * (2 * p - 1):
                e("z0 = 0")
                e(f"{e.vmem('w', H + v)} = z0")
                continue
            e(f"x1 = {e.vmem('w', h + 4 * N + v)}")
            e(f"{P} x2 = mulhi(x1, x5)")
            e(f"{P} x1 = x1 * x4")
            e(f"{P} x2 = x2 * x7")
            e(f"{P} x1 -= x2")
            if self.c.h0red:
                e(f"x3 = {e.vmem('w', h + v)}")
                self.barrett_lines(e, "x3", "x2")
                e(f"{P} x1 += x3")
            else:
                e(f"{P} x1 += {e.vmem('w', h + v)}")
            self.barrett_lines(e, "x1", "x2")
            e(f"{e.vmem('w', H + v)} = x1")
        e("z0 = 0")
        for v in range(4 * N, 4 * N + 2 * vb, vb):
            e(f"{e.vmem('w', H + v)} = z0")
        # fold, freeze, write
        assert nvp * L + p <= 2 * N + vb
        for v in range(nvp):
            j = v * L
            e(f"x0 = {e.vmem('w', H + 2 * j)}")
            e(f"x1 = {e.vmem('w', H + 2 * (j + p))}")
            e(f"x2 = {e.vmem('w', H + 2 * (j + p - 1))}")
            if v == 0:
                e(f"x2 &= mem{16 * L}[LANE0OFF]")
            e(f"{P} x0 += x1")
            e(f"{P} x0 += x2")
            self.barrett_lines(e, "x0", "x1")
            e(f"{e.vmem('w', lay.off['IN'] + 2 * j)} = x0")
        self.copy_bytes(e, "out", 0, "w", lay.off["IN"], 2 * p)
        e("leave")


def generate(impl: str, p: int) -> str:
    isa = ISAS[impl]
    q = PARAMS[p]
    kn = Kernel(isa, p, q)
    c = kn.c
    e = Q(isa)
    e(f"# generated by gen/ntruprime.py ({impl}, p={p}, q={q}). DO NOT EDIT.")
    e(f"# Streamlined NTRU Prime R/q and R/3 products; see docs/ntruprime.md.")
    e(f"# Karatsuba: {kn.d} levels over a {kn.S}x{kn.S} schoolbook base, N = {kn.N}")
    e(f"# digits f = f0 + {c.dig}*f1: |f0| <= {c.d0max}, |f1| <= {c.d1max}; "
      f"|f mod q| <= {c.fmax}; reduced products <= {c.red_max}")
    if isa.cpu:
        e(f"cpu {isa.cpu}")
    nb = 2 * kn.S // kn.L
    e(f"{isa.ptr} out in k w pa pb pc i0 t0")
    e(f"{isa.reg} z0 x0 x1 x2 x3 x4 x5 x6 x7 " + " ".join(f"a{k}" for k in range(nb)))
    if isa.pack == "truncate8":
        e(f"reg{8 * kn.L} y0")
    mh = isa.mulhi_shift
    kn.consts(e, {"ONES": 1, "THREE": 3, "M3OFF": c.m3off, "M3MUL": (1 << mh) // 3 + 1,
                  "BV": c.bv, "QQ": c.q, "BRND": 1 << (c.bs - 1), "DC": c.dc, "DIG": c.dig,
                  "DHALF": c.dig // 2, "DW": c.dw})
    e("const LANE0OFF u16 0 " + " ".join(["65535"] * (kn.L - 1)))
    e("")
    e(f"# void qhasm_kernel_core_mult3sntrup{p}_{impl_id(impl)}(out p bytes, in p bytes, k p bytes)")
    kn.mult3(e, f"qhasm_kernel_core_mult3sntrup{p}_{impl_id(impl)}")
    e("")
    e(f"# void qhasm_kernel_core_multsntrup{p}_{impl_id(impl)}(out 2p bytes, in 2p bytes, k p bytes)")
    kn.mult(e, f"qhasm_kernel_core_multsntrup{p}_{impl_id(impl)}")
    return "\n".join(e.lines) + "\n"


def jobs(root: str = ROOT) -> list[tuple[str, str, str]]:
    """(generated .q path, implementation folder under out/, asm basename)."""
    return [(generated_path(i, p), i, f"ntruprime_{impl_id(i)}_{p}.asm") for i in ISAS for p in PARAMS]


def render(qpath: str, root: str = ROOT) -> str:
    """The text of one generated .q (gen/regen.py's hook)."""
    for i in ISAS:
        for p in PARAMS:
            if generated_path(i, p) == qpath:
                return generate(i, p)
    raise KeyError(qpath)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.ntruprime", description=__doc__.splitlines()[0])
    ap.add_argument("--impl", action="append", choices=list(ISAS), help="implementation (default: all)")
    ap.add_argument("--p", action="append", type=int, choices=list(PARAMS), help="parameter p (default: all)")
    ap.add_argument("--out", default=ROOT, help="root directory to write under (default: the repository)")
    ap.add_argument("--stdout", action="store_true", help="print instead of writing files")
    a = ap.parse_args(argv)
    for impl in a.impl or list(ISAS):
        for p in a.p or list(PARAMS):
            text = generate(impl, p)
            if a.stdout:
                sys.stdout.write(text)
                continue
            path = os.path.join(a.out, generated_path(impl, p))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
