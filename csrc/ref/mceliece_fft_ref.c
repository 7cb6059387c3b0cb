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
