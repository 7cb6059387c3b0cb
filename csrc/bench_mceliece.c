/* bench_mceliece: TSC ticks per call of the Classic McEliece primitives of
 * the manifest (every implementation this CPU runs, aliases skipped), by
 * the method of ../shared/peers-wave2 so that the figures sit beside its
 * report: lfence;rdtsc;lfence, pinned to the highest allowed CPU; per
 * (primitive, implementation) block a warm-up of >= 100000 ticks, then 32
 * timings of a batch of B back-to-back calls on the same inputs (B = 256
 * for one-element gf_mul, 64 for gf_inv, 16 for the other kernels of at
 * most 4 KB, 1 for the syndromes), IQM (mean of the middle 16) / B; R
 * rounds with the blocks interleaved, the starting block rotated; printed:
 * the best round's IQM and the median round's.  Not a test.
 *
 *   bench_mceliece [-r ROUNDS] [-p PREFIX] [--ref]   (tests/bench/mceliece-bench.sh) */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qhasm.h"
#include "manifest.h"

static inline uint64_t ticks(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

enum { T = 32, WARM = 100000, MAXR = 255 };
typedef void k2(void *, void *);
typedef void k3(void *, void *, void *);

typedef struct {
    const qhasm_prim *p;
    const qhasm_impl *im;
    int n, batch;
    unsigned char *a[3];
    double rounds[MAXR];
} block;

static block blocks[512];
static int nblocks;

static void run(block *b)
{
    int j;
    for (j = 0; j < b->batch; j++) {
        if (b->n == 2) ((k2 *)b->im->fn[0])(b->a[0], b->a[1]);
        else ((k3 *)b->im->fn[0])(b->a[0], b->a[1], b->a[2]);
    }
}

static int cmp(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return u < v ? -1 : u > v;
}

static double measure(block *b)
{
    double t[T], s = 0;
    uint64_t w0 = ticks();
    int i;
    while (ticks() - w0 < WARM) run(b);
    for (i = 0; i < T; i++) {
        uint64_t t0 = ticks();
        run(b);
        t[i] = (double)(ticks() - t0) / b->batch;
    }
    qsort(t, T, sizeof t[0], cmp);
    for (i = T / 4; i < T - T / 4; i++) s += t[i];
    return s / (T / 2);
}

int main(int argc, char **argv)
{
    int rounds = 31, withref = 0, i, k, r;
    const char *only = "mceliece";
    unsigned have = qhasm_cpu_features();
    cpu_set_t set;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--ref")) withref = 1;
    }
    if (rounds < 1 || rounds > MAXR) rounds = 31;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (i = CPU_SETSIZE - 1; i >= 0 && !CPU_ISSET(i, &set); i--) {}
        if (i >= 0) { CPU_ZERO(&set); CPU_SET(i, &set); sched_setaffinity(0, sizeof set, &set); }
    }
    srand(1);
    for (i = 0; qhasm_prims[i].name; i++) {
        const qhasm_prim *p = &qhasm_prims[i];
        const qhasm_impl *im;
        unsigned long total = 0;
        int n = 0;
        if (strncmp(p->name, only, strlen(only)) || strcmp(p->family, "fixed")) continue;
        while (p->args[n].kind) total += p->args[n++].bytes;
        /* the impls table is counted (nimpls), not NULL-terminated: walking
         * to a NULL name ran into the next primitive's implementations
         * with this one's buffer sizes (out-of-bounds writes, wrongly
         * blamed on the FFT/Benes kernels) */
        for (im = p->impls; im < p->impls + p->nimpls; im++) {
            block *b;
            if (im->alias_of || (im->features & ~have) || (!strcmp(im->name, "ref") && !withref)) continue;
            b = &blocks[nblocks++];
            b->p = p;
            b->im = im;
            b->n = n;
            b->batch = total <= 6 ? (n == 3 ? 256 : 64) : total <= 4096 ? 16 : 1;
            for (k = 0; k < n; k++) {
                size_t j;
                if (posix_memalign((void **)&b->a[k], 64, p->args[k].bytes + 64)) return 111;
                for (j = 0; j < p->args[k].bytes; j++) b->a[k][j] = (unsigned char)rand();
            }
        }
    }
    for (r = 0; r < rounds; r++)
        for (i = 0; i < nblocks; i++) {
            block *b = &blocks[(i + r) % nblocks];
            b->rounds[r] = measure(b);
        }
    printf("| primitive | impl | best | median |\n|---|---|---|---|\n");
    for (i = 0; i < nblocks; i++) {
        qsort(blocks[i].rounds, (size_t)rounds, sizeof(double), cmp);
        printf("| %s | %s | %.1f | %.1f |\n", blocks[i].p->name, blocks[i].im->name, blocks[i].rounds[0],
               blocks[i].rounds[rounds / 2]);
    }
    return 0;
}
