/* csrc/kem_mceliece.h: Classic McEliece (round 4, non-f), one parameter set
 * per inclusion.  Written from the specification ("Classic McEliece:
 * conservative code-based cryptography: cryptosystem specification", round
 * 4, and "Verified fast formulas for control bits for permutation networks"
 * for the control bits); docs/mceliece-kem.md explains the choices.
 *
 * The including file defines MC_M, MC_N, MC_T, MC_PREFIX(x) (the kernel
 * names of the kem family, csrc/kem_impl.h), MC_FY_REDUCE(prod, i) (y^t =
 * the low terms of F(y): reduction of the coefficient prod[i], i >= t, of a
 * product in GF(q)[y]) and MC_REF: 0 for the implementation on this
 * project's dispatched kernels (SHAKE256, the syndrome, the bitsliced
 * vec256 arithmetic), 1 for the reference (element by element, and the
 * reference C of SHAKE256 and of the syndrome).
 *
 * Constant time: no branch and no memory address depends on secret data,
 * except the decisions the specification makes public by restarting (key
 * generation fails and retries; FixedWeight retries): those single bits
 * are declassified (MC_DECLASSIFY, valgrind's client request when
 * available, see tests/sh/ct.sh).
 *
 * Internal interface (to be replaced by generated kernels, e.g. the Benes
 * network and additive FFT of docs/mceliece-fft.md): mc_benes() applies the
 * network to q 16-bit values, mc_eval() evaluates a polynomial at the
 * support, mc_synd() computes the syndrome sums. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")   /* the row operations and sorting networks are meant to be vectorised */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "qhasm.h"
#include "kem_impl.h"
#include "ref/ref.h"
#include "ref/mceliece_ref.h"
#include "ct_sort.h"
#include "mc_gauss.h"
#include "mc_fixedweight.h"

#define MC_DECLASSIFY(p, n) qhasm_declassify((p), (n))

/* A hook at the phase boundaries of decapsulation (MC_DEC_TICK(0) ..
 * MC_DEC_TICK(11), in that order), empty unless the including build
 * defines it: a measuring build records a time stamp per phase
 * (docs/mceliece-kem.md, "Decapsulation per phase"). */
#ifndef MC_DEC_TICK
#define MC_DEC_TICK(i) ((void)0)
#endif

/* The row operations of the Gaussian elimination (the sorting networks:
 * csrc/ct_sort.c) are C loops the compiler vectorises; on amd64 (gcc,
 * glibc's ifunc) they are also compiled for AVX2 and for x86-64-v4
 * (AVX-512F/BW/DQ/VL: 32 vector registers, masked and ternary-logic
 * instructions), which the loader picks on a CPU that has it (twice the
 * lanes of the baseline SSE2 and more). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__) && !MC_REF && !defined(MC_NO_CLONES)
#define MC_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define MC_CLONES
#endif

#define MC_Q        (1 << MC_M)
#define MC_MT       (MC_M * MC_T)
#define MC_K        (MC_N - MC_MT)
#define MC_ROWBYTES ((MC_K + 7) / 8)
#define MC_PKBYTES  (MC_MT * MC_ROWBYTES)
#define MC_SYNDBYTES ((MC_MT + 7) / 8)
#define MC_EBYTES   (MC_N / 8)
#define MC_CONDBYTES ((2 * MC_M - 1) * (MC_Q / 16))
#define MC_IRRBYTES (2 * MC_T)
#define MC_SKBYTES  (40 + MC_IRRBYTES + MC_CONDBYTES + MC_EBYTES)
#define MC_NW       ((MC_N + 63) / 64)                 /* words per matrix row */
/* SeededKeyGen's E: s (n bits), field ordering (32q bits), Irreducible
 * (16t bits), the next seed (256 bits) */
#define MC_EXPBYTES (MC_EBYTES + 4 * MC_Q + MC_IRRBYTES + 32)

typedef uint16_t gf;

#if MC_REF
#define MC_SHAKE qhasm_ref_shake256
#define MC_SYNDROME(s, pk, e) qhasm_ref_mceliece_syndrome(&MC_CAT(qhasm_ref_mceliece, MC_NAME), (s), (pk), (e))
#else
#define MC_SHAKE qhasm_xof_shake256
#define MC_SYNDROME MC_CAT(MC_CAT(qhasm_mceliece, MC_NAME), _syndrome)
#endif
#define MC_CAT(a, b) MC_CAT_(a, b)
#define MC_CAT_(a, b) a##b

/* ---- GF(2^m) = GF(2)[z]/f(z), constant time ----------------------------- */
/* a * b in GF(2)[z] unreduced (2m - 1 bits): the bits of a as masks, so
 * that in a loop over b with a fixed (Irreducible's products) the masks
 * are loop invariant; the reduction is linear, so sums of these can be
 * reduced once (mc_gf_red) */
static inline uint32_t mc_gf_mulx(gf a, gf b)
{
    uint32_t p = 0;
    int i;
    for (i = 0; i < MC_M; i++) p ^= ((uint32_t)b << i) & (0u - (((uint32_t)a >> i) & 1));
    return p;
}

static inline gf mc_gf_red(uint32_t p)
{
    uint32_t t;
#if MC_M == 12                              /* z^12 = z^3 + 1 */
    t = p >> 12; p = (p & 0xfff) ^ t ^ (t << 3);
    t = p >> 12; p = (p & 0xfff) ^ t ^ (t << 3);
#elif MC_M == 13                            /* z^13 = z^4 + z^3 + z + 1 */
    t = p >> 13; p = (p & 0x1fff) ^ t ^ (t << 1) ^ (t << 3) ^ (t << 4);
    t = p >> 13; p = (p & 0x1fff) ^ t ^ (t << 1) ^ (t << 3) ^ (t << 4);
#else
#error "MC_M must be 12 or 13"
#endif
    return (gf)p;
}

static inline gf mc_gf_mul(gf a, gf b)
{
    return mc_gf_red(mc_gf_mulx(b, a));
}

/* a^(2^m - 2) = prod_{i=1}^{m-1} a^(2^i): the inverse, 0 for 0 */
static inline gf mc_gf_inv(gf a)
{
    gf x = a, r = 1;
    int i;
    for (i = 1; i < MC_M; i++) {
        x = mc_gf_mul(x, x);
        r = mc_gf_mul(r, x);
    }
    return r;
}

/* all-ones if x == 0 else 0 (16-bit) */
static inline uint16_t mc_iszero16(uint32_t x)
{
    return (uint16_t)(0u - (((x & 0xffff) - 1) >> 31));
}

static inline gf mc_bitrev(gf a)
{
    uint32_t r = 0;
    int i;
    for (i = 0; i < MC_M; i++) r |= ((uint32_t)(a >> i) & 1) << (MC_M - 1 - i);
    return (gf)r;
}

static inline gf mc_load_gf(const unsigned char *p)
{
    return (gf)((p[0] | (p[1] << 8)) & (MC_Q - 1));
}

/* constant-time sorting: qhasm_ct_sort_u32/u64, csrc/ct_sort.c (shared with sntrup761) */

#if MC_REF          /* c: the generated kernel (mc_support, mc_benes_check) */
/* ---- the Benes network (specification: "permutation(c)") -------------
 * x: q values; applies the 2m-1 layers of conditional swaps given by the
 * control bits cb ((2m-1)q/2 bits, bit b at cb[b/8] bit b%8); the result
 * is x o pi for the permutation pi the bits encode. */
static void mc_benes(uint16_t *x, const unsigned char *cb)
{
    int i, base, a;
    for (i = 0; i < 2 * MC_M - 1; i++) {
        int gap = 1 << (i < 2 * MC_M - 2 - i ? i : 2 * MC_M - 2 - i);
        /* bit j = base/2 + a swaps positions base + a and base + a + gap */
        for (base = 0; base < MC_Q; base += 2 * gap)
            for (a = 0; a < gap; a++) {
                long b = (long)i * (MC_Q / 2) + base / 2 + a;
                uint16_t bit = (uint16_t)(0u - ((cb[b >> 3] >> (b & 7)) & 1));
                uint16_t d = (x[base + a] ^ x[base + a + gap]) & bit;
                x[base + a] ^= d;
                x[base + a + gap] ^= d;
            }
    }
}
#endif

