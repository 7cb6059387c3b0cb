/* qhasm-test's direct check of FixedWeight's AVX-512 core
 * (csrc/mc_fixedweight.c), the manifest's `check csrc/test_mc_fw.c:
 * qhasm_test_mc_fw` on kem_mceliece6960119.
 *
 * 1. The selection against the textbook (the first t candidates below n,
 *    then a pairwise comparison), for the five Classic McEliece parameter
 *    sets' (n, t, m): random candidate bytes, and crafted ones: all
 *    candidates valid; a duplicate pair at the start, at the end, across
 *    the 32-lane chunks, the first t - 1 and the t-th valid equal; a
 *    duplicate only among the candidates after the t-th valid one (not a
 *    failure); exactly t valid, the last one the last candidate; t - 1
 *    valid (a failure).  Same result, and the same ind whenever t
 *    candidates were valid.
 * 2. The expansion against setting the bits one by one: random index
 *    sets and the edges (0, 63, 64, n - 1), canaries after e.
 * 3. Both KEMs' encapsulation with the core on and off (the portable loops
 *    of csrc/kem_mceliece.h): the same deterministic random bytes must give
 *    the same ciphertext, session key and return value, so the portable
 *    loops stay checked on a CPU with AVX-512 too.
 * Without the core (not compiled, or no AVX-512F/BW/VL) all three are
 * reported SKIPPED: the KEMs then run the portable loops only, which their
 * KATs and round trips check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "mc_fixedweight.h"

int qhasm_test_mc_fw(int p, int i);

typedef struct { long n, t; int m; } fw_params;
static const fw_params sets[] = { {3488, 64, 12}, {4608, 96, 13}, {6688, 128, 13}, {6960, 119, 13}, {8192, 128, 13} };

/* the textbook attempt: 1 on failure; *valid = the count of candidates < n */
static int textbook(uint16_t *ind, const unsigned char *buf, const fw_params *P, long *valid)
{
    long i, j, c = 0;
    for (i = 0; i < 2 * P->t; i++) {
        unsigned v = (buf[2 * i] | (unsigned)buf[2 * i + 1] << 8) & ((1u << P->m) - 1);
        if (v < (unsigned)P->n && c < P->t) ind[c++] = (uint16_t)v;
    }
    *valid = c;
    if (c < P->t) return 1;
    for (i = 0; i < P->t; i++)
        for (j = 0; j < i; j++)
            if (ind[i] == ind[j]) return 1;
    return 0;
}

static void put(unsigned char *buf, long i, unsigned v, int m)
{
    v |= (unsigned)(rnd() << m) & 0xffff;            /* the bits above m are ignored */
    buf[2 * i] = (unsigned char)v;
    buf[2 * i + 1] = (unsigned char)(v >> 8);
}

/* a candidate below n (different from the others) or at or above n */
static unsigned valid_v(const fw_params *P, long i) { return (unsigned)((i * 7919 + 13) % P->n); }
static unsigned invalid_v(const fw_params *P) { return (unsigned)(P->n + rnd_below((size_t)((1L << P->m) - P->n + (P->n == (1L << P->m))))); }

static int select_case(const fw_params *P, const unsigned char *buf, const char *what)
{
    uint16_t a[QHASM_MC_FW_TMAX], b[QHASM_MC_FW_TMAX];
    long valid, j;
    int ra = qhasm_mc_fw_select_avx512(a, buf, P->n, P->t, P->m), rb = textbook(b, buf, P, &valid);
    if (ra != rb)
        return fail("mc_fw select (n %ld t %ld, %s): returned %d, textbook %d", P->n, P->t, what, ra, rb);
    if (valid == P->t)
        for (j = 0; j < P->t; j++)
            if (a[j] != b[j]) return fail("mc_fw select (n %ld t %ld, %s): ind[%ld] = %u, textbook %u", P->n, P->t, what, j, a[j], b[j]);
    return 0;
}

static int selects(const fw_params *P)
{
    unsigned char buf[8 * QHASM_MC_FW_TMAX];
    long t = P->t, i, k;
    int r = 0, n1 = 0, n0 = 0;
    for (k = 0; k < 300 && !r; k++) {                /* random: both outcomes occur */
        uint16_t d[QHASM_MC_FW_TMAX];
        long v;
        rnd_bytes(buf, (size_t)(4 * t));
        if (textbook(d, buf, P, &v)) n1++; else n0++;
        r = select_case(P, buf, "random");
    }
    if (!r && P->n > 4000 && (!n0 || !n1))
        r = fail("mc_fw select (n %ld t %ld): 300 random attempts gave %d successes and %d failures", P->n, t, n0, n1);
    /* crafted: v(i) distinct and valid unless changed */
    {
        static const long pairs[][2] = { {0, 1}, {-2, -1}, {0, -1}, {31, 32}, {63, 64}, {95, 96}, {5, 100}, {-2, 0} };
        for (k = 0; k < (long)(sizeof pairs / sizeof *pairs) && !r; k++) {
            long a = pairs[k][0] < 0 ? t + pairs[k][0] : pairs[k][0], b = pairs[k][1] < 0 ? t + pairs[k][1] : pairs[k][1];
            if (a >= t || b >= t) continue;
            for (i = 0; i < 2 * t; i++) put(buf, i, valid_v(P, i), P->m);
            put(buf, b, valid_v(P, a), P->m);
            r = select_case(P, buf, "a duplicate pair");
        }
        if (!r) {
            for (i = 0; i < 2 * t; i++) put(buf, i, valid_v(P, i), P->m);
            r = select_case(P, buf, "all valid");
        }
        if (!r) {                                    /* equal candidates after the t-th valid: success */
            for (i = 0; i < 2 * t; i++) put(buf, i, valid_v(P, i < t ? i : t), P->m);
            r = select_case(P, buf, "duplicates after the t-th");
        }
        if (!r) {                                    /* t valid, the last one last */
            for (i = 0; i < 2 * t; i++) put(buf, i, i % 2 && i < 2 * t - 1 ? valid_v(P, i) : invalid_v(P), P->m);
            put(buf, 2 * t - 1, valid_v(P, 2 * t - 1), P->m);
            r = select_case(P, buf, "t valid, the last last");
        }
        if (!r) {                                    /* t - 1 valid */
            for (i = 0; i < 2 * t; i++) put(buf, i, i < t - 1 ? valid_v(P, i) : invalid_v(P), P->m);
            r = select_case(P, buf, "t - 1 valid");
        }
    }
    return r;
}

