/* qhasm-test's direct check of the blocked systematic-form elimination
 * (csrc/mc_gauss.c), the manifest's `check csrc/test_mc_gauss.c:
 * qhasm_test_mc_gauss` on kem_mceliece348864 (the KEMs' KATs and the c
 * against ref comparison check it through MatGen too).
 *
 * Against the textbook constant-time elimination (one pivot per pass, the
 * rows below added while the pivot bit is zero, then the pivot column
 * cleared everywhere; the ref implementation's MatGen): random matrices of
 * many shapes (rows below, at and above multiples of 64, partial last
 * blocks, the two parameter sets' mt x n), matrices made singular by a
 * dependent row (so the failure falls in the first, a middle or the last
 * block), and matrices whose first pivots need rows from far below (a
 * leading block of rows zero in the first block's columns).  Same success or failure, and on success
 * the same matrix word for word, padding words still zero.  The kernel
 * qhasm_mc_gauss_addmul against a scalar product for nx not a multiple
 * of 64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "mc_gauss.h"

int qhasm_test_mc_gauss(int p, int i);

static int textbook(uint64_t *mat, long rows, long nw, long stride)
{
    long r, k, j;
    int fail = 0;
    for (r = 0; r < rows; r++) {
        uint64_t *row = mat + r * stride;
        long w0 = r / 64;
        int sh = (int)(r % 64);
        for (k = r + 1; k < rows; k++) {
            const uint64_t *o = mat + k * stride;
            uint64_t msk = ((row[w0] >> sh) & 1) - 1;
            for (j = w0; j < nw; j++) row[j] ^= o[j] & msk;
        }
        fail |= (int)(1 ^ ((row[w0] >> sh) & 1));
        for (k = 0; k < rows; k++) {
            uint64_t *o = mat + k * stride, msk;
            if (k == r) continue;
            msk = 0 - ((o[w0] >> sh) & 1);
            for (j = w0; j < nw; j++) o[j] ^= row[j] & msk;
        }
    }
    return fail ? -1 : 0;
}

/* kind 0: random; 1: row dep = row a ^ row b; 2: the first z rows zero in
 * the first block's columns */
static long nok, nfail;   /* both outcomes must occur */

static int one(long rows, long ncols, int kind, long dep, long z)
{
    long nw = (ncols + 63) / 64, stride = QHASM_MC_GAUSS_STRIDE(nw), i, j;
    uint64_t *a = calloc((size_t)(rows * stride), 8), *b = calloc((size_t)(rows * stride), 8);
    int ra, rb, res = 0;
    if (!a || !b) { free(a); free(b); return fail("mc_gauss: out of memory"); }
    for (i = 0; i < rows; i++)
        for (j = 0; j < nw; j++) {
            uint64_t v = rnd();
            if (64 * j + 64 > ncols) v &= ncols % 64 ? ((uint64_t)1 << (ncols % 64)) - 1 : ~(uint64_t)0;
            a[i * stride + j] = kind == 2 && i < z && j == 0 ? 0 : v;   /* no pivot among the first z rows */
        }
    if (kind == 1) {
        long s1 = (dep * 7 + 3) % rows, s2 = (dep * 13 + 5) % rows;
        if (s1 == dep) s1 = (s1 + 1) % rows;
        if (s2 == dep || s2 == s1) s2 = (s2 + 2) % rows;
        if (s2 == dep) s2 = (s2 + 1) % rows;
        for (j = 0; j < nw; j++) a[dep * stride + j] = a[s1 * stride + j] ^ a[s2 * stride + j];
    }
    memcpy(b, a, (size_t)(rows * stride) * 8);
    ra = qhasm_mc_gauss_systematic(a, rows, nw, stride);
    rb = textbook(b, rows, nw, stride);
    if (rb) nfail++; else nok++;
    if (ra != rb) res = fail("mc_gauss: %ld x %ld kind %d dep %ld z %ld: returned %d, textbook %d", rows, ncols, kind, dep, z, ra, rb);
    else if (ra == 0)
        for (i = 0; i < rows && !res; i++)
            for (j = 0; j < stride && !res; j++)
                if (a[i * stride + j] != b[i * stride + j])
                    res = fail("mc_gauss: %ld x %ld kind %d z %ld: row %ld word %ld differs", rows, ncols, kind, z, i, j);
    free(a);
    free(b);
    return res;
}

/* path 0: the public (dispatched) kernel, 1: the portable path, 2: the
 * AVX-512 path (1 is returned as "skipped" where it is missing) */
