/* The public hash functions on top of the hash family's kernels
 * (hash_impl.h): SHA-512 padding and the final blocks (FIPS 180-4 section
 * 5.1.2), SHAKE256's suffix, pad10*1 and squeezing (FIPS 202 sections 4,
 * 5.1, 6.2), one-shot and incremental.  The kernels only see full blocks. */
#include <string.h>
#include "hash_impl.h"
#include "ref/ref.h"

/* memset plus a compiler barrier that claims to read the buffer, so the
 * stores of a wipe cannot be elided as dead */
static void wipe(void *p, size_t n)
{
    memset(p, 0, n);
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" : : "r"(p) : "memory");
#endif
}

static void st_be64(unsigned char *p, uint64_t w)
{
    int i;
    for (i = 0; i < 8; i++) p[i] = (unsigned char)(w >> (56 - 8 * i));
}

int qhasm_sha512_wrap(const qhasm_impl *im, unsigned char *out64,
                      const unsigned char *in, unsigned long long inlen)
{
    uint64_t H[8];
    unsigned char last[2 * QHASM_SHA512_BLOCK];
    unsigned long long full = inlen / QHASM_SHA512_BLOCK;
    size_t rem = (size_t)(inlen % QHASM_SHA512_BLOCK), nlast;
    int i;
    /* the tail, the 1 bit, zeros and the 128-bit bit length: one block if
     * the tail leaves 17 bytes, else two */
    nlast = rem < 112 ? 1 : 2;
    /* kernels that work on pairs of blocks (amd64-avx2) pay for an odd
     * block about what the first block of a pair costs: an odd number of
     * full blocks before one final block gives its last full block to the
     * final call, so that with an even total both calls are pairs
     * (Hash4(pk) of sntrup761: 8 + 2 blocks instead of 9 + 1) */
    if ((full & 1) && nlast == 1) {
        full--;
        rem += QHASM_SHA512_BLOCK;
        nlast = 2;
    }
    memcpy(H, qhasm_ref_sha512_iv, sizeof H);
    QHASM_HASH_BLOCKS(im)(H, in, full);
    memset(last, 0, sizeof last);
    memcpy(last, in + QHASM_SHA512_BLOCK * full, rem);
    last[rem] = 0x80;
    st_be64(last + nlast * QHASM_SHA512_BLOCK - 16, inlen >> 61);
    st_be64(last + nlast * QHASM_SHA512_BLOCK - 8, inlen << 3);
    QHASM_HASH_BLOCKS(im)(H, last, nlast);
    for (i = 0; i < 8; i++) st_be64(out64 + 8 * i, H[i]);   /* every input read: out may alias in */
    wipe(H, sizeof H);
    wipe(last, sizeof last);
    return 0;
}

static void st_le64(unsigned char *p, uint64_t w)
{
    int i;
    for (i = 0; i < 8; i++) p[i] = (unsigned char)(w >> (8 * i));
}

/* the first n <= 136 bytes of the rate part of A */
static void squeeze_bytes(unsigned char *out, const uint64_t A[25], size_t n)
{
    unsigned char b[QHASM_SHAKE256_RATE];
    size_t i;
    for (i = 0; i < (n + 7) / 8; i++) st_le64(b + 8 * i, A[i]);
    memcpy(out, b, n);
    wipe(b, sizeof b);
}

/* absorb the last partial block of rem bytes with the suffix and padding */
static void absorb_last(const qhasm_impl *im, uint64_t A[25], const unsigned char *tail, size_t rem)
{
    unsigned char last[QHASM_SHAKE256_RATE];
    memset(last, 0, sizeof last);
    memcpy(last, tail, rem);
    last[rem] ^= 0x1f;                       /* M || 1111 || 1 (pad10*1 starts) */
    last[QHASM_SHAKE256_RATE - 1] ^= 0x80;   /* the final 1 of pad10*1 */
    QHASM_HASH_BLOCKS(im)(A, last, 1);
    wipe(last, sizeof last);
}

static void squeeze(const qhasm_impl *im, uint64_t A[25], unsigned char *out, unsigned long long outlen)
{
    for (;;) {
        size_t n = outlen < QHASM_SHAKE256_RATE ? (size_t)outlen : QHASM_SHAKE256_RATE;
        squeeze_bytes(out, A, n);
        out += n; outlen -= n;
        if (!outlen) break;
        QHASM_HASH_PERMUTE(im)(A);
    }
}

