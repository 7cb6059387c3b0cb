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
 * (QHASM_CPU_DISABLE=avx512f gives the other one).  Where the CPU also has
 * AVX-512BW, VBMI and GFNI, the whole elimination takes the GF2P8AFFINEQB
 * form below instead (the matrix in tiles of 8 rows, 8 x 8 bit blocks per
 * instruction; the narrow pass on zmm), same results.
 * Needs: qhasm_declassify (csrc/kem_impl.h).
 * Provides: qhasm_mc_gauss_systematic, qhasm_mc_gauss_addmul,
 * qhasm_mc_gauss_gfni_available, qhasm_mc_gauss_gfni_enable. */
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

#ifdef MG_HAVE_AVX512
/* The GF2P8AFFINEQB path (AVX-512F/VL/BW, VBMI and GFNI; docs/mceliece-kem.md,
 * "Session 32").  The matrix is copied into tiles of 8 rows x 1 word: tile
 * (R, w), 64 bytes, byte 8 l + k = byte l of word w of row 8 R + k (rows
 * from `rows` on are zero).  One vgf2p8affineqb multiplies 8 rows by 8
 * pivot rows on one word: its matrix operand, qword l = the 8 x 8 bit block
 * of the 8 pivot rows' byte l (transposed, "A form": one vgf2p8affineqb of
 * a constant by the tile), its data operand the 8 output rows' 8-bit
 * selections of those pivot rows (broadcast; byte k for row k, bit
 * reversed); the result, byte 8 l + k = row k's byte l, is a tile again.
 * So 8 x 8 x 64 row-pivot-bit products per instruction instead of 8 x 64
 * for a masked vpternlogq.  Same passes and pivot decisions as above (the
 * narrow pass is shared); no secret-dependent branch or address. */
#define MGG __attribute__((target("avx512f,avx512vl,avx512bw,avx512vbmi,gfni")))
#define MGGI __attribute__((always_inline, target("avx512f,avx512vl,avx512bw,avx512vbmi,gfni")))

static int mgg_enabled = 1;

void qhasm_mc_gauss_gfni_enable(int on) { mgg_enabled = on; }

int qhasm_mc_gauss_gfni_available(void)
{
    const unsigned need = QHASM_CPU_AVX512F | QHASM_CPU_AVX512VL | QHASM_CPU_AVX512BW;
    if ((qhasm_cpu_features() & need) != need) return 0;
    return __builtin_cpu_supports("gfni") && __builtin_cpu_supports("avx512vbmi");
}

/* the byte transpose within a zmm: byte 8 k + l <-> byte 8 l + k (row-major
 * qwords <-> tile) */
static inline MGGI __m512i mgg_tp(__m512i v)
{
    const __m512i idx = _mm512_set_epi8(63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22, 14, 6,
                                        61, 53, 45, 37, 29, 21, 13, 5, 60, 52, 44, 36, 28, 20, 12, 4,
                                        59, 51, 43, 35, 27, 19, 11, 3, 58, 50, 42, 34, 26, 18, 10, 2,
                                        57, 49, 41, 33, 25, 17, 9, 1, 56, 48, 40, 32, 24, 16, 8, 0);
    return _mm512_permutexvar_epi8(idx, v);
}

/* Y tiles (g, w) at Y + 8 (g ys + w), g < NG, w = w .. w + NW - 1 (NG <= 8,
 * NW <= 2: 16 accumulators), ^= (or = if zero) sum over i < ni of
 * MX[g mxs + i] (bytes: the selections) times the A-form tiles (i, w) at
 * A + 8 (i as + w) */
static inline MGGI void mgg_mul_blk(uint64_t *Y, long ys, const uint64_t *A, long as, long ni,
                                    const uint64_t *MX, long mxs, long w, const int NG, const int NW,
                                    int zero)
{
    __m512i acc[8][2];
    long i;
    int g, u;
    for (g = 0; g < NG; g++)
        for (u = 0; u < NW; u++)
            acc[g][u] = zero ? _mm512_setzero_si512() : _mm512_load_si512((const void *)(Y + 8 * (g * ys + w + u)));
    for (i = 0; i < ni; i++) {
        __m512i a[2];
        for (u = 0; u < NW; u++) a[u] = _mm512_load_si512((const void *)(A + 8 * (i * as + w + u)));
        for (g = 0; g < NG; g++) {
            __m512i x = _mm512_set1_epi64((long long)MX[g * mxs + i]);
            for (u = 0; u < NW; u++)
                acc[g][u] = _mm512_xor_si512(acc[g][u], _mm512_gf2p8affine_epi64_epi8(x, a[u], 0));
        }
    }
    for (g = 0; g < NG; g++)
        for (u = 0; u < NW; u++) _mm512_store_si512((void *)(Y + 8 * (g * ys + w + u)), acc[g][u]);
}

