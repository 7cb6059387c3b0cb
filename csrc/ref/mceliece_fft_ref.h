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

#endif