/* ---- control bits (specification: "controlbits(pi)") -----------------
 * composeinv(c, pi)[i] = c[pi^-1(i)]: sort (pi[x], c[x]) by pi[x]. */
static void mc_composeinv(uint16_t *out, const uint16_t *c, const uint16_t *pi, long n, uint32_t *w)
{
    long x;
    for (x = 0; x < n; x++) w[x] = ((uint32_t)pi[x] << 16) | c[x];
    qhasm_ct_sort_u32(w, n);
    for (x = 0; x < n; x++) out[x] = (uint16_t)w[x];
}

/* (out1, out2) = (composeinv(c1, pi), composeinv(c2, pi)) for n <= 1024:
 * one sort of pi[x] << 20 | c1[x] << 10 | c2[x] (the key pi a permutation,
 * all values below n: 10 bits each) instead of two */
static void mc_composeinv2(uint16_t *out1, const uint16_t *c1, uint16_t *out2, const uint16_t *c2,
                           const uint16_t *pi, long n, uint32_t *w)
{
    long x;
    for (x = 0; x < n; x++) w[x] = ((uint32_t)pi[x] << 20) | ((uint32_t)c1[x] << 10) | c2[x];
    qhasm_ct_sort_u32(w, n);
    for (x = 0; x < n; x++) {
        out1[x] = (uint16_t)((w[x] >> 10) & 1023);
        out2[x] = (uint16_t)(w[x] & 1023);
    }
}

static inline uint16_t mc_min16(uint16_t a, uint16_t b)
{
    uint32_t lt = 0u - (((uint32_t)b - a) >> 31);     /* b < a */
    return (uint16_t)(a ^ ((a ^ b) & lt));
}

/* bits: one byte per control bit, (2lg-1) n/2 of them; pi: n = 2^lg values */
static int mc_controlbits(unsigned char *bits, const uint16_t *pi, int lg)
{
    long n = 1L << lg, x, j, i;
    uint16_t *p, *q, *c, *cp, *piinv, *F, *Fpi, *L, *M, *t1, *t2, *sub;
    uint32_t *w;
    unsigned char *subbits;
    long sublen;
    int r = 0;
    if (lg == 1) {
        bits[0] = (unsigned char)(pi[0] & 1);
        return 0;
    }
    p = malloc(12 * n * sizeof(uint16_t) + n * sizeof(uint32_t) + (size_t)(2 * lg - 3) * (n / 2));
    if (!p) return -1;
    q = p + n; c = q + n; cp = c + n; piinv = cp + n; F = piinv + n; Fpi = F + n;
    L = Fpi + n; M = L + n; t1 = M + n; t2 = t1 + n; sub = t2 + n;
    w = (uint32_t *)(sub + n);
    subbits = (unsigned char *)(w + n);
    t1[0] = 0;                              /* (n >= 4 here; for the compiler) */
    for (x = 0; x < n; x++) {
        p[x] = pi[x ^ 1];
        q[x] = pi[x] ^ 1;
        t1[x] = (uint16_t)x;
    }
    mc_composeinv(piinv, t1, pi, n, w);
    mc_composeinv(t1, p, q, n, w);
    mc_composeinv(t2, q, p, n, w);
    memcpy(p, t1, n * sizeof *p);
    memcpy(q, t2, n * sizeof *q);
    for (x = 0; x < n; x++) c[x] = mc_min16((uint16_t)x, p[x]);
    mc_composeinv(t1, p, q, n, w);
    mc_composeinv(t2, q, p, n, w);
    memcpy(p, t1, n * sizeof *p);
    memcpy(q, t2, n * sizeof *q);
    for (i = 1; i < lg - 1; i++) {
        if (lg <= 10) {
            mc_composeinv2(cp, c, t1, p, q, n, w);   /* both by q: one sort */
        } else {
            mc_composeinv(cp, c, q, n, w);
            mc_composeinv(t1, p, q, n, w);
        }
        mc_composeinv(t2, q, p, n, w);
        memcpy(p, t1, n * sizeof *p);
        memcpy(q, t2, n * sizeof *q);
        for (x = 0; x < n; x++) c[x] = mc_min16(c[x], cp[x]);
    }
    /* f: the first layer */
    for (j = 0; j < n / 2; j++) bits[j] = (unsigned char)(c[2 * j] & 1);
    for (x = 0; x < n; x++) F[x] = (uint16_t)(x ^ (c[x & ~1L] & 1));
    mc_composeinv(Fpi, F, piinv, n, w);
    /* l: the last layer */
    sublen = (long)(2 * lg - 3) * (n / 4);
    for (j = 0; j < n / 2; j++) bits[(long)(2 * lg - 2) * (n / 2) + j] = (unsigned char)(Fpi[2 * j] & 1);
    for (x = 0; x < n; x++) L[x] = (uint16_t)(x ^ (Fpi[x & ~1L] & 1));
    mc_composeinv(M, Fpi, L, n, w);
    /* the two halves, interleaved into the middle layers */
    for (i = 0; i < 2 && !r; i++) {
        for (j = 0; j < n / 2; j++) sub[j] = M[2 * j + i] >> 1;
        r = mc_controlbits(subbits, sub, lg - 1);
        for (j = 0; j < sublen; j++) bits[n / 2 + 2 * j + i] = subbits[j];
    }
    free(p);
    return r;
}

/* ---- polynomials at the support ----------------------------------------
 * Two implementations of the same two functions: element by element
 * (MC_BITSLICED 0) and bitsliced, 256 elements at a time, on this
 * project's dispatched vec256 kernels (docs/mceliece.md, layout vec256:
 * the four words of bit i at v[4i..4i+3], element 64k+j in bit j of word
 * 4i+k).  The KATs pass with either. */
#define MC_BITSLICED (!MC_REF)
#define MC_VW 4                                 /* words per bit-slice */
#define MC_VL (64 * MC_VW)                      /* elements per vector */
#define MC_VWORDS (MC_M * MC_VW)
#if MC_M == 12
#define MC_VMUL qhasm_mceliece_gf12_vec256_mul
#define MC_VSQ  qhasm_mceliece_gf12_vec256_sq
#define MC_VINV qhasm_mceliece_gf12_vec256_inv
#else
#define MC_VMUL qhasm_mceliece_gf13_vec256_mul
#define MC_VSQ  qhasm_mceliece_gf13_vec256_sq
#define MC_VINV qhasm_mceliece_gf13_vec256_inv
#endif

#if MC_BITSLICED
/* v = x[0..cnt-1] bitsliced, lanes from cnt on zero: per 64 elements one
 * 64x64 bit transpose (the dispatched kernel) */
static void mc_bs_pack(uint64_t *v, const gf *x, int cnt)
{
    uint64_t t[64];
    int k, e, i;
    for (k = 0; k < MC_VW; k++) {
        for (e = 0; e < 64; e++) t[e] = 64 * k + e < cnt ? x[64 * k + e] : 0;
        qhasm_mceliece_transpose_64x64(t, t);
        for (i = 0; i < MC_M; i++) v[MC_VW * i + k] = t[i];
    }
}

static void mc_bs_unpack(gf *x, const uint64_t *v, int cnt)
{
    uint64_t t[64];
    int k, e, i;
    for (k = 0; k < MC_VW && 64 * k < cnt; k++) {
        for (i = 0; i < 64; i++) t[i] = i < MC_M ? v[MC_VW * i + k] : 0;
        qhasm_mceliece_transpose_64x64(t, t);
        for (e = 0; e < 64 && 64 * k + e < cnt; e++) x[64 * k + e] = (gf)t[e];
    }
}

/* v = f(a) for the bitsliced vector a, Horner */
static void mc_bs_eval(uint64_t *v, const gf *f, int deg, const uint64_t *a)
{
    int i, j, k;
    for (i = 0; i < MC_M; i++)
        for (k = 0; k < MC_VW; k++) v[MC_VW * i + k] = 0 - (uint64_t)((f[deg] >> i) & 1);
    for (j = deg - 1; j >= 0; j--) {
        MC_VMUL(v, v, a);
        for (i = 0; i < MC_M; i++) {
            uint64_t c = 0 - (uint64_t)((f[j] >> i) & 1);
            for (k = 0; k < MC_VW; k++) v[MC_VW * i + k] ^= c;
        }
    }
}

