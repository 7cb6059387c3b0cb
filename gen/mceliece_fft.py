"""The additive FFT of Classic McEliece as generated kernels (docs/mceliece-fft.md).

    python3 -m gen.mceliece_fft [--impl IMPL] [--params m=12]

qhasm_kernel_mceliece_gf<m>_fft_<impl>_fft(uint64_t *v, const uint64_t *f):
f is 128 coefficients over GF(2^m), bitsliced (plane b = words f[2b],
f[2b+1], coefficient k at bit k%64 of word k/64); v is f evaluated at the
2^m points P(e) = bitrev_m(e), m bit-planes of 2^m bits.

The Gao-Mateer recursion and every constant come from
gen/mceliece_fft_math.py (basis, scalings b_d, butterfly constants X_d;
its model() is checked there against naive evaluation):
1. f is copied into the stack (C: 2m words);
2. levels d = 0..6 on C: the scaling by b_d^k (lane k, d >= 1) is a
   multiplication by a constant vector (the column multiplier of
   gen/mceliece.py with the constant's planes as immediates), the radix
   conversion a few shift-mask-xor steps per plane;
3. level 7: coefficient lane L is broadcast to positions L*2^(m-7).. of v;
4. butterflies d = 6..0 on v: for the pairs (p, p + D), D = 2^(m-d-1),
   lo ^= X_d * hi (the column multiplier, X_d's planes read from a stack
   table built from immediates at the start), hi ^= lo.  D = 32 (m = 12,
   d = 6): both halves of a word, through two small stack buffers.
int64 targets with stack addresses (amd64, ppc64).
amd64-avx512 is the amd64-avx2 form with every AND-XOR pair of its vector
code (`D = X & Y` then `R = R ^ D`, D dead) fused into one vpternlogq
(fuse_andxor, on the finished lines): the column products and the radix
steps' masked XORs.
"""
from __future__ import annotations

import argparse
import re
import sys

from gen import mceliece as mc
from gen import mceliece_fft_math as fm

GENERATED = "specs/mceliece/generated"
IMPLS = ["amd64", "ppc64", "amd64-avx2", "amd64-avx512"]
VEC = {"amd64-avx2": "amd64", "amd64-avx512": "amd64"}   # vector impl: its scalar (int64) impl for the C parts
# vector impls whose AND-XOR pairs are fused into vpternlogq (fuse_andxor)
TERNLOG = {"amd64-avx512"}
TERN_ANDXOR = 0x78   # ternlog(A, B, C) = A ^ (B & C)
TOK = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
VNAME = re.compile(r"\b(A|B|G|T|F\d+|S\d+|H\d+)\b")
M64 = (1 << 64) - 1


def impl_id(impl: str) -> str:
    return impl.replace("-", "_")


def reads_writes(line: str) -> tuple[set[str], str | None]:
    """the names a .q line reads and the register it writes (None for a
    store, a label, a branch); a conservative approximation for
    fuse_andxor: `x op= y` reads x"""
    s = line.strip()
    if "=" not in s or s.startswith("=?") or s.endswith(":") or s.startswith("goto"):
        return set(TOK.findall(s)), None
    lhs, rhs = s.split("=", 1)
    if lhs.endswith(("^", "&", "|", "+", "-", "<<", ">>")) or "[" in lhs:
        return set(TOK.findall(s)), None
    dst = lhs.split()[-1]
    return set(TOK.findall(rhs)), dst


def dead_after(lines: list[str], i: int, name: str) -> bool:
    """name is written before it is read from line i on, with no label or
    branch in between (straight-line code only)"""
    for line in lines[i:]:
        s = line.strip()
        if s.endswith(":") or s.startswith("goto") or s == "leave":
            return False
        rd, wr = reads_writes(line)
        if name in rd:
            return False
        if wr == name:
            return True
    return False


ANDL = re.compile(r"^(\s*)(\w+) = (\w+) & (\w+)$")
XORL = re.compile(r"^(\s*)(\w+) = (\w+) \^ (\w+)$")


def fuse_andxor(lines: list[str], vec: set[str]) -> list[str]:
    """`D = X & Y` then `R = R ^ D` (or `R = D ^ R`), all ymm names, D not
    read again before it is written: `R = ternlog(R, X, Y, 0x78)` (one
    AVX-512VL vpternlogq for the two instructions)"""
    out: list[str] = []
    i = 0
    while i < len(lines):
        a = ANDL.match(lines[i])
        x = XORL.match(lines[i + 1]) if a and i + 1 < len(lines) else None
        if a and x:
            d, s1, s2 = a.group(2), a.group(3), a.group(4)
            r, o1, o2 = x.group(2), x.group(3), x.group(4)
            other = o2 if o1 == r else o1 if o2 == r else None
            if (other == d and r != d and {d, s1, s2, r} <= vec and r not in (s1, s2)
                    and dead_after(lines, i + 2, d)):
                out.append(f"{x.group(1)}{r} = ternlog({r}, {s1}, {s2}, {hex(TERN_ANDXOR)})")
                i += 2
                continue
        out.append(lines[i])
        i += 1
    return out


def words(x: int, n: int) -> list[int]:
    return [(x >> (64 * k)) & M64 for k in range(n)]


