/* Streamlined NTRU Prime (sntrup761; the code takes p, q, w as data, so
 * 653 and 857 are one table line each), written from the specification
 * "NTRU Prime: round 3" (2020), sections 2 (parameters, R, R/q, R/3,
 * Short), 3.2-3.4 (the Core, key generation, encapsulation with implicit
 * rejection and the confirmation hash) and 4 (the byte encodings Encode /
 * Decode, Small and Rounded).  docs/sntrup761.md.
 *
 * The products are this project's dispatched kernels (core_multsntrupP,
 * core_mult3sntrupP) for implementation "c" and the reference products
 * (csrc/ref/ntruprime_ref.c) for "ref"; SHA-512 likewise (the hash family's
 * selection, or the reference).  Everything else is the same C.
 *
 * Constant time: no branch and no memory address depends on secret data.
 * The inversions are divstep loops of a fixed count (2p-1) with masked
 * swaps; Short is sampled by sorting with a fixed network; the weight
 * check, the ciphertext comparison and the choice of the rejection key
 * are masks.  The one secret-derived branch, the retry of key generation
 * when g is not invertible in R/3, is declassified (its outcome reveals
 * nothing about the final key: the rejected g are discarded), as SUPERCOP
 * does. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")   /* the divstep loops are meant to be vectorised */
#endif
#include <string.h>
#include "kem_impl.h"
#include "hash_impl.h"
#include "ref/ref.h"
#include "ct_sort.h"

/* the divstep loops again for AVX2 (twice the
 * lanes) and for AVX-512 (x86-64-v4: 512-bit vectors; R/q's divsteps in 32
 * 16-bit lanes), picked by the CPU at load time (GNU ifunc), on x86-64 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#define VEC_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define VEC_CLONES
#endif

#define MAXP 1024
typedef int8_t small;
typedef int16_t Fq;

typedef struct {
    int p, q;
    int64_t rec46;   /* floor(2^46 / q), for fq_freeze */
    int64_t rec48;   /* round(2^48 / q), for shoup_prep */
    int w;
    int (*mult)(unsigned char *out, const unsigned char *in, const unsigned char *k);   /* R/q: in * k */
    int (*mult3)(unsigned char *out, const unsigned char *in, const unsigned char *k);  /* R/3 */
    void (*sha512)(unsigned char *out64, const unsigned char *in, unsigned long long n);
} sntrup_params;

/* sizes, from the parameters (section 4) */
typedef struct { int small_bytes, rq_bytes, rounded_bytes, pk, sk, ct; } sntrup_sizes;

/* ---- integers -------------------------------------------------------------- */
static int32_t negmask32(int32_t x) { return x >> 31; }          /* -1 if x < 0, else 0 */
static int32_t nonzero_mask(int32_t x)                           /* -1 if x != 0, else 0 */
{
    uint32_t u = (uint32_t)x | (0u - (uint32_t)x);
    return -(int32_t)(u >> 31);
}

/* x mod q in -(q-1)/2..(q-1)/2 for |x| < 2^26: the quotient rounded with a
 * 46-bit reciprocal is exact there (x/q is at least 1/(2q) > 2^-14 from a
 * half-integer, the estimate errs by less than 2^-20); masks center it */
static Fq fq_freeze(const sntrup_params *P, int32_t x)
{
    const int64_t rec = P->rec46;
    int32_t q12 = (P->q - 1) / 2;
    int64_t t = ((int64_t)x * rec + ((int64_t)1 << 45)) >> 46;
    int32_t r = x - (int32_t)t * P->q;
    r += P->q & negmask32(r + q12);
    r -= P->q & negmask32(q12 - r);
    return (Fq)r;
}

/* x mod q, centered, for |x| < 2^15 in 32-bit arithmetic (so that the
 * loops calling it vectorise): t = round(x 2^-26 floor(2^26/q)) is the
 * rounded quotient or one off it (the estimate errs by less than 1/2 +
 * 2^-11 there), and the two masked corrections of fq_freeze center the
 * remainder; needs q < 2^13 */
static Fq fq_freeze15(const sntrup_params *P, int32_t x)
{
    int32_t rec = (int32_t)(P->rec46 >> 20), q12 = (P->q - 1) / 2;
    int32_t t = (x * rec + (1 << 25)) >> 26;
    int32_t r = x - t * P->q;
    r += P->q & negmask32(r + q12);
    r -= P->q & negmask32(q12 - r);
    return (Fq)r;
}

/* x mod 3 in {-1, 0, 1} for |x| < 2^13 (10923/32768 = 1/3 + 1/98304) */
static small f3_freeze(int32_t x)
{
    int32_t t = (x * 10923 + 16384) >> 15;
    return (small)(x - 3 * t);
}

static Fq fq_pow(const sntrup_params *P, Fq a, int32_t e)   /* e public */
{
    Fq r = 1;
    int b = 30;
    while (b > 0 && !((e >> b) & 1)) b--;   /* from the top bit of the public exponent */
    for (; b >= 0; b--) {
        r = fq_freeze(P, (int32_t)r * r);
        if ((e >> b) & 1) r = fq_freeze(P, (int32_t)r * a);
    }
    return r;
}

static Fq fq_recip(const sntrup_params *P, Fq a) { return fq_pow(P, a, P->q - 2); }

/* ---- 16-bit lane arithmetic modulo q for the R/q inversion ---------------------
 * a*b mod q for a scalar b in -(q-1)/2..(q-1)/2 and a lane a: Shoup's
 * method with b' = round(b 2^16 / q), a*b - q*floor(a b' / 2^16), whose
 * exact value is small (bounds at fq_mulsub), so 16-bit lanes hold it:
 * mullo16(a, b) - mullo16(mulhi16(a, b'), q). */
static int16_t mulhi16(int16_t a, int16_t b) { return (int16_t)(((int32_t)a * b) >> 16); }
static int16_t mullo16(int16_t a, int16_t b) { return (int16_t)(uint16_t)((uint32_t)(int32_t)a * (uint32_t)(int32_t)b); }