/* ---- bit-planes (docs/mceliece-fft.md): the generated Benes network and
 * additive FFT kernels.  A plane is q bits in MC_PW words, position e at
 * bit e % 64 of word e / 64; m planes hold q field elements. */
#define MC_PW (MC_Q / 64)
#define MC_NG (MC_PW / MC_VW)                    /* vec256 groups of q points */
#define MC_IW 8                                  /* 1/g^2: vec512 groups, words per plane */
#define MC_IWORDS (MC_M * MC_IW)
#define MC_IG (MC_PW / MC_IW)
#if MC_M == 12
#define MC_BENES qhasm_mceliece_gf12_benes
#define MC_BENES_BITS qhasm_mceliece_gf12_benes_bits
#define MC_BENES_BITS_INV qhasm_mceliece_gf12_benes_bits_inv
#define MC_FFT qhasm_mceliece_gf12_fft
#define MC_FFT_TR qhasm_mceliece_gf12_fft_tr
#define MC_PRIM_FFT QHASM_PRIM_MCELIECE_GF12_FFT
#define MC_PRIM_FFT_TR QHASM_PRIM_MCELIECE_GF12_FFT_TR
#define MC_PRIM_BM QHASM_PRIM_MCELIECE_GF12_BM
#define MC_PRIM_PFX(x) QHASM_PRIM_MCELIECE_GF12_##x
#define MC_SW 2                                 /* fft_tr: 128 sums per plane */
#else
#define MC_BENES qhasm_mceliece_gf13_benes
#define MC_BENES_BITS qhasm_mceliece_gf13_benes_bits
#define MC_BENES_BITS_INV qhasm_mceliece_gf13_benes_bits_inv
#define MC_FFT qhasm_mceliece_gf13_fft
#define MC_FFT_TR qhasm_mceliece_gf13_fft_tr
#define MC_PRIM_FFT QHASM_PRIM_MCELIECE_GF13_FFT
#define MC_PRIM_FFT_TR QHASM_PRIM_MCELIECE_GF13_FFT_TR
#define MC_PRIM_BM QHASM_PRIM_MCELIECE_GF13_BM
#define MC_PRIM_PFX(x) QHASM_PRIM_MCELIECE_GF13_##x
#define MC_SW 4                                 /* fft_tr: 256 sums per plane */
#endif

/* 1 if the FFT and its transpose run a generated kernel (amd64, ppc64):
 * their reference C (Horner at every point) is much slower than the
 * vec256 evaluation at the n support elements, which the other targets
 * keep */
static int mc_use_fft(void)
{
    const qhasm_impl *a = qhasm_select(MC_PRIM_FFT, 0), *b = qhasm_select(MC_PRIM_FFT_TR, 0);
    return a != qhasm_impl_get(MC_PRIM_FFT, QHASM_REF(MC_PRIM_FFT))
        && b != qhasm_impl_get(MC_PRIM_FFT_TR, QHASM_REF(MC_PRIM_FFT_TR));
}

/* v = the m planes of the indices: plane b position e = bit b of e
 * (rev: bit m-1-b, the field element P(e) = bitrev(e)) */
static void mc_index_planes(uint64_t *v, int rev)
{
    static const uint64_t pat[6] = {
        0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull, 0xF0F0F0F0F0F0F0F0ull,
        0xFF00FF00FF00FF00ull, 0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull };
    int b, k;
    for (b = 0; b < MC_M; b++) {
        int src = rev ? MC_M - 1 - b : b;
        for (k = 0; k < MC_PW; k++)
            v[b * MC_PW + k] = src < 6 ? pat[src] : 0 - (uint64_t)((k >> (src - 6)) & 1);
    }
}

/* m planes from q values x (and back), 64x64 bit transposes */
static void mc_planes_pack(uint64_t *v, const uint16_t *x)
{
    uint64_t t[64];
    int k, e, i;
    for (k = 0; k < MC_PW; k++) {
        for (e = 0; e < 64; e++) t[e] = x[64 * k + e];
        qhasm_mceliece_transpose_64x64(t, t);
        for (i = 0; i < MC_M; i++) v[i * MC_PW + k] = t[i];
    }
}

static void mc_planes_unpack(uint16_t *x, const uint64_t *v, int cnt)
{
    uint64_t t[64];
    int k, e, i;
    for (k = 0; k < MC_PW && 64 * k < cnt; k++) {
        for (i = 0; i < 64; i++) t[i] = i < MC_M ? v[i * MC_PW + k] : 0;
        qhasm_mceliece_transpose_64x64(t, t);
        for (e = 0; e < 64 && 64 * k + e < cnt; e++) x[64 * k + e] = (uint16_t)t[e];
    }
}

/* the support alpha_0 .. alpha_(n-1) from the control bits: the Benes
 * kernel on the planes of bitrev(e) */
/* The kernels take their arguments 8-byte aligned (the manifest's align
 * 8; SPARC traps on unaligned loads), the control bits inside the secret
 * key are not: a copy into w (MC_CBWORDS words) */
#define MC_CBWORDS ((MC_CONDBYTES + 7) / 8)
static const unsigned char *mc_cb_copy(uint64_t *w, const unsigned char *cb)
{
    memcpy(w, cb, MC_CONDBYTES);
    return (const unsigned char *)w;
}

static void mc_support(gf *alpha, const unsigned char *cb)
{
    uint64_t *v = malloc(sizeof(uint64_t) * (MC_M * MC_PW + MC_CBWORDS));
    if (!v) abort();
    cb = mc_cb_copy(v + MC_M * MC_PW, cb);
    mc_index_planes(v, 1);
    MC_BENES(v, cb);
    mc_planes_unpack(alpha, v, MC_N);
    free(v);
}

/* 1 if the control bits cb give the permutation pi (the key generation's
 * internal check), constant time but for the declassified answer */
static int mc_benes_check(const unsigned char *cb, const uint16_t *pi)
{
    uint64_t *v = malloc(sizeof(uint64_t) * (2 * MC_M * MC_PW + MC_CBWORDS)), diff = 0;
    int i;
    if (!v) abort();
    cb = mc_cb_copy(v + 2 * MC_M * MC_PW, cb);
    mc_index_planes(v, 0);
    MC_BENES(v, cb);
    mc_planes_pack(v + MC_M * MC_PW, pi);
    for (i = 0; i < MC_M * MC_PW; i++) diff |= v[i] ^ v[MC_M * MC_PW + i];
    free(v);
    MC_DECLASSIFY(&diff, sizeof diff);
    return diff == 0;
}

/* f (the FFT's input: 128 coefficients, plane b at f[2b], f[2b+1]) from
 * the coefficients c[0..deg] */
static void mc_fft_input(uint64_t *f, const gf *c, int deg)
{
    int b, k;
    for (b = 0; b < 2 * MC_M; b++) f[b] = 0;
    for (k = 0; k <= deg; k++)
        for (b = 0; b < MC_M; b++) f[2 * b + k / 64] |= (uint64_t)((c[k] >> b) & 1) << (k % 64);
}

/* Berlekamp-Massey, bitsliced on the vec256 kernels, constant time (fixed
 * 2t iterations, masks); the inversion-free form: C = b C + d x B (B
 * already times x), which is the usual C + (d/b) x B times the nonzero b,
 * so the roots are the same.  V holds C in lanes 0..127 and B in lanes
 * 128..255; S is the window s_N, s_(N-1), ..., s_0 in lanes 0..N.
 * syn(N, b) = bit b of s_N.  sigma[i] = C_(t-i), i <= t. */
