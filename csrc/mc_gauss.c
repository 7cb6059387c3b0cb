/* mc_gauss.c: constant-time Gaussian elimination to systematic form, the
 * blocked form of Classic McEliece's MatGen (csrc/mc_gauss.h;
 * docs/mceliece-kem.md, "The systematic form").
 *
 * The pivots are taken 64 at a time: block cw = the pivot columns
 * 64 cw .. 64 cw + 63 (one matrix word) and the pivot rows r0 = 64 cw ..
 * r0 + 63.  Per block:
 *
 * 1. the narrow pass, on the block's word of the rows r0 .. rows-1 only
 *    (one word per row): the pivot decisions of the textbook constant-time
 *    elimination (for each pivot, the rows below added while the pivot
 *    bit is zero; then the pivot column cleared in every row), exactly, so
 *    the failure is the same: the columns are dependent.  Alongside, each
 *    pivot row's composition as a bit vector over the block's rows at the
 *    start of the block.  A pivot row pulls the rows below as they were
 *    at the start of the block (not as reduced by the block's earlier
 *    pivots); the difference lies in the span of those earlier pivots, whose
 *    columns are the identity, so clearing its columns below the pivot
 *    with them gives exactly the reduced row.
 * 2. the wide passes, streaming the matrix once each: the new pivot rows =
 *    their compositions times the block's rows (into a buffer); then every
 *    other row += its own bits in the pivot columns times the pivot rows.
 *    Both are one kernel, qhasm_mc_gauss_addmul: per 8-word chunk of a
 *    row, 64 masked XORs (one per bit of the mask word), the mask the bit
 *    moved to the sign and compared (AVX2: vpsllq, vpcmpgtq, vpand, vpxor).
 *
 * The reduced row echelon form is unique, so the result equals that of
 * any other elimination.  Work: about the textbook elimination's row
 * operations, but 64 pivots per pass over the matrix instead of one, the
 * pivot rows in L1/L2, the accumulators in registers.
 *
 * Vector form: GCC vector extensions (4 x 64 bits), on x86-64 compiled for
 * AVX2 too (target_clones, chosen at load time by GNU ifunc), as
 * csrc/ct_sort.c; other compilers: plain 64-bit words.  On x86-64 with gcc
 * the kernel has an AVX-512 path as well (intrinsics, zmm accumulators,
 * vpternlogq), taken when qhasm_cpu_features() reports AVX-512F and VL
 * (QHASM_CPU_DISABLE=avx512f gives the other one).
 * Needs: qhasm_declassify (csrc/kem_impl.h).
 * Provides: qhasm_mc_gauss_systematic, qhasm_mc_gauss_addmul. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#include <stdlib.h>
#include <string.h>
#include "mc_gauss.h"
#include "kem_impl.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#define MG_CLONES __attribute__((target_clones("avx2", "default")))
#include <immintrin.h>
#include "qhasm.h"
#define MG_HAVE_AVX512 1
#define MG_512 __attribute__((target("avx512f,avx512vl")))
#define MG_512I __attribute__((always_inline, target("avx512f,avx512vl")))
#else
#define MG_CLONES
#endif

#if defined(__GNUC__)
typedef uint64_t mg_v4 __attribute__((vector_size(32)));
typedef int64_t mg_v4s __attribute__((vector_size(32)));

/* one row chunk of 4 K words (K = 1, 2, 4, 8: K accumulators, in
 * registers): acc ^= X[j] chunk & (bit j of t) for j < nb (bit j moved to
 * the sign: the compare makes the mask, one per bit for all K) */
static inline __attribute__((always_inline)) void mg_chunk(mg_v4 *a, const int K, const uint64_t *x, long xs,
                                                           uint64_t t, long nb)
{
    mg_v4 s = {t, t, t, t}, acc[8];
    long b;
    int u;
    for (u = 0; u < K; u++) acc[u] = a[u];
    if (nb < 64) s <<= (64 - nb);               /* bit nb-1 at the sign */
#pragma GCC unroll 4
    for (b = nb - 1; b >= 0; b--) {
        mg_v4 m = (mg_v4)((mg_v4s)s < 0);
        const uint64_t *xb = x + b * xs;
        for (u = 0; u < K; u++) {
            mg_v4 y;
            memcpy(&y, xb + 4 * u, 32);
            acc[u] ^= y & m;
        }
        s <<= 1;
    }
    for (u = 0; u < K; u++) a[u] = acc[u];
}

