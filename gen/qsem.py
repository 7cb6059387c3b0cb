"""The reference semantics of the .q language, independent of any target.

One table (CORE) maps the canonical shape of a statement (its tokens after
`a OP= b` -> `a = a OP b`, operands replaced by `$`, the optional cast
`( T )` and lane count `Nx` stripped) to an operation name; the functions
below give each operation its meaning on integers:

  * scalar operations work at the OPERAND WIDTH w: 32 for int32 (and for
    `(uint32)`/`(int32)` casts), 64 for int64; results wrap modulo 2^w and
    `(uint32)` results on an int64 are zero-extended;
  * flags are computed at that same width w (never at the register width),
    as a set of condition values (COND_* below), and only the conditions an
    operation DEFINES may be read (FLAGS column of CORE);
  * vectors are byte strings in memory order; lane j of width b is the
    b-bit word at bytes [j*b/8, (j+1)*b/8) in the target's byte order
    (so lane 0 is the one at the lowest address on every target).

docs/semantics.md is the prose companion of this module; gen/qinterp.py
executes .q programs with it, gen/qgen.py and gen/qdiff.py test every
target against it.
"""
from __future__ import annotations

import sys
from array import array

# ------------------------------------------------------------ conditions
CONDS = ["=", "!=", "unsigned<", "unsigned<=", "unsigned>", "unsigned>=",
         "signed<", "signed<=", "signed>", "signed>=", "carry", "!carry",
         "overflow", "!overflow"]

# A `COND?` prefix keeps the conditions of its class: a read of condition X
# sees the last statement whose prefix is of X's class (the translator
# checks that no flag-changing instruction comes between).
CLASS = {c: "Z" for c in CONDS[:10]}
CLASS.update({"carry": "C", "!carry": "C", "overflow": "O", "!overflow": "O"})


class Undefined(Exception):
    """The program does something the language leaves undefined."""


def mask(w: int) -> int:
    return (1 << w) - 1


def sx(v: int, w: int) -> int:
    """v (w bits) as a signed integer"""
    v &= mask(w)
    return v - (1 << w) if v >> (w - 1) else v


def _order(zero: bool, lt_u: bool, lt_s: bool, carry: bool, ov: bool) -> dict[str, bool]:
    return {"=": zero, "!=": not zero,
            "unsigned<": lt_u, "unsigned>=": not lt_u,
            "unsigned<=": lt_u or zero, "unsigned>": not lt_u and not zero,
            "signed<": lt_s, "signed>=": not lt_s,
            "signed<=": lt_s or zero, "signed>": not lt_s and not zero,
            "carry": carry, "!carry": not carry, "overflow": ov, "!overflow": not ov}


def flags_sub(a: int, b: int, w: int, bin_: int = 0) -> dict[str, bool]:
    """a - b - bin at width w: comparison of a with b (+ borrow in);
    carry is the borrow; signed< is the sign of the exact difference"""
    r = (a - b - bin_) & mask(w)
    exact = sx(a, w) - sx(b, w) - bin_
    borrow = (a & mask(w)) < (b & mask(w)) + bin_
    ov = not -(1 << (w - 1)) <= exact < (1 << (w - 1))
    return _order(r == 0, borrow, exact < 0, borrow, ov)


def flags_add(a: int, b: int, w: int, cin: int = 0) -> dict[str, bool]:
    """a + b + cin at width w: carry out; unsigned< reads the carry;
    signed< is the sign of the exact sum"""
    s = (a & mask(w)) + (b & mask(w)) + cin
    r = s & mask(w)
    exact = sx(a, w) + sx(b, w) + cin
    carry = s >> w != 0
    ov = not -(1 << (w - 1)) <= exact < (1 << (w - 1))
    return _order(r == 0, carry, exact < 0, carry, ov)


def flags_logic(r: int, w: int) -> dict[str, bool]:
    """bitwise results: =, != and the signed comparisons of the result with 0"""
    z = r & mask(w) == 0
    lt = sx(r, w) < 0
    return {"=": z, "!=": not z, "signed<": lt, "signed>=": not lt,
            "signed<=": lt or z, "signed>": not lt and not z}


def flags_adox(a: int, b: int, w: int, cin: int) -> dict[str, bool]:
    """the second carry chain (adox): overflow is the carry out"""
    c = (a & mask(w)) + (b & mask(w)) + cin >> w != 0
    return {"overflow": c, "!overflow": not c}


