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

#define MAXP 1024
typedef int8_t small;
typedef int16_t Fq;

typedef struct {
    int p, q, w;
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
    const int64_t rec = ((int64_t)1 << 46) / P->q;
    int32_t q12 = (P->q - 1) / 2;
    int64_t t = ((int64_t)x * rec + ((int64_t)1 << 45)) >> 46;
    int32_t r = x - (int32_t)t * P->q;
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
    int b;
    for (b = 30; b >= 0; b--) {
        r = fq_freeze(P, (int32_t)r * r);
        if ((e >> b) & 1) r = fq_freeze(P, (int32_t)r * a);
    }
    return r;
}

static Fq fq_recip(const sntrup_params *P, Fq a) { return fq_pow(P, a, P->q - 2); }

/* ---- 16-bit lane arithmetic modulo q for the R/q inversion ---------------------
 * Every value is kept in -(q-1)/2..(q-1)/2.  a*b mod q for such a, b:
 * Shoup's method with b' = round(b 2^16 / q): a*b - q*floor(a b' / 2^16)
 * lies in -q/50..q(1 + 1/50) (|a b'/2^16 - a b/q| <= |a|/2^17 < 0.02), so
 * its low 16 bits are it; two of them differ by less than 2^13, and
 * freeze16 brings that back: floor(x 14 / 2^16) errs by less than 0.02 from
 * x/q (q = 4591: 14/2^16 = 1/q - 4.2e-6), so x - q t is in
 * -q/50..q(1 + 1/50) and one masked subtraction centers it.  (The
 * constants are computed from q, and the bounds hold for q < 2^13.) */
static int16_t mulhi16(int16_t a, int16_t b) { return (int16_t)(((int32_t)a * b) >> 16); }
static int16_t mullo16(int16_t a, int16_t b) { return (int16_t)(uint16_t)((uint32_t)(int32_t)a * (uint32_t)(int32_t)b); }

