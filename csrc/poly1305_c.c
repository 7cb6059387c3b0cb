/* Implementation "c" of the Poly1305 kernel interface (see impl.h):
 * portable C, radix 2^26 (five limbs, 32x32->64-bit products), after the
 * well-known poly1305-donna 32-bit layout. */
#include "impl.h"

typedef struct {
    uint32_t r[5];
    uint32_t h[5];
    uint32_t pad[4];
} c_state;

static inline uint32_t ld32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void st32(unsigned char *p, uint32_t w)
{
    p[0] = (unsigned char)w; p[1] = (unsigned char)(w >> 8);
    p[2] = (unsigned char)(w >> 16); p[3] = (unsigned char)(w >> 24);
}

void qhasm_kernel_poly1305_c_init(void *state, const unsigned char *k)
{
    c_state *st = (c_state *)state;
    /* r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, split in 26-bit limbs */
    st->r[0] = (ld32(k + 0)) & 0x3ffffff;
    st->r[1] = (ld32(k + 3) >> 2) & 0x3ffff03;
    st->r[2] = (ld32(k + 6) >> 4) & 0x3ffc0ff;
    st->r[3] = (ld32(k + 9) >> 6) & 0x3f03fff;
    st->r[4] = (ld32(k + 12) >> 8) & 0x00fffff;
    st->h[0] = st->h[1] = st->h[2] = st->h[3] = st->h[4] = 0;
    st->pad[0] = ld32(k + 16);
    st->pad[1] = ld32(k + 20);
    st->pad[2] = ld32(k + 24);
    st->pad[3] = ld32(k + 28);
}

void qhasm_kernel_poly1305_c_blocks(void *state, const unsigned char *m,
                                    unsigned long long nblocks, unsigned int hibit)
{
    c_state *st = (c_state *)state;
    const uint32_t hib = hibit ? (1u << 24) : 0;
    const uint32_t r0 = st->r[0], r1 = st->r[1], r2 = st->r[2], r3 = st->r[3], r4 = st->r[4];
    const uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
    uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
    uint64_t d0, d1, d2, d3, d4;
    uint32_t c;

    while (nblocks-- > 0) {
        h0 += (ld32(m + 0)) & 0x3ffffff;
        h1 += (ld32(m + 3) >> 2) & 0x3ffffff;
        h2 += (ld32(m + 6) >> 4) & 0x3ffffff;
        h3 += (ld32(m + 9) >> 6) & 0x3ffffff;
        h4 += (ld32(m + 12) >> 8) | hib;

        d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 + (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
        d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 + (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
        d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 + (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
        d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 + (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
        d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 + (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

        c = (uint32_t)(d0 >> 26); h0 = (uint32_t)d0 & 0x3ffffff;
        d1 += c; c = (uint32_t)(d1 >> 26); h1 = (uint32_t)d1 & 0x3ffffff;
        d2 += c; c = (uint32_t)(d2 >> 26); h2 = (uint32_t)d2 & 0x3ffffff;
        d3 += c; c = (uint32_t)(d3 >> 26); h3 = (uint32_t)d3 & 0x3ffffff;
        d4 += c; c = (uint32_t)(d4 >> 26); h4 = (uint32_t)d4 & 0x3ffffff;
        h0 += c * 5; c = h0 >> 26; h0 &= 0x3ffffff;
        h1 += c;
        m += 16;
    }
    st->h[0] = h0; st->h[1] = h1; st->h[2] = h2; st->h[3] = h3; st->h[4] = h4;
}

void qhasm_kernel_poly1305_c_final(void *state, unsigned char *a16)
{
    c_state *st = (c_state *)state;
    uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
    uint32_t g0, g1, g2, g3, g4, c, mask;
    uint64_t f;

    /* fully carry h */
    c = h1 >> 26; h1 &= 0x3ffffff;
    h2 += c; c = h2 >> 26; h2 &= 0x3ffffff;
    h3 += c; c = h3 >> 26; h3 &= 0x3ffffff;
    h4 += c; c = h4 >> 26; h4 &= 0x3ffffff;
    h0 += c * 5; c = h0 >> 26; h0 &= 0x3ffffff;
    h1 += c;

    /* g = h + 5 - 2^130; use g if it is not negative (h >= p) */
    g0 = h0 + 5; c = g0 >> 26; g0 &= 0x3ffffff;
    g1 = h1 + c; c = g1 >> 26; g1 &= 0x3ffffff;
    g2 = h2 + c; c = g2 >> 26; g2 &= 0x3ffffff;
    g3 = h3 + c; c = g3 >> 26; g3 &= 0x3ffffff;
    g4 = h4 + c - (1u << 26);
    mask = (g4 >> 31) - 1;              /* all ones if g4 did not borrow */
    g0 &= mask; g1 &= mask; g2 &= mask; g3 &= mask; g4 &= mask;
    mask = ~mask;
    h0 = (h0 & mask) | g0; h1 = (h1 & mask) | g1; h2 = (h2 & mask) | g2;
    h3 = (h3 & mask) | g3; h4 = (h4 & mask) | g4;

    /* h mod 2^128 as four 32-bit words, plus s */
    h0 = h0 | (h1 << 26);
    h1 = (h1 >> 6) | (h2 << 20);
    h2 = (h2 >> 12) | (h3 << 14);
    h3 = (h3 >> 18) | (h4 << 8);
    f = (uint64_t)h0 + st->pad[0];             st32(a16 + 0, (uint32_t)f);
    f = (uint64_t)h1 + st->pad[1] + (f >> 32); st32(a16 + 4, (uint32_t)f);
    f = (uint64_t)h2 + st->pad[2] + (f >> 32); st32(a16 + 8, (uint32_t)f);
    f = (uint64_t)h3 + st->pad[3] + (f >> 32); st32(a16 + 12, (uint32_t)f);
}
