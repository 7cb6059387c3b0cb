/* qhasm-test's structured checks of the Classic McEliece Benes network,
 * additive FFT and transpose (the manifest's `check
 * csrc/test_mceliece_fft.c:FUNCTION` lines), run after the fixed family's
 * generic checks (random inputs against ref, canaries, alignments, ABI,
 * --valgrind-ct), in the child process, with implementation i of primitive
 * p forced.  Layouts: docs/mceliece-fft.md.
 *
 *   benes: the semantics, independently of the reference's network: with
 *          pi the specification's permutation of the control bits (computed
 *          by swapping pi's entries), y[i] = x[pi(i)] (forward) or
 *          y[pi(i)] = x[i] (inverse) for random planes and control bits;
 *          all-zero control bits are the identity, all-one control bits;
 *          every plane an index pattern (plane b = bit b of the position).
 *   fft:   monomials c x^k (k = 0, 1, 2, 3, 5, 63, 64, 100, 127) against
 *          c P(e)^k by repeated multiplication (the point order P(e) =
 *          bitrev_m(e) and every coefficient lane), the zero polynomial, a
 *          degree-t polynomial (t = 64, 119) against the reference.
 *   fft_tr: r a single point e (e = 0, 1, 2, 3, 2^m-1 and random) with value
 *          c: s_j = c P(e)^j by repeated multiplication; r = 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "ref/mceliece_fft_ref.h"
#include "ref/mceliece_ref.h"

int qhasm_test_mceliece_benes(int p, int i);
int qhasm_test_mceliece_fft(int p, int i);
int qhasm_test_mceliece_fft_tr(int p, int i);

typedef void benes_fn(uint64_t *v, const unsigned char *c);

static int getbit(const uint64_t *w, long e) { return (int)((w[e / 64] >> (e % 64)) & 1); }

static int benes_case(int p, int i, int m, int planes, int inv, const unsigned char *c, const uint64_t *x,
                      const char *what)
{
    long n = 1L << m, words = n / 64, e;
    int b, bad = 0;
    uint64_t *y = malloc((size_t)(planes * words) * 8);
    int32_t *pi = malloc((size_t)n * sizeof *pi);
    if (!y || !pi) die("malloc");
    memcpy(y, x, (size_t)(planes * words) * 8);
    ((benes_fn *)qhasm_prims[p].impls[i].fn[0])(y, c);
    qhasm_ref_mceliece_benes_pi(m, c, pi);
    for (b = 0; b < planes && !bad; b++)
        for (e = 0; e < n && !bad; e++) {
            int got = inv ? getbit(y + b * words, pi[e]) : getbit(y + b * words, e);
            int want = inv ? getbit(x + b * words, e) : getbit(x + b * words, pi[e]);
            if (got != want)
                bad = fail("%s: plane %d position %ld is %d, expected %d (pi(%ld) = %d, %s)", what, b,
                           inv ? (long)pi[e] : e, got, want, e, pi[e], inv ? "y[pi(i)] = x[i]" : "y[i] = x[pi(i)]");
        }
    free(y);
    free(pi);
    return bad;
}

int qhasm_test_mceliece_benes(int p, int i)
{
    int m = (int)qhasm_prim_param_long(p, "m", 12), planes = (int)qhasm_prim_param_long(p, "planes", 12);
    int inv = (int)qhasm_prim_param_long(p, "inv", 0), r, b, bad = 0;
    long n = 1L << m, words = n / 64, cbytes = (2 * m - 1) * n / 16, e;
    unsigned char *c = malloc((size_t)cbytes);
    uint64_t *x = malloc((size_t)(planes * words) * 8);
    if (!c || !x) die("malloc");
    /* index pattern: plane b holds bit b of the position (plane 0 for one plane) */
    memset(x, 0, (size_t)(planes * words) * 8);
    for (b = 0; b < planes; b++)
        for (e = 0; e < n; e++) x[b * words + e / 64] |= (uint64_t)((e >> b) & 1) << (e % 64);
    memset(c, 0, (size_t)cbytes);
    bad = benes_case(p, i, m, planes, inv, c, x, "control bits zero (identity)");
    memset(c, 0xff, (size_t)cbytes);
    if (!bad) bad = benes_case(p, i, m, planes, inv, c, x, "control bits all one");
    for (r = 0; r < 4 && !bad; r++) {
        rnd_bytes(c, (size_t)cbytes);
        bad = benes_case(p, i, m, planes, inv, c, x, "random control bits, index pattern");
    }
    for (r = 0; r < 4 && !bad; r++) {
        rnd_bytes(c, (size_t)cbytes);
        rnd_bytes((unsigned char *)x, (size_t)(planes * words) * 8);
        bad = benes_case(p, i, m, planes, inv, c, x, "random control bits and planes");
    }
    free(c);
    free(x);
    return bad;
}

