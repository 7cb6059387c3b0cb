/* Not a test: the syndrome kernels (amd64-avx2, amd64-avx512popcnt) beside
 * SUPERCOP's vec and avx syndromes of the peer bench (../shared/peers-wave2,
 * its bench_syndrome glue), in one process.  Built and run by
 * tests/bench/syndrome-peers.sh, which links the peer libraries compiled
 * twice: as the peer bench does (-march=native: gcc turns the vec C into
 * zmm code on an AVX-512 CPU) and without AVX-512 (-mno-avx512f: SUPERCOP
 * as an AVX2 CPU runs it).  docs/mceliece.md, "Session 11".
 *
 * Every kernel is first checked equal to SUPERCOP's ref (pk at several
 * alignments, random e and weight-64 e); then per round two warm-up calls
 * of each, 16 timings of one call of each in turn (order rotated; lfence,
 * rdtscp, lfence), the mean of the middle 8; the ratio per round to
 * min(vec, avx) of the same round; printed: the median round and the range. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include "qhasm.h"

typedef unsigned char u8;
#define CAT3(a, b, c) a##b##c
#define PEER(set, impl) CAT3(crypto_kem_mceliece, set, impl)
#ifdef SET69
#define NAME "mceliece6960119"
#define ROWS 1547
#define RB 677
#define EB 870
#define SB 194
#define OURS(i) qhasm_kernel_mceliece6960119_syndrome_amd64_##i##_syndrome
#define SETNUM 6960119
#else
#define NAME "mceliece348864"
#define ROWS 768
#define RB 340
#define EB 436
#define SB 96
#define OURS(i) qhasm_kernel_mceliece348864_syndrome_amd64_##i##_syndrome
#define SETNUM 348864
#endif
typedef void fn(u8 *, const u8 *, const u8 *);
extern fn PEER(SETNUM, _ref_bench_syndrome), PEER(SETNUM, _vec_bench_syndrome), PEER(SETNUM, _avx_bench_syndrome);
extern fn OURS(avx2), OURS(avx512popcnt);
enum { NK = 4, MAXR = 1000 };
static fn *const K[NK] = { PEER(SETNUM, _vec_bench_syndrome), PEER(SETNUM, _avx_bench_syndrome), OURS(avx2),
                           OURS(avx512popcnt) };
static const char *const KN[NK] = { "vec", "avx", "amd64-avx2", "amd64-avx512popcnt" };
#define PKB (ROWS * RB)

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static uint64_t tick(void)
{
    unsigned a;
    _mm_lfence();
    uint64_t t = __rdtscp(&a);
    _mm_lfence();
    return t;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 31, nk = (qhasm_cpu_features() & QHASM_CPU_AVX512VPOPCNTDQ) ? NK : NK - 1;
    const char *tag = argc > 2 ? argv[2] : "";
    static double ratio[NK][MAXR], tk[NK][MAXR];
    u8 *buf = aligned_alloc(64, PKB + 128), e[EB + 64], s[256], s2[256];
    if (rounds < 1 || rounds > MAXR || !buf) return 1;
    srand(1);
    for (int al = 0; al < 64; al += 7) {
        u8 *pk = buf + al;
        for (int i = 0; i < PKB; i++) pk[i] = (u8)rand();
        for (int t = 0; t < 3; t++) {
            for (int i = 0; i < EB; i++) e[i] = t < 2 ? (u8)rand() : 0;
            if (t == 2)
                for (int i = 0; i < 64; i++) e[rand() % EB] |= (u8)(1 << (rand() % 8));
            PEER(SETNUM, _ref_bench_syndrome)(s, pk, e);
            for (int k = 0; k < nk; k++) {
                memset(s2, 0, sizeof s2);
                K[k](s2, pk, e);
                if (memcmp(s, s2, SB)) { printf("MISMATCH %s alignment %d e %d\n", KN[k], al, t); return 1; }
            }
        }
    }
    u8 *pk = buf;
    for (int r = 0; r < rounds; r++) {
        double T[NK][16], m[NK];
        for (int k = 0; k < nk; k++) { K[k](s, pk, e); K[k](s, pk, e); }
        for (int i = 0; i < 16; i++)
            for (int kk = 0; kk < nk; kk++) {
                int k = (kk + i) % nk;
                uint64_t a = tick();
                K[k](s, pk, e);
                T[k][i] = (double)(tick() - a);
            }
        for (int k = 0; k < nk; k++) {
            qsort(T[k], 16, sizeof(double), cmpd);
            m[k] = 0;
            for (int i = 4; i < 12; i++) m[k] += T[k][i] / 8;
            tk[k][r] = m[k];
        }
        for (int k = 2; k < nk; k++) ratio[k][r] = m[k] / (m[0] < m[1] ? m[0] : m[1]);
    }
    printf("%s %s ticks:", NAME, tag);
    for (int k = 0; k < nk; k++) {
        qsort(tk[k], (size_t)rounds, sizeof(double), cmpd);
        printf(" %s %.0f", KN[k], tk[k][rounds / 2]);
    }
    for (int k = 2; k < nk; k++) {
        qsort(ratio[k], (size_t)rounds, sizeof(double), cmpd);
        printf(" | %s %.3f (%.3f-%.3f)", KN[k], ratio[k][rounds / 2], ratio[k][0], ratio[k][rounds - 1]);
    }
    printf("\n");
    return 0;
}
