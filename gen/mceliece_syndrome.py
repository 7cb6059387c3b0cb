"""The syndrome of Classic McEliece encapsulation, s = He with H = (I_mt | T),
emitted as .q for one implementation and parameter set (called by
gen/mceliece.py).  Byte layouts: docs/mceliece.md.

    s_i = e_i XOR parity(T_i AND e')      e' = e_mt .. e_(n-1), k = n - mt bits

1. e' is copied byte by byte into an aligned stack buffer EB (shifted by
   mt % 8 bits when mt is not a multiple of 8: mceliece6960119), laid out
   for words of W bytes: the rb = ceil(k/8) bytes of a row are nfull = rb // W
   whole words and a tail of rb % W bytes; the tail is read as the word
   ending at the row's end (overlapping the last whole word), so EB holds
   the tail bytes at the end of an extra word whose first W - tail bytes
   are zero.  No read goes past the row (nor past the public key).
2. Rows in groups of eight: for every word w, EB_w is loaded once and
   ANDed with the w-th word of each of the eight rows into eight
   accumulators.  A vector accumulator is first folded to 64 bits.
3. The eight accumulators merge pairwise (a's parity into the low half,
   b's into the high half of one word, then quarters, then eighths), the
   fields fold to one bit each and gather into one byte: eight parities;
   s byte = e byte (the identity part) XOR that byte.  A last group of
   mt % 8 rows is generated separately, and the identity byte is masked.
The bytes of s are written after the rows they depend on, and EB is built
before any write, so s may alias e or pk (every byte of s lies in row 0,
which the first group has consumed).

amd64-avx512 (render_rows512) reads no 64-byte word across a cache line:
rows in classes of equal alignment, aligned lines ANDed with e' shifted
per class, the parities of a class gathered and bit-transposed into s; its
row 0 reads the bytes of its first line before pk (same line: no fault).
amd64-avx512popcnt is the same with each group's parity byte by vpopcntq
(AVX512_VPOPCNTDQ; merge8's popcnt form).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Callable

from gen import mceliece_transpose

M64 = (1 << 64) - 1

PARAMS = {"mceliece348864": (3488, 768), "mceliece6960119": (6960, 1547)}


@dataclass(frozen=True)
class SynTgt:
    word: int        # bytes per load (1, 4, 8, 32, 64)
    reg: str         # accumulator type: int32, int64, reg256, reg512
    ptr: str         # int32 or int64
    bits: int        # bits of the scalar registers (32 or 64)
    cpu: str
    ternlog: bool
    maxdisp: int     # largest displacement of a memory operand
    qcopy: bool = False  # copy e' by 64-bit words (little-endian, unaligned loads)
    popcnt: bool = False  # AVX-512: the row parities by vpopcntq (merge8)


def layout(name: str, word: int) -> tuple[int, int, int, int, int]:
    n, mt = PARAMS[name]
    k = n - mt
    rb = (k + 7) // 8
    nfull, tail = rb // word, rb % word
    return mt, rb, nfull, tail, (nfull + (1 if tail else 0)) * word


def render(impl: str, ident: str, name: str, t: SynTgt) -> str:
    n, _ = PARAMS[name]
    mt, rb, nfull, tail, ebytes = layout(name, t.word)
    L: list[str] = []
    W = t.word
    mem = f"mem{8 * W}"
    sc = t.bits
    if W == 1:
        return render_bytes(impl, ident, name, t)
    if t.reg == "reg256":
        return (render_classes256 if CLASSES_AVX2[name] else render_rows)(impl, ident, name, t)
    if t.reg == "reg512":
        return render_rows512(impl, ident, name, t)
    eb_copy(L, name, t)
    words = [W * w for w in range(nfull)] + ([rb - W] if tail else [])
    ebwords = [W * w for w in range(nfull)] + ([nfull * W] if tail else [])

    def group(nrows: int, last: bool) -> None:
        # row r at p0 + r*rb (r < 4) or p1 + (r-4)*rb: displacements stay small
        # word-major: each EB word loaded once for the eight rows (row-major,
        # an EB load per row word, measured slower: the loads are the limit)
        for w, (off, eoff) in enumerate(zip(words, ebwords)):
            L.append(f"q = {mem}[eb + {eoff}]")
            for r in range(nrows):
                base, rr = ("p0", r) if r < 4 else ("p1", r - 4)
                disp = rr * rb + off
                assert disp <= t.maxdisp, (impl, name, disp)
                if t.reg == "reg256":     # the key word as vpand's memory operand
                    if w == 0:
                        L.append(f"a{r} = q & {mem}[{base} + {disp}]")
                    else:
                        L.append(f"u = q & {mem}[{base} + {disp}]")
                        L.append(f"a{r} = a{r} ^ u")
                    continue
                L.append(f"u = {mem}[{base} + {disp}]")
                if w == 0:
                    L.append(f"a{r} = u & q")
                elif t.ternlog:
                    L.append(f"a{r} = ternlog(a{r}, u, q, 0x78)")
                else:
                    L.append("u = u & q")
                    L.append(f"a{r} = a{r} ^ u")
        if deferred and nrows == 8:
            if t.reg == "reg512":
                # each zmm folded onto its low 256 bits, then the ymm merge
                for r in range(8):
                    L.append(f"h{r} = extract256(a{r}, 1)")
                    L.append(f"g{r} = extract256(a{r}, 0)")
                    L.append(f"h{r} = h{r} ^ g{r}")
            L.append(f"mem256[sb + 0] = {vector_merge(L, *(('h', 'g0') if t.reg == 'reg512' else ('a', 'u')))}")
            return
        # vector accumulators to scalars
        acc = [f"a{r}" for r in range(nrows)]
        if t.reg in ("reg256", "reg512"):
            for r in range(nrows):
                if t.reg == "reg512":
                    L.append(f"h{r} = extract256(a{r}, 1)")
                    L.append(f"g{r} = extract256(a{r}, 0)")
                    L.append(f"h{r} = h{r} ^ g{r}")
                else:
                    L.append(f"h{r} = a{r}")
                L.append(f"c{r} = extract128(h{r}, 1)")
                L.append(f"d{r} = extract128(h{r}, 0)")
                L.append(f"c{r} = c{r} ^ d{r}")
                L.append(f"d{r} = shuffle32(c{r}, 0x4e)")
                L.append(f"c{r} = c{r} ^ d{r}")
                L.append(f"x{r} = c{r}")
            acc = [f"x{r}" for r in range(nrows)]
        # merge tree: each level halves the fields, a's partial parities
        # into the low halves, b's into the high halves; pos tracks where
        # each row's field starts
        pos = {a: {r: 0} for r, a in enumerate(acc)}
        width = sc
        while len(acc) > 1:
            half = width // 2
            lo = (1 << half) - 1
            lom = sum(lo << (width * j) for j in range(sc // width))
            nxt = []
            L.append(f"m = {hex(lom)}")
            for j in range(0, len(acc), 2):
                a = acc[j]
                b = acc[j + 1] if j + 1 < len(acc) else None
                L.append(f"v = {a} >> {half}")
                L.append(f"{a} = {a} ^ v")
                L.append(f"{a} = {a} & m")
                if b:
                    L.append(f"v = {b} << {half}")
                    L.append(f"{b} = {b} ^ v")
                    L.append(f"v = m << {half}")
                    L.append(f"{b} = {b} & v")
                    L.append(f"{a} = {a} ^ {b}")
                    pos[a].update({r: o + half for r, o in pos[b].items()})
                nxt.append(a)
            acc = nxt
            width = half
        x = acc[0]
        # width-bit fields hold the rows' partial parities: fold each field
        f = width
        while f > 1:
            h = f // 2
            L.append(f"v = {x} >> {h}")
            L.append(f"{x} = {x} ^ v")
            f = h
        # gather bit 0 of row r's field into bit r
        L.append("o = 0")
        for r in range(nrows):
            off = pos[x][r]
            if off > r:
                L.append(f"v = {x} >> {off - r}")
            elif off < r:
                L.append(f"v = {x} << {r - off}")
            else:
                L.append(f"v = {x}")
            L.append(f"m = {1 << r}")
            L.append("v = v & m")
            L.append("o = o ^ v")
        L.append("v = mem8[e + 0]")
        if last:
            L.append(f"m = {(1 << nrows) - 1}")
            L.append("v = v & m")
        L.append("o = o ^ v")
        L.append("mem8[s + 0] = o")

    full = mt // 8
    deferred = t.reg in ("reg256", "reg512")
    L.append("p0 = pk")
    L.append(f"p1 = pk + {4 * rb}")
    L.append(f"i = {full}")
    if deferred:
        L.append("sb = &SB")
    L.append("rows:")
    n0 = len(L)
    group(8, False)
    L[n0:] = ["  " + x for x in L[n0:]]
    L += [f"  p0 = p0 + {8 * rb}", f"  p1 = p1 + {8 * rb}"]
    L += ["  sb = sb + 32"] if deferred else ["  s = s + 1", "  e = e + 1"]
    L += ["  i = i - 1", "  =? i - 0", "  goto rows if !="]
    if deferred:
        # the groups' merged partial parities (SB) to syndrome bytes, after
        # every row is read (s may alias pk)
        L += ["sb = &SB", f"i = {full}", "bytes:"]
        n0 = len(L)
        a0, u0 = ("h0", "g0") if t.reg == "reg512" else ("a0", "u")
        L.append(f"{a0} = mem256[sb + 0]")
        vector_finish(L, a0, u0)
        L += ["v = mem8[e + 0]", "o = o ^ v", "mem8[s + 0] = o"]
        L[n0:] = ["  " + x for x in L[n0:]]
        L += ["  sb = sb + 32", "  s = s + 1", "  e = e + 1", "  i = i - 1", "  =? i - 0", "  goto bytes if !="]
    if mt % 8:
        group(mt % 8, True)
    vt = t.reg
    sct = "int64" if sc == 64 else "int32"
    head = [f"# generated by gen/mceliece.py (syndrome of {name}, {impl}). DO NOT EDIT.",
            f"# s = He, H = (I_{mt} | T): {mt} rows of {rb} bytes, loads of {W} bytes"
            f" ({nfull} whole words and {'a tail of ' + str(tail) + ' bytes' if tail else 'no tail'} per row);"
            " gen/mceliece_syndrome.py."]
    if t.cpu:
        head.append(f"cpu {t.cpu}")
    head.append(f"{t.ptr} s pk e eb p p0 p1 i")
    head.append(f"{sct} x y z m v o x0 x1 x2 x3 x4 x5 x6 x7")
    if vt in ("reg256", "reg512"):
        head.append(f"{vt} q u a0 a1 a2 a3 a4 a5 a6 a7")
        head.append("reg128 c0 c1 c2 c3 c4 c5 c6 c7 d0 d1 d2 d3 d4 d5 d6 d7")
        if vt == "reg512":
            head.append("reg256 h0 h1 h2 h3 h4 h5 h6 h7 g0 g1 g2 g3 g4 g5 g6 g7")
        else:
            head.append("reg256 h0 h1 h2 h3 h4 h5 h6 h7")
    else:
        head.append(f"{sct} q u a0 a1 a2 a3 a4 a5 a6 a7")
    eltype = {1: 64, 4: 64, 8: 64, 32: 256, 64: 512}[W]
    head.append(f"stack{eltype} EB[{(ebytes * 8 + eltype - 1) // eltype}]")
    if deferred:
        head.append(f"{t.ptr} sb")
        head.append(f"stack256 SB[{full}]")
    body = ["", f"enter qhasm_kernel_{name}_syndrome_{ident}_syndrome", "input s pk e", "secret [pk] [e]"]
    return "\n".join(head + body + L + ["leave"]) + "\n"


def eb_copy(L: list[str], name: str, t: SynTgt) -> None:
    """1. EB: zero the tail word's padding, copy (and shift) e'; leaves eb = &EB"""
    n, _ = PARAMS[name]
    W = t.word
    mt, rb, nfull, tail, ebytes = layout(name, W)
    shift = mt % 8
    ebase = mt // 8                       # byte of e holding e'_0 (at bit shift)
    L.append("eb = &EB")
    L.append("z = 0")
    for b in range(nfull * W, ebytes - tail):
        L.append(f"mem8[eb + {b}] = z")
    # bytes 0 .. nfull*W - 1 in a loop, the tail unrolled
    L.append(f"p = e + {ebase}")
    if t.qcopy:
        # 64-bit words: e'_(64j..64j+63) = (E_j >> shift) ^ (byte 8 after << (64 - shift)),
        # that byte inside e (asserted)
        assert nfull * W % 8 == 0 and (not shift or ebase + nfull * W < n // 8)
        L.append(f"i = {nfull * W // 8}")
        L.append("copy:")
        L.append("  x = mem64[p + 0]")
        if shift:
            L.append(f"  x = x >> {shift}")
            L.append("  y = mem8[p + 8]")
            L.append(f"  y = y << {64 - shift}")
            L.append("  x = x ^ y")
        L += ["  mem64[eb + 0] = x", "  p = p + 8", "  eb = eb + 8", "  i = i - 1", "  =? i - 0",
              "  goto copy if !="]
    else:
        L.append(f"i = {nfull * W}")
        L.append("copy:")
    if not t.qcopy:
        L.append("  x = mem8[p + 0]")
        if shift:
            L.append(f"  x = x >> {shift}")
            L.append("  y = mem8[p + 1]")
            L.append(f"  y = y << {8 - shift}")
            L.append("  x = x ^ y")
        L.append("  mem8[eb + 0] = x")
        L.append("  p = p + 1")
        L.append("  eb = eb + 1")
        L.append("  i = i - 1")
        L.append("  =? i - 0")
        L.append("  goto copy if !=")
    for j in range(tail):
        b = nfull * W + j                 # byte of e'
        dst = b - nfull * W + (W - tail)  # offset in the tail word (eb now at nfull*W)
        L.append(f"x = mem8[p + {j}]")
        if shift:
            L.append(f"x = x >> {shift}")
            if ebase + b + 1 < n // 8:
                L.append(f"y = mem8[p + {j + 1}]")
                L.append(f"y = y << {8 - shift}")
                L.append("x = x ^ y")
        L.append(f"mem8[eb + {dst}] = x")
    L.append("eb = &EB")


# vector_parities: row r's accumulator sits in slot SLOT[r] of the merge;
# the merge leaves slot j's parity in dword DWORD_OF_SLOT[j] and the gather
# puts dword d in bit BIT_OF_DWORD[d] (see vector_parities)
DWORD_OF_SLOT = [0, 2, 1, 3, 4, 6, 5, 7]
BIT_OF_DWORD = [0, 1, 4, 5, 2, 3, 6, 7]
SLOT = [0] * 8
for _j in range(8):
    SLOT[BIT_OF_DWORD[DWORD_OF_SLOT[_j]]] = _j


def vector_merge(L: list[str], p: str = "a", u: str = "u") -> str:
    """The eight row accumulators a0..a7 (reg256) to the byte o of their eight parities, bit r = row r,
    in vector registers: qword pairs (unpacklo64/unpackhi64, xor: slot
    pairs 2i, 2i+1 alternate by qword), dword pairs (fold each qword onto
    both of its dwords with shuffle32 0xb1, blend32 0xaa: slots 4i.. by
    dword 0 2 1 3 in each lane), 128-bit lanes (permute128 0x20 / 0x31,
    xor: dwords 0-3 slots 0-3, 4-7 slots 4-7); each dword folded onto its
    bit 31 (left shifts), shifted to bit 0; then dword pairs into bits 0-1
    of their qword, the high lane's qwords into bits 2-3, the high qword
    into bits 4-7: dword d in bit BIT_OF_DWORD[d]."""
    slots = [f"{p}{SLOT.index(j)}" for j in range(8)]
    P = []
    for i in range(4):
        a, b = slots[2 * i], slots[2 * i + 1]
        L.append(f"{u} = unpacklo64({a}, {b})")
        L.append(f"{a} = unpackhi64({a}, {b})")
        L.append(f"{a} = {a} ^ {u}")
        P.append(a)
    R = []
    for i in range(2):
        a, b = P[2 * i], P[2 * i + 1]
        for x in (a, b):
            L.append(f"{u} = shuffle32({x}, 0xb1)")
            L.append(f"{x} = {x} ^ {u}")
        L.append(f"{a} = blend32({a}, {b}, 0xaa)")
        R.append(a)
    a, b = R
    L.append(f"{u} = permute128({a}, {b}, 0x20)")
    L.append(f"{a} = permute128({a}, {b}, 0x31)")
    L.append(f"{a} = {a} ^ {u}")
    return a


def vector_finish(L: list[str], a: str, u: str = "u") -> None:
    """vector_merge's dwords (one row each) to the parity byte o."""
    for sh in (16, 8, 4, 2, 1):
        L.append(f"8x {u} = {a} << {sh}")
        L.append(f"{a} = {a} ^ {u}")
    L.append(f"8x {a} = {a} >> 31")
    L.append(f"4x {u} = {a} >> 31")
    L.append(f"{a} = {a} ^ {u}")
    L.append(f"c0 = extract128({a}, 1)")
    L.append(f"d0 = extract128({a}, 0)")
    L.append("2x c0 = c0 << 2")
    L.append("c0 = c0 ^ d0")
    L.append("d0 = shuffle32(c0, 0x4e)")
    L.append("2x d0 = d0 << 4")
    L.append("c0 = c0 ^ d0")
    L.append("o = c0")
    L.append("o = o & 255")


