/* The public Salsa20-family functions, implemented once on top of the
 * kernel interface (impl.h) of whichever implementation is selected. */
#include <string.h>
#include "impl.h"

static const unsigned char sigma[16] = "expand 32-byte k";

static uint32_t ld32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void st32(unsigned char *p, uint32_t w)
{
    p[0] = (unsigned char)w; p[1] = (unsigned char)(w >> 8);
    p[2] = (unsigned char)(w >> 16); p[3] = (unsigned char)(w >> 24);
}

/* memset plus a compiler barrier that claims to read the buffer, so the
 * stores cannot be elided as dead (the byte-wise volatile loop this replaces
 * cost about 60 ticks per call, as much as encrypting 16 bytes) */
static void wipe(void *p, size_t n)
{
    memset(p, 0, n);
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    {
        volatile unsigned char *v = (volatile unsigned char *)p;
        while (n--) *v++ = 0;
    }
#endif
}

/* x = the 16-word input block: constants c16, key k32, 16 bytes in16 */
static void setup(uint32_t x[16], const unsigned char *in16,
                  const unsigned char *k32, const unsigned char *c16)
{
    int i;
    if (!c16) c16 = sigma;
    x[0] = ld32(c16); x[5] = ld32(c16 + 4); x[10] = ld32(c16 + 8); x[15] = ld32(c16 + 12);
    for (i = 0; i < 4; i++) {
        x[1 + i] = ld32(k32 + 4 * i);
        x[11 + i] = ld32(k32 + 16 + 4 * i);
        x[6 + i] = ld32(in16 + 4 * i);
    }
}

int qhasm_salsa_wrap_core(const qhasm_impl *im, unsigned char *out,
                          const unsigned char *in16, const unsigned char *k32,
                          const unsigned char *c16, int hsalsa)
{
    static const int pick[8] = { 0, 5, 10, 15, 6, 7, 8, 9 };
    uint32_t x[16], z[16];
    int i;
    setup(x, in16, k32, c16);           /* every input read before out is written */
    QHASM_SALSA_CORE(im)(z, x);
    if (hsalsa)
        for (i = 0; i < 8; i++) st32(out + 4 * i, z[pick[i]]);
    else
        for (i = 0; i < 16; i++) st32(out + 4 * i, z[i] + x[i]);
    wipe(x, sizeof x);
    wipe(z, sizeof z);
    return 0;
}

/* state x from key and 8-byte nonce, counter ic */
static void stream_setup(uint32_t x[16], const unsigned char *n8, uint64_t ic,
                         const unsigned char *k32)
{
    unsigned char in[16];
    memcpy(in, n8, 8);
    memset(in + 8, 0, 8);
    setup(x, in, k32, sigma);
    x[8] = (uint32_t)ic;
    x[9] = (uint32_t)(ic >> 32);
}

/* encrypt with a ready state: full blocks in the kernel, the partial last
 * block through a 64-byte local buffer (never touches c/m beyond mlen) */
static void xor_state(const qhasm_impl *im, unsigned char *c,
                      const unsigned char *m, unsigned long long mlen, uint32_t x[16])
{
    unsigned long long full = mlen / 64;
    unsigned int rem = (unsigned int)(mlen % 64);
    unsigned char buf[64];
    if (full) QHASM_SALSA_BLOCKS(im)(c, m, full, x);
    if (rem) {
        memset(buf, 0, sizeof buf);
        memcpy(buf, m + 64 * full, rem);
        QHASM_SALSA_BLOCKS(im)(buf, buf, 1, x);
        memcpy(c + 64 * full, buf, rem);
        wipe(buf, sizeof buf);
    }
}

int qhasm_salsa_wrap_xor_ic(const qhasm_impl *im, unsigned char *c,
                            const unsigned char *m, unsigned long long mlen,
                            const unsigned char *n8, uint64_t ic,
                            const unsigned char *k32)
{
    uint32_t x[16];
    if (!mlen) return 0;
    stream_setup(x, n8, ic, k32);       /* key and nonce read before c is written */
    xor_state(im, c, m, mlen, x);
    wipe(x, sizeof x);
    return 0;
}

