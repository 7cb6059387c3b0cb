"""The 64x64 bit-matrix transpose of the Classic McEliece kernels
(out[i] bit j = in[j] bit i), emitted as .q for one implementation
(called by gen/mceliece.py).

Six delta-swap stages s = 32, 16, 8, 4, 2, 1: for every pair of words
(a, b) = (x[j], x[j+s]) with j & s = 0, t = ((a >> s) ^ b) & lo_s,
b ^= t, a ^= t << s, where lo_s has the low s bits of every 2s-bit block
set: the high s-bit block of a trades places with the low one of b.

- int64 (amd64, ppc64, sparc64): three passes of two stages over groups
  of four words (32/16, 8/4, 2/1), so a group, its two masks and a
  temporary fit in the registers; the masks are computed (lo32 from an
  immediate, lo_(s/2) = lo_s ^ (lo_s << s/2)), no data section.
- int32 (x86, ppc32): a word is two 32-bit halves; stage 32 swaps the high
  half of a with the low half of b, which is only a renaming; the other
  stages run on the halves independently.
- vectors of W words (x86-sse2 W=2, amd64-avx2 W=4, amd64-avx512 W=8):
  register k holds words Wk..Wk+W-1; stages s >= W pair registers k and
  k + s/W lane by lane; stages s < W pair lanes l and l^s of one register:
  with P the register with its lanes l, l^s exchanged and M = lo_s in the
  lanes l & s = 0 (else 0), T = ((R >> s) ^ P) & M, R ^= (T << s) ^ perm(T).
  AVX-512 fuses the and-xor and the three-way xor with vpternlogd.
"""
from __future__ import annotations

TERN_XORAND = sum(1 << i for i in range(8) if (((i >> 2) ^ (i >> 1)) & i) & 1)   # (A ^ B) & C
TERN_XOR3 = 0x96

STAGES = [32, 16, 8, 4, 2, 1]
M64 = (1 << 64) - 1