#define MGG_NG(NW)                                                                     \
    switch (ng) {                                                                      \
    case 8: mgg_mul_blk(Yg, ys, A, as, ni, M, ni, w, 8, NW, zero); break;              \
    case 7: mgg_mul_blk(Yg, ys, A, as, ni, M, ni, w, 7, NW, zero); break;              \
    case 6: mgg_mul_blk(Yg, ys, A, as, ni, M, ni, w, 6, NW, zero); break;              \
    case 5: mgg_mul_blk(Yg, ys, A, as, ni, M, ni, w, 5, NW, zero); break;              \
    case 4: mgg_mul_blk(Yg, ys, A, as, ni, M, ni, w, 4, NW, zero); break;              \
    case 3: mgg_mul_blk(Yg, ys, A, as, ni, M, ni, w, 3, NW, zero); break;              \
    case 2: mgg_mul_blk(Yg, ys, A, as, ni, M, ni, w, 2, NW, zero); break;              \
    default: mgg_mul_blk(Yg, ys, A, as, ni, M, ni, w, 1, NW, zero); break;             \
    }

/* the ny groups of Y (tiles), words w0 .. w0 + nwd - 1; MX: ny x ni */
static MGG void mgg_mul(uint64_t *Y, long ys, long ny, const uint64_t *A, long as, long ni,
                        const uint64_t *MX, long w0, long nwd, int zero)
{
    long g0, w;
    for (g0 = 0; g0 < ny; g0 += 8) {
        long ng = ny - g0 < 8 ? ny - g0 : 8;
        uint64_t *Yg = Y + 8 * g0 * ys;
        const uint64_t *M = MX + g0 * ni;
        for (w = w0; w + 2 <= w0 + nwd; w += 2) { MGG_NG(2) }
        if (w < w0 + nwd) { MGG_NG(1) }
    }
}

/* A form of the tiles (g, w), g < ng, w0 <= w < w0 + nwd: per qword the
 * 8 x 8 bit block transposed (row t, bit r -> byte 7 - r, bit 7 - t) */
static MGG void mgg_aform(uint64_t *A, const uint64_t *L, long ls, long ng, long w0, long nwd)
{
    const __m512i c = _mm512_set1_epi64(0x0102040810204080LL);
    long g, w;
    for (g = 0; g < ng; g++)
        for (w = w0; w < w0 + nwd; w++)
            _mm512_store_si512((void *)(A + 8 * (g * ls + w)),
                               _mm512_gf2p8affine_epi64_epi8(c, _mm512_load_si512((const void *)(L + 8 * (g * ls + w))), 0));
}

/* bit-reverse every byte of n qwords (n a multiple of 8) */
static MGG void mgg_rev(uint64_t *x, long n)
{
    const __m512i rv = _mm512_set1_epi64((long long)0x8040201008040201ULL);
    long i;
    for (i = 0; i < n; i += 8)
        _mm512_store_si512((void *)(x + i),
                           _mm512_gf2p8affine_epi64_epi8(_mm512_load_si512((const void *)(x + i)), rv, 0));
}

/* the word offsets of a group's 8 rows, and the lanes of group R that are rows */
static MGG __m512i mgg_rowidx(long stride)
{
    return _mm512_set_epi64(7 * stride, 6 * stride, 5 * stride, 4 * stride, 3 * stride, 2 * stride, stride, 0);
}

static MGG __mmask8 mgg_rowmask(long rows, long R)
{
    long left = rows - 8 * R;
    return left >= 8 ? 0xff : (__mmask8)((1u << left) - 1);
}