int qhasm_shake256_wrap(const qhasm_impl *im, unsigned char *out, unsigned long long outlen,
                        const unsigned char *in, unsigned long long inlen)
{
    uint64_t A[25];
    unsigned long long full = inlen / QHASM_SHAKE256_RATE;
    memset(A, 0, sizeof A);
    QHASM_HASH_BLOCKS(im)(A, in, full);
    absorb_last(im, A, in + QHASM_SHAKE256_RATE * full, (size_t)(inlen % QHASM_SHAKE256_RATE));
    if (outlen) squeeze(im, A, out, outlen);   /* the input is absorbed: out may alias in */
    wipe(A, sizeof A);
    return 0;
}

/* ---- the public functions ---------------------------------------------- */
int qhasm_hash_sha512(unsigned char *out64, const unsigned char *in, unsigned long long inlen)
{
    return qhasm_sha512_wrap(qhasm_select(QHASM_PRIM_SHA512, inlen), out64, in, inlen);
}

int qhasm_xof_shake256(unsigned char *out, unsigned long long outlen,
                       const unsigned char *in, unsigned long long inlen)
{
    return qhasm_shake256_wrap(qhasm_select(QHASM_PRIM_SHAKE256, inlen), out, outlen, in, inlen);
}

/* incremental SHAKE256: buf holds the partial block (absorbing) or the
 * unread rest of the squeezed block (squeezing) */
typedef struct {
    uint64_t A[25];
    unsigned char buf[QHASM_SHAKE256_RATE];
    unsigned int pos;        /* absorbing: bytes in buf; squeezing: bytes of buf read */
    unsigned int squeezing;
} shake_glue;

_Static_assert(sizeof(shake_glue) <= sizeof(qhasm_xof_shake256_state), "qhasm_xof_shake256_state too small");

int qhasm_xof_shake256_init(qhasm_xof_shake256_state *st)
{
    shake_glue *g = (shake_glue *)st;
    memset(g, 0, sizeof *g);
    return 0;
}

int qhasm_xof_shake256_absorb(qhasm_xof_shake256_state *st, const unsigned char *in, unsigned long long inlen)
{
    shake_glue *g = (shake_glue *)st;
    const qhasm_impl *im = qhasm_select(QHASM_PRIM_SHAKE256, inlen);
    unsigned long long full;
    if (g->squeezing) return -1;
    if (g->pos) {
        size_t n = QHASM_SHAKE256_RATE - g->pos;
        if (inlen < n) n = (size_t)inlen;
        memcpy(g->buf + g->pos, in, n);
        g->pos += (unsigned)n; in += n; inlen -= n;
        if (g->pos < QHASM_SHAKE256_RATE) return 0;
        QHASM_HASH_BLOCKS(im)(g->A, g->buf, 1);
        g->pos = 0;
    }
    full = inlen / QHASM_SHAKE256_RATE;
    QHASM_HASH_BLOCKS(im)(g->A, in, full);
    in += QHASM_SHAKE256_RATE * full;
    g->pos = (unsigned)(inlen % QHASM_SHAKE256_RATE);
    memcpy(g->buf, in, g->pos);
    return 0;
}

int qhasm_xof_shake256_squeeze(qhasm_xof_shake256_state *st, unsigned char *out, unsigned long long outlen)
{
    shake_glue *g = (shake_glue *)st;
    const qhasm_impl *im = qhasm_select(QHASM_PRIM_SHAKE256, outlen);
    if (!g->squeezing) {
        absorb_last(im, g->A, g->buf, g->pos);
        squeeze_bytes(g->buf, g->A, QHASM_SHAKE256_RATE);
        g->squeezing = 1;
        g->pos = 0;
    }
    while (outlen) {
        size_t n = QHASM_SHAKE256_RATE - g->pos;
        if (!n) {
            QHASM_HASH_PERMUTE(im)(g->A);
            squeeze_bytes(g->buf, g->A, QHASM_SHAKE256_RATE);
            g->pos = 0;
            n = QHASM_SHAKE256_RATE;
        }
        if (outlen < n) n = (size_t)outlen;
        memcpy(out, g->buf + g->pos, n);
        g->pos += (unsigned)n; out += n; outlen -= n;
    }
    return 0;
}