static int16_t shoup_prep(const sntrup_params *P, int16_t b)
{
    const int64_t rec = (((int64_t)1 << 48) + P->q / 2) / P->q;   /* ~ 2^48 / q */
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
static int rq_recip(const sntrup_params *P, Fq *out, const Fq *in, Fq scale)
{
    int p = P->p, q = P->q, loop, i;
    int16_t f[MAXP + 16], g[MAXP + 16], v[MAXP + 16], r[MAXP + 16];
    int16_t q12 = (int16_t)((q - 1) / 2), mq = (int16_t)q, inv = (int16_t)((1 << 16) / q);
    int32_t delta = 1;
    Fq fs;
    memset(f, 0, sizeof f); memset(g, 0, sizeof g); memset(v, 0, sizeof v); memset(r, 0, sizeof r);
    r[0] = scale;
    f[0] = 1; f[p - 1] = -1; f[p] = -1;
    for (i = 0; i < p; i++) g[p - 1 - i] = in[i];
    for (loop = 0; loop < 2 * p - 1; loop++) {
        int n = loop + 2 < p + 1 ? loop + 2 : p + 1;   /* v and r have at most loop+2 coefficients */
        int16_t swap, f0, g0, f0s, g0s;
        memmove(v + 1, v, (size_t)p * sizeof *v);
        v[0] = 0;
        swap = (int16_t)(negmask32(-delta) & nonzero_mask(g[0]));
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        for (i = 0; i < p + 1; i++) {
            int16_t t = (int16_t)(swap & (f[i] ^ g[i]));
            f[i] ^= t; g[i] ^= t;
        }
        for (i = 0; i < n; i++) {
            int16_t t = (int16_t)(swap & (v[i] ^ r[i]));
            v[i] ^= t; r[i] ^= t;
        }
        f0 = f[0]; g0 = g[0];
        f0s = shoup_prep(P, f0); g0s = shoup_prep(P, g0);
        /* g = (f0 g - g0 f) / x: computed one position down */
        for (i = 0; i < p; i++) {
            int16_t a = (int16_t)(mullo16(g[i + 1], f0) - mullo16(mulhi16(g[i + 1], f0s), mq));
            int16_t b = (int16_t)(mullo16(f[i + 1], g0) - mullo16(mulhi16(f[i + 1], g0s), mq));
            int16_t x = (int16_t)(a - b), t = (int16_t)(x - mullo16(mulhi16(x, inv), mq));
            g[i] = (int16_t)(t - (mq & ((q12 - t) >> 15)));
        }
        g[p] = 0;
        for (i = 0; i < n; i++) {
            int16_t a = (int16_t)(mullo16(r[i], f0) - mullo16(mulhi16(r[i], f0s), mq));
            int16_t b = (int16_t)(mullo16(v[i], g0) - mullo16(mulhi16(v[i], g0s), mq));
            int16_t x = (int16_t)(a - b), t = (int16_t)(x - mullo16(mulhi16(x, inv), mq));
            r[i] = (int16_t)(t - (mq & ((q12 - t) >> 15)));
        }
    }
    fs = fq_recip(P, f[0]);
    for (i = 0; i < p; i++) out[i] = fq_freeze(P, (int32_t)fs * v[p - 1 - i]);
    return (int)nonzero_mask(delta);
}

/* the same in R/3, 8-bit lanes: f0, g0 in {-1, 0, 1}, so f0 g - g0 f is in
 * -2..2 and two masked corrections reduce it */
static small f3_red(int x) { x += 3 & ((x + 1) >> 7); x -= 3 & ((1 - x) >> 7); return (small)x; }

static int r3_recip(const sntrup_params *P, small *out, const small *in)
{
    int p = P->p, loop, i;
    small f[MAXP + 16], g[MAXP + 16], v[MAXP + 16], r[MAXP + 16];
    int32_t delta = 1;
    memset(f, 0, sizeof f); memset(g, 0, sizeof g); memset(v, 0, sizeof v); memset(r, 0, sizeof r);
    r[0] = 1;
    f[0] = 1; f[p - 1] = -1; f[p] = -1;
    for (i = 0; i < p; i++) g[p - 1 - i] = in[i];
    for (loop = 0; loop < 2 * p - 1; loop++) {
        int n = loop + 2 < p + 1 ? loop + 2 : p + 1;
        small swap, f0, g0;
        memmove(v + 1, v, (size_t)p);
        v[0] = 0;
        swap = (small)(negmask32(-delta) & nonzero_mask(g[0]));
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        for (i = 0; i < p + 1; i++) {
            small t = (small)(swap & (f[i] ^ g[i]));
            f[i] ^= t; g[i] ^= t;
        }
        for (i = 0; i < n; i++) {
            small t = (small)(swap & (v[i] ^ r[i]));
            v[i] ^= t; r[i] ^= t;
        }
        f0 = f[0]; g0 = g[0];
        for (i = 0; i < p; i++) g[i] = f3_red(f0 * g[i + 1] - g0 * f[i + 1]);
        g[p] = 0;
        for (i = 0; i < n; i++) r[i] = f3_red(f0 * r[i] - g0 * v[i]);
    }
    for (i = 0; i < p; i++) out[i] = (small)(f[0] * v[p - 1 - i]);   /* 1/f0 = f0 in Z/3 */
    return (int)nonzero_mask(delta);
}

/* ---- products through the kernels (SUPERCOP crypto_core byte layouts) ---------- */
static void rq_mult_small(const sntrup_params *P, Fq *h, const Fq *f, const small *g)
{
    unsigned char in[2 * MAXP], out[2 * MAXP];
    int i;
    for (i = 0; i < P->p; i++) { in[2 * i] = (unsigned char)f[i]; in[2 * i + 1] = (unsigned char)((uint16_t)f[i] >> 8); }
    P->mult(out, in, (const unsigned char *)g);
    for (i = 0; i < P->p; i++) h[i] = (Fq)(uint16_t)(out[2 * i] | (out[2 * i + 1] << 8));
}

static void r3_mult(const sntrup_params *P, small *h, const small *f, const small *g)
{
    P->mult3((unsigned char *)h, (const unsigned char *)f, (const unsigned char *)g);
}

/* ---- sorting: Short by a fixed sorting network ------------------------------------ */
static void minmax(uint32_t *a, uint32_t *b)
{
    uint32_t x = *a, y = *b, m = 0u - (uint32_t)(((uint64_t)y - x) >> 63), t = (x ^ y) & m;
    *a = x ^ t;
    *b = y ^ t;
}

/* ascending; a bitonic network on the next power of two, padded with the
 * largest value (the padding sorts to the end) */
static void sort_u32(uint32_t *x, int n)
{
    uint32_t y[2 * MAXP];
    int N = 1, k, j, i;
    while (N < n) N *= 2;
    memcpy(y, x, (size_t)n * sizeof *x);
    for (i = n; i < N; i++) y[i] = 0xffffffffu;
    for (k = 2; k <= N; k *= 2)
        for (j = k / 2; j > 0; j /= 2)
            for (i = 0; i < N; i++) {
                int l = i ^ j;
                if (l <= i) continue;
                if (i & k) minmax(&y[l], &y[i]);
                else minmax(&y[i], &y[l]);
            }
    memcpy(x, y, (size_t)n * sizeof *x);
}

/* ---- random elements (section 3: Short, and the small g of key generation) -------- */
static uint32_t le32(const unsigned char *c)
{
    return (uint32_t)c[0] | ((uint32_t)c[1] << 8) | ((uint32_t)c[2] << 16) | ((uint32_t)c[3] << 24);
}

/* a random element of Short (weight w): p random 32-bit words, the first w
 * made even (-> +-1), the others 1 mod 4 (-> 0), sorted; the low two bits
 * minus 1 are the coefficients */
static void short_random(const sntrup_params *P, small *out)
{
    unsigned char c[4 * MAXP];
    uint32_t L[MAXP];
    int i;
    qhasm_randombytes_pieces(c, (unsigned long long)P->p, 4);   /* one 4-byte call per coefficient */
    for (i = 0; i < P->p; i++) L[i] = le32(c + 4 * i);
    for (i = 0; i < P->w; i++) L[i] &= ~1u;
    for (i = P->w; i < P->p; i++) L[i] = (L[i] & ~3u) | 1;
    sort_u32(L, P->p);
    for (i = 0; i < P->p; i++) out[i] = (small)((L[i] & 3) - 1);
}

/* a random small element: each coefficient from 30 random bits, as
 * floor(3 x / 2^30) - 1 */
static void small_random(const sntrup_params *P, small *out)
{
    unsigned char c[4 * MAXP];
    int i;
    qhasm_randombytes_pieces(c, (unsigned long long)P->p, 4);
    for (i = 0; i < P->p; i++) out[i] = (small)((((le32(c + 4 * i) & 0x3fffffff) * 3) >> 30) - 1);
}

/* ---- Encode / Decode (section 4) ---------------------------------------------------- */
/* the length of Encode's output for len values below m each */
static int encode_len(uint32_t m0, int len)
{
    uint32_t M[MAXP];
    int n = 0, i, j;
    for (i = 0; i < len; i++) M[i] = m0;
    while (len > 1) {
        for (i = j = 0; i + 1 < len; i += 2) {
            uint32_t m = M[i] * M[i + 1];
            while (m >= 16384) { n++; m = (m + 255) >> 8; }
            M[j++] = m;
        }
        if (i < len) M[j++] = M[i];
        len = j;
    }
    if (len == 1)
        for (uint32_t m = M[0]; m > 1; m = (m + 255) >> 8) n++;
    return n;
}

/* R[i] < M[i] (all M[i] = m0 here); the loop structure depends on M only */
static void encode(unsigned char *out, const uint32_t *R0, uint32_t m0, int len)
{
    uint32_t R[MAXP], M[MAXP], r, m;
    int i, j;
    for (i = 0; i < len; i++) { R[i] = R0[i]; M[i] = m0; }
    while (len > 1) {
        for (i = j = 0; i + 1 < len; i += 2) {
            m = M[i] * M[i + 1];
            r = R[i] + M[i] * R[i + 1];
            while (m >= 16384) { *out++ = (unsigned char)r; r >>= 8; m = (m + 255) >> 8; }
            R[j] = r; M[j] = m; j++;
        }
        if (i < len) { R[j] = R[i]; M[j] = M[i]; j++; }
        len = j;
    }
    if (len == 1)
        for (r = R[0], m = M[0]; m > 1; m = (m + 255) >> 8) { *out++ = (unsigned char)r; r >>= 8; }
}

/* the inverse of encode for valid strings, and some R[i] < M[i] for any
 * string (reduced modulo M[i] as the specification says) */
static void decode_rec(uint32_t *out, const unsigned char *S, const uint32_t *M, int len)
{
    uint32_t R2[MAXP / 2 + 1], M2[MAXP / 2 + 1], bottomr[MAXP / 2 + 1], bottomt[MAXP / 2 + 1];
    int i, k = 0, half = (len + 1) / 2;
    if (len == 0) return;
    if (len == 1) {
        uint32_t r = 0, t = 1, m;
        for (m = M[0]; m > 1; m = (m + 255) >> 8) { r += S[k++] * t; t <<= 8; }
        out[0] = r % M[0];
        return;
    }
    M2[half - 1] = M[len - 1];   /* for the compiler: overwritten below when len is even */
    for (i = 0; i + 1 < len; i += 2) {
        uint32_t m = M[i] * M[i + 1], r = 0, t = 1;
        while (m >= 16384) { r += S[k++] * t; t <<= 8; m = (m + 255) >> 8; }
        bottomr[i / 2] = r; bottomt[i / 2] = t; M2[i / 2] = m;
    }
    if (i < len) M2[i / 2] = M[i];
    decode_rec(R2, S + k, M2, half);
    for (i = 0; i + 1 < len; i += 2) {
        uint32_t r = bottomr[i / 2] + bottomt[i / 2] * R2[i / 2];
        out[i] = r % M[i];
        out[i + 1] = (r / M[i]) % M[i + 1];
    }
    if (i < len) out[i] = R2[i / 2];
}

static void decode(uint32_t *out, const unsigned char *S, uint32_t m0, int len)
{
    uint32_t M[MAXP];
    int i;
    for (i = 0; i < len; i++) M[i] = m0;
    decode_rec(out, S, M, len);
}

static void small_encode(const sntrup_params *P, unsigned char *s, const small *f)
{
    int i, j;
    for (i = 0; i < P->p; i += 4) {
        unsigned x = 0;
        for (j = 0; j < 4 && i + j < P->p; j++) x |= (unsigned)(f[i + j] + 1) << (2 * j);
        *s++ = (unsigned char)x;
    }
}

static void small_decode(const sntrup_params *P, small *f, const unsigned char *s)
{
    int i;
    for (i = 0; i < P->p; i++) f[i] = (small)(((s[i / 4] >> (2 * (i % 4))) & 3) - 1);
}

static void rq_encode(const sntrup_params *P, unsigned char *s, const Fq *r)
{
    uint32_t R[MAXP];
    int i;
    for (i = 0; i < P->p; i++) R[i] = (uint32_t)(r[i] + (P->q - 1) / 2);
    encode(s, R, (uint32_t)P->q, P->p);
}

static void rq_decode(const sntrup_params *P, Fq *r, const unsigned char *s)
{
    uint32_t R[MAXP];
    int i;
    decode(R, s, (uint32_t)P->q, P->p);
    for (i = 0; i < P->p; i++) r[i] = (Fq)((int32_t)R[i] - (P->q - 1) / 2);
}

/* Rounded: multiples of 3 in -(q-1)/2..(q-1)/2, as (r + (q-1)/2)/3 below (q+2)/3 */
static void rounded_encode(const sntrup_params *P, unsigned char *s, const Fq *r)
{
    uint32_t R[MAXP];
    int i;
    for (i = 0; i < P->p; i++) R[i] = (((uint32_t)(r[i] + (P->q - 1) / 2)) * 10923) >> 15;
    encode(s, R, (uint32_t)(P->q + 2) / 3, P->p);
}

static void rounded_decode(const sntrup_params *P, Fq *r, const unsigned char *s)
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
static void encrypt(const sntrup_params *P, Fq *c, const small *r, const Fq *h)
{
    Fq hr[MAXP];
    int i;
    rq_mult_small(P, hr, h, r);
    for (i = 0; i < P->p; i++) c[i] = (Fq)(hr[i] - f3_freeze(hr[i]));
}

/* r = the weight-w element from 3 f c, times 1/g in R/3; (1,...,1,0,...,0)
 * when that has not weight w */
static void decrypt(const sntrup_params *P, small *r, const Fq *c, const small *f, const small *ginv)
{
    Fq cf[MAXP];
    small e[MAXP], ev[MAXP];
    int32_t weight = 0, mask;
    int i;
    rq_mult_small(P, cf, c, f);
    for (i = 0; i < P->p; i++) e[i] = f3_freeze(fq_freeze(P, 3 * (int32_t)cf[i]));
    r3_mult(P, ev, e, ginv);
    for (i = 0; i < P->p; i++) weight += ev[i] & 1;
    mask = nonzero_mask(weight - P->w);
    for (i = 0; i < P->w; i++) r[i] = (small)(((ev[i] ^ 1) & ~mask) ^ 1);
    for (i = P->w; i < P->p; i++) r[i] = (small)(ev[i] & ~mask);
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

/* HashConfirm(r, pk) = Hash2(Hash3(r) || Hash4(pk)), Hash4(pk) cached */
static void hash_confirm(const sntrup_params *P, unsigned char *h, const unsigned char *r_enc,
                         const unsigned char *cache)
{
    unsigned char x[64];
    hash_prefix(P, x, 3, r_enc, sizes_of(P).small_bytes);
    memcpy(x + 32, cache, 32);
    hash_prefix(P, h, 2, x, 64);
}

/* HashSession(b, y, z) = Hash_b(Hash3(y) || z), z the whole ciphertext */
static void hash_session(const sntrup_params *P, unsigned char *k, int b, const unsigned char *y,
                         const unsigned char *z)
{
    sntrup_sizes S = sizes_of(P);
    unsigned char x[32 + 2 * MAXP + 64];
    hash_prefix(P, x, 3, y, S.small_bytes);
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

/* c = Rounded(Round(h r)) || HashConfirm(r, pk); r_enc = Small(r) */
static void hide(const sntrup_params *P, unsigned char *c, unsigned char *r_enc, const small *r,
                 const unsigned char *pk, const unsigned char *cache)
{
    sntrup_sizes S = sizes_of(P);
    Fq h[MAXP], cc[MAXP];
    small_encode(P, r_enc, r);
    rq_decode(P, h, pk);
    encrypt(P, cc, r, h);
    rounded_encode(P, c, cc);
    hash_confirm(P, c + S.rounded_bytes, r_enc, cache);
}

static int kem_enc(const sntrup_params *P, unsigned char *c, unsigned char *k, const unsigned char *pk_in)
{
    sntrup_sizes S = sizes_of(P);
    unsigned char pk[2 * MAXP], cache[32], r_enc[MAXP / 4 + 1], cc[2 * MAXP + 32];
    small r[MAXP];
    memcpy(pk, pk_in, (size_t)S.pk);          /* c and k may alias pk */
    hash_prefix(P, cache, 4, pk, S.pk);
    short_random(P, r);
    hide(P, cc, r_enc, r, pk, cache);
    hash_session(P, k, 1, r_enc, cc);
    memcpy(c, cc, (size_t)S.ct);
    return 0;
}

static int kem_dec(const sntrup_params *P, unsigned char *k, const unsigned char *c_in, const unsigned char *sk_in)
{
    sntrup_sizes S = sizes_of(P);
    unsigned char sk[4 * MAXP + 32], c[2 * MAXP + 32], cnew[2 * MAXP + 32], r_enc[MAXP / 4 + 1];
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
    hide(P, cnew, r_enc, r, pk, cache);
    for (i = 0; i < S.ct; i++) diff |= (uint32_t)(c[i] ^ cnew[i]);
    mask = (int32_t)((diff - 1) >> 31) - 1;   /* 0 if c = cnew, else -1 */
    for (i = 0; i < S.small_bytes; i++) r_enc[i] ^= (unsigned char)(mask & (r_enc[i] ^ rho[i]));
    hash_session(P, k, 1 + mask, r_enc, c);
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

static const sntrup_params sntrup761 = { 761, 4591, 286, mult761, mult3_761, sha512_sel };
static const sntrup_params sntrup761_ref = { 761, 4591, 286, mult761_ref, mult3_761_ref, sha512_ref };

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