/* the rows of Y, words w .. w + 4 K - 1 */
static inline __attribute__((always_inline)) void mg_rows(uint64_t *Y, long ny, long ys, const uint64_t *X,
                                                          long nx, long xs, const uint64_t *M, long ms, long w,
                                                          const int K)
{
    long i, jw;
    for (i = 0; i < ny; i++) {
        uint64_t *y = Y + i * ys + w;
        mg_v4 a[8];
        memcpy(a, y, 32 * (size_t)K);
        for (jw = 0; 64 * jw < nx; jw++) {
            long nb = nx - 64 * jw < 64 ? nx - 64 * jw : 64;
            mg_chunk(a, K, X + 64 * jw * xs + w, xs, M[i * ms + jw], nb);
        }
        memcpy(y, a, 32 * (size_t)K);
    }
}

/* the words in slices of 32 (8 accumulators), then 16, 8, 4 */
MG_CLONES static void mg_addmul_vec(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                    const uint64_t *M, long ms, long w0, long n4)
{
    long c = 0;
    for (; c + 8 <= n4; c += 8) mg_rows(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c, 8);
    if (c + 4 <= n4) { mg_rows(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c, 4); c += 4; }
    if (c + 2 <= n4) { mg_rows(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c, 2); c += 2; }
    if (c < n4) mg_rows(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c, 1);
}

#ifdef MG_HAVE_AVX512
/* The AVX-512 path (AVX-512F and VL; zmm, 32 registers): the same chunks
 * with 8 words per accumulator (K = 8, 4, 2, 1 zmm: slices of 64, 32, 16,
 * 8 words; a last slice of 4 words on one ymm), the mask the bit shifted to
 * the sign and spread by an arithmetic shift (vpsraq), each masked XOR one
 * vpternlogq (acc ^ (x & mask), immediate 0x78). */
static inline MG_512I void mg512_chunk(__m512i *a, const int K, const uint64_t *x, long xs, uint64_t t,
                                       long nb)
{
    __m512i s = _mm512_set1_epi64((long long)t), acc[8];
    long b;
    int u;
    for (u = 0; u < K; u++) acc[u] = a[u];
    if (nb < 64) s = _mm512_sll_epi64(s, _mm_cvtsi64_si128(64 - nb));   /* bit nb-1 at the sign */
#pragma GCC unroll 4
    for (b = nb - 1; b >= 0; b--) {
        __m512i m = _mm512_srai_epi64(s, 63);
        const uint64_t *xb = x + b * xs;
        for (u = 0; u < K; u++)
            acc[u] = _mm512_ternarylogic_epi64(acc[u], _mm512_loadu_si512((const void *)(xb + 8 * u)), m, 0x78);
        s = _mm512_slli_epi64(s, 1);
    }
    for (u = 0; u < K; u++) a[u] = acc[u];
}

static inline MG_512I void mg512_rows(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                      const uint64_t *M, long ms, long w, const int K)
{
    long i, jw, u;
    for (i = 0; i < ny; i++) {
        uint64_t *y = Y + i * ys + w;
        __m512i a[8];
        for (u = 0; u < K; u++) a[u] = _mm512_loadu_si512((const void *)(y + 8 * u));
        for (jw = 0; 64 * jw < nx; jw++) {
            long nb = nx - 64 * jw < 64 ? nx - 64 * jw : 64;
            mg512_chunk(a, K, X + 64 * jw * xs + w, xs, M[i * ms + jw], nb);
        }
        for (u = 0; u < K; u++) _mm512_storeu_si512((void *)(y + 8 * u), a[u]);
    }
}

/* the last 4 words of a row on one ymm (AVX-512VL forms of the same steps) */
static inline MG_512I void mg512_rows4(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                       const uint64_t *M, long ms, long w)
{
    long i, jw, b;
    for (i = 0; i < ny; i++) {
        uint64_t *y = Y + i * ys + w;
        __m256i a = _mm256_loadu_si256((const __m256i *)y);
        for (jw = 0; 64 * jw < nx; jw++) {
            long nb = nx - 64 * jw < 64 ? nx - 64 * jw : 64;
            const uint64_t *x = X + 64 * jw * xs + w;
            __m256i s = _mm256_set1_epi64x((long long)M[i * ms + jw]);
            if (nb < 64) s = _mm256_sll_epi64(s, _mm_cvtsi64_si128(64 - nb));
#pragma GCC unroll 4
            for (b = nb - 1; b >= 0; b--) {
                __m256i m = _mm256_srai_epi64(s, 63);
                a = _mm256_ternarylogic_epi64(a, _mm256_loadu_si256((const __m256i *)(x + b * xs)), m, 0x78);
                s = _mm256_slli_epi64(s, 1);
            }
        }
        _mm256_storeu_si256((__m256i *)y, a);
    }
}

