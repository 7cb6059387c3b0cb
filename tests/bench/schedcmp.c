/* schedcmp: one kernel scheduled for several models (and in source order),
 * timed interleaved on this CPU (tests/sh/schedcmp.sh builds it with the
 * columns in cols.h, the first being the schedule under test).
 *
 *   schedcmp [BYTES [ROUNDS [CALLS]]]     defaults 4096 101 25
 *
 * Each round times every column once (the best of CALLS calls on BYTES
 * bytes, rdtsc), starting at another column each round so that none
 * always runs after the same one; per column it prints the median over
 * the rounds of the ratio first/column (above 1: the first is slower) and
 * the median ticks per byte.  All columns must compute the same output. */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

typedef void salsa_fn(unsigned char *c, const unsigned char *m, unsigned long long nblocks, uint32_t *x);
typedef void pinit_fn(void *st, const unsigned char *k);
typedef void pblk_fn(void *st, const unsigned char *m, unsigned long long nblocks, unsigned int hibit);
enum { SALSA, POLY };
struct col {
	const char *name;
	int kind;
	void (*f)(void), (*g)(void);  /* salsa: blocks; poly: init, blocks */
};
#include "cols.h"  /* static const struct col cols[] = { ... }; */
#define NC (int)(sizeof cols / sizeof *cols)
#define MAXLEN 65536
#define MAXROUNDS 1001

static unsigned char mbuf[MAXLEN] __attribute__((aligned(64)));
static unsigned char cbuf[MAXLEN] __attribute__((aligned(64)));
static unsigned char pst[NC][1024] __attribute__((aligned(64)));
static uint32_t sst[16] __attribute__((aligned(64)));
static const unsigned char key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };

static void run(int c, long long len)
{
	if (cols[c].kind == SALSA)
		((salsa_fn *)(void *)cols[c].f)(cbuf, mbuf, (unsigned long long)len / 64, sst);
	else
		((pblk_fn *)(void *)cols[c].g)(pst[c], mbuf, (unsigned long long)len / 16, 1);
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmpd);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	long long len = argc > 1 ? atoll(argv[1]) : 4096;
	int rounds = argc > 2 ? atoi(argv[2]) : 101, calls = argc > 3 ? atoi(argv[3]) : 25;
	if (len < 64 || len > MAXLEN || len % 64 || rounds < 1 || rounds > MAXROUNDS || calls < 1) {
		fprintf(stderr, "schedcmp: BYTES a multiple of 64 up to %d, ROUNDS 1-%d\n", MAXLEN, MAXROUNDS);
		return 2;
	}
	for (int i = 0; i < MAXLEN; i++)
		mbuf[i] = (unsigned char)(i * 7 + 3);
	/* every column computes what the first does */
	static unsigned char want[MAXLEN];
	for (int c = 0; c < NC; c++) {
		uint32_t x[16];
		for (int i = 0; i < 16; i++)
			x[i] = sst[i] = 0x9e3779b9u * (unsigned)(i + 1);
		const unsigned char *got;
		size_t n;
		if (cols[c].kind == SALSA) {
			((salsa_fn *)(void *)cols[c].f)(cbuf, mbuf, (unsigned long long)len / 64, x);
			got = cbuf;
			n = (size_t)len;
		} else {
			((pinit_fn *)(void *)cols[c].f)(pst[c], key);
			((pblk_fn *)(void *)cols[c].g)(pst[c], mbuf, (unsigned long long)len / 16, 1);
			got = pst[c];
			n = sizeof pst[c];
		}
		if (c == 0)
			memcpy(want, got, n);
		else if (memcmp(want, got, n)) {
			printf("schedcmp: %s computes another result than %s\n", cols[c].name, cols[0].name);
			return 1;
		}
	}
	static double tpb[NC][MAXROUNDS], ratio[NC][MAXROUNDS];
	for (int r = 0; r < rounds; r++) {
		for (int j = 0; j < NC; j++) {
			int c = (j + r) % NC;
			unsigned long long best = ~0ull;
			for (int k = 0; k < calls; k++) {
				unsigned long long t0 = __rdtsc();
				run(c, len);
				unsigned long long t1 = __rdtsc();
				if (t1 - t0 < best)
					best = t1 - t0;
			}
			tpb[c][r] = (double)best / (double)len;
		}
		for (int c = 0; c < NC; c++)
			ratio[c][r] = tpb[0][r] / tpb[c][r];
	}
	for (int c = 0; c < NC; c++) {
		double rr = median(ratio[c], rounds), t = median(tpb[c], rounds);
		printf("%s ratio %.4f ticks/byte %.3f\n", cols[c].name, rr, t);
	}
	return 0;
}
