/* qhasm-test's direct check of the constant-time sorts (csrc/ct_sort.c), the
 * manifest's `check csrc/test_ct_sort.c:qhasm_test_ct_sort` on kem_sntrup761
 * (the sort is shared by both KEMs; one primitive runs it).  Against qsort,
 * for both widths: every n from 0 to 600, then the sizes around the powers of
 * two the KEMs and the two code paths use (the flat form below 32 values, the
 * vector form on the stack up to 1024, on the heap above), each with random
 * values, few distinct values (duplicates), values near the maximum,
 * ascending, descending, all equal, the extremes (0, the top bit, the top bit
 * - 1, the maximum); guard words on both sides must stay untouched.  Each
 * case runs up to four times: the public function, the portable path, the
 * AVX2 path and (32 bits) the AVX-512 path (csrc/ct_sort.c: where it is
 * compiled and the CPU has the extension; a line says when one is skipped),
 * each against qsort and so against each other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "ct_sort.h"

int qhasm_test_ct_sort(int p, int i);

#define PATTERNS 8
#define SGUARD 8

static uint64_t pattern(int pat, long k, long n, int bits)
{
    uint64_t max = bits == 32 ? 0xffffffffu : ~(uint64_t)0, top = (uint64_t)1 << (bits - 1);
    static const uint64_t ext[4] = { 0, 1, 2, 3 };
    switch (pat) {
    case 0: return rnd() & max;
    case 1: return rnd_below(4) * (max / 3);                   /* few distinct values */
    case 2: return max - rnd_below(8);                         /* near the maximum */
    case 3: return (uint64_t)k;                                /* ascending */
    case 4: return (uint64_t)(n - k);                          /* descending */
    case 5: return 0x5a5a5a5a5a5a5a5aull & max;                /* all equal */
    case 6: {                                                  /* the extremes */
        uint64_t e = ext[rnd_below(4)];
        return e == 0 ? 0 : e == 1 ? top : e == 2 ? top - 1 : max;
    }
    default: return (rnd() & max) ^ (rnd() & top);             /* signed extremes mixed */
    }
}

static int cmp32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* path 0: the public function, 1: portable, 2: AVX2, 3: AVX-512F (32 bits;
 * -1 if unavailable) */
static int sort_path(int path, int bits, void *x, long n)
{
    if (path == 0) {
        if (bits == 32) qhasm_ct_sort_u32((uint32_t *)x, n); else qhasm_ct_sort_u64((uint64_t *)x, n);
        return 0;
    }
    if (path == 1) {
        if (bits == 32) qhasm_ct_sort_portable_u32((uint32_t *)x, n); else qhasm_ct_sort_portable_u64((uint64_t *)x, n);
        return 0;
    }
    if (path == 3) return bits == 32 ? qhasm_ct_sort_avx512_u32((uint32_t *)x, n) : -1;   /* no 64-bit AVX-512 path */
    return bits == 32 ? qhasm_ct_sort_avx2_u32((uint32_t *)x, n) : qhasm_ct_sort_avx2_u64((uint64_t *)x, n);
}

static const char *const path_name[4] = { "", " (portable path)", " (AVX2 path)", " (AVX-512 path)" };

static int one(long n, int pat, int bits, int path, uint64_t *buf, uint64_t *want)
{
    long k;
    int w = bits / 8;
    unsigned char *b = (unsigned char *)buf, *x = b + SGUARD * w;
    for (k = 0; k < SGUARD * 2 + n; k++) {
        uint64_t v = k >= SGUARD && k < SGUARD + n ? pattern(pat, k - SGUARD, n, bits) : 0xa5a5a5a5a5a5a5a5ull;
        if (bits == 32) ((uint32_t *)b)[k] = (uint32_t)v; else buf[k] = v;
    }
    memcpy(want, x, (size_t)n * w);
    qsort(want, (size_t)n, (size_t)w, bits == 32 ? cmp32 : cmp64);
    if (sort_path(path, bits, x, n)) return 0;   /* path unavailable: reported by the caller */
    if (memcmp(x, want, (size_t)n * w))
        return fail("ct_sort_u%d%s: n %ld pattern %d: differs from qsort", bits, path_name[path], n, pat);
    for (k = 0; k < SGUARD; k++) {
        uint64_t lo = bits == 32 ? ((uint32_t *)b)[k] : buf[k];
        uint64_t hi = bits == 32 ? ((uint32_t *)b)[SGUARD + n + k] : buf[SGUARD + n + k];
        uint64_t g = bits == 32 ? 0xa5a5a5a5u : 0xa5a5a5a5a5a5a5a5ull;
        if (lo != g || hi != g)
            return fail("ct_sort_u%d%s: n %ld pattern %d: wrote outside the array", bits, path_name[path], n, pat);
    }
    return 0;
}

int qhasm_test_ct_sort(int p, int i)
{
    static const long big[] = { 761, 857, 653, 1000, 1023, 1024, 1025, 1536, 2047, 2048, 2049, 4096, 6960, 8192, 8193 };
    uint64_t *buf = malloc((8193 + 2 * SGUARD) * 8), *want = malloc(8193 * 8);
    long n;
    int pat, bits, j, path, npath = 4, r = 0;
    uint32_t probe = 0;
    (void)p;
    (void)i;
    if (!buf || !want) return fail("ct_sort: out of memory");
    if (qhasm_ct_sort_avx2_u32(&probe, 1)) {
        npath = 2;
        fprintf(stderr, "ct_sort: the AVX2 and AVX-512 paths SKIPPED (not compiled for this target or no AVX2 on this CPU)\n");
    } else if (qhasm_ct_sort_avx512_u32(&probe, 1)) {
        npath = 3;
        fprintf(stderr, "ct_sort: the AVX-512 path SKIPPED (not compiled for this target or no AVX-512F on this CPU)\n");
    }
    stage("ct_sort: n 0..600 and 15 larger sizes, 8 patterns, 32 and 64 bits, %d paths, against qsort", npath);
    for (path = 0; path < npath && !r; path++)
        for (bits = 32; bits <= 64 && !r; bits += 32)
            for (pat = 0; pat < PATTERNS && !r; pat++) {
                for (n = 0; n <= 600 && !r; n++) r = one(n, pat, bits, path, buf, want);
                for (j = 0; j < (int)(sizeof big / sizeof *big) && !r; j++) r = one(big[j], pat, bits, path, buf, want);
            }
    free(buf);
    free(want);
    return r;
}