static MG_512 void mg_addmul_512(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                 const uint64_t *M, long ms, long w0, long n4)
{
    long c = 0;
    for (; c + 16 <= n4; c += 16) mg512_rows(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c, 8);
    if (c + 8 <= n4) { mg512_rows(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c, 4); c += 8; }
    if (c + 4 <= n4) { mg512_rows(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c, 2); c += 4; }
    if (c + 2 <= n4) { mg512_rows(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c, 1); c += 2; }
    if (c < n4) mg512_rows4(Y, ny, ys, X, nx, xs, M, ms, w0 + 4 * c);
}

int qhasm_mc_gauss_addmul_avx512(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                 const uint64_t *M, long ms, long w0, long n4)
{
    const unsigned need = QHASM_CPU_AVX512F | QHASM_CPU_AVX512VL;
    if ((qhasm_cpu_features() & need) != need) return -1;
    mg_addmul_512(Y, ny, ys, X, nx, xs, M, ms, w0, n4);
    return 0;
}
#else
int qhasm_mc_gauss_addmul_avx512(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                 const uint64_t *M, long ms, long w0, long n4)
{
    (void)Y; (void)ny; (void)ys; (void)X; (void)nx; (void)xs; (void)M; (void)ms; (void)w0; (void)n4;
    return -1;
}
#endif

void qhasm_mc_gauss_addmul_portable(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                    const uint64_t *M, long ms, long w0, long n4)
{
    mg_addmul_vec(Y, ny, ys, X, nx, xs, M, ms, w0, n4);
}
#else
int qhasm_mc_gauss_addmul_avx512(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                 const uint64_t *M, long ms, long w0, long n4)
{
    (void)Y; (void)ny; (void)ys; (void)X; (void)nx; (void)xs; (void)M; (void)ms; (void)w0; (void)n4;
    return -1;
}

void qhasm_mc_gauss_addmul_portable(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                                    const uint64_t *M, long ms, long w0, long n4)
{
    long i, j, k;
    for (i = 0; i < ny; i++) {
        uint64_t *y = Y + i * ys + w0;
        for (j = 0; j < nx; j++) {
            uint64_t m = 0 - ((M[i * ms + j / 64] >> (j % 64)) & 1);
            const uint64_t *x = X + j * xs + w0;
            for (k = 0; k < 4 * n4; k++) y[k] ^= x[k] & m;
        }
    }
}
#endif

void qhasm_mc_gauss_addmul(uint64_t *Y, long ny, long ys, const uint64_t *X, long nx, long xs,
                           const uint64_t *M, long ms, long w0, long n4)
{
    if (qhasm_mc_gauss_addmul_avx512(Y, ny, ys, X, nx, xs, M, ms, w0, n4))
        qhasm_mc_gauss_addmul_portable(Y, ny, ys, X, nx, xs, M, ms, w0, n4);
}

/* the narrow pass of one block (see the top): x[k] = the block's word of
 * row r0 + k (k < nr), reduced in place; comp: np rows of cwr words, the
 * pivot rows' compositions; returns 1 if a pivot was missing.
 * The pull of pivot j adds row k > j iff none of the rows j .. k-1 has bit
 * j set (rows with the bit clear leave it clear), so a flag f (the OR of
 * those bits, a one-cycle chain) decides, not the bit of the sum being
 * built (a chain through the sum); the rows added are j+1 .. the first
 * with the bit, their composition bits collected per word in a register. */
static uint64_t mg_narrow(uint64_t *x, const uint64_t *x0, long nr, long np, uint64_t *comp, long cwr)
{
    uint64_t fail = 0;
    long j, k, w, jj;
    memset(comp, 0, sizeof(uint64_t) * (size_t)(np * cwr));
    for (j = 0; j < np; j++) {
        uint64_t *cj = comp + j * cwr, xa = x0[j], f = (x[j] >> j) & 1, sx = 0, sa = 0, xj;
        cj[0] ^= (uint64_t)1 << j;
        for (w = (j + 1) >> 6; 64 * w < nr; w++) {       /* pull rows below while bit j is zero */
            long k1 = 64 * w + 64 < nr ? 64 * w + 64 : nr;
            uint64_t cb = 0;
            for (k = j + 1 > 64 * w ? j + 1 : 64 * w; k < k1; k++) {
                uint64_t m = f - 1, xk = x[k];
                sx ^= xk & m;
                sa ^= x0[k] & m;
                cb |= (m & 1) << (k & 63);
                f |= (xk >> j) & 1;
            }
            cj[w] ^= cb;
        }
        xj = x[j] ^= sx;
        xa ^= sa;
        /* cj: clear bits < j by the pivots; pivot jj has no other bit
         * below j, so xa's bit jj is not changed by the others */
        for (jj = 0; jj < j; jj++) {
            uint64_t m = 0 - ((xa >> jj) & 1);
            const uint64_t *cp = comp + jj * cwr;
            for (w = 0; w < cwr; w++) cj[w] ^= cp[w] & m;
        }
        fail |= 1 ^ ((xj >> j) & 1);
        for (k = 0; k < j; k++) {                       /* clear bit j elsewhere */
            uint64_t m = 0 - ((x[k] >> j) & 1), *ck = comp + k * cwr;
            x[k] ^= xj & m;
            for (w = 0; w < cwr; w++) ck[w] ^= cj[w] & m;
        }
        for (k = j + 1; k < nr; k++) x[k] ^= xj & (0 - ((x[k] >> j) & 1));
    }
    return fail;
}

