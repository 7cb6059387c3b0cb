/* spill40: the same computation in C */
#include <stdint.h>
#include <stdio.h>
uint64_t spill40(const uint64_t *p);
static uint64_t rol(uint64_t x, int n) { return x << n | x >> (64 - n); }
int main(void)
{
	uint64_t v[40], in[40];
	for (int t = 0; t < 50; t++) {
		for (int i = 0; i < 40; i++)
			in[i] = v[i] = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1 + 41 * t) ^ (uint64_t)t << 33;
		for (int i = 0; i < 40; i++) v[i] += v[(i + 1) % 40];
		for (int i = 0; i < 40; i++) v[i] = rol(v[i], i % 60 + 1);
		for (int i = 0; i < 40; i++) v[i] ^= v[(i + 7) % 40];
		uint64_t acc = v[0];
		for (int i = 1; i < 40; i++) acc = i % 3 == 0 ? acc * v[i] : acc ^ v[i];
		uint64_t got = spill40(in);
		if (got != acc) { printf("trial %d: got %016llx want %016llx\n", t, (unsigned long long)got, (unsigned long long)acc); return 1; }
	}
	return 0;
}