def lo_mask(s: int, bits: int = 64) -> int:
    block = (1 << s) - 1
    return sum(block << (2 * s * k) for k in range(bits // (2 * s)))


def check() -> None:
    """The stage sequence transposes (self-check on a random matrix)."""
    import random
    x = [random.getrandbits(64) for _ in range(64)]
    y = list(x)
    for s in STAGES:
        for j in range(64):
            if j & s:
                continue
            t = ((y[j] >> s) ^ y[j + s]) & lo_mask(s)
            y[j + s] ^= t
            y[j] ^= (t << s) & M64
    for i in range(64):
        for j in range(64):
            assert (y[i] >> j) & 1 == (x[j] >> i) & 1


class Lines:
    def __init__(self) -> None:
        self.out: list[str] = []

    def __call__(self, s: str) -> None:
        self.out.append(s)


def scalar64(L: Lines) -> list[str]:
    """int64 body; returns the variables it uses"""
    L("m32 = 0xffffffff")
    prev = "m32"
    for s in (16, 8, 4, 2, 1):
        L(f"t0 = {prev} << {s}")
        L(f"m{s} = {prev} ^ t0")
        prev = f"m{s}"
    src = "in"
    for s1, s2 in ((32, 16), (8, 4), (2, 1)):
        for base in range(64):
            if base & s1 or base & s2:
                continue
            idx = [base, base + s2, base + s1, base + s1 + s2]
            for k, j in enumerate(idx):
                L(f"a{k} = mem64[{src} + {8 * j}]")
            for s, pairs in ((s1, ((0, 2), (1, 3))), (s2, ((0, 1), (2, 3)))):
                for a, b in pairs:
                    L(f"t0 = a{a} >> {s}")
                    L(f"t0 = t0 ^ a{b}")
                    L(f"t0 = t0 & m{s}")
                    L(f"a{b} = a{b} ^ t0")
                    L(f"t0 = t0 << {s}")
                    L(f"a{a} = a{a} ^ t0")
            for k, j in enumerate(idx):
                L(f"mem64[out + {8 * j}] = a{k}")
        src = "out"
    return ["a0 a1 a2 a3 t0 m32 m16 m8 m4 m2 m1"]


def scalar32(L: Lines, big_endian: bool) -> list[str]:
    """int32 body: halves h(j, 0) low, h(j, 1) high of word j"""
    def off(j: int, half: int) -> int:
        return 8 * j + (4 * (1 - half) if big_endian else 4 * half)

    masks = {s: lo_mask(s, 32) for s in (16, 8, 4, 2, 1)}
    groups = [((32, 16), "in"), ((8, 4), "out"), ((2, 1), "out")]
    for (s1, s2), src in groups:
        for base in range(64):
            if base & s1 or base & s2:
                continue
            idx = [base, base + s2, base + s1, base + s1 + s2]
            # a{k}{h}: half h of word idx[k]
            for k, j in enumerate(idx):
                for h in (0, 1):
                    L(f"a{k}{h} = mem32[{src} + {off(j, h)}]")
            names = {(k, h): f"a{k}{h}" for k in range(4) for h in (0, 1)}
            for s, pairs in ((s1, ((0, 2), (1, 3))), (s2, ((0, 1), (2, 3)))):
                for a, b in pairs:
                    if s == 32:
                        names[(a, 1)], names[(b, 0)] = names[(b, 0)], names[(a, 1)]
                        continue
                    for h in (0, 1):
                        x, y = names[(a, h)], names[(b, h)]
                        L(f"t0 = {x} >> {s}")
                        L(f"t0 = t0 ^ {y}")
                        L(f"mk = {hex(masks[s])}")
                        L("t0 = t0 & mk")
                        L(f"{y} = {y} ^ t0")
                        L(f"t0 = t0 << {s}")
                        L(f"{x} = {x} ^ t0")
            for k, j in enumerate(idx):
                for h in (0, 1):
                    L(f"mem32[out + {off(j, h)}] = {names[(k, h)]}")
    return ["a00 a01 a10 a11 a20 a21 a30 a31 t0 mk"]


def vector(L: Lines, W: int, vbits: int, ternlog: bool, maxshift: int) -> tuple[list[str], list[str]]:
    """vector body for W words per register; returns (variables, consts)"""
    nreg = 64 // W
    mem = f"mem{vbits}"
    consts: list[str] = []
    for s in STAGES:
        if s >= W:
            consts.append(f"const LO{s} u64 " + " ".join(str(lo_mask(s)) for _ in range(W)))
        else:
            consts.append(f"const M{s} u64 " + " ".join(str(lo_mask(s) if (l & s) == 0 else 0) for l in range(W)))

    def perm(dst: str, src: str, s: int) -> None:
        """dst lane l = src lane l ^ s (s < W; 64-bit lanes)"""
        if s == 1:
            L(f"{dst} = shuffle32({src}, 0x4e)")
        elif vbits == 256 and s == 2:
            L(f"{dst} = permute128({src}, {src}, 0x01)")
        elif vbits == 512 and s == 2:
            L(f"{dst} = shuffle128({src}, {src}, 0xb1)")
        elif vbits == 512 and s == 4:
            L(f"{dst} = shuffle128({src}, {src}, 0x4e)")
        else:
            raise AssertionError((W, s))

    lanes = "8x" if vbits == 512 else "4x" if vbits == 256 else "2x"

    def shift(dst: str, src: str, op: str, s: int) -> None:
        """x86's psllq/psrlq forms take immediates up to 31: 32 is two 16s"""
        if s > maxshift:
            L(f"{lanes} {dst} = {src} {op} {s // 2}")
            L(f"{lanes} {dst} = {dst} {op} {s - s // 2}")
        else:
            L(f"{lanes} {dst} = {src} {op} {s}")

    def inter(a: str, b: str, s: int) -> None:
        shift("t0", a, ">>", s)
        if ternlog:
            L(f"mk = mem{vbits}[LO{s}]")
            L(f"t0 = ternlog(t0, {b}, mk, {hex(TERN_XORAND)})")
        else:
            L(f"t0 = t0 ^ {b}")
            L(f"mk = mem{vbits}[LO{s}]")
            L("t0 = t0 & mk")
        L(f"{b} = {b} ^ t0")
        shift("t0", "t0", "<<", s)
        L(f"{a} = {a} ^ t0")

    def intra(r: str, s: int) -> None:
        perm("t1", r, s)
        L(f"{lanes} t0 = {r} >> {s}")
        L(f"mk = mem{vbits}[M{s}]")
        if ternlog:
            L(f"t0 = ternlog(t0, t1, mk, {hex(TERN_XORAND)})")
        else:
            L("t0 = t0 ^ t1")
            L("t0 = t0 & mk")
        perm("t1", "t0", s)
        L(f"{lanes} t0 = t0 << {s}")
        if ternlog:
            L(f"{r} = ternlog({r}, t0, t1, {hex(TERN_XOR3)})")
        else:
            L(f"{r} = {r} ^ t0")
            L(f"{r} = {r} ^ t1")

    if nreg <= 8:
        # everything in registers: one pass
        regs = [f"r{k}" for k in range(nreg)]
        for k in range(nreg):
            L(f"{regs[k]} = {mem}[in + {k * vbits // 8}]")
        for s in STAGES:
            if s >= W:
                d = s // W
                for k in range(nreg):
                    if k & d == 0:
                        inter(regs[k], regs[k + d], s)
            else:
                for r in regs:
                    intra(r, s)
        for k in range(nreg):
            L(f"{mem}[out + {k * vbits // 8}] = {regs[k]}")
        return ["r0 r1 r2 r3 r4 r5 r6 r7 t0 t1 mk"], consts
    # groups of four registers: the two largest stages, then the rest
    inter_st = [s for s in STAGES if s >= W]
    chunks = [inter_st[k:k + 2] for k in range(0, len(inter_st), 2)]
    chunks[-1] = chunks[-1] + [s for s in STAGES if s < W]
    for n, stages in enumerate(chunks):
        src = "in" if n == 0 else "out"
        dists = [s // W for s in stages if s >= W]
        done: set[int] = set()
        for base in range(nreg):
            if base in done:
                continue
            grp = sorted({base + x * dists[0] + y * (dists[1] if len(dists) > 1 else 0)
                          for x in (0, 1) for y in ((0, 1) if len(dists) > 1 else (0,))})
            if any(g in done for g in grp) or any(base & d for d in dists):
                continue
            done |= set(grp)
            names = {g: f"r{k}" for k, g in enumerate(grp)}
            for g in grp:
                L(f"{names[g]} = {mem}[{src} + {g * vbits // 8}]")
            for s in stages:
                if s >= W:
                    d = s // W
                    for g in grp:
                        if g & d == 0:
                            inter(names[g], names[g + d], s)
                else:
                    for g in grp:
                        intra(names[g], s)
            for g in grp:
                L(f"{mem}[out + {g * vbits // 8}] = {names[g]}")
    return ["r0 r1 r2 r3 t0 t1 mk"], consts


def render(impl: str, ident: str, vtype: str, bits: int, ptr: str, cpu: str, ternlog: bool,
           big_endian: bool) -> str:
    check()
    L = Lines()
    consts: list[str] = []
    if vtype == "int64":
        names = scalar64(L)
    elif vtype == "int32":
        names = scalar32(L, big_endian)
    else:
        names, consts = vector(L, bits // 64, bits, ternlog, 31 if ptr == "int32" else 63)
    head = [f"# generated by gen/mceliece.py (64x64 bit transpose, {impl}). DO NOT EDIT.",
            "# out[i] bit j = in[j] bit i; out may equal in.  Six delta-swap stages (gen/mceliece_transpose.py)."]
    if cpu:
        head.append(f"cpu {cpu}")
    head.append(f"{ptr} out in")
    head += [f"{vtype} {n}" for n in names]
    head += consts
    body = ["", f"enter qhasm_kernel_mceliece_transpose_64x64_{ident}_transpose", "input out in", "secret [in]"]
    return "\n".join(head + body + L.out + ["leave"]) + "\n"
