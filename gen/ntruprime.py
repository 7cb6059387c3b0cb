"""Generate the Streamlined NTRU Prime multiplication kernels (.q files).

    python3 -m gen.ntruprime [--impl IMPL ...] [--p P ...] [--out DIR] [--stdout]

For every implementation IMPL, parameter set (p, q) in PARAMS and product
FN (mult: R/q, mult3: R/3) it writes
specs/ntruprime/generated/ntruprime_<fn>_<id>_<p>.q with one function

    qhasm_kernel_core_multsntrup<p>_<id>_mul(out, in, k)    R/q product
    qhasm_kernel_core_mult3sntrup<p>_<id>_mul(out, in, k)   R/3 product

(<id> = IMPL with '-' replaced by '_'; the manifest's naming, symbol
core_<fn>sntrup<p> and kernel `mul`; byte layouts in docs/ntruprime.md;
ppc64 and sparc64 take a fourth argument, the work area).  qpath() and
text() are the manifest's generator interface (params fn=, p=).

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

# the largest work area a kernel with a work argument may use (the C
# wrappers pass one of this size: the manifest's work:N argument, specs/kernels.conf)
WORK_BYTES = 622592

# parameter sets: p -> q (a new set is one entry)
PARAMS: dict[int, int] = {653: 4621, 761: 4591, 857: 5167}


# ---------------------------------------------------------------- lane ISAs
@dataclass(frozen=True)
class Isa:
    """How the 16-bit lane statements are spelled for one instruction set.
    Vector sets spell `<L>x` statements on vector registers; lanes == 1 is
    plain integer code on 64-bit registers (values stay exact integers
    there, which agrees with the 16-bit lane arithmetic because every value
    whose wrap-around could matter is proved to lie in -32768..32767)."""
    name: str
    lanes: int            # 16-bit lanes per vector
    reg: str              # vector register type (int64 for lanes == 1)
    stack: str            # stack type aligned like a vector (the work area)
    cpu: str              # `cpu` line ("" for the baseline)
    ptr: str              # integer register type for pointers and counters
    word: int             # bytes of the widest scalar load/store (tail copies)
    nregs: int = 16       # registers the base case may keep live
    mulhi_shift: int = 16  # mulhi(a, b) = floor(a*b / 2^mulhi_shift)
    pack: str = "packs16_permute"  # how 16-bit lanes become bytes (mult3 output)
    imm_max: int = 2 ** 31 - 1     # largest `r = s + i` immediate / displacement
    big_endian: bool = False
    unroll: int = 4       # vectors per iteration of the linear passes
    work_arg: bool = False  # the work area is a fourth argument (else a stack array)
    # vector loads and stores only at vbytes-aligned addresses, no memory
    # operands, no constant section (AltiVec): the work area's addresses are
    # known modulo 16, so misaligned windows are two aligned loads and a
    # byte shift; the base case keeps a in registers; constants are built
    # in the work area; inputs and outputs are copied by bytes
    valign: bool = False
    mulhi_fn: str = "mulhi"  # the multiply-high statement (AltiVec: mulhis15, a shift of 15)
    # R/3 base case by `maddubs` (vpmaddubsw: 2L byte products per
    # instruction, pair sums in 16-bit lanes) on g reduced to {0,1,2}
    maddubs: bool = False
    # R/q base case by `maddwd` (vpmaddwd: 16 int16 products per
    # instruction summed in pairs into 32-bit lanes): f needs no digit
    # split; the 32-bit products are reduced mod q to int16 lanes
    maddwd: bool = False
    # Karatsuba levels of the maddubs R/3 product (0: shape()'s estimate).
    # AVX2: 3 levels of 96x96 (27 bases, 9072 vpmaddubsw) measured faster
    # than shape()'s 4 of 48x48 (81 bases, 7776): one level fewer of the
    # memory-bound 16-bit passes (docs/ntruprime.md)
    m3_levels: int = 0
    # both products on pair sums of SSE2's pmaddwd (4 32-bit lanes, 8 int16
    # products per instruction; Kernel.pair_base): R/3 packs the exact
    # 32-bit sums back to int16; R/q needs no digit split, runs the
    # interpolation and the fold in 32-bit lanes and reduces mod q once
    pairs: bool = False
    # R/q on AltiVec's vmsumshm pair sums (Kernel.msum_base; the rest as
    # `pairs`: no digit split, 32-bit interpolation and fold, one reduction)
    msum: bool = False

    @property
    def pre(self) -> str:
        return f"{self.lanes}x"

    @property
    def vbytes(self) -> int:
        return 2 * self.lanes

    @property
    def mem(self) -> str:
        return f"mem{16 * self.lanes}"

    @property
    def scalar(self) -> bool:
        return self.lanes == 1

    # -- statements (lists of .q lines) -------------------------------------
    def m(self, ptr: str, off: int, bits: int | None = None) -> str:
        w = f"mem{bits}" if bits else (self.mem if not self.scalar else "mem16")
        return f"{w}[{ptr} + {off}]" if off else f"{w}[{ptr}]"

    def ld(self, d: str, ptr: str, off: int) -> list[str]:
        if self.scalar:
            return [f"(int64) {d} = {self.m(ptr, off)}"]
        return [f"{d} = {self.m(ptr, off)}"]

    def st(self, ptr: str, off: int, s: str) -> list[str]:
        return [f"{self.m(ptr, off)} = {s}"]

    def op(self, d: str, a: str, o: str, b: str) -> list[str]:
        """d = a o b for o in + - * (b a register)"""
        return [f"{d} = {a} {o} {b}"] if self.scalar else [f"{self.pre} {d} = {a} {o} {b}"]

    def opm(self, d: str, a: str, o: str, ptr: str, off: int) -> list[str]:
        """d = a o mem[ptr + off]"""
        if self.scalar:
            return self.ld("tv", ptr, off) + [f"{d} = {a} {o} tv"]
        return [f"{self.pre} {d} = {a} {o} {self.m(ptr, off)}"]

    def mulhi(self, d: str, a: str, b: str) -> list[str]:
        if self.scalar:
            return [f"{d} = {a} * {b}", f"(int64) {d} >>= {self.mulhi_shift}"]
        return [f"{self.pre} {d} = {self.mulhi_fn}({a}, {b})"]

    def sra(self, d: str, i: int) -> list[str]:
        return [f"(int64) {d} >>= {i}"] if self.scalar else [f"(int16) {self.pre} {d} >>= {i}"]

    def srl(self, d: str, i: int) -> list[str]:
        return [f"{d} >>= {i}"] if self.scalar else [f"{self.pre} {d} >>= {i}"]

    def and_(self, d: str, a: str, b: str) -> list[str]:
        return [f"{d} = {a} & {b}"]

    def bcast(self, d: str, ptr: str, off: int) -> list[str]:
        if self.scalar:
            return self.ld(d, ptr, off)
        return [f"{self.pre} {d} = {self.m(ptr, off, 16)}"]

    def zext8(self, d: str, ptr: str, off: int) -> list[str]:
        if self.scalar:
            return [f"{d} = {self.m(ptr, off, 8)}"]
        return [f"{self.pre} {d} = zeroext8({self.m(ptr, off, 8 * self.lanes)})"]

    def cld(self, d: str, name: str, value: int) -> list[str]:
        return [f"{d} = {value}"] if self.scalar else [f"{d} = {self.mem}[{name}]"]

    def zero(self, d: str) -> list[str]:
        return [f"{d} = 0"]

    def lane0zero(self, d: str) -> list[str]:
        """clear lane 0 (the coefficient j = 0 of a fold block)"""
        return [f"{d} = 0"] if self.scalar else [f"{d} &= {self.mem}[LANE0OFF]"]


ISAS: dict[str, Isa] = {
    # baseline x86-64: SSE2, 8 lanes (legacy two-operand forms)
    "amd64": Isa("amd64", 8, "reg128", "stack128", "", "int64", 8, pack="packs16", pairs=True),
    "amd64-avx2": Isa("amd64-avx2", 16, "reg256", "stack256", "avx2", "int64", 8, maddubs=True, maddwd=True,
                        m3_levels=3),
    # AVX-512BW: 32 lanes, 32 registers; bytes by vpmovwb
    "amd64-avx512": Isa("amd64-avx512", 32, "reg512", "stack512", "avx512bw avx512vl", "int64", 8,
                        nregs=32, pack="truncate8", maddubs=True),
    # i386 with SSE2: 8 xmm registers
    "x86-sse2": Isa("x86-sse2", 8, "reg128", "stack128", "sse2", "int32", 4, nregs=8, pack="packs16"),
    # 64-bit integer code (one lane) on the big-endian cross targets; their
    # frames are too small for the work area, which the caller passes
    "ppc64": Isa("ppc64", 1, "int64", "stack64", "", "int64", 8, nregs=17, pack="bytes",
                 imm_max=32767, big_endian=True, unroll=8, work_arg=True),
    "sparc64": Isa("sparc64", 1, "int64", "stack64", "", "int64", 8, nregs=15, pack="bytes",
                   imm_max=4095, big_endian=True, unroll=8, work_arg=True),
    # AltiVec: 8 lanes, 32 registers; vmhaddshs is the multiply-high (a
    # shift of 15: the constants are proved for it), vmladduhm multiplies
    # and adds; 32 KB displacements, so the work area is an argument
    "ppc32-altivec": Isa("ppc32-altivec", 8, "reg128", "stack128", "altivec", "int32", 4, nregs=32,
                         mulhi_shift=15, pack="packs16", imm_max=32767, big_endian=True,
                         work_arg=True, valign=True, mulhi_fn="mulhis15", msum=True),
}


def impl_id(impl: str) -> str:
    return impl.replace("-", "_")


def generated_path(impl: str, p: int, fn: str) -> str:
    return f"{GENERATED}/ntruprime_{fn}_{impl_id(impl)}_{p}.q"


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


def make_m3off(hmax: int, mh: int) -> int:
    """The mod-3 offset for folded values |c| <= 3*hmax, proved on the range."""
    m3off = 3 * ((3 * hmax) // 3 + 1) + 1
    for c in range(-3 * hmax, 3 * hmax + 1):
        assert mod3(c, m3off, mh) == freeze(c, 3), c
    return m3off


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
    m3off = make_m3off(p, mh)
    return Consts(p, q, mh, bv, bs, dig, dc, dw, fmax, d0max, d1max, red_max, m3off, h0red)


# ------------------------------------------------------- Karatsuba shape
def macs(S: int, L: int) -> int:
    """Vector multiply-adds of the S x S base case (windows that touch a)."""
    n = 0
    for k in range(2 * S // L):
        lo, hi = max(0, k * L - S + 1), min(S - 1, k * L + L - 1)
        n += max(0, hi - lo + 1)
    return n


def shape(p: int, L: int, nregs: int = 16, areg: bool = False) -> tuple[int, int]:
    """(levels d, base size S) with S*2^d >= p, S a multiple of L, minimising
    an estimate: base multiply-adds plus the per-level linear work.  The
    base case keeps 2S/L accumulators, a broadcast and two scratch
    registers live, so that many must fit in nregs."""
    best = None
    for d in range(1, 9):
        S = -(-p // (L << d))
        S *= L
        # base_products_regs keeps a (S/L vectors) in registers as well
        if (3 * S // L + 4 if areg else 2 * S // L + 3) > nregs:
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

    def __call__(self, s: str | list[str]) -> None:
        if isinstance(s, list):
            self.lines.extend(s)
        else:
            self.lines.append(s)

    def label(self, base: str) -> str:
        self.labels += 1
        return f"{base}{self.labels}"


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
    """The two functions for one (impl, p, q)."""

    def __init__(self, isa: Isa, p: int, q: int, fn: str = "mult") -> None:
        self.isa = isa
        self.p, self.q = p, q
        self.L = isa.lanes
        self.d, self.S = shape(p, self.L, isa.nregs, isa.valign)
        self.c = make_consts(p, q, isa.mulhi_shift)
        mh = isa.mulhi_shift
        c = self.c
        self.wide = isa.maddwd and fn == "mult"
        if self.wide:
            self.d = 3
            self.S = -(-p // (self.L << self.d)) * self.L
            self.wide_consts()
        self.N = self.S << self.d
        self.cv = {"ONES": 1, "THREE": 3, "M3OFF": c.m3off, "M3MUL": (1 << mh) // 3 + 1,
                   "BV": c.bv, "QQ": c.q, "BRND": 1 << (c.bs - 1), "DC": c.dc, "DIG": c.dig,
                   "DHALF": c.dig // 2, "DW": c.dw}
        # R/3 on byte products (Isa.maddubs): f in {-1,0,1} (signed bytes),
        # g reduced to {0,1,2} (unsigned bytes); after d evaluation levels
        # |f'| <= 2^d, 0 <= g' <= 2^(d+1); a pair sum must not saturate;
        # |h| <= 2p, so the fold is <= 6p for the mod-3 step
        self.bytes8 = isa.maddubs and fn == "mult3"
        if self.bytes8 and isa.m3_levels:
            self.d = isa.m3_levels
            self.S = -(-p // (self.L << self.d)) * self.L
            assert 2 * self.S // self.L + 2 <= isa.nregs
            self.N = self.S << self.d
        if self.bytes8:
            amax, bmax = 1 << self.d, 2 << self.d
            assert amax <= 127 and bmax <= 255 and 2 * amax * bmax <= 32767 and 2 * p <= 32767
            self.cv["M3OFF"] = make_m3off(2 * p, mh)
            self.cv["LO8"] = 255
        if self.wide:
            self.cv["C65"], self.cv["DW65"] = self.c65, self.dw65
        self.pairsum = isa.pairs or (isa.msum and fn == "mult")
        if self.pairsum:
            self.pair_shape(fn)
            if fn == "mult":
                self.cv["C65"], self.cv["DW65"] = self.c65, self.dw65

    def pair_shape(self, fn: str) -> None:
        """(d, S) and the proved bounds of the pmaddwd products (Isa.pairs).
        Base: 2S/4 accumulators of 32-bit lanes, lane n the sum over even j
        of a_(n-j) b_j + a_(n-j-1) b_(j+1) (S products of int16 operands).
        R/3: |f'| <= 2^d, |g'| <= 2^d, so a lane is at most S 4^d, which
        must be an int16 (packs32 is then exact).  R/q: f reduced mod q
        (|f| <= fmax), and its evaluation inputs reduced again (Barrett) at
        level self.rl so that the base operands fmax 2^(d - rl) are int16;
        the 32-bit values are bounded level by level (exact products below
        the reduction, at most four terms per interpolation output above
        it), folded, and reduced once: barrett(lo) + (2^16 mod q) hi mod q."""
        p, L, c, mh = self.p, self.L, self.c, self.isa.mulhi_shift
        if fn == "mult3":
            for d in range(5, 0, -1):
                S = -(-p // (L << d)) * L
                if S * 4 ** d <= 32767:
                    break
            assert S * 4 ** d <= 32767 and p <= 32767
            self.d, self.S, self.N = d, S, S << d
            return
        d = 5
        S = -(-p // (L << d)) * L
        N = S << d
        fmax = c.fmax
        rl = 0
        while fmax << (d - rl) > 32767:
            rl += 1
        assert rl == 0 or fmax << rl <= 32767        # the inputs of the reducing level are int16
        amax = {l: fmax << (l - rl) for l in range(rl, d + 1)}
        B = {l: (N >> l) * amax[l] * (1 << l) for l in range(rl, d + 1)}   # exact products
        for l in range(d - 1, -1, -1):
            assert 4 * B[l + 1] <= 2 ** 31 - 1        # every partial sum of the interpolation
            B[l] = min(B[l], 4 * B[l + 1]) if l in B else 4 * B[l + 1]
        xmax = 3 * B[0]                               # the fold
        assert xmax <= 2 ** 31 - 1
        q, bt = self.q, (self.q, c.bv, c.bs, mh)
        himax = (xmax + 32768) // 65536
        assert himax <= 32767                         # packs32 of hi is exact
        c65 = 65536 % q
        c65 = c65 - q if c65 > q // 2 else c65
        dw = round(c65 * (1 << mh) / q)
        assert abs(dw) < 1 << 15
        rmax = 0
        for hi in range(-himax, himax + 1):
            r = mulB(hi, c65, dw, q, mh)
            assert r == c65 * hi - q * mulhi(hi, dw, mh) and (r - c65 * hi) % q == 0
            rmax = max(rmax, abs(r))
        assert fmax + rmax <= 32767
        for x in range(-(fmax + rmax), fmax + rmax + 1):
            assert barrett(x, bt) == freeze(x, q), x
        self.d, self.S, self.N, self.rl = d, S, N, rl
        self.c65, self.dw65 = c65, dw

    def wide_consts(self) -> None:
        """Bounds of the maddwd R/q product (Isa.maddwd), proved here: f
        reduced (|f| <= fmax) and g in {-1,0,1} after d evaluation levels
        are int16; an S x S base product is an int32; a 32-bit value x =
        lo + 2^16 hi (lo = x's low half, signed) is barrett(barrett(lo) +
        (2^16 mod q) hi) mod q, in int16 lanes (|.| <= fmax); one
        interpolation output adds four such values; the fold adds three."""
        c, d, S, q, mh = self.c, self.d, self.S, self.q, self.isa.mulhi_shift
        bt = (q, c.bv, c.bs, mh)
        amax = c.fmax << d
        assert amax <= 32767
        xmax = S * amax * (1 << d)
        assert xmax < 2 ** 31
        himax = (xmax + 32768) // 65536
        c65 = 65536 % q
        c65 = c65 - q if c65 > q // 2 else c65   # centred: round(c65 2^mh / q) is an int16
        assert abs(round(c65 * (1 << mh) / q)) < 1 << 15
        dw = round(c65 * (1 << mh) / q)
        rmax = 0
        for hi in range(-himax, himax + 1):
            r = mulB(hi, c65, dw, q, mh)
            assert r == c65 * hi - q * mulhi(hi, dw, mh) and (r - c65 * hi) % q == 0
            rmax = max(rmax, abs(r))
        assert c.fmax + rmax <= 32767 and 4 * c.fmax <= 32767
        for x in range(-3 * c.fmax, 3 * c.fmax + 1):
            assert barrett(x, bt) == freeze(x, q), x
        self.c65, self.dw65 = c65, dw

    # -- helpers emitting code --------------------------------------------
    def addr(self, e: Q, reg: str, base: str, off: int) -> None:
        """reg = base + off (through a register when off is out of range)"""
        if off == 0:
            e(f"{reg} = {base}")
        elif off <= self.isa.imm_max:
            e(f"{reg} = {base} + {off}")
        else:
            e(f"{reg} = {off}")
            e(f"{reg} = {base} + {reg}")

    def cld(self, e: Q, d: str, name: str) -> None:
        if self.isa.valign:
            e(f"{d} = mem{16 * self.L}[w + {self.koff(name)}]")
            return
        e(self.isa.cld(d, name, self.cv[name]))

    def knames(self) -> list[str]:
        return list(self.cv) + ["LANE0OFF"] + (["LANE0OFF32"] if self.pairsum else [])

    def koff(self, name: str) -> int:
        """offset of a constant vector in the work area (valign targets)"""
        return self.knames().index(name) * self.isa.vbytes

    def build_consts(self, e: Q) -> None:
        """valign targets: every constant vector at the start of the work
        area, stored by halfwords"""
        for name in self.knames():
            vals = ([0] + [65535] * (self.L - 1) if name == "LANE0OFF" else
                    [0, 0] + [65535] * (self.L - 2) if name == "LANE0OFF32" else [self.cv[name]] * self.L)
            base = self.koff(name)
            last = None
            for k, v in enumerate(vals):
                v = v - 65536 if v >= 32768 else v
                if v != last:
                    e(f"t0 = {v}")
                    last = v
                e(f"mem16[w + {base + 2 * k}] = t0")

    def ldu(self, e: Q, d: str, tmp: str, ptr: str, off: int, mis: int) -> None:
        """d = the vector at ptr + off, where ptr + off is mis bytes past a
        16-byte boundary (valign: two aligned loads and a byte shift)"""
        if not mis:
            e(self.isa.ld(d, ptr, off))
            return
        e(self.isa.ld(d, ptr, off - mis))
        e(self.isa.ld(tmp, ptr, off - mis + 16))
        e(f"{d} = shiftleftbytes({d}, {tmp}, {mis})")

    def loop(self, e: Q, count: int, body, ptrs: list[tuple[str, int]], ctr: str = "i0") -> None:
        """count iterations of body(); after each, ptr += step."""
        if count <= 0:
            return
        if count == 1:
            body()
            return
        lab = e.label("loop")
        e(f"{ctr} = {count}")
        e(f"{lab}:")
        body()
        for ptr, step in ptrs:
            self.bump(e, ptr, step)
        e(f"{ctr} = {ctr} - 1")
        e(f"=? {ctr} - 0")
        e(f"goto {lab} if !=")

    def bump(self, e: Q, ptr: str, step: int) -> None:
        if step <= self.isa.imm_max:
            e(f"{ptr} = {ptr} + {step}")
        else:
            e(f"t1 = {step}")
            e(f"{ptr} = {ptr} + t1")

    def vpass(self, e: Q, count: int, steps: list[tuple[str, int]], body, ctr: str = "i1") -> None:
        """body(u) for u = 0 .. count-1, unrolled isa.unroll times inside a
        loop: body addresses ptr + u*step; the pointers (already set) advance
        by unroll*step per iteration."""
        U = min(self.isa.unroll, count)
        if U <= 0:
            return
        loops, rem = divmod(count, U)
        if loops == 1:
            for u in range(count):
                body(u)
            return

        def group() -> None:
            for u in range(U):
                body(u)
        self.loop(e, loops, group, [(p, U * s) for p, s in steps], ctr)
        for u in range(rem):
            body(u)

    def copy_bytes(self, e: Q, dst: str, src: str, n: int) -> None:
        """n bytes from src to dst (pointer registers): whole vectors, then
        the widest scalars."""
        if self.isa.scalar or self.isa.valign:
            def one(u: int) -> None:
                e(f"t0 = {self.isa.m(src, u, 8)}")
                e(f"{self.isa.m(dst, u, 8)} = t0")
            e(f"qa = {src}")
            e(f"qb = {dst}")
            src, dst = "qa", "qb"
            self.vpass(e, n, [("qa", 1), ("qb", 1)], one)
            return
        vb = self.isa.vbytes
        i = 0
        if vb:
            while i + vb <= n:
                e(f"x0 = {self.isa.m(src, i)}")
                e(f"{self.isa.m(dst, i)} = x0")
                i += vb
        for w in (8, 4, 2, 1):
            if w > self.isa.word:
                continue
            while i + w <= n:
                e(f"t0 = {self.isa.m(src, i, 8 * w)}")
                e(f"{self.isa.m(dst, i, 8 * w)} = t0")
                i += w

    def zero_bytes(self, e: Q, dst: str, n: int) -> None:
        """n bytes (a multiple of the vector size) of zeros at dst."""
        vb = self.isa.vbytes
        assert n % vb == 0
        if not n:
            return
        e(self.isa.zero("z0"))
        self.vpass(e, n // vb, [(dst, vb)], lambda u: e(self.isa.st(dst, u * vb, "z0")))

    def evaluate(self, e: Q, src: int, cnt: int, n: int, dst: int, last: bool, reduce: bool = False) -> None:
        """Karatsuba evaluation: cnt polys of n coefficients at w+src become
        3*cnt polys of n/2 at w+dst (0, 1, infinity).  The last a-level is
        written into padded slots (stride 2*(n/2), data in the upper half,
        zeros in the lower half).  reduce: both halves by barrett first
        (x6 = BV, x7 = Q)."""
        I = self.isa
        vb = I.vbytes
        h = n // 2
        hb = 2 * h
        slot = 2 * hb if last else hb
        base = hb if last else 0
        self.addr(e, "pa", "w", src)
        self.addr(e, "pb", "w", dst)
        if last:
            e(I.zero("z0"))

        def inner(u: int) -> None:
            v = u * vb
            e(I.ld("x0", "qa", v))
            e(I.ld("x1", "qb", v))
            if reduce:
                self.barrett(e, "x0", "x2")
                self.barrett(e, "x1", "x3")
            e(I.st("qc", base + v, "x0"))
            e(I.st("qc", 2 * slot + base + v, "x1"))
            e(I.op("x0", "x0", "+", "x1"))
            e(I.st("qc", slot + base + v, "x0"))
            if last:
                for s in range(3):
                    e(I.st("qc", s * slot + v, "z0"))

        def body() -> None:
            e("qa = pa")
            self.addr(e, "qb", "pa", hb)
            e("qc = pb")
            self.vpass(e, hb // vb, [("qa", vb), ("qb", vb), ("qc", vb)], inner)
        self.loop(e, cnt, body, [("pa", 2 * n), ("pb", 3 * slot)])

    def base_products(self, e: Q, aoff: int, boff: int, coff: int, count: int, K: int = 1) -> None:
        """count S x S products: a in padded slots (stride 4S bytes, data at
        +2S), b contiguous (stride 2S bytes), c contiguous (stride 4S).
        With K > 1, K products share each b (the K a-slot arrays and the K
        result arrays follow each other at count*4S bytes): one broadcast
        of b_j feeds K*2S/L accumulators."""
        I = self.isa
        S, L = self.S, self.L
        nb = 2 * S // L
        far = count * 4 * S
        self.addr(e, "pa", "w", aoff)
        self.addr(e, "pb", "w", boff)
        self.addr(e, "pc", "w", coff)

        def body() -> None:
            first = [True] * (K * nb)
            for j in range(S):
                e(I.bcast("x0", "pb", 2 * j))
                for kk in range(K):
                    for k in range(nb):
                        if not (k * L - S + 1 <= j <= k * L + L - 1):
                            continue
                        off = kk * far + 2 * (S + k * L - j)
                        acc = f"a{kk * nb + k}"
                        if first[kk * nb + k]:
                            e(I.opm(acc, "x0", "*", "pa", off))
                            first[kk * nb + k] = False
                        else:
                            e(I.opm("x1", "x0", "*", "pa", off))
                            e(I.op(acc, acc, "+", "x1"))
            for kk in range(K):
                for k in range(nb):
                    acc = f"a{kk * nb + k}"
                    if first[kk * nb + k]:      # coefficient 2S-1 of a one-lane base
                        e(I.zero(acc))
                    e(I.st("pc", kk * far + 2 * k * L, acc))
        self.loop(e, count, body, [("pa", 4 * S), ("pb", 2 * S), ("pc", 4 * S)])

    def pairs(self, e: Q, src: int, dst: int, nv: int, back: bool) -> None:
        """nv vectors of byte pairs at w+dst from the 16-bit lanes v at
        w+src: lane j = lo8(v_j) | v_(j-1) << 8 (back: the windows of
        base_products_bytes) or v_j | v_(j+1) << 8 (v_j in 0..255: the
        broadcast pairs)."""
        I = self.isa
        vb = I.vbytes
        self.addr(e, "pa", "w", src)
        self.addr(e, "pb", "w", src - 2 if back else src + 2)
        self.addr(e, "pc", "w", dst)
        if back:
            self.cld(e, "x7", "LO8")

        def one(u: int) -> None:
            v = u * vb
            e(I.ld("x0", "pa", v))
            e(I.ld("x1", "pb", v))
            if back:
                e(I.and_("x0", "x0", "x7"))
            e(f"{I.pre} x1 = x1 << 8")
            e(I.op("x0", "x0", "+", "x1"))
            e(I.st("pc", v, "x0"))
        self.vpass(e, nv, [("pa", vb), ("pb", vb), ("pc", vb)], one)

    def base_products_bytes(self, e: Q, aoff: int, boff: int, coff: int, count: int) -> None:
        """base_products on byte pairs: a's slots as windows W_m = (a_m,
        a_(m-1)) (signed bytes, stride 4S bytes, data at +2S), b as pairs
        (b_j, b_(j+1)) at even j (unsigned bytes, stride 2S): lane n of
        maddubs(pair_j, window at n - j) is a_(n-j) b_j + a_(n-j-1) b_(j+1),
        so S/2 broadcasts of 2L products per window.  W_m is zero outside
        m = 0..S (the zero halves of the slots).

        Order (window reuse): the pairs j = L*u + r (u = 0 .. S/L - 1) of one
        class r are broadcast into registers once; accumulator k needs the
        window at L*(k - u) - r, so one window load (into a register) feeds
        every (k, u) with k - u fixed: about half the loads of one window
        load per product, and fewer cache-line splits.  The accumulators
        are done in chunks so that chunk + pairs + window + product fit."""
        I = self.isa
        S, L = self.S, self.L
        nb = 2 * S // L
        nu = -(-S // L)
        room = I.nregs - 2 - nu
        assert room >= 1
        nch = -(-nb // room)
        G = -(-nb // nch)
        self.addr(e, "pa", "w", aoff)
        self.addr(e, "pb", "w", boff)
        self.addr(e, "pc", "w", coff)

        def live(k: int, j: int) -> bool:
            # the window of (k, j) touches a's data
            return j < S and k * L <= j + S and k * L + L - 1 >= j

        def body() -> None:
            for k0 in range(0, nb, G):
                ks = list(range(k0, min(nb, k0 + G)))
                first = {k: True for k in ks}
                for r in range(0, L, 2):
                    us = [u for u in range(nu) if any(live(k, L * u + r) for k in ks)]
                    for u in us:
                        e(I.bcast(f"x{u}", "pb", 2 * (L * u + r)))
                    # windows by m = k - u, each loaded once
                    for m in range(ks[0] - max(us or [0]), ks[-1] + 1):
                        uses = [(m + u, u) for u in us if m + u in first and live(m + u, L * u + r)]
                        if not uses:
                            continue
                        off = 2 * (S + L * m - r)
                        e(I.ld("z0", "pa", off))
                        for k, u in uses:
                            acc = f"a{k - k0}"
                            if first[k]:
                                e(f"{I.pre} {acc} = maddubs(x{u}, z0)")
                                first[k] = False
                            else:
                                e(f"{I.pre} x{nu} = maddubs(x{u}, z0)")
                                e(I.op(acc, acc, "+", f"x{nu}"))
                for k in ks:
                    if first[k]:
                        e(I.zero(f"a{k - k0}"))
                    e(I.st("pc", 2 * k * L, f"a{k - k0}"))
        self.loop(e, count, body, [("pa", 4 * S), ("pb", 2 * S), ("pc", 4 * S)])

    def wide_base(self, e: Q, lay: Layout, aoff: int, boff: int, coff: int, count: int) -> None:
        """The maddwd base products (Isa.maddwd): windows W_m = (a_m,
        a_(m-1)) as 32-bit lanes (two int16) built from a's padded slots,
        pairs (b_j, b_(j+1)) at even j broadcast as 32-bit lanes straight
        from b; lane n of maddwd(pair_j, window at n - j) is a_(n-j) b_j +
        a_(n-j-1) b_(j+1).  2S/8 accumulators of 32-bit lanes, in chunks
        that fit the registers; then each 32-bit product reduced to int16
        mod q at w+coff (16-bit, stride 4S bytes)."""
        I = self.isa
        S = self.S
        wa, c32 = lay.off["W32"], lay.off["C32"]
        # windows of one product, built in W32 (stays in L1):
        # W32[pos] = a[pos] | a[pos-1] << 16 for pos = S .. 2S+7 (a's data
        # and the zeros after it: the next slot's lower half, or the zeros
        # after the last slot)

        def windows() -> None:
            for v in range(S // 8 + 1):
                pos = S + 8 * v
                e(f"8x x0 = zeroext16({I.m('qc', 2 * pos, 128)})")
                e(f"8x x1 = zeroext16({I.m('qc', 2 * pos - 2, 128)})")
                e("8x x1 = x1 << 16")
                e("8x x0 = x0 + x1")
                e(I.st("pa", 4 * pos, "x0"))
        # Aligned windows: the pair (b_j, b_(j+1)) with j = 8u + r (r = 0, 2,
        # 4, 6) goes to accumulator set r, whose accumulator k has lanes
        # c = 8k + r + n (n = 0..7), k = -1 .. 2S/8 - 1 (k = -1 only for
        # r > 0); its window is then at 4(S + 8(k - u)), a multiple of 32
        # (4S is), so no window load splits a cache line.  Set r of a
        # product is stored at C32 + product*cstride + (r/2)*sstride, lane c
        # at dword c - r + 8; the conversion adds the four sets.
        nacc = 2 * S // 8
        chunk = I.nregs - 3
        sstride = 4 * (2 * S + 8)
        cstride = 4 * sstride
        self.addr(e, "pa", "w", wa)
        self.addr(e, "pb", "w", boff)
        self.addr(e, "pc", "w", c32)

        def body() -> None:
            for r in range(0, 8, 2):
                kmin = -1 if r else 0
                for k0 in range(kmin, nacc, chunk):
                    ks = range(k0, min(nacc, k0 + chunk))
                    first = {k: True for k in ks}
                    for j in range(r, S, 8):
                        u = (j - r) // 8
                        touched = [k for k in ks if 0 <= k - u <= S // 8]
                        if not touched:
                            continue
                        e(f"8x x0 = {I.m('pb', 2 * j, 32)}")
                        for k in touched:
                            off = 4 * (S + 8 * (k - u))
                            assert off % 32 == 0
                            acc = f"a{k - k0}"
                            if first[k]:
                                e(f"8x {acc} = maddwd(x0, {I.m('pa', off)})")
                                first[k] = False
                            else:
                                e(f"8x x1 = maddwd(x0, {I.m('pa', off)})")
                                e(f"8x {acc} = {acc} + x1")
                    for k in ks:
                        if first[k]:
                            e(I.zero(f"a{k - k0}"))
                        e(I.st("pc", (r // 2) * sstride + 32 * (k + 1), f"a{k - k0}"))
        def conv(u: int) -> None:
            for x, c0 in (("a0", 16 * u), ("a1", 16 * u + 8)):
                e(I.ld(x, "qa", 4 * (c0 + 8)))
                for r in range(2, 8, 2):
                    e(f"8x {x} = {x} + {I.m('qa', (r // 2) * sstride + 4 * (c0 - r + 8))}")
            for x, lo in (("a0", "a2"), ("a1", "a3")):
                e(f"8x {lo} = {x} << 16")
                e(f"(int32) 8x {lo} = {lo} >> 16")
                e(f"8x {x} = {x} - {lo}")
                e(f"(int32) 8x {x} = {x} >> 16")
            e("a2 = packs32(a2, a3)")
            e("a2 = permute64(a2, 0xd8)")
            e("a0 = packs32(a0, a1)")
            e("a0 = permute64(a0, 0xd8)")
            self.barrett(e, "a2", "a3")
            e(I.mulhi("a1", "a0", "x5"))
            e(I.op("a0", "a0", "*", "x4"))
            e(I.op("a1", "a1", "*", "x7"))
            e(I.op("a0", "a0", "-", "a1"))
            e(I.op("a0", "a0", "+", "a2"))
            self.barrett(e, "a0", "a3")
            e(I.st("qb", 32 * u, "a0"))

        def product() -> None:
            # its windows, the four sets, then their conversion (all in L1)
            windows()
            body()
            for r, cname in (("x4", "C65"), ("x5", "DW65"), ("x6", "BV"), ("x7", "QQ")):
                self.cld(e, r, cname)
            e("qa = pc")
            e("qb = qd")
            self.vpass(e, 2 * S // 16, [("qa", 64), ("qb", 32)], conv)
        self.addr(e, "qc", "w", aoff)
        self.addr(e, "qd", "w", coff)
        self.loop(e, count, product, [("qc", 4 * S), ("pb", 2 * S), ("qd", 4 * S)])

    def pair_base(self, e: Q, lay: Layout, aoff: int, boff: int, coff: int, count: int, wide: bool) -> None:
        """count S x S products on SSE2's pmaddwd (Isa.pairs): a in padded
        slots (stride 4S bytes, data at +2S), b contiguous (stride 2S).
        Per product, the windows W_m = (a_m, a_(m-1)) for m = -4 .. S+5 as
        32-bit lanes (punpcklwd/punpckhwd of a and a shifted by one) go to
        the L1 scratch W4, twice (starting at m = -4 and at m = -2, so that
        every window load is aligned and forwarded from one store); the
        pair (b_j, b_(j+1)) at even j is one dword (movd, pshufd); lane n of maddwd(window at n - j, pair) is
        a_(n-j) b_j + a_(n-j-1) b_(j+1).  2S/4 accumulators (in chunks that
        fit with the pair and one product); wide: 32-bit lanes, else
        packed to int16 (pair_shape proves the sums are int16).  The first
        interpolation level is fused in: the three products of a group go
        to the L1 scratch T3 and are interpolated from there to w+coff
        (count/3 products of 4S coefficients), so the base products never
        make a pass through L2."""
        I = self.isa
        S = self.S
        nacc = 2 * S // 4
        chunk = I.nregs - 2
        nch = -(-nacc // chunk)
        G = -(-nacc // nch)
        G += G % 2
        wo = lay.off["W4"]
        self.addr(e, "pa", "w", aoff)
        self.addr(e, "pb", "w", boff)
        self.addr(e, "pc", "w", coff)
        self.addr(e, "qd", "w", wo)
        self.addr(e, "qa", "w", lay.off["T3"])
        esz = 4 if wide else 2
        mb = esz * S          # bytes of S coefficients

        def woff(m0: int) -> int:
            # the window vector W_m0 .. W_(m0+3): a 16-byte aligned copy
            # for either parity of m0/2 (a load spanning two of the stores
            # just made cannot be forwarded: measured 17% of the R/q kernel)
            return 4 * (m0 + 4) if m0 % 4 == 0 else 4 * (S + 8) + 4 * (m0 + 2)

        def base(g: int) -> None:
            ao, bo, co = g * 4 * S, g * 2 * S, g * 2 * mb
            for t in range((S + 8) // 8):
                for m in (-4 + 8 * t, -2 + 8 * t):
                    e(I.ld("x0", "pa", ao + 2 * (S + m)))
                    e(I.ld("x1", "pa", ao + 2 * (S + m - 1)))
                    e("x2 = x0")
                    e("x0 = unpacklo16(x0, x1)")
                    e("x2 = unpackhi16(x2, x1)")
                    e(I.st("qd", woff(m), "x0"))
                    e(I.st("qd", woff(m + 4), "x2"))
            for k0 in range(0, nacc, G):
                ks = list(range(k0, min(nacc, k0 + G)))
                first = {k: True for k in ks}
                for j in range(0, S, 2):
                    touched = [k for k in ks if 4 * k - j + 3 >= 0 and 4 * k - j <= S]
                    if not touched:
                        continue
                    e(f"x0 = mem32[pb + {bo + 2 * j}]" if bo + j else "x0 = mem32[pb]")
                    e("x0 = shuffle32(x0, 0)")
                    for k in touched:
                        off = woff(4 * k - j)
                        acc = f"a{k - k0}"
                        if first[k]:
                            e(I.ld(acc, "qd", off))
                            e(f"4x {acc} = maddwd({acc}, x0)")
                            first[k] = False
                        else:
                            e(I.ld("x1", "qd", off))
                            e("4x x1 = maddwd(x1, x0)")
                            e(f"4x {acc} += x1")
                for k in ks:
                    if first[k]:
                        e(I.zero(f"a{k - k0}"))
                if wide:
                    for k in ks:
                        e(I.st("qa", co + 16 * k, f"a{k - k0}"))
                else:
                    for k in ks[::2]:
                        e(f"a{k - k0} = packs32(a{k - k0}, a{k - k0 + 1})")
                        e(I.st("qa", co + 8 * k, f"a{k - k0}"))

        def body() -> None:
            for g in range(3):
                base(g)
            self.t3_interp(e, mb, "4x" if wide else "8x")
        assert count % 3 == 0
        self.loop(e, count // 3, body, [("pa", 12 * S), ("pb", 6 * S), ("pc", 4 * mb)])

    def upd(self, pre: str, d: str, o: str, s: str) -> str:
        """d = d o s: the legacy two-operand form, or (valign) three operands"""
        return f"{pre} {d} = {d} {o} {s}" if self.isa.valign else f"{pre} {d} {o}= {s}"

    def msum_regs(self) -> tuple[int, int]:
        """msum_base's windows (m0 = -2, 0, ..., S) and accumulators per chunk"""
        S = self.S
        nwin, nacc = S // 2 + 2, S // 2
        avail = self.isa.nregs - 3 - nwin
        nch = -(-nacc // avail)
        return nwin, -(-nacc // nch)

    def msum_base(self, e: Q, aoff: int, boff: int, coff: int, count: int, t3: int) -> None:
        """count S x S products on AltiVec's vmsumshm (Isa.msum): a in
        padded slots (stride 4S bytes, data at +2S), b contiguous (stride
        2S).  Per product, the windows (W_m0 .. W_m0+3), W_m = (a_m, a_(m-1))
        as 32-bit lanes, for m0 = -2, 0, 2, .., S, are built in registers
        from E_q = (a_8q .. a_8q+7) (zero outside a): for m0 = 8q, 8q+4
        vmrghh/vmrglh of E_q and (a_8q-1 ..) (a vsldoi); for m0 = 8q+2,
        8q+6 of (a_8q+2 ..) and (a_8q+1 ..).  The pair (b_j, b_(j+1)), j
        even, is vspltw of the aligned vector holding it; accumulator k
        (32-bit lanes, coefficients 4k .. 4k+3) += vmsumshm(window at 4k -
        j, pair).  The first interpolation level is fused in as in
        pair_base (the three products of a group in the scratch t3)."""
        I = self.isa
        S = self.S
        assert S % 8 == 0
        nacc = S // 2
        nwin, G = self.msum_regs()
        ne = S // 8
        mb = 4 * S
        self.addr(e, "pa", "w", aoff)
        self.addr(e, "pb", "w", boff)
        self.addr(e, "pc", "w", coff)
        self.addr(e, "qa", "w", t3)
        e(I.zero("z0"))

        def E(q: int) -> str:
            return f"e{q}" if 0 <= q < ne else "z0"

        def W(m0: int) -> str:
            return f"w{(m0 + 2) // 2}"

        def base(g: int) -> None:
            ao, bo, co = g * 4 * S, g * 2 * S, g * 2 * mb
            for q in range(ne):
                e(I.ld(f"e{q}", "pa", ao + 2 * S + 16 * q))
            for q in range(ne + 1):
                e(f"x1 = shiftleftbytes({E(q - 1)}, {E(q)}, 14)")
                e(f"{W(8 * q)} = unpacklo16({E(q)}, x1)")
                if 8 * q + 4 <= S:
                    e(f"{W(8 * q + 4)} = unpackhi16({E(q)}, x1)")
            for q in range(-1, ne):
                e(f"x0 = shiftleftbytes({E(q)}, {E(q + 1)}, 4)")
                e(f"x1 = shiftleftbytes({E(q)}, {E(q + 1)}, 2)")
                if q >= 0:
                    e(f"{W(8 * q + 2)} = unpacklo16(x0, x1)")
                e(f"{W(8 * q + 6)} = unpackhi16(x0, x1)")
            for k0 in range(0, nacc, G):
                ks = list(range(k0, min(nacc, k0 + G)))
                first = {k: True for k in ks}
                for j in range(0, S, 2):
                    touched = [k for k in ks if -2 <= 4 * k - j <= S]
                    if j % 8 == 0:
                        e(I.ld("x2", "pb", bo + 2 * j))
                    if not touched:
                        continue
                    e(f"4x x0 = x2[{(j % 8) // 2}]")
                    for k in touched:
                        acc = f"a{k - k0}"
                        e(f"4x {acc} = {'z0' if first[k] else acc} + maddwd({W(4 * k - j)}, x0)")
                        first[k] = False
                for k in ks:
                    if first[k]:
                        e(I.zero(f"a{k - k0}"))
                    e(I.st("qa", co + 16 * k, f"a{k - k0}"))

        def body() -> None:
            for g in range(3):
                base(g)
            self.t3_interp(e, mb, "4x")
        assert count % 3 == 0
        self.loop(e, count // 3, body, [("pa", 12 * S), ("pb", 6 * S), ("pc", 4 * mb)])

    def t3_interp(self, e: Q, mb: int, pre: str) -> None:
        """the three products (mb bytes per half) at qa interpolated to pc:
        out = P0 + x^S (P1 - P0 - P2) + x^2S P2 (as interpolate)"""
        I = self.isa
        for v in range(0, mb, 16):
            e(I.ld("x0", "qa", v))              # P0 lo
            e(I.ld("x1", "qa", mb + v))         # P0 hi
            e(I.ld("x2", "qa", 4 * mb + v))     # P2 lo
            e(I.ld("x3", "qa", 5 * mb + v))     # P2 hi
            e(I.st("pc", v, "x0"))
            e(I.st("pc", 3 * mb + v, "x3"))
            e(self.upd(pre, "x1", "-", "x2"))
            e(I.ld("x5", "qa", 2 * mb + v))
            e(self.upd(pre, "x5", "-", "x0"))
            e(self.upd(pre, "x5", "+", "x1"))
            e(I.st("pc", mb + v, "x5"))
            e(I.ld("x5", "qa", 3 * mb + v))
            e(self.upd(pre, "x5", "-", "x3"))
            e(self.upd(pre, "x5", "-", "x1"))
            e(I.st("pc", 2 * mb + v, "x5"))

    def interpolate32(self, e: Q, src: int, cnt: int, m: int, dst: int) -> None:
        """interpolate() on 32-bit lanes (Isa.pairs R/q): cnt groups of
        three products of 2m coefficients become cnt of 4m."""
        vb = 16
        mb = 4 * m
        self.addr(e, "pa", "w", src)
        self.addr(e, "pb", "w", dst)
        I = self.isa

        def inner(u: int) -> None:
            v = u * vb
            e(I.ld("x0", "qa", v))            # P0 lo
            e(I.ld("x1", "qa", mb + v))       # P0 hi
            e(I.ld("x2", "qc", v))            # P2 lo
            e(I.ld("x3", "qc", mb + v))       # P2 hi
            e(I.st("qd", v, "x0"))
            e(I.st("qd", 3 * mb + v, "x3"))
            e(self.upd("4x", "x1", "-", "x2"))  # t = P0hi - P2lo
            e(I.ld("x5", "qb", v))
            e(self.upd("4x", "x5", "-", "x0"))
            e(self.upd("4x", "x5", "+", "x1"))  # P1lo - P0lo + t
            e(I.st("qd", mb + v, "x5"))
            e(I.ld("x5", "qb", mb + v))
            e(self.upd("4x", "x5", "-", "x3"))
            e(self.upd("4x", "x5", "-", "x1"))  # P1hi - P2hi - t
            e(I.st("qd", 2 * mb + v, "x5"))

        def body() -> None:
            e("qa = pa")
            self.addr(e, "qb", "pa", 2 * mb)
            self.addr(e, "qc", "pa", 4 * mb)
            e("qd = pb")
            self.vpass(e, mb // vb, [("qa", vb), ("qb", vb), ("qc", vb), ("qd", vb)], inner)
        self.loop(e, cnt, body, [("pa", 6 * mb), ("pb", 4 * mb)])

    def base_products_regs(self, e: Q, aoff: int, boff: int, coff: int, count: int) -> None:
        """The base products of base_products with a held in registers
        (valign targets: no misaligned loads): E_q = (a_Lq .. a_Lq+L-1) for
        q = 0 .. S/L-1 (zero outside), the window of b_j = b_(Lu+r) for
        accumulator k is E_(k-u) (r = 0) or the byte shift of
        E_(k-u-1) || E_(k-u) by 2(L-r); b_j is a lane splat of the aligned
        vector holding it; acc = window * b_j + acc in one instruction."""
        I = self.isa
        S, L = self.S, self.L
        nb, ne = 2 * S // L, S // L
        self.addr(e, "pa", "w", aoff)
        self.addr(e, "pb", "w", boff)
        self.addr(e, "pc", "w", coff)

        def E(q: int) -> str | None:
            return f"e{q}" if 0 <= q < ne else None

        def body() -> None:
            e(I.zero("z0"))
            for q in range(ne):
                e(I.ld(f"e{q}", "pa", 2 * S + I.vbytes * q))
            first = [True] * nb
            for j in range(S):
                u, r = divmod(j, L)
                if r == 0:
                    e(I.ld("x2", "pb", 2 * j))
                e(f"{I.pre} x0 = x2[{r}]")
                for k in range(nb):
                    hi, lo = E(k - u), E(k - u - 1)
                    if r == 0:
                        if hi is None:
                            continue
                        win = hi
                    else:
                        if hi is None and lo is None:
                            continue
                        e(f"x1 = shiftleftbytes({lo or 'z0'}, {hi or 'z0'}, {2 * (L - r)})")
                        win = "x1"
                    acc = f"a{k}"
                    e(f"{I.pre} {acc} = {win} * x0 + {'z0' if first[k] else acc}")
                    first[k] = False
            for k in range(nb):
                if first[k]:
                    e(I.zero(f"a{k}"))
                e(I.st("pc", 2 * k * L, f"a{k}"))
        self.loop(e, count, body, [("pa", 4 * S), ("pb", 2 * S), ("pc", 4 * S)])

    def interpolate(self, e: Q, src: int, cnt: int, m: int, dst: int, reduce: bool = False) -> None:
        """cnt groups of three products (2m coefficients each, at w+src)
        become cnt products of 4m coefficients at w+dst:
        out = P0 + x^m (P1 - P0 - P2) + x^2m P2 (reduce: the middle
        outputs by barrett, x6 = BV, x7 = Q)."""
        I = self.isa
        vb = I.vbytes
        mb = 2 * m
        self.addr(e, "pa", "w", src)
        self.addr(e, "pb", "w", dst)

        def inner(u: int) -> None:
            v = u * vb
            e(I.ld("x0", "qa", v))            # P0 lo
            e(I.ld("x1", "qa", mb + v))       # P0 hi
            e(I.ld("x2", "qc", v))            # P2 lo
            e(I.ld("x3", "qc", mb + v))       # P2 hi
            e(I.st("qd", v, "x0"))
            e(I.st("qd", 3 * mb + v, "x3"))
            e(I.op("x4", "x1", "-", "x2"))    # t = P0hi - P2lo
            e(I.ld("x5", "qb", v))
            e(I.op("x5", "x5", "-", "x0"))
            e(I.op("x5", "x5", "+", "x4"))    # P1lo - P0lo + t
            if reduce:
                self.barrett(e, "x5", "x2")
            e(I.st("qd", mb + v, "x5"))
            e(I.ld("x5", "qb", mb + v))
            e(I.op("x5", "x5", "-", "x3"))
            e(I.op("x5", "x5", "-", "x4"))    # P1hi - P2hi - t
            if reduce:
                self.barrett(e, "x5", "x2")
            e(I.st("qd", 2 * mb + v, "x5"))

        def body() -> None:
            e("qa = pa")
            self.addr(e, "qb", "pa", 2 * mb)
            self.addr(e, "qc", "pa", 4 * mb)
            e("qd = pb")
            self.vpass(e, mb // vb, [("qa", vb), ("qb", vb), ("qc", vb), ("qd", vb)], inner)
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
            nxt = lay.off[f"EA{l + 1}"]
            self.evaluate(e, ea[-1], K * 3 ** l, n, nxt, last)
            ea.append(nxt)
            nxt = lay.off[f"EB{l + 1}"]
            self.evaluate(e, eb[-1], 3 ** l, n, nxt, False)
            eb.append(nxt)
        # zeros after the last padded slot
        self.addr(e, "pa", "w", ea[-1] + K * 3 ** d * 4 * S)
        self.zero_bytes(e, "pa", 2 * S)
        cnt = 3 ** d
        if self.pairsum:
            assert K == 1
            self.pair_base(e, lay, ea[-1], eb[-1], lay.off[f"C{d - 1}"], cnt, False)
        elif self.wide:
            assert K == 1
            self.wide_base(e, lay, ea[-1], eb[-1], lay.off[f"C{d}"], cnt)
        elif self.bytes8:
            assert K == 1 and (cnt * 4 * S + 2 * S) % self.isa.vbytes == 0
            wa, bw = lay.off["WA"], lay.off["BW"]
            self.pairs(e, ea[-1], wa, (cnt * 4 * S + 2 * S) // self.isa.vbytes, True)
            self.pairs(e, eb[-1], bw, cnt * 2 * S // self.isa.vbytes, False)
            self.base_products_bytes(e, wa, bw, lay.off[f"C{d}"], cnt)
        elif self.isa.valign:
            for kk in range(K):
                self.base_products_regs(e, ea[-1] + kk * cnt * 4 * S, eb[-1], lay.off[f"C{d}"] + kk * cnt * 4 * S, cnt)
        elif K * 2 * S // self.L + 3 <= self.isa.nregs and self.isa.imm_max >= K * cnt * 4 * S:
            self.base_products(e, ea[-1], eb[-1], lay.off[f"C{d}"], cnt, K)
        else:
            for kk in range(K):
                self.base_products(e, ea[-1] + kk * cnt * 4 * S, eb[-1], lay.off[f"C{d}"] + kk * cnt * 4 * S, cnt)
        if self.pairsum:        # pair_base did the first level
            src, top = lay.off[f"C{d - 1}"], d - 2
        else:
            src, top = lay.off[f"C{d}"], d - 1
        for l in range(top, -1, -1):
            m = N >> (l + 1)
            dst = lay.off[f"C{l}"]
            self.interpolate(e, src, K * 3 ** l, m, dst, self.wide)
            src = dst
        return src

    def layout(self, K: int, extra: list[tuple[str, int]]) -> Layout:
        """The work area: inputs A (K polys) and B; the evaluation levels
        alternate between two a-regions and two b-regions (a level is dead
        once the next is written); the base products C_d and every second
        interpolation level share one region, the other levels reuse the
        (then dead) evaluation regions."""
        d, S, N = self.d, self.S, self.N
        ea = {l: (K * 3 ** d * 4 * S + 4 * S if l == d else 2 * K * N * 3 ** l // 2 ** l) for l in range(1, d + 1)}
        eb = {l: 2 * N * 3 ** l // 2 ** l for l in range(1, d + 1)}
        cs = {l: K * 3 ** l * 4 * (N >> l) for l in range(d + 1)}
        lay = Layout(max(self.isa.vbytes, 8))
        if self.isa.valign:
            lay.add("KON", len(self.knames()) * self.isa.vbytes)
        lay.add("A", 2 * K * N)
        lay.add("B", 2 * N)
        ra = [max([ea[l] for l in ea if l % 2 == r] or [0]) for r in (0, 1)]
        rb = [max([eb[l] for l in eb if l % 2 == r] or [0]) for r in (0, 1)]
        e0 = lay.add("RA0", ra[0])
        lay.add("RA1", ra[1])
        lay.add("RB0", rb[0])
        lay.add("RB1", rb[1])
        esize = lay.size - e0
        for l in range(1, d + 1):
            lay.off[f"EA{l}"] = lay.off[f"RA{l % 2}"]
            lay.off[f"EB{l}"] = lay.off[f"RB{l % 2}"]
        # pair_base writes C_(d-1) while it reads the last evaluation
        # level, so C_(d-1) must not be in the evaluation regions then
        top = d - 1 if self.pairsum else d
        lay.add("RC", max(cs[l] for l in range(top + 1) if (top - l) % 2 == 0))
        other = [cs[l] for l in range(top + 1) if (top - l) % 2 == 1]
        assert max(other or [0]) <= esize
        for l in range(top + 1):
            lay.off[f"C{l}"] = lay.off["RC"] if (top - l) % 2 == 0 else e0
        for name, n in extra:
            lay.add(name, n)
        return lay

    # -- input and output -------------------------------------------------
    def stage(self, e: Q, lay: Layout, buf: str, src: str, n: int, size: int, int16: bool) -> None:
        """n input bytes at src into buf (size bytes, zero beyond n).  int16
        data is little-endian: on big-endian targets swapped to native."""
        I = self.isa
        vb = I.vbytes
        full = (n // vb) * vb
        self.addr(e, "pa", "w", lay.off[buf] + full)
        self.zero_bytes(e, "pa", size - full)
        self.addr(e, "pa", "w", lay.off[buf])
        if int16 and I.big_endian:
            e(f"pb = {src}")

            def swap(u: int) -> None:
                e(f"t0 = {I.m('pb', 2 * u, 8)}")
                e(f"t1 = {I.m('pb', 2 * u + 1, 8)}")
                e("t1 = t1 << 8")
                e("t0 = t0 | t1")
                e(f"{I.m('pa', 2 * u, 16)} = t0")
            self.vpass(e, n // 2, [("pa", 2), ("pb", 2)], swap)
            return
        self.copy_bytes(e, "pa", src, n)

    def unstage16(self, e: Q, lay: Layout, buf: str, n: int) -> None:
        """n int16 from buf to out, little-endian"""
        I = self.isa
        self.addr(e, "pa", "w", lay.off[buf])
        if not I.big_endian:
            self.copy_bytes(e, "out", "pa", 2 * n)
            return
        e("pb = out")

        def swap(u: int) -> None:
            e(f"t0 = {I.m('pa', 2 * u, 16)}")
            e(f"{I.m('pb', 2 * u, 8)} = t0")
            e("t0 = t0 >> 8")
            e(f"{I.m('pb', 2 * u + 1, 8)} = t0")
        self.vpass(e, n, [("pa", 2), ("pb", 2)], swap)

    def small_from_bytes(self, e: Q, src: int, dst: int, n: int, mod3: bool = False) -> None:
        """n bytes at w+src (SUPERCOP small layout) -> n int16 in {-1,0,1}
        at w+dst: g = b0 - 2*(b0 & b1) for the two low bits b0, b1 (mod3:
        g mod 3 in {0,1,2} = b0 + (b0 & b1))."""
        I, L = self.isa, self.L
        self.cld(e, "x7", "ONES")
        self.addr(e, "pa", "w", src)
        self.addr(e, "pb", "w", dst)

        def one(x: str, u: int) -> None:
            e(I.and_("x1", x, "x7"))
            e(I.srl(x, 1))
            e(I.and_(x, x, "x1"))
            if mod3:
                e(I.op("x1", "x1", "+", x))
            else:
                e(I.op("x1", "x1", "-", x))
                e(I.op("x1", "x1", "-", x))
            e(I.st("pb", 2 * u * L, "x1"))

        def body(u: int) -> None:
            e(I.zext8("x0", "pa", u * L))
            one("x0", u)
        if I.valign:
            # 2L bytes per aligned load, zero-extended by merging with zero
            # (big-endian: the zero byte is the high half of each lane)
            assert n % (2 * L) == 0

            def body2(u: int) -> None:
                e(I.ld("x2", "pa", 2 * L * u))
                e("x0 = unpacklo8(z0, x2)")
                e("x3 = unpackhi8(z0, x2)")
                one("x0", 2 * u)
                one("x3", 2 * u + 1)
            e(I.zero("z0"))
            self.vpass(e, n // (2 * L), [("pa", 2 * L), ("pb", 4 * L)], body2)
            return
        self.vpass(e, n // L, [("pa", L), ("pb", 2 * L)], body)

    def consts(self, e: Q) -> None:
        if self.isa.scalar or self.isa.valign:
            return
        for name, v in self.cv.items():
            e(f"const {name} u16 " + " ".join([str(v & 0xFFFF)] * self.L))
        e("const LANE0OFF u16 0 " + " ".join(["65535"] * (self.L - 1)))
        if self.isa.pairs:
            e("const LANE0OFF32 u16 0 0 " + " ".join(["65535"] * (self.L - 2)))

    def prologue(self, e: Q, name: str, lay: Layout) -> None:
        sb = max(self.isa.vbytes, 8)
        nv = -(-lay.size // sb)
        if self.isa.work_arg:
            assert lay.size + 15 <= WORK_BYTES, (name, lay.size)
            e(f"# work: {lay.size} bytes from the argument rounded up to 16 bytes (at most WORK_BYTES = {WORK_BYTES})")
            e(f"enter {name}")
            e("input out in k c w")      # c: the 0-byte SUPERCOP argument, unused
            e("secret [in] [k]")
            # the caller's area may have any alignment (SUPERCOP's buffers
            # do; SPARC traps on a misaligned mem16/mem64): round w up
            e("w = w + 15")
            e("t0 = -16")
            e("w = w & t0")
            if self.isa.valign:
                self.build_consts(e)
            return
        e(f"{self.isa.stack} work{name}[{nv}]")
        e(f"enter {name}")
        e("input out in k")
        e("secret [in] [k]")
        e(f"w = &work{name}")

    def barrett(self, e: Q, x: str, t: str) -> None:
        """x = barrett(x) (x6 = BV, x7 = Q constants; t scratch)."""
        I = self.isa
        e(I.mulhi(t, x, "x6"))
        if I.scalar:
            e(f"{t} = {t} + {self.cv['BRND']}")
        elif I.valign:
            self.cld(e, "tv", "BRND")
            e(I.op(t, t, "+", "tv"))
        else:
            e(f"{I.pre} {t} = {t} + {I.mem}[BRND]")
        e(I.sra(t, self.c.bs))
        e(I.op(t, t, "*", "x7"))
        e(I.op(x, x, "-", t))

    def fold(self, e: Q, h: int, dst: int, nvp: int, finish) -> None:
        """c_j = h_j + h_{j+p} + h_{j+p-1} (the last term not for j = 0),
        finish(x) on it, stored at w+dst; nvp vectors"""
        I = self.isa
        vb, p = I.vbytes, self.p
        # valign: pb, pc at the 16-byte boundaries below h + 2p, h + 2p - 2
        # (w is aligned, so their misalignments are known here)
        mb = (h + 2 * p) % 16 if I.valign else 0
        mc = (h + 2 * (p - 1)) % 16 if I.valign else 0
        self.addr(e, "pa", "w", h)
        self.addr(e, "pb", "w", h + 2 * p - mb)
        self.addr(e, "pc", "w", h + 2 * (p - 1) - mc)
        self.addr(e, "qd", "w", dst)

        def body(u: int, first: bool = False) -> None:
            v = u * vb
            e(I.ld("x0", "pa", v))
            self.ldu(e, "x1", "x3", "pb", v + mb, mb)
            self.ldu(e, "x2", "x3", "pc", v + mc, mc)
            if first and I.valign:
                self.cld(e, "x3", "LANE0OFF")
                e(I.and_("x2", "x2", "x3"))
            elif first:
                e(I.lane0zero("x2"))
            e(I.op("x0", "x0", "+", "x1"))
            e(I.op("x0", "x0", "+", "x2"))
            finish("x0")
            e(I.st("qd", v, "x0"))
        body(0, True)
        for r in ("pa", "pb", "pc", "qd"):
            e(f"{r} = {r} + {vb}")
        self.vpass(e, nvp - 1, [("pa", vb), ("pb", vb), ("pc", vb), ("qd", vb)], body)

    # -- the two functions ------------------------------------------------
    def mult3(self, e: Q, name: str) -> None:
        I = self.isa
        p, L, N = self.p, self.L, self.N
        vb = I.vbytes
        nvp = -(-p // L)            # vectors covering p coefficients
        inb = -(-N // L) * L        # staged bytes
        extra = [("IN", inb), ("KB", inb), ("H3", 2 * nvp * L + vb), ("OUT", nvp * L + 2 * vb)]
        if self.bytes8:
            cnt, S = 3 ** self.d, self.S
            extra += [("WA", cnt * 4 * S + 2 * S), ("BW", cnt * 2 * S)]
        if self.pairsum:
            extra += [("W4", 8 * (self.S + 8)), ("T3", 12 * self.S)]
        lay = self.layout(1, extra)
        self.prologue(e, name, lay)
        # stage both inputs (zeros up to N), read everything before writing
        self.stage(e, lay, "IN", "in", p, inb, False)
        self.stage(e, lay, "KB", "k", p, inb, False)
        self.small_from_bytes(e, lay.off["IN"], lay.off["A"], N)
        self.small_from_bytes(e, lay.off["KB"], lay.off["B"], N, self.bytes8)
        h = self.product(e, lay, 1)
        assert (nvp * L) + p <= 2 * N
        self.cld(e, "x6", "M3OFF")
        self.cld(e, "x7", "M3MUL")
        self.cld(e, "x5", "THREE")
        self.cld(e, "x4", "ONES")

        def mod3(x: str) -> None:
            # r = c + off - 1 - 3*floor((c + off)/3)
            e(I.op(x, x, "+", "x6"))
            e(I.mulhi("x1", x, "x7"))
            e(I.op("x1", "x1", "*", "x5"))
            e(I.op(x, x, "-", "x1"))
            e(I.op(x, x, "-", "x4"))
        self.fold(e, h, lay.off["H3"], nvp, mod3)
        self.pack_bytes(e, lay.off["H3"], lay.off["OUT"], nvp)
        self.addr(e, "pa", "w", lay.off["OUT"])
        self.copy_bytes(e, "out", "pa", p)
        e("leave")

    def pack_bytes(self, e: Q, src: int, dst: int, nv: int) -> None:
        """nv vectors of 16-bit lanes in {-1,0,1} at w+src -> bytes at w+dst"""
        I = self.isa
        vb, L = I.vbytes, self.L
        self.addr(e, "pa", "w", src)
        self.addr(e, "pb", "w", dst)
        if I.pack == "bytes":
            def one(u: int) -> None:
                e(f"t0 = {I.m('pa', 2 * u, 16)}")
                e(f"{I.m('pb', u, 8)} = t0")
            self.vpass(e, nv, [("pa", 2), ("pb", 1)], one)
            return
        if I.pack == "truncate8":
            def tr(u: int) -> None:
                e(I.ld("x0", "pa", vb * u))
                e("y0 = truncate8(x0)")
                e(f"{I.m('pb', L * u, 8 * L)} = y0")
            self.vpass(e, nv, [("pa", vb), ("pb", L)], tr)
            return

        def two(u: int) -> None:
            e(I.ld("x0", "pa", 2 * vb * u))
            e(I.ld("x1", "pa", 2 * vb * u + vb))
            e("x0 = packs16(x0, x1)")
            if I.pack == "packs16_permute":
                e("x0 = permute64(x0, 0xd8)")
            e(I.st("pb", vb * u, "x0"))
        # an odd last vector is packed with whatever follows it (not output)
        self.vpass(e, -(-nv // 2), [("pa", 2 * vb), ("pb", vb)], two)

    def mult(self, e: Q, name: str) -> None:
        if self.pairsum:
            self.mult_pairs(e, name)
            return
        if self.wide:
            self.mult_wide(e, name)
            return
        I = self.isa
        p, L, N = self.p, self.L, self.N
        vb = I.vbytes
        nvp = -(-p // L)
        inb = -(-2 * N // vb) * vb
        kb = -(-N // L) * L
        lay = self.layout(2, [("IN", inb), ("KB", kb), ("H", 4 * N + 2 * vb), ("OUT", 2 * nvp * L)])
        self.prologue(e, name, lay)
        self.stage(e, lay, "IN", "in", 2 * p, inb, True)
        self.stage(e, lay, "KB", "k", p, kb, False)
        self.small_from_bytes(e, lay.off["KB"], lay.off["B"], N)
        # f: reduce modulo q, split into digits f0 (at A) and f1 (at A + 2N)
        a = lay.off["A"]
        for r, cname in (("x4", "DIG"), ("x5", "DC"), ("x6", "BV"), ("x7", "QQ"), ("x3", "DHALF")):
            self.cld(e, r, cname)
        self.addr(e, "pa", "w", lay.off["IN"])
        self.addr(e, "pb", "w", a)
        self.addr(e, "pc", "w", a + 2 * N)

        def split(u: int) -> None:
            v = u * vb
            e(I.ld("x0", "pa", v))
            self.barrett(e, "x0", "x1")
            e(I.op("x1", "x0", "+", "x3"))
            e(I.mulhi("x1", "x1", "x5"))
            e(I.st("pc", v, "x1"))
            e(I.op("x1", "x1", "*", "x4"))
            e(I.op("x0", "x0", "-", "x1"))
            e(I.st("pb", v, "x0"))
        self.vpass(e, 2 * N // vb, [("pa", vb), ("pb", vb), ("pc", vb)], split)
        h = self.product(e, lay, 2)
        for r, cname in (("x4", "DIG"), ("x5", "DW"), ("x6", "BV"), ("x7", "QQ")):
            self.cld(e, r, cname)
        # per coefficient: barrett(h0 + (B*h1 mod q)) (zero from 2p-1 on)
        H = lay.off["H"]
        self.addr(e, "pa", "w", h)
        self.addr(e, "pb", "w", h + 4 * N)
        self.addr(e, "pc", "w", H)

        def recombine(u: int) -> None:
            v = u * vb
            e(I.ld("x1", "pb", v))
            e(I.mulhi("x2", "x1", "x5"))
            e(I.op("x1", "x1", "*", "x4"))
            e(I.op("x2", "x2", "*", "x7"))
            e(I.op("x1", "x1", "-", "x2"))
            e(I.ld("x3", "pa", v))
            if self.c.h0red:
                self.barrett(e, "x3", "x2")
            e(I.op("x1", "x1", "+", "x3"))
            self.barrett(e, "x1", "x2")
            e(I.st("pc", v, "x1"))
        self.vpass(e, 4 * N // vb, [("pa", vb), ("pb", vb), ("pc", vb)], recombine)
        self.addr(e, "pa", "w", H + 4 * N)
        self.zero_bytes(e, "pa", 2 * vb)
        assert nvp * L + p <= 2 * N + vb
        self.fold(e, H, lay.off["OUT"], nvp, lambda x: self.barrett(e, x, "x1"))
        self.unstage16(e, lay, "OUT", p)
        e("leave")


    def rq_start(self, e: Q, name: str, levels: int, regions: list[tuple[str, int]]) -> Layout:
        """The start of the one-product R/q kernels: the layout (IN, KB, OUT,
        then regions), the prologue, the inputs staged, g as small values,
        the constants BV and QQ in x6 and x7, and f reduced mod q from IN
        into A.  Returns the layout."""
        I = self.isa
        p, L, N = self.p, self.L, self.N
        vb = I.vbytes
        inb = -(-2 * N // vb) * vb
        kb = -(-N // L) * L
        lay = self.layout(levels, [("IN", inb), ("KB", kb), ("OUT", 2 * -(-p // L) * L)] + regions)
        self.prologue(e, name, lay)
        self.stage(e, lay, "IN", "in", 2 * p, inb, True)
        self.stage(e, lay, "KB", "k", p, kb, False)
        self.small_from_bytes(e, lay.off["KB"], lay.off["B"], N)
        for r, cname in (("x6", "BV"), ("x7", "QQ")):
            self.cld(e, r, cname)
        self.addr(e, "pa", "w", lay.off["IN"])
        self.addr(e, "pb", "w", lay.off["A"])

        def red(u: int) -> None:
            e(I.ld("x0", "pa", u * vb))
            self.barrett(e, "x0", "x1")
            e(I.st("pb", u * vb, "x0"))
        self.vpass(e, 2 * N // vb, [("pa", vb), ("pb", vb)], red)
        return lay

    def mult_pairs(self, e: Q, name: str) -> None:
        """R/q with one pmaddwd product (Isa.pairs): f reduced mod q (and
        its evaluation inputs again at level rl), the base products, the
        interpolation and the fold in exact 32-bit lanes (bounds in
        pair_shape), then one reduction per output coefficient."""
        I = self.isa
        p, L, N, S, d = self.p, self.L, self.N, self.S, self.d
        vb = I.vbytes
        nvp = -(-p // L)
        cnt = 3 ** d
        # the layout of two 16-bit products holds the 32-bit levels of one
        lay = self.rq_start(e, name, 2, [("T3", 24 * S)] if I.valign else [("W4", 8 * (S + 8)), ("T3", 24 * S)])
        ea, eb = [lay.off["A"]], [lay.off["B"]]
        for l in range(d):
            n = N >> l
            last = l == d - 1
            nxt = lay.off[f"EA{l + 1}"]
            if l == self.rl and l:
                for r, cname in (("x6", "BV"), ("x7", "QQ")):
                    self.cld(e, r, cname)
            self.evaluate(e, ea[-1], 3 ** l, n, nxt, last, l == self.rl and l > 0)
            ea.append(nxt)
            nxt = lay.off[f"EB{l + 1}"]
            self.evaluate(e, eb[-1], 3 ** l, n, nxt, False)
            eb.append(nxt)
        self.addr(e, "pa", "w", ea[-1] + cnt * 4 * S)
        self.zero_bytes(e, "pa", 2 * S)
        if I.valign:
            self.msum_base(e, ea[-1], eb[-1], lay.off[f"C{d - 1}"], cnt, lay.off["T3"])
        else:
            self.pair_base(e, lay, ea[-1], eb[-1], lay.off[f"C{d - 1}"], cnt, True)
        src = lay.off[f"C{d - 1}"]
        for l in range(d - 2, -1, -1):
            dst = lay.off[f"C{l}"]
            self.interpolate32(e, src, 3 ** l, N >> (l + 1), dst)
            src = dst
        h = src
        # fold in 32-bit lanes (c_j = h_j + h_(j+p) + h_(j+p-1), the last
        # term not for j = 0), then per 8 coefficients: lo = the signed low
        # halves, hi = the rest >> 16, both packed to int16 (exact),
        # barrett(lo) + (2^16 mod q) hi mod q, and the final freeze
        assert nvp * L + p <= 2 * N
        for r, cname in (("x4", "C65"), ("x5", "DW65"), ("x6", "BV"), ("x7", "QQ")):
            self.cld(e, r, cname)
        # valign: pb, pc at the 16-byte boundaries below h + 4p, h + 4p - 4
        mb = (h + 4 * p) % 16 if I.valign else 0
        mc = (h + 4 * (p - 1)) % 16 if I.valign else 0
        self.addr(e, "pa", "w", h)
        self.addr(e, "pb", "w", h + 4 * p - mb)
        self.addr(e, "pc", "w", h + 4 * (p - 1) - mc)
        self.addr(e, "qd", "w", lay.off["OUT"])

        def body(u: int, first: bool = False) -> None:
            for x, lo, o in (("x0", "x2", 0), ("x1", "x3", 16)):
                v = 32 * u + o
                e(I.ld(x, "pa", v))
                if I.valign:
                    self.ldu(e, "a0", "a1", "pb", v + mb, mb)
                    e(f"4x {x} = {x} + a0")
                    self.ldu(e, lo, "a1", "pc", v + mc, mc)
                    if first and not o:
                        self.cld(e, "a1", "LANE0OFF32")
                        e(f"{lo} = {lo} & a1")
                else:
                    e(f"4x {x} += {I.m('pb', v)}")
                    e(I.ld(lo, "pc", v))
                    if first and not o:
                        e(f"{lo} &= mem128[LANE0OFF32]")
                e(self.upd("4x", x, "+", lo))
                e(f"{lo} = {x}")
                e(f"4x {lo} <<= 16")
                e(f"(int32) 4x {lo} >>= 16")
                e(self.upd("4x", x, "-", lo))
                e(f"(int32) 4x {x} >>= 16")
            e("x2 = packs32(x2, x3)")
            e("x0 = packs32(x0, x1)")
            self.barrett(e, "x2", "x3")
            e(I.mulhi("x1", "x0", "x5"))
            e(I.op("x0", "x0", "*", "x4"))
            e(I.op("x1", "x1", "*", "x7"))
            e(I.op("x0", "x0", "-", "x1"))
            e(I.op("x0", "x0", "+", "x2"))
            self.barrett(e, "x0", "x3")
            e(I.st("qd", vb * u, "x0"))
        body(0, True)
        for r, step in (("pa", 32), ("pb", 32), ("pc", 32), ("qd", vb)):
            e(f"{r} = {r} + {step}")
        self.vpass(e, nvp - 1, [("pa", 32), ("pb", 32), ("pc", 32), ("qd", vb)], body)
        self.unstage16(e, lay, "OUT", p)
        e("leave")

    def mult_wide(self, e: Q, name: str) -> None:
        """R/q with one product (Isa.maddwd): f reduced mod q, the product
        mod q in int16 lanes (wide_base, reducing interpolation), the fold
        and the freeze."""
        I = self.isa
        p, L, N, S = self.p, self.L, self.N, self.S
        vb = I.vbytes
        nvp = -(-p // L)
        cnt = 3 ** self.d
        lay = self.rq_start(e, name, 1, [("W32", 8 * S + 32), ("C32", 16 * (2 * S + 8))])
        h = self.product(e, lay, 1)
        # coefficients past 2N - 1 only reach fold lanes >= p (not output)
        assert nvp * L + p <= 2 * N + L
        for r, cname in (("x6", "BV"), ("x7", "QQ")):
            self.cld(e, r, cname)
        self.fold(e, h, lay.off["OUT"], nvp, lambda x: self.barrett(e, x, "x1"))
        self.unstage16(e, lay, "OUT", p)
        e("leave")


FNS = ("mult", "mult3")     # R/q and R/3 products: primitives core_<fn>sntrup<p>


def symbol(impl: str, p: int, fn: str) -> str:
    """The kernel symbol, as the manifest (specs/kernels.conf) names it:
    qhasm_kernel_<symbol>_<impl id>_<kernel> with symbol core_<fn>sntrup<p>
    and the one kernel `mul`."""
    return f"qhasm_kernel_core_{fn}sntrup{p}_{impl_id(impl)}_mul"


def generate(impl: str, p: int, fn: str) -> str:
    isa = ISAS[impl]
    q = PARAMS[p]
    kn = Kernel(isa, p, q, fn)
    c = kn.c
    e = Q(isa)
    e(f"# generated by gen/ntruprime.py ({impl}, {fn}, p={p}, q={q}). DO NOT EDIT.")
    e(f"# Streamlined NTRU Prime {'R/q' if fn == 'mult' else 'R/3'} product; see docs/ntruprime.md.")
    e(f"# Karatsuba: {kn.d} levels over a {kn.S}x{kn.S} schoolbook base, N = {kn.N}")
    if fn == "mult":
        e(f"# digits f = f0 + {c.dig}*f1: |f0| <= {c.d0max}, |f1| <= {c.d1max}; "
          f"|f mod q| <= {c.fmax}; reduced products <= {c.red_max}")
    if isa.cpu:
        e(f"cpu {isa.cpu}")
    nb = (2 if fn == "mult" else 1) * 2 * kn.S // kn.L
    if isa.pairs:
        nb = max(4, min(2 * kn.S // 4, isa.nregs - 2))
    if kn.pairsum and isa.msum:
        nb = max(2, kn.msum_regs()[1])
    e(f"{isa.ptr} out in k c w pa pb pc qa qb qc qd i0 i1 t0 t1")
    e(f"{isa.reg} z0 x0 x1 x2 x3 x4 x5 x6 x7 " + " ".join(f"a{k}" for k in range(nb)))
    if isa.scalar or isa.valign:
        e(f"{isa.reg} tv")
    if isa.valign:
        e(f"{isa.reg} " + " ".join(f"e{q}" for q in range(kn.S // kn.L)))
    if kn.pairsum and isa.msum:
        e(f"{isa.reg} " + " ".join(f"w{i}" for i in range(kn.msum_regs()[0])))
    if isa.pack == "truncate8" and fn == "mult3":
        e(f"reg{8 * kn.L} y0")
    kn.consts(e)
    e("")
    name = symbol(impl, p, fn)
    work = ", const unsigned char *c, void *work" if isa.work_arg else ""
    if fn == "mult3":
        e(f"# void {name}(unsigned char *out /* p bytes */, const unsigned char *in /* p */, const unsigned char *k /* p */{work})")
        kn.mult3(e, name)
    else:
        e(f"# void {name}(unsigned char *out /* 2p bytes */, const unsigned char *in /* 2p */, const unsigned char *k /* p */{work})")
        kn.mult(e, name)
    return "\n".join(e.lines) + "\n"


def jobs(root: str = ROOT) -> list[tuple[str, str, str]]:
    """(generated .q path, implementation folder under out/, asm basename)."""
    return [(generated_path(i, p, f), i, f"ntruprime_{f}_{impl_id(i)}_{p}.asm")
            for i in ISAS for p in PARAMS for f in FNS]


def render(qpath: str, root: str = ROOT) -> str:
    """The text of one generated .q (gen/regen.py's hook)."""
    for i in ISAS:
        for p in PARAMS:
            for f in FNS:
                if generated_path(i, p, f) == qpath:
                    return generate(i, p, f)
    raise KeyError(qpath)


# ---- the manifest's generator interface (docs/adding-a-kernel.md) ----------
def qpath(impl: str, params: dict[str, str]) -> str:
    """params: fn=mult|mult3, p=653|761|857"""
    return generated_path(impl, int(params["p"]), params["fn"])


def text(impl: str, params: dict[str, str], root: str = ROOT) -> str:
    return generate(impl, int(params["p"]), params["fn"])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.ntruprime", description=__doc__.splitlines()[0])
    ap.add_argument("--impl", action="append", choices=list(ISAS), help="implementation (default: all)")
    ap.add_argument("--p", action="append", type=int, choices=list(PARAMS), help="parameter p (default: all)")
    ap.add_argument("--out", default=ROOT, help="root directory to write under (default: the repository)")
    ap.add_argument("--stdout", action="store_true", help="print instead of writing files")
    a = ap.parse_args(argv)
    for impl in a.impl or list(ISAS):
        for p in a.p or list(PARAMS):
            for fn in FNS:
                body = generate(impl, p, fn)
                if a.stdout:
                    sys.stdout.write(body)
                    continue
                path = os.path.join(a.out, generated_path(impl, p, fn))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
