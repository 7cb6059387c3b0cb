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
 *          every plane an index pattern (plane b = bit b of the position). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "ref/mceliece_fft_ref.h"

int qhasm_test_mceliece_benes(int p, int i);

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
