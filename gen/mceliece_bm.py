"""Generate the Classic McEliece Berlekamp-Massey kernel (.q), bitsliced.

    python3 -m gen.mceliece_bm [--impl amd64-avx2|amd64-avx512] [--params m=12]

    qhasm_kernel_mceliece_gf<m>_bm_<impl>_bm(uint64_t *f, const uint64_t *s)

s: the 2t syndromes s_0 .. s_(2t-1) in the transposed FFT's output layout
(m planes of K/64 words, K = 128 for m = 12, 256 for m = 13; coefficient j
of plane b at bit j % 64 of s[(K/64) b + j/64]; lanes from 2t on are
ignored).  f: the error locator reversed, sigma_k = C_(t-k) (k <= t), in
the FFT's input layout (plane b at f[2b], f[2b+1], lanes above t zero),
where C is the connection polynomial of the inversion-free
Berlekamp-Massey iteration (docs/mceliece-fft.md, "Berlekamp-Massey"):
2t iterations of

    d = sum_i C_i s_(N-i)
    up = (d != 0) and 2L <= N
    C' = b C + d B,  B' = x (up ? C : B),  L' = up ? N+1-L : L,  b' = up ? d : b

from C = 1, B = x, b = 1, L = 0: the usual C + (d/b) B times the product
of the b's (nonzero), same roots.  Constant time: 2t iterations, masks.

The AVX2 form keeps, per plane, one 256-lane word V_b: C in lanes 0..127
with C_i at lane t-i (reversed: the output needs no reversal and x B is a
shift down by one lane) and B in lanes 128..255 the same way.  The
syndrome window S_N (lane l = s_(N-t+l), so that lanes 0..t of V * S_N
are the terms C_i s_(N-i)) is read from eight copies of the zero-padded
syndromes shifted by 0..7 lanes, built once: S_N is a 32-byte load at
byte N/8 of copy N % 8 (the address depends on N only).  Per iteration:
the column multiplier of gen/mceliece.py for V * S_N (only lanes 0..127
matter), the parity of each plane's lanes 0..127 folded four planes per
ymm into qword masks, d != 0 and the length update in int64 registers,
the masks G_b = (b's bit b in lanes 0..127, d's in 128..255) and a second
product V * G (b C | d B), then V' = (bC + dB | x (up ? C : B)).

The AVX-512 form (amd64-avx512, class Gen512) keeps two planes per zmm:
pair P_i = (C_i | B_i | C_(i+h) | B_(i+h)) in 128-bit quarters, h =
ceil(m/2) (m = 13: the high half of P_6 is zero), in registers across the
iterations.  Both products are h*m terms P_i & X_j (vpternlogd) into the
accumulators A_k = (column k | column k+h), k < h+m-1, with X_j the window
plane broadcast to both halves (vbroadcasti64x4) or G_j = (b_j | d_j |
b_j | d_j) (one vpermt2d from the dword masks of b and d); the reduction
mod f XORs whole accumulators for k >= m and moves the high half of A_k,
k in [m-h, m-1], to the low halves of its targets and the low halves of
A_(h..m-1) to the high halves of A_(0..m-h-1) (vshufi32x4; for even m one
half swap does both for the tap z^0); the parities of the C quarters are
folded four, then eight, then sixteen per zmm into dword masks (DM; b's
masks BM in the same dwords); d != 0 by vpmovmskb; the update is per
pair: the halves of b C | d B added (vshufi32x4), up ? C : B and the
shift by one lane in the B quarters, three vpternlogd.  docs/mceliece-fft.md
"Two planes per zmm".
"""
from __future__ import annotations

import argparse
import re
import sys

from gen import mceliece as mc

GENERATED = "specs/mceliece/generated"
T = {12: 64, 13: 119}
IMPLS = ("amd64-avx2", "amd64-avx512")
# the column multiplier of gen/mceliece.py per implementation: AVX-512 is
# its amd64-avx512 form (every term after a column's first one vpternlogq,
# the high columns in registers: 32 of them) on 256-bit words
MULIMPL = {"amd64-avx2": "amd64-avx2", "amd64-avx512": "amd64-avx512"}
TERN_SELECT = 0xD8   # ternlog(A, B, C): C ? B : A