static int16_t shoup_prep(const sntrup_params *P, int16_t b)
{
    const int64_t rec = P->rec48;   /* ~ 2^48 / q */
    return (int16_t)(((int64_t)b * rec + ((int64_t)1 << 31)) >> 32);
}

/* ---- R/q and R/3 reciprocals by divsteps ------------------------------------------
 * Section 3 asks for the reciprocal of g in R/3 (failing when there is
 * none) and of 3f in R/q.  Both use the constant-time extended GCD of
 * Bernstein and Yang on the reversed polynomials: F = x^p - x - 1 and G = g
 * as arrays of p+1 coefficients from the top degree, 2p-1 divsteps, each
 * a masked swap (when delta > 0 and g[0] != 0), the elimination
 * g = f0 g - g0 f (and the same on the cofactors, r = f0 r - g0 v), and a
 * division of g by x; v is multiplied by x first.  At the end f0 is the
 * gcd (a unit iff delta = 0), and v reversed, divided by f0, is the
 * reciprocal (times r's initial value). */
/* a f0 - b g0 mod q, not centered: for any |a|, |b| < 2^13 and f0, g0 in
 * -(q-1)/2..(q-1)/2 (f0s, g0s their shoup_prep), each Shoup product is in
 * -q/16..q(1 + 1/16) (|a f0'/2^16 - a f0/q| <= |a|/2^17 < 1/16), so the
 * difference is below 1.125q < 2^13 (q < 7281) in absolute value again:
 * the coefficients of the divsteps stay bounded without a reduction; only
 * the step's scalars (f[0], g[0]) and the result are reduced */
static int16_t fq_mulsub(int16_t a, int16_t f0, int16_t f0s, int16_t b, int16_t g0, int16_t g0s, int16_t mq)
{
    /* (a f0 - q t1) - (b g0 - q t2) with one multiplication by q: the same
     * value, computed modulo 2^16 */
    int16_t t = (int16_t)(mulhi16(a, f0s) - mulhi16(b, g0s));
    return (int16_t)(mullo16(a, f0) - mullo16(b, g0) - mullo16(t, mq));
}

/* One pass per pair and divstep, in blocks of RQB lanes (the counts are
 * rounded up: the arrays are padded with zeros, which the steps keep zero,
 * and the positions above the live ones are never read), so no scalar
 * tail.  The swap is folded into the elimination: with the scalars of the
 * unswapped pair (f0, g0), f0 g - g0 f is the swapped pair's elimination
 * times -1, and so is f0 r - g0 x v for the cofactors; scaling (g, r)
 * together by a unit changes neither delta, nor the test g0 != 0, nor the
 * final v / f0.  So g and r are computed from the loaded f, g, v, r
 * directly, and only f and v are selected (f = swap ? g : f, v = swap ?
 * r : x v).  g's division by x is fused (g[i] from f[i+1], g[i+1]); v's
 * multiplication by x moves its base pointer down (the slot below is
 * zero). */
/* RQB lanes per block: 16 (one 256-bit vector) in the portable and cloned
 * function, 32 (one 512-bit vector) in rq_recip512 below; the zero padding
 * covers the larger */
#define RQB 16
#define RQBMAX 32
#define RQPAD (MAXP + 3 * RQBMAX)
#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif

ALWAYS_INLINE int rq_recip_blocks(const sntrup_params *P, Fq *out, const Fq *in, Fq scale, const int B)
{
    int p = P->p, loop, i, j;
    int16_t f[RQPAD], g[RQPAD], vbuf[2 * MAXP + RQPAD], r[RQPAD], *v = vbuf + 2 * p;
    int16_t mq = (int16_t)P->q;
    int32_t delta = 1;
    Fq fs;
    memset(f, 0, sizeof f); memset(g, 0, sizeof g); memset(vbuf, 0, sizeof vbuf); memset(r, 0, sizeof r);
    r[0] = scale;
    f[0] = 1; f[p - 1] = -1; f[p] = -1;
    for (i = 0; i < p; i++) g[p - 1 - i] = in[i];
    for (loop = 0; loop < 2 * p - 1; loop++) {
        /* v and r have at most loop+2 coefficients; the 2p-2-loop steps
         * after this one depend on f and g modulo x^(2p-2-loop) only (a
         * divstep reads f[0], g[0] and computes g mod x^(k-1) from f, g
         * mod x^k): the second half of the steps updates fewer
         * coefficients; the ones above are never read */
        int n = ((loop + 2 < p + 1 ? loop + 2 : p + 1) + B - 1) / B * B;   /* rounded up to blocks */
        int m = ((2 * p - 2 - loop < p ? 2 * p - 2 - loop : p) + B - 1) / B * B;
        int16_t swap, f0, g0, f0s, g0s;
        v--;                                            /* v = x v (v[0] is a zero slot) */
        f0 = f[0];                                      /* kept reduced (below) */
        g0 = fq_freeze(P, g[0]);
        swap = (int16_t)(negmask32(-delta) & nonzero_mask(g0));
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        f0s = shoup_prep(P, f0); g0s = shoup_prep(P, g0);
        f[0] = (int16_t)(f0 ^ (swap & (f0 ^ g0)));
        for (i = 0; i < m; i += B)                      /* g = (f0 g - g0 f) / x, f = swap ? g : f */
            for (j = i; j < i + B; j++) {
                int16_t a = f[j + 1], b = g[j + 1];
                f[j + 1] = (int16_t)(a ^ (swap & (a ^ b)));
                g[j] = fq_mulsub(b, f0, f0s, a, g0, g0s, mq);
            }
        for (i = 0; i < n; i += B)                      /* r = f0 r - g0 v, v = swap ? r : v */
            for (j = i; j < i + B; j++) {
                int16_t a = v[j], b = r[j];
                v[j] = (int16_t)(a ^ (swap & (a ^ b)));
                r[j] = fq_mulsub(b, f0, f0s, a, g0, g0s, mq);
            }
    }
    fs = fq_recip(P, f[0]);
    for (i = 0; i < p; i++) out[i] = fq_freeze(P, (int32_t)fs * v[p - 1 - i]);
    return (int)nonzero_mask(delta);
}

