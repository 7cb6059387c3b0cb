/* Reference C (csrc/ref/): written from the Salsa20 specification
 * (D. J. Bernstein, "Salsa20 specification", 2005) and RFC 8439 section 2.5
 * (Poly1305).  Simple, slow, independent of the optimised code; the test
 * command compares every implementation against these functions. */
#ifndef QHASM_REF_H
#define QHASM_REF_H

#include <stdint.h>

/* spec section 3: quarterround on (y0,y1,y2,y3), in place */
void qhasm_ref_salsa_quarterround(uint32_t y[4]);
/* spec section 4..6: rowround, columnround, doubleround, in place */
void qhasm_ref_salsa_rowround(uint32_t y[16]);
void qhasm_ref_salsa_columnround(uint32_t x[16]);
void qhasm_ref_salsa_doubleround(uint32_t x[16]);
/* rounds/2 doublerounds, no feed-forward */
void qhasm_ref_salsa_permute(uint32_t out[16], const uint32_t in[16], int rounds);
/* spec section 8: Salsa20 hash function of a 64-byte sequence (with feed-forward) */
void qhasm_ref_salsa_hash(unsigned char out[64], const unsigned char in[64], int rounds);

int qhasm_ref_core_salsa(unsigned char *out64, const unsigned char *in16,
                         const unsigned char *k32, const unsigned char *c16, int rounds);
int qhasm_ref_core_hsalsa(unsigned char *out32, const unsigned char *in16,
                          const unsigned char *k32, const unsigned char *c16, int rounds);
int qhasm_ref_stream_salsa_xor_ic(unsigned char *c, const unsigned char *m,
                                  unsigned long long mlen, const unsigned char *n8,
                                  uint64_t ic, const unsigned char *k32, int rounds);
int qhasm_ref_stream_salsa(unsigned char *c, unsigned long long clen,
                           const unsigned char *n8, const unsigned char *k32, int rounds);
int qhasm_ref_stream_xsalsa20_xor(unsigned char *c, const unsigned char *m,
                                  unsigned long long mlen,
                                  const unsigned char *n24, const unsigned char *k32);
int qhasm_ref_stream_xsalsa20(unsigned char *c, unsigned long long clen,
                              const unsigned char *n24, const unsigned char *k32);

int qhasm_ref_onetimeauth_poly1305(unsigned char *a16, const unsigned char *m,
                                   unsigned long long mlen, const unsigned char *k32);

/* the reference code behind the kernel interfaces (impl "ref") */
void qhasm_kernel_salsa20_ref_blocks(unsigned char *c, const unsigned char *m,
                                     unsigned long long nblocks, uint32_t x[16]);
void qhasm_kernel_salsa20_ref_core(uint32_t out[16], const uint32_t in[16]);
void qhasm_kernel_salsa12_ref_blocks(unsigned char *c, const unsigned char *m,
                                     unsigned long long nblocks, uint32_t x[16]);
void qhasm_kernel_salsa12_ref_core(uint32_t out[16], const uint32_t in[16]);
void qhasm_kernel_salsa8_ref_blocks(unsigned char *c, const unsigned char *m,
                                    unsigned long long nblocks, uint32_t x[16]);
void qhasm_kernel_salsa8_ref_core(uint32_t out[16], const uint32_t in[16]);
void qhasm_kernel_poly1305_ref_init(void *state, const unsigned char *k32);
void qhasm_kernel_poly1305_ref_blocks(void *state, const unsigned char *m,
                                      unsigned long long nblocks, unsigned int hibit);
void qhasm_kernel_poly1305_ref_final(void *state, unsigned char *a16);

/* FIPS 180-4 SHA-512 (sha512_ref.c) and FIPS 202 SHAKE256 (keccak_ref.c) */
extern const uint64_t qhasm_ref_sha512_iv[8];
int qhasm_ref_sha512(unsigned char *out64, const unsigned char *in, unsigned long long inlen);
int qhasm_ref_shake256(unsigned char *out, unsigned long long outlen,
                       const unsigned char *in, unsigned long long inlen);
void qhasm_kernel_sha512_ref_blocks(uint64_t H[8], const unsigned char *in, unsigned long long nblocks);
void qhasm_kernel_shake256_ref_blocks(uint64_t A[25], const unsigned char *in, unsigned long long nblocks);
void qhasm_kernel_shake256_ref_permute(uint64_t A[25]);

#endif
