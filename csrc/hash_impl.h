/* hash_impl.h: the kernel interface of the hash family (SHA-512, SHAKE256;
 * specs/kernels.conf `family hash`) and its wrappers (csrc/hash_wrap.c).
 *
 * SHA-512 (kernels: blocks), FIPS 180-4 section 6.4.2:
 *   void qhasm_kernel_sha512_<IMPL>_blocks(uint64_t H[8], const unsigned char *in,
 *            unsigned long long nblocks);
 *     the hash computation for nblocks full 128-byte blocks of in (any
 *     alignment; big-endian words), updating the intermediate hash value H
 *     (native 64-bit words).  nblocks may be 0.  Padding and the final
 *     block are C glue (hash_wrap.c).
 *
 * SHAKE256 (kernels: blocks permute), FIPS 202 sections 3 and 4:
 *   void qhasm_kernel_shake256_<IMPL>_blocks(uint64_t A[25], const unsigned char *in,
 *            unsigned long long nblocks);
 *     absorbing: for each of nblocks full 136-byte blocks (any alignment),
 *     A[i] ^= little-endian word i of the block (i < 17), then
 *     Keccak-f[1600](A).  Lane (x,y) is A[x + 5y] (native 64-bit words).
 *   void qhasm_kernel_shake256_<IMPL>_permute(uint64_t A[25]);
 *     Keccak-f[1600](A), for squeezing.
 * Every implementation works on the same state layout, so an incremental
 * state may continue under another (forced) implementation. */
#ifndef QHASM_HASH_IMPL_H
#define QHASM_HASH_IMPL_H

#include "impl.h"

typedef void qhasm_hash_blocks_fn(uint64_t *state, const unsigned char *in, unsigned long long nblocks);
typedef void qhasm_hash_permute_fn(uint64_t *state);
#define QHASM_HASH_BLOCKS(im) ((qhasm_hash_blocks_fn *)(im)->fn[0])
#define QHASM_HASH_PERMUTE(im) ((qhasm_hash_permute_fn *)(im)->fn[1])

#define QHASM_SHA512_BLOCK 128
#define QHASM_SHAKE256_RATE 136

int qhasm_sha512_wrap(const qhasm_impl *im, unsigned char *out64,
                      const unsigned char *in, unsigned long long inlen);
int qhasm_shake256_wrap(const qhasm_impl *im, unsigned char *out, unsigned long long outlen,
                        const unsigned char *in, unsigned long long inlen);

#endif
