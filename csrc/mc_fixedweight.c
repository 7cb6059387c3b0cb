/* mc_fixedweight.c: FixedWeight's two loops over t on AVX-512 (see
 * csrc/mc_fixedweight.h; docs/mceliece-kem.md, "FixedWeight on AVX-512").
 *
 * The selection keeps ind[0 .. 127] in four zmm of 16-bit lanes, lane j
 * of chunk c being ind[32 c + j].  Candidate i goes to the slot given by
 * the number of valid candidates before it (a scalar running count; an
 * invalid one to slot 0x7fff, which no lane has): one compare into a mask
 * and one masked move per chunk.  Chunks above slot i cannot be reached
 * yet (slot <= i), so candidate i touches only i / 32 + 1 of them: the
 * count of chunks depends on the public i only.  Distinctness: ind[i]
 * against every lane j < i, the lane limit a mask computed from i.
 *
 * The expansion keeps e as up to 16 zmm of 64-bit words, four at a time:
 * for every j, the word index ind[j] / 64 compared with each lane's word
 * index, the bit 1 << ind[j] % 64 OR-ed into the lanes that match.
 *
 * Work per attempt for mceliece6960119 (t = 119): 190 masked moves
 * instead of the portable loop's 238 x 119 lane updates; per expansion
 * 14 x 119 compares.  No branch and no address depends on the data.
 * Needs: qhasm_cpu_features.  Provides: qhasm_mc_fw_select_avx512,
 * qhasm_mc_fw_expand_avx512. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#include <string.h>
#include "mc_fixedweight.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#include <immintrin.h>
#include "qhasm.h"

#define FW_512 __attribute__((target("avx512f,avx512bw,avx512vl")))

static int fw_have(void)
{
    const unsigned need = QHASM_CPU_AVX512F | QHASM_CPU_AVX512BW | QHASM_CPU_AVX512VL;
    return (qhasm_cpu_features() & need) == need;
}

/* lane j of chunk c: 32 c + j (16-bit) */
static FW_512 __m512i fw_lanes16(int c)
{
    return _mm512_add_epi16(_mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                             15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                            _mm512_set1_epi16((short)(32 * c)));
}

/* the lanes j < i of chunk c, as a mask (i public) */
static uint32_t fw_below(long i, int c)
{
    long k = i - 32 * c;
    return k <= 0 ? 0 : k >= 32 ? 0xffffffffu : (uint32_t)((1u << k) - 1);
}

static FW_512 int fw_select(uint16_t *ind, const unsigned char *buf, long n, long t, int m)
{
    __m512i acc[4], lane[4];
    uint16_t slot[2 * QHASM_MC_FW_TMAX], d[2 * QHASM_MC_FW_TMAX];
    uint32_t count = 0, dup = 0;
    long i;
    int c;
    /* the slots: the running count of candidates < n (0x7fff for the
     * others and beyond t: no lane matches) */
    for (i = 0; i < 2 * t; i++) {
        uint32_t v = ((uint32_t)buf[2 * i] | (uint32_t)buf[2 * i + 1] << 8) & ((1u << m) - 1);
        uint32_t ok = (uint32_t)((v - (uint32_t)n) >> 31) & (uint32_t)((count - (uint32_t)t) >> 31);
        d[i] = (uint16_t)v;
        slot[i] = (uint16_t)(count | (0x7fffu & (ok - 1)));
        count += ok;
    }
    for (c = 0; c < 4; c++) {
        acc[c] = _mm512_setzero_si512();
        lane[c] = fw_lanes16(c);
    }
    for (i = 0; i < 2 * t; i++) {
        __m512i s = _mm512_set1_epi16((short)slot[i]), v = _mm512_set1_epi16((short)d[i]);
        int nc = i / 32 + 1 < 4 ? (int)(i / 32 + 1) : 4;
        for (c = 0; c < nc; c++)
            acc[c] = _mm512_mask_mov_epi16(acc[c], _mm512_cmpeq_epi16_mask(lane[c], s), v);
    }
    for (c = 0; c < 4; c++) _mm512_storeu_si512((void *)(ind + 32 * c), acc[c]);
    /* distinct: ind[i] against the lanes j < i */
    for (i = 1; i < t; i++) {
        __m512i x = _mm512_set1_epi16((short)ind[i]);
        for (c = 0; 32 * c < i; c++)
            dup |= _mm512_mask_cmpeq_epi16_mask(fw_below(i, c), acc[c], x);
    }
    dup = (dup | (0u - dup)) >> 31;                 /* 1 if any pair was equal */
    dup |= (count - (uint32_t)t) >> 31;             /* fewer than t below n */
    return (int)dup;
}