def impl_id(impl: str) -> str:
    return impl.replace("-", "_")


def multiplier(impl: str, m: int, f: str, fs: int, g: str, gs: int, h: str, hs: int) -> list[str]:
    """gen/mceliece.py's column multiplier h = f * g on 256-lane planes,
    its pointers renamed and each with its own plane stride"""
    lines, _ = mc.mul_columns(MULIMPL[impl], m, 1)
    lines = [x.replace("mem512[", "mem256[") for x in lines]
    names = {"f": (f, fs), "g": (g, gs), "h": (h, hs)}

    def addr(mo: re.Match[str]) -> str:
        p, s = names[mo.group(1)]
        return f"[{p} + {int(mo.group(2)) * s}]"

    return [re.sub(r"\[([fgh]) \+ (\d+)\]", addr, x) for x in lines]


class Gen:
    def __init__(self, impl: str, m: int) -> None:
        assert impl in IMPLS and m in T
        self.impl, self.m, self.t = impl, m, T[m]
        self.sw = 2 if m == 12 else 4                  # words per syndrome plane (input)
        self.L: list[str] = []

    def __call__(self, s: str) -> None:
        self.L.append(s)

    def select(self, a: str, b: str) -> None:
        """a = UP ? b : a (AVX-512: one vpternlogq; b may be changed)"""
        if self.impl == "amd64-avx512":
            self(f"{a} = ternlog({a}, {b}, UP, {hex(TERN_SELECT)})")
            return
        self(f"{b} = {b} ^ {a}")
        self(f"{b} = {b} & UP")
        self(f"{a} = {a} ^ {b}")

    def copies(self) -> None:
        """ZB copy r (0..7), plane b: 8 words, lane k = s_(k+r-t) for
        0 <= k+r-t < 2t (the syndromes shifted up by t-r lanes), built with
        int64 shifts from the (masked) input words"""
        m, t, sw = self.m, self.t, self.sw
        self("# the eight shifted copies of the syndromes (lane k of copy r: s_(k+r-t))")
        for b in range(m):
            for w in range(sw):
                self(f"x{w} = mem64[si + {8 * (sw * b + w)}]")
                top = 2 * t - 64 * w                     # valid lanes in this word
                if top < 64:
                    self(f"x{w} &= {hex((1 << top) - 1)}" if top < 32 else f"y0 = {hex((1 << top) - 1)}")
                    if top >= 32:
                        self(f"x{w} &= y0")
            for r in range(8):
                sh = t - r
                q, rr = divmod(sh, 64)
                for w in range(8):
                    off = 8 * ((r * m + b) * 8 + w)
                    lo, hi = w - q - 1, w - q                # source words (lo: the bits from below)
                    parts = []
                    if 0 <= hi < sw:
                        parts.append(("<<", hi, rr))
                    if rr and 0 <= lo < sw:
                        parts.append((">>", lo, 64 - rr))
                    if not parts:
                        self(f"mem64[zp + {off}] = 0")
                        continue
                    for k, (op, src, n) in enumerate(parts):
                        v = "y1" if k == 0 else "y2"
                        self(f"{v} = x{src}")
                        if n:
                            self(f"{v} {op}= {n}")
                    if len(parts) == 2:
                        self("y1 |= y2")
                    self(f"mem64[zp + {off}] = y1")

    def parity_masks(self) -> list[str]:
        """D<g>: qword masks of the parities of planes 4g, 4g+2, 4g+1, 4g+3
        (lanes 0..127 of P); returns the group variable names"""
        m = self.m
        groups = []
        for g in range(0, m, 4):
            pl = [g + k for k in range(4)]
            for k, b in enumerate(pl):
                self(f"Q{k} = mem256[pp + {32 * b}]" if b < m else f"Q{k} = ZERO")
            self("X = permute128(Q0, Q1, 0x20)")
            self("Y = permute128(Q2, Q3, 0x20)")
            self("Q0 = unpacklo64(X, Y)")
            self("Q1 = unpackhi64(X, Y)")
            D = f"D{g // 4}"
            self(f"{D} = Q0 ^ Q1")
            for s in (32, 16, 8, 4, 2, 1):
                self(f"4x X = {D} << {s}")
                self(f"{D} = {D} ^ X")
            self(f"4x {D} = {D} >> 63")
            self(f"4x {D} = ZERO - {D}")
            groups.append(D)
        return groups

    def window(self) -> None:
        """g = the window S_N: copy N % 8 (64 m bytes each) at byte N / 8"""
        self("# the window S_N: copy N % 8 at byte N / 8")
        self("g = n")
        self("g &= 7")
        self(f"g = g * {64 * self.m}")
        self("u = n")
        self("u >>= 3")
        self("g += u")
        self("g += zp")

    def iteration(self) -> None:
        m, t = self.m, self.t
        self.window()
        self("# P = V * S_N")
        self.L += ["  " + x for x in multiplier(self.impl, m, "vp", 32, "g", 64, "pp", 32)]
        self("# d: the parities of P's planes (lanes 0..127) as qword masks")
        groups = self.parity_masks()
        self("NZ = " + groups[0] if len(groups) == 1 else f"NZ = {groups[0]} | {groups[1]}")
        for D in groups[2:]:
            self(f"NZ = NZ | {D}")
        self("X = permute64(NZ, 0x4e)")
        self("NZ = NZ | X")
        self("X = shuffle32(NZ, 0x4e)")
        self("NZ = NZ | X")
        self("x128 = low128(NZ)")
        self("nz = x128")
        self("# up = (d != 0) and 2L <= N; L = up ? N+1-L : L")
        self("y0 = L + L")
        self("y0 -= n")
        self("y0 -= 1")
        self("(int64) y0 >>= 63")
        self("up = nz")
        self("up &= y0")
        self("y1 = n + 1")
        self("y1 -= L")
        self("y1 ^= L")
        self("y1 &= up")
        self("L ^= y1")
        self("4x UP = up")
        self("# G_b = (b's bit b | d's bit b); b = up ? d : b")
        qpos = {0: 0, 1: 2, 2: 1, 3: 3}
        for b in range(m):
            D = groups[b // 4]
            self(f"X = permute64({D}, {hex(0x55 * qpos[b % 4])})")
            self(f"Y = mem256[bl + {32 * b}]")
            self("Q0 = blend32(X, Y, 0x0f)")
            self(f"mem256[gp + {32 * b}] = Q0")
            self.select("Y", "X")
            self(f"mem256[bl + {32 * b}] = Y")
        self("# P = V * G = (b C | d B)")
        self.L += ["  " + x for x in multiplier(self.impl, m, "vp", 32, "gp", 32, "pp", 32)]
        self("# V = (b C + d B | x (up ? C : B))")
        for b in range(m):
            self(f"X = mem256[pp + {32 * b}]")
            self("Y = permute128(X, X, 0x01)")
            self("X = X ^ Y")
            self(f"Q0 = mem256[vp + {32 * b}]")
            self("Y = permute128(Q0, Q0, 0x00)")
            self.select("Q0", "Y")
            self("Y = unpackhi64(Q0, ZERO)")
            self("4x Y = Y << 63")
            self("4x Q0 = Q0 >> 1")
            self("Q0 = Q0 | Y")
            self("Q0 = blend32(Q0, X, 0x0f)")
            self(f"mem256[vp + {32 * b}] = Q0")

    def render(self) -> str:
        m, t = self.m, self.t
        name = f"qhasm_kernel_mceliece_gf{m}_bm_{impl_id(self.impl)}_bm"
        self("# V: C = 1 (C_0 at lane t), B = x (B_1 at lane 128 + t - 1); b = 1")
        self("ZERO = 0")
        for b in range(m):
            self(f"mem256[vp + {32 * b}] = ZERO")
            self(f"mem256[bl + {32 * b}] = ZERO")
        self(f"y0 = {1 << (t % 64)}")
        self(f"mem64[vp + {8 * (t // 64)}] = y0")
        self(f"y0 = {1 << ((t - 1) % 64)}")
        self(f"mem64[vp + {16 + 8 * ((t - 1) // 64)}] = y0")
        self("y0 = -1")
        for k in range(4):
            self(f"mem64[bl + {8 * k}] = y0")
        self.copies()
        self("L = 0")
        self("n = 0")
        self("loop:")
        self.iteration()
        self("  n += 1")
        self(f"  =? n - {2 * t}")
        self("goto loop if !=")
        self("# f: lanes 0..127 of V (sigma_k = C_(t-k))")
        for b in range(m):
            self(f"y0 = mem64[vp + {32 * b}]")
            self(f"y1 = mem64[vp + {32 * b + 8}]")
            self(f"mem64[fo + {16 * b}] = y0")
            self(f"mem64[fo + {16 * b + 8}] = y1")
        head = [f"# generated by gen/mceliece_bm.py (Berlekamp-Massey over GF(2^{m}), t = {t}, {self.impl}). DO NOT EDIT.",
                "# inversion-free, 2t iterations, constant time; docs/mceliece-fft.md.",
                "cpu avx2" if self.impl == "amd64-avx2" else "cpu avx2 avx512f avx512vl",
                "int64 fo si vp bl gp pp zp g u n L nz up y0 y1 y2 " + " ".join(f"x{w}" for w in range(self.sw)),
                "reg128 x128",
                "reg256 A B G T " + " ".join(f"F{i}" for i in range(m)),
                "reg256 X Y Q0 Q1 Q2 Q3 NZ UP ZERO " + " ".join(f"D{g}" for g in range((m + 3) // 4)),
                ("stack256 " if self.impl == "amd64-avx2" else "reg256 ")
                + " ".join((f"S{k}" if self.impl == "amd64-avx2" else f"H{k}") for k in range(m, 2 * m - 1)),
                f"stack256 VS[{m}]", f"stack256 BL[{m}]", f"stack256 GS[{m}]", f"stack256 PS[{m}]",
                f"stack64 ZB[{8 * m * 8}]",
                "", f"enter {name}", "input fo si", "secret [si]",
                "vp = &VS", "bl = &BL", "gp = &GS", "pp = &PS", "zp = &ZB"]
        return "\n".join(head + self.L + ["leave"]) + "\n"


# ---------------------------------------------------------------- AVX-512: two planes per zmm

TERN_XOR3 = 0x96      # A ^ B ^ C
TERN_ANDXOR = 0x78    # A ^ (B & C)
TERN_XORAND = 0x28    # (A ^ B) & C
TERN_OR3 = 0xFE       # A | B | C
LOW = {12: (3, 0), 13: (4, 3, 1, 0)}   # the low exponents of f(z) (gen/mceliece_net.py MODULUS)


def u32s(words: list[int]) -> str:
    return " ".join(str(w & 0xFFFFFFFF) for w in words)


def u64s(words: list[int]) -> str:
    return " ".join(str(w & 0xFFFFFFFFFFFFFFFF) for w in words)


class Gen512(Gen):
    """The amd64-avx512 form: the state in pairs of planes, zmm P_i = (C_i |
    B_i | C_(i+h) | B_(i+h)) in 128-bit quarters (h = ceil(m/2); for m = 13
    the high half of P_6 is zero), docs/mceliece-fft.md "Two planes per zmm"."""

    def __init__(self, impl: str, m: int) -> None:
        super().__init__(impl, m)
        self.h = (m + 1) // 2
        self.pend: dict[int, list[str]] = {}
        self.ntemp = 0

    # the product of the pairs F_i by a value broadcast to both halves: the
    # accumulators A_k = (column k | column k+h), k = 0 .. h+m-2
    def product(self, src) -> None:
        m, h = self.m, self.h
        started = set()
        for j in range(m - 1, -1, -1):      # from the top: the reduction can start early
            x = src(j)
            for i in range(h):
                k = i + j
                if k in started:
                    self(f"A{k} = ternlog(A{k}, F{i}, {x}, {hex(TERN_ANDXOR)})")
                else:
                    self(f"A{k} = F{i} & {x}")
                    started.add(k)

    def add(self, k: int, src: str) -> None:
        self.pend.setdefault(k, []).append(src)

    def flush(self, k: int) -> None:
        """A_k ^= its pending sources, two per vpternlogd"""
        srcs = self.pend.pop(k, [])
        while len(srcs) >= 2:
            self(f"A{k} = ternlog(A{k}, {srcs[0]}, {srcs[1]}, {hex(TERN_XOR3)})")
            srcs = srcs[2:]
        if srcs:
            self(f"A{k} = A{k} ^ {srcs[0]}")

    def temp(self) -> str:
        self.ntemp += 1
        return f"T{self.ntemp - 1}"

    def reduce(self) -> None:
        """A_0 .. A_(h-1) := the product mod f as pairs (column i | column
        i+h) (for m = 13 the high half of A_6 is garbage)"""
        m, h = self.m, self.h
        low = LOW[m]
        self.ntemp = 0
        # whole accumulators: both halves are columns >= m
        for k in range(h + m - 2, m - 1, -1):
            self.flush(k)
            for e in low:
                self.add(k - m + e, f"A{k}")
        # only the high half (column k+h) is >= m: it goes to the low halves
        # of the columns k+h-m+e; the low half (column k < m) to the high
        # half of A_(k-h); both to A_(k-h) at once (a swap of the halves) when
        # k+h-m = k-h (m even)
        for k in range(m - 1, m - h - 1, -1):
            self.flush(k)
            tg = [k + h - m + e for e in low]
            lowto = k - h if k - h >= 0 else None
            if lowto is not None and lowto in tg:
                t = self.temp()
                self(f"{t} = shuffle128(A{k}, A{k}, 0x4e)")
                self.add(lowto, t)
                tg.remove(lowto)
                lowto = None
            if tg:
                t = self.temp()
                self(f"{t} = shuffle128(A{k}, ZERO, 0x0e)")
                for x in tg:
                    self.add(x, t)
            if lowto is not None:
                t = self.temp()
                self(f"{t} = shuffle128(ZERO, A{k}, 0x40)")
                self.add(lowto, t)
        for k in range(m - h - 1, -1, -1):
            self.flush(k)
        for k in range(m - h, m):
            self.flush(k)
        assert not self.pend

    def dpos(self) -> dict[int, int]:
        """plane b -> the dword of DM holding its mask (see parity)"""
        h = self.h
        Z = [[2 * p, 2 * p + h, 2 * p + 1, 2 * p + 1 + h] for p in range(3)] + [[6] * 4]
        pos: dict[int, int] = {}
        for q in range(4):
            for r, zi in enumerate((0, 2, 1, 3 if h == 7 else 2)):
                pos.setdefault(Z[zi][q], 4 * q + r)
        assert sorted(pos) == list(range(self.m))
        return pos

    def parity(self) -> None:
        """DM: dword masks of the parities of the C quarters of A_0 .. A_(h-1)"""
        h = self.h
        self("# the C quarters four per zmm: Z_p = (plane 2p, 2p+h, 2p+1, 2p+1+h)")
        for p in range(h // 2):
            self(f"Z{p} = shuffle128(A{2 * p}, A{2 * p + 1}, 0x88)")
        if h == 7:
            self("Z3 = shuffle128(A6, A6, 0x00)")
        self("# 128 -> 64 bits: W0 = (Z0 | Z1), W1 = (Z2 | Z3) in each quarter")
        self("X = unpacklo64(Z0, Z1)")
        self("W0 = unpackhi64(Z0, Z1)")
        self("W0 = W0 ^ X")
        if h == 7:
            self("X = unpacklo64(Z2, Z3)")
            self("W1 = unpackhi64(Z2, Z3)")
            self("W1 = W1 ^ X")
        else:
            self("W1 = shuffle32(Z2, 0x4e)")
            self("W1 = W1 ^ Z2")
        self("# 64 -> 32 bits: dwords (W0 lo, W1 lo, W0 hi, W1 hi) per quarter")
        self("X = unpacklo32(W0, W1)")
        self("Y = unpackhi32(W0, W1)")
        self("W0 = unpacklo64(X, Y)")
        self("DM = unpackhi64(X, Y)")
        self("DM = DM ^ W0")
        for s in (16, 8, 4, 2, 1):
            self(f"16x X = DM << {s}")
            self("DM = DM ^ X")
        self("16x DM = DM >> 31")
        self("16x DM = ZERO - DM")

    def update(self) -> None:
        """V' = (b C + d B | x (up ? C : B)) per pair from R_i = A_i"""
        m, h = self.m, self.h
        for i in range(h):
            mask = "CME" if i + h < m else "CMQ0"
            self(f"X = shuffle128(A{i}, A{i}, 0xb1)")
            self(f"X = ternlog(X, A{i}, mem512[{mask}], {hex(TERN_XORAND)})")
            self("IY = mem512[CIY]")
            self("Y = ZERO")
            self(f"Y = permute2x64(Y, IY, F{i})")
            self(f"F{i} = ternlog(F{i}, Y, K, {hex(TERN_SELECT)})")
            self(f"Y = unpackhi64(F{i}, ZERO)")
            self("8x Y = Y << 63")
            self(f"8x F{i} = F{i} >> 1")
            self(f"F{i} = ternlog(F{i}, Y, X, {hex(TERN_OR3)})")

    def iteration(self) -> None:
        m, h = self.m, self.h
        self.window()
        self("# P = V * S_N, the window broadcast to both halves (V: the pairs F_i, in registers)")

        def win(j: int) -> str:
            self(f"2x X = mem256[g + {64 * j}]")
            return "X"
        self.product(win)
        self.reduce()
        self("# d: the parities of the C quarters as dword masks")
        self.parity()
        self("# d != 0: the OR of the masks")
        self("Y256 = extract256(DM, 1)")
        self("X256 = extract256(DM, 0)")
        self("X256 = X256 | Y256")
        self("nz = movemask8(X256)")
        self("# up = (d != 0) and 2L <= N; L = up ? N+1-L : L")
        self("y2 = 0")
        self("y2 -= nz")
        self("(int64) y2 >>= 63")
        self("y0 = L + L")
        self("y0 -= n")
        self("y0 -= 1")
        self("(int64) y0 >>= 63")
        self("up = y2")
        self("up &= y0")
        self("y1 = n + 1")
        self("y1 -= L")
        self("y1 ^= L")
        self("y1 &= up")
        self("L ^= y1")
        self("# P = V * G_j, G_j = (b_j | d_j | b_j | d_j) (b's and d's dword masks)")

        def gj(j: int) -> str:
            self(f"IX = mem512[GI{j}]")
            self("G = mem512[bm]")
            self("G = permute2x32(G, IX, DM)")
            return "G"
        self.product(gj)
        self("# b = up ? d : b")
        self("8x UP = up")
        self("BM = mem512[bm]")
        self(f"BM = ternlog(BM, DM, UP, {hex(TERN_SELECT)})")
        self("mem512[bm] = BM")
        self("K = mem512[CME]")
        self("K = K | UP")
        self.reduce()
        self("# V = (b C + d B | x (up ? C : B))")
        self.update()

    def consts(self) -> list[str]:
        m, h = self.m, self.h
        pos = self.dpos()
        L = []
        for j in range(m):
            ix = [(16 + pos[j]) if (l // 4) % 2 else pos[j] for l in range(16)]
            L.append(f"const GI{j} u32 {u32s(ix)}")
        bi = [0] * 16
        bi[pos[0]] = -1
        L.append(f"const BINIT u32 {u32s(bi)}")
        L.append(f"const CME u64 {u64s([-1, -1, 0, 0, -1, -1, 0, 0])}")
        L.append(f"const CMQ0 u64 {u64s([-1, -1, 0, 0, 0, 0, 0, 0])}")
        L.append(f"const CIY u64 {u64s([0, 0, 8, 9, 0, 0, 12, 13])}")
        return L

    def render(self) -> str:
        m, t, h = self.m, self.t, self.h
        name = f"qhasm_kernel_mceliece_gf{m}_bm_{impl_id(self.impl)}_bm"
        self("# V: C = 1 (C_0 at lane t of quarter 0 of P_0), B = x (B_1 at lane t - 1 of quarter 1); b = 1")
        self("ZERO = 0")
        for i in range(h):
            self(f"mem512[vp + {64 * i}] = ZERO")
        self(f"y0 = {1 << (t % 64)}")
        self(f"mem64[vp + {8 * (t // 64)}] = y0")
        self(f"y0 = {1 << ((t - 1) % 64)}")
        self(f"mem64[vp + {16 + 8 * ((t - 1) // 64)}] = y0")
        self("BM = mem512[BINIT]")
        self("mem512[bm] = BM")
        self.copies()
        self("L = 0")
        self("n = 0")
        for i in range(h):
            self(f"F{i} = mem512[vp + {64 * i}]")
        self("loop:")
        self.iteration()
        self("  n += 1")
        self(f"  =? n - {2 * t}")
        self("goto loop if !=")
        for i in range(h):
            self(f"mem512[vp + {64 * i}] = F{i}")
        self("# f: the C quarters (plane b: quarter 0 or 2 of P_(b % h))")
        for b in range(m):
            off = 64 * (b % h) + 32 * (b // h)
            self(f"y0 = mem64[vp + {off}]")
            self(f"y1 = mem64[vp + {off + 8}]")
            self(f"mem64[fo + {16 * b}] = y0")
            self(f"mem64[fo + {16 * b + 8}] = y1")
        nt = 2 * h
        head = [f"# generated by gen/mceliece_bm.py (Berlekamp-Massey over GF(2^{m}), t = {t}, {self.impl}). DO NOT EDIT.",
                "# inversion-free, 2t iterations, constant time; two planes per zmm; docs/mceliece-fft.md.",
                "cpu avx2 avx512f avx512vl",
                "int64 fo si vp bm zp g u n L nz up y0 y1 y2 " + " ".join(f"x{w}" for w in range(self.sw)),
                "reg256 X256 Y256",
                "reg512 " + " ".join(f"F{i}" for i in range(h)),
                "reg512 " + " ".join(f"A{k}" for k in range(h + m - 1)),
                "reg512 " + " ".join(f"T{k}" for k in range(nt)),
                "reg512 X Y G IX DM BM UP K IY ZERO Z0 Z1 Z2 Z3 W0 W1",
                f"stack512 VS[{h}]", "stack512 BS[1]",
                f"stack64 ZB[{8 * m * 8}]"] + self.consts() + [
                "", f"enter {name}", "input fo si", "secret [si]",
                "vp = &VS", "bm = &BS", "zp = &ZB"]
        return "\n".join(head + self.L + ["leave"]) + "\n"


def qpath(impl: str, params: dict[str, str]) -> str:
    return f"{GENERATED}/mceliece_gf{params['m']}_bm_{impl_id(impl)}.q"


def text(impl: str, params: dict[str, str], root: str = "") -> str:
    m = int(params["m"])
    return (Gen512 if impl == "amd64-avx512" else Gen)(impl, m).render()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.mceliece_bm", description=__doc__.splitlines()[0])
    ap.add_argument("--impl", default="amd64-avx2", choices=IMPLS)
    ap.add_argument("--params", default="m=12")
    a = ap.parse_args(argv)
    sys.stdout.write(text(a.impl, dict(kv.split("=", 1) for kv in a.params.split(","))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