/* one block's wide passes (see the top) on the words w0 .. w0 + 4 n4 - 1:
 * the pivot rows from their compositions comp, then every other row plus
 * its pivot-column bits mk times the pivot rows (newp: the buffer) */
static void mg_wide(uint64_t *mat, long rows, long stride, long cw, const uint64_t *comp,
                    const uint64_t *mk, uint64_t *newp, long w0, long n4)
{
    long r0 = 64 * cw, nr = rows - r0, np = nr < 64 ? nr : 64, cwr = (nr + 63) / 64, i;
    size_t len = sizeof(uint64_t) * (size_t)(4 * n4);
    if (n4 <= 0) return;
    for (i = 0; i < np; i++) memset(newp + i * stride + w0, 0, len);
    qhasm_mc_gauss_addmul(newp, np, stride, mat + r0 * stride, nr, stride, comp, cwr, w0, n4);
    for (i = 0; i < np; i++) memcpy(mat + (r0 + i) * stride + w0, newp + i * stride + w0, len);
    qhasm_mc_gauss_addmul(mat, r0, stride, newp, np, stride, mk, 1, w0, n4);
    qhasm_mc_gauss_addmul(mat + (r0 + np) * stride, nr - np, stride, newp, np, stride, mk + r0 + np, 1, w0,
                          n4);
}

/* Two phases: every block on the words up to P (the pivot columns, rounded
 * up to 4 words), where all the pivot decisions are made, so a singular
 * matrix (most attempts of a key generation) costs only that part; then,
 * on success, every block's recorded transformation (comp, mk) replayed in
 * order on the words from P on.  Columns do not interact: the replay gives
 * what a single pass over all words would. */
int qhasm_mc_gauss_systematic(uint64_t *mat, long rows, long nw, long stride)
{
    long nrw = (rows + 63) / 64, cw, k, P = (nrw + 3) / 4 * 4, nwr = (nw + 3) / 4 * 4;
    size_t blk = (size_t)(64 * nrw + rows);              /* one block's comp and mk */
    uint64_t *x = malloc(sizeof(uint64_t) * ((size_t)(2 * rows + 64 * stride) + (size_t)nrw * blk));
    uint64_t *x0, *newp, *rec;
    int r = 0;
    if (!x) return -2;
    x0 = x + rows; newp = x0 + rows; rec = newp + 64 * stride;
    for (cw = 0; cw < nrw; cw++) {
        long r0 = 64 * cw, nr = rows - r0, np = nr < 64 ? nr : 64, cwr = (nr + 63) / 64, s = cw / 4 * 4;
        uint64_t pmask = np == 64 ? ~(uint64_t)0 : ((uint64_t)1 << np) - 1, fail;
        uint64_t *comp = rec + (size_t)cw * blk, *mk = comp + 64 * nrw;
        for (k = 0; k < nr; k++) x[k] = x0[k] = mat[(r0 + k) * stride + cw];
        fail = mg_narrow(x, x0, nr, np, comp, cwr);
        qhasm_declassify(&fail, sizeof fail);
        if (fail) { r = -1; break; }
        /* the other rows' bits in the pivot columns: those at the start of
         * the block, as the narrow pass left them for the block's rows */
        for (k = 0; k < r0; k++) mk[k] = mat[k * stride + cw] & pmask;
        for (k = 0; k < nr; k++) mk[r0 + k] = x0[k] & pmask;
        mg_wide(mat, rows, stride, cw, comp, mk, newp, s, (P - s) / 4);
    }
    for (cw = 0; r == 0 && cw < nrw; cw++) {
        uint64_t *comp = rec + (size_t)cw * blk;
        mg_wide(mat, rows, stride, cw, comp, comp + 64 * nrw, newp, P, (nwr - P) / 4);
    }
    free(x);
    return r;
}