int qhasm_salsa_wrap_stream(const qhasm_impl *im, unsigned char *c,
                            unsigned long long clen, const unsigned char *n8,
                            const unsigned char *k32)
{
    uint32_t x[16];
    if (!clen) return 0;
    stream_setup(x, n8, 0, k32);
    memset(c, 0, clen);
    xor_state(im, c, c, clen, x);
    wipe(x, sizeof x);
    return 0;
}

/* XSalsa20 state: subkey = HSalsa20(k, n[0..15]), nonce n[16..23] */
static void xsalsa_setup(const qhasm_impl *im, uint32_t x[16],
                         const unsigned char *n24, const unsigned char *k32)
{
    unsigned char subkey[32], n[8];
    memcpy(n, n24 + 16, 8);
    qhasm_salsa_wrap_core(im, subkey, n24, k32, sigma, 1);
    stream_setup(x, n, 0, subkey);
    wipe(subkey, sizeof subkey);
}

int qhasm_xsalsa20_wrap_xor(const qhasm_impl *im, unsigned char *c,
                            const unsigned char *m, unsigned long long mlen,
                            const unsigned char *n24, const unsigned char *k32)
{
    uint32_t x[16];
    if (!mlen) return 0;
    xsalsa_setup(im, x, n24, k32);
    xor_state(im, c, m, mlen, x);
    wipe(x, sizeof x);
    return 0;
}

int qhasm_xsalsa20_wrap_stream(const qhasm_impl *im, unsigned char *c,
                               unsigned long long clen,
                               const unsigned char *n24, const unsigned char *k32)
{
    uint32_t x[16];
    if (!clen) return 0;
    xsalsa_setup(im, x, n24, k32);
    memset(c, 0, clen);
    xor_state(im, c, c, clen, x);
    wipe(x, sizeof x);
    return 0;
}

/* ---- the public functions ---------------------------------------------- */
#define PUBLIC(NAME, PRIM) \
int qhasm_core_##NAME(unsigned char *out64, const unsigned char *in16, \
                      const unsigned char *k32, const unsigned char *c16) \
{ return qhasm_salsa_wrap_core(qhasm_select(PRIM, 64), out64, in16, k32, c16, 0); } \
int qhasm_core_h##NAME(unsigned char *out32, const unsigned char *in16, \
                       const unsigned char *k32, const unsigned char *c16) \
{ return qhasm_salsa_wrap_core(qhasm_select(PRIM, 64), out32, in16, k32, c16, 1); } \
int qhasm_stream_##NAME(unsigned char *c, unsigned long long clen, \
                        const unsigned char *n8, const unsigned char *k32) \
{ return qhasm_salsa_wrap_stream(qhasm_select(PRIM, clen), c, clen, n8, k32); } \
int qhasm_stream_##NAME##_xor(unsigned char *c, const unsigned char *m, \
                              unsigned long long mlen, \
                              const unsigned char *n8, const unsigned char *k32) \
{ return qhasm_salsa_wrap_xor_ic(qhasm_select(PRIM, mlen), c, m, mlen, n8, 0, k32); } \
int qhasm_stream_##NAME##_xor_ic(unsigned char *c, const unsigned char *m, \
                                 unsigned long long mlen, \
                                 const unsigned char *n8, uint64_t ic, \
                                 const unsigned char *k32) \
{ return qhasm_salsa_wrap_xor_ic(qhasm_select(PRIM, mlen), c, m, mlen, n8, ic, k32); }

PUBLIC(salsa20, QHASM_PRIM_SALSA20)
PUBLIC(salsa2012, QHASM_PRIM_SALSA2012)
PUBLIC(salsa208, QHASM_PRIM_SALSA208)

int qhasm_stream_xsalsa20(unsigned char *c, unsigned long long clen,
                          const unsigned char *n24, const unsigned char *k32)
{
    return qhasm_xsalsa20_wrap_stream(qhasm_select(QHASM_PRIM_SALSA20, clen), c, clen, n24, k32);
}

int qhasm_stream_xsalsa20_xor(unsigned char *c, const unsigned char *m,
                              unsigned long long mlen,
                              const unsigned char *n24, const unsigned char *k32)
{
    return qhasm_xsalsa20_wrap_xor(qhasm_select(QHASM_PRIM_SALSA20, mlen), c, m, mlen, n24, k32);
}