/* mat (rows x nw, stride) <-> the tiles L (nr8 groups x nw words) */
static MGG void mgg_to_tiles(uint64_t *L, const uint64_t *mat, long rows, long nw, long stride)
{
    long R, w, nr8 = (rows + 7) / 8;
    const __m512i vi = mgg_rowidx(stride);
    for (R = 0; R < nr8; R++) {
        __mmask8 m = mgg_rowmask(rows, R);
        for (w = 0; w < nw; w++) {
            __m512i v = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), m, vi, (const void *)(mat + 8 * R * stride + w), 8);
            _mm512_store_si512((void *)(L + 8 * (R * nw + w)), mgg_tp(v));
        }
    }
}

static MGG void mgg_from_tiles(uint64_t *mat, const uint64_t *L, long rows, long nw, long stride)
{
    long R, w, nr8 = (rows + 7) / 8;
    const __m512i vi = mgg_rowidx(stride);
    for (R = 0; R < nr8; R++) {
        __mmask8 m = mgg_rowmask(rows, R);
        for (w = 0; w < nw; w++)
            _mm512_mask_i64scatter_epi64((void *)(mat + 8 * R * stride + w), m, vi,
                                         mgg_tp(_mm512_load_si512((const void *)(L + 8 * (R * nw + w)))), 8);
    }
}

/* word w of every row (nr8 groups) into col */
static MGG void mgg_col(uint64_t *col, const uint64_t *L, long nr8, long nw, long w)
{
    long R;
    for (R = 0; R < nr8; R++)
        _mm512_storeu_si512((void *)(col + 8 * R), mgg_tp(_mm512_load_si512((const void *)(L + 8 * (R * nw + w)))));
}

/* one block's wide passes on the tiles' words w0 .. w0 + nwd - 1: the pivot
 * groups = MX1 (ngp x ngin) times the block's groups (as they were); then
 * every other group += MX2 (its rows' selections of the pivot rows, nr8 x
 * ngp) times the new pivot groups */
static void mgg_wide(uint64_t *L, long rows, long nw, long cw, const uint64_t *MX1, const uint64_t *MX2,
                     uint64_t *A, long w0, long nwd)
{
    long r0 = 64 * cw, nr = rows - r0, np = nr < 64 ? nr : 64, G0 = 8 * cw;
    long ngp = (np + 7) / 8, ngin = (nr + 7) / 8, nr8 = (rows + 7) / 8;
    if (nwd <= 0) return;
    mgg_aform(A, L + 8 * G0 * nw, nw, ngin, w0, nwd);
    mgg_mul(L + 8 * G0 * nw, nw, ngp, A, nw, ngin, MX1, w0, nwd, 1);
    mgg_aform(A, L + 8 * G0 * nw, nw, ngp, w0, nwd);
    mgg_mul(L, nw, G0, A, nw, ngp, MX2, w0, nwd, 0);
    mgg_mul(L + 8 * (G0 + ngp) * nw, nw, nr8 - G0 - ngp, A, nw, ngp, MX2 + (G0 + ngp) * ngp, w0, nwd, 0);
}

/* mg_narrow on AVX-512 (same decisions and results): 8 rows per zmm; the
 * pull's rows in a chunk are those up to and including the first with bit
 * j (b ^ (b - 1) of the lanes' bits b; none once the flag is set) */
static inline MGGI uint64_t mgg_rxor(__m512i v)
{
    __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    __m128i q = _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    return (uint64_t)_mm_cvtsi128_si64(q) ^ (uint64_t)_mm_extract_epi64(q, 1);
}