class Gen:
    def __init__(self, impl: str, m: int, lev: int = fm.LEVELS) -> None:
        self.impl, self.m, self.lev = impl, m, lev
        self.vec = impl in VEC
        self.simpl = VEC.get(impl, impl)
        self.n = 1 << m
        self.PB = self.n // 8
        self.L: list[str] = []
        self.nlab = 0
        # table layout: per level d, nwd(d) entries of m words
        self.tab: dict[int, int] = {}
        off = 0
        for d in range(lev):
            self.tab[d] = off
            off += (4 * self.nvg(d) if self.vec else self.nwd(d)) * m
        self.tabwords = off
        self.rm: dict[tuple[int, int], int] = {}     # the vector radix's masks (rmasks)

    def nvg(self, d: int) -> int:
        """vector form: ymm groups (4 words) of twiddles per level"""
        return max(1, self.nwd(d) // 4)

    def nwd(self, d: int) -> int:
        D = 1 << (self.m - d - 1)
        return max(1, D // 64)

    def __call__(self, s: str) -> None:
        self.L.append(s)

    def label(self) -> str:
        self.nlab += 1
        return f"l{self.nlab}"

    # ---- the column multiplier of gen/mceliece.py, re-addressed
    def mul(self, fs: int, gs: int, hs: int, xor_into: bool, gconst: list[int] | None = None,
            indent: str = "", vec: bool = False) -> None:
        """h (op)= f * g, f/g/h pointers with strides fs/gs/hs bytes; g from
        immediates when gconst is given; h ^= f*g when xor_into; vec: on
        ymm registers (256 lanes, the names prefixed V)"""
        lines, _ = mc.mul_columns(("amd64-avx2" if self.impl in TERNLOG else self.impl) if vec else self.simpl,
                                  self.m, 1)
        mem = "mem256" if vec else "mem64"
        if vec:
            lines = [VNAME.sub(lambda q: "V" + q.group(1), ln) for ln in lines]
        for ln in lines:
            mg = re.fullmatch(r"G = mem64\[g \+ (\d+)\]", ln)
            if mg and gconst is not None:
                self(f"{indent}G = {hex(gconst[int(mg.group(1))])}")
                continue
            ln = re.sub(r"\[f \+ (\d+)\]", lambda q: f"[f + {int(q.group(1)) * fs}]", ln)
            ln = re.sub(r"\[g \+ (\d+)\]", lambda q: f"[g + {int(q.group(1)) * gs}]", ln)
            mh = re.fullmatch(r"mem(?:64|256)\[h \+ (\d+)\] = (\w+)", ln)
            if mh:
                off, a = int(mh.group(1)) * hs, mh.group(2)
                tt = "VT" if vec else "T"
                if xor_into:
                    self(f"{indent}{tt} = {mem}[h + {off}]")
                    self(f"{indent}{a} = {a} ^ {tt}")
                self(f"{indent}{mem}[h + {off}] = {a}")
                continue
            assert "[h" not in ln, ln
            self(indent + ln)

    # ---- 128-lane plane operations on the two words (lo, hi) of C
    def shr128(self, s: int) -> None:
        """(x0, x1) = (lo, hi) >> s into y0, y1"""
        self("y0 = lo >> %d" % s)
        self("y1 = hi << %d" % (64 - s))
        self("y0 = y0 | y1")
        self("y1 = hi >> %d" % s)

    def step(self, kind: str, s: int) -> None:
        if kind == "xor":
            for blk in (2, 1):
                mk = words(fm.lane_mask(s, blk), 2)
                self.shr128(s)
                for w, y, k in (("lo", "y0", mk[0]), ("hi", "y1", mk[1])):
                    if k:
                        self(f"k = {hex(k)}")
                        self(f"{y} = {y} & k")
                        self(f"{w} = {w} ^ {y}")
        else:
            mk = words(fm.lane_mask(s, 1), 2)
            self.shr128(s)
            self("y0 = y0 ^ lo")
            self("y1 = y1 ^ hi")
            self(f"k = {hex(mk[0])}")
            self("y0 = y0 & k")
            self(f"k = {hex(mk[1])}")
            self("y1 = y1 & k")
            self("lo = lo ^ y0")
            self("hi = hi ^ y1")
            # (y0, y1) << s
            self(f"y1 = y1 << {s}")
            self(f"k = y0 >> {64 - s}")
            self("y1 = y1 | k")
            self(f"y0 = y0 << {s}")
            self("lo = lo ^ y0")
            self("hi = hi ^ y1")

    # ---- the radix steps on ymm (vector form, 128 lanes = 2 words per
    # plane): ymm i holds planes 2i, 2i+1 of C (words 4i .. 4i+3), all
    # planes in registers for a whole level; masks from the table RM
    def vradix_ok(self, nw: int = 2) -> bool:
        return self.vec and nw in (2, 4)

    def nvr(self, nw: int = 2) -> int:
        return (self.m + 1) // 2 if nw == 2 else self.m

    def cwords(self, nw: int) -> int:
        """C's words: m planes of nw words, padded to whole ymm in the
        vector radix (the pad plane of m = 13 is zero and stays zero:
        every step is linear and works per plane)"""
        return 4 * self.nvr(nw) if self.vradix_ok(nw) else nw * self.m

    def rmasks(self, steps: list[tuple[str, int, int]], nw: int = 2) -> None:
        """the table RM: one ymm per (s, blk) mask of the steps (nw = 2: both
        words of a plane twice; nw = 4: the plane's four words)"""
        for _, sh, blk in steps:
            self.rm.setdefault((sh, blk), len(self.rm))
        self("# the radix steps' lane masks, one ymm each (both planes of a ymm)")
        self("g = &RM")
        for (sh, blk), i in self.rm.items():
            mk = words(fm.lane_mask(sh, blk, 64 * nw), nw)
            for j in range(4):
                self(f"k = {hex(mk[j % nw])}")
                self(f"mem64[g + {32 * i + 8 * j}] = k")

    def vmask(self, sh: int, blk: int) -> None:
        self(f"VM = mem256[g + {32 * self.rm[(sh, blk)]}]")

    def carry(self, sh: int, blk: int, nw: int) -> bool:
        """whether the bits a shift by sh carries between words can reach
        the lanes of mask (sh, blk): they land in (right shift, then the
        mask) or come from (mask, then left shift) the top sh bits of a
        word; for 4 sh <= 64 those are block 3 of every 4 sh-lane block,
        outside every mask of the steps, so the shift is a plain 4x shift"""
        top = ((1 << sh) - 1) << (64 - sh) if sh < 64 else (1 << 64) - 1
        return any(w & top for w in words(fm.lane_mask(sh, blk, 64 * nw), nw))

    def vshift128(self, dst: str, src: str, sh: int, right: bool, nw: int = 2, carry: bool = True) -> None:
        """dst = each 128-bit half of src shifted by sh (0 < sh < 64); nw =
        4: all 256 bits (0 < sh <= 64; the word carried across moved by
        permute64 and the vacated word zeroed by blend32); not carry: the
        bits crossing words are not needed (carry())"""
        if not carry:
            assert sh < 64
            self(f"4x {dst} = {src} {'>>' if right else '<<'} {sh}")
            return
        if nw == 4:
            perm, blend = ("0x39", "0xc0") if right else ("0x93", "0x03")
            if sh == 64:
                self(f"{dst} = permute64({src}, {perm})")
                self(f"{dst} = blend32({dst}, VZ, {blend})")
                return
            self(f"4x {dst} = {src} {'>>' if right else '<<'} {sh}")
            self(f"4x VY = {src} {'<<' if right else '>>'} {64 - sh}")
            self(f"VY = permute64(VY, {perm})")
            self(f"VY = blend32(VY, VZ, {blend})")
            self(f"{dst} = {dst} | VY")
            return
        if right:
            self(f"4x {dst} = {src} >> {sh}")
            self(f"4x VY = {src} << {64 - sh}")
            self("VY = unpackhi64(VY, VZ)")
        else:
            self(f"4x {dst} = {src} << {sh}")
            self(f"4x VY = {src} >> {64 - sh}")
            self("VY = unpacklo64(VZ, VY)")
        self(f"{dst} = {dst} | VY")

    def vsteps(self, steps: list[tuple[str, int, int]], nw: int = 2) -> None:
        """the steps on VR0 .. on all planes: ('xor', s, blk): x ^= (x >> s)
        & M; ('xorT', s, blk): x ^= (x & M) << s; ('swap', s, 1): t = ((x >>
        s) ^ x) & M, x ^= t ^ (t << s)"""
        self("f = &C")
        self("g = &RM")
        self("VZ = 0")
        n = self.nvr(nw)
        per = n if nw == 2 else (n + 1) // 2          # nw = 4: the planes in two passes
        for lo in range(0, n, per):
            R = [f"VR{i}" for i in range(lo, min(n, lo + per))]
            for r in R:
                self(f"{r} = mem256[f + {32 * int(r[2:])}]")
            for kind, sh, blk in steps:
                self.vmask(sh, blk)
                cy = self.carry(sh, blk, nw)
                for r in R:
                    if kind == "xor":
                        self.vshift128("VX", r, sh, True, nw, cy)
                        self("VX = VX & VM")
                    elif kind == "xorT":
                        self(f"VA = {r} & VM")
                        self.vshift128("VX", "VA", sh, False, nw, cy)
                    else:
                        self.vshift128("VX", r, sh, True, nw, cy)
                        self(f"VX = VX ^ {r}")
                        self("VX = VX & VM")
                        self(f"{r} = {r} ^ VX")
                        self.vshift128("VA", "VX", sh, False, nw, cy)
                        self("VX = VA")
                    self(f"{r} = {r} ^ VX")
            for r in R:
                self(f"mem256[f + {32 * int(r[2:])}] = {r}")

    @staticmethod
    def fsteps(n: int) -> list[tuple[str, int, int]]:
        """radix_steps(n) in the (kind, s, blk) form of vsteps"""
        out: list[tuple[str, int, int]] = []
        for kind, sh in fm.radix_steps(n):
            out += [("xor", sh, 2), ("xor", sh, 1)] if kind == "xor" else [("swap", sh, 1)]
        return out

    def radix(self, d: int) -> None:
        m = self.m
        if d:
            consts = fm.planes_of(m, fm.lane_consts(m, d))
            for w in range(2):
                self(f"# level {d}: lanes times b_{d}^(k mod {fm.NCOEF >> d}), word {w}")
                self(f"f = &C")
                if w:
                    self("f = f + 8")
                self("g = f")
                self("h = f")
                self.mul(16, 0, 16, False, [words(c, 2)[w] for c in consts])
        self(f"# level {d}: radix conversion of the {1 << d} polynomials of {fm.NCOEF >> d} coefficients")
        if self.vradix_ok():
            self.vsteps(self.fsteps(fm.NCOEF >> d))
            return
        self("f = &C")
        for b in range(m):
            self(f"lo = mem64[f + {16 * b}]")
            self(f"hi = mem64[f + {16 * b + 8}]")
            for st in fm.radix_steps(fm.NCOEF >> d):
                self.step(*st)
            self(f"mem64[f + {16 * b}] = lo")
            self(f"mem64[f + {16 * b + 8}] = hi")

    def vbroadcast(self) -> None:
        """the broadcast on ymm: each 32-bit half of a coefficient word
        broadcast to 8 dwords; ymm j of the half holds the lanes whose
        bits are the dword masks M_j (dword k: bit 8j + k for 32 positions
        per lane, bit 4j + k/2 for 64); a dword x & M_j is 0 or M_j <= 2^31,
        so (0 - (x & M_j)) >>> 31 (signed) is all-ones exactly when the bit
        is set"""
        m = self.m
        per = self.n >> fm.LEVELS
        nj = 4 if per == 32 else 8          # ymm per 32-bit half
        self(f"# level 7 (ymm): coefficient lane L to positions {per}L .. {per}L+{per - 1}")
        self("g = &MK")
        for j in range(nj):
            bits = [8 * j + k if per == 32 else 4 * j + k // 2 for k in range(8)]
            for q in range(4):
                self(f"k = {hex((1 << bits[2 * q]) | (1 << (bits[2 * q + 1] + 32)))}")
                self(f"mem64[g + {32 * j + 8 * q}] = k")
        for j in range(nj):
            self(f"VF{j} = mem256[g + {32 * j}]")
        self("VA = 0")
        self("f = &C")
        for b in range(m):
            for w in range(2):
                for hf in range(2):
                    self(f"8x VX = mem32[f + {16 * b + 8 * w + 4 * hf}]")
                    base = b * self.PB + (2 * w + hf) * nj * 32
                    for j in range(nj):
                        self(f"VY = VX & VF{j}")
                        self("8x VY = VA - VY")
                        self("(int32) 8x VY = VY >> 31")
                        self(f"mem256[v + {base + 32 * j}] = VY")

    def broadcast(self) -> None:
        if self.vec:
            return self.vbroadcast()
        m = self.m
        per = self.n >> fm.LEVELS            # positions per coefficient lane: 32 or 64
        self(f"# level 7: coefficient lane L to positions {per}L .. {per}L+{per - 1}")
        self("f = &C")
        self("h = v")
        for b in range(m):
            for w in range(2):
                self(f"lo = mem64[f + {16 * b + 8 * w}]")
                lab = self.label()
                if per == 32:
                    self("o0 = 32")
                    self(f"{lab}:")
                    self("  y0 = lo << 63")
                    self("  (int64) y0 >>= 63")
                    self("  y1 = lo << 62")
                    self("  (int64) y1 >>= 63")
                    self("  y0 = y0 >> 32")
                    self("  y1 = y1 << 32")
                    self("  y0 = y0 | y1")
                    self(f"  mem64[h + {b * self.PB + 256 * w}] = y0")
                    self("  lo = lo >> 2")
                else:
                    self("o0 = 64")
                    self(f"{lab}:")
                    self("  y0 = lo << 63")
                    self("  (int64) y0 >>= 63")
                    self(f"  mem64[h + {b * self.PB + 512 * w}] = y0")
                    self("  lo = lo >> 1")
                self("  h = h + 8")
                self("  o0 = o0 - 1")
                self("  =? o0 - 0")
                self(f"  goto {lab} if !=")
                self(f"h = h - {8 * (32 if per == 32 else 64)}")

    def twiddle_planes(self, d: int, w: int) -> list[int]:
        """the m planes of X_d at the 64 points of word w of a block"""
        D = 1 << (self.m - d - 1)
        vals = [fm.xconst(self.m, d, 64 * w + r) if 64 * w + r < D else 0 for r in range(64)]
        return fm.planes_of(self.m, vals)

    def vlane_word(self, d: int, gi: int, j: int) -> int:
        """vector form: the block word whose twiddle lane j of group gi
        holds (D >= 256: consecutive words; D = 128: the two words of a
        block twice, the lanes of permute128; D <= 64: one word)"""
        Dw = (1 << (self.m - d - 1)) // 64
        if Dw >= 4:
            return 4 * gi + j
        return j % Dw if Dw == 2 else 0

    def table(self) -> None:
        m = self.m
        self("# the butterfly constants X_d (docs/mceliece-fft.md), m words per 64 points")
        self("g = &TB")
        for d in range(self.lev):
            if self.vec:
                # group gi, plane b, lane j at word tab[d] + 4 m gi + 4 b + j
                for gi in range(self.nvg(d)):
                    for j in range(4):
                        pls = self.twiddle_planes(d, self.vlane_word(d, gi, j))
                        for b, pl in enumerate(pls):
                            self(f"k = {hex(pl)}")
                            self(f"mem64[g + {8 * (self.tab[d] + 4 * m * gi + 4 * b + j)}] = k")
                continue
            for w in range(self.nwd(d)):
                for b, pl in enumerate(self.twiddle_planes(d, w)):
                    self(f"k = {hex(pl)}")
                    self(f"mem64[g + {8 * (self.tab[d] + w * m + b)}] = k")

    # ---- vector (ymm) butterflies: 4 words per register
    def loop(self, lab: str, reg: str) -> None:
        self(f"  {reg} = {reg} - 1")
        self(f"  =? {reg} - 0")
        self(f"  goto {lab} if !=")

    def gtab(self, d: int, ind: str) -> None:
        self(f"{ind}g = &TB")
        if self.tab[d]:
            self(f"{ind}g = g + {8 * self.tab[d]}")

    def split(self, D: int, b: int, base: str, off: int, tr: bool) -> None:
        """load two ymm of plane b at base + off, separate the block halves
        into LO[b], HB[b] (D = 128: permute128; D = 64: unpack); tr: then
        VL ^= VH (the transposed butterfly's first step) else nothing"""
        self(f"  VX = mem256[{base} + {off}]")
        self(f"  VY = mem256[{base} + {off + 32}]")
        if D == 128:
            self("  VL = permute128(VX, VY, 0x20)")
            self("  VH = permute128(VX, VY, 0x31)")
        else:
            self("  VL = unpacklo64(VX, VY)")
            self("  VH = unpackhi64(VX, VY)")
        if tr:
            self("  VL = VL ^ VH")
        self(f"  mem256[f + {32 * b}] = VL")
        self(f"  mem256[h + {32 * b}] = VH")

    def join(self, D: int, base: str, off: int) -> None:
        if D == 128:
            self("  VX = permute128(VL, VH, 0x20)")
            self("  VY = permute128(VL, VH, 0x31)")
        else:
            self("  VX = unpacklo64(VL, VH)")
            self("  VY = unpackhi64(VL, VH)")
        self(f"  mem256[{base} + {off}] = VX")
        self(f"  mem256[{base} + {off + 32}] = VY")

    def vbutterflies(self, d: int, base: str, tr: bool) -> None:
        """level d on the planes at base (v, or &E when tr): forward
        lo ^= X hi, hi ^= lo; transposed lo ^= hi, hi ^= X lo"""
        m, PB = self.m, self.PB
        D = 1 << (m - d - 1)
        Dw = D // 64
        self(f"# level {d}{' (transposed)' if tr else ''}: distance {D}, ymm")
        if D >= 256:
            outer, inner = self.label(), self.label()
            self(f"p = {base}")
            self(f"o1 = {self.n // (2 * D)}")
            self(f"{outer}:")
            self.gtab(d, "  ")
            self(f"  o0 = {Dw // 4}")
            self(f"  {inner}:")
            if tr:
                for b in range(m):
                    self(f"    VL = mem256[p + {b * PB}]")
                    self(f"    VH = mem256[p + {b * PB + 8 * Dw}]")
                    self("    VL = VL ^ VH")
                    self(f"    mem256[p + {b * PB}] = VL")
                self("    f = p")
                self(f"    h = p + {8 * Dw}")
                self.mul(PB, 32, PB, True, None, "    ", vec=True)
            else:
                self(f"    f = p + {8 * Dw}")
                self("    h = p")
                self.mul(PB, 32, PB, True, None, "    ", vec=True)
                for b in range(m):
                    self(f"    VL = mem256[p + {b * PB}]")
                    self(f"    VH = mem256[p + {b * PB + 8 * Dw}]")
                    self("    VH = VH ^ VL")
                    self(f"    mem256[p + {b * PB + 8 * Dw}] = VH")
            self("    p = p + 32")
            self(f"    g = g + {32 * m}")
            self(f"    o0 = o0 - 1")
            self(f"    =? o0 - 0")
            self(f"    goto {inner} if !=")
            self(f"  p = p + {8 * Dw}")
            self.loop(outer, "o1")
            return
        lab = self.label()
        self(f"p = {base}")
        if D in (128, 64):
            self(f"o1 = {self.n // 512}")
            self(f"{lab}:")
            self("  f = &LO")
            self("  h = &HB")
            for b in range(m):
                self.split(D, b, "p", b * PB, tr)
            self.gtab(d, "  ")
            if tr:
                self("  f = &LO")
                self("  h = &HB")
            else:
                self("  f = &HB")
                self("  h = &LO")
            self.mul(32, 32, 32, True, None, "  ", vec=True)
            self("  f = &LO")
            self("  h = &HB")
            for b in range(m):
                self(f"  VL = mem256[f + {32 * b}]")
                self(f"  VH = mem256[h + {32 * b}]")
                if not tr:
                    self("  VH = VH ^ VL")
                self.join(D, "p", b * PB)
            self("  p = p + 64")
            self.loop(lab, "o1")
            return
        assert D == 32
        # halves of each word: lo = bits 0..31, hi = bits 32..63
        self(f"o1 = {self.n // 256}")
        self(f"{lab}:")
        self("  f = &HB")
        for b in range(m):
            self(f"  VX = mem256[p + {b * PB}]")
            self("  4x VH = VX >> 32")
            if tr:
                self("  VX = VX ^ VH")
                self(f"  mem256[p + {b * PB}] = VX")
                self("  4x VH = VX << 32")
                self("  4x VH = VH >> 32")
            self(f"  mem256[f + {32 * b}] = VH")
        self.gtab(d, "  ")
        self("  h = &LO")
        self.mul(32, 32, 32, False, None, "  ", vec=True)
        for b in range(m):
            self(f"  VX = mem256[p + {b * PB}]")
            self(f"  VH = mem256[h + {32 * b}]")
            if tr:
                self("  4x VH = VH << 32")
                self("  VX = VX ^ VH")
            else:
                self("  VX = VX ^ VH")
                self("  4x VH = VX << 32")
                self("  VX = VX ^ VH")
            self(f"  mem256[p + {b * PB}] = VX")
        self("  p = p + 32")
        self.loop(lab, "o1")


    def block_loops(self, start: str, nblk: int, Dw: int, d: int) -> tuple[str, str]:
        """the heads of a layer's two loops: nblk blocks from start, Dw
        words per block, g at the layer's twiddle table; returns the labels"""
        outer, inner = self.label(), self.label()
        self(f"p = {start}")
        self(f"o1 = {nblk}")
        self(f"{outer}:")
        self("  g = &TB")
        if self.tab[d]:
            self(f"  g = g + {8 * self.tab[d]}")
        self(f"  o0 = {Dw}")
        self(f"  {inner}:")
        return outer, inner
    def butterflies(self, d: int) -> None:
        if self.vec:
            return self.vbutterflies(d, "v", False)
        m, PB = self.m, self.PB
        D = 1 << (m - d - 1)
        self(f"# level {d}: butterflies at distance {D}: lo ^= X_{d} hi, hi ^= lo")
        if D == 32:
            lab = self.label()
            self("p = v")
            self("o1 = 64")
            self(f"{lab}:")
            self("  f = &HI")
            for b in range(m):
                self(f"  lo = mem64[p + {b * PB}]")
                self("  lo = lo >> 32")
                self(f"  mem64[f + {8 * b}] = lo")
            self("  g = &TB")
            if self.tab[d]:
                self(f"  g = g + {8 * self.tab[d]}")
            self("  h = &PR")
            self.mul(8, 8, 8, False, None, "  ")
            self("  h = &PR")
            for b in range(m):
                self(f"  lo = mem64[p + {b * PB}]")
                self(f"  hi = mem64[h + {8 * b}]")
                self("  lo = lo ^ hi")
                self("  hi = lo << 32")
                self("  lo = lo ^ hi")
                self(f"  mem64[p + {b * PB}] = lo")
            self("  p = p + 8")
            self("  o1 = o1 - 1")
            self("  =? o1 - 0")
            self(f"  goto {lab} if !=")
            return
        Dw = D // 64
        nblk = self.n // (2 * D)
        outer, inner = self.block_loops("v", nblk, Dw, d)
        self(f"    f = p + {8 * Dw}")
        self("    h = p")
        self.mul(PB, 8, PB, True, None, "    ")
        for b in range(m):
            self(f"    lo = mem64[p + {b * PB}]")
            self(f"    hi = mem64[p + {b * PB + 8 * Dw}]")
            self("    hi = hi ^ lo")
            self(f"    mem64[p + {b * PB + 8 * Dw}] = hi")
        self("    p = p + 8")
        self(f"    g = g + {8 * m}")
        self("    o0 = o0 - 1")
        self("    =? o0 - 0")
        self(f"    goto {inner} if !=")
        self(f"  p = p + {8 * Dw}")
        self("  o1 = o1 - 1")
        self("  =? o1 - 0")
        self(f"  goto {outer} if !=")

    def vdecls(self) -> list[str]:
        """the ymm names of the vector form (cpu line first in the head)"""
        if not self.vec:
            return []
        m = self.m
        return ["cpu avx2" if self.impl not in TERNLOG else "cpu avx2 avx512f avx512vl",
                "reg256 VA VB VG VT VX VY VL VH " + " ".join(f"VF{i}" for i in range(m)),
                "stack256 " + " ".join(f"VS{k}" for k in range(m, 2 * m - 1)),
                f"stack256 LO[{m}]", f"stack256 HB[{m}]", *self.vextra(),
                *(["reg256 VZ VM " + " ".join(f"VR{i}" for i in range(self.nvr(getattr(self, "nw", 2)))),
                   f"stack256 RM[{len(self.rm)}]"] if self.rm else [])]

    def vextra(self) -> list[str]:
        return ["stack256 MK[8]"]                # the broadcast's dword masks

    def fused(self) -> list[str]:
        """self.L, with the AND-XOR pairs fused where the impl has ternlog"""
        if self.impl not in TERNLOG:
            return self.L
        vec = {n for d in self.vdecls() if d.startswith("reg256 ") for n in d.split()[1:]}
        return fuse_andxor(self.L, vec)

    def render(self) -> str:
        m = self.m
        name = f"qhasm_kernel_mceliece_gf{m}_fft_{impl_id(self.impl)}_fft"
        self("# f to the stack (every input read before v is written)")
        self("h = &C")
        for k in range(2 * m):
            self(f"lo = mem64[fi + {8 * k}]")
            self(f"mem64[h + {8 * k}] = lo")
        if self.cwords(2) > 2 * m:
            self("lo = 0")
            for k in range(2 * m, self.cwords(2)):
                self(f"mem64[h + {8 * k}] = lo")
        if self.vradix_ok():
            self.rmasks([st for d in range(fm.LEVELS) for st in self.fsteps(fm.NCOEF >> d)])
        for d in range(fm.LEVELS):
            self.radix(d)
        self.table()
        self.broadcast()
        for d in range(fm.LEVELS - 1, -1, -1):
            self.butterflies(d)
        t = mc.IMPLS[self.simpl]
        head = [f"# generated by gen/mceliece_fft.py (additive FFT over GF(2^{m}), {self.impl}). DO NOT EDIT.",
                f"# 128 bitsliced coefficients evaluated at the {self.n} points bitrev_{m}(e);"
                " constants from gen/mceliece_fft_math.py; docs/mceliece-fft.md.",
                "int64 v fi f g h p o0 o1 lo hi y0 y1 k",
                f"{t.vtype} A B G T " + " ".join(f"F{i}" for i in range(m)),
                f"{t.vtype} " + " ".join(f"H{k}" for k in range(m, 2 * m - 1)),
                "stack64 " + " ".join(f"S{k}" for k in range(m, 2 * m - 1)),
                f"stack64 C[{self.cwords(2)}]", f"stack64 HI[{m}]", f"stack64 PR[{m}]", f"stack64 TB[{self.tabwords}]",
                *self.vdecls(), "", f"enter {name}", "input v fi", "secret [fi]"]
        return "\n".join(head + self.fused() + ["leave"]) + "\n"


class TGen(Gen):
    """The transposed FFT: s_j = sum_e r_e P(e)^j for j < K (K = 128 for
    m = 12, 256 for m = 13: the 2t syndrome sums), r bitsliced (m planes
    of 2^m bits), s bitsliced (m planes of K/64 words).  The forward
    steps transposed, in reverse order (gen/mceliece_fft_math.py tmodel):
    butterflies d = 0..L-1 as lo ^= hi, hi ^= X_d lo; the broadcast as the
    XOR of each lane's 2^m/K positions; the radix steps transposed
    (x ^= (x & M) << s for x ^= (x >> s) & M) in reverse order; the
    scalings.  r is copied into a stack array E first."""

    def vextra(self) -> list[str]:
        return []

    def __init__(self, impl: str, m: int) -> None:
        self.K = 128 if m == 12 else 256
        self.nw = self.K // 64
        super().__init__(impl, m, self.K.bit_length() - 1)

    def tbutterflies(self, d: int) -> None:
        if self.vec:
            return self.vbutterflies(d, "&E", True)
        m, PB = self.m, self.PB
        D = 1 << (m - d - 1)
        self(f"# level {d} (transposed): distance {D}: lo ^= hi, hi ^= X_{d} lo")
        if D == 32:
            lab = self.label()
            self("p = &E")
            self(f"o1 = {self.n // 64}")
            self(f"{lab}:")
            self("  f = &HI")
            for b in range(m):
                self(f"  lo = mem64[p + {b * PB}]")
                self("  hi = lo >> 32")
                self("  lo = lo ^ hi")
                self(f"  mem64[p + {b * PB}] = lo")
                self("  lo = (uint32) lo" if False else "  k = 0xffffffff")
                self("  lo = lo & k")
                self(f"  mem64[f + {8 * b}] = lo")
            self("  g = &TB")
            if self.tab[d]:
                self(f"  g = g + {8 * self.tab[d]}")
            self("  h = &PR")
            self.mul(8, 8, 8, False, None, "  ")
            self("  h = &PR")
            for b in range(m):
                self(f"  lo = mem64[p + {b * PB}]")
                self(f"  hi = mem64[h + {8 * b}]")
                self("  hi = hi << 32")
                self("  lo = lo ^ hi")
                self(f"  mem64[p + {b * PB}] = lo")
            self("  p = p + 8")
            self("  o1 = o1 - 1")
            self("  =? o1 - 0")
            self(f"  goto {lab} if !=")
            return
        Dw = D // 64
        nblk = self.n // (2 * D)
        outer, inner = self.block_loops("&E", nblk, Dw, d)
        for b in range(m):
            self(f"    lo = mem64[p + {b * PB}]")
            self(f"    hi = mem64[p + {b * PB + 8 * Dw}]")
            self("    lo = lo ^ hi")
            self(f"    mem64[p + {b * PB}] = lo")
        self("    f = p")
        self(f"    h = p + {8 * Dw}")
        self.mul(PB, 8, PB, True, None, "    ")
        self("    p = p + 8")
        self(f"    g = g + {8 * m}")
        self("    o0 = o0 - 1")
        self("    =? o0 - 0")
        self(f"    goto {inner} if !=")
        self(f"  p = p + {8 * Dw}")
        self("  o1 = o1 - 1")
        self("  =? o1 - 0")
        self(f"  goto {outer} if !=")

    def tbroadcast(self) -> None:
        """lane L of C = XOR of positions 32L .. 32L+31 of E (2^m / K = 32):
        per word of C (lanes 64c .. 64c+63, E words 32c .. 32c+31) a
        packing tree on the 32 words: combining X and Y at width w folds
        each 2w-bit field of X into its low half and of Y into its high
        half (z = ((x ^ x >> w) & LO_w) | ((y ^ y << w) & HI_w), fields
        never cross a 32-bit half, parities kept); after 5 levels bit
        32h + k holds the parity of half h of leaf bitrev5(k).  With leaf i
        = word 16 (i >> 4) + bitrev4(i & 15), one delta swap of position
        bits 0 and 5 puts the parity of half h of word j at bit 2j + h."""
        m, nw = self.m, self.nw
        assert self.n // self.K == 32
        self("# broadcast (transposed): coefficient lane L = XOR of positions 32L .. 32L+31 (packing tree)")
        self("p = &E")
        self("h = &C")
        order = [16 * (i >> 4) + int(f"{i & 15:04b}"[::-1], 2) for i in range(32)]
        for b in range(m):
            for w in range(nw):
                self(f"f = p + {b * self.PB + 256 * w}")
                pending = [False] * 6
                for i in range(32):
                    cur, lvl = "hi", 0
                    self(f"hi = mem64[f + {8 * order[i]}]")
                    while pending[lvl]:
                        x, sh = f"q{lvl}", 16 >> lvl
                        lo_m = sum(((1 << sh) - 1) << o for o in range(0, 64, 2 * sh))
                        self(f"y0 = {x} >> {sh}")
                        self(f"{x} = {x} ^ y0")
                        self(f"k = {hex(lo_m)}")
                        self(f"{x} = {x} & k")
                        self(f"y0 = {cur} << {sh}")
                        self(f"{cur} = {cur} ^ y0")
                        self(f"k = {hex(lo_m << sh)}")
                        self(f"{cur} = {cur} & k")
                        self(f"{x} = {x} | {cur}")
                        pending[lvl], cur, lvl = False, x, lvl + 1
                    if cur != f"q{lvl}":
                        self(f"q{lvl} = {cur}")
                    pending[lvl] = True
                # delta swap of position bits 0 and 5: t = (x ^ x >> 31) & 0xaaaaaaaa; x ^= t ^ t << 31
                self("y0 = q5 >> 31")
                self("y0 = y0 ^ q5")
                self("k = 0xaaaaaaaa")
                self("y0 = y0 & k")
                self("q5 = q5 ^ y0")
                self("y0 = y0 << 31")
                self("q5 = q5 ^ y0")
                self(f"mem64[h + {8 * (nw * b + w)}] = q5")

    # multiword lane operations on the plane words X = x0 .. x(nw-1)
    def tstep(self, kind: str, s: int, blk: int) -> None:
        nw = self.nw
        X = [f"x{k}" for k in range(nw)]
        q, r = divmod(s, 64)
        if kind == "xorT":
            mk = words(fm.lane_mask(s, blk, self.K), nw)
            for k in range(nw - 1, -1, -1):           # descending: lower words still old
                # word k of (x & M) << s: (Z[k-q] << r) | (Z[k-q-1] >> (64-r)), Z = x & M
                parts = []
                for src, sh in ((k - q, r), (k - q - 1, r - 64)):
                    if 0 <= src < nw and (sh > -64) and not (sh < 0 and r == 0):
                        parts.append((src, sh))
                parts = [(src, sh) for src, sh in parts if mk[src]]
                if not parts:
                    continue
                self("y0 = 0")
                for src, sh in parts:
                    zm = mk[src]
                    self(f"k = {hex(zm)}")
                    self(f"y1 = {X[src]} & k")
                    if sh > 0:
                        self(f"y1 = y1 << {sh}")
                    elif sh < 0:
                        self(f"y1 = y1 >> {-sh}")
                    self("y0 = y0 | y1")
                self(f"{X[k]} = {X[k]} ^ y0")
            return
        # swap: t = ((x >> s) ^ x) & M1; x ^= t ^ (t << s)
        mk = words(fm.lane_mask(s, 1, self.K), nw)
        T = [f"t{k}" for k in range(nw)]
        for k in range(nw):
            self(f"{T[k]} = 0")
            if not mk[k]:
                continue
            for src, sh in ((k + q, r), (k + q + 1, 64 - r)):
                if src < nw and not (src == k + q + 1 and r == 0):
                    self(f"y1 = {X[src]}")
                    if src == k + q and sh:
                        self(f"y1 = y1 >> {sh}")
                    elif src == k + q + 1:
                        self(f"y1 = y1 << {sh}")
                    self(f"{T[k]} = {T[k]} | y1")
            self(f"{T[k]} = {T[k]} ^ {X[k]}")
            self(f"k = {hex(mk[k])}")
            self(f"{T[k]} = {T[k]} & k")
        for k in range(nw):
            self(f"{X[k]} = {X[k]} ^ {T[k]}")
        for k in range(nw - 1, -1, -1):
            self("y0 = 0")
            for src, sh in ((k - q, r), (k - q - 1, r - 64)):
                if 0 <= src < nw and not (sh < 0 and r == 0):
                    self(f"y1 = {T[src]}")
                    if sh > 0:
                        self(f"y1 = y1 << {sh}")
                    elif sh < 0:
                        self(f"y1 = y1 >> {-sh}")
                    self("y0 = y0 | y1")
            self(f"{X[k]} = {X[k]} ^ y0")

    def tradix(self, d: int) -> None:
        m, nw = self.m, self.nw
        self(f"# level {d} (transposed): radix conversion steps of {self.K >> d} lanes, transposed")
        if self.vradix_ok(nw):
            self.vsteps(fm.tsteps(self.K >> d), nw)
        else:
            self("f = &C")
            for b in range(m):
                for k in range(nw):
                    self(f"x{k} = mem64[f + {8 * (nw * b + k)}]")
                for st in fm.tsteps(self.K >> d):
                    self.tstep(*st)
                for k in range(nw):
                    self(f"mem64[f + {8 * (nw * b + k)}] = x{k}")
        if d:
            consts = fm.planes_of(m, fm.lane_consts(m, d, self.K))
            for w in range(nw):
                self(f"# level {d}: lanes times b_{d}^(k mod {self.K >> d}), word {w}")
                self("f = &C")
                if w:
                    self(f"f = f + {8 * w}")
                self("g = f")
                self("h = f")
                self.mul(8 * nw, 0, 8 * nw, False, [words(c, nw)[w] for c in consts])

    def render(self) -> str:
        m, nw = self.m, self.nw
        name = f"qhasm_kernel_mceliece_gf{m}_fft_tr_{impl_id(self.impl)}_fft_tr"
        self("# r to the stack (every input read before s is written)")
        self("h = &E")
        lab = self.label()
        step = 32 if self.vec else 8
        self(f"o0 = {m * self.n // (8 * step)}")
        self(f"{lab}:")
        if self.vec:
            self("  VX = mem256[ri + 0]")
            self("  mem256[h + 0] = VX")
        else:
            self("  lo = mem64[ri + 0]")
            self("  mem64[h + 0] = lo")
        self(f"  ri = ri + {step}")
        self(f"  h = h + {step}")
        self("  o0 = o0 - 1")
        self("  =? o0 - 0")
        self(f"  goto {lab} if !=")
        self.table()
        for d in range(self.lev):
            self.tbutterflies(d)
        self.tbroadcast()
        if self.vradix_ok(nw):
            self.rmasks([st for d in range(self.lev) for st in fm.tsteps(self.K >> d)], nw)
        for d in range(self.lev - 1, -1, -1):
            self.tradix(d)
        self("h = &C")
        for k in range(m * nw):
            self(f"lo = mem64[h + {8 * k}]")
            self(f"mem64[so + {8 * k}] = lo")
        t = mc.IMPLS[self.simpl]
        head = [f"# generated by gen/mceliece_fft.py (transposed additive FFT over GF(2^{m}), {self.impl}). DO NOT EDIT.",
                f"# s_j = sum_e r_e P(e)^j, j < {self.K}, P(e) = bitrev_{m}(e);"
                " constants from gen/mceliece_fft_math.py; docs/mceliece-fft.md.",
                "int64 so ri f g h p o0 o1 lo hi y0 y1 k q0 q1 q2 q3 q4 q5 " + " ".join(f"x{k} t{k}" for k in range(nw)),
                f"{t.vtype} A B G T " + " ".join(f"F{i}" for i in range(m)),
                f"{t.vtype} " + " ".join(f"H{k}" for k in range(m, 2 * m - 1)),
                "stack64 " + " ".join(f"S{k}" for k in range(m, 2 * m - 1)),
                f"stack64 C[{self.cwords(nw)}]", f"stack64 HI[{m}]", f"stack64 PR[{m}]", f"stack64 TB[{self.tabwords}]",
                f"stack64 E[{m * self.n // 64}]",
                *self.vdecls(), "", f"enter {name}", "input so ri", "secret [ri]"]
        return "\n".join(head + self.fused() + ["leave"]) + "\n"


def qpath(impl: str, params: dict[str, str]) -> str:
    tr = "_tr" if params.get("dir") == "tr" else ""
    return f"{GENERATED}/mceliece_gf{params['m']}_fft{tr}_{impl_id(impl)}.q"


def text(impl: str, params: dict[str, str], root: str = "") -> str:
    if params.get("dir") == "tr":
        return TGen(impl, int(params["m"])).render()
    return Gen(impl, int(params["m"])).render()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.mceliece_fft", description=__doc__.splitlines()[0])
    ap.add_argument("--impl", default="amd64", choices=IMPLS)
    ap.add_argument("--params", default="m=12")
    a = ap.parse_args(argv)
    sys.stdout.write(text(a.impl, dict(kv.split("=", 1) for kv in a.params.split(","))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
