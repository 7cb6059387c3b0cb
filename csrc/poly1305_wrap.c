/* The public Poly1305 functions on top of the kernel interface (impl.h):
 * buffering of partial blocks, final-block padding, one-shot, verify. */
#include <stddef.h>
#include <string.h>
#include "impl.h"

typedef struct {
    _Alignas(64) unsigned char kstate[QHASM_POLY1305_KSTATE_BYTES];
    const qhasm_impl *im;
    unsigned int leftover;
    unsigned char buf[16];
} glue_state;

_Static_assert(sizeof(glue_state) <= sizeof(qhasm_onetimeauth_poly1305_state),
               "qhasm_onetimeauth_poly1305_state too small");

/* 16-byte stores through a volatile pointer (p 16-byte aligned; a tail of
 * n % 16 bytes byte by byte), so the compiler can drop none of them; glibc's memset, which
 * this replaced, uses `rep stosb` for these sizes, and that costs about 80
 * ticks on AMD Zen 3 for the 384-byte state: more than hashing a short
 * message (measured: one-shot Poly1305 of 16 bytes 150 -> 70 ticks) */
typedef unsigned long long wipe_v __attribute__((vector_size(16)));
static void wipe(void *p, size_t n)
{
    volatile wipe_v *v = (volatile wipe_v *)p;
    const wipe_v z = { 0, 0 };
    size_t i;
    for (i = 0; i < n / 16; i++) v[i] = z;
    for (i = n & ~(size_t)15; i < n; i++) ((volatile unsigned char *)p)[i] = 0;
}

static void glue_init(glue_state *g, const qhasm_impl *im, const unsigned char *k32)
{
    g->im = im;
    g->leftover = 0;
    QHASM_POLY1305_INIT(im)(g->kstate, k32);
}

static void glue_update(glue_state *g, const unsigned char *m, unsigned long long mlen)
{
    unsigned long long full;
    if (mlen == 0) return;
    if (g->leftover) {
        unsigned int want = 16 - g->leftover;
        if (mlen < want) want = (unsigned int)mlen;
        memcpy(g->buf + g->leftover, m, want);
        g->leftover += want;
        m += want;
        mlen -= want;
        if (g->leftover < 16) return;
        QHASM_POLY1305_BLOCKS(g->im)(g->kstate, g->buf, 1, 1);
        g->leftover = 0;
    }
    full = mlen / 16;
    if (full) QHASM_POLY1305_BLOCKS(g->im)(g->kstate, m, full, 1);
    m += 16 * full;
    mlen -= 16 * full;
    if (mlen) {
        memcpy(g->buf, m, (size_t)mlen);
        g->leftover = (unsigned int)mlen;
    }
}

static void glue_final(glue_state *g, unsigned char *a16)
{
    if (g->leftover) {
        g->buf[g->leftover] = 1;
        memset(g->buf + g->leftover + 1, 0, 15 - g->leftover);
        QHASM_POLY1305_BLOCKS(g->im)(g->kstate, g->buf, 1, 0);
    }
    QHASM_POLY1305_FINAL(g->im)(g->kstate, a16);
    wipe(g, sizeof *g);
}

/* one shot: no buffering of partial blocks, only the final one padded; the
 * kernel state is wiped (only the kernel's own size of it: most of the
 * vector kernels' powers of r are computed only for long messages, and
 * short messages are what this path is for) */
int qhasm_poly1305_wrap_auth(const qhasm_impl *im, unsigned char *a16,
                             const unsigned char *m, unsigned long long mlen,
                             const unsigned char *k32)
{
    _Alignas(64) unsigned char ks[QHASM_POLY1305_KSTATE_BYTES];
    _Alignas(16) unsigned char pad[16];
    unsigned long long full = mlen / 16;
    unsigned int tail = (unsigned int)(mlen % 16);
    if (im->fn[3]) {                    /* a one-shot kernel: state in registers */
        if (tail) {
            memset(pad, 0, sizeof pad);
            memcpy(pad, m + 16 * full, tail);
            pad[tail] = 1;
        }
        QHASM_POLY1305_AUTH(im)(a16, m, full, tail ? pad : NULL, k32);
        if (tail) wipe(pad, sizeof pad);
        return 0;
    }
    QHASM_POLY1305_INIT(im)(ks, k32);   /* the key is read before a16 is written */
    if (full) QHASM_POLY1305_BLOCKS(im)(ks, m, full, 1);
    if (tail) {
        memset(pad, 0, sizeof pad);
        memcpy(pad, m + 16 * full, tail);
        pad[tail] = 1;
        QHASM_POLY1305_BLOCKS(im)(ks, pad, 1, 0);
    }
    QHASM_POLY1305_FINAL(im)(ks, a16);
    wipe(ks, sizeof ks);
    wipe(pad, sizeof pad);
    return 0;
}

int qhasm_poly1305_wrap_init(const qhasm_impl *im,
                             qhasm_onetimeauth_poly1305_state *st,
                             const unsigned char *k32)
{
    glue_init((glue_state *)(void *)st, im, k32);
    return 0;
}

int qhasm_onetimeauth_poly1305(unsigned char *a16, const unsigned char *m,
                               unsigned long long mlen, const unsigned char *k32)
{
    return qhasm_poly1305_wrap_auth(qhasm_select(QHASM_PRIM_POLY1305, mlen), a16, m, mlen, k32);
}

int qhasm_onetimeauth_poly1305_verify(const unsigned char *a16, const unsigned char *m,
                                      unsigned long long mlen, const unsigned char *k32)
{
    return qhasm_poly1305_wrap_verify(qhasm_select(QHASM_PRIM_POLY1305, mlen), a16, m, mlen, k32);
}

int qhasm_poly1305_wrap_verify(const qhasm_impl *im, const unsigned char *a16, const unsigned char *m,
                               unsigned long long mlen, const unsigned char *k32)
{
    _Alignas(16) unsigned char correct[16];
    unsigned int d = 0;
    int i;
    qhasm_poly1305_wrap_auth(im, correct, m, mlen, k32);
    for (i = 0; i < 16; i++) d |= (unsigned int)(a16[i] ^ correct[i]);
    wipe(correct, sizeof correct);
    /* d in 0..255: 0 -> 0, else -1, without a data-dependent branch */
    return (int)(1 & ((d - 1) >> 8)) - 1;
}

int qhasm_onetimeauth_poly1305_init(qhasm_onetimeauth_poly1305_state *st,
                                    const unsigned char *k32)
{
    return qhasm_poly1305_wrap_init(qhasm_select(QHASM_PRIM_POLY1305, ~0ULL), st, k32);
}

int qhasm_onetimeauth_poly1305_update(qhasm_onetimeauth_poly1305_state *st,
                                      const unsigned char *m, unsigned long long mlen)
{
    glue_update((glue_state *)(void *)st, m, mlen);
    return 0;
}

int qhasm_onetimeauth_poly1305_final(qhasm_onetimeauth_poly1305_state *st,
                                     unsigned char *a16)
{
    glue_final((glue_state *)(void *)st, a16);
    return 0;
}