static MGG uint64_t mgg_narrow(uint64_t *x, const uint64_t *x0, long nr, long np, uint64_t *comp, long cws)
{
    uint64_t fail = 0;
    long j, k, w, jj;
    memset(comp, 0, sizeof(uint64_t) * (size_t)(np * cws));
    for (j = 0; j < np; j++) {
        uint64_t *cj = comp + j * cws, xa = x0[j], f = (x[j] >> j) & 1, xj;
        const __m512i bj = _mm512_set1_epi64((long long)((uint64_t)1 << j));
        __m512i sx = _mm512_setzero_si512(), sa = _mm512_setzero_si512(), vxj;
        cj[0] ^= (uint64_t)1 << j;
        for (k = (j + 1) & ~7L; k < nr; k += 8) {        /* pull rows below while bit j is zero */
            unsigned lo = k < j + 1 ? (unsigned)(j + 1 - k) : 0, hi = nr - k < 8 ? (unsigned)(nr - k) : 8;
            __mmask8 valid = (__mmask8)(((1u << hi) - 1) & ~((1u << lo) - 1));
            __m512i xk = _mm512_maskz_loadu_epi64(valid, x + k), ak = _mm512_maskz_loadu_epi64(valid, x0 + k);
            unsigned b = (unsigned)_mm512_test_epi64_mask(xk, bj), add = (b ^ (b - 1)) & valid & (unsigned)(f - 1);
            f |= (b + 255) >> 8;
            sx = _mm512_mask_xor_epi64(sx, (__mmask8)add, sx, xk);
            sa = _mm512_mask_xor_epi64(sa, (__mmask8)add, sa, ak);
            cj[k >> 6] ^= (uint64_t)(add & 255) << (k & 63);
        }
        xj = x[j] ^= mgg_rxor(sx);
        xa ^= mgg_rxor(sa);
        for (w = 0; w < cws; w += 8) {                  /* cj: clear bits < j by the pivots */
            __m512i acc = _mm512_loadu_si512((const void *)(cj + w));
            for (jj = 0; jj < j; jj++)
                acc = _mm512_ternarylogic_epi64(acc, _mm512_loadu_si512((const void *)(comp + jj * cws + w)),
                                                _mm512_set1_epi64((long long)(0 - ((xa >> jj) & 1))), 0x78);
            _mm512_storeu_si512((void *)(cj + w), acc);
        }
        fail |= 1 ^ ((xj >> j) & 1);
        for (k = 0; k < j; k++) {                       /* compositions of the rows above */
            uint64_t *ck = comp + k * cws;
            const __m512i m = _mm512_set1_epi64((long long)(0 - ((x[k] >> j) & 1)));
            for (w = 0; w < cws; w += 8)
                _mm512_storeu_si512((void *)(ck + w), _mm512_ternarylogic_epi64(_mm512_loadu_si512((const void *)(ck + w)),
                                                                                _mm512_loadu_si512((const void *)(cj + w)), m, 0x78));
        }
        vxj = _mm512_set1_epi64((long long)xj);
        for (k = 0; k < nr; k += 8) {                   /* clear bit j elsewhere */
            unsigned hi = nr - k < 8 ? (unsigned)(nr - k) : 8;
            __mmask8 valid = (__mmask8)(((1u << hi) - 1) & ~(j >= k && j < k + 8 ? 1u << (j - k) : 0u));
            __m512i xk = _mm512_maskz_loadu_epi64(valid, x + k);
            __mmask8 m = _mm512_mask_test_epi64_mask(valid, xk, bj);
            _mm512_mask_storeu_epi64(x + k, valid, _mm512_mask_xor_epi64(xk, m, xk, vxj));   /* public store mask */
        }
    }
    return fail;
}

/* the selections of a block of 64 pivots (see mgg_systematic), by byte
 * transposes: MX1 (8 x ngin) from the compositions (8 rows x 8 words per
 * transpose), MX2 (nr8 x 8) from the column */
static MGG void mgg_sel(uint64_t *MX1, const uint64_t *comp, long cws, long ngin, uint64_t *MX2,
                        const uint64_t *col, long nr8)
{
    const __m512i vi = _mm512_set_epi64(7 * cws, 6 * cws, 5 * cws, 4 * cws, 3 * cws, 2 * cws, cws, 0);
    long g, c;
    for (g = 0; g < 8; g++)
        for (c = 0; 8 * c < ngin; c++) {
            __m512i v = _mm512_i64gather_epi64(vi, (const void *)(comp + 8 * g * cws + c), 8);
            long left = ngin - 8 * c;
            __mmask8 m = left >= 8 ? 0xff : (__mmask8)((1u << left) - 1);
            _mm512_mask_storeu_epi64(MX1 + g * ngin + 8 * c, m, mgg_tp(v));
        }
    for (g = 0; g < nr8; g++)
        _mm512_store_si512((void *)(MX2 + 8 * g), mgg_tp(_mm512_loadu_si512((const void *)(col + 8 * g))));
}