static int expands(const fw_params *P)
{
    unsigned char e[1024 + GUARD], f[1024];
    uint16_t ind[QHASM_MC_FW_TMAX];
    long nb = (P->n + 7) / 8, k, j, c;
    int r = 0;
    for (k = 0; k < 100 && !r; k++) {
        c = 0;
        if (k == 0) {                                /* the edges first */
            long edge[] = { 0, 63, 64, P->n - 1, P->n - 64, 8, 7 };
            for (j = 0; j < (long)(sizeof edge / sizeof *edge) && c < P->t; j++) ind[c++] = (uint16_t)edge[j];
        }
        while (c < P->t) {
            uint16_t v = (uint16_t)rnd_below((size_t)P->n);
            for (j = 0; j < c && ind[j] != v; j++) ;
            if (j == c) ind[c++] = v;
        }
        memset(f, 0, sizeof f);
        for (j = 0; j < P->t; j++) f[ind[j] / 8] |= (unsigned char)(1u << (ind[j] % 8));
        memset(e, 0xa5, sizeof e);
        if (qhasm_mc_fw_expand_avx512(e, ind, P->n, P->t)) return fail("mc_fw expand: the core refused n %ld t %ld", P->n, P->t);
        if (memcmp(e, f, (size_t)nb)) r = fail("mc_fw expand (n %ld t %ld): e differs from the bits set one by one", P->n, P->t);
        for (j = nb; j < nb + GUARD && !r; j++)
            if (e[j] != 0xa5) r = fail("mc_fw expand (n %ld t %ld): byte %ld after e written", P->n, P->t, j - nb);
    }
    return r;
}

/* part 3: a deterministic random-byte stream */
static uint64_t fw_state;
static void fw_rb(unsigned char *x, unsigned long long n)
{
    unsigned long long k;
    for (k = 0; k < n; k++) {
        fw_state = fw_state * 6364136223846793005ULL + 1442695040888963407ULL;
        x[k] = (unsigned char)(fw_state >> 56);
    }
}

typedef int enc_fn(unsigned char *, unsigned char *, const unsigned char *);
static int encs(const char *name, enc_fn *enc, long pklen, long rows, long rowbytes, int pad, long clen)
{
    unsigned char *pk = malloc((size_t)pklen), c0[256], c1[256], k0[32], k1[32];
    long j;
    int r = 0, call;
    if (!pk) return fail("mc_fw: out of memory");
    rnd_bytes(pk, (size_t)pklen);
    if (pad)                                         /* clear each row's padding bits */
        for (j = 0; j < rows; j++) pk[j * rowbytes + rowbytes - 1] &= (unsigned char)((1u << pad) - 1);
    for (call = 0; call < 12 && !r; call++) {
        int r0, r1;
        fw_state = 0x9e3779b97f4a7c15ULL * (uint64_t)(call + 1);
        qhasm_mc_fw_avx512_enable(0);
        r0 = enc(c0, k0, pk);
        fw_state = 0x9e3779b97f4a7c15ULL * (uint64_t)(call + 1);
        qhasm_mc_fw_avx512_enable(1);
        r1 = enc(c1, k1, pk);
        if (r0 != 0 || r1 != 0) r = fail("mc_fw: %s enc returned %d (portable) and %d (core)", name, r0, r1);
        else if (memcmp(c0, c1, (size_t)clen) || memcmp(k0, k1, 32))
            r = fail("mc_fw: %s enc call %d: the portable FixedWeight and the AVX-512 core differ", name, call);
    }
    qhasm_mc_fw_avx512_enable(1);
    free(pk);
    return r;
}

int qhasm_test_mc_fw(int p, int i)
{
    long s;
    int r = 0;
    (void)p;
    (void)i;
    if (!qhasm_mc_fw_avx512(6960, 119, 13)) {
        fprintf(stderr, "mc_fw: the checks of the AVX-512 core of FixedWeight SKIPPED (not compiled for this target or no AVX-512F/BW/VL on this CPU)\n");
        return 0;
    }
    stage("mc_fw: the AVX-512 selection against the textbook");
    for (s = 0; s < (long)(sizeof sets / sizeof *sets) && !r; s++) r = selects(&sets[s]);
    stage("mc_fw: the AVX-512 expansion against the bits set one by one");
    for (s = 0; s < (long)(sizeof sets / sizeof *sets) && !r; s++) r = expands(&sets[s]);
    if (r) return r;
    stage("mc_fw: encapsulation with the portable loops and with the core");
    qhasm_randombytes_set(fw_rb);
    r = encs("mceliece348864", qhasm_kem_mceliece348864_enc, 261120, 768, 340, 0, 96);
    if (!r) r = encs("mceliece6960119", qhasm_kem_mceliece6960119_enc, 1047319, 1547, 677, 5, 194);
    qhasm_randombytes_set(NULL);
    return r;
}