static FW_512 void fw_expand(unsigned char *e, const uint16_t *ind, long n, long t)
{
    uint64_t w[128], q[QHASM_MC_FW_TMAX], b[QHASM_MC_FW_TMAX];
    long nw = (n + 63) / 64, z, j;
    const __m512i step = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    for (j = 0; j < t; j++) {
        q[j] = ind[j] >> 6;
        b[j] = (uint64_t)1 << (ind[j] & 63);
    }
    for (z = 0; z < nw; z += 32) {                   /* four zmm of words */
        __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
        __m512i x0 = _mm512_add_epi64(step, _mm512_set1_epi64(z));
        __m512i x1 = _mm512_add_epi64(x0, _mm512_set1_epi64(8));
        __m512i x2 = _mm512_add_epi64(x0, _mm512_set1_epi64(16));
        __m512i x3 = _mm512_add_epi64(x0, _mm512_set1_epi64(24));
        for (j = 0; j < t; j++) {
            __m512i wq = _mm512_set1_epi64((long long)q[j]), bit = _mm512_set1_epi64((long long)b[j]);
            a0 = _mm512_mask_or_epi64(a0, _mm512_cmpeq_epi64_mask(x0, wq), a0, bit);
            a1 = _mm512_mask_or_epi64(a1, _mm512_cmpeq_epi64_mask(x1, wq), a1, bit);
            a2 = _mm512_mask_or_epi64(a2, _mm512_cmpeq_epi64_mask(x2, wq), a2, bit);
            a3 = _mm512_mask_or_epi64(a3, _mm512_cmpeq_epi64_mask(x3, wq), a3, bit);
        }
        _mm512_storeu_si512((void *)(w + z), a0);
        _mm512_storeu_si512((void *)(w + z + 8), a1);
        _mm512_storeu_si512((void *)(w + z + 16), a2);
        _mm512_storeu_si512((void *)(w + z + 24), a3);
    }
    for (j = 0; j < (n + 7) / 8; j++) e[j] = (unsigned char)(w[j / 8] >> (8 * (j % 8)));
}

static int fw_on = 1;

void qhasm_mc_fw_avx512_enable(int on)
{
    fw_on = on != 0;
}

int qhasm_mc_fw_avx512(long n, long t, int m)
{
    return fw_on && fw_have() && t >= 1 && t <= QHASM_MC_FW_TMAX && m >= 1 && m <= 13 && n >= 0 && n <= (1L << m);
}

int qhasm_mc_fw_select_avx512(uint16_t *ind, const unsigned char *buf, long n, long t, int m)
{
    uint16_t all[QHASM_MC_FW_TMAX];
    int r;
    if (!qhasm_mc_fw_avx512(n, t, m)) return -1;
    r = fw_select(all, buf, n, t, m);
    memcpy(ind, all, (size_t)t * sizeof *ind);
    return r;
}

int qhasm_mc_fw_expand_avx512(unsigned char *e, const uint16_t *ind, long n, long t)
{
    if (!qhasm_mc_fw_avx512(n, t, 13)) return -1;
    fw_expand(e, ind, n, t);
    return 0;
}
#else
void qhasm_mc_fw_avx512_enable(int on)
{
    (void)on;
}

int qhasm_mc_fw_avx512(long n, long t, int m)
{
    (void)n; (void)t; (void)m;
    return 0;
}

int qhasm_mc_fw_select_avx512(uint16_t *ind, const unsigned char *buf, long n, long t, int m)
{
    (void)ind; (void)buf; (void)n; (void)t; (void)m;
    return -1;
}

int qhasm_mc_fw_expand_avx512(unsigned char *e, const uint16_t *ind, long n, long t)
{
    (void)e; (void)ind; (void)n; (void)t;
    return -1;
}
#endif
