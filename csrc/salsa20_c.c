/* Implementation "c" of the Salsa20/R kernel interface (see impl.h):
 * portable C, compiled on every target, state kept in 16 local words. */
#include "impl.h"

#define ROTL(a, b) (((a) << (b)) | ((a) >> (32 - (b))))

static inline uint32_t ld32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void st32(unsigned char *p, uint32_t w)
{
    p[0] = (unsigned char)w; p[1] = (unsigned char)(w >> 8);
    p[2] = (unsigned char)(w >> 16); p[3] = (unsigned char)(w >> 24);
}

/* z = rounds applied to x (no feed-forward) */
static inline void rounds_(uint32_t z[16], const uint32_t x[16], int rounds)
{
    uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5];
    uint32_t x6 = x[6], x7 = x[7], x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11];
    uint32_t x12 = x[12], x13 = x[13], x14 = x[14], x15 = x[15];
    int i;
    for (i = rounds; i > 0; i -= 2) {
        /* column round */
        x4 ^= ROTL(x0 + x12, 7);   x8 ^= ROTL(x4 + x0, 9);
        x12 ^= ROTL(x8 + x4, 13);  x0 ^= ROTL(x12 + x8, 18);
        x9 ^= ROTL(x5 + x1, 7);    x13 ^= ROTL(x9 + x5, 9);
        x1 ^= ROTL(x13 + x9, 13);  x5 ^= ROTL(x1 + x13, 18);
        x14 ^= ROTL(x10 + x6, 7);  x2 ^= ROTL(x14 + x10, 9);
        x6 ^= ROTL(x2 + x14, 13);  x10 ^= ROTL(x6 + x2, 18);
        x3 ^= ROTL(x15 + x11, 7);  x7 ^= ROTL(x3 + x15, 9);
        x11 ^= ROTL(x7 + x3, 13);  x15 ^= ROTL(x11 + x7, 18);
        /* row round */
        x1 ^= ROTL(x0 + x3, 7);    x2 ^= ROTL(x1 + x0, 9);
        x3 ^= ROTL(x2 + x1, 13);   x0 ^= ROTL(x3 + x2, 18);
        x6 ^= ROTL(x5 + x4, 7);    x7 ^= ROTL(x6 + x5, 9);
        x4 ^= ROTL(x7 + x6, 13);   x5 ^= ROTL(x4 + x7, 18);
        x11 ^= ROTL(x10 + x9, 7);  x8 ^= ROTL(x11 + x10, 9);
        x9 ^= ROTL(x8 + x11, 13);  x10 ^= ROTL(x9 + x8, 18);
        x12 ^= ROTL(x15 + x14, 7); x13 ^= ROTL(x12 + x15, 9);
        x14 ^= ROTL(x13 + x12, 13); x15 ^= ROTL(x14 + x13, 18);
    }
    z[0] = x0; z[1] = x1; z[2] = x2; z[3] = x3; z[4] = x4; z[5] = x5;
    z[6] = x6; z[7] = x7; z[8] = x8; z[9] = x9; z[10] = x10; z[11] = x11;
    z[12] = x12; z[13] = x13; z[14] = x14; z[15] = x15;
}

static inline void blocks_(unsigned char *c, const unsigned char *m,
                           unsigned long long nblocks, uint32_t x[16], int rounds)
{
    uint32_t z[16];
    int i;
    while (nblocks > 0) {
        rounds_(z, x, rounds);
        for (i = 0; i < 16; i++) st32(c + 4 * i, ld32(m + 4 * i) ^ (z[i] + x[i]));
        if (++x[8] == 0) ++x[9];
        c += 64; m += 64; nblocks--;
    }
}

#define C_KERNEL(R) \
void qhasm_kernel_salsa##R##_c_blocks(unsigned char *c, const unsigned char *m, \
                                      unsigned long long nblocks, uint32_t x[16]) \
{ blocks_(c, m, nblocks, x, R); } \
void qhasm_kernel_salsa##R##_c_core(uint32_t out[16], const uint32_t in[16]) \
{ rounds_(out, in, R); }

C_KERNEL(20)
C_KERNEL(12)
C_KERNEL(8)