static void mc_bm_bs(gf *sigma, const uint64_t *s)
{
    uint64_t V[MC_VWORDS], S[MC_VWORDS], G[MC_VWORDS], P[MC_VWORDS];
    uint32_t L = 0;
    uint16_t bsc = 1;                                /* b */
    int N, i, k;
    for (i = 0; i < MC_VWORDS; i++) V[i] = S[i] = 0;
    V[0] = 1;                                        /* C = 1 */
    V[2] = 2;                                        /* B = x */
    for (N = 0; N < 2 * MC_T; N++) {
        uint16_t d = 0, nz, up;
        for (i = 0; i < MC_M; i++) {                 /* S = x S + s_N */
            uint64_t bit = (s[MC_SW * i + N / 64] >> (N % 64)) & 1;
            S[4 * i + 1] = (S[4 * i + 1] << 1) | (S[4 * i] >> 63);
            S[4 * i] = (S[4 * i] << 1) | bit;
        }
        MC_VMUL(P, V, S);                            /* lanes 0..127: C_i s_(N-i) */
        {
            /* bit i of d = parity of plane i's 128 lanes: the planes'
             * 64-bit words folded two at a time into the halves of one
             * word, then sixteen bits and eight (fewer operations than a
             * fold per plane; no table, no branch) */
            uint64_t y[MC_M + 1], z[(MC_M + 1) / 2];
            for (i = 0; i < MC_M; i++) {
                uint64_t x = P[4 * i] ^ P[4 * i + 1];
                y[i] = x ^ (x >> 32);                 /* parity in bits 0..31 */
            }
            y[MC_M] = 0;
            for (i = 0; i < (MC_M + 1) / 2; i++) {
                uint64_t x = (y[2 * i] & 0xffffffffull) | (y[2 * i + 1] << 32);
                x ^= x >> 16; x ^= x >> 8; x ^= x >> 4; x ^= x >> 2; x ^= x >> 1;
                z[i] = x & 0x0000000100000001ull;     /* planes 2i, 2i+1 */
            }
            for (i = 0; i < (MC_M + 1) / 2; i++)
                d |= (uint16_t)(((z[i] & 1) | ((z[i] >> 31) & 2)) << (2 * i));
        }
        nz = (uint16_t)~mc_iszero16(d);
        up = nz & (uint16_t)(0u - ((2 * L - (uint32_t)N - 1) >> 31));  /* 2L <= N */
        for (i = 0; i < MC_M; i++) {
            G[4 * i] = G[4 * i + 1] = 0 - (uint64_t)((bsc >> i) & 1);
            G[4 * i + 2] = G[4 * i + 3] = 0 - (uint64_t)((d >> i) & 1);
        }
        MC_VMUL(P, V, G);                            /* b C | d B */
        {
            uint64_t upm = 0 - (uint64_t)(up & 1);
            for (i = 0; i < MC_M; i++) {
                uint64_t c0 = V[4 * i], c1 = V[4 * i + 1];
                uint64_t b0 = (V[4 * i + 2] & ~upm) | (c0 & upm);
                uint64_t b1 = (V[4 * i + 3] & ~upm) | (c1 & upm);
                V[4 * i] = P[4 * i] ^ P[4 * i + 2];
                V[4 * i + 1] = P[4 * i + 1] ^ P[4 * i + 3];
                V[4 * i + 3] = (b1 << 1) | (b0 >> 63);  /* B = x B */
                V[4 * i + 2] = b0 << 1;
            }
        }
        L = (L & ~(uint32_t)(int16_t)up) | (((uint32_t)N + 1 - L) & (uint32_t)(int16_t)up);
        bsc = (uint16_t)((bsc & ~up) | (d & up));
    }
    for (k = 0; k <= MC_T; k++) {
        gf c = 0;
        for (i = 0; i < MC_M; i++) c |= (gf)(((V[4 * i + k / 64] >> (k % 64)) & 1) << i);
        sigma[MC_T - k] = c;
    }
}

#endif

/* out[i] = f(pts[i]), f of degree deg (deg+1 coefficients) */
static void mc_eval(gf *out, const gf *f, int deg, const gf *pts, int npts)
{
#if MC_BITSLICED
    uint64_t a[MC_VWORDS], v[MC_VWORDS];
    int i;
    for (i = 0; i < npts; i += MC_VL) {
        int cnt = npts - i < MC_VL ? npts - i : MC_VL;
        mc_bs_pack(a, pts + i, cnt);
        mc_bs_eval(v, f, deg, a);
        mc_bs_unpack(out + i, v, cnt);
    }
#else
    int i, j;
    for (i = 0; i < npts; i++) {
        gf r = f[deg], a = pts[i];
        for (j = deg - 1; j >= 0; j--) r = mc_gf_mul(r, a) ^ f[j];
        out[i] = r;
    }
#endif
}

/* x[i] = 1/x[i] (squared first if sq), 0 for 0 */
static void mc_inv_all(gf *x, int cnt, int sq)
{
#if MC_BITSLICED
    uint64_t v[MC_VWORDS];
    int i;
    for (i = 0; i < cnt; i += MC_VL) {
        int c = cnt - i < MC_VL ? cnt - i : MC_VL;
        mc_bs_pack(v, x + i, c);
        if (sq) MC_VSQ(v, v);
        MC_VINV(v, v);
        mc_bs_unpack(x + i, v, c);
    }
#else
    int i;
    for (i = 0; i < cnt; i++) x[i] = mc_gf_inv(sq ? mc_gf_mul(x[i], x[i]) : x[i]);
#endif
}

/* syndrome sums out[j] = sum_i w[i] pts[i]^j, j = 0..2t-1 */
static void mc_synd(gf *out, const gf *w, const gf *pts, int npts)
{
#if MC_BITSLICED
    uint64_t *acc = calloc((size_t)2 * MC_T * MC_VWORDS, sizeof(uint64_t));
    uint64_t a[MC_VWORDS], v[MC_VWORDS];
    int i, j, k;
    if (!acc) abort();
    for (i = 0; i < npts; i += MC_VL) {
        int cnt = npts - i < MC_VL ? npts - i : MC_VL;
        mc_bs_pack(a, pts + i, cnt);
        mc_bs_pack(v, w + i, cnt);
        for (j = 0; j < 2 * MC_T; j++) {
            uint64_t *s = acc + (size_t)j * MC_VWORDS;
            for (k = 0; k < MC_VWORDS; k++) s[k] ^= v[k];
            if (j + 1 < 2 * MC_T) MC_VMUL(v, v, a);
        }
    }
    for (j = 0; j < 2 * MC_T; j++) {
        const uint64_t *s = acc + (size_t)j * MC_VWORDS;
        uint32_t r = 0;
        for (i = 0; i < MC_M; i++) {
            uint64_t x = 0;
            for (k = 0; k < MC_VW; k++) x ^= s[MC_VW * i + k];
            x ^= x >> 32; x ^= x >> 16; x ^= x >> 8; x ^= x >> 4; x ^= x >> 2; x ^= x >> 1;
            r |= (uint32_t)(x & 1) << i;
        }
        out[j] = (gf)r;
    }
    free(acc);
#else
    int i, j;
    for (j = 0; j < 2 * MC_T; j++) out[j] = 0;
    for (i = 0; i < npts; i++) {
        gf e = w[i], a = pts[i];
        for (j = 0; j < 2 * MC_T; j++) {
            out[j] ^= e;
            e = mc_gf_mul(e, a);
        }
    }
#endif
}

/* c = a * b in GF(q)[y]/F(y) (t coefficients each); MC_CLONES here and in
 * mc_irreducible: the loops over coefficients are vectorised (32-bit lanes);
 * the coefficient products summed unreduced, each sum reduced once */
MC_CLONES static void mc_polymul_F(gf *c, const gf *a, const gf *b)
{
    uint32_t prodx[2 * MC_T - 1];
    gf prod[2 * MC_T - 1];
    int i, j;
    for (i = 0; i < 2 * MC_T - 1; i++) prodx[i] = 0;
    for (i = 0; i < MC_T; i++)
        for (j = 0; j < MC_T; j++) prodx[i + j] ^= mc_gf_mulx(a[i], b[j]);
    for (i = 0; i < 2 * MC_T - 1; i++) prod[i] = mc_gf_red(prodx[i]);
    for (i = 2 * MC_T - 2; i >= MC_T; i--) MC_FY_REDUCE(prod, i);
    for (i = 0; i < MC_T; i++) c[i] = prod[i];
}

/* Irreducible: g = the minimal polynomial of beta over GF(q), monic of
 * degree t (g[0..t-1]; g_t = 1), by Gaussian elimination on
 * sum_{j<t} g_j beta^j = beta^t; 0 on success, -1 if the degree is below t */