# ------------------------------------------------------------ scalar operations
def shl(a: int, n: int, w: int) -> int:
    if not 0 <= n < w:
        raise Undefined(f"shift count {n} outside 0..{w - 1}")
    return a << n & mask(w)


def shr(a: int, n: int, w: int) -> int:
    if not 0 <= n < w:
        raise Undefined(f"shift count {n} outside 0..{w - 1}")
    return (a & mask(w)) >> n


def sar(a: int, n: int, w: int) -> int:
    if not 0 <= n < w:
        raise Undefined(f"shift count {n} outside 0..{w - 1}")
    return sx(a, w) >> n & mask(w)


def rol(a: int, n: int, w: int) -> int:
    """rotate counts are taken modulo the width"""
    n %= w
    a &= mask(w)
    return (a << n | a >> (w - n)) & mask(w)


def ror(a: int, n: int, w: int) -> int:
    return rol(a, w - n % w, w)


BINOP = {
    "+": lambda a, b, w: (a + b) & mask(w),
    "-": lambda a, b, w: (a - b) & mask(w),
    "&": lambda a, b, w: a & b & mask(w),
    "|": lambda a, b, w: (a | b) & mask(w),
    "^": lambda a, b, w: (a ^ b) & mask(w),
    "*": lambda a, b, w: a * b & mask(w),
    "<<": shl, ">>": shr, "<<<": rol, ">>>": ror,
}
# flags each binary operation defines (None: no condition may be read)
BINFLAGS = {
    "+": lambda a, b, w: flags_add(a, b, w),
    "-": lambda a, b, w: flags_sub(a, b, w),
    "&": lambda a, b, w: flags_logic(a & b, w),
    "|": lambda a, b, w: flags_logic(a | b, w),
    "^": lambda a, b, w: flags_logic(a ^ b, w),
    "<<": lambda a, b, w: flags_shift(shl(a, b, w), b, w),
    ">>": lambda a, b, w: flags_shift(shr(a, b, w), b, w),
}


def flags_shift(r: int, n: int, w: int) -> dict[str, bool] | None:
    """shifts by a non-zero count define = and != of the result only (x86
    leaves the flags alone for a zero count and the overflow flag undefined
    for counts above 1)"""
    if n == 0:
        return None
    z = r & mask(w) == 0
    return {"=": z, "!=": not z}