VEC_CLONES static int rq_recip_vec(const sntrup_params *P, Fq *out, const Fq *in, Fq scale)
{
    return rq_recip_blocks(P, out, in, scale, RQB);
}

/* The x86-64-v4 clone of rq_recip_vec keeps gcc's preferred 256-bit
 * vectors (the divsteps were half the width the CPU has: 65% of keypair);
 * here the same code in 32-lane blocks with 512-bit vectors, chosen at run
 * time where the CPU has AVX-512BW */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
__attribute__((target("arch=x86-64-v4,prefer-vector-width=512")))
static int rq_recip512(const sntrup_params *P, Fq *out, const Fq *in, Fq scale)
{
    return rq_recip_blocks(P, out, in, scale, RQBMAX);
}
static int rq_recip(const sntrup_params *P, Fq *out, const Fq *in, Fq scale)
{
    static int have512 = -1;   /* benign race: every thread computes the same value */
    if (have512 < 0) {
        __builtin_cpu_init();
        have512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    }
    return have512 ? rq_recip512(P, out, in, scale) : rq_recip_vec(P, out, in, scale);
}
#else
#define rq_recip rq_recip_vec
#endif

/* The same in R/3, bitsliced (f0 = +-1 is its own reciprocal, so the
 * elimination is g = g - c f with c = g0 f0 in {-1, 0, 1}): a polynomial
 * of up to p+1 coefficients as two bit planes
 * (P: the coefficient is +1, M: it is -1; bit i of the planes is
 * coefficient i), 64 per word: the same divsteps as word operations.
 * F3 in this representation: c a is (aP & cP | aM & cM, aM & cP | aP & cM)
 * for c = (cP, cM) all-ones masks; -x swaps the planes; x + y is +1 where
 * (x, y) is (1, 0), (0, 1) or (-1, -1), -1 where it is (-1, 0), (0, -1) or
 * (1, 1). */
#define R3W ((MAXP + 1 + 63) / 64)

static void f3v_submul(uint64_t *rP, uint64_t *rM, uint64_t bP, uint64_t bM, uint64_t aP, uint64_t aM,
                       uint64_t cP, uint64_t cM)
{
    uint64_t nP = (aM & cP) | (aP & cM), nM = (aP & cP) | (aM & cM);   /* -(c a) */
    uint64_t bz = ~(bP | bM), nz = ~(nP | nM);
    *rP = (bP & nz) | (bz & nP) | (bM & nM);
    *rM = (bM & nz) | (bz & nM) | (bP & nP);
}

VEC_CLONES static int r3_recip(const sntrup_params *P, small *out, const small *in)
{
    int p = P->p, W = (p + 1 + 63) / 64, loop, i;
    uint64_t fP[R3W + 1], fM[R3W + 1], gP[R3W + 1], gM[R3W + 1], vP[R3W + 1], vM[R3W + 1], rP[R3W + 1],
             rM[R3W + 1], xP[R3W + 1], xM[R3W + 1];
    int32_t delta = 1;
    memset(fP, 0, sizeof fP); memset(fM, 0, sizeof fM); memset(gP, 0, sizeof gP); memset(gM, 0, sizeof gM);
    memset(vP, 0, sizeof vP); memset(vM, 0, sizeof vM); memset(rP, 0, sizeof rP); memset(rM, 0, sizeof rM);
    memset(xP, 0, sizeof xP); memset(xM, 0, sizeof xM);
    rP[0] = 1;
    fP[0] = 1;                                                     /* f = x^p - x - 1 reversed */
    fM[(p - 1) / 64] |= (uint64_t)1 << ((p - 1) % 64);
    fM[p / 64] |= (uint64_t)1 << (p % 64);
    for (i = 0; i < p; i++) {                                      /* g[p-1-i] = in[i] */
        int j = p - 1 - i;
        uint64_t bit = (uint64_t)1 << (j % 64), pos = (uint64_t)0 - (uint64_t)(in[i] == 1),
                 neg = (uint64_t)0 - (uint64_t)(in[i] == -1);
        gP[j / 64] |= bit & pos;
        gM[j / 64] |= bit & neg;
    }
    for (loop = 0; loop < 2 * p - 1; loop++) {
        uint64_t swap, f0P, f0M, g0P, g0M, cP, cM;
        /* as in rq_recip: v and r have at most n = loop+2 coefficients (nv
         * words; the words above stay zero), and the later steps read f, g
         * below m = 2p-2-loop only (fg words: g's top bit may take a stale
         * bit of x from above m, never read) */
        int n = loop + 2 < p + 1 ? loop + 2 : p + 1, m = 2 * p - 2 - loop < p ? 2 * p - 2 - loop : p;
        int nv = (n + 63) / 64, fg = m / 64 + 1 < W ? m / 64 + 1 : W;
        for (i = nv - 1; i > 0; i--) {                             /* v = x v */
            vP[i] = (vP[i] << 1) | (vP[i - 1] >> 63);
            vM[i] = (vM[i] << 1) | (vM[i - 1] >> 63);
        }
        vP[0] <<= 1; vM[0] <<= 1;
        swap = (uint64_t)(int64_t)(negmask32(-delta) & nonzero_mask((int32_t)((gP[0] | gM[0]) & 1)));
        delta ^= (int32_t)swap & (delta ^ -delta);
        delta += 1;
        /* as in rq_recip, from the unswapped pair: g - c f with c = f0 g0
         * is the swapped pair's elimination times the unit -c, and r - c x v
         * likewise; only f and v are selected */
        f0P = fP[0] & 1; f0M = fM[0] & 1; g0P = gP[0] & 1; g0M = gM[0] & 1;
        cP = (uint64_t)0 - ((g0P & f0P) | (g0M & f0M));               /* c = g0 f0 = g0 / f0 */
        cM = (uint64_t)0 - ((g0P & f0M) | (g0M & f0P));
        for (i = 0; i < fg; i++) {                                 /* x = g - c f, f = swap ? g : f */
            f3v_submul(&xP[i], &xM[i], gP[i], gM[i], fP[i], fM[i], cP, cM);
            fP[i] ^= swap & (fP[i] ^ gP[i]);
            fM[i] ^= swap & (fM[i] ^ gM[i]);
        }
        for (i = 0; i < nv; i++) {                                 /* r = r - c v, v = swap ? r : v */
            uint64_t oP = rP[i], oM = rM[i];
            f3v_submul(&rP[i], &rM[i], oP, oM, vP[i], vM[i], cP, cM);
            vP[i] ^= swap & (vP[i] ^ oP);
            vM[i] ^= swap & (vM[i] ^ oM);
        }
        for (i = 0; i < fg; i++) {                                 /* g = x / x (xP[W] = 0) */
            gP[i] = (xP[i] >> 1) | (xP[i + 1] << 63);
            gM[i] = (xM[i] >> 1) | (xM[i + 1] << 63);
        }
    }
    for (i = 0; i < p; i++) {                                      /* out = v reversed / f0 (= f0) */
        int j = p - 1 - i;
        int vp = (int)((vP[j / 64] >> (j % 64)) & 1), vm = (int)((vM[j / 64] >> (j % 64)) & 1);
        int f0 = (int)(fP[0] & 1) - (int)(fM[0] & 1);
        out[i] = (small)(f0 * (vp - vm));
    }
    return (int)nonzero_mask(delta);
}