static int addmul_path(int path, long ny, long nx, long n4)
{
    long xs = 4 * n4 + 3, ys = 4 * n4 + 5, ms = (nx + 63) / 64, i, j, k;
    uint64_t *y = malloc(8 * (size_t)(ny * ys)), *w = malloc(8 * (size_t)(ny * ys));
    uint64_t *x = malloc(8 * (size_t)(nx * xs)), *m = malloc(8 * (size_t)(ny * ms));
    int res = 0;
    if (!y || !w || !x || !m) res = fail("mc_gauss: out of memory");
    for (i = 0; !res && i < ny * ys; i++) y[i] = w[i] = rnd();
    for (i = 0; !res && i < nx * xs; i++) x[i] = rnd();
    for (i = 0; !res && i < ny * ms; i++) m[i] = rnd();
    if (!res && path == 0) qhasm_mc_gauss_addmul(y, ny, ys, x, nx, xs, m, ms, 1, n4);
    if (!res && path == 1) qhasm_mc_gauss_addmul_portable(y, ny, ys, x, nx, xs, m, ms, 1, n4);
    if (!res && path == 2 && qhasm_mc_gauss_addmul_avx512(y, ny, ys, x, nx, xs, m, ms, 1, n4)) {
        free(y); free(w); free(x); free(m);
        return -1;
    }
    for (i = 0; !res && i < ny; i++)
        for (j = 0; j < nx; j++)
            if ((m[i * ms + j / 64] >> (j % 64)) & 1)
                for (k = 0; k < 4 * n4; k++) w[i * ys + 1 + k] ^= x[j * xs + 1 + k];
    for (i = 0; !res && i < ny * ys; i++)
        if (y[i] != w[i]) res = fail("mc_gauss_addmul (path %d): ny %ld nx %ld n4 %ld: word %ld differs", path, ny, nx, n4, i);
    free(y); free(w); free(x); free(m);
    return res;
}

static int avx512_missing;

/* every path; a missing AVX-512 path is noted (printed once) */
static int addmul(long ny, long nx, long n4)
{
    int path, r = 0;
    for (path = 0; path < 3 && !r; path++) {
        r = addmul_path(path, ny, nx, n4);
        if (r < 0) { avx512_missing = 1; r = 0; }
    }
    return r;
}

int qhasm_test_mc_gauss(int p, int i)
{
    static const long shapes[][2] = {
        {1, 64}, {5, 70}, {63, 100}, {64, 64}, {64, 200}, {65, 130}, {100, 300}, {127, 128},
        {128, 700}, {129, 1000}, {200, 333}, {300, 1200}, {768, 3488}, {1547, 6960},
    };
    long s, k;
    int r = 0, emulated, form;
    (void)p;
    (void)i;
    stage("mc_gauss: addmul against a scalar product");
    for (k = 1; k <= 200 && !r; k += 37) r = addmul(7, k, 4);
    if (!r) r = addmul(3, 64, 1);
    if (!r) r = addmul(3, 64, 2);
    if (!r) r = addmul(65, 130, 5);
    if (!r) r = addmul(5, 100, 11);                     /* slices of 32, 8 and 4 words */
    if (!r) r = addmul(9, 64, 15);                      /* 32, 16, 8, 4 */
    if (!r) r = addmul(4, 70, 31);                      /* AVX-512: 64, 32, 16, 8, 4 */
    if (!r) r = addmul(66, 64, 16);                     /* AVX-512: 64 */
    if (avx512_missing) fprintf(stderr, "mc_gauss: the AVX-512 path of addmul SKIPPED (not compiled for this target or no AVX-512F/VL on this CPU)\n");
    /* the elimination is the same C on every implementation and target;
     * under emulation (tests/sh/cross.sh sets QHASM_EMULATED=1) the
     * largest shapes, the parameter sets' own, would take most of the
     * child's 600 s on a loaded machine: they run natively */
    emulated = getenv("QHASM_EMULATED") && *getenv("QHASM_EMULATED") == '1';
    if (emulated) fprintf(stderr, "mc_gauss: under emulation the matrices above 200 rows SKIPPED (they run natively)\n");
    stage("mc_gauss: random, singular and far-pivot matrices against the textbook elimination");
    /* form 0: the default (the GF2P8AFFINEQB form where available), form 1:
     * that form turned off (the vpternlogq / vector-extension form) */
    if (!qhasm_mc_gauss_gfni_available())
        fprintf(stderr, "mc_gauss: the GF2P8AFFINEQB form SKIPPED (not compiled for this target or no AVX-512BW/VBMI/GFNI on this CPU)\n");
    for (form = 0; form < (qhasm_mc_gauss_gfni_available() ? 2 : 1) && !r; form++) {
        qhasm_mc_gauss_gfni_enable(form == 0);
        for (s = 0; s < (long)(sizeof shapes / sizeof *shapes) && !r; s++) {
            long rows = shapes[s][0], cols = shapes[s][1];
            int rep, reps = rows > 1000 ? 1 : rows > 500 ? 2 : 6;
            if (emulated && rows > 200) continue;       /* natively only: minutes under qemu */
            for (rep = 0; rep < reps && !r; rep++) r = one(rows, cols, 0, 0, 0);
            if (rows > 2) {
                if (!r) r = one(rows, cols, 1, 0, 0);
                if (!r) r = one(rows, cols, 1, rows / 2, 0);
                if (!r) r = one(rows, cols, 1, rows - 1, 0);
            }
            if (rows > 70 && !r) r = one(rows, cols, 2, 0, 40);
            if (rows > 140 && !r) r = one(rows, cols, 2, 0, 70);
        }
    }
    qhasm_mc_gauss_gfni_enable(1);
    if (!r && (nok < 10 || nfail < 10)) r = fail("mc_gauss: only %ld regular and %ld singular matrices", nok, nfail);
    return r;
}
