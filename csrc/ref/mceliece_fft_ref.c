/* Reference C for the Classic McEliece Benes network, additive FFT and its
 * transpose, written from the Classic McEliece specification (the round-4
 * submission and the ISO draft transcribed as draft-josefsson-mceliece):
 *
 *   Benes network ("control bits"): m >= 1, n = 2^m, (2m-1)n/2 control bits
 *   c_0 .. ; the permutation pi defined by them is computed as
 *       pi = (0, 1, ..., n-1)
 *       for i = 0 .. 2m-2:  gap = 2^min(i, 2m-2-i)
 *         for j = 0 .. n/2-1:
 *           if c_{i n/2 + j}: pos = (j mod gap) + 2 gap floor(j/gap),
 *                             exchange pi_pos and pi_{pos+gap}.
 *   The same exchanges applied to any array x give y_i = x_{pi(i)}; the
 *   support is alpha_i = the field element whose bit m-1-b is bit b of pi(i)
 *   (docs/mceliece-fft.md says how a caller gets it from this kernel).
 *   The control bits are stored as in the secret key: c_k is bit k%8 of
 *   byte floor(k/8).
 *
 *   Additive FFT: the value of f(x) = f_0 + f_1 x + ... + f_127 x^127 at every
 *   field element, by Horner's rule at each point (the obviously correct
 *   evaluation, on 64 points at once with a schoolbook bitsliced product;
 *   the kernels use the Gao-Mateer recursion).
 *
 *   Transposed FFT: the sums s_j = sum_e r_e P(e)^j (j < 2t rounded up to
 *   128 or 256), directly: the powers of the 64 points of a group by
 *   repeated multiplication, the sum over the group by XOR of its lanes.
 *
 * Simple and slow; deliberately unlike the generated kernels. */
#include "ref/mceliece_fft_ref.h"
#include "ref/mceliece_ref.h"

static uint64_t cbit(const unsigned char *c, long k) { return (uint64_t)((c[k / 8] >> (k % 8)) & 1); }

void qhasm_ref_mceliece_benes(int m, int planes, int inverse, uint64_t *v, const unsigned char *c)
{
    long n = 1L << m, words = n / 64, j;
    int layers = 2 * m - 1, l, b;
    for (l = 0; l < layers; l++) {
        int i = inverse ? layers - 1 - l : l;
        int s = i < 2 * m - 2 - i ? i : 2 * m - 2 - i;
        long gap = 1L << s;
        for (j = 0; j < n / 2; j++) {
            long pos = (j % gap) + 2 * gap * (j / gap), q = pos + gap;
            uint64_t mask = 0 - cbit(c, (long)i * (n / 2) + j);   /* no branch on a secret */
            for (b = 0; b < planes; b++) {
                uint64_t *w = v + (long)b * words;
                uint64_t d = ((w[pos / 64] >> (pos % 64)) ^ (w[q / 64] >> (q % 64))) & 1 & mask;
                w[pos / 64] ^= d << (pos % 64);
                w[q / 64] ^= d << (q % 64);
            }
        }
    }
}

void qhasm_ref_mceliece_benes_pi(int m, const unsigned char *c, int32_t *pi)
{
    long n = 1L << m, j;
    int i;
    for (j = 0; j < n; j++) pi[j] = (int32_t)j;
    for (i = 0; i <= 2 * m - 2; i++) {
        long gap = 1L << (i < 2 * m - 2 - i ? i : 2 * m - 2 - i);
        for (j = 0; j < n / 2; j++) {
            if (cbit(c, (long)i * (n / 2) + j)) {
                long pos = (j % gap) + 2 * gap * (j / gap);
                int32_t t = pi[pos];
                pi[pos] = pi[pos + gap];
                pi[pos + gap] = t;
            }
        }
    }
}

/* the fixed family's ref kernels: v (planes of 2^m bits) in place, c */
#define BENES_REF(M, NAME, PLANES, INV)                                                      \
    void qhasm_kernel_mceliece_gf##M##_##NAME##_ref_benes(uint64_t *v, const unsigned char *c); \
    void qhasm_kernel_mceliece_gf##M##_##NAME##_ref_benes(uint64_t *v, const unsigned char *c)  \
    {                                                                                        \
        qhasm_ref_mceliece_benes(M, PLANES, INV, v, c);                                      \
    }
BENES_REF(12, benes, 12, 0)
BENES_REF(12, benes_bits, 1, 0)
BENES_REF(12, benes_bits_inv, 1, 1)
BENES_REF(13, benes, 13, 0)
BENES_REF(13, benes_bits, 1, 0)
BENES_REF(13, benes_bits_inv, 1, 1)

