/* ct_sort_impl.h: the sorts of csrc/ct_sort.c for one width, included with
 * CT_BITS, CT_S (signed type), CT_U (unsigned type), CT_NAME(x) (x with the
 * width's suffix) defined.  No include guard: included once per width, and
 * once more per width with CT_AVX2 defined to 1: then only the vector form,
 * as target("avx2") functions named ..._avx2 whose compare-exchange is
 * vpminsd/vpmaxsd (32 bits) or vpcmpgtq and two vpblendvb (64 bits; AVX2
 * has no vpminsq), from intrinsics: GCC lowers the generic form's mask
 * select to a compare and two blends even for 32 bits. */
#ifndef CT_AVX2
#define CT_AVX2 0
#endif
#ifndef CT_AVX512
#define CT_AVX512 0
#endif
#if CT_AVX512   /* with CT_AVX2 1 and CT_LANES 16: 32 bits only */
#define CT_FN(x) CT_NAME(x##_avx512)
#define CT_ATTR __attribute__((target("avx512f")))
#define CT_INL __attribute__((always_inline, target("avx512f")))
#elif CT_AVX2
#define CT_FN(x) CT_NAME(x##_avx2)
#define CT_ATTR __attribute__((target("avx2")))
#define CT_INL __attribute__((always_inline, target("avx2")))
#else
#define CT_FN(x) CT_NAME(x)
#define CT_ATTR CT_CLONES
#define CT_INL __attribute__((always_inline))
#endif

#if !CT_AVX2
/* ---- flat form: in place, any n ------------------------------------------------ */
/* x[a] <= x[b] afterwards (unsigned): the mask from the borrow of x[b] - x[a] */
static inline void CT_NAME(ct_cswap)(CT_U *x, long a, long b)
{
    CT_U u = x[a], v = x[b];
    CT_U lt = (v ^ ((v ^ u) | ((v - u) ^ u))) >> (CT_BITS - 1);   /* v < u */
    CT_U d = (u ^ v) & (0 - lt);
    x[a] = u ^ d;
    x[b] = v ^ d;
}

/* the network of the header comment of csrc/ct_sort.c with the comparators
 * into the (virtual) padding skipped: a public bound per block */
CT_CLONES static void CT_NAME(ct_sort_flat)(CT_U *x, long n)
{
    long N = 1, k, j, b, t;
    while (N < n) N *= 2;
    for (k = 2; k <= N; k *= 2) {
        for (b = 0; b < n; b += k) {                 /* flip: b+t against b+k-1-t */
            long t0 = b + k - n > 0 ? b + k - n : 0;
            for (t = t0; t < k / 2; t++) CT_NAME(ct_cswap)(x, b + t, b + k - 1 - t);
        }
        for (j = k / 4; j >= 1; j /= 2)              /* half-cleaner: b+t against b+t+j */
            for (b = 0; b < n; b += 2 * j) {
                long te = n - b - j < j ? n - b - j : j;
                for (t = 0; t < te; t++) CT_NAME(ct_cswap)(x, b + t, b + t + j);
            }
    }
}

#endif

#ifdef CT_VECTORS
/* ---- vector form: L = CT_LANES lanes (8 or 4), N = LR values, R >= 8 ------------ */
/* Every comparator of a block size or distance below R is between two rows,
 * lane by lane: no shuffle.  Those of block size k = R 2^s (the flip: lane l
 * against lane l ^ (2^s - 1), row r against row R-1-r) and distance j = R 2^u
 * (lane l against l ^ 2^u, same row) are a lane permutation, the lane-wise
 * min and max and a blend by a constant lane mask.  The input order does not
 * matter to a sort, so the values are stored as they come; only the output is
 * read in the network's order.  min/max from comparison masks (no branch). */
#if !CT_AVX2
typedef CT_S CT_NAME(ct_v) __attribute__((vector_size(CT_LANES * sizeof(CT_S))));
typedef CT_U CT_NAME(ct_vu) __attribute__((vector_size(CT_LANES * sizeof(CT_S))));
#endif
#if CT_AVX512
typedef CT_S CT_NAME(ct_v16) __attribute__((vector_size(CT_LANES * sizeof(CT_S))));
#define V CT_NAME(ct_v16)
#define CT_XOR CT_NAME(ct_xor16)
#define CT_LOW CT_NAME(ct_low16)
#define CT_HALF(u) ((u) == 0 ? 0 : 3 + (u))   /* the ct_xor16 entry of lane l ^ 2^u */
#else
#define V CT_NAME(ct_v)
#define CT_XOR CT_NAME(ct_xor)
#define CT_LOW CT_NAME(ct_low)
#define CT_HALF(u) ((u) == 0 ? 0 : 3)         /* the ct_xor entry of lane l ^ 2^u (u <= 1) */
#endif
#define VU CT_NAME(ct_vu)