/* ---- products through the kernels (SUPERCOP crypto_core byte layouts) ---------- */
static void rq_mult_small(const sntrup_params *P, Fq *h, const Fq *f, const small *g)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Fq arrays are the kernel's layout already (int16 little-endian) */
    P->mult((unsigned char *)h, (const unsigned char *)f, (const unsigned char *)g);
#else
    unsigned char in[2 * MAXP], out[2 * MAXP];
    int i;
    for (i = 0; i < P->p; i++) { in[2 * i] = (unsigned char)f[i]; in[2 * i + 1] = (unsigned char)((uint16_t)f[i] >> 8); }
    P->mult(out, in, (const unsigned char *)g);
    for (i = 0; i < P->p; i++) h[i] = (Fq)(uint16_t)(out[2 * i] | (out[2 * i + 1] << 8));
#endif
}

static void r3_mult(const sntrup_params *P, small *h, const small *f, const small *g)
{
    P->mult3((unsigned char *)h, (const unsigned char *)f, (const unsigned char *)g);
}

/* ---- sorting: Short by a fixed sorting network (csrc/ct_sort.c) ------------------- */

/* ---- random elements (section 3: Short, and the small g of key generation) -------- */
static uint32_t le32(const unsigned char *c)
{
    return (uint32_t)c[0] | ((uint32_t)c[1] << 8) | ((uint32_t)c[2] << 16) | ((uint32_t)c[3] << 24);
}

/* a random element of Short (weight w): p random 32-bit words, the first w
 * made even (-> +-1), the others 1 mod 4 (-> 0), sorted; the low two bits
 * minus 1 are the coefficients */
VEC_CLONES static void short_random(const sntrup_params *P, small *out)
{
    unsigned char c[4 * MAXP];
    uint32_t L[MAXP];
    int i, p = P->p, w = P->w;   /* locals: out's int8 stores may alias *P */
    qhasm_randombytes_pieces(c, (unsigned long long)p, 4);   /* one 4-byte call per coefficient */
    for (i = 0; i < w; i++) L[i] = le32(c + 4 * i) & ~1u;
    for (i = w; i < p; i++) L[i] = (le32(c + 4 * i) & ~3u) | 1;
    qhasm_ct_sort_u32(L, p);
    for (i = 0; i < p; i++) out[i] = (small)((L[i] & 3) - 1);
}

/* a random small element: each coefficient from 30 random bits, as
 * floor(3 x / 2^30) - 1 */
VEC_CLONES static void small_random(const sntrup_params *P, small *out)
{
    unsigned char c[4 * MAXP];
    int i, p = P->p;
    qhasm_randombytes_pieces(c, (unsigned long long)p, 4);
    for (i = 0; i < p; i++) out[i] = (small)((((le32(c + 4 * i) & 0x3fffffff) * 3) >> 30) - 1);
}

/* ---- Encode / Decode (section 4) ---------------------------------------------------- */
/* the length of Encode's output for len values below m0 each.  Every
 * level's list is k copies of one bound a, then perhaps one other bound b
 * (the odd element carried, or merged with the last copy of a), so the
 * levels are followed as (a, k, b): O(log len) steps, not a walk over the
 * list (sizes_of is called per KEM operation; the walk cost 8k cycles) */
static int emitted(uint32_t *m)   /* the bytes a merged bound emits, *m reduced */
{
    int n = 0;
    while (*m >= 16384) { n++; *m = (*m + 255) >> 8; }
    return n;
}

static int encode_len(uint32_t m0, int len)
{
    uint32_t a = m0, b = 0;   /* b = 0: no tail */
    int k = len, n = 0;
    if (len == 0) return 0;
    while (k + (b != 0) > 1) {
        uint32_t aa = a * a, nb = 0;
        int pairs = k / 2, e = emitted(&aa);
        n += pairs * e;
        if (k % 2) {                  /* the last a pairs with b, or is carried */
            if (b) { nb = a * b; n += emitted(&nb); }
            else nb = a;
        } else nb = b;                /* b (or nothing) carried */
        if (pairs == 0) { a = nb; k = 1; b = 0; }
        else { a = aa; k = pairs; b = nb; }
    }
    for (uint32_t m = a; m > 1; m = (m + 255) >> 8) n++;
    return n;
}

