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

/* memset, then an empty asm that "reads" the memory, so the compiler
 * cannot drop the stores as dead (a byte-wise volatile loop costs ~450
 * cycles on the 448-byte state, more than hashing a short message) */
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

int qhasm_poly1305_wrap_auth(const qhasm_impl *im, unsigned char *a16,
                             const unsigned char *m, unsigned long long mlen,
                             const unsigned char *k32)
{
    glue_state g;
    glue_init(&g, im, k32);             /* key copied before a16 is written */
    glue_update(&g, m, mlen);
    glue_final(&g, a16);
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
    unsigned char correct[16];
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
