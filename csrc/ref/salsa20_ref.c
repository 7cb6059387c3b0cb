/* Salsa20/r reference, following the Salsa20 specification section by
 * section (D. J. Bernstein, https://cr.yp.to/snuffle/spec.pdf).  Words are
 * 32-bit, sequences of bytes are read with littleendian() (section 7). */
#include <string.h>
#include "ref.h"

/* section 2: c <<< b */
static uint32_t rotl(uint32_t c, int b) { return (c << b) | (c >> (32 - b)); }

/* section 3 */
void qhasm_ref_salsa_quarterround(uint32_t y[4])
{
    uint32_t z1 = y[1] ^ rotl(y[0] + y[3], 7);
    uint32_t z2 = y[2] ^ rotl(z1 + y[0], 9);
    uint32_t z3 = y[3] ^ rotl(z2 + z1, 13);
    uint32_t z0 = y[0] ^ rotl(z3 + z2, 18);
    y[0] = z0; y[1] = z1; y[2] = z2; y[3] = z3;
}

/* apply quarterround to words a,b,c,d of x (in that order) */
static void qr(uint32_t *x, int a, int b, int c, int d)
{
    uint32_t y[4];
    y[0] = x[a]; y[1] = x[b]; y[2] = x[c]; y[3] = x[d];
    qhasm_ref_salsa_quarterround(y);
    x[a] = y[0]; x[b] = y[1]; x[c] = y[2]; x[d] = y[3];
}

/* section 4 */
void qhasm_ref_salsa_rowround(uint32_t y[16])
{
    qr(y, 0, 1, 2, 3);
    qr(y, 5, 6, 7, 4);
    qr(y, 10, 11, 8, 9);
    qr(y, 15, 12, 13, 14);
}

/* section 5 */
void qhasm_ref_salsa_columnround(uint32_t x[16])
{
    qr(x, 0, 4, 8, 12);
    qr(x, 5, 9, 13, 1);
    qr(x, 10, 14, 2, 6);
    qr(x, 15, 3, 7, 11);
}

/* section 6 */
void qhasm_ref_salsa_doubleround(uint32_t x[16])
{
    qhasm_ref_salsa_columnround(x);
    qhasm_ref_salsa_rowround(x);
}

void qhasm_ref_salsa_permute(uint32_t out[16], const uint32_t in[16], int rounds)
{
    uint32_t z[16];
    int i;
    for (i = 0; i < 16; i++) z[i] = in[i];
    for (i = 0; i < rounds; i += 2) qhasm_ref_salsa_doubleround(z);
    for (i = 0; i < 16; i++) out[i] = z[i];
}