typedef void fft_fn(uint64_t *v, const uint64_t *f);

int qhasm_test_mceliece_fft(int p, int i)
{
    static const int ks[] = {0, 1, 2, 3, 5, 63, 64, 100, 127};
    int m = (int)qhasm_prim_param_long(p, "m", 12), t = m == 12 ? 64 : 119, bad = 0, r, k;
    long n = 1L << m, e;
    uint64_t f[26], *v = malloc((size_t)(m * n / 8)), *want = malloc((size_t)(m * n / 8));
    fft_fn *fn = (fft_fn *)qhasm_prims[p].impls[i].fn[0];
    if (!v || !want) die("malloc");
    for (r = 0; r < (int)(sizeof ks / sizeof ks[0]) && !bad; r++) {
        uint16_t c = (uint16_t)(1 + rnd_below((1u << m) - 1));
        memset(f, 0, sizeof f);
        qhasm_ref_mceliece_set(m, 128, f, ks[r], c);
        fn(v, f);
        for (e = 0; e < n && !bad; e++) {
            uint16_t a = qhasm_ref_mceliece_point(m, e), y = c, got = qhasm_ref_mceliece_get(m, (int)n, v, (int)e);
            for (k = 0; k < ks[r]; k++) y = qhasm_ref_mceliece_gf_mul(m, y, a);
            if (got != y)
                bad = fail("f = 0x%x x^%d: position %ld (point 0x%x) is 0x%x, expected 0x%x", c, ks[r], e, a, got, y);
        }
    }
    if (!bad) {
        memset(f, 0, sizeof f);
        memset(v, 0xa5, (size_t)(m * n / 8));
        fn(v, f);
        for (e = 0; e < m * n / 64 && !bad; e++)
            if (v[e]) bad = fail("zero polynomial: word %ld is 0x%llx", e, (unsigned long long)v[e]);
    }
    for (r = 0; r < 2 && !bad; r++) {
        memset(f, 0, sizeof f);
        for (k = 0; k <= t; k++) qhasm_ref_mceliece_set(m, 128, f, k, (uint16_t)rnd_below(1u << m));
        qhasm_ref_mceliece_fft(m, want, f);
        fn(v, f);
        if (memcmp(v, want, (size_t)(m * n / 8))) bad = fail("degree-%d polynomial differs from the reference", t);
    }
    free(v);
    free(want);
    return bad;
}

int qhasm_test_mceliece_fft_tr(int p, int i)
{
    int m = (int)qhasm_prim_param_long(p, "m", 12), K = m == 12 ? 128 : 256, bad = 0, r, j;
    long n = 1L << m;
    long es[8] = {0, 1, 2, 3, n - 1, 0, 0, 0};
    uint64_t s[13 * 4], *v = calloc((size_t)(m * n / 64), 8);
    fft_fn *fn = (fft_fn *)qhasm_prims[p].impls[i].fn[0];
    if (!v) die("calloc");
    for (r = 5; r < 8; r++) es[r] = (long)rnd_below((size_t)n);
    for (r = 0; r < 8 && !bad; r++) {
        uint16_t c = (uint16_t)(1 + rnd_below((1u << m) - 1)), a = qhasm_ref_mceliece_point(m, es[r]), y = c;
        memset(v, 0, (size_t)(m * n / 8));
        qhasm_ref_mceliece_set(m, (int)n, v, (int)es[r], c);
        fn(s, v);
        for (j = 0; j < K && !bad; j++) {
            uint16_t got = qhasm_ref_mceliece_get(m, K, s, j);
            if (got != y)
                bad = fail("r = 0x%x at position %ld (point 0x%x): s_%d is 0x%x, expected 0x%x", c, es[r], a, j, got, y);
            y = qhasm_ref_mceliece_gf_mul(m, y, a);
        }
    }
    if (!bad) {
        memset(v, 0, (size_t)(m * n / 8));
        memset(s, 0xa5, sizeof s);
        fn(s, v);
        for (j = 0; j < m * K / 64 && !bad; j++)
            if (s[j]) bad = fail("r = 0: word %d is 0x%llx", j, (unsigned long long)s[j]);
    }
    free(v);
    return bad;
}