#if CT_AVX512
#define VMINMAX(mn, mx, a, b) do { __m512i a_ = (__m512i)(a), b_ = (__m512i)(b); \
        (mn) = (V)_mm512_min_epi32(a_, b_); (mx) = (V)_mm512_max_epi32(a_, b_); } while (0)
#elif CT_AVX2
/* (a, b) = (min, max) lane by lane, signed */
#if CT_BITS == 32
#define VMINMAX(mn, mx, a, b) do { __m256i a_ = (__m256i)(a), b_ = (__m256i)(b); \
        (mn) = (V)_mm256_min_epi32(a_, b_); (mx) = (V)_mm256_max_epi32(a_, b_); } while (0)
#else
#define VMINMAX(mn, mx, a, b) do { __m256i a_ = (__m256i)(a), b_ = (__m256i)(b), m_ = _mm256_cmpgt_epi64(a_, b_); \
        (mn) = (V)_mm256_blendv_epi8(a_, b_, m_); (mx) = (V)_mm256_blendv_epi8(b_, a_, m_); } while (0)
#endif
#else
/* -1 in the lanes where a < b (signed) */
static inline CT_INL V CT_NAME(ct_vlt)(V a, V b)
{
#if defined(__x86_64__)
    return a < b;
#else
    VU d = (VU)a - (VU)b;
    return (V)(d ^ (((VU)a ^ (VU)b) & (d ^ (VU)a))) >> (CT_BITS - 1);
#endif
}
#define VMINMAX(mn, mx, a, b) do { V a_ = (a), b_ = (b), m_ = CT_NAME(ct_vlt)(a_, b_); \
        (mn) = (a_ & m_) | (b_ & ~m_); (mx) = (b_ & m_) | (a_ & ~m_); } while (0)
#endif
#define VCS(a, b) VMINMAX((a), (b), (a), (b))

#if !CT_AVX2
#if CT_LANES == 8
static const V CT_NAME(ct_xor)[4] = {   /* lane l -> l ^ m for m = 1, 3, 7 (flips) and 2 */
    { 1, 0, 3, 2, 5, 4, 7, 6 }, { 3, 2, 1, 0, 7, 6, 5, 4 }, { 7, 6, 5, 4, 3, 2, 1, 0 }, { 2, 3, 0, 1, 6, 7, 4, 5 }
};
static const V CT_NAME(ct_low)[3] = {   /* -1 on the lanes with bit b clear, b = 0, 1, 2 */
    { -1, 0, -1, 0, -1, 0, -1, 0 }, { -1, -1, 0, 0, -1, -1, 0, 0 }, { -1, -1, -1, -1, 0, 0, 0, 0 }
};
#else                                   /* 4 lanes: m = 1, 3 (flips); 2 is never a half-cleaner */
static const V CT_NAME(ct_xor)[4] = { { 1, 0, 3, 2 }, { 3, 2, 1, 0 }, { 0, 1, 2, 3 }, { 2, 3, 0, 1 } };
static const V CT_NAME(ct_low)[2] = { { -1, 0, -1, 0 }, { -1, -1, 0, 0 } };
#endif
#endif
#if CT_AVX512                           /* 16 lanes: m = 1, 3, 7, 15 (flips), then 2, 4 */
static const V CT_NAME(ct_xor16)[6] = {
    { 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14 },
    { 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12 },
    { 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8 },
    { 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 },
    { 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13 },
    { 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11 }
};
static const V CT_NAME(ct_low16)[4] = {   /* -1 on the lanes with bit b clear, b = 0..3 */
    { -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0 },
    { -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0 },
    { -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0 },
    { -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0 }
};
#endif

