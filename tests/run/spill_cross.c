/* spill_cross: the computation of tests/run/<target>_spill.q in C, for any
 * word size (the .q's word type is the C long: 32 bits on ppc32, 64 on
 * ppc64 and sparc64). */
#include <stdint.h>
#include <stdio.h>
typedef unsigned long word;
word cross_spill(const unsigned char *p);

int main(void)
{
	unsigned char in[160];
	word v[40];
	for (int t = 0; t < 100; t++) {
		for (int i = 0; i < 160; i++)
			in[i] = (unsigned char)(i * 37 + t * 101 + (i >> 3));
		for (int i = 0; i < 40; i++)
			v[i] = (word)in[4 * i] | (word)in[4 * i + 1] << 8 | (word)in[4 * i + 2] << 16 | (word)in[4 * i + 3] << 24;
		for (int i = 0; i < 40; i++) v[i] += v[(i + 1) % 40];
		for (int i = 0; i < 40; i++) v[i] ^= v[(i + 7) % 40];
		word acc = v[0];
		for (int i = 1; i < 40; i++) acc ^= v[i];
		word hi, lo;
#if defined(__SIZEOF_INT128__)
		if (sizeof(word) == 8) {
			unsigned __int128 m = (unsigned __int128)v[3] * v[5];
			lo = (word)m;
			hi = (word)(m >> 64);
		} else
#endif
		{
			uint64_t m = (uint64_t)v[3] * v[5];
			lo = (word)m;
			hi = (word)(m >> 32);
		}
		acc += hi;
		acc ^= lo;
		word c0 = v[1] + v[2], carry = c0 < v[1];
		word c1 = v[4] + v[6] + carry;
		acc += c0;
		acc ^= c1;
		/* through a function pointer: on ppc64 ELFv1 that goes via the descriptor */
		word (*volatile fp)(const unsigned char *) = cross_spill;
		word got = t & 1 ? fp(in) : cross_spill(in);
		if (got != acc) {
			printf("trial %d: got %lx want %lx\n", t, (unsigned long)got, (unsigned long)acc);
			return 1;
		}
	}
	return 0;
}
