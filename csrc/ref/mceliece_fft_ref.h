/* Reference C for the Classic McEliece Benes network, additive FFT and its
 * transpose (csrc/ref/mceliece_fft_ref.c), written from the Classic McEliece
 * specification.  Layouts and semantics: docs/mceliece-fft.md. */
#ifndef QHASM_MCELIECE_FFT_REF_H
#define QHASM_MCELIECE_FFT_REF_H

#include <stdint.h>

/* The specification's Benes network on n = 2^m positions applied to
 * `planes` bit-planes of n bits (plane b: v[b*n/64 .. b*n/64 + n/64 - 1],
 * position e at bit e%64 of word e/64), control bits c ((2m-1)n/2 bits,
 * bit k in bit k%8 of byte k/8): layers 0 .. 2m-2 (inverse: 2m-2 .. 0).
 * Forward: y[i] = x[pi(i)]; inverse: y[pi(i)] = x[i].  Constant time. */
void qhasm_ref_mceliece_benes(int m, int planes, int inverse, uint64_t *v, const unsigned char *c);

/* the permutation pi of the control bits, by the specification's
 * definition (start from the identity, apply the layers' swaps to pi) */
void qhasm_ref_mceliece_benes_pi(int m, const unsigned char *c, int32_t *pi);

/* Additive FFT (evaluation): f is 128 coefficients over GF(2^m), bitsliced
 * (uint64_t f[2m]: coefficient k of plane b at bit k%64 of f[2b + k/64]);
 * v (m planes of 2^m bits) gets f(P(e)) at position e, P(e) the field
 * element whose integer is bitrev_m(e).  Horner at every point. */
void qhasm_ref_mceliece_fft(int m, uint64_t *v, const uint64_t *f);

/* Transposed additive FFT (the syndrome sums of decoding): r is 2^m field
 * elements, bitsliced (m planes of 2^m bits, r_e at position e); s gets
 * s_j = sum_e r_e P(e)^j for j < K (K = 128 for m = 12, 256 for m = 13),
 * bitsliced: coefficient j of plane b at bit j%64 of s[(K/64) b + j/64]. */
void qhasm_ref_mceliece_fft_tr(int m, uint64_t *s, const uint64_t *r);

/* bitrev_m(e) */
uint16_t qhasm_ref_mceliece_point(int m, long e);

/* Berlekamp-Massey (csrc/ref/mceliece_bm_ref.c), inversion-free, 2t
 * iterations (t = 64 for m = 12, 119 for m = 13): s the 2t syndromes in
 * fft_tr's layout (lanes from 2t on ignored), f the connection polynomial
 * C reversed (lane k = C_(t-k), k <= t) in the FFT's input layout. */
void qhasm_ref_mceliece_bm(int m, uint64_t *f, const uint64_t *s);

#endif