static int mgg_systematic(uint64_t *mat, long rows, long nw, long stride)
{
    long nrw = (rows + 63) / 64, nr8 = (rows + 7) / 8, cw, k, g, i;
    long mx1n = (8 * 8 * nrw + 7) / 8 * 8, mx2n = (8 * nr8 + 7) / 8 * 8, blk = mx1n + mx2n;
    size_t tiles = (size_t)(nr8 * nw) * 8;
    size_t tot = (2 * tiles + (size_t)(nrw * blk) + (size_t)(8 * nr8 + 2 * rows + 64 * (nrw + 7)) + 7) / 8 * 64;
    uint64_t *L = aligned_alloc(64, tot);
    uint64_t *A, *rec, *col, *x, *x0, *comp;
    int r = 0;
    if (!L) return -2;
    A = L + tiles; rec = A + tiles; col = rec + nrw * blk; x = col + 8 * nr8; x0 = x + rows; comp = x0 + rows;
    mgg_to_tiles(L, mat, rows, nw, stride);
    for (cw = 0; cw < nrw; cw++) {
        long r0 = 64 * cw, nr = rows - r0, np = nr < 64 ? nr : 64, cwr = (nr + 63) / 64, cws = (cwr + 7) / 8 * 8;
        long ngp = (np + 7) / 8, ngin = (nr + 7) / 8;
        uint64_t pmask = np == 64 ? ~(uint64_t)0 : ((uint64_t)1 << np) - 1, fail;
        uint64_t *MX1 = rec + cw * blk, *MX2 = MX1 + mx1n;
        unsigned char *b1 = (unsigned char *)MX1, *b2 = (unsigned char *)MX2;
        mgg_col(col, L, nr8, nw, cw);
        for (k = 0; k < nr; k++) x[k] = x0[k] = col[r0 + k];
        fail = mgg_narrow(x, x0, nr, np, comp, cws);
        qhasm_declassify(&fail, sizeof fail);
        if (fail) { r = -1; break; }
        /* MX1[g][i] byte k: byte i of row 8 g + k's composition (0 past np);
         * MX2[g][i] byte k: byte i of row 8 g + k's bits in the pivot
         * columns at the start of the block; then bit reversed */
        memset(MX1, 0, 8 * (size_t)blk);
        if (np == 64) mgg_sel(MX1, comp, cws, ngin, MX2, col, nr8);
        else {
            for (g = 0; g < ngp; g++)
                for (k = 0; k < 8 && 8 * g + k < np; k++) {
                    const unsigned char *cb = (const unsigned char *)(comp + (8 * g + k) * cws);
                    for (i = 0; i < ngin; i++) b1[8 * (g * ngin + i) + k] = cb[i];
                }
            for (g = 0; g < nr8; g++)
                for (k = 0; k < 8; k++) {
                    uint64_t v = col[8 * g + k] & pmask;
                    for (i = 0; i < ngp; i++) b2[8 * (g * ngp + i) + k] = (unsigned char)(v >> (8 * i));
                }
        }
        mgg_rev(MX1, blk);
        mgg_wide(L, rows, nw, cw, MX1, MX2, A, cw, nrw - cw);
    }
    for (cw = 0; r == 0 && cw < nrw; cw++)
        mgg_wide(L, rows, nw, cw, rec + cw * blk, rec + cw * blk + mx1n, A, nrw, nw - nrw);
    if (r == 0) mgg_from_tiles(mat, L, rows, nw, stride);
    free(L);
    return r;
}
#else
void qhasm_mc_gauss_gfni_enable(int on) { (void)on; }
int qhasm_mc_gauss_gfni_available(void) { return 0; }
#endif

/* Two phases: every block on the words up to P (the pivot columns, rounded
 * up to 4 words), where all the pivot decisions are made, so a singular
 * matrix (most attempts of a key generation) costs only that part; then,
 * on success, every block's recorded transformation (comp, mk) replayed in
 * order on the words from P on.  Columns do not interact: the replay gives
 * what a single pass over all words would. */
static int mg_systematic(uint64_t *mat, long rows, long nw, long stride)
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

int qhasm_mc_gauss_systematic(uint64_t *mat, long rows, long nw, long stride)
{
#ifdef MG_HAVE_AVX512
    if (mgg_enabled && qhasm_mc_gauss_gfni_available()) return mgg_systematic(mat, rows, nw, stride);
#endif
    return mg_systematic(mat, rows, nw, stride);
}