# amd64-avx2 per parameter set: (rows taken together: 2 or 1, e' words
# held in registers, prefetch distance in bytes ahead of the group).  Two
# rows at a time do fewer vector operations per row (the L2-resident key of
# mceliece348864: operations bind); one row at a time is one sequential
# stream through the key (mceliece6960119's 1 MB key streams from L3, where
# the two-row order measured slower).  docs/mceliece.md (syndrome) has the
# measurements.  mceliece6960119's entry serves when CLASSES_AVX2 says False
# (the kernel before "Session 9", kept for measurement).
ROWS_AVX2 = {"mceliece348864": (2, 11, 2048), "mceliece6960119": (1, 12, 2048)}


def store_byte(L: list[str], nrows: int, last: bool) -> None:
    """s's byte for a group of rows: the parities in o (bit r for row r) xor
    e's identity part; the last, short group keeps only its nrows bits."""
    if last:
        L.append(f"o = o & {(1 << nrows) - 1}")
    L.append("v = mem8[e + 0]")
    if last:
        L.append(f"v = v & {(1 << nrows) - 1}")
    L.append("o = o ^ v")
    L.append("mem8[s + 0] = o")


def row_loop(L: list[str], mt: int, rb: int, pd: int, lastline: int,
             group: Callable[[int, bool, bool], None]) -> None:
    """The loop over groups of eight rows (one output byte each), then the
    short group; with prefetch (pd bytes ahead), the address f is clamped
    to pk + lastline, the last cache line of the key."""
    L.append("p = pk")
    L.append(f"i = {mt // 8}")
    if pd:
        L.append(f"l = pk + {lastline}")
    L.append("rows:")
    n0 = len(L)
    if pd:
        L.append(f"f = p + {pd}")
        L.append("unsigned<? f - l")
        L.append("f = l if unsigned>=")
    group(8, bool(pd), False)
    L[n0:] = ["  " + x for x in L[n0:]]
    L += [f"  p = p + {8 * rb}", "  s = s + 1", "  e = e + 1", "  i = i - 1", "  =? i - 0", "  goto rows if !="]
    if mt % 8:
        group(mt % 8, False, True)


