/* qhasm-test's structured checks of the Classic McEliece Berlekamp-Massey
 * kernel (the manifest's `check csrc/test_mceliece_bm.c:...` line), run
 * after the fixed family's generic checks (random syndromes against ref,
 * canaries, alignments, aliasing, ABI, --valgrind-ct), in the child
 * process, with implementation i of primitive p forced.
 *
 * Syndromes of error patterns: w distinct nonzero field elements a_e with
 * nonzero weights y_e (w = 0, 1, 2, 3, t/2, t-1, t, random), s_j = sum_e
 * y_e a_e^j for j < 2t (m = 13: lanes 238..255 random, which the kernel
 * must ignore).  The shortest recurrence is C(x) = prod_e (1 + a_e x)
 * (unique for w <= t), so the output must be lambda x^(t-w) prod_e (x +
 * a_e) for one nonzero lambda (the inversion-free iteration's scale), and
 * equal to the reference's.  Layouts: docs/mceliece-fft.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "ref/mceliece_fft_ref.h"
#include "ref/mceliece_ref.h"

int qhasm_test_mceliece_bm(int p, int i);

typedef void bm_fn(uint64_t *f, const uint64_t *s);

#define TMAX 119

static int bm_case(int p, int i, int m, int w, int round)
{
    int t = m == 12 ? 64 : 119, sw = m == 12 ? 2 : 4, j, k, b, bad = 0;
    uint16_t a[TMAX], y[TMAX], C[TMAX + 1], lam, q = (uint16_t)((1u << m) - 1);
    uint64_t s[4 * 13], f[2 * 13], fr[2 * 13];
    for (k = 0; k < w; k++) {                       /* distinct nonzero points, nonzero weights */
        int dup;
        do {
            a[k] = (uint16_t)(1 + rnd_below(q));
            for (dup = 0, j = 0; j < k; j++) dup |= a[j] == a[k];
        } while (dup);
        y[k] = (uint16_t)(1 + rnd_below(q));
    }
    for (j = 0; j < sw * m; j++) s[j] = m == 13 ? rnd() : 0;   /* junk above lane 2t (m = 13) */
    for (b = 0; b < m; b++)
        for (j = 0; j < 2 * t; j++) s[sw * b + j / 64] &= ~((uint64_t)1 << (j % 64));
    for (k = 0; k < w; k++) {
        uint16_t v = y[k];
        for (j = 0; j < 2 * t; j++) {
            for (b = 0; b < m; b++) s[sw * b + j / 64] ^= (uint64_t)((v >> b) & 1) << (j % 64);
            v = qhasm_ref_mceliece_gf_mul(m, v, a[k]);
        }
    }
    for (j = 0; j <= t; j++) C[j] = 0;              /* C = prod (1 + a_e x) */
    C[0] = 1;
    for (k = 0; k < w; k++)
        for (j = k + 1; j >= 1; j--) C[j] ^= qhasm_ref_mceliece_gf_mul(m, C[j - 1], a[k]);
    ((bm_fn *)qhasm_prims[p].impls[i].fn[0])(f, s);
    qhasm_ref_mceliece_bm(m, fr, s);
    lam = qhasm_ref_mceliece_get(m, 128, f, t);     /* sigma_t = lambda C_0 */
    if (!lam) return fail("m = %d, %d errors (round %d): sigma_t is 0", m, w, round);
    for (k = 0; k < 128 && !bad; k++) {
        uint16_t got = qhasm_ref_mceliece_get(m, 128, f, k);
        uint16_t want = k <= t ? qhasm_ref_mceliece_gf_mul(m, lam, C[t - k]) : 0;
        if (got != want)
            bad = fail("m = %d, %d errors (round %d): sigma_%d is 0x%x, expected 0x%x (lambda 0x%x times C_%d)",
                       m, w, round, k, got, want, lam, t - k);
    }
    if (!bad && memcmp(f, fr, (size_t)(16 * m)))
        bad = fail("m = %d, %d errors (round %d): differs from the reference", m, w, round);
    return bad;
}

int qhasm_test_mceliece_bm(int p, int i)
{
    int m = atoi(qhasm_prim_param(p, "m")), t = m == 12 ? 64 : 119, r;
    int ws[] = { 0, 1, 2, 3, t / 2, t - 1, t, t, t };
    for (r = 0; r < (int)(sizeof ws / sizeof ws[0]); r++)
        if (bm_case(p, i, m, ws[r], r)) return 1;
    for (r = 0; r < 8; r++)
        if (bm_case(p, i, m, (int)rnd_below((size_t)t + 1), r)) return 1;
    return 0;
}
