"""Bitsliced GF(3) product for mult3sntrupP: the executable model and
operation count behind the design in docs/ntruprime.md (R/3, "bitsliced
GF(3)"), and the generator of the kernels amd64-avx2bs (ymm, AVX2) and
amd64-avx512bs (zmm, vpternlogd) (generate(), qpath(), text(): the same
plan run on symbols of 8 or 16 slots, below).  The model runs the
algorithm word by word on Python integers standing
for 32-bit slots and 256-bit registers, checks it against schoolbook
arithmetic in R/3, and counts the vector operations every step would
issue, so the choice between the byte-product Karatsuba and this design
rests on counted operations, not guesses.

    python3 -m gen.ntruprime_bs3 [--p P ...] [--trials N]

The design (p = 761: N = 768 = 32 x 24):
- interleaved split: a(x) = sum_r x^r A_r(x^32), r < 32, A_r(y) of I = N/32
  coefficients a[32 i + r]; byte row i of the input (32 bytes) is one
  vector whose lane r is a[32 i + r], so one vpmovmskb per bit plane gives
  the 32-bit word "bit r" for that i: no transposition at the input;
- Karatsuba along r in the bit domain (5 levels, 32 -> 3^5 = 243
  evaluation points t), the same plan in every 32-bit slot (8 values of i
  per ymm), in GF(3) (evaluation and interpolation need additions only);
- an 8 x 8 transpose of 32-bit elements puts the 243 (of 256) bits of one
  i in one ymm pair; then the 243 independent products A'_t(y) B'_t(y)
  are one bitsliced I x I schoolbook on 256 lanes (12 logical operations
  per multiply-accumulate);
- interpolation back along t in the bit domain (the inverse of the
  evaluation's packing plan, products kept in two layers of words), the
  overlap of the 63 x-powers per y-power, the fold modulo x^p - x - 1 and
  the reduction to {-1, 0, 1} in bytes (counted, computed in integers).

GF(3) element x = (h, l) bit planes: 0 = (0, 0), 1 = (0, 1), 2 = (1, 0).
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field

R = 32          # the x-split: coefficients r + 32 i
LEVELS = 5      # 2^LEVELS = R
SLOT = 32       # bits per slot of the bit-domain evaluation (vpsrld/vpslld)
STRIDE = 64     # the model's spacing of the slots in one Python integer


# ------------------------------------------------------------ GF(3) planes
@dataclass
class Count:
    """vector operations by kind, and by stage (the current `stage`)"""
    ops: dict[str, int] = field(default_factory=dict)
    stages: dict[str, int] = field(default_factory=dict)
    stage: str = ""

    def add(self, kind: str, n: int = 1) -> None:
        self.ops[kind] = self.ops.get(kind, 0) + n
        self.stages[self.stage] = self.stages.get(self.stage, 0) + n

    def total(self) -> int:
        return sum(self.ops.values())


Pl = tuple[int, int]   # (h, l)


def add3(x: Pl, y: Pl, c: Count | None = None) -> Pl:
    """x + y in 6 logical operations (per plane pair); on symbols of an
    emitter with ternary logic (AVX-512) in 4: t = ternlog(xl | yh, xh, yl),
    then one ternlog per plane"""
    em = next((v.em for v in (*x, *y) if hasattr(v, "em")), None)     # a Sym (below): emitting
    if em is not None and em.fuse and all(hasattr(v, "em") for v in (*x, *y)):
        a = x[1] | y[0]
        t = em.tern(lambda a, b, c: a ^ (b | c), a, x[0], y[1])
        return (em.tern(lambda a, b, c: (a | b) ^ c, x[1], y[1], t),
                em.tern(lambda a, b, c: (a | b) ^ c, x[0], y[0], t))
    t = (x[1] | y[0]) ^ (x[0] | y[1])
    if c:
        c.add("logic", 6)
    return ((x[1] | y[1]) ^ t, (x[0] | y[0]) ^ t)


def neg3(x: Pl) -> Pl:
    """-x: the planes swapped (no operation)"""
    return (x[1], x[0])


def mul3(x: Pl, y: Pl, c: Count | None = None) -> Pl:
    """x * y in 6 logical operations"""
    if c:
        c.add("logic", 6)
    return ((x[0] & y[1]) | (x[1] & y[0]), (x[0] & y[0]) | (x[1] & y[1]))


def enc(v: int) -> Pl:
    v %= 3
    return (1 if v == 2 else 0, 1 if v == 1 else 0)


def dec(x: Pl, bit: int = 0) -> int:
    h, l = (x[0] >> bit) & 1, (x[1] >> bit) & 1
    assert not (h and l), "invalid GF(3) encoding"
    return 2 if h else l


def prove_formulas() -> None:
    """add3, mul3, neg3 on every pair of elements (bit 0), and bitwise
    independence (random 64-bit words)"""
    for a in range(3):
        assert dec(neg3(enc(a))) == (-a) % 3
        for b in range(3):
            assert dec(add3(enc(a), enc(b))) == (a + b) % 3, (a, b)
            assert dec(mul3(enc(a), enc(b))) == (a * b) % 3, (a, b)
    rng = random.Random(1)
    for _ in range(100):
        va = [rng.randrange(3) for _ in range(64)]
        vb = [rng.randrange(3) for _ in range(64)]
        A, B = pack(va), pack(vb)
        s, m = add3(A, B), mul3(A, B)
        for k in range(64):
            assert dec(s, k) == (va[k] + vb[k]) % 3 and dec(m, k) == (va[k] * vb[k]) % 3


def acc_formula_check() -> None:
    """the AVX2 base's multiply-accumulate on (nonzero, sign) pairs whose
    sign is arbitrary where nonzero is 0: (n2, s2) = (a_nz b_nz, a_s ^ b_s),
    w = n2 & (s1 ^ s2 ^ n1), s' = s1 ^ w, n' = w | (n1 ^ n2), on every
    accumulator, a and b (each zero with both signs)"""
    def val(n: int, s: int) -> int:
        return 0 if not n else (2 if s else 1)
    pairs = [(n, s) for n in (0, 1) for s in (0, 1)]
    for n1, s1 in pairs:
        for an, as_ in pairs:
            for bn, bs in pairs:
                n2, s2 = an & bn, as_ ^ bs
                assert val(n2, s2) == val(an, as_) * val(bn, bs) % 3
                w = n2 & (s1 ^ s2 ^ n1)
                got = val(w | (n1 ^ n2), s1 ^ w)
                assert got == (val(n1, s1) + val(n2, s2)) % 3, (n1, s1, an, as_, bn, bs)
                h = (w | (n1 ^ n2)) & (s1 ^ w)
                l = (w | (n1 ^ n2)) ^ h
                assert dec((h, l)) == got        # the (h, l) planes stored for the interpolation


def pack(vals: list[int]) -> Pl:
    h = l = 0
    for k, v in enumerate(vals):
        e = enc(v)
        h |= e[0] << k
        l |= e[1] << k
    return (h, l)


# ------------------------------------------------ the bit-domain evaluation
@dataclass
class Word:
    """one 32-bit slot (the same in every slot of a ymm, one i per slot):
    its bit planes and what each used position holds: (t digits, r rest)"""
    val: Pl
    pos: dict[int, tuple[tuple[int, ...], int]]


def block_of(w: Word, B: int) -> list[int]:
    """the positions of the low halves of w's blocks of size B (a block is
    B consecutive used positions with r rest 0 .. B-1)"""
    return sorted(p for p, (t, rr) in w.pos.items() if rr < B // 2)


def fits(dst: Word, src: dict[int, tuple[tuple[int, ...], int]], s: int) -> bool:
    return all(0 <= p + s < SLOT and (p + s) not in dst.pos for p in src)


def rep(m: int, nslots: int) -> int:
    """a slot mask repeated in every slot (the model keeps slot i at bit
    STRIDE * i of one integer, so a shift by less than SLOT never mixes
    slots once masked)"""
    return sum(m << (STRIDE * i) for i in range(nslots))


def _shifted(v: Pl, s: int) -> Pl:
    return (v[0] << s, v[1] << s) if s >= 0 else (v[0] >> -s, v[1] >> -s)


def place(words: list[Word], sw: Word, c: Count, ymm: int, H: int, nslots: int,
          rec: list[tuple[int, int, frozenset[int]]]) -> bool:
    """put the sum word sw into free positions of the words: whole by one
    shift and one or per plane if some word has room; else block by block
    (blocks of H bits: an and, a shift and an or per plane for each group
    of blocks moved by the same shift), if all of them find room.  rec gets
    (destination word, shift, the source positions moved) per move."""
    shifts = sorted(range(-SLOT + 1, SLOT), key=abs)
    for dst in words:
        for s in shifts:
            if fits(dst, sw.pos, s):
                v = _shifted(sw.val, s)
                dst.val = (dst.val[0] | v[0], dst.val[1] | v[1])
                for p, x in sw.pos.items():
                    dst.pos[p + s] = x
                c.add("shift", (2 if s else 0) * ymm)
                c.add("logic", 2 * ymm)
                rec.append((words.index(dst), s, frozenset(sw.pos)))
                return True
    bases = sorted({p - x[1] for p, x in sw.pos.items()})
    blocks = [{p: sw.pos[p] for p in range(b, b + H)} for b in bases]
    moves: dict[tuple[int, int], list[dict]] = {}
    taken: dict[int, set[int]] = {id(d): set() for d in words}
    for blk in blocks:
        for di, dst in enumerate(words):
            s = next((s for s in shifts if all(0 <= p + s < SLOT and (p + s) not in dst.pos
                                               and (p + s) not in taken[id(dst)] for p in blk)), None)
            if s is not None:
                taken[id(dst)].update(p + s for p in blk)
                moves.setdefault((di, s), []).append(blk)
                break
        else:
            return False
    for (di, s), blks in moves.items():
        dst = words[di]
        M = rep(sum(1 << p for blk in blks for p in blk), nslots)
        v = _shifted((sw.val[0] & M, sw.val[1] & M), s)
        dst.val = (dst.val[0] | v[0], dst.val[1] | v[1])
        for blk in blks:
            for p, x in blk.items():
                dst.pos[p + s] = x
        c.add("logic", 4 * ymm)
        c.add("shift", (2 if s else 0) * ymm)
        rec.append((di, s, frozenset(p for blk in blks for p in blk)))
    return True


Hist = list[list[tuple[int, list[tuple[int, int, frozenset[int]]]]]]


def evaluate_plan(words: list[Word], c: Count, nslots: int, fast: bool = False) -> tuple[list[Word], Hist]:
    """LEVELS Karatsuba levels along r in the bit domain.  Level k (blocks
    of B = 2^(LEVELS-k) bits, halves H = B/2): every word is kept (its low
    halves are the t-digit 0 products, its high halves the digit 2 ones);
    the digit 1 products are S = add3(W & M, (W >> H) & M) (M: the low
    halves), merged with each other and placed into free positions by
    shifts and ors (greedy, below).  Operations are counted per ymm (8
    slots: nslots / 8 ymm per word).  Returns the words and, per level, for
    every word its digit-1 product's moves (the interpolation's plan).
    fast (amd64-avx512bs, symbols only, not counted): S = add3(W, W >> H) & M,
    the masks after the addition (2 instead of 4; the same plan)."""
    ymm = -(-nslots // 8)
    hist: Hist = []
    for k in range(LEVELS):
        B = R >> k
        H = B // 2
        sums: list[Word] = []
        for w in words:
            lows = block_of(w, B)
            assert lows
            M = rep(sum(1 << p for p in lows), nslots)
            lo = (w.val[0] & M, w.val[1] & M)
            hi = ((w.val[0] >> H) & M, (w.val[1] >> H) & M)
            c.add("logic", 2 * ymm)           # the two ands of lo
            c.add("shift", 2 * ymm)
            c.add("logic", 2 * ymm)           # shift and and of hi
            cc = Count()
            if fast:
                s = add3(w.val, _shifted(w.val, -H))
                s = (s[0] & M, s[1] & M)
            else:
                s = add3(lo, hi, cc)
            c.add("logic", cc.total() * ymm)
            sums.append(Word(s, {p: (w.pos[p][0] + (1,), w.pos[p][1]) for p in lows}))
        nxt: list[Word] = []
        for w in words:
            pos = {}
            for p, (t, rr) in w.pos.items():
                pos[p] = (t + (0,), rr) if rr < H else (t + (2,), rr - H)
            nxt.append(Word(w.val, pos))
        # the sums first merged with each other (largest first, each into the
        # first merged word where one shift fits it: one shift and one or
        # per plane), then each merged word placed whole into free
        # positions of a word, or block by block, or as a new word
        merged: list[tuple[Word, list[tuple[int, int]]]] = []
        for i in sorted(range(len(sums)), key=lambda i: -len(sums[i].pos)):
            sw = sums[i]
            for mw, members in merged:
                s = next((s for s in sorted(range(-SLOT + 1, SLOT), key=abs) if fits(mw, sw.pos, s)), None)
                if s is not None:
                    v = _shifted(sw.val, s)
                    mw.val = (mw.val[0] | v[0], mw.val[1] | v[1])
                    for p, x in sw.pos.items():
                        mw.pos[p + s] = x
                    members.append((i, s))
                    c.add("logic", 2 * ymm)
                    c.add("shift", (2 if s else 0) * ymm)
                    break
            else:
                merged.append((Word(sw.val, dict(sw.pos)), [(i, 0)]))
        moves: dict[int, list[tuple[int, int, frozenset[int]]]] = {i: [] for i in range(len(sums))}
        for mw, members in merged:
            rec: list[tuple[int, int, frozenset[int]]] = []
            if len(mw.pos) == SLOT or not place(nxt, mw, c, ymm, H, nslots, rec):
                rec = [(len(nxt), 0, frozenset(mw.pos))]
                nxt.append(mw)
            for i, s in members:
                for dst, s2, pset in rec:
                    mine = frozenset(p for p in sums[i].pos if p + s in pset)
                    if mine:
                        moves[i].append((dst, s + s2, mine))
        level = [(wi, moves[wi]) for wi in range(len(sums))]
        hist.append(level)
        words = nxt
    return words, hist


def interpolate_plan(L: list[Pl], hist: Hist, c: Count, nslots: int, fast: bool = False,
                     merge: bool = False) -> tuple[Pl, Pl]:
    """The inverse of evaluate_plan on the products (the same words, now
    one slot per y-power): a product of 2H - 1 coefficients whose operands
    had an H-bit block at b keeps its coefficients 0 .. H-1 at b in layer L
    and H .. 2H-2 at b in layer U.  The parent of the children P0, P2 (the
    low and high halves of block b of word W) and P1 (where the evaluation
    moved their sum) is P0 + x^H (P1 - P0 - P2) + x^2H P2, that is
    L = P0L | (P0U + DL) << H and U = (DU + P2L) | P2U << H at b, with
    D = P1 - P0 - P2 after P1 is shifted back; every move of the evaluation
    is one batch of these operations on all its blocks.  Returns word 0's
    layers: coefficients 0 .. 31 and 32 .. 62 of every slot.

    fast (amd64-avx512bs, symbols only, not counted): the sums on whole
    words, one mask per result.  With X = L[wi], Y = U[wi] (P0 in the low
    half of each block, P2 in the high half) and Z, W = L[dst], U[dst]
    shifted back, the additions commute with the masks, so
    A = (Z - X + Y - (X >> H)) & M is P1L - P0L - P2L + P0U and
    B = (W - Y - (Y >> H) + (X >> H)) & M is P1U - P0U - P2U + P2L:
    L = (X & M) | A << H and U = B | (Y & M << H), 4 masks instead of 12.

    merge (with fast; amd64-avx2bs): the moves of one word are combined
    before the sums (Z and W: the or of each move's P1 shifted back and
    masked, M their union: the moves' positions are disjoint), so the sums
    and masks are taken once per word, not once per move (the first level
    has words of 5 and 7 moves); and the two sums share D = Y - (X >> H):
    A = Z - X + D, B = W - (Y >> H) - D (5 additions instead of 6)."""
    ymm = -(-nslots // 8)
    U: list[Pl] = [(0, 0)] * len(L)
    u_empty = True
    for k in range(LEVELS - 1, -1, -1):
        H = (R >> k) // 2
        nL: list[Pl] = []
        nU: list[Pl] = []
        for wi, rec in hist[k]:
            accL: Pl = (0, 0)
            accU: Pl = (0, 0)
            if fast and merge:
                ln, un = _merged_move(L, U, wi, rec, H, nslots, u_empty)
                nL.append(ln)
                nU.append(un)
                continue
            for n, (dst, s, pset) in enumerate(rec):
                Mp = rep(sum(1 << p for p in pset), nslots)
                if fast:
                    X, Z = L[wi], _shifted(L[dst], -s)
                    Xs = _shifted(X, -H)
                    if u_empty:
                        A = add3(add3(Z, neg3(X)), neg3(Xs))
                        un = (Xs[0] & Mp, Xs[1] & Mp)
                    else:
                        Y, W = U[wi], _shifted(U[dst], -s)
                        Ys = _shifted(Y, -H)
                        MpH = rep(sum(1 << (p + H) for p in pset), nslots)
                        A = add3(add3(Z, neg3(X)), add3(Y, neg3(Xs)))
                        B = add3(add3(W, neg3(Y)), add3(Xs, neg3(Ys)))
                        un = ((B[0] & Mp) | (Y[0] & MpH), (B[1] & Mp) | (Y[1] & MpH))
                    ln = ((X[0] & Mp) | ((A[0] & Mp) << H), (X[1] & Mp) | ((A[1] & Mp) << H))
                    accL = (accL[0] | ln[0], accL[1] | ln[1])
                    accU = (accU[0] | un[0], accU[1] | un[1])
                    continue
                lay = 1 if u_empty else 2
                c.add("logic", 2 * lay * ymm)
                c.add("shift", (2 * lay if s else 0) * ymm)
                P1L = tuple(v & Mp for v in _shifted(L[dst], -s))
                P1U = tuple(v & Mp for v in _shifted(U[dst], -s))
                P0L = tuple(v & Mp for v in L[wi])
                P2L = tuple((v >> H) & Mp for v in L[wi])
                P0U = tuple(v & Mp for v in U[wi])
                P2U = tuple((v >> H) & Mp for v in U[wi])
                c.add("logic", 2 * 2 * lay * ymm)
                c.add("shift", 2 * lay * ymm)
                cc = Count()
                DL = add3(add3(P1L, neg3(P0L), cc), neg3(P2L), cc)
                if u_empty:
                    lo = P0L
                    mid = DL
                    hi = P2L
                    top: Pl = (0, 0)
                else:
                    DU = add3(add3(P1U, neg3(P0U), cc), neg3(P2U), cc)
                    lo = P0L
                    mid = add3(P0U, DL, cc)
                    hi = add3(DU, P2L, cc)
                    top = P2U
                c.add("logic", cc.total() * ymm)
                ln = (lo[0] | (mid[0] << H), lo[1] | (mid[1] << H))
                un = (hi[0] | (top[0] << H), hi[1] | (top[1] << H))
                c.add("shift", (2 if u_empty else 4) * ymm)
                c.add("logic", (2 if u_empty else 4) * ymm)
                if n:
                    c.add("logic", 4 * ymm)
                accL = (accL[0] | ln[0], accL[1] | ln[1])
                accU = (accU[0] | un[0], accU[1] | un[1])
            nL.append(accL)
            nU.append(accU)
        L, U = nL, nU
        u_empty = False
    assert len(L) == 1
    return L[0], U[0]


def _merged_move(L: list[Pl], U: list[Pl], wi: int, rec: list[tuple[int, int, frozenset[int]]],
                 H: int, nslots: int, u_empty: bool) -> tuple[Pl, Pl]:
    """interpolate_plan's fast form for all moves of word wi at once (merge):
    returns wi's new (L, U) words"""
    def masked(v: Pl, M: int) -> Pl:
        return (v[0] & M, v[1] & M)

    def orp(a: Pl, b: Pl) -> Pl:
        return (a[0] | b[0], a[1] | b[1])
    pos = frozenset().union(*(pset for _, _, pset in rec))
    M = rep(sum(1 << p for p in pos), nslots)
    MH = rep(sum(1 << (p + H) for p in pos), nslots)
    X = L[wi]
    Xs = _shifted(X, -H)
    if len(rec) == 1:            # one move: no mask needed before the sums
        Z = _shifted(L[rec[0][0]], -rec[0][1])
        W = _shifted(U[rec[0][0]], -rec[0][1])
    else:
        Z = W = (0, 0)
        for dst, s, pset in rec:
            Mp = rep(sum(1 << p for p in pset), nslots)
            Z = orp(Z, masked(_shifted(L[dst], -s), Mp))
            if not u_empty:
                W = orp(W, masked(_shifted(U[dst], -s), Mp))
    if u_empty:
        A = add3(add3(Z, neg3(X)), neg3(Xs))
        un = masked(Xs, M)
    else:
        Y = U[wi]
        D = add3(Y, neg3(Xs))
        A = add3(add3(Z, neg3(X)), D)
        B = add3(add3(W, neg3(_shifted(Y, -H))), neg3(D))
        un = orp(masked(B, M), masked(Y, MH))
    A = masked(A, M)
    ln = orp(masked(X, M), _shifted(A, H))
    return ln, un


# --------------------------------------------------------- the whole product
def tdigits_index(t: tuple[int, ...]) -> int:
    v = 0
    for d in t:
        v = 3 * v + d
    return v


def product(f: list[int], g: list[int], p: int, c: Count, check_interp: bool = True) -> list[int]:
    """f * g in R/3 = Z_3[x]/(x^p - x - 1) (f, g in {0,1,2}, length p) by the
    design above; c counts the operations (both operands, one product)."""
    I = -(-p // R)
    N = R * I
    f = f + [0] * (N - p)
    g = g + [0] * (N - p)
    nslots = I
    ev: list[dict[int, Pl]] = []
    layout: dict[int, tuple[int, int]] | None = None
    for src in (f, g):
        c.stage = "input"
        # input: per byte row i, planes by shifts and vpmovmskb, one word per i
        c.add("logic", 3 * I)       # b0 & b1, b0 & ~b1 (the input byte's two bits), and the shift
        c.add("shift", 2 * I)       # each plane's bit into the sign bit
        c.add("movmsk", 2 * I)
        c.add("store", 2 * I)
        vals = [pack(src[R * i:R * i + R]) for i in range(I)]
        w = Word((sum(v[0] << (STRIDE * i) for i, v in enumerate(vals)),
                  sum(v[1] << (STRIDE * i) for i, v in enumerate(vals))), {r: ((), r) for r in range(R)})
        c.stage = "evaluation"
        plan, hist = evaluate_plan([w], c, nslots)
        full = (1 << SLOT) - 1
        plans = [[Word(((x.val[0] >> (STRIDE * i)) & full, (x.val[1] >> (STRIDE * i)) & full), x.pos)
                  for x in plan] for i in range(I)]
        nw = len(plans[0])
        assert nw * SLOT >= 3 ** LEVELS
        # the 8 x 8 transpose of 32-bit elements per group of 8 slots and plane
        c.stage = "transposes"
        c.add("shuffle", 24 * (-(-I // 8)) * 2 * (-(-nw // 8)))
        lay = {}
        for wi, w in enumerate(plans[0]):
            for pp, (t, rr) in w.pos.items():
                assert rr == 0 and len(t) == LEVELS
                lay[tdigits_index(t)] = (wi, pp)
        assert len(lay) == 3 ** LEVELS
        if layout is None:
            layout = lay
        assert lay == layout
        # register of i: bit 32*word + position
        regs = {}
        for i in range(I):
            h = l = 0
            for wi, w in enumerate(plans[i]):
                h |= w.val[0] << (SLOT * wi)
                l |= w.val[1] << (SLOT * wi)
            regs[i] = (h, l)
        ev.append(regs)
        lanes = nw * SLOT
    assert lanes <= 256, f"{lanes} lanes: more than one ymm per coefficient"
    # bitsliced I x I schoolbook on all products at once
    c.stage = "base"
    A, Bv = ev
    C: dict[int, Pl] = {}
    for i in range(I):
        for j in range(I):
            prod = mul3(A[i], Bv[j], c)
            C[i + j] = add3(C[i + j], prod, c) if i + j in C else prod
    c.add("load", 2 * I * I)        # the a and b planes (memory operands)
    # back to slots (one per y-power m, groups of eight: the 8 x 8 transposes)
    M2 = 2 * I - 1
    c.stage = "transposes"
    c.add("shuffle", 24 * (-(-M2 // 8)) * 2 * (-(-nw // 8)))
    full = (1 << SLOT) - 1
    Lw: list[Pl] = []
    for wi in range(nw):
        Lw.append((sum(((C[m][0] >> (SLOT * wi)) & full) << (STRIDE * m) for m in range(M2)),
                   sum(((C[m][1] >> (SLOT * wi)) & full) << (STRIDE * m) for m in range(M2))))
    c.stage = "interpolation"
    lo, hi = interpolate_plan(Lw, hist, c, M2)
    if check_interp:            # the kernels' forms (fast: amd64-avx512bs; fast and merge: amd64-avx2bs)
        full64 = rep((1 << R) - 1, M2)
        for fm in (False, True):
            got = interpolate_plan(Lw, hist, Count(), M2, fast=True, merge=fm)
            assert tuple(v & full64 for v in got[0]) == lo and tuple(v & full64 for v in got[1]) == hi, \
                f"the fast interpolation (merge={fm}) disagrees"
    H = [[dec(lo if k < R else hi, STRIDE * m + (k % R)) for m in range(M2)] for k in range(2 * R - 1)]
    if check_interp:
        assert layout is not None
        hpoly: dict[tuple[int, ...], list[int]] = {}
        for t in _tuples(LEVELS):
            wi, pp = layout[tdigits_index(t)]
            hpoly[t] = [dec(C[m], SLOT * wi + pp) for m in range(M2)]
        assert H == _interp((), hpoly, LEVELS, M2), "the word-level interpolation disagrees with the integer one"
    # output: per y-power and layer and plane a broadcast, vpshufb, vpand,
    # vpcmpeqb (bits to bytes), a vpsubb for the value, a vpaddb for the
    # overlap; the fold (two loads, two additions, mod 3 by vpand and
    # vpshufb, a store per 32 outputs)
    c.stage = "output"
    c.add("output", M2 * 2 * 2 * 4 + M2 * 2 + M2 + 7 * -(-p // 32))
    # overlap: h[32 m + k] += H[k][m]
    h = [0] * (2 * N)
    for k in range(2 * R - 1):
        for m in range(2 * I - 1):
            h[R * m + k] = (h[R * m + k] + H[k][m]) % 3
    # fold from the top: x^j = x^(j-p+1) + x^(j-p)
    for j in range(2 * N - 1, p - 1, -1):
        v = h[j]
        if v:
            h[j - p + 1] = (h[j - p + 1] + v) % 3
            h[j - p] = (h[j - p] + v) % 3
            h[j] = 0
    return [h[j] for j in range(p)]


def _tuples(n: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    return [t + (d,) for t in _tuples(n - 1) for d in range(3)]


def _interp(pre: tuple[int, ...], hp: dict[tuple[int, ...], list[int]], n: int, ym: int) -> list[list[int]]:
    """the product (x-length 2^(n+1) - 1, each a y-polynomial of ym terms)
    of the sub-problem with t prefix pre, from its three children"""
    if n == 0:
        return [hp[pre]]
    P0 = _interp(pre + (0,), hp, n - 1, ym)
    P1 = _interp(pre + (1,), hp, n - 1, ym)
    P2 = _interp(pre + (2,), hp, n - 1, ym)
    half = 1 << (n - 1)
    out = [[0] * ym for _ in range(4 * half - 1)]
    for k in range(2 * half - 1):
        for m in range(ym):
            out[k][m] += P0[k][m]
            out[k + 2 * half][m] += P2[k][m]
            out[k + half][m] += P1[k][m] - P0[k][m] - P2[k][m]
    return [[v % 3 for v in row] for row in out]


def reference(f: list[int], g: list[int], p: int) -> list[int]:
    h = [0] * (2 * p - 1)
    for i, a in enumerate(f):
        if a:
            for j, b in enumerate(g):
                h[i + j] += a * b
    for j in range(2 * p - 2, p - 1, -1):
        h[j - p + 1] += h[j]
        h[j - p] += h[j]
        h[j] = 0
    return [v % 3 for v in h[:p]]


def counts(p: int) -> Count:
    """the operations of one product (they depend only on p)"""
    rng = random.Random(p)
    f = [rng.randrange(3) for _ in range(p)]
    g = [rng.randrange(3) for _ in range(p)]
    c = Count()
    product(f, g, p, c)
    return c


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m gen.ntruprime_bs3", description=__doc__.splitlines()[0])
    ap.add_argument("--p", action="append", type=int, help="p (default 653 761 857)")
    ap.add_argument("--trials", type=int, default=3, help="random products checked per p")
    a = ap.parse_args(argv)
    prove_formulas()
    acc_formula_check()
    for p in a.p or [653, 761, 857]:
        rng = random.Random(p)
        cases = [([rng.randrange(3) for _ in range(p)], [rng.randrange(3) for _ in range(p)]) for _ in range(a.trials)]
        cases.append(([2] * p, [2] * p))
        for j in (0, 1, p - 1):
            cases.append(([rng.randrange(3) for _ in range(p)], [1 if i == j else 0 for i in range(p)]))
        for f, g in cases:
            got = product(f, g, p, Count())
            assert got == reference(f, g, p), f"p={p}: the bitsliced model disagrees with schoolbook"
        c = counts(p)
        fp = c.total() - c.ops["load"] - c.ops["store"]
        print(f"p={p}: {len(cases)} products agree with schoolbook; vector operations {c.total()} "
              f"({fp} on the FP pipes: >= {fp // 4} cycles at four per cycle)")
        print(f"  by stage: {c.stages}")
        print(f"  by kind: {c.ops}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


# ================================================== the kernel generator (.q)
# The same plan, emitted: every Word value becomes a Sym (one ymm: 8 slots,
# or one zmm: 16 slots for amd64-avx512bs),
# so evaluate_plan and interpolate_plan above run unchanged on symbols with
# nslots = 1 (rep(m, 1) = m: the 32-bit mask of every lane) and record one
# statement per operation instead of computing.  SSA code per section
# (the bodies of the three loops of generate(), and the straight-line
# parts); the translator allocates registers and spills.
IMPL = "amd64-avx2bs"
FULL32 = (1 << SLOT) - 1


class Em:
    """the statement list (SSA: every result a fresh reg256), with common
    subexpressions merged and dead statements dropped at the end"""

    def __init__(self, V: int = 8) -> None:
        self.ins: list[tuple[str | None, str, tuple[str, ...]]] = []
        self.n = 0
        self.memo: dict[tuple, Sym] = {}
        self.consts: dict[str, tuple[str, list[int]]] = {}
        self.types: dict[str, str] = {}
        self.fuse = False            # ternary logic (vpternlogd) for add3
        self.width(V)

    def width(self, V: int) -> None:
        """the vectors of the following statements: V 32-bit slots (8: reg256,
        16: reg512)"""
        self.V, self.vt, self.mw = V, {8: "reg256", 16: "reg512"}[V], f"mem{32 * V}"

    def op(self, fmt: str, *uses: str, key: tuple | None = None) -> "Sym":
        if key is not None and key in self.memo:
            return self.memo[key]
        self.n += 1
        d = f"v{self.n}"
        self.types[d] = self.vt
        self.ins.append((d, fmt, uses))
        s = Sym(self, d)
        if key is not None:
            self.memo[key] = s
        return s

    def side(self, fmt: str, *uses: str) -> None:
        """a statement kept whatever is live (stores)"""
        self.ins.append((None, fmt, uses))

    def const(self, name: str, typ: str, vals: list[int]) -> str:
        assert self.consts.get(name, (typ, vals)) == (typ, vals)
        self.consts[name] = (typ, vals)
        return f"mem256[{name}]"

    def mask(self, m: int) -> str:
        return self.const(f"MK{m:08x}", "u32", [m] * self.V).replace("mem256", self.mw)

    def tern(self, fn, a: "Sym", b: "Sym", c: "Sym") -> "Sym":
        """fn(a, b, c) bitwise in one vpternlogd (r = ternlog(r, s, t, imm):
        the operand that dies there is chosen as r when the code is written
        out, `lines`)"""
        imm = sum((fn(x >> 2 & 1, x >> 1 & 1, x & 1) & 1) << x for x in range(8))
        return self.op(("TERN", imm), a.name, b.name, c.name, key=("tern", imm, a.name, b.name, c.name))

    def load(self, addr: str) -> "Sym":
        return self.op(f"{{d}} = {addr}")

    def store(self, addr: str, s: "Sym | int") -> None:
        if isinstance(s, int):
            assert s == 0
            s = self.zero()
        self.side(f"{addr} = {{0}}", s.name)

    def raw(self, line: str) -> None:
        """a statement written as is and always kept (labels, branches,
        scalar loop control, the base's register-carried accumulators)"""
        self.ins.append((None, line.replace("{", "{{").replace("}", "}}"), ()))

    def reset(self) -> None:
        """a new section (a loop body, or code after one): no value of the
        previous one is reused, so none stays live across a loop"""
        self.memo.clear()

    def zero(self) -> "Sym":
        return self.op("{d} = 0", key=("zero", self.vt))

    def _live(self, ins: list) -> tuple[list[bool], dict[int, tuple[int, ...]]]:
        """the statements kept (the live ones) and, per kept ternary-logic
        statement, its operands in the order to write them: one whose value
        dies there first (the destroyed operand of vpternlogd)"""
        live: set[str] = set()
        keep: list[bool] = [False] * len(ins)
        order: dict[int, tuple[int, ...]] = {}
        for k in range(len(ins) - 1, -1, -1):
            d, fmt, uses = ins[k]
            if d is None or d in live:
                keep[k] = True
                if isinstance(fmt, tuple):
                    regs = [n for n in range(len(uses)) if not uses[n].startswith("@")]
                    dying = [n for n in regs if uses[n] not in live]
                    first = dying[0] if dying else regs[0]
                    order[k] = (first,) + tuple(n for n in range(len(uses)) if n != first)
                live.update(uses)
        return keep, order

    @staticmethod
    def _compose(uk: tuple, ttk: int, pos: int, uj: tuple, ttj: int) -> tuple[tuple, int] | None:
        """statement k's logic function with its operand pos replaced by
        statement j's (truth tables: operand 0 is the most significant
        index bit, as vpternlogd's a); None if more than 3 operands result"""
        new: list[str] = []
        for v in uk[:pos] + uk[pos + 1:] + uj:
            if v not in new:
                new.append(v)
        if len(new) > 3:
            return None
        n, tt = len(new), 0
        for x in range(1 << n):
            val = {v: x >> (n - 1 - i) & 1 for i, v in enumerate(new)}
            bj = ttj >> sum(val[v] << (len(uj) - 1 - i) for i, v in enumerate(uj)) & 1
            vk = [bj if i == pos else val[v] for i, v in enumerate(uk)]
            tt |= (ttk >> sum(b << (len(uk) - 1 - i) for i, b in enumerate(vk)) & 1) << x
        return tuple(new), tt

    def lines(self) -> tuple[list[str], list[str]]:
        """(the live statements, the vector names they use).  With ternary
        logic (AVX-512), a logic statement whose value has one use is merged
        into that use while the merged function has at most three operands
        (one vpternlogd); a ternlog's destroyed operand is one whose value
        dies there if any (its immediate permuted to match), so the copy
        before it coalesces"""
        ins = list(self.ins)
        keep, _ = self._live(ins)
        if any(isinstance(x[1], tuple) for x in ins):
            where = {d: k for k, (d, _, _) in enumerate(ins) if d is not None}
            cnt: dict[str, int] = {}
            for k, (_, _, uses) in enumerate(ins):
                if keep[k]:
                    for u in uses:
                        cnt[u] = cnt.get(u, 0) + 1
            for k, (d, fmt, uses) in enumerate(ins):
                if not keep[k] or not isinstance(fmt, tuple):
                    continue
                changed = True
                while changed:
                    changed = False
                    for pos, u in enumerate(uses):
                        j = where.get(u)
                        if j is None or not keep[j] or not isinstance(ins[j][1], tuple) or cnt.get(u) != 1:
                            continue
                        r = self._compose(uses, fmt[1], pos, ins[j][2], ins[j][1][1])
                        if r is None or sum(v.startswith("@") for v in r[0]) > 1:
                            continue
                        for v in uses + ins[j][2]:
                            cnt[v] -= 1
                        for v in r[0]:
                            cnt[v] = cnt.get(v, 0) + 1
                        keep[j] = False
                        uses, fmt = r[0], ("TERN", r[1])
                        ins[k] = (d, fmt, uses)
                        changed = True
                        break
            ins = [x for k, x in enumerate(ins) if keep[k]]
            keep, _ = self._live(ins)
            ins = [x for k, x in enumerate(ins) if keep[k]]
        keep, order = self._live(ins)
        out, names = [], []
        for k, (d, fmt, uses) in enumerate(ins):
            if keep[k]:
                if isinstance(fmt, tuple):
                    tt, n = fmt[1], len(uses)
                    ops = {8: "&", 14: "|", 6: "^"}
                    mems = [u for u in uses if u.startswith("@")]
                    if n == 2 and tt in ops and (not mems or (tt == 8 and not uses[0].startswith("@"))):
                        out.append(f"{d} = {uses[0]} {ops[tt]} {uses[1].lstrip('@')}")
                        names.append(d)
                        continue
                    perm = order[k]
                    # the function of the operands in the written order (3, repeating the
                    # last register; a memory operand, at most one, last)
                    wr = [uses[i] for i in perm if not uses[i].startswith("@")]
                    wr += [wr[-1]] * (3 - n)
                    wr += mems
                    nimm = 0
                    for x in range(8):
                        v = {}
                        for pos in range(3):
                            v[wr[pos]] = x >> (2 - pos) & 1
                        if any(v[wr[pos]] != x >> (2 - pos) & 1 for pos in range(3)):
                            continue            # a repeated operand with two values: never occurs
                        nimm |= (tt >> sum(v[u] << (n - 1 - i) for i, u in enumerate(uses)) & 1) << x
                    a, b, c = wr
                    out += [f"{d} = {a}", f"{d} = ternlog({d}, {b}, {c.lstrip('@')}, {nimm})"]
                else:
                    out.append(fmt.format(*uses, d=d))
                if d is not None:
                    names.append(d)
        return out, names


class Sym:
    """one ymm of Word values (8 slots of 32 bits); combines with ints as
    the model's Python integers do (0 is the zero word, an int operand of &
    is a mask repeated in every 32-bit lane)"""

    def __init__(self, em: Em, name: str) -> None:
        self.em, self.name = em, name

    def _bin(self, o: "Sym | int", sym: str) -> "Sym | int":
        if isinstance(o, int):
            m = o & FULL32
            if sym == "&":
                if m == 0:
                    return 0
                if m == FULL32:
                    return self
                if self.em.fuse:       # the mask a memory operand, merged into vpternlogd by Em.lines
                    return self.em.op(("TERN", 8), self.name, "@" + self.em.mask(m), key=("&m", self.name, m))
                return self.em.op(f"{{d}} = {{0}} & {self.em.mask(m)}", self.name, key=("&m", self.name, m))
            assert m == 0, "or/xor with a nonzero integer"
            return self
        a, b = sorted((self.name, o.name))
        if self.em.fuse:               # a truth table (ternary logic): merged by Em.lines
            return self.em.op(("TERN", {"&": 8, "|": 14, "^": 6}[sym]), a, b, key=(sym, a, b))
        return self.em.op(f"{{d}} = {{0}} {sym} {{1}}", a, b, key=(sym, a, b))

    def __and__(self, o): return self._bin(o, "&")
    __rand__ = __and__
    def __or__(self, o): return self._bin(o, "|")
    __ror__ = __or__
    def __xor__(self, o): return self._bin(o, "^")
    __rxor__ = __xor__

    def __rshift__(self, s: int) -> "Sym":
        if s == 0:
            return self
        assert 0 < s < SLOT
        return self.em.op(f"{self.em.V}x {{d}} = {{0}} >> {s}", self.name, key=(">>", self.name, s))

    def __lshift__(self, s: int) -> "Sym":
        if s == 0:
            return self
        assert 0 < s < SLOT
        return self.em.op(f"{self.em.V}x {{d}} = {{0}} << {s}", self.name, key=("<<", self.name, s))


def transpose8(em: Em, rows: list["Sym | int"]) -> list[Sym]:
    """8 x 8 transpose of 32-bit elements: out[j] lane i = rows[i] lane j
    (unpack 32, unpack 64, permute128: 24 shuffles)"""
    r = [x if isinstance(x, Sym) else em.zero() for x in rows]

    def f(fn: str, a: Sym, b: Sym, imm: int | None = None) -> Sym:
        arg = f", {imm}" if imm is not None else ""
        return em.op(f"{{d}} = {fn}({{0}}, {{1}}{arg})", a.name, b.name)
    t = []
    for k in range(0, 8, 2):
        t += [f("unpacklo32", r[k], r[k + 1]), f("unpackhi32", r[k], r[k + 1])]
    u = []
    for k in (0, 4):
        t0, t1, t2, t3 = t[k:k + 4]
        u += [f("unpacklo64", t0, t2), f("unpackhi64", t0, t2), f("unpacklo64", t1, t3), f("unpackhi64", t1, t3)]
    out: list[Sym] = [None] * 8  # type: ignore[list-item]
    for j in range(4):
        out[j] = f("permute128", u[j], u[4 + j], 0x20)
        out[j + 4] = f("permute128", u[j], u[4 + j], 0x31)
    return out


def sigma(s: int) -> int:
    """AVX-512: the value of i (or y-power) held by slot s of a group of 16
    (`transpose16`: the pairs (2k, 2k + 1) leave it as one zmm, k = 0 .. 7)"""
    return (s // 8) * 8 + 2 * (s % 4) + (s % 8) // 4


def _inlane4x4(em: Em, r: list[Sym]) -> list[Sym]:
    """4 x 4 transposes of 32-bit elements in every 128-bit lane of 4 rows
    (out[j] lane L = element j of lane L of r[0..3]; its own inverse)"""
    def f(fn: str, a: Sym, b: Sym) -> Sym:
        return em.op(f"{{d}} = {fn}({{0}}, {{1}})", a.name, b.name)
    t = [f("unpacklo32", r[0], r[1]), f("unpackhi32", r[0], r[1]),
         f("unpacklo32", r[2], r[3]), f("unpackhi32", r[2], r[3])]
    return [f("unpacklo64", t[0], t[2]), f("unpackhi64", t[0], t[2]),
            f("unpacklo64", t[1], t[3]), f("unpackhi64", t[1], t[3])]


def _sh128(em: Em, a: Sym, b: Sym, imm: int) -> Sym:
    return em.op(f"{{d}} = shuffle128({{0}}, {{1}}, {imm})", a.name, b.name)


def transpose16(em: Em, rows: list["Sym | int"]) -> list[Sym]:
    """AVX-512: 8 rows of 16 slots (row w = word w of every slot) to 8 zmm,
    out[k] = the 8 words of slot sigma^-1(2k), then of slot sigma^-1(2k + 1),
    so out[k] is the pair (2k, 2k + 1) of a flat array of 256-bit entries
    (16 unpacks and 16 vshufi32x4)"""
    r = [x if isinstance(x, Sym) else em.zero() for x in rows]
    u = _inlane4x4(em, r[:4]) + _inlane4x4(em, r[4:])
    out: list[Sym] = [None] * 8  # type: ignore[list-item]
    for j in range(4):
        # u[j] lane L: words 0-3 of slot 4L + j; u[4 + j]: words 4-7
        x = _sh128(em, u[j], u[4 + j], 0x44)     # slots j, 4 + j (low words, high words)
        x2 = _sh128(em, u[j], u[4 + j], 0xEE)    # slots 8 + j, 12 + j
        out[j] = _sh128(em, x, x, 0xD8)
        out[4 + j] = _sh128(em, x2, x2, 0xD8)
    return out


def untranspose16(em: Em, rows: list[Sym]) -> list[Sym]:
    """the inverse of transpose16: 8 zmm pairs (2k, 2k + 1) of a flat array
    to 8 rows of 16 slots, slot s holding entry sigma(s)"""
    u: list[Sym] = [None] * 8  # type: ignore[list-item]
    for j in range(4):
        x = _sh128(em, rows[j], rows[j], 0xD8)
        x2 = _sh128(em, rows[4 + j], rows[4 + j], 0xD8)
        u[j] = _sh128(em, x, x2, 0x44)
        u[4 + j] = _sh128(em, x, x2, 0xEE)
    return _inlane4x4(em, u[:4]) + _inlane4x4(em, u[4:])


def mul3_mem(em: Em, a: Pl, bh: str, bl: str) -> Pl:
    """a * b, b's planes memory operands (6 operations)"""
    def andm(x: Sym, m: str) -> Sym:
        return em.op(f"{{d}} = {{0}} & {m}", x.name)
    return (andm(a[0], bl) | andm(a[1], bh), andm(a[0], bh) | andm(a[1], bl))


# the implementations: slots (32-bit lanes) per vector of the evaluation,
# base and interpolation (8: ymm, AVX2; 16: zmm, AVX-512 with vpternlogd)
ISAS = {"amd64-avx2bs": 8, "amd64-avx512bs": 16}


def qpath(impl: str, params: dict[str, str]) -> str:
    assert impl in ISAS and params.get("fn") == "mult3"
    return f"specs/ntruprime/generated/ntruprime_mult3_{impl.replace('-', '_')}_{int(params['p'])}.q"


def symbol(p: int, impl: str = IMPL) -> str:
    return f"qhasm_kernel_core_mult3sntrup{p}_{impl.replace('-', '_')}_mul"


class Layout:
    def __init__(self, align: int = 32) -> None:
        self.off: dict[str, int] = {}
        self.size = 0
        self.align = align

    def add(self, name: str, n: int) -> int:
        self.off[name] = self.size
        self.size += -(-n // self.align) * self.align
        return self.off[name]


def base_zmm(em: Em, I: int, NB: int, BK: int, lay: Layout, evg: int) -> None:
    """AVX-512: the bitsliced I x I schoolbook on zmm.  Blocks of BK
    y-powers mb .. mb + BK - 1; accumulator jj holds the pair (mb + 2jj,
    mb + 2jj + 1) of C's flat array; per i = max(0, mb - I + 1) .. min(I - 1,
    mb + BK - 1) the entry a_i broadcast to both halves (vbroadcasti64x4) and b
    read as the pair (b_j, b_j+1), j = mb + 2jj - i (32-byte aligned; zeros
    for j outside 0 .. I - 1: 8 zero entries either side of g's).  The
    accumulators are (nonzero, sign) pairs as in the AVX2 base: the first
    i of a block sets them to the product (a_nz & b_nz, a_s ^ b_s: 2
    operations); every other i adds it in 5 (the product's two, three
    vpternlogd; below), no copy.  The i after the first go in pairs (one loop iteration): the
    count is made odd by one more i, whose a_i (i = I) or b_j (j < 0) is
    zero."""
    tern = lambda fn: sum((fn(x >> 2 & 1, x >> 1 & 1, x & 1) & 1) << x for x in range(8))  # noqa: E731
    X3 = tern(lambda a, b, c: a ^ b ^ c)            # u = e ^ s1 ^ n1
    SN = tern(lambda a, b, c: a ^ (b & c))          # s' = s1 ^ (u & n2)
    NN = tern(lambda a, b, c: (b & c) | (a ^ c))    # n' = (u & n2) | (n1 ^ n2)
    acc = [(f"acc{jj}n", f"acc{jj}s") for jj in range(BK // 2)]
    e0, e1 = lay.off["EV0"], lay.off["EV1"]
    em.raw("mb = 0")
    em.raw("pc = w")
    em.raw("bloop:")
    em.raw("i0 = mb")
    em.raw(f"i0 -= {I - 1}")
    em.raw("t0 = 0")
    em.raw("signed<? i0 - 0")
    em.raw("i0 = t0 if signed<")
    em.raw(f"i1 = mb + {BK - 1}")
    em.raw(f"t0 = {I - 1}")
    em.raw(f"signed>? i1 - {I - 1}")
    em.raw("i1 = t0 if signed>")
    em.raw("cnt = i1 - i0")
    em.raw("cnt += 1")
    em.raw("cnt |= 1")             # odd: an extra i = i1 + 1 reads a zero a_i (i = I) or zero b_j (j < -1)
    em.raw("pb = mb - i0")
    em.raw("pb <<= 5")
    em.raw("pb += w")
    em.raw("pa = i0")
    em.raw("pa <<= 5")
    em.raw("pa += w")

    def mac(first: bool, o: int = 0) -> None:
        """one i (a at pa + o, b at pb - o): the first sets the
        accumulators, the others add the products"""
        em.raw(f"2x anz = mem256[pa + {e0 + o}]")
        em.raw(f"2x as = mem256[pa + {e1 + o}]")
        for jj, (n, s) in enumerate(acc):
            bnz, bs = f"mem512[pb + {e0 + evg + 64 * jj - o}]", f"mem512[pb + {e1 + evg + 64 * jj - o}]"
            # (nonzero, sign) accumulators, the sign arbitrary where nonzero
            # is 0 (as the AVX2 base, `acc_formula_check`): n2 = a_nz & b_nz,
            # e = a_s ^ b_s; u = e ^ s1 ^ n1, s' = s1 ^ (u & n2), n' = (u &
            # n2) | (n1 ^ n2): 5 operations, no copy
            if first:
                em.raw(f"{n} = anz & {bnz}")
                em.raw(f"{s} = as ^ {bs}")
                continue
            em.raw(f"m0 = anz & {bnz}")
            em.raw(f"m1 = as ^ {bs}")
            em.raw(f"m1 = ternlog(m1, {s}, {n}, {X3})")
            em.raw(f"{s} = ternlog({s}, m1, m0, {SN})")
            em.raw(f"{n} = ternlog({n}, m1, m0, {NN})")
    mac(True)
    em.raw("pa += 32")
    em.raw("pb -= 32")
    em.raw("cnt >>= 1")            # pairs of i after the first
    em.raw("=? cnt - 0")
    em.raw("goto mdone if =")
    em.raw("mloop:")
    mac(False)
    mac(False, 32)
    em.raw("pa += 64")
    em.raw("pb -= 64")
    em.raw("=? cnt -= 1")
    em.raw("goto mloop if !=")
    em.raw("mdone:")
    for jj, (n, s) in enumerate(acc):          # C as (h, l) = (n & s, n ^ h)
        em.raw(f"m1 = {n} & {s}")
        em.raw(f"m0 = {n} ^ m1")
        em.raw(f"mem512[pc + {lay.off['C0'] + 64 * jj}] = m1")
        em.raw(f"mem512[pc + {lay.off['C1'] + 64 * jj}] = m0")
    em.raw(f"pc += {32 * BK}")
    em.raw(f"mb += {BK}")
    em.raw(f"unsigned<? mb - {BK * NB}")
    em.raw("goto bloop if unsigned<")


YACC = [(f"acc{jj}n", f"acc{jj}s") for jj in range(4)]     # the AVX2 base's accumulators (nonzero, sign)


def _ymm_load_a(em: Em, addr: str) -> None:
    em.raw(f"anz = mem256[{addr}]")
    em.raw(f"as = mem256[{addr} + 32]")


def _ymm_mac(em: Em, jj: int, baddr: str, first: bool) -> None:
    """accumulator jj plus (or, first, set to) the product of the a entry
    in (anz, as) and the b entry at baddr.  The accumulators are (nonzero,
    sign) pairs whose sign is arbitrary where nonzero is 0, as is the
    product's: (n2, s2) = (a_nz b_nz, a_s ^ b_s), 2 operations.  The sum
    (n1, s1) + (n2, s2) is w = n2 (s1 ^ s2 ^ n1), s' = s1 ^ w, n' = w | (n1
    ^ n2): 6 operations (8 per multiply-accumulate; 11 with (h, l)
    accumulators; `acc_formula_check`)"""
    n, s = YACC[jj]
    if first:
        em.raw(f"{n} = anz & mem256[{baddr}]")
        em.raw(f"{s} = as ^ mem256[{baddr} + 32]")
        return
    em.raw(f"m0 = anz & mem256[{baddr}]")
    em.raw(f"m1 = as ^ mem256[{baddr} + 32]")
    em.raw(f"m1 ^= {s}")
    em.raw(f"m1 ^= {n}")
    em.raw("m1 &= m0")
    em.raw(f"{s} ^= m1")
    em.raw(f"{n} ^= m0")
    em.raw(f"{n} |= m1")


def _ymm_store_c(em: Em, coff: int) -> None:
    """the block's accumulators to C as (h, l) = (n s, n ^ h), pc += 256"""
    for jj, (n, s) in enumerate(YACC):
        em.raw(f"m1 = {n} & {s}")
        em.raw(f"m0 = {n} ^ m1")
        em.raw(f"mem256[pc + {coff + 64 * jj}] = m1")
        em.raw(f"mem256[pc + {coff + 64 * jj + 32}] = m0")
    em.raw("pc += 256")


def _ymm_block_loop(em: Em, tag: str, start: int, end: int, body) -> None:
    """the blocks mb = start, start + 4, .. < end, each by body()"""
    em.raw(f"mb = {start}")
    em.raw(f"{tag}:")
    body()
    em.raw("mb += 4")
    em.raw(f"unsigned<? mb - {end}")
    em.raw(f"goto {tag} if unsigned<")


def base_ymm(em: Em, I: int, NB: int, coff: int, evf: int, evg: int) -> None:
    """AVX2: the bitsliced I x I schoolbook (243 products at once), blocks
    of 4 y-powers mb .. mb + 3 (8 accumulators in registers).  Entry i of
    a (f's) is at w + evf + 64 i, entry j of b (g's) at w + evg + 64 j.
    Every (i, j) is known when the kernel is generated, so the blocks are
    of three kinds, each a loop over its blocks:

    - low blocks (mb <= I - 4): i = mb + 3 .. mb + 1 only reach the
      accumulators jj >= i - mb (b_0 .. b_2: a triangle, straight-line),
      i = mb sets accumulator 0, then i = mb - 1 .. 0 (mb steps, a loop)
      reach all four;
    - high blocks (I - 1 <= mb <= 2 I - 5): the triangle at i0 = mb - I +
      1 .. i0 + 3 (jj <= i - i0; b_(I-4) .. b_(I-1)), then i = i0 + 4 ..
      I - 1 (2 I - 5 - mb steps);
    - the others (at most one between, and the last): every i of
      max(0, mb - I + 1) .. min(I - 1, mb + 3) on all four accumulators,
      the first i setting them; the b_j outside 0 .. I - 1 that the
      corners reach read the zero entries around g's.

    p = 761: 582 multiply-accumulates (576 useful) instead of 648 when
    every block was of the third kind."""
    em.raw("pc = w")

    def mac_loop(tag: str, pa_step: str, pb_step: str) -> None:
        """cnt iterations: a_i at pa, the four b at pb, both stepped by 64
        bytes in opposite directions, into the four accumulators"""
        em.raw(f"{tag}loop:")
        em.raw(f"pa {pa_step} 64")
        em.raw(f"pb {pb_step} 64")
        _ymm_load_a(em, f"pa + {evf}")
        for jj in range(4):
            _ymm_mac(em, jj, f"pb + {evg + 64 * jj}", False)
        em.raw("=? cnt -= 1")
        em.raw(f"goto {tag}loop if !=")
        em.raw(f"{tag}done:")

    def low() -> None:
        em.raw("pa = mb")
        em.raw("pa <<= 6")
        em.raw("pa += w")
        for k in (3, 2, 1, 0):          # i = mb + k: jj = k .. 3, b_(jj - k)
            _ymm_load_a(em, f"pa + {evf + 64 * k}")
            for jj in range(k, 4):
                _ymm_mac(em, jj, f"w + {evg + 64 * (jj - k)}", jj == k)
        em.raw("cnt = mb")
        em.raw("=? cnt - 0")
        em.raw("goto lowdone if =")
        em.raw("pb = w")
        mac_loop("low", "-=", "+=")     # i = mb - 1 .. 0: b_(mb + jj - i), from b_(1 + jj)
        _ymm_store_c(em, coff)

    def high() -> None:
        em.raw("pa = mb")
        em.raw(f"pa -= {I - 1}")
        em.raw("pa <<= 6")
        em.raw("pa += w")               # a_i0, i0 = mb - I + 1
        for k in range(4):              # i = i0 + k: jj = 0 .. k, b_(I - 1 + jj - k)
            _ymm_load_a(em, f"pa + {evf + 64 * k}")
            for jj in range(k + 1):
                _ymm_mac(em, jj, f"w + {evg + 64 * (I - 1 + jj - k)}", jj == k)
        em.raw(f"cnt = {2 * I - 5}")
        em.raw("cnt -= mb")
        em.raw("=? cnt - 0")
        em.raw("goto highdone if =")
        em.raw(f"pb = w + {64 * (I - 4)}")
        em.raw("pa += 192")
        mac_loop("high", "+=", "-=")    # i = i0 + 4 .. I - 1: b_(mb + jj - i), from b_(I - 5 + jj)
        _ymm_store_c(em, coff)

    def anyblock(tag: str):
        def body() -> None:
            em.raw("i0 = mb")
            em.raw(f"i0 -= {I - 1}")
            em.raw("t0 = 0")
            em.raw("signed<? i0 - 0")
            em.raw("i0 = t0 if signed<")
            em.raw("i1 = mb + 3")
            em.raw(f"t0 = {I - 1}")
            em.raw(f"signed>? i1 - {I - 1}")
            em.raw("i1 = t0 if signed>")
            em.raw("cnt = i1 - i0")
            em.raw("pb = mb - i0")
            em.raw("pb <<= 6")
            em.raw("pb += w")
            em.raw("pa = i0")
            em.raw("pa <<= 6")
            em.raw("pa += w")
            _ymm_load_a(em, f"pa + {evf}")
            for jj in range(4):
                _ymm_mac(em, jj, f"pb + {evg + 64 * jj}", True)
            em.raw("=? cnt - 0")
            em.raw(f"goto {tag}done if =")
            em.raw(f"{tag}loop:")
            em.raw("pa += 64")
            em.raw("pb -= 64")
            _ymm_load_a(em, f"pa + {evf}")
            for jj in range(4):
                _ymm_mac(em, jj, f"pb + {evg + 64 * jj}", False)
            em.raw("=? cnt -= 1")
            em.raw(f"goto {tag}loop if !=")
            em.raw(f"{tag}done:")
            _ymm_store_c(em, coff)
        return body

    kinds = []                          # (kind, mb) in order
    for mb in range(0, 4 * NB, 4):
        kinds.append("low" if mb <= I - 4 else "high" if I - 1 <= mb <= 2 * I - 5 else "any")
    runs: list[tuple[str, int, int]] = []
    for bi, kd in enumerate(kinds):
        if runs and runs[-1][0] == kd:
            runs[-1] = (kd, runs[-1][1], 4 * bi + 4)
        else:
            runs.append((kd, 4 * bi, 4 * bi + 4))
    for ri, (kd, start, end) in enumerate(runs):
        body = low if kd == "low" else high if kd == "high" else anyblock(f"any{ri}")
        if kd != "any":
            assert sum(1 for k in kinds if k == kd) == (end - start) // 4, "one run of each regular kind"
        _ymm_block_loop(em, f"blocks{ri}", start, end, body)


def generate(p: int, impl: str = IMPL) -> str:
    """The kernel for p: scalar input code, then three loops with one body
    each (the evaluation per group of 8 values of i and operand, the base
    product per block of 4 y-powers with an inner loop over i, the
    interpolation per group of 8 y-powers), then the fold and the output
    straight-line.  The loops keep the code small (Zen 3's L1 instruction
    cache is 32 KB; the straight-line kernel was 110 KB for p = 761 and ran
    at twice its bound); every loop count and address is public.

    amd64-avx512bs (V = 16 slots, zmm): the same plan on 16 slots per
    vector; entries are flat arrays of 256-bit values per plane (transpose16
    leaves the pairs (2k, 2k + 1) in one zmm, so the input puts i in slot
    sigma^-1(i)); the base's accumulators hold the pairs (m, m + 1) of
    y-powers (blocks of 8), a_i is broadcast to both halves, b read as the
    pair (b_j, b_j+1); add3 and the products use vpternlogd; the output of
    the interpolation is put back in order by one vpermt2d per plane."""
    V = ISAS[impl]
    Z = V == 16
    I = -(-p // R)
    G = -(-I // V)                 # groups of V slots (values of i)
    M2 = 2 * I - 1                 # y-powers of the product
    GM = -(-M2 // V)
    BK = 4                         # y-powers per block of the base (2 zmm accumulator pairs on AVX-512)
    NB = -(-M2 // BK)              # blocks of BK y-powers of the base
    NP = -(-2 * I // 8)            # 256-bit chunks of the product's planes
    NO = -(-I // 8)                # 256-bit chunks of the folded planes
    PAD = 3                        # zero b entries either side of EVg (a block's j = m - i spans i's range + 3)
    em = Em(V)
    em.fuse = Z
    lay = Layout(64 if Z else 32)
    mw = em.mw
    for pl in "hl":
        lay.add(f"IN{pl}", 4 * V * 2 * G)     # f's groups, then g's
    # EV: f's 8G entries (64 bytes: the h and l ymm of one i), a gap of 8
    # entries, g's 8G entries, 8 more: the evaluation loop's destination
    # advances by one group (512 bytes) per group and skips the gap after
    # f's last group, and the base reads b at j = -PAD .. I - 1 + PAD, so
    # the gap and the tail hold zeros (b_j = 0 there)
    if not Z:
        lay.add("EV", 512 * (2 * G + 2))
        evf, evg = lay.off["EV"], lay.off["EV"] + 512 * (G + 1)
        lay.add("C", 512 * GM)               # 8 GM >= 4 NB entries
    else:
        # per plane (0: nz, 1: s) a flat array of 32-byte entries: f's 16G,
        # a gap of 8 (zeros), g's 16G, 8 more (zeros): the base reads b at
        # j = -7 .. I + 6; C: 16 GM entries per plane
        for k in (0, 1):
            lay.add(f"EV{k}", 32 * (32 * G + 16))
            lay.add(f"C{k}", 32 * V * GM)
        evf, evg = 0, 32 * (16 * G + 8)
    for pl in "hl":
        lay.add(f"LO{pl}", 4 * V * GM)
        lay.add(f"HI{pl}", 4 * V * GM + 4 * V)
        lay.add(f"P{pl}", 32 * NP + 64)
        lay.add(f"F{pl}", 32 * NO)
    lay.add("OB", 32 * -(-p // 32))
    at = lambda name, off=0: f"mem256[w + {lay.off[name] + off}]"  # noqa: E731
    sc: list[str] = []             # the scalar input code (before the vector body)

    # -- input: byte row i (lane r = coefficient 32 i + r) to the plane
    # words: bit 0 of the byte to the sign bit (<< 7), bit 1 (<< 6);
    # h = b0 & b1 (3 -> -1 = 2 in GF(3)), l = b0 & ~b1 (1 -> +1)
    for oi, ptr in enumerate(("in", "k")):
        for i in range(G * V):
            dw = 4 * (V * G * oi + i)
            if Z:                      # slot sigma^-1(i) of its group
                il = i % V
                dw = 4 * (V * G * oi + i - il + (il // 8) * 8 + (il % 2) * 4 + (il % 8) // 2)
            if i >= I:
                for pl in "hl":
                    sc.append(f"mem32[w + {lay.off[f'IN{pl}'] + dw}] = 0")
                continue
            tail = 32 * i + 32 - p     # > 0: the last row is read from p - 32 and shifted down
            src = f"mem256[{ptr} + {32 * i if tail <= 0 else p - 32}]"
            sc += [f"x0 = {src}", "16x x1 = x0 << 7", "16x x2 = x0 << 6", "x3 = x1 & x2", "x1 = x1 ^ x3"]
            for pl, reg in (("h", "x3"), ("l", "x1")):
                sc.append(f"t0 = movemask8({reg})")
                if tail > 0:
                    sc.append(f"(uint32) t0 >>= {tail}")
                sc.append(f"mem32[w + {lay.off[f'IN{pl}'] + dw}] = t0")

    # -- the zeros the base reads around g's entries
    em.reset()
    if not Z:
        for j in list(range(-PAD, 0)) + list(range(8 * G, 8 * G + PAD)):
            for k in (0, 1):
                em.store(f"mem256[w + {evg + 64 * j + 32 * k}]", 0)
    else:
        for j in list(range(-8, 0, 2)) + list(range(16 * G, 16 * G + 8, 2)):
            for k in (0, 1):
                em.store(f"mem512[w + {lay.off[f'EV{k}'] + evg + 32 * j}]", 0)

    # -- evaluation loop (2G iterations: f's groups, then g's): the plan on
    # the group's two plane words, then the 8 x 8 transposes: one ymm pair
    # per i, bit 32 * word + position = evaluation point t; q walks the
    # input groups, pd the EV groups
    em.reset()
    em.raw("q = w")
    em.raw("pd = w")
    em.raw(f"cnt = {2 * G}")
    em.raw("evloop:")
    w = Word((em.load(f"{mw}[q + {lay.off['INh']}]"), em.load(f"{mw}[q + {lay.off['INl']}]")),
             {r: ((), r) for r in range(R)})
    words, hist = evaluate_plan([w], Count(), 1, fast=True)
    assert len(words) == 8
    layout = {tdigits_index(t): (wi, pp) for wi, x in enumerate(words) for pp, (t, rr) in x.pos.items()}
    assert len(layout) == 3 ** LEVELS
    # stored as (nz, s) = (h | l, h): nonzero and sign, the base's operands
    for k, plane in enumerate(([x.val[0] | x.val[1] for x in words], [x.val[0] for x in words])):
        if not Z:
            cols = transpose8(em, plane)
            for j in range(8):
                em.store(f"mem256[pd + {evf + 64 * j + 32 * k}]", cols[j])
        else:
            cols = transpose16(em, plane)
            for j in range(8):
                em.store(f"mem512[pd + {lay.off[f'EV{k}'] + 64 * j}]", cols[j])
    em.raw(f"q += {4 * V}")
    em.raw("pd += 512")
    em.raw(f"t0 = pd + {256 if Z else 512}")
    em.raw(f"=? cnt - {G + 1}")      # f's last group done: skip the gap
    em.raw("pd = t0 if =")
    em.raw("=? cnt -= 1")
    em.raw("goto evloop if !=")

    if Z:
        base_zmm(em, I, NB, BK, lay, evg)
    else:
        em.reset()
        base_ymm(em, I, NB, lay.off['C'], evf, evg)

    # -- back to slots (one per y-power) and the interpolation (the plan's
    # inverse): a loop over the GM groups of 8 y-powers; lo = x-powers
    # 0..31, hi = 32..62.  The y-powers 4 NB .. 8 GM - 1 the base did not
    # write are zeros.
    em.reset()
    if not Z:
        for m in range(4 * NB, 8 * GM):
            for k in (0, 1):
                em.store(at("C", 64 * m + 32 * k), 0)
    else:
        for m in range(BK * NB, 16 * GM, 2):
            for k in (0, 1):
                em.store(f"mem512[w + {lay.off[f'C{k}'] + 32 * m}]", 0)
    for pl in "hl":
        em.store(f"{mw}[w + {lay.off[f'HI{pl}']}]", 0)   # the dword before hi_0 (hi is stored one dword up)
    em.reset()
    em.raw("pc = w")
    em.raw("q = w")
    em.raw(f"cnt = {GM}")
    em.raw("iloop:")
    Lw: list[list] = [[None] * 8, [None] * 8]
    for k in (0, 1):
        if not Z:
            rows = [em.load(f"mem256[pc + {lay.off['C'] + 64 * jj + 32 * k}]") for jj in range(8)]
            Lw[k] = transpose8(em, rows)
        else:
            rows = [em.load(f"mem512[pc + {lay.off[f'C{k}'] + 64 * jj}]") for jj in range(8)]
            Lw[k] = untranspose16(em, rows)
    lo, hi = interpolate_plan([(Lw[0][wi], Lw[1][wi]) for wi in range(8)], hist, Count(), 1, fast=True, merge=True)
    if Z:
        # slot s holds y-power sigma(s): back in order (vpermt2d, one table twice)
        idx = em.load(f"mem512[{em.const('SIGMAINV', 'u32', [next(s for s in range(16) if sigma(s) == m) for m in range(16)])[7:-1]}]")

        def order(x: Sym) -> Sym:
            return em.op("{d} = {0}\n{d} = permute2x32({d}, {1}, {0})", x.name, idx.name)
        lo = tuple(order(x) for x in lo)
        hi = tuple(order(x) for x in hi)
    for k, pl in enumerate("hl"):
        em.store(f"{mw}[q + {lay.off[f'LO{pl}']}]", lo[k])
        em.store(f"{mw}[q + {lay.off[f'HI{pl}'] + 4}]", hi[k])
    em.raw("pc += 512")
    em.raw(f"q += {4 * V}")
    em.raw("=? cnt -= 1")
    em.raw("goto iloop if !=")

    # -- the product's planes as bit strings: word q = lo_q + hi_(q-1)
    em.reset()
    em.width(8)                    # ymm from here (straight-line, 256-bit strings)
    em.fuse = False
    for c in range(NP):
        s = add3((em.load(at("LOh", 32 * c)), em.load(at("LOl", 32 * c))),
                 (em.load(at("HIh", 32 * c)), em.load(at("HIl", 32 * c))))
        for k, pl in enumerate("hl"):
            em.store(at(f"P{pl}", 32 * c), s[k])
    for pl in "hl":
        em.store(at(f"P{pl}", 32 * NP), 0)
        em.store(at(f"P{pl}", 32 * NP + 32), 0)

    # -- the fold modulo x^p - x - 1: c = P + (P >> p) + (P >> (p - 1)),
    # the last term without its bit 0 (h_(p-1) is not folded); a shift of a
    # bit string by s bits is a load at byte s / 8 and 64-bit lane shifts
    def shifted(pl: str, s: int, c: int) -> Sym:
        o, b = lay.off[f"P{pl}"] + s // 8 + 32 * c, s % 8
        x = em.load(f"mem256[w + {o}]")
        if b == 0:
            return x
        y = em.load(f"mem256[w + {o + 1}]")
        return em.op(f"4x {{d}} = {{0}} >> {b}", x.name) | em.op(f"4x {{d}} = {{0}} << {8 - b}", y.name)

    f0 = em.const("FOLD0", "u32", [FULL32 - 1] + [FULL32] * 7)
    for c in range(NO):
        t1 = (em.load(at("Ph", 32 * c)), em.load(at("Pl", 32 * c)))
        t2 = (shifted("h", p, c), shifted("l", p, c))
        t3 = (shifted("h", p - 1, c), shifted("l", p - 1, c))
        if c == 0:
            t3 = tuple(em.op(f"{{d}} = {{0}} & {f0}", x.name) for x in t3)
        s = add3(add3(t1, t2), t3)
        for k, pl in enumerate("hl"):
            em.store(at(f"F{pl}", 32 * c), s[k])

    # -- bits to bytes: byte j of 32 = (bit j of h ? -1 : 0) - (bit j of l ? -1 : 0)
    sel = em.const("BYTESEL", "u8", [j // 8 for j in range(32)])
    bits = em.const("BYTEBIT", "u8", [1 << (j % 8) for j in range(32)])
    nout = -(-p // 32)
    for j in range(nout):
        v = []
        for pl in "hl":
            x = em.op(f"8x {{d}} = mem32[w + {lay.off[f'F{pl}'] + 4 * j}]")
            x = em.op(f"{{d}} = shufbytes({{0}}, {sel})", x.name)
            x = em.op(f"{{d}} = {{0}} & {bits}", x.name)
            v.append(em.op(f"{{d}} = cmpeq8({{0}}, {bits})", x.name))
        em.store(at("OB", 32 * j), em.op("32x {d} = {0} - {1}", v[0].name, v[1].name))
    body, names = em.lines()
    # the output: whole rows, the last one overlapping (written after every input was read)
    tailc: list[str] = []
    for j in range(p // 32):
        tailc += [f"x0 = {at('OB', 32 * j)}", f"mem256[out + {32 * j}] = x0"]
    if p % 32:
        tailc += [f"x0 = mem256[w + {lay.off['OB'] + p - 32}]", f"mem256[out + {p - 32}] = x0"]

    name = symbol(p, impl)
    hdr = [f"# generated by gen/ntruprime_bs3.py ({impl}, mult3, p={p}). DO NOT EDIT.",
           "# Streamlined NTRU Prime R/3 product, bitsliced GF(3): two bit planes per coefficient,",
           f"# 5 Karatsuba levels in the bit domain (243 products of {I} x {I} y-coefficients); see docs/ntruprime.md.",
           "cpu avx2 avx512f avx512vl" if Z else "cpu avx2",
           "int64 out in k c w t0 q pd pa pb pc cnt mb i0 i1"]
    accs = " ".join(f"acc{jj}n acc{jj}s" for jj in range(4))     # the base's (nonzero, sign) accumulators
    if not Z:
        hdr.append("reg256 x0 x1 x2 x3 anz as m0 m1 u v " + accs)
    else:
        hdr += ["reg256 x0 x1 x2 x3", "reg512 anz as m0 m1 " + accs]
    for vt in ("reg256", "reg512"):
        tn = [n for n in names if em.types[n] == vt]
        for k in range(0, len(tn), 32):
            hdr.append(f"{vt} " + " ".join(tn[k:k + 32]))
    for cname, (typ, vals) in em.consts.items():
        hdr.append(f"const {cname} {typ} " + " ".join(str(v) for v in vals))
    hdr += ["",
            f"# void {name}(unsigned char *out /* p */, const unsigned char *in /* p */, const unsigned char *k /* p */)",
            f"stack512 work{name}[{lay.size // 64}]" if Z else f"stack256 work{name}[{lay.size // 32}]",
            f"enter {name}",
            "input out in k",
            "secret [in] [k]",
            f"w = &work{name}"]
    return "\n".join(hdr + sc + body + tailc + ["leave"]) + "\n"


def text(impl: str, params: dict[str, str], root: str = "") -> str:
    assert impl in ISAS and params.get("fn") == "mult3"
    return generate(int(params["p"]), impl)