/* R[i] < m0; the loop structure depends on m0 and len only.  Every level
 * is k values below a, then perhaps one below b (as in encode_len): the
 * k/2 pairs (a, a) all emit the same byte count e, so their loop has no
 * inner branch (encode_pairs, vectorised); then the pair (a, b) or the
 * carried value. */
VEC_CLONES static void encode_pairs(unsigned char *out, uint32_t *R, int pairs, uint32_t a, int e)
{
    int i, c;
    if (e == 0) for (i = 0; i < pairs; i++) R[i] = R[2 * i] + a * R[2 * i + 1];
    else if (e == 1)
        for (i = 0; i < pairs; i++) {
            uint32_t r = R[2 * i] + a * R[2 * i + 1];
            out[i] = (unsigned char)r; R[i] = r >> 8;
        }
    else if (e == 2)
        for (i = 0; i < pairs; i++) {
            uint32_t r = R[2 * i] + a * R[2 * i + 1];
            out[2 * i] = (unsigned char)r; out[2 * i + 1] = (unsigned char)(r >> 8); R[i] = r >> 16;
        }
    else
        for (i = 0; i < pairs; i++) {
            uint32_t r = R[2 * i] + a * R[2 * i + 1];
            for (c = 0; c < e; c++) { out[e * i + c] = (unsigned char)r; r >>= 8; }
            R[i] = r;
        }
}

static void encode(unsigned char *out, const uint32_t *R0, uint32_t m0, int len)
{
    uint32_t R[MAXP], a = m0, b = 0, r, m;   /* b = 0: no last value of another bound */
    int i, k = len;
    if (len == 0) return;
    for (i = 0; i < len; i++) R[i] = R0[i];
    while (k + (b != 0) > 1) {
        uint32_t aa = a * a, nb;
        int pairs = k / 2, e = emitted(&aa);
        encode_pairs(out, R, pairs, a, e);
        out += pairs * e;
        if (k % 2) {
            if (b) {                          /* the pair (a, b) */
                r = R[k - 1] + a * R[k];
                for (m = a * b; m >= 16384; m = (m + 255) >> 8) { *out++ = (unsigned char)r; r >>= 8; }
                R[pairs] = r; nb = m;
            } else { R[pairs] = R[k - 1]; nb = a; }   /* a carried */
        } else {
            if (b) R[pairs] = R[k];           /* b carried */
            nb = b;
        }
        if (pairs == 0) { a = nb; k = 1; b = 0; }
        else { a = aa; k = pairs; b = nb; }
    }
    for (r = R[0], m = a; m > 1; m = (m + 255) >> 8) { *out++ = (unsigned char)r; r >>= 8; }
}

/* q = r / m, *rem = r % m for any r < 2^32, with v = floor((2^32 - 1) / m):
 * r v / 2^32 errs from r / m by less than 1, so one masked step corrects
 * the quotient (no division instruction per coefficient) */
static uint32_t divmod(uint32_t *rem, uint32_t r, uint32_t m, uint32_t v)
{
    uint32_t qt = (uint32_t)(((uint64_t)r * v) >> 32), x = r - qt * m, c = 0u - (uint32_t)(x >= m);
    *rem = x - (c & m);
    return qt + (c & 1);
}

/* the inverse of encode for valid strings, and some R[i] < M[i] for any
 * string (reduced modulo M[i] as the specification says).  Checked against
 * the earlier generic recursion over the list of bounds (per pair: its
 * bytes, the merged bound) on every length 1..80 and every 37th up to
 * 1024, bounds 2..16383, valid and random strings (a throwaway harness). */
/* pair i of a level from its bottom bytes S[e i ..] and R2[i]: out[2i],
 * out[2i+1]; a loop per byte count, so that each vectorises */
#define DECODE_PAIRS(BOTTOM) \
    for (i = 0; i < pairs; i++) { \
        uint32_t r = BOTTOM, r1 = divmod(&out[2 * i], r, a, va); \
        divmod(&out[2 * i + 1], r1, a, va);   /* r1 < a unless the string is invalid */ \
    }
/* the same with the bound a and the byte count E compile-time constants:
 * gcc turns r / A and r % A into multiplications by a constant (no
 * correction step, no division instruction) in vector lanes.  Used for the
 * three big levels (380, 190, 95 pairs) of sntrup761's Rq and Rounded */
#if defined(__GNUC__)
#define DECODE_INLINE static inline __attribute__((always_inline))
#else
#define DECODE_INLINE static inline
#endif
DECODE_INLINE void decode_pairs_const(uint32_t *out, const uint32_t *R2, const unsigned char *S, int pairs,
                                      const uint32_t A, const int E)
{
    int i;
    for (i = 0; i < pairs; i++) {
        uint32_t r = E == 2 ? (R2[i] << 16) | ((uint32_t)S[2 * i + 1] << 8) | S[2 * i] : (R2[i] << 8) | S[i];
        uint32_t r1 = r / A;
        out[2 * i] = r - r1 * A;
        out[2 * i + 1] = r1 % A;   /* r1 < A unless the string is invalid */
    }
}