/* the half-cleaners of distances 4d, 2d, d on the rows Z[m d], m = 0..7 */
static inline CT_INL void CT_FN(ct_rows3)(V *Z, long d)
{
    V v0 = Z[0], v1 = Z[d], v2 = Z[2 * d], v3 = Z[3 * d], v4 = Z[4 * d], v5 = Z[5 * d], v6 = Z[6 * d], v7 = Z[7 * d];
    VCS(v0, v4); VCS(v1, v5); VCS(v2, v6); VCS(v3, v7);
    VCS(v0, v2); VCS(v1, v3); VCS(v4, v6); VCS(v5, v7);
    VCS(v0, v1); VCS(v2, v3); VCS(v4, v5); VCS(v6, v7);
    Z[0] = v0; Z[d] = v1; Z[2 * d] = v2; Z[3 * d] = v3; Z[4 * d] = v4; Z[5 * d] = v5; Z[6 * d] = v6; Z[7 * d] = v7;
}

/* the half-cleaners of distances 2d, d on the rows Z[m d], m = 0..3 */
static inline CT_INL void CT_FN(ct_rows2)(V *Z, long d)
{
    V v0 = Z[0], v1 = Z[d], v2 = Z[2 * d], v3 = Z[3 * d];
    VCS(v0, v2); VCS(v1, v3);
    VCS(v0, v1); VCS(v2, v3);
    Z[0] = v0; Z[d] = v1; Z[2 * d] = v2; Z[3 * d] = v3;
}

/* block sizes 2, 4, 8 of the network on the rows Z[0..7], in registers */
static inline CT_INL void CT_FN(ct_rows8)(V *Z)
{
    V v0 = Z[0], v1 = Z[1], v2 = Z[2], v3 = Z[3], v4 = Z[4], v5 = Z[5], v6 = Z[6], v7 = Z[7];
    VCS(v0, v1); VCS(v2, v3); VCS(v4, v5); VCS(v6, v7);                       /* k = 2 */
    VCS(v0, v3); VCS(v1, v2); VCS(v4, v7); VCS(v5, v6);                       /* k = 4: flip, j = 1 */
    VCS(v0, v1); VCS(v2, v3); VCS(v4, v5); VCS(v6, v7);
    VCS(v0, v7); VCS(v1, v6); VCS(v2, v5); VCS(v3, v4);                       /* k = 8: flip, j = 2, 1 */
    VCS(v0, v2); VCS(v1, v3); VCS(v4, v6); VCS(v5, v7);
    VCS(v0, v1); VCS(v2, v3); VCS(v4, v5); VCS(v6, v7);
    Z[0] = v0; Z[1] = v1; Z[2] = v2; Z[3] = v3; Z[4] = v4; Z[5] = v5; Z[6] = v6; Z[7] = v7;
}

/* lane l against lane l ^ m (perm), the minimum to the lanes of low */
static inline CT_INL V CT_FN(ct_lanes)(V a, V perm, V low)
{
    V mn, mx;
    VMINMAX(mn, mx, a, __builtin_shuffle(a, perm));
    return (mn & low) | (mx & ~low);
}

/* the network on Z (N = LR values, R >= 8 a power of two) */
CT_ATTR static void CT_FN(ct_sort_rows)(V *Z, long R)
{
    long N = CT_LANES * R, k, j, i, b;
    int s;
    for (b = 0; b < R; b += 8) CT_FN(ct_rows8)(Z + b);   /* k = 2, 4, 8 */
    for (k = 16; k <= N; k *= 2) {
        if (k <= R) {
            for (b = 0; b < R; b += k)
                for (i = 0; i < k / 2; i++) VCS(Z[b + i], Z[b + k - 1 - i]);
            j = k / 4;
        } else {
            V perm, low;
            for (s = 0; k > R << s; s++) {}
            perm = CT_XOR[s - 1];
            low = CT_LOW[s - 1];
            for (i = 0; i < R / 2; i++) {                   /* the flip: rows r and R-1-r */
                V a = Z[i], c = __builtin_shuffle(Z[R - 1 - i], perm), mn, mx;
                VMINMAX(mn, mx, a, c);
                Z[i] = (mn & low) | (mx & ~low);
                Z[R - 1 - i] = __builtin_shuffle((mx & low) | (mn & ~low), perm);
            }
            for (j = k / 4; j >= R; j /= 2) {               /* distance R 2^u: within rows */
                int u = 0;
                while (R << u < j) u++;
                for (i = 0; i < R; i++) Z[i] = CT_FN(ct_lanes)(Z[i], CT_XOR[CT_HALF(u)], CT_LOW[u]);
            }
        }
        for (; j >= 4; j /= 8)   /* distances j, j/2, j/4 at once, 8 rows in registers */
            for (b = 0; b < R; b += 2 * j)
                for (i = 0; i < j / 4; i++) CT_FN(ct_rows3)(Z + b + i, j / 4);
        if (j == 2) {            /* the last two at once: one pass over Z instead of two */
            for (b = 0; b < R; b += 4) CT_FN(ct_rows2)(Z + b, 1);
            j = 0;
        }
        for (; j >= 1; j /= 2)
            for (b = 0; b < R; b += 2 * j)
                for (i = 0; i < j; i++) VCS(Z[b + i], Z[b + i + j]);
    }
}