# ------------------------------------------------------------ the statement table
# core shape -> (operation, description).  The interpreter (qinterp.py)
# implements each operation with the functions above; casts `(uint32)`,
# `(int32)`, `(int64)`, `(uint64)`, `(int128)`, `(uint128)` and the lane
# prefix `Nx` modify width and signedness as described in docs/semantics.md.
CORE: dict[str, tuple[str, str]] = {
    "$ = $": ("move", "copy, immediate, load, store, int<->vector lane 0, broadcast (Nx)"),
    "$ = $ + $": ("bin+", "add modulo 2^w; flags: flags_add"),
    "$ = $ - $": ("bin-", "subtract modulo 2^w; flags: flags_sub"),
    "$ = $ & $": ("bin&", "and; flags: flags_logic"),
    "$ = $ | $": ("bin|", "or; flags: flags_logic"),
    "$ = $ ^ $": ("bin^", "xor; flags: flags_logic"),
    "$ = $ * $": ("bin*", "low w bits of the product (64-bit lanes: low32 x low32); no flags"),
    "$ = $ << $": ("bin<<", "shift left, count 0..w-1; no flags"),
    "$ = $ >> $": ("bin>>", "logical shift right (arithmetic with a signed cast), count 0..w-1; no flags"),
    "$ = $ <<< $": ("bin<<<", "rotate left, count modulo w; no flags"),
    "$ = $ >>> $": ("bin>>>", "rotate right, count modulo w; no flags"),
    "$ = ~ $": ("not", "complement; no flags"),
    "$ = - $": ("neg", "0 - s; flags: flags_sub(0, s)"),
    "$ = ~ $ & $": ("andn", "~s & t; flags: flags_logic"),
    "$ = $ + $ + $": ("add3", "r + s + i (the three-term add of djb's dialect); no flags"),
    "$ = ( $ >> $ ) & $": ("shrand", "(s >> n) & k; no flags"),
    "$ = shld ( $ , $ , $ )": ("shld", "high w bits of (r:s) << n, n 0..w-1; no flags"),
    "$ = shrd ( $ , $ , $ )": ("shrd", "low w bits of (s:r) >> n, n 0..w-1; no flags"),
    "$ = popcount ( $ )": ("popcount", "the number of one bits; no flags"),
    "$ = $ + $ + carry": ("adc", "s + t + carry; flags: flags_add with carry in"),
    "$ = $ - $ - carry": ("sbb", "s - t - carry (carry = borrow); flags: flags_sub with borrow in"),
    "$ = $ + $ + overflow": ("adox", "s + t + overflow (second chain); flags: flags_adox"),
    "$ $ = $ * $": ("wide", "h:l = full 2w-bit product, signedness from the cast"),
    "$ - $": ("cmp", "flags only: flags_sub(a, b)"),
    "$ & $": ("test", "flags only: flags_logic(a & b)"),
    "goto $": ("goto", "jump"),
    "$ = & $": ("addr", "address of a stack variable or memory operand"),
    "$ = $ [ $ ]": ("splat", "every lane = lane i of s (lanes of the Nx prefix: 4x 32-bit, 8x 16-bit)"),
    "$ = $ , $": ("movlo", "r = m , 0: the narrower memory operand in the low bytes, the rest zero"),
    "$ = $ * $ + $": ("madd", "lanes: low w bits of s*t + u"),
    "$ = $ + madd52lo ( $ , $ )": ("madd52lo", "64-bit lanes: r + low 52 bits of (s mod 2^52)(t mod 2^52)"),
    "$ = $ + madd52hi ( $ , $ )": ("madd52hi", "64-bit lanes: r + bits 52..103 of the same product"),
    "$ = $ + maddwd ( $ , $ )": ("maddwdacc", "32-bit lanes: u + maddwd(s, t) mod 2^32 (AltiVec vmsumshm)"),
    "prefetch ( $ )": ("prefetch", "no effect: a hint to fetch the cache line of the byte operand (the "
                       "address is not checked, as prefetcht0 never faults)"),
    "repmovsb ( $ , $ , $ )": ("repmovsb", "copy c bytes from s to d one byte at a time, upwards (so an overlap "
                               "repeats bytes as a byte loop does); then d += c, s += c, c = 0; no flags"),
    "repstosb ( $ , $ , $ )": ("repstosb", "store the low byte of a into c bytes upwards from d; then d += c, "
                               "c = 0; no flags"),
}
VFUNCS = ["shuffle32", "unpacklo32", "unpackhi32", "unpacklo64", "unpackhi64", "shuffle128",
          "permute128", "permute64", "permute2x32", "permute2x64", "extract128", "extract256",
          "insert128", "shufbytes", "low128", "evexadd32", "evexxor", "ternlog", "permute",
          "shiftleftbytes", "loadperm", "unpacklo8", "unpackhi8", "unpacklo16", "unpackhi16", "mulhis15", "mulhi", "maddubs", "maddwd", "zeroext8", "zeroext16", "packs16", "packs32", "truncate8", "truncate8q", "alignr", "blend32",
          "movemask8", "cmpeq8",
          "fmul", "fadd", "fsub", "fround", "ftrunc", "clmul"]


def condtokens(c: str) -> str:
    """a condition as the translator's lexer splits it (unsigned< -> 'unsigned <')"""
    out, i = [], 0
    ops = ["<=", ">=", "!=", "<", ">", "=", "!"]
    while i < len(c):
        for o in ops:
            if c.startswith(o, i):
                out.append(o)
                i += len(o)
                break
        else:
            j = i
            while j < len(c) and (c[j].isalnum() or c[j] == "_"):
                j += 1
            out.append(c[i:j])
            i = j
    return " ".join(out)


# conditions as the lexer splits them (`unsigned <=`, `! carry`)
for _c in CONDS:
    CORE["goto $ if " + condtokens(_c)] = ("cgoto:" + _c, "jump if the condition holds")
    CORE["$ = $ if " + condtokens(_c)] = ("cmov:" + _c, "r = s if the condition holds, else r (constant time)")
