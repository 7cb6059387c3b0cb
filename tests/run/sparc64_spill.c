/* sparc64_spill: the computation of sparc64_spill.q in C */
#include <stdint.h>
#include <stdio.h>
uint64_t cross_spill(const unsigned char *p);

int main(void)
{
	unsigned char in[160];
	uint64_t v[40];
	for (int t = 0; t < 100; t++) {
		for (int i = 0; i < 160; i++)
			in[i] = (unsigned char)(i * 37 + t * 101 + (i >> 3));
		for (int i = 0; i < 40; i++)
			v[i] = (uint64_t)in[4 * i] | (uint64_t)in[4 * i + 1] << 8 | (uint64_t)in[4 * i + 2] << 16 | (uint64_t)in[4 * i + 3] << 24;
		for (int i = 0; i < 40; i++) v[i] += v[(i + 1) % 40];
		for (int i = 0; i < 40; i++) v[i] ^= v[(i + 7) % 40];
		uint64_t acc = v[0];
		for (int i = 1; i < 40; i++) acc ^= v[i];
		acc ^= v[3] * v[5];
		uint32_t c0 = (uint32_t)v[1] + (uint32_t)v[2];
		uint32_t carry = c0 < (uint32_t)v[1];
		uint32_t c1 = (uint32_t)v[4] + (uint32_t)v[6] + carry;
		acc += c0;
		acc ^= c1;
		uint64_t got = cross_spill(in);
		if (got != acc) {
			printf("trial %d: got %llx want %llx\n", t, (unsigned long long)got, (unsigned long long)acc);
			return 1;
		}
	}
	return 0;
}