VEC_CLONES static void decode_pairs(uint32_t *out, const uint32_t *R2, const unsigned char *S, int e, int pairs,
                                    uint32_t a, uint32_t va)
{
    int i, c;
#define DECODE_CONST(A_, E_) \
    if (a == (A_) && e == (E_)) { decode_pairs_const(out, R2, S, pairs, (A_), (E_)); return; }
    DECODE_CONST(4591, 2) DECODE_CONST(322, 1) DECODE_CONST(406, 1)     /* sntrup761 Rq */
    DECODE_CONST(1531, 1) DECODE_CONST(9157, 2) DECODE_CONST(1280, 1)   /* sntrup761 Rounded */
#undef DECODE_CONST
    if (e == 0) DECODE_PAIRS(R2[i])
    else if (e == 1) DECODE_PAIRS((R2[i] << 8) | S[i])
    else if (e == 2) DECODE_PAIRS((R2[i] << 16) | ((uint32_t)S[2 * i + 1] << 8) | S[2 * i])
    else
        for (i = 0; i < pairs; i++) {
            uint32_t r = R2[i], r1;
            for (c = e - 1; c >= 0; c--) r = (r << 8) | S[e * i + c];
            r1 = divmod(&out[2 * i], r, a, va);
            divmod(&out[2 * i + 1], r1, a, va);
        }
}

static void decode_ab(uint32_t *out, const unsigned char *S, uint32_t a, int k, uint32_t b, uint32_t *work)
{
    int pairs = k / 2, e, eb = 0, c, tail = (k % 2) && b;
    uint32_t aa = a * a, nb = 0, va, vb = 0, *R2 = work;
    if (k == 1 && !b) {
        uint32_t r = 0, t = 1, m;
        for (m = a, c = 0; m > 1; m = (m + 255) >> 8, c++) { r += S[c] * t; t <<= 8; }
        out[0] = r % a;
        return;
    }
    e = emitted(&aa);
    if (tail) { nb = a * b; eb = emitted(&nb); }
    else nb = (k % 2) ? a : b;
    if (pairs == 0) decode_ab(R2, S + eb, nb, 1, 0, work + 1);
    else decode_ab(R2, S + pairs * e + eb, aa, pairs, nb, work + pairs + 1);
    va = 0xffffffffu / a;
    decode_pairs(out, R2, S, e, pairs, a, va);
    if (tail) {
        uint32_t r = R2[pairs], r1;
        vb = 0xffffffffu / b;
        for (c = eb - 1; c >= 0; c--) r = (r << 8) | S[e * pairs + c];
        r1 = divmod(&out[2 * pairs], r, a, va);
        divmod(&out[2 * pairs + 1], r1, b, vb);
    } else if (k % 2) out[k - 1] = R2[pairs];   /* a carried */
    else if (b) out[k] = R2[pairs];             /* b carried */
}

static void decode(uint32_t *out, const unsigned char *S, uint32_t m0, int len)
{
    uint32_t work[MAXP + 64];
    if (len > 0) decode_ab(out, S, m0, len, 0, work);
}

VEC_CLONES static void small_encode(const sntrup_params *P, unsigned char *s, const small *f)
{
    int i, j, whole = P->p / 4;
    unsigned x = 0;
    for (i = 0; i < whole; i++)   /* whole bytes (vectorised), then the partial one */
        s[i] = (unsigned char)((f[4 * i] + 1) | ((f[4 * i + 1] + 1) << 2) | ((f[4 * i + 2] + 1) << 4) |
                               ((f[4 * i + 3] + 1) << 6));
    for (j = 4 * whole; j < P->p; j++) x |= (unsigned)(f[j] + 1) << (2 * (j - 4 * whole));
    if (P->p % 4) s[whole] = (unsigned char)x;
}

/* four coefficients per byte: a loop over the whole bytes (which gcc
 * vectorises), then the last partial byte */
VEC_CLONES static void small_decode(const sntrup_params *P, small *f, const unsigned char *s)
{
    int i, j, whole = P->p / 4;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* a byte's four 2-bit fields spread to the four bytes of a word, each
     * minus 1 without a borrow (v + 127, then the top bit flipped: v - 1
     * mod 256), one 32-bit store: gcc vectorises this in 32-bit lanes (the
     * loop below, with int8 stores at 4 i + j, took 3% of dec) */
    for (i = 0; i < whole; i++) {
        uint32_t b = s[i], w = ((b | (b << 6) | (b << 12) | (b << 18)) & 0x03030303u) + 0x7f7f7f7fu;
        w ^= 0x80808080u;
        memcpy(f + 4 * i, &w, 4);
    }
    (void)j;
#else
    for (i = 0; i < whole; i++)
        for (j = 0; j < 4; j++) f[4 * i + j] = (small)(((s[i] >> (2 * j)) & 3) - 1);
#endif
    for (i = 4 * whole; i < P->p; i++) f[i] = (small)(((s[i / 4] >> (2 * (i % 4))) & 3) - 1);
}

VEC_CLONES static void rq_encode(const sntrup_params *P, unsigned char *s, const Fq *r)
{
    uint32_t R[MAXP];
    int i;
    for (i = 0; i < P->p; i++) R[i] = (uint32_t)(r[i] + (P->q - 1) / 2);
    encode(s, R, (uint32_t)P->q, P->p);
}

VEC_CLONES static void rq_decode(const sntrup_params *P, Fq *r, const unsigned char *s)
{
    uint32_t R[MAXP];
    int i;
    decode(R, s, (uint32_t)P->q, P->p);
    for (i = 0; i < P->p; i++) r[i] = (Fq)((int32_t)R[i] - (P->q - 1) / 2);
}

/* Rounded: multiples of 3 in -(q-1)/2..(q-1)/2, as (r + (q-1)/2)/3 below (q+2)/3 */
VEC_CLONES static void rounded_encode(const sntrup_params *P, unsigned char *s, const Fq *r)
{
    uint32_t R[MAXP];
    int i;
    for (i = 0; i < P->p; i++) R[i] = (((uint32_t)(r[i] + (P->q - 1) / 2)) * 10923) >> 15;
    encode(s, R, (uint32_t)(P->q + 2) / 3, P->p);
}

VEC_CLONES static void rounded_decode(const sntrup_params *P, Fq *r, const unsigned char *s)
{
    uint32_t R[MAXP];
    int i;
    decode(R, s, (uint32_t)(P->q + 2) / 3, P->p);
    for (i = 0; i < P->p; i++) r[i] = (Fq)((int32_t)R[i] * 3 - (P->q - 1) / 2);
}

