/* Poly1305 reference, following RFC 8439 section 2.5.1.  Numbers below
 * 2^136 are held as 17 little-endian base-256 digits (one per unsigned
 * int, so carries are explicit and nothing overflows); arithmetic is
 * modulo p = 2^130 - 5 using 2^130 = 5 (mod p). */
#include <string.h>
#include "ref.h"

typedef struct {
    unsigned int r[17], s[17], acc[17];
} ref_state;

/* h += c, digits carried; h stays < 2^136 in every use below */
static void add(unsigned int h[17], const unsigned int c[17])
{
    unsigned int u = 0;
    int j;
    for (j = 0; j < 17; j++) {
        u += h[j] + c[j];
        h[j] = u & 255;
        u >>= 8;
    }
}

/* bring digits back to 0..255, folding bits at 2^130 and up back in times 5;
 * the result is < 2^130 + 2^128*3, congruent to the input mod p */
static void squeeze(unsigned int h[17])
{
    unsigned int u = 0;
    int j;
    for (j = 0; j < 16; j++) { u += h[j]; h[j] = u & 255; u >>= 8; }
    u += h[16]; h[16] = u & 3;
    u = 5 * (u >> 2);
    for (j = 0; j < 16; j++) { u += h[j]; h[j] = u & 255; u >>= 8; }
    u += h[16]; h[16] = u;
}

/* h = h * r mod p (partially reduced): digit products of weight
 * 2^(8*(17+k)) = 2^130 * 2^(8k+6) become 5 * 64 = 320 times weight 2^(8k) */
static void mulmod(unsigned int h[17], const unsigned int r[17])
{
    unsigned int hr[17];
    int i, j;
    for (i = 0; i < 17; i++) {
        unsigned int u = 0;
        for (j = 0; j <= i; j++) u += h[j] * r[i - j];
        for (j = i + 1; j < 17; j++) u += 320 * h[j] * r[i + 17 - j];
        hr[i] = u;
    }
    for (i = 0; i < 17; i++) h[i] = hr[i];
    squeeze(h);
}

/* fully reduce h (< 2p) into 0..p-1 */
static void freeze(unsigned int h[17])
{
    static const unsigned int minusp[17] = { 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 252 };
    unsigned int horig[17], negative;
    int j;
    for (j = 0; j < 17; j++) horig[j] = h[j];
    add(h, minusp);                       /* h + 2^136 - p */
    negative = -(h[16] >> 7);             /* all ones if h < p */
    for (j = 0; j < 17; j++) h[j] ^= negative & (horig[j] ^ h[j]);
}

static void ref_init(ref_state *st, const unsigned char *k)
{
    int j;
    /* r = le_bytes_to_num(key[0..15]) clamped; s = le_bytes_to_num(key[16..31]) */
    for (j = 0; j < 16; j++) st->r[j] = k[j];
    st->r[3] &= 15; st->r[7] &= 15; st->r[11] &= 15; st->r[15] &= 15;
    st->r[4] &= 252; st->r[8] &= 252; st->r[12] &= 252;
    st->r[16] = 0;
    for (j = 0; j < 16; j++) st->s[j] = k[16 + j];
    st->s[16] = 0;
    for (j = 0; j < 17; j++) st->acc[j] = 0;
}

/* n = le_bytes_to_num(block || 0x01 (when hibit) ...) ; acc = (acc + n) * r */
static void ref_block(ref_state *st, const unsigned char *b, unsigned int len, unsigned int one)
{
    unsigned int n[17];
    unsigned int j;
    for (j = 0; j < 17; j++) n[j] = 0;
    for (j = 0; j < len; j++) n[j] = b[j];
    n[len] = one;
    add(st->acc, n);
    mulmod(st->acc, st->r);
}

static void ref_final(ref_state *st, unsigned char *a16)
{
    int j;
    freeze(st->acc);
    add(st->acc, st->s);                  /* acc += s; tag = acc mod 2^128 */
    for (j = 0; j < 16; j++) a16[j] = (unsigned char)st->acc[j];
}

int qhasm_ref_onetimeauth_poly1305(unsigned char *a16, const unsigned char *m,
                                   unsigned long long mlen, const unsigned char *k32)
{
    ref_state st;
    unsigned long long i;
    ref_init(&st, k32);
    for (i = 0; i < mlen; i += 16) {
        unsigned int len = (mlen - i >= 16) ? 16 : (unsigned int)(mlen - i);
        ref_block(&st, m + i, len, 1);
    }
    ref_final(&st, a16);
    return 0;
}

/* the kernel interface on top of the reference (implementation "ref") */
void qhasm_kernel_poly1305_ref_init(void *state, const unsigned char *k32)
{
    ref_init((ref_state *)state, k32);
}

void qhasm_kernel_poly1305_ref_blocks(void *state, const unsigned char *m,
                                      unsigned long long nblocks, unsigned int hibit)
{
    while (nblocks-- > 0) {
        ref_block((ref_state *)state, m, 16, hibit);
        m += 16;
    }
}

void qhasm_kernel_poly1305_ref_final(void *state, unsigned char *a16)
{
    ref_final((ref_state *)state, a16);
}