for _f in VFUNCS:
    for _n in range(1, 5):
        CORE[f"$ = {_f} ( " + " , ".join(["$"] * _n) + " )"] = ("vf:" + _f, "vector function, see VEC")


# ------------------------------------------------------------ vectors
_ARR = {8 * array(c).itemsize: c for c in "BHIQ"}     # lane width -> array type code
_SWAP = sys.byteorder == "little"                      # big-endian lanes need a byte swap here


def lanes(b: bytes, lw: int, big: bool) -> list[int]:
    c = _ARR.get(lw)
    if c:
        a = array(c, b)
        if big == _SWAP and lw > 8:
            a.byteswap()
        return a.tolist()
    n = lw // 8
    order = "big" if big else "little"
    return [int.from_bytes(b[i:i + n], order) for i in range(0, len(b), n)]


def unlanes(v: list[int], lw: int, big: bool) -> bytes:
    c = _ARR.get(lw)
    m = mask(lw)
    if c:
        a = array(c, [x & m for x in v])
        if big == _SWAP and lw > 8:
            a.byteswap()
        return a.tobytes()
    n = lw // 8
    order = "big" if big else "little"
    return b"".join((x & m).to_bytes(n, order) for x in v)


def per128(f, *vs: bytes) -> bytes:
    """apply f to each 16-byte block (x86 in-lane shuffles)"""
    return b"".join(f(*[v[i:i + 16] for v in vs]) for i in range(0, len(vs[0]), 16))


def _clmul(a: int, b: int) -> list[int]:
    """the 128-bit carry-less product of two 64-bit values, as [low, high] qwords"""
    r = 0
    for k in range(64):
        if b >> k & 1:
            r ^= a << k
    return [r & mask(64), r >> 64]