static sntrup_sizes sizes_of(const sntrup_params *P)
{
    sntrup_sizes s;
    s.small_bytes = (P->p + 3) / 4;
    s.rq_bytes = encode_len((uint32_t)P->q, P->p);
    s.rounded_bytes = encode_len((uint32_t)(P->q + 2) / 3, P->p);
    s.pk = s.rq_bytes;
    s.sk = 2 * s.small_bytes + s.pk + s.small_bytes + 32;
    s.ct = s.rounded_bytes + 32;
    return s;
}

/* ---- the Core (section 3.2) ------------------------------------------------------- */
/* h = g / (3f) with f in Short and g small, invertible in R/3; ginv = 1/g in R/3 */
static void keygen(const sntrup_params *P, Fq *h, small *f, small *ginv)
{
    small g[MAXP];
    Fq finv[MAXP], fq[MAXP];
    Fq inv3 = 0;
    int k, ok;
    for (;;) {
        small_random(P, g);
        ok = r3_recip(P, ginv, g);
        qhasm_declassify(&ok, sizeof ok);
        if (ok == 0) break;
    }
    short_random(P, f);
    for (k = 1; k <= 2; k++)          /* 1/3 mod q = (kq + 1)/3 for the k that divides */
        if ((k * P->q + 1) % 3 == 0) inv3 = fq_freeze(P, (k * P->q + 1) / 3);
    for (k = 0; k < P->p; k++) fq[k] = f[k];
    rq_recip(P, finv, fq, inv3);      /* f is invertible in R/q: R/q is a field */
    rq_mult_small(P, h, finv, g);
}

/* c = Round(h r) */
VEC_CLONES static void encrypt(const sntrup_params *P, Fq *c, const small *r, const Fq *h)
{
    Fq hr[MAXP];
    int i;
    rq_mult_small(P, hr, h, r);
    for (i = 0; i < P->p; i++) c[i] = (Fq)(hr[i] - f3_freeze(hr[i]));
}

/* r = the weight-w element from 3 f c, times 1/g in R/3; (1,...,1,0,...,0)
 * when that has not weight w */
VEC_CLONES static void decrypt(const sntrup_params *P, small *r, const Fq *c, const small *f, const small *ginv)
{
    Fq cf[MAXP];
    small e[MAXP], ev[MAXP];
    int32_t weight = 0, mask;
    int i, p = P->p, w = P->w;   /* locals: the int8 stores may alias *P, which kept gcc from vectorising */
    rq_mult_small(P, cf, c, f);
    for (i = 0; i < p; i++) e[i] = f3_freeze(fq_freeze15(P, 3 * (int32_t)cf[i]));   /* |3 cf| < 2^15 */
    r3_mult(P, ev, e, ginv);
    for (i = 0; i < p; i++) weight += ev[i] & 1;
    mask = nonzero_mask(weight - w);
    for (i = 0; i < w; i++) r[i] = (small)(((ev[i] ^ 1) & ~mask) ^ 1);
    for (i = w; i < p; i++) r[i] = (small)(ev[i] & ~mask);
}

/* ---- hashing (section 3.4): the first 32 bytes of SHA-512(b || in) ----------------- */
static void hash_prefix(const sntrup_params *P, unsigned char *out, int b, const unsigned char *in, int n)
{
    unsigned char x[1 + 2 * MAXP + 64 + 64], h[64];
    x[0] = (unsigned char)b;
    memcpy(x + 1, in, (size_t)n);
    P->sha512(h, x, (unsigned long long)n + 1);
    memcpy(out, h, 32);
}

/* HashConfirm(r, pk) = Hash2(Hash3(r) || Hash4(pk)), Hash4(pk) cached;
 * h3 = Hash3(r) is given (enc's session key hashes it too) */
static void hash_confirm(const sntrup_params *P, unsigned char *h, const unsigned char *h3,
                         const unsigned char *cache)
{
    unsigned char x[64];
    memcpy(x, h3, 32);
    memcpy(x + 32, cache, 32);
    hash_prefix(P, h, 2, x, 64);
}

/* HashSession(b, y, z) = Hash_b(Hash3(y) || z), z the whole ciphertext, from h3 = Hash3(y) */
static void hash_session(const sntrup_params *P, unsigned char *k, int b, const unsigned char *h3,
                         const unsigned char *z)
{
    sntrup_sizes S = sizes_of(P);
    unsigned char x[32 + 2 * MAXP + 64];
    memcpy(x, h3, 32);
    memcpy(x + 32, z, (size_t)S.ct);
    hash_prefix(P, k, b, x, 32 + S.ct);
}

/* ---- the KEM (section 3.4) ------------------------------------------------------------ */
/* sk = f (Small) || 1/g in R/3 (Small) || pk || rho (Small bytes, random) || Hash4(pk) */
static int kem_keypair(const sntrup_params *P, unsigned char *pk, unsigned char *sk)
{
    sntrup_sizes S = sizes_of(P);
    Fq h[MAXP];
    small f[MAXP], v[MAXP];
    keygen(P, h, f, v);
    rq_encode(P, pk, h);
    small_encode(P, sk, f);
    small_encode(P, sk + S.small_bytes, v);
    memcpy(sk + 2 * S.small_bytes, pk, (size_t)S.pk);
    qhasm_randombytes(sk + 2 * S.small_bytes + S.pk, (unsigned long long)S.small_bytes);
    hash_prefix(P, sk + 2 * S.small_bytes + S.pk + S.small_bytes, 4, pk, S.pk);
    return 0;
}

