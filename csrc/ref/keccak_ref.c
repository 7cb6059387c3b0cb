/* Keccak-f[1600] and SHAKE256, written from FIPS 202 (SHA-3 Standard,
 * August 2015): section 3.1.2 (the state as 25 lanes of 64 bits, lane (x,y)
 * = A[x + 5y], bit z of a lane = bit w(5y+x)+z of the string, so a lane is
 * the little-endian 64-bit word of 8 bytes), 3.2.1-3.2.5 (theta, rho, pi,
 * chi, iota, Algorithms 1-6; the rho offsets and the round constants are
 * computed here as the standard defines them, not tabulated), 4
 * (SPONGE), 5.1 (pad10*1) and 6.2 (SHAKE256 = KECCAK[512](M || 1111, d),
 * rate 1088 bits = 136 bytes).  Simple and slow: qhasm-test compares every
 * implementation with it. */
#include <string.h>
#include "ref.h"

#define RATE 136

static uint64_t ROT(uint64_t a, unsigned n) { n &= 63; return n ? (a << n) | (a >> (64 - n)) : a; }

/* Algorithm 5: rc(t), a bit of the LFSR x^8 + x^6 + x^5 + x^4 + 1 */
static unsigned rc(unsigned t)
{
    unsigned R = 1, i;                  /* bit i of R is R[i]; R = 10000000 */
    if (t % 255 == 0) return 1;
    for (i = 1; i <= t % 255; i++) {
        unsigned r8;
        R <<= 1;                        /* R = 0 || R (nine bits) */
        r8 = (R >> 8) & 1;
        R ^= r8 | (r8 << 4) | (r8 << 5) | (r8 << 6);
        R &= 0xff;                      /* Trunc8 */
    }
    return R & 1;
}

/* Rnd(A, ir) = iota(chi(pi(rho(theta(A)))), ir) */
static void round_(uint64_t A[25], unsigned ir)
{
    uint64_t C[5], D[5], B[25], RC = 0;
    unsigned x, y, t, j;
    /* theta */
    for (x = 0; x < 5; x++) C[x] = A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20];
    for (x = 0; x < 5; x++) D[x] = C[(x + 4) % 5] ^ ROT(C[(x + 1) % 5], 1);
    for (x = 0; x < 25; x++) A[x] ^= D[x % 5];
    /* rho: offsets (t+1)(t+2)/2 along the path (x,y) -> (y, 2x+3y) */
    B[0] = A[0];
    x = 1; y = 0;
    for (t = 0; t < 24; t++) {
        unsigned nx = y, ny = (2 * x + 3 * y) % 5;
        B[x + 5 * y] = ROT(A[x + 5 * y], (t + 1) * (t + 2) / 2);
        x = nx; y = ny;
    }
    /* pi: A'[x,y] = A[(x+3y) mod 5, x] */
    for (x = 0; x < 5; x++)
        for (y = 0; y < 5; y++) A[x + 5 * y] = B[(x + 3 * y) % 5 + 5 * x];
    /* chi */
    for (y = 0; y < 5; y++) {
        uint64_t r[5];
        for (x = 0; x < 5; x++) r[x] = A[x + 5 * y];
        for (x = 0; x < 5; x++) A[x + 5 * y] = r[x] ^ (~r[(x + 1) % 5] & r[(x + 2) % 5]);
    }
    /* iota: RC[2^j - 1] = rc(j + 7 ir) */
    for (j = 0; j <= 6; j++) RC |= (uint64_t)rc(j + 7 * ir) << ((1u << j) - 1);
    A[0] ^= RC;
}

/* Keccak-p[1600, 24] = Keccak-f[1600]: rounds 0..23 (12 + 2l - nr = 0) */
void qhasm_kernel_shake256_ref_permute(uint64_t A[25])
{
    unsigned ir;
    for (ir = 0; ir < 24; ir++) round_(A, ir);
}

static uint64_t load_le64(const unsigned char *p)
{
    uint64_t w = 0;
    int i;
    for (i = 7; i >= 0; i--) w = (w << 8) | p[i];
    return w;
}

/* the sponge's absorbing step for nblocks full RATE-byte blocks */
void qhasm_kernel_shake256_ref_blocks(uint64_t A[25], const unsigned char *in, unsigned long long nblocks)
{
    int i;
    for (; nblocks; nblocks--, in += RATE) {
        for (i = 0; i < RATE / 8; i++) A[i] ^= load_le64(in + 8 * i);
        qhasm_kernel_shake256_ref_permute(A);
    }
}

/* SHAKE256(M, 8 outlen): the suffix 1111 and pad10*1 byte by byte (the
 * bits 1111 1 then zeros are the byte 0x1f, the final 1 bit is 0x80 in the
 * last byte of the block), then squeezing RATE bytes per permutation */
int qhasm_ref_shake256(unsigned char *out, unsigned long long outlen,
                       const unsigned char *in, unsigned long long inlen)
{
    uint64_t A[25];
    unsigned char block[RATE];
    unsigned long long i;
    size_t k;
    memset(A, 0, sizeof A);
    while (inlen >= RATE) {
        qhasm_kernel_shake256_ref_blocks(A, in, 1);
        in += RATE; inlen -= RATE;
    }
    memset(block, 0, RATE);
    memcpy(block, in, (size_t)inlen);
    block[inlen] ^= 0x1f;
    block[RATE - 1] ^= 0x80;
    qhasm_kernel_shake256_ref_blocks(A, block, 1);
    for (i = 0, k = 0; i < outlen; i++, k++) {
        if (k == RATE) { qhasm_kernel_shake256_ref_permute(A); k = 0; }
        out[i] = (unsigned char)(A[k / 8] >> (8 * (k % 8)));
    }
    return 0;
}