/* section 7 */
static uint32_t littleendian(const unsigned char *b)
{
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static void littleendian_inv(unsigned char *b, uint32_t w)
{
    b[0] = (unsigned char)w; b[1] = (unsigned char)(w >> 8);
    b[2] = (unsigned char)(w >> 16); b[3] = (unsigned char)(w >> 24);
}

/* section 8: Salsa20(x) = x + doubleround^10(x), wordwise */
void qhasm_ref_salsa_hash(unsigned char out[64], const unsigned char in[64], int rounds)
{
    uint32_t x[16], z[16];
    int i;
    for (i = 0; i < 16; i++) x[i] = littleendian(in + 4 * i);
    qhasm_ref_salsa_permute(z, x, rounds);
    for (i = 0; i < 16; i++) littleendian_inv(out + 4 * i, z[i] + x[i]);
}

static const unsigned char sigma[16] = "expand 32-byte k";

/* section 9: the 64-byte sequence sigma0,k0,sigma1,n,sigma2,k1,sigma3 */
static void expansion_input(unsigned char x[64], const unsigned char *n16,
                            const unsigned char *k32, const unsigned char *c16)
{
    if (!c16) c16 = sigma;
    memcpy(x + 0, c16 + 0, 4);
    memcpy(x + 4, k32, 16);
    memcpy(x + 20, c16 + 4, 4);
    memcpy(x + 24, n16, 16);
    memcpy(x + 40, c16 + 8, 4);
    memcpy(x + 44, k32 + 16, 16);
    memcpy(x + 60, c16 + 12, 4);
}

int qhasm_ref_core_salsa(unsigned char *out64, const unsigned char *in16,
                         const unsigned char *k32, const unsigned char *c16, int rounds)
{
    unsigned char x[64];
    expansion_input(x, in16, k32, c16);
    qhasm_ref_salsa_hash(out64, x, rounds);
    return 0;
}

int qhasm_ref_core_hsalsa(unsigned char *out32, const unsigned char *in16,
                          const unsigned char *k32, const unsigned char *c16, int rounds)
{
    /* HSalsa20 (Bernstein, "Extending the Salsa20 nonce", 2008): words
     * 0,5,10,15,6,7,8,9 of the rounds' output, without feed-forward. */
    static const int pick[8] = { 0, 5, 10, 15, 6, 7, 8, 9 };
    unsigned char b[64];
    uint32_t x[16], z[16];
    int i;
    expansion_input(b, in16, k32, c16);
    for (i = 0; i < 16; i++) x[i] = littleendian(b + 4 * i);
    qhasm_ref_salsa_permute(z, x, rounds);
    for (i = 0; i < 8; i++) littleendian_inv(out32 + 4 * i, z[pick[i]]);
    return 0;
}

/* section 10: Salsa20_k(v) encryption, block i uses n = v || littleendian64(i) */
int qhasm_ref_stream_salsa_xor_ic(unsigned char *c, const unsigned char *m,
                                  unsigned long long mlen, const unsigned char *n8,
                                  uint64_t ic, const unsigned char *k32, int rounds)
{
    unsigned char k[32], n[16], x[64], block[64];
    unsigned long long i;
    uint64_t ctr = ic;
    int j;
    memcpy(k, k32, 32);
    memcpy(n, n8, 8);
    for (i = 0; i < mlen; i += 64) {
        for (j = 0; j < 8; j++) n[8 + j] = (unsigned char)(ctr >> (8 * j));
        expansion_input(x, n, k, sigma);
        qhasm_ref_salsa_hash(block, x, rounds);
        for (j = 0; j < 64 && i + j < mlen; j++) c[i + j] = m[i + j] ^ block[j];
        ctr++;
    }
    return 0;
}

int qhasm_ref_stream_salsa(unsigned char *c, unsigned long long clen,
                           const unsigned char *n8, const unsigned char *k32, int rounds)
{
    unsigned char k[32], n[8];
    memcpy(k, k32, 32);
    memcpy(n, n8, 8);
    memset(c, 0, clen);
    return qhasm_ref_stream_salsa_xor_ic(c, c, clen, n, 0, k, rounds);
}

int qhasm_ref_stream_xsalsa20_xor(unsigned char *c, const unsigned char *m,
                                  unsigned long long mlen,
                                  const unsigned char *n24, const unsigned char *k32)
{
    unsigned char subkey[32], n[8];
    memcpy(n, n24 + 16, 8);
    qhasm_ref_core_hsalsa(subkey, n24, k32, sigma, 20);
    return qhasm_ref_stream_salsa_xor_ic(c, m, mlen, n, 0, subkey, 20);
}

int qhasm_ref_stream_xsalsa20(unsigned char *c, unsigned long long clen,
                              const unsigned char *n24, const unsigned char *k32)
{
    unsigned char subkey[32], n[8];
    memcpy(n, n24 + 16, 8);
    qhasm_ref_core_hsalsa(subkey, n24, k32, sigma, 20);
    memset(c, 0, clen);
    return qhasm_ref_stream_salsa_xor_ic(c, c, clen, n, 0, subkey, 20);
}

/* the kernel interface on top of the reference (implementation "ref") */
static void ref_blocks(unsigned char *c, const unsigned char *m,
                       unsigned long long nblocks, uint32_t x[16], int rounds)
{
    unsigned char in[64], block[64];
    int j;
    while (nblocks-- > 0) {
        for (j = 0; j < 16; j++) littleendian_inv(in + 4 * j, x[j]);
        qhasm_ref_salsa_hash(block, in, rounds);
        for (j = 0; j < 64; j++) c[j] = m[j] ^ block[j];
        c += 64; m += 64;
        if (++x[8] == 0) ++x[9];
    }
}

#define REF_KERNEL(R) \
void qhasm_kernel_salsa##R##_ref_blocks(unsigned char *c, const unsigned char *m, \
                                        unsigned long long nblocks, uint32_t x[16]) \
{ ref_blocks(c, m, nblocks, x, R); } \
void qhasm_kernel_salsa##R##_ref_core(uint32_t out[16], const uint32_t in[16]) \
{ qhasm_ref_salsa_permute(out, in, R); }

REF_KERNEL(20)
REF_KERNEL(12)
REF_KERNEL(8)