def vfunc(name: str, args: list, big: bool, nbytes: int, addr: int = 0) -> bytes:
    """vector functions: args are byte strings (registers) or ints (immediates)"""
    L32 = lambda b: lanes(b, 32, big)
    U32 = lambda v: unlanes(v, 32, big)
    L64 = lambda b: lanes(b, 64, big)
    U64 = lambda v: unlanes(v, 64, big)
    L16 = lambda b: lanes(b, 16, big)
    S16 = lambda x: x - 65536 if x >= 32768 else x
    if name in ("unpacklo8", "unpackhi8"):
        # bytes s0 t0 s1 t1 ... of the low (lo8) or high half of each 16-byte block
        s, t = args
        o = 0 if name.endswith("lo8") else 8
        return per128(lambda x, y: bytes(b for k in range(8) for b in (x[o + k], y[o + k])), s, t)
    if name == "packs16":
        # signed 16-bit lanes of s, then of t, saturated to int8, per 16-byte block
        s, t = args
        sat = lambda v: max(-128, min(127, S16(v))) & 255
        return per128(lambda x, y: bytes(sat(v) for v in L16(x) + L16(y)), s, t)
    if name == "mulhis15":
        # 16-bit lanes: floor(s*t / 2^15), saturated to int16
        s, t = args
        out = [max(-32768, min(32767, (S16(x) * S16(y)) >> 15)) for x, y in zip(L16(s), L16(t))]
        return unlanes(out, 16, big)
    if name == "clmul":
        # per 16-byte block: carry-less product of qword i&1 of s and qword (i>>4)&1 of t
        s, t, i = args
        return per128(lambda x, y: unlanes(_clmul(L64(x)[i & 1], L64(y)[i >> 4 & 1]), 64, big), s, t)
    if name == "shuffle32":
        s, i = args
        return per128(lambda x: U32([L32(x)[i >> 2 * j & 3] for j in range(4)]), s)
    if name in ("unpacklo32", "unpackhi32"):
        s, t = args
        o = 0 if name.endswith("lo32") else 2
        return per128(lambda x, y: U32([L32(x)[o], L32(y)[o], L32(x)[o + 1], L32(y)[o + 1]]), s, t)
    if name in ("unpacklo16", "unpackhi16"):
        # 16-bit lanes s0 t0 s1 t1 ... of the low (lo16) or high half of each 16-byte block
        s, t = args
        o = 0 if name.endswith("lo16") else 4
        return per128(lambda x, y: unlanes([v for k in range(4) for v in (L16(x)[o + k], L16(y)[o + k])], 16, big), s, t)
    if name in ("unpacklo64", "unpackhi64"):
        s, t = args
        o = 0 if name.endswith("lo64") else 1
        return per128(lambda x, y: x[8 * o:8 * o + 8] + y[8 * o:8 * o + 8], s, t)
    if name == "shuffle128":
        s, t, i = args
        blk = lambda v, k: v[16 * k:16 * k + 16]
        return blk(s, i & 3) + blk(s, i >> 2 & 3) + blk(t, i >> 4 & 3) + blk(t, i >> 6 & 3)
    if name == "permute128":
        s, t, i = args
        src = [s[:16], s[16:], t[:16], t[16:]]
        lo = bytes(16) if i & 8 else src[i & 3]
        hi = bytes(16) if i & 0x80 else src[i >> 4 & 3]
        return lo + hi
    if name == "permute64":
        s, i = args
        q = L64(s)
        return U64([q[i >> 2 * j & 3] for j in range(4)])
    if name in ("permute2x32", "permute2x64"):
        a, idx, b = args
        if name.endswith("32"):
            ta, tb, ix, n = L32(a), L32(b), L32(idx), 16
            return U32([(ta + tb)[ix[j] & 31] for j in range(n)])
        ta, tb, ix = L64(a), L64(b), L64(idx)
        return U64([(ta + tb)[ix[j] & 15] for j in range(8)])
    if name == "extract128":
        s, i = args
        if not 0 <= i < len(s) // 16:
            raise Undefined(f"extract128 lane {i}")
        return s[16 * i:16 * i + 16]
    if name == "extract256":
        s, i = args
        if not 0 <= i < 2:
            raise Undefined(f"extract256 lane {i}")
        return s[32 * i:32 * i + 32]
    if name == "insert128":
        s, t, i = args
        if not 0 <= i < 2:
            raise Undefined(f"insert128 lane {i}")
        return s[:16 * i] + t + s[16 * i + 16:]
    if name == "shufbytes":
        s, t = args
        return per128(lambda x, y: bytes(0 if c & 0x80 else x[c & 15] for c in y), s, t)
    if name == "low128":
        return args[0][:16]
    if name == "evexadd32":
        s, t = args
        return U32([a + b for a, b in zip(L32(s), L32(t))])
    if name == "evexxor":
        s, t = args
        return bytes(a ^ b for a, b in zip(s, t))
    if name == "ternlog":
        # bit k of the result is bit (4a+2b+c) of i, a b c bit k of the
        # operands: the OR of the minterms i selects, on whole registers
        a, b, c, i = args
        n = len(a)
        M = mask(8 * n)
        A, B, C = (int.from_bytes(x, "little") for x in (a, b, c))
        r = 0
        for x in range(8):
            if i >> x & 1:
                r |= (A if x & 4 else ~A) & (B if x & 2 else ~B) & (C if x & 1 else ~C)
        return (r & M).to_bytes(n, "little")
    if name == "permute":
        s, t, u = args
        st = s + t
        return bytes(st[c & 31] for c in u)
    if name == "shiftleftbytes":
        s, t, i = args
        if not 0 <= i < 16:
            raise Undefined(f"shiftleftbytes by {i} (0..15)")
        return (s + t)[i:i + 16]
    if name == "mulhi":
        # 16-bit lanes: the high half of the signed product (pmulhw)
        s, t = args
        return unlanes([sx(a, 16) * sx(b, 16) >> 16 for a, b in zip(lanes(s, 16, big), lanes(t, 16, big))], 16, big)
    if name == "maddubs":
        # 16-bit lanes: unsigned bytes 2j, 2j+1 of s times signed bytes of t,
        # the two products summed and saturated to int16 (pmaddubsw)
        s, t = args
        sat = lambda v: max(-32768, min(32767, v))
        out = [sat(s[2 * j] * sx(t[2 * j], 8) + s[2 * j + 1] * sx(t[2 * j + 1], 8)) for j in range(len(s) // 2)]
        return unlanes(out, 16, big)
    if name == "maddwd":
        # 32-bit lanes: int16 lanes 2j, 2j+1 of s times those of t, summed mod 2^32 (pmaddwd)
        s, t = args
        x, y = lanes(s, 16, big), lanes(t, 16, big)
        return unlanes([sx(x[2 * j], 16) * sx(y[2 * j], 16) + sx(x[2 * j + 1], 16) * sx(y[2 * j + 1], 16)
                        for j in range(len(x) // 2)], 32, big)
    if name == "zeroext16":
        # each 16-bit lane of the memory operand zero-extended to a 32-bit lane
        return unlanes(lanes(args[0], 16, big), 32, big)
    if name == "packs32":
        # signed 32-bit lanes of s, then of t, saturated to int16, per 16-byte block
        s, t = args
        sat = lambda v: max(-32768, min(32767, sx(v, 32)))
        return per128(lambda x, y: unlanes([sat(v) for v in lanes(x, 32, big) + lanes(y, 32, big)], 16, big), s, t)
    if name == "zeroext8":
        # each byte of the memory operand zero-extended to a 16-bit lane
        return unlanes(list(args[0]), 16, big)
    if name == "truncate8":
        # each 16-bit lane cut to its low byte (vpmovwb)
        return bytes(w & 255 for w in lanes(args[0], 16, big))
    if name == "truncate8q":
        # each 64-bit lane's low byte in bytes 0-7, the rest of the
        # destination (nbytes) zero (vpmovqb to the xmm view)
        return bytes(q & 255 for q in lanes(args[0], 64, big)) + bytes(nbytes - len(args[0]) // 8)
    if name == "movemask8":
        # bit j = the top bit of byte j of s (vpmovmskb), zero-extended to the
        # integer destination (nbytes its width)
        m = sum((b >> 7) << j for j, b in enumerate(args[0]))
        return m.to_bytes(nbytes, "little")
    if name == "cmpeq8":
        # byte j = 0xff where bytes j of s and t are equal, else 0 (vpcmpeqb)
        s, t = args
        return bytes(255 if x == y else 0 for x, y in zip(s, t))
    if name == "alignr":
        # bytes i .. i+15 of t||s (t the low half), zeros past the 32 (palignr)
        s, t, i = args
        return (t + s + bytes(256))[i:i + 16]
    if name == "blend32":
        # 32-bit lane j from t where bit j of i is set, else from s
        s, t, i = args
        return b"".join((t if i >> (j // 4) & 1 else s)[j:j + 4] for j in range(0, len(s), 4))
    if name in FLOATOPS:
        return fvec(name, args, big)
    if name == "loadperm":
        return bytes((addr & 15) + k for k in range(16))
    raise Undefined(f"unknown vector function {name}")


# ------------------------------------------------------------ floating point
# Double-precision lanes (djb's dialect, amd64 only): IEEE 754 binary64,
# round to nearest even (Python floats are exactly that), no exceptions.
# NaNs as SSE/AVX produce them: a NaN operand is returned quieted (the
# first one if both are), an invalid operation gives the default NaN
# 0xfff8000000000000; fround/ftrunc keep the sign of zero.
FLOATOPS = {"fmul", "fadd", "fsub", "fround", "ftrunc"}
_QNAN, _DEFNAN, _EXP = 1 << 51, 0xfff8000000000000, 0x7ff << 52


def _isnan(b: int) -> bool:
    return b & _EXP == _EXP and b & mask(52) != 0


def _f(b: int) -> float:
    import struct
    return struct.unpack("<d", b.to_bytes(8, "little"))[0]


def _b(x: float) -> int:
    import struct
    return _DEFNAN if x != x else int.from_bytes(struct.pack("<d", x), "little")


def fop(name: str, a: int, b: int = 0) -> int:
    import math
    if _isnan(a):
        return a | _QNAN
    if name in ("fround", "ftrunc"):
        x = _f(a)
        if math.isinf(x) or abs(x) >= 2.0 ** 52:
            return a
        return _b(math.copysign(float(round(x) if name == "fround" else math.trunc(x)), x))
    if _isnan(b):
        return b | _QNAN
    x, y = _f(a), _f(b)
    return _b(x * y if name == "fmul" else x + y if name == "fadd" else x - y)


def fvec(name: str, args: list, big: bool) -> bytes:
    L = [lanes(a, 64, big) for a in args]
    if name in ("fround", "ftrunc"):
        return unlanes([fop(name, a) for a in L[0]], 64, big)
    return unlanes([fop(name, a, b) for a, b in zip(L[0], L[1])], 64, big)