/* the copies in and out are compiled for the same target (the flip of the
 * top bit, the transposition) */
CT_ATTR static void CT_FN(ct_sort_vec)(CT_U *x, long n)
{
    const CT_U top = (CT_U)1 << (CT_BITS - 1);
    V stack[CT_STACK / CT_LANES], *Z = stack;
    void *heap = NULL;
    CT_S *z;
    long N = 8 * CT_LANES, R, i, l;
    if (n < CT_FLAT_BELOW) { CT_NAME(ct_sort_flat)(x, n); return; }
    while (N < n) N *= 2;
    if (N > CT_STACK) {   /* aligned for the vector type by hand (malloc's alignment may be less) */
        heap = malloc((size_t)N * sizeof(CT_S) + sizeof(V));
        if (!heap) { CT_NAME(ct_sort_flat)(x, n); return; }
        Z = (V *)(((uintptr_t)heap + sizeof(V) - 1) & ~(uintptr_t)(sizeof(V) - 1));
    }
    z = (CT_S *)Z;
    R = N / CT_LANES;
    for (i = 0; i < n; i++) z[i] = (CT_S)(x[i] ^ top);
    for (i = n; i < N; i++) z[i] = (CT_S)(~(CT_U)0 ^ top);   /* the maximum */
    CT_FN(ct_sort_rows)(Z, R);
#if CT_AVX512
    if (R % 16 == 0) {   /* 16 rows of a lane at a time: a gather at public addresses, a masked store at the end */
        const __m512i idx = _mm512_setr_epi32(0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240);
        const __m512i t = _mm512_set1_epi32((int)top);
        for (l = 0; l < CT_LANES; l++)
            for (i = 0; i < R && l * R + i < n; i += 16) {
                __m512i v = _mm512_xor_si512(_mm512_i32gather_epi32(idx, z + i * CT_LANES + l, 4), t);
                long m = n - (l * R + i);
                if (m >= 16) _mm512_storeu_si512((void *)(x + l * R + i), v);
                else _mm512_mask_storeu_epi32(x + l * R + i, (__mmask16)((1u << m) - 1), v);
            }
        free(heap);
        return;
    }
#endif
    for (l = 0; l < CT_LANES; l++)                     /* lane l holds x[l R .. l R + R - 1] */
        for (i = 0; i < R && l * R + i < n; i++) x[l * R + i] = (CT_U)z[i * CT_LANES + l] ^ top;
    free(heap);
}
#undef VCS
#undef VMINMAX
#undef V
#undef VU
#undef CT_XOR
#undef CT_LOW
#undef CT_HALF
#endif

#if CT_AVX512
/* path 3 (AVX-512F, 32 bits), for csrc/test_ct_sort.c: 0 if done, -1 if this CPU lacks AVX-512F */
int CT_NAME(qhasm_ct_sort_avx512)(CT_U *x, long n)
{
    if (!(qhasm_cpu_features() & QHASM_CPU_AVX512F)) return -1;
    CT_FN(ct_sort_vec)(x, n);
    return 0;
}
#elif CT_AVX2
/* path 1 (AVX2), for csrc/test_ct_sort.c: 0 if done, -1 if this CPU lacks AVX2 */
int CT_NAME(qhasm_ct_sort_avx2)(CT_U *x, long n)
{
    if (!(qhasm_cpu_features() & QHASM_CPU_AVX2)) return -1;
    CT_FN(ct_sort_vec)(x, n);
    return 0;
}
#else
/* path 0 (portable), for csrc/test_ct_sort.c */
void CT_NAME(qhasm_ct_sort_portable)(CT_U *x, long n)
{
#ifdef CT_VECTORS
    CT_NAME(ct_sort_vec)(x, n);
#else
    CT_NAME(ct_sort_flat)(x, n);
#endif
}
#endif
#undef CT_FN
#undef CT_ATTR
#undef CT_INL