MC_CLONES static int mc_irreducible(gf *g, const gf *beta)
{
    static const int cols = MC_T + 1;
    gf *mat = malloc(sizeof(gf) * MC_T * (MC_T + 1)), pw[MC_T], tmp[MC_T];
    int i, j, k, fail = 0;
    if (!mat) return -2;
    /* column j of mat = beta^j (coefficient i in row i) */
    for (i = 0; i < MC_T; i++) pw[i] = 0;
    pw[0] = 1;
    for (j = 0; j <= MC_T; j++) {
        for (i = 0; i < MC_T; i++) mat[i * cols + j] = pw[i];
        if (j == 0) memcpy(pw, beta, sizeof pw);
        else {
            mc_polymul_F(tmp, pw, beta);
            memcpy(pw, tmp, sizeof pw);
        }
    }
    for (j = 0; j < MC_T; j++) {
        gf inv;
        /* row k is added iff rows j .. k-1 are all zero in column j (an
         * added zero leaves the pivot zero): the flag nz (their OR) decides,
         * not the pivot being built (a serial chain through the row sums) */
        uint16_t nz = (uint16_t)~mc_iszero16(mat[j * cols + j]);
        for (k = j + 1; k < MC_T; k++) {
            uint16_t z = (uint16_t)~nz;
            for (i = j; i < cols; i++) mat[j * cols + i] ^= mat[k * cols + i] & z;
            nz |= (uint16_t)~mc_iszero16(mat[k * cols + j]);
        }
        {
            uint16_t z = mc_iszero16(mat[j * cols + j]);
            fail |= z;
        }
        inv = mc_gf_inv(mat[j * cols + j]);
        for (i = j; i < cols; i++) mat[j * cols + i] = mc_gf_red(mc_gf_mulx(inv, mat[j * cols + i]));
        for (k = 0; k < MC_T; k++) {
            gf f;
            if (k == j) continue;
            f = mat[k * cols + j];
            for (i = j; i < cols; i++) mat[k * cols + i] ^= mc_gf_red(mc_gf_mulx(f, mat[j * cols + i]));
        }
    }
    for (i = 0; i < MC_T; i++) g[i] = mat[i * cols + MC_T];
    free(mat);
    MC_DECLASSIFY(&fail, sizeof fail);
    return fail ? -1 : 0;
}

/* ---- key generation --------------------------------------------------- */
/* FieldOrdering: pi and the support alpha (first n) from 32q random bits;
 * -1 if two of the 32-bit values are equal */
