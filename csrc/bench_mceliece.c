/* bench_mceliece: TSC ticks per call of the Classic McEliece kernels, by
 * the method of ../shared/peers-wave2 (so the figures sit beside its
 * report): lfence;rdtsc;lfence, pinned to the highest allowed CPU; per
 * (kernel, implementation) block a warm-up of >= 100000 ticks, then 32
 * timings, each of a batch of B back-to-back calls on the same inputs
 * (B = 16 for the vector kernels and the transpose, 1 for the syndrome),
 * IQM (mean of the middle 16) / B; R rounds with the implementations of a
 * kernel interleaved; reported: the best round and the median round.
 * Not a test.  Built by tests/sh/mceliece-bench.sh (amd64 only).
 *
 *   bench_mceliece [-r ROUNDS] [-k PREFIX] */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mceliece_impls.h"
#include "ref/mceliece_ref.h"

static inline uint64_t ticks(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

enum { T = 32, WARM = 100000 };

typedef struct {
    const char *kernel, *impl;
    int batch;
    void (*run)(const void *k);        /* one call */
    const void *k;
    double best, rounds[256];
} block;

static uint64_t f[13 * 8], g[13 * 8], h[13 * 8];
static uint64_t tin[64], tout[64];
static unsigned char *pk[2], e[2][1024], s[256];

static void run_vec(const void *p)
{
    const qhasm_mce_vec_kernel *k = p;
    if (k->mul) k->mul(h, f, g);
    else k->un(h, f);
}
static void run_ref_vec(const void *p)
{
    const qhasm_mce_vec_kernel *k = p;
    if (k->mul) qhasm_ref_mceliece_vec_mul(k->m, k->lanes, h, f, g);
    else if (!strcmp(k->op, "sq")) qhasm_ref_mceliece_vec_sq(k->m, k->lanes, h, f);
    else qhasm_ref_mceliece_vec_inv(k->m, k->lanes, h, f);
}
static void run_tr(const void *p) { ((const qhasm_mce_transpose_kernel *)p)->fn(tout, tin); }
static void run_ref_tr(const void *p) { (void)p; qhasm_ref_mceliece_transpose_64x64(tout, tin); }
static void run_syn(const void *p)
{
    const qhasm_mce_syndrome_kernel *k = p;
    k->fn(s, pk[k->set], e[k->set]);
}
static const qhasm_ref_mceliece_params *const sets[2] = { &qhasm_ref_mceliece348864, &qhasm_ref_mceliece6960119 };
static void run_ref_syn(const void *p)
{
    const qhasm_mce_syndrome_kernel *k = p;
    qhasm_ref_mceliece_syndrome(sets[k->set], s, pk[k->set], e[k->set]);
}

static uint16_t ga[256], gb[256], gr[256];
static void run_gfmul(const void *p)
{
    const qhasm_mce_gf_kernel *k = p;
    int i;
    for (i = 0; i < 256; i++) gr[i] = k->mul(ga[i], gb[i]);
}
static void run_gfinv(const void *p)
{
    const qhasm_mce_gf_kernel *k = p;
    int i;
    for (i = 0; i < 64; i++) gr[i] = k->inv(ga[i]);
}
static void run_ref_gfmul(const void *p)
{
    const qhasm_mce_gf_kernel *k = p;
    int i;
    for (i = 0; i < 256; i++) gr[i] = qhasm_ref_mceliece_gf_mul(k->m, ga[i], gb[i]);
}
static void run_ref_gfinv(const void *p)
{
    const qhasm_mce_gf_kernel *k = p;
    int i;
    for (i = 0; i < 64; i++) gr[i] = qhasm_ref_mceliece_gf_inv(k->m, ga[i]);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double measure(block *b)
{
    double t[T], sum = 0;
    uint64_t w0 = ticks();
    int i, j;
    while (ticks() - w0 < WARM) b->run(b->k);
    for (i = 0; i < T; i++) {
        uint64_t t0 = ticks();
        if (b->batch < 0) b->run(b->k);
        else for (j = 0; j < b->batch; j++) b->run(b->k);
        t[i] = (double)(ticks() - t0) / (b->batch < 0 ? -b->batch : b->batch);
    }
    qsort(t, T, sizeof t[0], cmp);
    for (i = T / 4; i < T - T / 4; i++) sum += t[i];
    return sum / (T / 2);
}

static block blocks[512];
static int nblocks;

static void add(const char *kernel, const char *impl, int batch, void (*run)(const void *), const void *k)
{
    block *b = &blocks[nblocks++];
    b->kernel = kernel;
    b->impl = impl;
    b->batch = batch;
    b->run = run;
    b->k = k;
    b->best = 1e300;
}

static char names[512][48];

int main(int argc, char **argv)
{
    int rounds = 31, i, j, r;
    const char *only = NULL;
    unsigned have = qhasm_cpu_features();
    cpu_set_t set;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-k") && i + 1 < argc) only = argv[++i];
    }
    if (rounds > 256) rounds = 256;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (i = CPU_SETSIZE - 1; i >= 0 && !CPU_ISSET(i, &set); i--) {}
        if (i >= 0) { CPU_ZERO(&set); CPU_SET(i, &set); sched_setaffinity(0, sizeof set, &set); }
    }
    for (i = 0; i < 13 * 8; i++) { f[i] = (uint64_t)rand() * 0x9E3779B97F4A7C15ull; g[i] = f[i] ^ 0x1234567; }
    for (i = 0; i < 64; i++) tin[i] = (uint64_t)rand() * 0xBF58476D1CE4E5B9ull;
    for (i = 0; i < 2; i++) {
        int n = qhasm_ref_mceliece_pk_bytes(sets[i]);
        pk[i] = malloc((size_t)n);
        for (j = 0; j < n; j++) pk[i][j] = (unsigned char)rand();
        for (j = 0; j < qhasm_ref_mceliece_e_bytes(sets[i]); j++) e[i][j] = (unsigned char)rand();
    }
    /* blocks: every kernel the CPU supports, the reference C once per kernel */
    for (i = 0; i < qhasm_mce_vec_nkernels; i++) {
        const qhasm_mce_vec_kernel *k = &qhasm_mce_vec_kernels[i];
        char *nm = names[nblocks];
        int seen = 0;
        snprintf(nm, 48, "gf%d_vec%s_%s", k->m, k->lanes == 64 ? "" : k->lanes == 256 ? "256" : "512", k->op);
        if (only && strncmp(nm, only, strlen(only))) continue;
        if (k->features & ~have) continue;
        for (j = 0; j < nblocks; j++) if (!strcmp(blocks[j].kernel, nm)) seen = 1;
        if (!seen) { add(nm, "ref C (elementwise)", 1, run_ref_vec, k); nm = names[nblocks]; strcpy(nm, names[nblocks - 1]); }
        add(nm, k->impl, 16, run_vec, k);
    }
    for (i = 0; i < qhasm_mce_transpose_nkernels; i++) {
        const qhasm_mce_transpose_kernel *k = &qhasm_mce_transpose_kernels[i];
        if ((only && strncmp("transpose", only, strlen(only))) || (k->features & ~have)) continue;
        {
            int seen = 0;
            for (j = 0; j < nblocks; j++) if (!strcmp(blocks[j].kernel, "transpose_64x64")) seen = 1;
            if (!seen) add("transpose_64x64", "ref C", 16, run_ref_tr, k);
        }
        add("transpose_64x64", k->impl, 16, run_tr, k);
    }
    for (i = 0; i < 256; i++) { ga[i] = (uint16_t)(rand() & 0x1fff); gb[i] = (uint16_t)(rand() & 0x1fff); }
    /* batches: 256 gf_mul calls or 64 gf_inv calls per timed unit, divided
     * back (the peers' B) */
    for (i = 0; i < qhasm_mce_gf_nkernels; i++) {
        const qhasm_mce_gf_kernel *k = &qhasm_mce_gf_kernels[i];
        char *nm = names[nblocks], *ni = names[nblocks + 1];
        snprintf(nm, 48, "gf_mul-%d", k->m);
        snprintf(ni, 48, "gf_inv-%d", k->m);
        if ((only && strncmp(nm, only, strlen(only))) || (k->features & ~have)) continue;
        add(nm, "ref C (x256 calls)", -256, run_ref_gfmul, k);
        add(nm, k->impl, -256, run_gfmul, k);
        add(ni, "ref C (x64 calls)", -64, run_ref_gfinv, k);
        add(ni, k->impl, -64, run_gfinv, k);
    }
    for (i = 0; i < qhasm_mce_syndrome_nkernels; i++) {
        const qhasm_mce_syndrome_kernel *k = &qhasm_mce_syndrome_kernels[i];
        const char *nm = k->set ? "syndrome-6960119" : "syndrome-348864";
        int seen = 0;
        if ((only && strncmp(nm, only, strlen(only))) || (k->features & ~have)) continue;
        for (j = 0; j < nblocks; j++) if (!strcmp(blocks[j].kernel, nm)) seen = 1;
        if (!seen) add(nm, "ref C", 1, run_ref_syn, k);
        add(nm, k->impl, 1, run_syn, k);
    }
    for (r = 0; r < rounds; r++)
        for (i = 0; i < nblocks; i++) {
            /* rotate the starting block each round */
            block *b = &blocks[(i + r) % nblocks];
            double v = measure(b);
            b->rounds[r] = v;
            if (v < b->best) b->best = v;
        }
    printf("| kernel | impl | best | median |\n|---|---|---|---|\n");
    for (i = 0; i < nblocks; i++) {
        qsort(blocks[i].rounds, (size_t)rounds, sizeof(double), cmp);
        printf("| %s | %s | %.1f | %.1f |\n", blocks[i].kernel, blocks[i].impl, blocks[i].best,
               blocks[i].rounds[rounds / 2]);
    }
    return 0;
}
