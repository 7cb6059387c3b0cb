/* kem_impl.h: the kem family (specs/kernels.conf `family kem`, docs/kem.md).
 *
 * A KEM primitive's kernels are its three operations, in this order
 * (`kernels keypair enc dec`), with SUPERCOP's crypto_kem signatures:
 *
 *   int qhasm_kernel_<symbol>_<IMPL>_keypair(unsigned char *pk, unsigned char *sk);
 *   int qhasm_kernel_<symbol>_<IMPL>_enc(unsigned char *c, unsigned char *k,
 *                                        const unsigned char *pk);
 *   int qhasm_kernel_<symbol>_<IMPL>_dec(unsigned char *k, const unsigned char *c,
 *                                        const unsigned char *sk);
 *
 * They return 0 (dec too, for any ciphertext: a modified one gives the
 * implicit-rejection key).  Outputs may alias inputs (every input is read
 * before an output is written).  An implementation is C that composes the
 * dispatched kernels of other primitives (the products, the hashes), so
 * "c" follows the CPU's selection underneath; random bytes come from
 * qhasm_randombytes*() below.  The sizes are the primitive's params
 * pk= sk= ct= ss= (bytes), which the generated public functions and the
 * family's hooks (csrc/test_kem.c, csrc/speed_kem.c) read. */
#ifndef QHASM_KEM_IMPL_H
#define QHASM_KEM_IMPL_H

#include "impl.h"

typedef int qhasm_kem_keypair_fn(unsigned char *pk, unsigned char *sk);
typedef int qhasm_kem_enc_fn(unsigned char *c, unsigned char *k, const unsigned char *pk);
typedef int qhasm_kem_dec_fn(unsigned char *k, const unsigned char *c, const unsigned char *sk);
#define QHASM_KEM_KEYPAIR(im) ((qhasm_kem_keypair_fn *)(im)->fn[0])
#define QHASM_KEM_ENC(im) ((qhasm_kem_enc_fn *)(im)->fn[1])
#define QHASM_KEM_DEC(im) ((qhasm_kem_dec_fn *)(im)->fn[2])

/* the public functions of a kem primitive (generated wrappers), NULL for
 * another family */
typedef struct {
    qhasm_kem_keypair_fn *keypair;
    qhasm_kem_enc_fn *enc;
    qhasm_kem_dec_fn *dec;
} qhasm_kem_api;
const qhasm_kem_api *qhasm_kem_public(int p);

/* ---- csrc/randombytes.c ------------------------------------------------ */
/* xlen random bytes from the installed source (qhasm_randombytes_set) or
 * getrandom(2) */
void qhasm_randombytes(unsigned char *x, unsigned long long xlen);
/* n pieces of `piece` bytes: n calls of the installed source, as the
 * reference implementation makes them (deterministic generators depend on
 * the split), or one call of a split-independent source
 * (qhasm_randombytes_set_stream) or of getrandom under the default one */
void qhasm_randombytes_pieces(unsigned char *x, unsigned long long n, unsigned long long piece);
/* 1 if a source is installed */
int qhasm_randombytes_replaced(void);
/* the bytes are no secret any more (a rejection-sampling decision): tells
 * the valgrind constant-time check (a no-op otherwise) */
void qhasm_declassify(const void *p, unsigned long long n);

#endif
