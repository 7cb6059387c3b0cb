/* Reference C of the Classic McEliece Berlekamp-Massey kernel
 * (qhasm_mceliece_gf{12,13}_bm), element by element.  Written from the
 * algorithm as published (J. L. Massey, "Shift-register synthesis and BCH
 * decoding", IEEE Trans. Inf. Theory 15(1), 1969), in the inversion-free
 * form: the connection polynomial is kept times the product of the
 * earlier nonzero discrepancies, which changes neither its roots nor the
 * decoder's result (the Classic McEliece specification's decoding only
 * needs the error locator's roots).  Fixed 2t iterations and masks, no
 * branch or address on the data (qhasm-test --valgrind-ct checks the
 * reference too).  Layouts and semantics: docs/mceliece-fft.md. */
#include <stdint.h>
#include "mceliece_fft_ref.h"
#include "mceliece_ref.h"

#define BM_TMAX 119

void qhasm_ref_mceliece_bm(int m, uint64_t *f, const uint64_t *s)
{
    int t = m == 12 ? 64 : 119, sw = m == 12 ? 2 : 4, N, i, b;
    uint16_t S[2 * BM_TMAX], C[BM_TMAX + 1], B[BM_TMAX + 1], nC[BM_TMAX + 1], bb = 1;
    uint32_t L = 0;
    for (N = 0; N < 2 * t; N++) {                   /* all inputs read first (f may alias s) */
        uint16_t x = 0;
        for (b = 0; b < m; b++) x |= (uint16_t)(((s[sw * b + N / 64] >> (N % 64)) & 1) << b);
        S[N] = x;
    }
    for (i = 0; i <= t; i++) C[i] = B[i] = 0;
    C[0] = 1;                                       /* C = 1 */
    B[1] = 1;                                       /* B = x (times the last length change's C) */
    for (N = 0; N < 2 * t; N++) {
        uint16_t d = 0, up;
        for (i = 0; i <= t && i <= N; i++) d ^= qhasm_ref_mceliece_gf_mul(m, C[i], S[N - i]);
        /* up: d != 0 and 2L <= N, as a 16-bit mask */
        up = (uint16_t)(0u - (((uint32_t)d + 0xffffu) >> 16));
        up &= (uint16_t)(0u - ((2 * L - (uint32_t)N - 1) >> 31));
        for (i = 0; i <= t; i++)
            nC[i] = qhasm_ref_mceliece_gf_mul(m, bb, C[i]) ^ qhasm_ref_mceliece_gf_mul(m, d, B[i]);
        for (i = t; i >= 1; i--) B[i] = (uint16_t)((B[i - 1] & ~up) | (C[i - 1] & up));   /* x (up ? C : B) */
        B[0] = 0;
        for (i = 0; i <= t; i++) C[i] = nC[i];
        L = (L & ~(uint32_t)(int16_t)up) | (((uint32_t)N + 1 - L) & (uint32_t)(int16_t)up);
        bb = (uint16_t)((bb & ~up) | (d & up));
    }
    for (i = 0; i < 2 * m; i++) f[i] = 0;           /* sigma_k = C_(t-k) */
    for (i = 0; i <= t; i++)
        for (b = 0; b < m; b++) f[2 * b + i / 64] |= (uint64_t)((C[t - i] >> b) & 1) << (i % 64);
}

void qhasm_kernel_mceliece_gf12_bm_ref_bm(uint64_t *f, const uint64_t *s);
void qhasm_kernel_mceliece_gf12_bm_ref_bm(uint64_t *f, const uint64_t *s) { qhasm_ref_mceliece_bm(12, f, s); }
void qhasm_kernel_mceliece_gf13_bm_ref_bm(uint64_t *f, const uint64_t *s);
void qhasm_kernel_mceliece_gf13_bm_ref_bm(uint64_t *f, const uint64_t *s) { qhasm_ref_mceliece_bm(13, f, s); }