uint16_t qhasm_ref_mceliece_point(int m, long e)
{
    uint16_t a = 0;
    int b;
    for (b = 0; b < m; b++) a |= (uint16_t)(((e >> b) & 1) << (m - 1 - b));
    return a;
}

/* 64 products at once on bitsliced words (h may equal a or b): the
 * schoolbook product of the polynomials over GF(2), then the terms z^k,
 * k >= m, folded down by z^m = f(z) - z^m */
static void bs_mul(int m, uint64_t *h, const uint64_t *a, const uint64_t *b)
{
    uint64_t p[25] = {0};
    uint32_t f = qhasm_ref_mceliece_modulus(m);
    int i, j, e;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++) p[i + j] ^= a[i] & b[j];
    for (i = 2 * m - 2; i >= m; i--)
        for (e = 0; e < m; e++)
            if ((f >> e) & 1) p[i - m + e] ^= p[i];
    for (i = 0; i < m; i++) h[i] = p[i];
}

void qhasm_ref_mceliece_fft(int m, uint64_t *v, const uint64_t *f)
{
    uint64_t c[128][13], a[13], y[13];
    long n = 1L << m, g, e;
    int k, b;
    /* all of f read first; coefficient k broadcast to every lane */
    for (k = 0; k < 128; k++) {
        uint16_t x = qhasm_ref_mceliece_get(m, 128, f, k);
        for (b = 0; b < m; b++) c[k][b] = 0 - (uint64_t)((x >> b) & 1);
    }
    for (g = 0; g < n / 64; g++) {              /* the points 64g .. 64g+63 */
        for (b = 0; b < m; b++) a[b] = 0;
        for (e = 0; e < 64; e++) {
            uint16_t x = qhasm_ref_mceliece_point(m, 64 * g + e);
            for (b = 0; b < m; b++) a[b] |= (uint64_t)((x >> b) & 1) << e;
        }
        for (b = 0; b < m; b++) y[b] = c[127][b];
        for (k = 126; k >= 0; k--) {            /* Horner: y = y a + c_k */
            bs_mul(m, y, y, a);
            for (b = 0; b < m; b++) y[b] ^= c[k][b];
        }
        for (b = 0; b < m; b++) v[(long)b * (n / 64) + g] = y[b];
    }
}

void qhasm_kernel_mceliece_gf12_fft_ref_fft(uint64_t *v, const uint64_t *f);
void qhasm_kernel_mceliece_gf12_fft_ref_fft(uint64_t *v, const uint64_t *f) { qhasm_ref_mceliece_fft(12, v, f); }
void qhasm_kernel_mceliece_gf13_fft_ref_fft(uint64_t *v, const uint64_t *f);
void qhasm_kernel_mceliece_gf13_fft_ref_fft(uint64_t *v, const uint64_t *f) { qhasm_ref_mceliece_fft(13, v, f); }

static uint64_t parity64(uint64_t x)
{
    int sh;
    for (sh = 32; sh; sh >>= 1) x ^= x >> sh;
    return x & 1;
}

void qhasm_ref_mceliece_fft_tr(int m, uint64_t *s, const uint64_t *r)
{
    long n = 1L << m, g, e;
    int K = m == 12 ? 128 : 256, nw = K / 64, j, b;
    uint64_t acc[13 * 4] = {0}, a[13], y[13];
    for (g = 0; g < n / 64; g++) {              /* the points 64g .. 64g+63 */
        for (b = 0; b < m; b++) a[b] = 0;
        for (e = 0; e < 64; e++) {
            uint16_t x = qhasm_ref_mceliece_point(m, 64 * g + e);
            for (b = 0; b < m; b++) a[b] |= (uint64_t)((x >> b) & 1) << e;
        }
        for (b = 0; b < m; b++) y[b] = r[(long)b * (n / 64) + g];   /* r_e P(e)^0 */
        for (j = 0; j < K; j++) {               /* y = r_e P(e)^j */
            for (b = 0; b < m; b++) acc[nw * b + j / 64] ^= parity64(y[b]) << (j % 64);
            bs_mul(m, y, y, a);
        }
    }
    for (j = 0; j < m * nw; j++) s[j] = acc[j];   /* all of r read first */
}

void qhasm_kernel_mceliece_gf12_fft_tr_ref_fft_tr(uint64_t *s, const uint64_t *r);
void qhasm_kernel_mceliece_gf12_fft_tr_ref_fft_tr(uint64_t *s, const uint64_t *r) { qhasm_ref_mceliece_fft_tr(12, s, r); }
void qhasm_kernel_mceliece_gf13_fft_tr_ref_fft_tr(uint64_t *s, const uint64_t *r);
void qhasm_kernel_mceliece_gf13_fft_tr_ref_fft_tr(uint64_t *s, const uint64_t *r) { qhasm_ref_mceliece_fft_tr(13, s, r); }