def render_rows(impl: str, ident: str, name: str, t: SynTgt) -> str:
    """amd64-avx2: groups of eight rows; each key word is the memory operand
    of a vpand against an e' word kept in a register (the first kr words;
    the others loaded from EB, once per row or pair of rows).

    Two rows at a time (pairs): one accumulator per row; the pairs are those
    of vector_merge's tree (rows r and r + 4), merged as soon as a pair is
    done (unpack, fold, blend: the tree evaluated incrementally, so that few
    registers hold partial results).  One row at a time: two accumulators;
    the row's 256 bits fold in the register (lanes, qwords, dwords: every
    dword holds the row's 32-bit fold) and one blend32 puts it in its dword
    of the group's vector.  Either way vector_finish gives the parity byte;
    s byte = that ^ e byte, written after its rows are read (s may alias e
    or pk: every byte of s lies in row 0).  prefetcht0 pd bytes ahead, one
    per line of the group, the address clamped to the last group so that
    no prefetch leaves the key."""
    n, mt = PARAMS[name]
    W = t.word
    _, rb, nfull, tail, ebytes = layout(name, W)
    words = [W * w for w in range(nfull)] + ([rb - W] if tail else [])
    ebwords = [W * w for w in range(nfull)] + ([nfull * W] if tail else [])
    together, kr, pd = ROWS_AVX2[name]
    kr = min(len(words), kr)
    pkbytes = mt * rb
    L: list[str] = []
    eb_copy(L, name, t)
    for w in range(kr):
        L.append(f"e{w} = mem256[eb + {ebwords[w]}]")
    nlines = (8 * rb + 63) // 64          # prefetches per group of eight rows
    # vector_merge's tree: slot j holds row row_of_slot[j]; pairs (2i, 2i + 1)
    row_of_slot = [SLOT.index(j) for j in range(8)]
    dword_of_row = [BIT_OF_DWORD.index(r) for r in range(8)]

    def prefetches(k: int, of: int) -> None:
        """part k of `of` of the group's prefetches"""
        for j in range(nlines):
            if j * of // nlines == k:
                L.append(f"prefetch(mem8[f + {64 * j}])")

    def rowwords(rows: list[int], accs: list[str]) -> None:
        """acc ^= e'_w & key word w of row r, for each word w and (r, acc);
        one row and two accumulators: the words alternate between them"""
        for w, (off, eoff) in enumerate(zip(words, ebwords)):
            if w < kr:
                ew = f"e{w}"
            else:
                L.append(f"u = mem256[eb + {eoff}]")
                ew = "u"
            split = len(rows) < len(accs)
            for r, acc in [(rows[0], accs[w % 2])] if split else zip(rows, accs):
                mref = f"mem256[p + {r * rb + off}]"
                if w < (2 if split else 1):
                    L.append(f"{acc} = {ew} & {mref}")
                else:
                    L.append(f"t = {ew} & {mref}")
                    L.append(f"{acc} = {acc} ^ t")

    def pair(i: int, nrows: int, pf: bool) -> None:
        """rows row_of_slot[2i], [2i + 1] (those < nrows) to a: its dword pairs
        alternate between the two rows' 64-bit folds, each dword of a pair
        holding its row's 32-bit fold"""
        rows = [r for r in row_of_slot[2 * i:2 * i + 2] if r < nrows]
        accs = ["a", "b"][:len(rows)]
        rowwords(rows, accs)
        if pf:
            prefetches(i, 4)
        b = accs[-1]                       # a lone row (the last group) pairs with itself
        L.append(f"t = unpacklo64(a, {b})")
        L.append(f"a = unpackhi64(a, {b})")
        L.append("a = a ^ t")
        L.append("t = shuffle32(a, 0xb1)")
        L.append("a = a ^ t")

    def row(r: int, pf: bool) -> None:
        rowwords([r], ["a", "b"])
        if pf:
            prefetches(r, 8)
        L.append("a = a ^ b")
        L.append("t = permute128(a, a, 0x01)")
        L.append("a = a ^ t")
        L.append("t = shuffle32(a, 0x4e)")
        L.append("a = a ^ t")
        L.append("t = shuffle32(a, 0xb1)")
        L.append("a = a ^ t")
        L.append("g = a" if r == 0 else f"g = blend32(g, a, {hex(1 << dword_of_row[r])})")

    def group(nrows: int, pf: bool, last: bool) -> None:
        if together == 2:
            for i in range(4):
                # a pair without rows (the last group) leaves the previous
                # pair in a: its bits are masked off below
                if [r for r in row_of_slot[2 * i:2 * i + 2] if r < nrows]:
                    pair(i, nrows, pf)
                gh = "gh"[i // 2]
                L.append(f"{gh} = a" if i % 2 == 0 else f"{gh} = blend32({gh}, a, 0xaa)")
            L.append("t = permute128(g, h, 0x20)")
            L.append("g = permute128(g, h, 0x31)")
            L.append("g = g ^ t")
        else:
            for r in range(nrows):         # dwords of missing rows: row 0's, masked off below
                row(r, pf)
        vector_finish(L, "g", "t")
        store_byte(L, nrows, last)

    row_loop(L, mt, rb, pd, pkbytes - 1 - 64 * (nlines - 1), group)
    head = [f"# generated by gen/mceliece.py (syndrome of {name}, {impl}). DO NOT EDIT.",
            f"# s = He, H = (I_{mt} | T): {mt} rows of {rb} bytes, loads of {W} bytes"
            f" ({nfull} whole words and {'a tail of ' + str(tail) + ' bytes' if tail else 'no tail'} per row),"
            f" {'two rows' if together == 2 else 'one row'} at a time, {kr} e' words in registers,"
            f" prefetch {pd} bytes ahead; gen/mceliece_syndrome.py.",
            f"cpu {t.cpu}",
            "int64 s pk e eb p i f l",
            "int64 x y z o v",
            "reg256 u t a b g h " + " ".join(f"e{w}" for w in range(kr)),
            "reg128 c0 d0",
            f"stack256 EB[{ebytes // 32}]",
            "", f"enter qhasm_kernel_{name}_syndrome_{ident}_syndrome", "input s pk e", "secret [pk] [e]"]
    return "\n".join(head + L + ["leave"]) + "\n"


# amd64-avx512: the rows in classes of equal alignment (docs/mceliece.md,
# "Session 9": split 64-byte loads bound the row walk on Golden Cove).
# groups of a class per loop iteration (when they divide G)
UNROLL512 = 2
ROW_OF_SLOT512 = [(0, 4, 1, 5, 2, 6, 3, 7)[j] for j in range(8)]
SLOT_OF_ROW512 = [ROW_OF_SLOT512.index(r) for r in range(8)]


# merge8 with popcnt: the tree leaves slot k's 64-bit fold in qword 2k and
# slot 4 + k's in qword 2k + 1, and qword j becomes bit j: row r in slot
# SLOT_OF_ROW_POP[r]
SLOT_OF_ROW_POP = [0, 4, 1, 5, 2, 6, 3, 7]


def slots512(popcnt: bool) -> list[int]:
    """merge8's slot (accumulator A<slot>) of row r of a group"""
    return SLOT_OF_ROW_POP if popcnt else SLOT_OF_ROW512


def merge8(L: list[str], nrows: int, popcnt: bool = False) -> None:
    """The eight zmm accumulators A0..A7 (row r of the group in A[slots512(popcnt)[r]])
    to the byte o of their parities (bit r = row r): a tree of 512-bit
    shuffles, row pairs (vshufi32x4 0x44 / 0xee, xor: each row's 256-bit
    fold in one half), pairs of pairs (0x88 / 0xdd: each row's 128-bit fold
    in one lane), the two halves of the group (unpacklo64 / unpackhi64:
    qwords, row r's 64-bit fold in qword r with popcnt).  popcnt: vpopcntq,
    each count's bit 0 (the row's parity) to bit 7 of the qword's low byte
    (vpsllq 7), the qwords' low bytes to bytes 0-7 (vpmovqb), vpmovmskb: 4
    operations.  Else qword to dword (shuffle32 0xb1), zmm to ymm
    (extract256, blend32 0xaa) and finish_bytes: 20.  Rows nrows..7 are row
    0's (mask them)."""
    slot = slots512(popcnt)
    for r in range(nrows, 8):
        L.append(f"A{slot[r]} = A{slot[0]}")
    for i in range(4):                 # pairs: 256-bit folds
        a, b = f"A{2 * i}", f"A{2 * i + 1}"
        L.append(f"T = shuffle128({a}, {b}, 0x44)")
        L.append(f"{a} = shuffle128({a}, {b}, 0xee)")
        L.append(f"{a} = {a} ^ T")
    for i in range(2):                 # pairs of pairs: 128-bit folds, slot 4i + k in lane k
        a, b = f"A{4 * i}", f"A{4 * i + 2}"
        L.append(f"T = shuffle128({a}, {b}, 0x88)")
        L.append(f"{a} = shuffle128({a}, {b}, 0xdd)")
        L.append(f"{a} = {a} ^ T")
    L.append("T = unpacklo64(A0, A4)")     # lane k: slots k, 4 + k
    L.append("A0 = unpackhi64(A0, A4)")
    L.append("A0 = A0 ^ T")
    if popcnt:
        L += ["8x A0 = popcount(A0)", "8x A0 = A0 << 7", "g = truncate8q(A0)", "o = movemask8(g)"]
        return
    L.append("T = shuffle32(A0, 0xb1)")
    L.append("A0 = A0 ^ T")
    L.append("g = extract256(A0, 0)")
    L.append("h = extract256(A0, 1)")
    L.append("g = blend32(g, h, 0xaa)")
    finish_bytes(L, "g", "t")


def finish_bytes(L: list[str], a: str, u: str) -> None:
    """merge8's dwords (dword d: row d) to the parity byte o: each dword
    folded onto its bit 31, the dwords' top bytes gathered into bytes 0-3
    of each 128-bit lane (vpshufb, const BYTE3), vpmovmskb (bits 0-3 and
    16-19), the high nibble moved down: 15 operations against
    vector_finish's 22."""
    for sh in (16, 8, 4, 2, 1):
        L.append(f"8x {u} = {a} << {sh}")
        L.append(f"{a} = {a} ^ {u}")
    L.append(f"{a} = shufbytes({a}, mem256[BYTE3])")
    L += [f"o = movemask8({a})", "v = o", "v >>= 12", "o |= v"]    # bits 8-15 zero: o's low byte


BYTE3 = ("const BYTE3 u64 " + " ".join(
    str(sum((3 + 4 * b if b < 4 else 0x80) << (8 * b) for b in range(8)) if q % 2 == 0 else M64 & 0x8080808080808080)
    for q in range(4)))


def ebz_copy(L: list[str], name: str, nz: int, zreg: str, W: int) -> None:
    """EBZ (nz 64-byte words: 64 zero bytes, e' from byte 64, zeros) and
    BITS (64 words) zeroed through the zero register zreg (W bytes: reg512
    or reg256), e' copied (shifted by mt % 8 bits) by qwords, then bytewise."""
    n, mt = PARAMS[name]
    rb = (n - mt + 7) // 8
    shift, ebase = mt % 8, mt // 8
    mem = f"mem{8 * W}"
    L += [f"{zreg} = 0", "eb = &EBZ"]
    L += [f"{mem}[eb + {W * w}] = {zreg}" for w in range(64 * nz // W)]
    L += ["bt = &BITS"] + [f"{mem}[bt + {W * w}] = {zreg}" for w in range(512 // W)]
    nq = rb // 8
    assert not shift or ebase + 8 * nq < n // 8
    L += [f"p = e + {ebase}", "eb = eb + 64", f"i = {nq}", "copy:", "  x = mem64[p + 0]"]
    if shift:
        L += [f"  x = x >> {shift}", "  y = mem8[p + 8]", f"  y = y << {64 - shift}", "  x = x ^ y"]
    L += ["  mem64[eb + 0] = x", "  p = p + 8", "  eb = eb + 8", "  i = i - 1", "  =? i - 0",
          "  goto copy if !="]
    for j in range(rb - 8 * nq):
        L.append(f"x = mem8[p + {j}]")
        if shift:
            L.append(f"x = x >> {shift}")
            if ebase + 8 * nq + j + 1 < n // 8:
                L += [f"y = mem8[p + {j + 1}]", f"y = y << {8 - shift}", "x = x ^ y"]
        L.append(f"mem8[eb + {j}] = x")


def bits_out(L: list[str], name: str, vbits: int) -> tuple[list[str], list[str]]:
    """BITS word c bit k = row c + kP, transposed in place (mceliece_transpose's
    vector network), word k bit c = row kP + c: the syndrome's chunks of P
    bits, each xored with e's identity bits and stored.  Returns the consts
    and the network's register declarations."""
    P, _, G, _ = classes(name)
    T = mceliece_transpose.Lines()
    L += ["in = &BITS", "out = in"]
    tnames, consts = mceliece_transpose.vector(T, vbits // 64, vbits, vbits == 512, 63)
    L += T.out
    ch = P // 8                            # bytes per chunk
    L.append("bt = &BITS")
    for k in range(8 * G):
        L += [f"x = mem{P}[bt + {8 * k}]", f"v = mem{P}[e + {ch * k}]", "x = x ^ v",
              f"mem{P}[s + {ch * k}] = x"]
    return consts, tnames


def tailmask(W: int, tail: int) -> str:
    """the const TAILMASK: a W-byte word whose last `tail` bytes are ones"""
    mask = sum(0xff << (8 * b) for b in range(W - tail, W))
    return "const TAILMASK u64 " + " ".join(str((mask >> (64 * k)) & M64) for k in range(W // 8))


def classes(name: str) -> tuple[int, int, int, int]:
    """(P, NL, G, rest): row r starts at (pk + r*rb) mod 64, which repeats
    every P = 64 / gcd(rb, 64) rows (the class r mod P); a row spans at most
    NL aligned lines; each class has G groups of eight rows in the first
    8PG rows; the last `rest` rows are walked unaligned."""
    n, mt = PARAMS[name]
    rb = (n - mt + 7) // 8
    P = 64 // gcd(rb, 64)
    NL = (63 + rb + 63) // 64
    G = mt // (8 * P)
    assert 1 <= G <= 8 and 64 * NL <= 2 * rb and P * 8 >= 16, name
    return P, NL, G, mt - 8 * P * G


def class_loops(L: list[str], n0: int, G: int, rb: int, lengths: list[tuple[str, int]],
                body: Callable[[int], None], step: list[str]) -> None:
    """The class loop's inner part, shared by render_rows512 and
    render_classes256: one group loop per row length (label, lines or
    words per row; "long" jumps past the others), each `body(n)` then
    `step` and the branch back; then the class step (the byte pointer past
    the class's 8 bytes, the next row start) and the branch to `classes`,
    with the class body (from L[n0]) indented."""
    for lab, n in lengths:
        L.append(f"{lab}:")
        n1 = len(L)
        body(n)
        L += step + [f"goto {lab} if !="]
        L[n1:] = ["  " + x for x in L[n1:]]
        if lab == "long":
            L.append("goto next")
    L.append("next:")
    if G < 8:
        L.append(f"bt = bt + {8 - G}")
    L += [f"rs = rs + {rb}", "i = i - 1", "=? i - 0", "goto classes if !="]
    L[n0:] = ["  " + x for x in L[n0:]]


def render_rows512(impl: str, ident: str, name: str, t: SynTgt) -> str:
    """amd64-avx512: no 64-byte load crosses a cache line.  Rows in classes
    of equal start alignment o = (pk + r*rb) mod 64 (classes() gives the
    period P); for each class the NL words of e' shifted to that alignment
    (e'' = the 64-byte words at EBZ + 64 - o + 64w, EBZ being e' between
    zeros) stay in zmm, and each row of the class is NL aligned lines from
    its start rounded down, every line the memory operand of one vpternlogd
    (acc ^= e''_w & line); e'' is zero outside the row, so the bytes of the
    neighbouring rows in the first and last line count nothing (row 0 reads
    the bytes of its first line before pk, in the same 64-byte line: no
    fault).  A class whose rows end within NL - 1 lines (o + rb <= 64 (NL -
    1)) runs a loop of NL - 1 lines per row: no line is read past a row's
    last line, nor past the key.  Eight
    rows of a class (P apart) merge into a byte (merge8) of BITS word c
    (bit k = row c + kP); the 64x64 bit transpose (mceliece_transpose's
    zmm network) turns BITS into the syndrome's chunks of P bits.  The rows
    after the 8PG of the classes (mceliece6960119: 11) are walked row by
    row with unaligned loads (e' words in zmm, the last word overlapping).
    s is written after every row is read (s may alias e or pk)."""
    _, mt = PARAMS[name]
    _, rb, nfull, tail, _ = layout(name, 64)
    P, NL, G, rest = classes(name)
    stride = P * rb
    L: list[str] = []
    ebz_copy(L, name, NL + 1, "Z", 64)
    # 2. the classes: NL lines per row, or NL - 1 when o + rb <= 64 (NL - 1)
    L += ["rs = pk", "eb = &EBZ", "eb = eb + 64", "bt = &BITS", f"i = {P}"]
    L.append("classes:")
    n0 = len(L)
    L += ["o = rs & 63", "q = rs - o", "ee = eb - o"]
    L += [f"E{w} = mem512[ee + {64 * w}]" for w in range(NL)]
    U = UNROLL512 if G % UNROLL512 == 0 else 1
    L += [f"j = {G // U}", f"unsigned<? o - {64 * (NL - 1) - rb + 1}", "goto short if unsigned<"]

    def groups(nl: int) -> None:
        for u in range(U):
            for r in range(8):
                a = f"A{slots512(t.popcnt)[r]}"
                for w in range(nl):
                    mref = f"mem512[q + {(8 * u + r) * stride + 64 * w}]"
                    L.append(f"{a} = E0 & {mref}" if w == 0 else f"{a} = ternlog({a}, E{w}, {mref}, 0x78)")
            merge8(L, 8, t.popcnt)
            L.append(f"mem8[bt + {u}] = o")
    class_loops(L, n0, G, rb, [("long", NL), ("short", NL - 1)], groups,
                [f"bt = bt + {U}", f"q = q + {8 * U * stride}", "=? j -= 1"])
    # 3. the rest, row by row with unaligned loads (e' words; the last one overlapping)
    words = [64 * w for w in range(nfull)] + ([rb - 64] if tail else [])
    if rest:
        L += [f"E{w} = mem512[eb + {64 * w}]" for w in range(nfull)]
        if tail:
            L += [f"E{nfull} = mem512[eb + {rb - 64}]", f"E{nfull} = E{nfull} & mem512[TAILMASK]"]
        L += [f"p = pk + {8 * P * G * rb}", f"sp = s + {P * G}", f"ep = e + {P * G}"]
        for g0 in range(0, rest, 8):
            nrows = min(8, rest - g0)
            for r in range(nrows):
                a = f"A{slots512(t.popcnt)[r]}"
                for w, off in enumerate(words):
                    mref = f"mem512[p + {(g0 + r) * rb + off}]"
                    L.append(f"{a} = E0 & {mref}" if w == 0 else f"{a} = ternlog({a}, E{w}, {mref}, 0x78)")
            merge8(L, nrows, t.popcnt)
            m = (1 << nrows) - 1
            L += [f"o = o & {m}", f"v = mem8[ep + {g0 // 8}]", f"v = v & {m}", "o = o ^ v",
                  f"mem8[sp + {g0 // 8}] = o"]
    consts, tnames = bits_out(L, name, 512)
    if not t.popcnt:
        consts.append(BYTE3)
    if tail and rest:                      # the overlapping last word: its first 64 - tail bytes off
        consts.append(tailmask(64, tail))
    head = [f"# generated by gen/mceliece.py (syndrome of {name}, {impl}). DO NOT EDIT.",
            f"# s = He, H = (I_{mt} | T): {mt} rows of {rb} bytes in {P} classes of equal alignment,"
            f" {NL} aligned 64-byte lines per row, {G} groups of eight rows per class,"
            f" {rest} rows walked unaligned; gen/mceliece_syndrome.py.",
            f"cpu {t.cpu}",
            "int64 s pk e eb p i j f l rs q ee bt sp ep in out",
            "int64 x y o v",
            "reg512 Z T " + " ".join(f"A{j}" for j in range(8)) + " " + " ".join(f"E{w}" for w in range(NL)),
            "reg512 " + " ".join(tnames),
            "reg256 t g h",
            "reg128 c0 d0",
            f"stack512 EBZ[{NL + 1}]",
            "stack512 BITS[8]"] + consts + [
            "", f"enter qhasm_kernel_{name}_syndrome_{ident}_syndrome", "input s pk e", "secret [pk] [e]"]
    return "\n".join(head + L + ["leave"]) + "\n"


# amd64-avx2 by render_classes256 (True) or render_rows (False); docs/mceliece.md,
# "Session 9": mceliece348864's unaligned row walk keeps all 11 e' words in
# registers and measured faster than the classes' 12 aligned words.
CLASSES_AVX2 = {"mceliece348864": False, "mceliece6960119": True}


def render_classes256(impl: str, ident: str, name: str, t: SynTgt) -> str:
    """amd64-avx2: render_rows512's classes with 32-byte words: a row is NW
    aligned 32-byte words from its start rounded down to 32 bytes (no load
    crosses a cache line); the class's e'' words (EBZ + 64 - o + 32u, o the
    start mod 32) are the first kr in ymm, the others copied once per
    class into EC (aligned) and loaded once for two rows of the class (P
    apart, read together); each word: vpand with the key word as memory
    operand, vpxor into the row's accumulator; each row folded to a dword
    blended into g (render_rows' row fold); vector_finish per eight rows
    gives a byte of BITS; NW - 1 words per row for the classes whose rows
    end early; the rest rows, the transpose and the output as in
    render_rows512."""
    _, mt = PARAMS[name]
    _, rb, nfull, tail, _ = layout(name, 32)
    P, _, G, rest = classes(name)
    NW = (31 + rb + 31) // 32
    kr = min(11, NW)                       # ymm: a b t u g and 11 e'' words
    stride = P * rb
    dword_of_row = [BIT_OF_DWORD.index(r) for r in range(8)]
    L: list[str] = []
    ebz_copy(L, name, (64 + 32 * NW + 63) // 64 + 1, "Z", 32)
    L += ["rs = pk", "eb = &EBZ", "eb = eb + 64", "bt = &BITS", f"i = {P}"]
    L.append("classes:")
    n0 = len(L)
    L += ["o = rs & 31", "q = rs - o", "ee = eb - o"]
    L += [f"E{u} = mem256[ee + {32 * u}]" for u in range(kr)]
    if NW > kr:
        L.append("ec = &EC")
        for u in range(kr, NW):
            L += [f"Z = mem256[ee + {32 * u}]", f"mem256[ec + {32 * (u - kr)}] = Z"]
    L += [f"j = {G}", f"unsigned<? o - {32 * (NW - 1) - rb + 1}", "goto short if unsigned<"]

    def rowwords(base: str, roff: int, offs: list[int], ew: Callable[[int], str]) -> None:
        accs = ["a", "b"]
        for u, off in enumerate(offs):
            mref = f"mem256[{base} + {roff + off}]"
            acc = accs[u % len(accs)]
            if u >= kr:
                L.append(f"u = {ew(u)}")
            src = f"E{u}" if u < kr else "u"
            if u < len(accs):
                L.append(f"{acc} = {src} & {mref}")
            else:
                L.append(f"t = {src} & {mref}")
                L.append(f"{acc} = {acc} ^ t")

    def pairwords(roff: int, offs: list[int]) -> None:
        """rows at q + roff and q + roff + stride into a and b, the e'' words
        beyond kr loaded once for both"""
        for u, off in enumerate(offs):
            if u >= kr:
                L.append(f"u = mem256[ec + {32 * (u - kr)}]")
            src = f"E{u}" if u < kr else "u"
            for k, x in enumerate("ab"):
                mref = f"mem256[q + {roff + k * stride + off}]"
                if u == 0:
                    L.append(f"{x} = {src} & {mref}")
                else:
                    L.extend([f"t = {src} & {mref}", f"{x} = {x} ^ t"])

    def fold1(x: str, r: int) -> None:
        """x's 256 bits folded onto every dword, blended into g's dword of row r"""
        L.extend([f"t = permute128({x}, {x}, 0x01)", f"{x} = {x} ^ t", f"t = shuffle32({x}, 0x4e)",
                  f"{x} = {x} ^ t", f"t = shuffle32({x}, 0xb1)", f"{x} = {x} ^ t",
                  f"g = {x}" if r == 0 else f"g = blend32(g, {x}, {hex(1 << dword_of_row[r])})"])

    def group(nw: int) -> None:
        for r in range(0, 8, 2):
            pairwords(r * stride, [32 * u for u in range(nw)])
            fold1("a", r)
            fold1("b", r + 1)
        vector_finish(L, "g", "t")
    class_loops(L, n0, G, rb, [("long", NW), ("short", NW - 1)], group,
                ["mem8[bt + 0] = o", "bt = bt + 1", f"q = q + {8 * stride}", "j = j - 1", "=? j - 0"])
    words = [32 * w for w in range(nfull)] + ([rb - 32] if tail else [])
    consts: list[str] = []
    if rest:
        # e' words: the first kr in E, the others loaded from EBZ (the last
        # overlapping word masked into EC)
        L += [f"E{u} = mem256[eb + {words[u]}]" for u in range(kr)]
        L.append("ec = &EC")
        if tail:
            L += [f"Z = mem256[eb + {rb - 32}]", "Z = Z & mem256[TAILMASK]", f"mem256[ec + 0] = Z"]
            consts.append(tailmask(32, tail))
        L += [f"p = pk + {8 * P * G * rb}", f"sp = s + {P * G}", f"ep = e + {P * G}"]

        def ew(u: int) -> str:
            return "mem256[ec + 0]" if tail and u == len(words) - 1 else f"mem256[eb + {words[u]}]"
        for g0 in range(0, rest, 8):
            nrows = min(8, rest - g0)
            for r in range(nrows):
                rowwords("p", (g0 + r) * rb, words, ew)
                L.append("a = a ^ b")
                fold1("a", r)
            vector_finish(L, "g", "t")
            m = (1 << nrows) - 1
            L += [f"o = o & {m}", f"v = mem8[ep + {g0 // 8}]", f"v = v & {m}", "o = o ^ v",
                  f"mem8[sp + {g0 // 8}] = o"]
    c2, tnames = bits_out(L, name, 256)
    consts = c2 + consts
    ecw = max(NW - kr, 1)
    head = [f"# generated by gen/mceliece.py (syndrome of {name}, {impl}). DO NOT EDIT.",
            f"# s = He, H = (I_{mt} | T): {mt} rows of {rb} bytes in {P} classes of equal alignment,"
            f" {NW} aligned 32-byte words per row ({kr} e'' words in registers), {G} groups of eight"
            f" rows per class, {rest} rows walked unaligned; gen/mceliece_syndrome.py.",
            f"cpu {t.cpu}",
            "int64 s pk e eb p i j f l rs q ee ec bt sp ep in out",
            "int64 x y o v",
            "reg256 Z u t a b g " + " ".join(f"E{w}" for w in range(kr)),
            "reg256 " + " ".join(tnames),
            "reg128 c0 d0",
            f"stack512 EBZ[{(64 + 32 * NW + 63) // 64 + 1}]",
            f"stack256 EC[{ecw}]",
            "stack512 BITS[8]"] + consts + [
            "", f"enter qhasm_kernel_{name}_syndrome_{ident}_syndrome", "input s pk e", "secret [pk] [e]"]
    return "\n".join(head + L + ["leave"]) + "\n"


def render_bytes(impl: str, ident: str, name: str, t: SynTgt) -> str:
    """Byte loads and no stack buffer (SPARC: aligned loads only, and no
    address-of-stack form): e' byte b is computed from e for each group of
    eight rows, (e[mt/8 + b] >> shift) ^ (e[mt/8 + b + 1] << (8 - shift))."""
    n, mt = PARAMS[name]
    rb = (n - mt + 7) // 8
    shift, ebase = mt % 8, mt // 8
    L: list[str] = []

    def group(nrows: int, last: bool) -> None:
        # rows r at p0 + r*rb; a loop over the row bytes (b = 0 .. rb-1)
        for r in range(nrows):
            L.append(f"a{r} = 0")
        L.append("q0 = p0")
        L.append(f"ep = e0 + {ebase}")
        L.append(f"j = {rb}")
        L.append(f"bytes{nrows}:")
        L.append("  q = mem8[ep + 0]")
        if shift:
            L.append(f"  q = q >> {shift}")
            L.append(f"  =? j - 1")
            L.append(f"  goto lastbyte{nrows} if =")
            L.append("  u = mem8[ep + 1]")
            L.append(f"  u = u << {8 - shift}")
            L.append("  q = q ^ u")
            L.append(f"  lastbyte{nrows}:")
        for r in range(nrows):
            base, disp = ("q0", r * rb)
            if disp > t.maxdisp:
                base, disp = "q1", (r - 4) * rb
            L.append(f"  u = mem8[{base} + {disp}]")
            L.append("  u = u & q")
            L.append(f"  a{r} = a{r} ^ u")
        L.append("  q0 = q0 + 1")
        if nrows > 4:
            L.append("  q1 = q1 + 1")
        L.append("  ep = ep + 1")
        L.append("  j = j - 1")
        L.append("  =? j - 0")
        L.append(f"  goto bytes{nrows} if !=")
        # parities of the 8-bit accumulators, gathered into one byte
        L.append("o = 0")
        for r in range(nrows):
            for h in (4, 2, 1):
                L.append(f"v = a{r} >> {h}")
                L.append(f"a{r} = a{r} ^ v")
            L.append(f"v = a{r} & 1")
            if r:
                L.append(f"v = v << {r}")
            L.append("o = o ^ v")
        L.append("v = mem8[e + 0]")
        if last:
            L.append(f"m = {(1 << nrows) - 1}")
            L.append("v = v & m")
        L.append("o = o ^ v")
        L.append("mem8[s + 0] = o")

    L.append("e0 = e")
    L.append("p0 = pk")
    L.append(f"i = {mt // 8}")
    L.append("rows:")
    L.append(f"  q1 = p0 + {4 * rb}")
    n0 = len(L)
    group(8, False)
    L[n0:] = ["  " + x for x in L[n0:]]
    left = 8 * rb
    while left:                            # add immediates fit in maxdisp
        step = min(left, t.maxdisp)
        L.append(f"  p0 = p0 + {step}")
        left -= step
    L += ["  s = s + 1", "  e = e + 1", "  i = i - 1", "  =? i - 0", "  goto rows if !="]
    if mt % 8:
        L.append(f"q1 = p0 + {4 * rb}")
        group(mt % 8, True)
    head = [f"# generated by gen/mceliece.py (syndrome of {name}, {impl}). DO NOT EDIT.",
            f"# s = He, H = (I_{mt} | T): {mt} rows of {rb} bytes, byte loads, e' computed per"
            " group of eight rows; gen/mceliece_syndrome.py.",
            f"{t.ptr} s pk e e0 ep p0 q0 q1 i j",
            f"{t.ptr} q u v m o a0 a1 a2 a3 a4 a5 a6 a7",
            "", f"enter qhasm_kernel_{name}_syndrome_{ident}_syndrome", "input s pk e", "secret [pk] [e]"]
    return "\n".join(head + L + ["leave"]) + "\n"
