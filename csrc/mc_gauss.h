/* mc_gauss.h: constant-time reduction of a binary matrix to systematic
 * form (I | T), Classic McEliece's MatGen (csrc/mc_gauss.c,
 * docs/mceliece-kem.md "The systematic form"). */
#ifndef QHASM_MC_GAUSS_H
#define QHASM_MC_GAUSS_H

#include <stdint.h>

/* the row stride (in 64-bit words) that qhasm_mc_gauss_systematic needs for
 * rows of nw words (room for 4-word chunks; 8 kept from the one-phase form) */
#define QHASM_MC_GAUSS_STRIDE(nw) ((((nw) + 7) + 3) / 4 * 4)

/* mat: rows x (64 nw) bits, row i at mat + i * stride, bit c of a row at
 * bit c % 64 of word c / 64; the words from nw to stride - 1 must be zero
 * (they stay zero); stride >= QHASM_MC_GAUSS_STRIDE(nw), rows <= 64 nw.
 * Reduces mat in place to its reduced row echelon form with the identity
 * in the first rows columns: 0 on success; -1 if those columns are
 * linearly dependent (mat is then garbage); -2 without memory.  No branch
 * and no memory address depends on the matrix, except the failure
 * decision (declassified, once per 64 pivots: the caller retries). */
int qhasm_mc_gauss_systematic(uint64_t *mat, long rows, long nw, long stride);

/* Y[i] ^= sum over j < nx of (bit j of the bit vector M + i*ms) X[j], on
 * the words w0 .. w0 + 4 n4 - 1 of each row (row strides ys, xs); Y and X
 * must not overlap.  The kernel of the above, exported for its test. */
void qhasm_mc_gauss_addmul(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                           const uint64_t *M, long ms, long w0, long n4);

/* the paths of qhasm_mc_gauss_addmul, for the test: the AVX-512 one (x86-64
 * with gcc; returns -1 and does nothing where it is not compiled or the CPU
 * lacks AVX-512F/VL, else 0) and the portable one (GCC vector extensions,
 * AVX2 clone on x86-64; plain words elsewhere) */
int qhasm_mc_gauss_addmul_avx512(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                 const uint64_t *M, long ms, long w0, long n4);
void qhasm_mc_gauss_addmul_portable(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                    const uint64_t *M, long ms, long w0, long n4);

/* the GF2P8AFFINEQB form of qhasm_mc_gauss_systematic (x86-64 with gcc, a
 * CPU with AVX-512F/VL/BW, VBMI and GFNI): available (1) or not (0); on by
 * default, turned off (on = 0) and on again by the test so that both forms
 * are checked on such a CPU */
int qhasm_mc_gauss_gfni_available(void);
void qhasm_mc_gauss_gfni_enable(int on);

#endif
