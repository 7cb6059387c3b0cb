/* Reference C for the Classic McEliece arithmetic kernels (csrc/ref/
 * mceliece_ref.c), written from the Classic McEliece specification
 * (field GF(2^m) = GF(2)[z]/f(z), public key T of H = (I_mt | T), the
 * syndrome C0 = He).  Element by element, deliberately unlike the
 * bitsliced kernels it checks.  Layouts: docs/mceliece.md. */
#ifndef QHASM_MCELIECE_REF_H
#define QHASM_MCELIECE_REF_H

#include <stdint.h>

/* field modulus f(z) of GF(2^m) as a bit mask (m = 12 or 13) */
uint32_t qhasm_ref_mceliece_modulus(int m);
/* a * b in GF(2^m); only the low m bits of a and b are used */
uint16_t qhasm_ref_mceliece_gf_mul(int m, uint16_t a, uint16_t b);
/* a^(2^m - 2): the inverse of a, and 0 for 0 */
uint16_t qhasm_ref_mceliece_gf_inv(int m, uint16_t a);

/* element e (0 <= e < lanes) of a bitsliced vector v of m bit-words of
 * lanes/64 uint64 each: bit i is bit e%64 of v[(lanes/64)*i + e/64] */
uint16_t qhasm_ref_mceliece_get(int m, int lanes, const uint64_t *v, int e);
void qhasm_ref_mceliece_set(int m, int lanes, uint64_t *v, int e, uint16_t x);

/* lanes = 64, 256 or 512 elementwise operations on bitsliced vectors
 * (h may alias f or g) */
void qhasm_ref_mceliece_vec_mul(int m, int lanes, uint64_t *h, const uint64_t *f, const uint64_t *g);
void qhasm_ref_mceliece_vec_sq(int m, int lanes, uint64_t *h, const uint64_t *f);
void qhasm_ref_mceliece_vec_inv(int m, int lanes, uint64_t *h, const uint64_t *f);

/* out[i] bit j = in[j] bit i (out may equal in) */
void qhasm_ref_mceliece_transpose_64x64(uint64_t out[64], const uint64_t in[64]);

/* parameter sets of the syndrome: code length n, m*t rows of H */
typedef struct {
    const char *name;
    int n, mt;
} qhasm_ref_mceliece_params;
extern const qhasm_ref_mceliece_params qhasm_ref_mceliece348864, qhasm_ref_mceliece6960119;
/* bytes of the public key (mt rows of ceil((n - mt)/8) bytes), of e
 * (n/8) and of the syndrome (ceil(mt/8)) */
int qhasm_ref_mceliece_pk_bytes(const qhasm_ref_mceliece_params *p);
int qhasm_ref_mceliece_row_bytes(const qhasm_ref_mceliece_params *p);
int qhasm_ref_mceliece_e_bytes(const qhasm_ref_mceliece_params *p);
int qhasm_ref_mceliece_s_bytes(const qhasm_ref_mceliece_params *p);
/* s = H e with H = (I_mt | T), T from pk (s may alias pk or e) */
void qhasm_ref_mceliece_syndrome(const qhasm_ref_mceliece_params *p, unsigned char *s,
                                 const unsigned char *pk, const unsigned char *e);

#endif