static int mc_field_ordering(uint16_t *pi, gf *alpha, const unsigned char *r)
{
    uint64_t *v = malloc(sizeof(uint64_t) * MC_Q);
    uint64_t dup = 0;
    long i;
    if (!v) return -2;
    for (i = 0; i < MC_Q; i++) {
        const unsigned char *p = r + 4 * i;
        uint64_t a = (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
        v[i] = (a << 16) | (uint64_t)i;
    }
    qhasm_ct_sort_u64(v, MC_Q);
    for (i = 1; i < MC_Q; i++) {
        uint64_t d = (v[i - 1] ^ v[i]) >> 16;          /* 0 iff equal a */
        dup |= 1 ^ ((d | (0 - d)) >> 63);
    }
    for (i = 0; i < MC_Q; i++) pi[i] = (uint16_t)(v[i] & 0xffff);
    for (i = 0; i < MC_N; i++) alpha[i] = mc_bitrev(pi[i]);
    free(v);
    MC_DECLASSIFY(&dup, sizeof dup);
    return dup ? -1 : 0;
}

/* The public key is T of (I_mt | T): row i of T starts at bit mt of matrix
 * row i (rows `stride` words apart), packed into MC_ROWBYTES bytes. */
static void mc_pk_rows(unsigned char *pk, const uint64_t *mat, long stride)
{
    long i, j;
    for (i = 0; i < MC_MT; i++) {
        const uint64_t *row = mat + i * stride;
        unsigned char *out = pk + i * MC_ROWBYTES;
        for (j = 0; j < MC_ROWBYTES; j++) {
            long o = MC_MT + 8 * j, w = o / 64;
            int s = (int)(o % 64);
            uint64_t v = row[w] >> s;
            if (s > 56) v |= row[w + 1] << (64 - s);
            out[j] = (unsigned char)v;
        }
    }
}

/* MatGen: the public key T of the systematic form (I_mt | T) of the
 * parity-check matrix; -1 if the left mt x mt block is singular.
 * c: the rows from bitsliced vectors (a plane of 256 elements is 4 matrix
 * words) and the blocked elimination of csrc/mc_gauss.c; ref: bit by bit
 * and the textbook elimination, one pivot per pass (the comparison of c
 * against ref checks one against the other). */
#if MC_BITSLICED
#define MC_MS QHASM_MC_GAUSS_STRIDE(MC_NW)             /* matrix row stride, words */
static int mc_matgen(unsigned char *pk, const gf *g, const gf *alpha)
{
    enum { NG = (MC_N + MC_VL - 1) / MC_VL };
    uint64_t *mat = calloc((size_t)MC_MT * MC_MS, sizeof(uint64_t));
    uint64_t *va = malloc(sizeof(uint64_t) * 2 * NG * MC_VWORDS), *vv;
    gf *inv = malloc(sizeof(gf) * MC_N), gt[MC_T + 1];
    long i, G;
    int b, k, r;
    if (!mat || !inv || !va) { free(mat); free(inv); free(va); return -2; }
    vv = va + NG * MC_VWORDS;
    memcpy(gt, g, sizeof(gf) * MC_T);
    gt[MC_T] = 1;
    mc_eval(inv, gt, MC_T, alpha, MC_N);
    mc_inv_all(inv, MC_N, 0);
    for (G = 0; G < NG; G++) {
        int cnt = MC_N - G * MC_VL < MC_VL ? (int)(MC_N - G * MC_VL) : MC_VL;
        mc_bs_pack(va + G * MC_VWORDS, alpha + G * MC_VL, cnt);
        mc_bs_pack(vv + G * MC_VWORDS, inv + G * MC_VL, cnt);   /* lanes >= n: 0 */
    }
    /* row i*m + b, word 4G + k: plane b, word k of group G of alpha^i / g(alpha) */
    for (i = 0; i < MC_T; i++)
        for (G = 0; G < NG; G++) {
            uint64_t *v = vv + G * MC_VWORDS;
            for (b = 0; b < MC_M; b++)
                for (k = 0; k < MC_VW && MC_VW * G + k < MC_NW; k++)
                    mat[(i * MC_M + b) * MC_MS + MC_VW * G + k] = v[MC_VW * b + k];
            if (i + 1 < MC_T) MC_VMUL(v, v, va + G * MC_VWORDS);
        }
    r = qhasm_mc_gauss_systematic(mat, MC_MT, MC_NW, MC_MS);
    if (!r) mc_pk_rows(pk, mat, MC_MS);
    free(mat);
    free(inv);
    free(va);
    return r;
}
#else
static int mc_matgen(unsigned char *pk, const gf *g, const gf *alpha)
{
    uint64_t *mat = calloc((size_t)MC_MT * (MC_NW + 1), sizeof(uint64_t));
    gf *inv = malloc(sizeof(gf) * MC_N), gt[MC_T + 1];
    long i, j, k, r;
    int fail = 0;
    if (!mat || !inv) { free(mat); free(inv); return -2; }
    memcpy(gt, g, sizeof(gf) * MC_T);
    gt[MC_T] = 1;
    mc_eval(inv, gt, MC_T, alpha, MC_N);
    mc_inv_all(inv, MC_N, 0);
    /* row i*m + b, column j: bit b of alpha_j^i / g(alpha_j) */
    for (i = 0; i < MC_T; i++) {
        for (j = 0; j < MC_N; j++) {
            for (k = 0; k < MC_M; k++)
                mat[(i * MC_M + k) * (MC_NW + 1) + j / 64] |= (uint64_t)((inv[j] >> k) & 1) << (j % 64);
            inv[j] = mc_gf_mul(inv[j], alpha[j]);
        }
    }
    /* Gaussian elimination to (I_mt | T), constant time */
    for (r = 0; r < MC_MT; r++) {
        uint64_t *row = mat + r * (MC_NW + 1);
        long w0 = r / 64;
        int sh = (int)(r % 64);
        uint64_t piv;
        for (k = r + 1; k < MC_MT; k++) {
            uint64_t *o = mat + k * (MC_NW + 1);
            uint64_t msk = ((row[w0] >> sh) & 1) - 1;       /* pivot bit zero: add row k */
            for (j = w0; j < MC_NW; j++) row[j] ^= o[j] & msk;
        }
        piv = (row[w0] >> sh) & 1;
        fail |= (int)(1 ^ piv);
        for (k = 0; k < MC_MT; k++) {
            uint64_t *o = mat + k * (MC_NW + 1);
            uint64_t msk;
            if (k == r) continue;
            msk = 0 - ((o[w0] >> sh) & 1);
            for (j = w0; j < MC_NW; j++) o[j] ^= row[j] & msk;
        }
    }
    MC_DECLASSIFY(&fail, sizeof fail);
    if (!fail) mc_pk_rows(pk, mat, MC_NW + 1);
    free(mat);
    free(inv);
    return fail ? -1 : 0;
}

#endif

/* SeededKeyGen from delta (32 bytes); -1: retry with the next seed (in
 * next), -2: out of memory */
static int mc_seeded_keygen(unsigned char *pk, unsigned char *sk, const unsigned char *delta,
                            unsigned char *next, unsigned char *E, uint16_t *pi, gf *alpha,
                            unsigned char *bits)
{
    unsigned char in[33];
    gf beta[MC_T], g[MC_T];
    int i, r;
    in[0] = 64;
    memcpy(in + 1, delta, 32);
    MC_SHAKE(E, MC_EXPBYTES, in, 33);
    memcpy(next, E + MC_EXPBYTES - 32, 32);
    r = mc_field_ordering(pi, alpha, E + MC_EBYTES);
    if (r) return r;
    for (i = 0; i < MC_T; i++) beta[i] = mc_load_gf(E + MC_EBYTES + 4 * MC_Q + 2 * i);
    r = mc_irreducible(g, beta);
    if (r) return r;
    r = mc_matgen(pk, g, alpha);
    if (r) return r;
    /* secret key: delta, c = 2^32 - 1 (64 bits), g, control bits, s */
    memcpy(sk, delta, 32);
    sk[32] = sk[33] = sk[34] = sk[35] = 0xff;
    sk[36] = sk[37] = sk[38] = sk[39] = 0;
    for (i = 0; i < MC_T; i++) {
        sk[40 + 2 * i] = (unsigned char)g[i];
        sk[41 + 2 * i] = (unsigned char)(g[i] >> 8);
    }
    if (mc_controlbits(bits, pi, MC_M)) return -2;
    {
        unsigned char *cb = sk + 40 + MC_IRRBYTES;
        long b;
        uint16_t chk[MC_Q];
        uint16_t diff = 0;
        memset(cb, 0, MC_CONDBYTES);
        for (b = 0; b < (long)MC_CONDBYTES * 8; b++) cb[b >> 3] |= (unsigned char)(bits[b] << (b & 7));
        /* the network must give pi back: an internal check, never fails */
#if MC_BITSLICED
        (void)chk; (void)diff;
        if (!mc_benes_check(cb, pi)) abort();
#else
        for (b = 0; b < MC_Q; b++) chk[b] = (uint16_t)b;
        mc_benes(chk, cb);
        for (b = 0; b < MC_Q; b++) diff |= chk[b] ^ pi[b];
        MC_DECLASSIFY(&diff, sizeof diff);
        if (diff) abort();
#endif
    }
    memcpy(sk + 40 + MC_IRRBYTES + MC_CONDBYTES, E, MC_EBYTES);
    return 0;
}

int MC_PREFIX(keypair)(unsigned char *pk, unsigned char *sk);
int MC_PREFIX(enc)(unsigned char *c, unsigned char *key, const unsigned char *pk);
int MC_PREFIX(dec)(unsigned char *key, const unsigned char *c, const unsigned char *sk);

int MC_PREFIX(keypair)(unsigned char *pk, unsigned char *sk)
{
    unsigned char seed[32], next[32];
    unsigned char *E = malloc(MC_EXPBYTES);
    uint16_t *pi = malloc(sizeof(uint16_t) * MC_Q);
    gf *alpha = malloc(sizeof(gf) * MC_N);
    unsigned char *bits = malloc((size_t)MC_CONDBYTES * 8);
    int r = -2;
    if (E && pi && alpha && bits) {
        qhasm_randombytes(seed, 32);
        for (;;) {
            r = mc_seeded_keygen(pk, sk, seed, next, E, pi, alpha, bits);
            if (r != -1) break;
            memcpy(seed, next, 32);
        }
    }
    free(E); free(pi); free(alpha); free(bits);
    return r == 0 ? 0 : -1;
}

/* ---- encapsulation ---------------------------------------------------- */
/* FixedWeight: e of weight t; tau = 2t candidates per attempt (n < q).
 * One attempt on the 4t random bytes in buf: ind = the first t candidates
 * below n; 1 if there were fewer or two are equal, else 0.  Written so
 * that the compiler vectorises the loops over the t entries (16-bit
 * lanes); csrc/mc_fixedweight.c has the AVX-512 form, used where it runs
 * (the results are the same). */
MC_CLONES static uint16_t mc_fw_attempt(uint16_t *ind, const unsigned char *buf)
{
    uint16_t count = 0, eq = 0;
    int i, j;
    for (j = 0; j < MC_T; j++) ind[j] = 0;
    for (i = 0; i < 2 * MC_T; i++) {
        uint16_t d = mc_load_gf(buf + 2 * i);
        uint16_t ok = (uint16_t)((0u - (((uint32_t)d - MC_N) >> 31)) & (0u - (((uint32_t)count - MC_T) >> 31))); /* d < n, count < t */
        for (j = 0; j < MC_T; j++) {
            uint16_t here = ok & (uint16_t)(((int16_t)(((uint16_t)j ^ count) - 1)) >> 15);   /* j == count */
            ind[j] = (uint16_t)(ind[j] ^ ((ind[j] ^ d) & here));
        }
        count = (uint16_t)(count + (ok & 1));
    }
    for (i = 1; i < MC_T; i++) {
        uint16_t x = ind[i], acc = 0;
        for (j = 0; j < i; j++) acc |= (uint16_t)(((int16_t)((uint16_t)(x ^ ind[j]) - 1)) >> 15);
        eq |= acc & 1;
    }
    eq |= (uint16_t)(((uint32_t)count - MC_T) >> 31);           /* fewer than t */
    return eq;
}

/* e as 64-bit words, then bytes (little-endian bit order) */
MC_CLONES static void mc_fw_expand(unsigned char *e, const uint16_t *ind)
{
    uint64_t w[(MC_N + 63) / 64], bit[MC_T], wi[MC_T];
    int i, j;
    for (j = 0; j < MC_T; j++) {
        bit[j] = (uint64_t)1 << (ind[j] & 63);
        wi[j] = ind[j] >> 6;
    }
    for (i = 0; i < (MC_N + 63) / 64; i++) {
        uint64_t b = 0;
        for (j = 0; j < MC_T; j++) b |= bit[j] & (0 - (((wi[j] ^ (uint64_t)i) - 1) >> 63));
        w[i] = b;
    }
    for (i = 0; i < MC_EBYTES; i++) e[i] = (unsigned char)(w[i / 8] >> (8 * (i % 8)));
}

static void mc_fixed_weight(unsigned char *e)
{
    unsigned char buf[4 * MC_T];
    uint16_t ind[MC_T], eq;
    int vec = !MC_REF && qhasm_mc_fw_avx512(MC_N, MC_T, MC_M);
    for (;;) {
        qhasm_randombytes(buf, sizeof buf);
        eq = vec ? (uint16_t)qhasm_mc_fw_select_avx512(ind, buf, MC_N, MC_T, MC_M) : mc_fw_attempt(ind, buf);
        MC_DECLASSIFY(&eq, sizeof eq);
        if (!eq) break;
    }
    if (vec)
        qhasm_mc_fw_expand_avx512(e, ind, MC_N, MC_T);
    else
        mc_fw_expand(e, ind);
}

/* 0xff if a padding bit (above k in a public-key row's last byte, above mt
 * in the ciphertext's last byte) is set, else 0; without branches (the
 * constant-time check marks the ciphertext secret) */
static inline unsigned char mc_nonzero8(uint32_t x)
{
    return (unsigned char)(0u - ((x + 0xff) >> 8));     /* x <= 0xff */
}

static unsigned char mc_pk_padding_bad(const unsigned char *pk)
{
#if MC_K % 8
    unsigned char b = 0;
    long i;
    for (i = 0; i < MC_MT; i++) b |= pk[i * MC_ROWBYTES + MC_ROWBYTES - 1];
    return mc_nonzero8((uint32_t)b >> (MC_K % 8));
#else
    (void)pk;
    return 0;
#endif
}

static unsigned char mc_c_padding_bad(const unsigned char *c)
{
#if MC_MT % 8
    return mc_nonzero8((uint32_t)c[MC_SYNDBYTES - 1] >> (MC_MT % 8));
#else
    (void)c;
    return 0;
#endif
}

int MC_PREFIX(enc)(unsigned char *c, unsigned char *key, const unsigned char *pk)
{
    unsigned char buf[1 + MC_EBYTES + MC_SYNDBYTES], k[32];
    unsigned char *e = buf + 1, *s = buf + 1 + MC_EBYTES;
    unsigned char bad = mc_pk_padding_bad(pk);
    int i;
    mc_fixed_weight(e);
    MC_SYNDROME(s, pk, e);
    buf[0] = 1;
    MC_SHAKE(k, 32, buf, sizeof buf);
    /* the round-4 reference: a padding bit set gives zero outputs and -1 */
    for (i = 0; i < MC_SYNDBYTES; i++) s[i] &= (unsigned char)~bad;
    for (i = 0; i < 32; i++) k[i] &= (unsigned char)~bad;
    memcpy(c, s, MC_SYNDBYTES);
    memcpy(key, k, 32);
    memset(buf, 0, sizeof buf);
    return -(int)(bad & 1);
}

/* ---- decapsulation ---------------------------------------------------- */
#if !MC_BITSLICED
/* Berlekamp-Massey: sigma (t+1 coefficients) with roots the error
 * positions, from the 2t syndromes s; constant time */
static void mc_bm(gf *sigma, const gf *s)
{
    gf C[MC_T + 1], B[MC_T + 1], T[MC_T + 1], b = 1;
    uint32_t L = 0;
    int N, i;
    for (i = 0; i <= MC_T; i++) C[i] = B[i] = 0;
    C[0] = 1;
    B[1] = 1;                                       /* B = x * (previous C) */
    for (N = 0; N < 2 * MC_T; N++) {
        gf d = 0, f;
        uint16_t nz, up;
        for (i = 0; i <= MC_T && i <= N; i++) d ^= mc_gf_mul(C[i], s[N - i]);
        nz = (uint16_t)~mc_iszero16(d);
        up = nz & (uint16_t)(0u - ((2 * L - (uint32_t)N - 1) >> 31));  /* 2L <= N */
        f = mc_gf_mul(d, mc_gf_inv(b));
        for (i = 0; i <= MC_T; i++) {
            T[i] = C[i];
            C[i] ^= mc_gf_mul(f, B[i]);
        }
        L = (L & ~(uint32_t)(int16_t)up) | (((uint32_t)N + 1 - L) & (uint32_t)(int16_t)up);
        for (i = 0; i <= MC_T; i++) B[i] = (gf)((B[i] & ~up) | (T[i] & up));
        b = (gf)((b & ~up) | (d & up));
        for (i = MC_T; i >= 1; i--) B[i] = B[i - 1];
        B[0] = 0;
    }
    for (i = 0; i <= MC_T; i++) sigma[i] = C[MC_T - i];
}
#endif

#if MC_BITSLICED
/* the population count of x, without table or branch */
static inline uint32_t mc_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* The kernels of one decapsulation, resolved once per call (the public
 * wrappers select on every call; the same choice, QHASM_IMPL and
 * qhasm_impl_force included).  bm is 0 where the Berlekamp-Massey kernel
 * is only its reference (scalar): mc_bm_bs is used there. */
typedef void mc_pp_fn(uint64_t *, const uint64_t *);
typedef void mc_pc_fn(uint64_t *, const unsigned char *);
#define MC_KFN(T, P) ((T *)qhasm_select((P), 0)->fn[0])
typedef struct {
    mc_pp_fn *fft, *fft_tr, *vsq, *vinv, *bm;
    void (*vmul)(uint64_t *, const uint64_t *, const uint64_t *);
    mc_pc_fn *bits, *bits_inv;
} mc_dec_kernels;

static void mc_dec_kernels_get(mc_dec_kernels *k)
{
    const qhasm_impl *bm = qhasm_select(MC_PRIM_BM, 0);
    k->fft = MC_KFN(mc_pp_fn, MC_PRIM_FFT);
    k->fft_tr = MC_KFN(mc_pp_fn, MC_PRIM_FFT_TR);
    k->vsq = MC_KFN(mc_pp_fn, MC_PRIM_PFX(VEC512_SQ));
    k->vinv = MC_KFN(mc_pp_fn, MC_PRIM_PFX(VEC512_INV));
    k->vmul = (void (*)(uint64_t *, const uint64_t *, const uint64_t *))qhasm_select(MC_PRIM_PFX(VEC512_MUL), 0)->fn[0];
    k->bits = MC_KFN(mc_pc_fn, MC_PRIM_PFX(BENES_BITS));
    k->bits_inv = MC_KFN(mc_pc_fn, MC_PRIM_PFX(BENES_BITS_INV));
    k->bm = bm == qhasm_impl_get(MC_PRIM_BM, QHASM_REF(MC_PRIM_BM)) ? 0 : (mc_pp_fn *)bm->fn[0];
}

/* Decode on the FFT kernels (docs/mceliece-kem.md): everything in the
 * FFT's natural point order P(e) = bitrev(e); the Benes network moves the
 * bit vectors between it and the support order (alpha_i = P(pi(i))).
 * Returns all-ones (16 bits) on success, 0 on failure. */
static uint16_t mc_decode_fft(unsigned char *e, const unsigned char *c, const unsigned char *sk)
{
    const unsigned char *cb = sk + MC_IRRBYTES;
    uint64_t f[2 * MC_M], v[MC_IWORDS], s[MC_M * MC_SW], s2[MC_M * MC_SW];
    uint64_t *buf = malloc(sizeof(uint64_t) * (3 * MC_M * MC_PW + 2 * MC_PW + MC_CBWORDS));
    uint64_t *w, *r, *val, *bits, *bits2, diff = 0;
    gf g[MC_T + 1];
    uint32_t wt = 0;
    long i, k, b;
    mc_dec_kernels K;
    if (!buf) abort();
    mc_dec_kernels_get(&K);
    MC_DEC_TICK(1);
    w = buf; r = w + MC_M * MC_PW; val = r + MC_M * MC_PW;
    bits = val + MC_M * MC_PW; bits2 = bits + MC_PW;
    cb = mc_cb_copy(bits2 + MC_PW, cb);
    for (i = 0; i < MC_T; i++) g[i] = mc_load_gf(sk + 2 * i);
    g[MC_T] = 1;
    /* w = 1/g^2 at every point: the FFT, then the vec512 kernels on 512
     * points at a time, one inversion for all MC_IG vectors (Montgomery's
     * batch inversion: g is irreducible of degree t > 1, so no g(P(e)) is
     * zero and every prefix product is invertible) */
    mc_fft_input(f, g, MC_T);
    K.fft(val, f);
    MC_DEC_TICK(2);
    {
        uint64_t *x = r, *pre = val;                 /* both free until the syndrome */
        for (k = 0; k < MC_IG; k++)                  /* x_k = g^2 at group k (val read first) */
            for (b = 0; b < MC_M; b++)
                for (i = 0; i < MC_IW; i++) x[MC_IWORDS * k + MC_IW * b + i] = val[b * MC_PW + MC_IW * k + i];
        for (k = 0; k < MC_IG; k++) K.vsq(x + MC_IWORDS * k, x + MC_IWORDS * k);
        for (i = 0; i < MC_IWORDS; i++) pre[i] = x[i];
        for (k = 1; k < MC_IG; k++)                  /* pre_k = x_0 ... x_k */
            K.vmul(pre + MC_IWORDS * k, pre + MC_IWORDS * (k - 1), x + MC_IWORDS * k);
        K.vinv(v, pre + MC_IWORDS * (MC_IG - 1));    /* v = 1/(x_0 ... x_k) */
        for (k = MC_IG - 1; k >= 0; k--) {
            uint64_t *y = pre + MC_IWORDS * k;       /* 1/x_k = pre_(k-1) v, then v = v x_k */
            if (k) {
                K.vmul(y, y - MC_IWORDS, v);
                K.vmul(v, v, x + MC_IWORDS * k);
            } else
                y = v;
            for (b = 0; b < MC_M; b++)
                for (i = 0; i < MC_IW; i++) w[b * MC_PW + MC_IW * k + i] = y[MC_IW * b + i];
        }
    }
    /* the syndrome of (c, 0, ..., 0): c in the natural order, times w,
     * the transposed FFT */
    MC_DEC_TICK(3);
    for (k = 0; k < MC_PW; k++) bits[k] = 0;
    for (i = 0; i < MC_SYNDBYTES; i++) bits[i / 8] |= (uint64_t)c[i] << (8 * (i % 8));
    K.bits_inv(bits, cb);
    MC_DEC_TICK(4);
    for (b = 0; b < MC_M; b++)
        for (k = 0; k < MC_PW; k++) r[b * MC_PW + k] = w[b * MC_PW + k] & bits[k];
    K.fft_tr(s, r);
    MC_DEC_TICK(5);
    /* the error locator sigma (reversed C) as the FFT's input */
    if (K.bm)
        K.bm(f, s);
    else {
        gf sigma[MC_T + 1];
        mc_bm_bs(sigma, s);
        mc_fft_input(f, sigma, MC_T);
    }
    MC_DEC_TICK(6);
    /* the roots of sigma: the zero positions of its FFT, in support order */
    K.fft(val, f);
    MC_DEC_TICK(7);
    for (k = 0; k < MC_PW; k++) {
        uint64_t x = 0;
        for (b = 0; b < MC_M; b++) x |= val[b * MC_PW + k];
        bits[k] = ~x;
    }
    K.bits(bits, cb);
    for (k = 0; k < MC_PW; k++) {
        long lo = 64 * k;
        uint64_t keep = lo + 64 <= MC_N ? ~(uint64_t)0 : lo >= MC_N ? 0 : (((uint64_t)1 << (MC_N - lo)) - 1);
        bits[k] &= keep;                             /* only alpha_0 .. alpha_(n-1) */
        wt += mc_popcount64(bits[k]);
        bits2[k] = bits[k];
    }
    for (i = 0; i < MC_EBYTES; i++) e[i] = (unsigned char)(bits[i / 8] >> (8 * (i % 8)));
    MC_DEC_TICK(8);
    /* re-encryption check: the same 2t syndromes and weight t */
    K.bits_inv(bits2, cb);
    MC_DEC_TICK(9);
    for (b = 0; b < MC_M; b++)
        for (k = 0; k < MC_PW; k++) r[b * MC_PW + k] = w[b * MC_PW + k] & bits2[k];
    K.fft_tr(s2, r);
    for (b = 0; b < MC_M; b++)
        for (k = 0; k < MC_SW; k++) {
            long lo = 64 * k;
            uint64_t keep = lo + 64 <= 2 * MC_T ? ~(uint64_t)0 : lo >= 2 * MC_T ? 0
                          : (((uint64_t)1 << (2 * MC_T - lo)) - 1);
            diff |= (s[MC_SW * b + k] ^ s2[MC_SW * b + k]) & keep;
        }
    diff |= wt ^ MC_T;
    MC_DEC_TICK(10);
    free(buf);
    return mc_iszero16((uint32_t)((diff | (diff >> 32)) | ((diff | (diff >> 32)) >> 16)));
}
#endif

/* Decode: e (n/8 bytes) of weight t with He = c; returns all-ones (16
 * bits) on success, 0 on failure.  c: the FFT kernels where they are
 * generated, else the vec256 evaluation at the support (given by the Benes
 * kernel); bitsliced Berlekamp-Massey.  ref: element by element. */
static uint16_t mc_decode(unsigned char *e, const unsigned char *c, const unsigned char *sk)
{
    gf g[MC_T + 1], sigma[MC_T + 1], s[2 * MC_T], s2[2 * MC_T];
    uint16_t *alpha;
    gf *w, *ginv2;
    uint32_t diff = 0, wt = 0;
    long i;
#if MC_BITSLICED
    if (mc_use_fft()) return mc_decode_fft(e, c, sk);
#endif
    alpha = malloc(sizeof(uint16_t) * MC_Q);
    w = malloc(sizeof(gf) * MC_N);
    ginv2 = malloc(sizeof(gf) * MC_N);
    if (!alpha || !w || !ginv2) abort();
    for (i = 0; i < MC_T; i++) g[i] = mc_load_gf(sk + 2 * i);
    g[MC_T] = 1;
    /* the support: the network on the identity gives pi; alpha = bitrev(pi) */
#if MC_BITSLICED
    mc_support(alpha, sk + MC_IRRBYTES);
#else
    for (i = 0; i < MC_Q; i++) alpha[i] = (uint16_t)i;
    mc_benes(alpha, sk + MC_IRRBYTES);
    for (i = 0; i < MC_N; i++) alpha[i] = mc_bitrev(alpha[i]);
#endif
    mc_eval(ginv2, g, MC_T, alpha, MC_N);
    mc_inv_all(ginv2, MC_N, 1);
    /* v = (c, 0, ..., 0): only the first mt positions can be nonzero */
    for (i = 0; i < MC_MT; i++) w[i] = ginv2[i] & (gf)(0u - ((c[i >> 3] >> (i & 7)) & 1));
    mc_synd(s, w, alpha, MC_MT);
#if MC_BITSLICED
    {
        uint64_t sp[MC_M * MC_SW];
        int j, b;
        for (j = 0; j < MC_M * MC_SW; j++) sp[j] = 0;
        for (j = 0; j < 2 * MC_T; j++)
            for (b = 0; b < MC_M; b++) sp[MC_SW * b + j / 64] |= (uint64_t)((s[j] >> b) & 1) << (j % 64);
        mc_bm_bs(sigma, sp);
    }
#else
    mc_bm(sigma, s);
#endif
    mc_eval(w, sigma, MC_T, alpha, MC_N);
    memset(e, 0, MC_EBYTES);
    for (i = 0; i < MC_N; i++) {
        uint16_t z = mc_iszero16(w[i]);
        e[i >> 3] |= (unsigned char)((z & 1) << (i & 7));
        wt += z & 1;
        w[i] = ginv2[i] & z;
    }
    /* re-encryption check: the same syndromes and weight t */
    mc_synd(s2, w, alpha, MC_N);
    for (i = 0; i < 2 * MC_T; i++) diff |= (uint32_t)(s[i] ^ s2[i]);
    diff |= wt ^ MC_T;
    free(alpha); free(w); free(ginv2);
    return mc_iszero16(diff | (diff >> 16));
}

int MC_PREFIX(dec)(unsigned char *key, const unsigned char *c, const unsigned char *sk)
{
    unsigned char buf[1 + MC_EBYTES + MC_SYNDBYTES], k[32], cc[MC_SYNDBYTES];
    unsigned char *e = buf + 1;
    const unsigned char *s = sk + 40 + MC_IRRBYTES + MC_CONDBYTES;
    unsigned char bad = mc_c_padding_bad(c);
    int i;
    uint16_t good;
    memcpy(cc, c, MC_SYNDBYTES);
#if MC_MT % 8
    cc[MC_SYNDBYTES - 1] &= (1 << (MC_MT % 8)) - 1;
#endif
    MC_DEC_TICK(0);
    good = mc_decode(e, cc, sk + 40);
    /* implicit rejection: b = 0 and e = s when decoding fails */
    buf[0] = (unsigned char)(good & 1);
    for (i = 0; i < MC_EBYTES; i++) e[i] = (unsigned char)((e[i] & good) | (s[i] & ~good));
    memcpy(buf + 1 + MC_EBYTES, c, MC_SYNDBYTES);
    MC_SHAKE(k, 32, buf, sizeof buf);
    /* the round-4 reference: a padding bit set gives a zero key and -1 */
    for (i = 0; i < 32; i++) k[i] &= (unsigned char)~bad;
    memcpy(key, k, 32);
    memset(buf, 0, sizeof buf);
    MC_DEC_TICK(11);
    return -(int)(bad & 1);
}
