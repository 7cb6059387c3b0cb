"""The Benes network of Classic McEliece as generated kernels (docs/mceliece-fft.md).

    python3 -m gen.mceliece_benes [--stdout] [--impl IMPL]

The specification's permutation network on n = 2^m positions: 2m-1 layers,
layer i (0 <= i <= 2m-2) with gap 2^s, s = min(i, 2m-2-i), and n/2 control
bits c[i*n/2 + j] (bit k of the control bits is bit k%8 of byte k/8): for
j < n/2, pos = (j mod gap) + 2 gap floor(j/gap), positions pos and pos+gap
are exchanged when c[i*n/2 + j] is 1.  Applied in this order to an array x
the layers give y with y[i] = x[pi(i)] (pi: the specification's permutation
of the control bits); in the reverse order (dir=inv) y[pi(i)] = x[i].

The kernel applies the network to P bit-planes of n bits at once (the
control bits of a pair are loaded once for all planes): P = m (the
bitsliced support: plane b holds bit b of n field elements) or P = 1.
Plane b is n/64 uint64_t words at v + b*n/8 bytes, position e at bit e%64 of
word e/64.

Per layer, with 64-bit words (int64; int32 targets treat a word as two
32-bit halves, in the machine's order):
- s >= 6 (gap of g = 2^(s-6) words): the word pairs (w, w+g), the 64
  control bits of the pair one little-endian 64-bit chunk (two mem32le
  loads): t = (a ^ b) & c; a ^= t; b ^= t.
- s < 6 (pairs inside a word): the 32 control bits of word w (bits
  32w..32w+31 of the layer) are spread to the positions r with bit s clear
  (bit k goes to k with a zero bit inserted at s: for b = 4 down to s, the
  bits at positions with bit b set move up by 2^b), giving the mask M;
  t = ((x >> gap) ^ x) & M; x ^= t ^ (t << gap).
Loops over the words of a layer (the layers are unrolled).  SPARC's 13-bit
displacements: the planes are reached through several pointers.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

ROOT_GENERATED = "specs/mceliece/generated"


@dataclass(frozen=True)
class BTgt:
    target: str
    bits: int          # 64: int64 words; 32: each word as two int32 halves
    big_endian: bool
    maxdisp: int       # largest memory displacement (and add immediate)


IMPLS: dict[str, BTgt] = {
    "amd64": BTgt("amd64", 64, False, 1 << 30),
    "x86": BTgt("x86", 32, False, 1 << 30),
    "ppc32": BTgt("ppc32", 32, True, 32767),
    "ppc64": BTgt("ppc64", 64, True, 32767),
    "sparc64": BTgt("sparc64", 64, True, 4095),
    # the bit layers (gap < 64) on ymm, eight words per step; the word layers int64
    "amd64-avx2": BTgt("amd64", 64, False, 1 << 30),
}
VEC = {"amd64-avx2"}


def impl_id(impl: str) -> str:
    return impl.replace("-", "_")


def prim_name(m: int, planes: int, inverse: bool) -> str:
    return f"mceliece_gf{m}_benes" + ("" if planes == m else "_bits") + ("_inv" if inverse else "")


def layer_order(m: int, inverse: bool) -> list[int]:
    lay = list(range(2 * m - 1))
    return lay[::-1] if inverse else lay


def gap_exp(m: int, i: int) -> int:
    return min(i, 2 * m - 2 - i)


def spread_masks(s: int, width: int) -> list[tuple[int, int]]:
    """(mask, shift) steps moving bit k of a width/2-bit value to k with a
    zero inserted at bit s"""
    top = (width // 2).bit_length() - 2          # highest bit of k: 4 (64) or 3 (32)
    full = (1 << width) - 1
    out = []
    for b in range(top, s - 1, -1):
        sh = 1 << b
        lo = sum(((1 << sh) - 1) << (2 * sh * q) for q in range(width // (2 * sh)))
        out.append((full & ~lo, sh))
    return out


def spread_check() -> None:
    """self-check of spread_masks against the definition"""
    for width in (64, 32):
        for s in range((width // 2).bit_length() - 1):
            for k in range(width // 2):
                x = 1 << k
                for mk, sh in spread_masks(s, width):
                    t = x & mk
                    x ^= t
                    x |= t << sh
                want = (k & ((1 << s) - 1)) | ((k >> s) << (s + 1))
                assert x == 1 << want, (width, s, k, x, want)


class Gen:
    def __init__(self, impl: str, m: int, planes: int, inverse: bool) -> None:
        self.t = IMPLS[impl]
        self.vec = impl in VEC
        self.m, self.P, self.inverse = m, planes, inverse
        self.n = 1 << m
        self.W = self.n // 64                 # uint64 words per plane
        self.PB = self.n // 8                 # bytes per plane
        self.L: list[str] = []
        self.nptr = 1

    def __call__(self, s: str) -> None:
        self.L.append(s)

    # ---- plane pointers: x_k reaches planes k*G .. k*G+G-1 (G = all but on SPARC)
    def groups(self, extra: int) -> int:
        """planes per pointer so that (G-1)*PB + extra fits a displacement"""
        G = self.P
        while G > 1 and (G - 1) * self.PB + extra > self.t.maxdisp:
            G -= 1
        return G

    def addr(self, plane: int, off: int, G: int) -> str:
        k, r = divmod(plane, G)
        return f"x{k} + {r * self.PB + off}"

    def init_ptrs(self, G: int) -> None:
        self("x0 = v")
        for k in range(1, (self.P + G - 1) // G):
            step = G * self.PB
            self(f"x{k} = x{k - 1}")
            while step:
                d = min(step, self.t.maxdisp)
                self(f"x{k} = x{k} + {d}")
                step -= d
        self.nptr = max(self.nptr, (self.P + G - 1) // G)

    def bump(self, G: int, d: int) -> None:
        for k in range((self.P + G - 1) // G):
            left = d
            while left:
                e = min(left, self.t.maxdisp)
                self(f"  x{k} = x{k} + {e}")
                left -= e

    def halves(self) -> tuple[int, int]:
        """byte offsets of the low and high 32-bit halves of a uint64"""
        return (4, 0) if self.t.big_endian else (0, 4)

    def loop(self, label: str, count: int, body: list[str], tail: list[str]) -> None:
        if count == 1:
            self.L += [x.strip() for x in body]
            return
        self(f"o0 = {count}")
        self(f"{label}:")
        self.L += body + tail
        self("  o0 = o0 - 1")
        self("  =? o0 - 0")
        self(f"  goto {label} if !=")

    # ---- one layer
    def layer(self, i: int) -> None:
        m, t = self.m, self.t
        s = gap_exp(m, i)
        cbase = i * self.n // 16
        self("")
        self(f"# layer {i}: gap 2^{s}, control bits {i * self.n // 2}.. (bytes {cbase}..)")
        self(f"c = cb + {cbase}" if cbase <= t.maxdisp else f"c = cb")
        if cbase > t.maxdisp:
            left = cbase
            while left:
                d = min(left, t.maxdisp)
                self(f"c = c + {d}")
                left -= d
        if s >= 6:
            self.word_layer(i, s)
        else:
            self.bit_layer(i, s)

    def word_layer(self, i: int, s: int) -> None:
        g = 1 << (s - 6)
        G = self.groups(8 * g + 8)
        self.init_ptrs(G)
        body: list[str] = []
        sv = self.L
        self.L = body
        if self.t.bits == 64:
            self("  k = mem32le[c + 0]")
            self("  h = mem32le[c + 4]")
            self("  h <<= 32")
            self("  k |= h")
            for p in range(self.P):
                self(f"  a = mem64[{self.addr(p, 0, G)}]")
                self(f"  b = mem64[{self.addr(p, 8 * g, G)}]")
                self("  u = a ^ b")
                self("  u &= k")
                self("  a ^= u")
                self("  b ^= u")
                self(f"  mem64[{self.addr(p, 0, G)}] = a")
                self(f"  mem64[{self.addr(p, 8 * g, G)}] = b")
        else:
            lo, hi = self.halves()
            self("  k = mem32le[c + 0]")
            self("  h = mem32le[c + 4]")
            for p in range(self.P):
                for half, cw in ((lo, "k"), (hi, "h")):
                    self(f"  a = mem32[{self.addr(p, half, G)}]")
                    self(f"  b = mem32[{self.addr(p, 8 * g + half, G)}]")
                    self("  u = a ^ b")
                    self(f"  u &= {cw}")
                    self("  a ^= u")
                    self("  b ^= u")
                    self(f"  mem32[{self.addr(p, half, G)}] = a")
                    self(f"  mem32[{self.addr(p, 8 * g + half, G)}] = b")
        self.L = sv
        inner_tail: list[str] = []
        self.L, keep = inner_tail, self.L
        self.bump(G, 8)
        self("  c = c + 8")
        self.L = keep
        nblk = self.W // (2 * g)
        if g == 1:
            # one pair per block: the pairs (2q, 2q+1), the pointers advance 16
            tail: list[str] = []
            self.L, keep = tail, self.L
            self.bump(G, 16)
            self("  c = c + 8")
            self.L = keep
            self.loop(f"l{i}a", nblk, body, tail)
            return
        # blocks of 2g words: g pairs, then skip the g partner words
        inner = [f"o1 = {g}", f"l{i}b:"] + body + inner_tail + ["  o1 = o1 - 1", "  =? o1 - 0", f"  goto l{i}b if !="]
        skip: list[str] = []
        self.L, keep = skip, self.L
        self.bump(G, 8 * g)
        self.L = keep
        if nblk == 1:
            self.L += inner
        else:
            self("o0 = " + str(nblk))
            self(f"l{i}a:")
            self.L += ["  " + x for x in inner] + skip
            self("  o0 = o0 - 1")
            self("  =? o0 - 0")
            self(f"  goto l{i}a if !=")

    def spread(self, dst: str, width: int, s: int) -> list[str]:
        out = []
        for mk, sh in spread_masks(s, width):
            out += [f"  e = {hex(mk)}", f"  u = {dst} & e", f"  {dst} ^= u", f"  u <<= {sh}", f"  {dst} |= u"]
        return out

    def vbit_layer(self, i: int, s: int) -> None:
        """a bit layer on ymm, words 8q .. 8q+7 per step: the 8 control
        dwords K split into K & 0xffff and K >> 16 (the masks' low and high
        dwords, as the int32 targets do), both spread in dword lanes, then
        unpacklo32/hi32 and permute128 put word w's mask in lane w % 4"""
        gap = 1 << s
        self.init_ptrs(self.P)
        if s < 5:
            self("k = 0xffff0000ffff")
            self("4x VE = k")
        masks = spread_masks(s, 32)
        for n, (mk, sh) in enumerate(masks):
            self(f"k = {hex(mk | (mk << 32))}")
            self(f"4x VM{n} = k")
        self(f"o0 = {self.W // 8}")
        self(f"l{i}a:")
        self("  VK = mem256[c + 0]")
        if s == 5:
            self("  VH = 0")                 # gap 32: the 32 bits are the low dword's mask
        else:
            self("  8x VH = VK >> 16")
            self("  VK = VK & VE")
        for reg in ("VK", "VH"):
            for n, (mk, sh) in enumerate(masks):
                self(f"  VU = {reg} & VM{n}")
                self(f"  {reg} = {reg} ^ VU")
                self(f"  8x VU = VU << {sh}")
                self(f"  {reg} = {reg} | VU")
        self("  VU = unpacklo32(VK, VH)")
        self("  VH = unpackhi32(VK, VH)")
        self("  VK = permute128(VU, VH, 0x20)")
        self("  VH = permute128(VU, VH, 0x31)")
        for p in range(self.P):
            for half, km in ((0, "VK"), (32, "VH")):
                self(f"  VA = mem256[{self.addr(p, half, self.P)}]")
                self(f"  4x VU = VA >> {gap}")
                self("  VU = VU ^ VA")
                self(f"  VU = VU & {km}")
                self("  VA = VA ^ VU")
                self(f"  4x VU = VU << {gap}")
                self("  VA = VA ^ VU")
                self(f"  mem256[{self.addr(p, half, self.P)}] = VA")
        self.bump(self.P, 64)
        self("  c = c + 32")
        self("  o0 = o0 - 1")
        self("  =? o0 - 0")
        self(f"  goto l{i}a if !=")

    def bit_layer(self, i: int, s: int) -> None:
        if self.vec:
            return self.vbit_layer(i, s)
        gap = 1 << s
        G = self.groups(8)
        self.init_ptrs(G)
        body: list[str] = []
        sv, self.L = self.L, body
        if self.t.bits == 64:
            self("  k = mem32le[c + 0]")
            self.L += self.spread("k", 64, s)
            for p in range(self.P):
                self(f"  a = mem64[{self.addr(p, 0, G)}]")
                self(f"  u = a >> {gap}")
                self("  u ^= a")
                self("  u &= k")
                self("  a ^= u")
                self(f"  u <<= {gap}")
                self("  a ^= u")
                self(f"  mem64[{self.addr(p, 0, G)}] = a")
        else:
            lo, hi = self.halves()
            self("  k = mem32le[c + 0]")
            if s == 5:
                for p in range(self.P):
                    self(f"  a = mem32[{self.addr(p, lo, G)}]")
                    self(f"  b = mem32[{self.addr(p, hi, G)}]")
                    self("  u = a ^ b")
                    self("  u &= k")
                    self("  a ^= u")
                    self("  b ^= u")
                    self(f"  mem32[{self.addr(p, lo, G)}] = a")
                    self(f"  mem32[{self.addr(p, hi, G)}] = b")
            else:
                self("  h = k >> 16")
                self("  k &= 0xffff")
                self.L += self.spread("k", 32, s) + self.spread("h", 32, s)
                for p in range(self.P):
                    for half, cw in ((lo, "k"), (hi, "h")):
                        self(f"  a = mem32[{self.addr(p, half, G)}]")
                        self(f"  u = a >> {gap}")
                        self("  u ^= a")
                        self(f"  u &= {cw}")
                        self("  a ^= u")
                        self(f"  u <<= {gap}")
                        self("  a ^= u")
                        self(f"  mem32[{self.addr(p, half, G)}] = a")
        self.L = sv
        tail: list[str] = []
        self.L, keep = tail, self.L
        self.bump(G, 8)
        self("  c = c + 4")
        self.L = keep
        self.loop(f"l{i}a", self.W, body, tail)

    def render(self, impl: str) -> str:
        m, P = self.m, self.P
        name = prim_name(m, P, self.inverse)
        for i in layer_order(m, self.inverse):
            self.layer(i)
        reg = "int64" if self.t.bits == 64 else "int32"
        ptrs = " ".join(f"x{k}" for k in range(self.nptr))
        vdecl = ["cpu avx2", "reg256 VA VU VK VH VE " + " ".join(f"VM{n}" for n in range(5))] if self.vec else []
        head = [f"# generated by gen/mceliece_benes.py ({name}, {impl}). DO NOT EDIT.",
                f"# Benes network on {self.n} positions, {2 * m - 1} layers"
                f" ({'reversed: y[pi(i)] = x[i]' if self.inverse else 'y[i] = x[pi(i)]'}),"
                f" {P} bit-plane(s) of {self.PB} bytes; docs/mceliece-fft.md.",
                f"{reg} v cb c {ptrs} o0 o1",
                f"{reg} k h a b u e", *vdecl,
                "", f"enter qhasm_kernel_{name}_{impl_id(impl)}_benes", "input v cb", "secret [v] [cb]"]
        return "\n".join(head + self.L + ["leave"]) + "\n"


def _params(params: dict[str, str]) -> tuple[int, int, bool]:
    m = int(params["m"])
    planes = m if params.get("planes", "m") == "m" else int(params["planes"])
    return m, planes, params.get("dir", "fwd") == "inv"


def qpath(impl: str, params: dict[str, str]) -> str:
    m, planes, inverse = _params(params)
    return f"{ROOT_GENERATED}/{prim_name(m, planes, inverse)}_{impl_id(impl)}.q"


def text(impl: str, params: dict[str, str], root: str = "") -> str:
    m, planes, inverse = _params(params)
    return Gen(impl, m, planes, inverse).render(impl)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.mceliece_benes", description=__doc__.splitlines()[0])
    ap.add_argument("--impl", default="amd64", choices=list(IMPLS))
    ap.add_argument("--params", default="m=12,planes=m,dir=fwd")
    ap.add_argument("--check", action="store_true", help="self-check the spreading masks")
    a = ap.parse_args(argv)
    if a.check:
        spread_check()
        print("spread masks: ok")
        return 0
    params = dict(kv.split("=", 1) for kv in a.params.split(","))
    sys.stdout.write(text(a.impl, params))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