/* c = Rounded(Round(h r)) || HashConfirm(r, pk); r_enc = Small(r), h3 = Hash3(r_enc) */
static void hide(const sntrup_params *P, unsigned char *c, unsigned char *r_enc, unsigned char *h3,
                 const small *r, const unsigned char *pk, const unsigned char *cache)
{
    sntrup_sizes S = sizes_of(P);
    Fq h[MAXP], cc[MAXP];
    small_encode(P, r_enc, r);
    rq_decode(P, h, pk);
    encrypt(P, cc, r, h);
    rounded_encode(P, c, cc);
    hash_prefix(P, h3, 3, r_enc, S.small_bytes);
    hash_confirm(P, c + S.rounded_bytes, h3, cache);
}

static int kem_enc(const sntrup_params *P, unsigned char *c, unsigned char *k, const unsigned char *pk_in)
{
    sntrup_sizes S = sizes_of(P);
    unsigned char pk[2 * MAXP], cache[32], r_enc[MAXP / 4 + 1], h3[32], cc[2 * MAXP + 32];
    small r[MAXP];
    memcpy(pk, pk_in, (size_t)S.pk);          /* c and k may alias pk */
    hash_prefix(P, cache, 4, pk, S.pk);
    short_random(P, r);
    hide(P, cc, r_enc, h3, r, pk, cache);
    hash_session(P, k, 1, h3, cc);
    memcpy(c, cc, (size_t)S.ct);
    return 0;
}

static int kem_dec(const sntrup_params *P, unsigned char *k, const unsigned char *c_in, const unsigned char *sk_in)
{
    sntrup_sizes S = sizes_of(P);
    unsigned char sk[4 * MAXP + 32], c[2 * MAXP + 32], cnew[2 * MAXP + 32], r_enc[MAXP / 4 + 1], h3[32];
    const unsigned char *pk, *rho, *cache;
    Fq cc[MAXP];
    small f[MAXP], v[MAXP], r[MAXP];
    uint32_t diff = 0;
    int32_t mask;
    int i;
    memcpy(sk, sk_in, (size_t)S.sk);          /* k may alias c or sk */
    memcpy(c, c_in, (size_t)S.ct);
    pk = sk + 2 * S.small_bytes;
    rho = pk + S.pk;
    cache = rho + S.small_bytes;
    small_decode(P, f, sk);
    small_decode(P, v, sk + S.small_bytes);
    rounded_decode(P, cc, c);
    decrypt(P, r, cc, f, v);
    hide(P, cnew, r_enc, h3, r, pk, cache);
    for (i = 0; i < S.ct; i++) diff |= (uint32_t)(c[i] ^ cnew[i]);
    mask = (int32_t)((diff - 1) >> 31) - 1;   /* 0 if c = cnew, else -1 */
    for (i = 0; i < S.small_bytes; i++) r_enc[i] ^= (unsigned char)(mask & (r_enc[i] ^ rho[i]));
    hash_prefix(P, h3, 3, r_enc, S.small_bytes);   /* of r_enc or rho (one hash either way) */
    hash_session(P, k, 1 + mask, h3, c);
    return 0;
}

/* ---- the parameter sets and implementations ------------------------------------------------ */
static int mult761(unsigned char *out, const unsigned char *in, const unsigned char *k)
{ return qhasm_core_multsntrup761(out, in, k, 0); }
static int mult3_761(unsigned char *out, const unsigned char *in, const unsigned char *k)
{ return qhasm_core_mult3sntrup761(out, in, k, 0); }
static int mult761_ref(unsigned char *out, const unsigned char *in, const unsigned char *k)
{ return qhasm_ref_core_multsntrup(out, in, k, 761, 4591); }
static int mult3_761_ref(unsigned char *out, const unsigned char *in, const unsigned char *k)
{ return qhasm_ref_core_mult3sntrup(out, in, k, 761); }
static void sha512_sel(unsigned char *out, const unsigned char *in, unsigned long long n)
{ qhasm_hash_sha512(out, in, n); }
static void sha512_ref(unsigned char *out, const unsigned char *in, unsigned long long n)
{ qhasm_ref_sha512(out, in, n); }

#define SNTRUP_Q(q) (q), ((int64_t)1 << 46) / (q), (((int64_t)1 << 48) + (q) / 2) / (q)
static const sntrup_params sntrup761 = { 761, SNTRUP_Q(4591), 286, mult761, mult3_761, sha512_sel };
static const sntrup_params sntrup761_ref = { 761, SNTRUP_Q(4591), 286, mult761_ref, mult3_761_ref, sha512_ref };

#define KEM_KERNELS(NAME, PARAMS) \
    int qhasm_kernel_##NAME##_keypair(unsigned char *pk, unsigned char *sk) \
    { return kem_keypair(&PARAMS, pk, sk); } \
    int qhasm_kernel_##NAME##_enc(unsigned char *c, unsigned char *k, const unsigned char *pk) \
    { return kem_enc(&PARAMS, c, k, pk); } \
    int qhasm_kernel_##NAME##_dec(unsigned char *k, const unsigned char *c, const unsigned char *sk) \
    { return kem_dec(&PARAMS, k, c, sk); }

/* the kernels are declared here (the manifest's tables declare them as void(void)) */
int qhasm_kernel_kem_sntrup761_c_keypair(unsigned char *pk, unsigned char *sk);
int qhasm_kernel_kem_sntrup761_c_enc(unsigned char *c, unsigned char *k, const unsigned char *pk);
int qhasm_kernel_kem_sntrup761_c_dec(unsigned char *k, const unsigned char *c, const unsigned char *sk);
int qhasm_kernel_kem_sntrup761_ref_keypair(unsigned char *pk, unsigned char *sk);
int qhasm_kernel_kem_sntrup761_ref_enc(unsigned char *c, unsigned char *k, const unsigned char *pk);
int qhasm_kernel_kem_sntrup761_ref_dec(unsigned char *k, const unsigned char *c, const unsigned char *sk);
KEM_KERNELS(kem_sntrup761_c, sntrup761)
KEM_KERNELS(kem_sntrup761_ref, sntrup761_ref)
