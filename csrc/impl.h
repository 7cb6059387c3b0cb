/* impl.h: internal interfaces between the public wrappers, the dispatch
 * tables and the kernels (C or generated assembly).  See docs/api.md. */
#ifndef QHASM_IMPL_H
#define QHASM_IMPL_H

#include <stdint.h>
#include "qhasm.h"

/* ---- Salsa20/R kernel interface ----------------------------------------
 * Every implementation IMPL of Salsa20/R (R = 20, 12, 8) provides
 *
 *   void qhasm_kernel_salsa<R>_<IMPL>_blocks(unsigned char *c,
 *            const unsigned char *m, unsigned long long nblocks, uint32_t x[16]);
 *     c = m XOR keystream for nblocks full 64-byte blocks, starting from the
 *     input state x (x[0],x[5],x[10],x[15] constants, x[1..4],x[11..14] key,
 *     x[6..7] nonce, block counter x[8] low / x[9] high word).  On return
 *     x[8],x[9] are advanced by nblocks (64-bit carry); x is otherwise
 *     unchanged.  c may equal m (not partially overlap).  nblocks may be 0.
 *
 *   void qhasm_kernel_salsa<R>_<IMPL>_core(uint32_t out[16], const uint32_t in[16]);
 *     R rounds of the permutation, WITHOUT feed-forward.  out may equal in.
 */
typedef void qhasm_salsa_blocks_fn(unsigned char *c, const unsigned char *m,
                                   unsigned long long nblocks, uint32_t x[16]);
typedef void qhasm_salsa_core_fn(uint32_t out[16], const uint32_t in[16]);

typedef struct {
    const char *name;          /* "ref", "c", "amd64", "amd64-avx2", ... */
    unsigned features;         /* QHASM_CPU_* bits required */
    qhasm_salsa_blocks_fn *blocks;
    qhasm_salsa_core_fn *core;
    const char *uarch;         /* "": generic; else scheduled for this model */
} qhasm_salsa_impl;

/* ---- Poly1305 kernel interface -----------------------------------------
 * Every implementation IMPL provides (init and final are usually C glue,
 * blocks the kernel proper):
 *
 *   void qhasm_kernel_poly1305_<IMPL>_init(void *state, const unsigned char *k32);
 *     set up the implementation's private state (at most
 *     QHASM_POLY1305_KSTATE_BYTES bytes, 64-byte aligned) from the key:
 *     r = clamp(k32[0..15]), s = k32[16..31], accumulator = 0.
 *   void qhasm_kernel_poly1305_<IMPL>_blocks(void *state, const unsigned char *m,
 *            unsigned long long nblocks, unsigned int hibit);
 *     for each of nblocks 16-byte blocks b (any alignment):
 *     acc = (acc + b + hibit * 2^128) * r mod 2^130-5.  hibit is 1 for
 *     message blocks, 0 for the final padded block (which the glue builds
 *     as tail || 0x01 || zeros).  nblocks may be 0.
 *   void qhasm_kernel_poly1305_<IMPL>_final(void *state, unsigned char *a16);
 *     a16 = (acc mod p + s) mod 2^128.  The state is dead afterwards.
 */
#define QHASM_POLY1305_KSTATE_BYTES 384

typedef void qhasm_poly1305_init_fn(void *state, const unsigned char *k32);
typedef void qhasm_poly1305_blocks_fn(void *state, const unsigned char *m,
                                      unsigned long long nblocks, unsigned int hibit);
typedef void qhasm_poly1305_final_fn(void *state, unsigned char *a16);

typedef struct {
    const char *name;
    unsigned features;
    qhasm_poly1305_init_fn *init;
    qhasm_poly1305_blocks_fn *blocks;
    qhasm_poly1305_final_fn *final;
    const char *uarch;         /* "": generic; else scheduled for this model */
} qhasm_poly1305_impl;

/* ---- dispatch (dispatch.c) ---------------------------------------------- */
enum { QHASM_PRIM_SALSA20, QHASM_PRIM_SALSA2012, QHASM_PRIM_SALSA208,
       QHASM_PRIM_POLY1305, QHASM_NPRIMS };

/* primitive number for a name or alias, -1 if unknown */
int qhasm_prim_lookup(const char *prim);
/* implementation in use (selected on first call) */
const qhasm_salsa_impl *qhasm_salsa_current(int prim);   /* prim = SALSA20/2012/208 */
const qhasm_poly1305_impl *qhasm_poly1305_current(void);
/* implementation table entries (NULL if out of range) */
const qhasm_salsa_impl *qhasm_salsa_get(int prim, int i);
const qhasm_poly1305_impl *qhasm_poly1305_get(int i);

/* ---- the generic wrappers (salsa20_wrap.c, poly1305_wrap.c) ------------- */
int qhasm_salsa_wrap_core(const qhasm_salsa_impl *im, unsigned char *out,
                          const unsigned char *in16, const unsigned char *k32,
                          const unsigned char *c16, int hsalsa);
int qhasm_salsa_wrap_xor_ic(const qhasm_salsa_impl *im, unsigned char *c,
                            const unsigned char *m, unsigned long long mlen,
                            const unsigned char *n8, uint64_t ic,
                            const unsigned char *k32);
int qhasm_salsa_wrap_stream(const qhasm_salsa_impl *im, unsigned char *c,
                            unsigned long long clen, const unsigned char *n8,
                            const unsigned char *k32);
int qhasm_xsalsa20_wrap_xor(const qhasm_salsa_impl *im, unsigned char *c,
                            const unsigned char *m, unsigned long long mlen,
                            const unsigned char *n24, const unsigned char *k32);
int qhasm_xsalsa20_wrap_stream(const qhasm_salsa_impl *im, unsigned char *c,
                               unsigned long long clen,
                               const unsigned char *n24, const unsigned char *k32);
int qhasm_poly1305_wrap_auth(const qhasm_poly1305_impl *im, unsigned char *a16,
                             const unsigned char *m, unsigned long long mlen,
                             const unsigned char *k32);
int qhasm_poly1305_wrap_init(const qhasm_poly1305_impl *im,
                             qhasm_onetimeauth_poly1305_state *st,
                             const unsigned char *k32);

/* ---- kernels written in C, compiled on every target (impl "c") ---------- */
qhasm_salsa_blocks_fn qhasm_kernel_salsa20_c_blocks, qhasm_kernel_salsa12_c_blocks,
                      qhasm_kernel_salsa8_c_blocks;
qhasm_salsa_core_fn qhasm_kernel_salsa20_c_core, qhasm_kernel_salsa12_c_core,
                    qhasm_kernel_salsa8_c_core;
qhasm_poly1305_init_fn qhasm_kernel_poly1305_c_init;
qhasm_poly1305_blocks_fn qhasm_kernel_poly1305_c_blocks;
qhasm_poly1305_final_fn qhasm_kernel_poly1305_c_final;


#endif
