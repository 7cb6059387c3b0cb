/* driver for tests/alloc/remat.q: the same computation in C */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
void alloc_remat(uint64_t *p);
static void ref(uint64_t *a)
{
	const uint64_t k0 = 0x0123456789abcdefull, k1 = 0x7eeddccbbaa99887ull;
	uint64_t buf, t;
	a[0] += a[1];
	a[1] += a[2];
	a[2] += a[3];
	a[3] += a[4];
	a[4] += a[5];
	a[5] += a[6];
	a[6] += a[7];
	a[7] += a[8];
	a[8] += a[9];
	a[9] += a[10];
	a[10] += a[11];
	a[11] += a[12];
	a[12] += a[13];
	a[13] += a[0];
	a[0] ^= k0;
	a[3] += k1;
	buf = a[6];
	a[0] ^= a[5];
	a[1] ^= a[6];
	a[2] ^= a[7];
	a[3] ^= a[8];
	a[4] ^= a[9];
	a[5] ^= a[10];
	a[6] ^= a[11];
	a[7] ^= a[12];
	a[8] ^= a[13];
	a[9] ^= a[0];
	a[10] ^= a[1];
	a[11] ^= a[2];
	a[12] ^= a[3];
	a[13] ^= a[4];
	t = buf;
	a[9] += t;
	a[0] += a[1];
	a[1] += a[2];
	a[2] += a[3];
	a[3] += a[4];
	a[4] += a[5];
	a[5] += a[6];
	a[6] += a[7];
	a[7] += a[8];
	a[8] += a[9];
	a[9] += a[10];
	a[10] += a[11];
	a[11] += a[12];
	a[12] += a[13];
	a[13] += a[0];
	a[1] ^= k0;
	a[4] += k1;
	buf = a[7];
	a[0] ^= a[5];
	a[1] ^= a[6];
	a[2] ^= a[7];
	a[3] ^= a[8];
	a[4] ^= a[9];
	a[5] ^= a[10];
	a[6] ^= a[11];
	a[7] ^= a[12];
	a[8] ^= a[13];
	a[9] ^= a[0];
	a[10] ^= a[1];
	a[11] ^= a[2];
	a[12] ^= a[3];
	a[13] ^= a[4];
	t = buf;
	a[10] += t;
	a[0] += a[1];
	a[1] += a[2];
	a[2] += a[3];
	a[3] += a[4];
	a[4] += a[5];
	a[5] += a[6];
	a[6] += a[7];
	a[7] += a[8];
	a[8] += a[9];
	a[9] += a[10];
	a[10] += a[11];
	a[11] += a[12];
	a[12] += a[13];
	a[13] += a[0];
	a[2] ^= k0;
	a[5] += k1;
	buf = a[8];
	a[0] ^= a[5];
	a[1] ^= a[6];
	a[2] ^= a[7];
	a[3] ^= a[8];
	a[4] ^= a[9];
	a[5] ^= a[10];
	a[6] ^= a[11];
	a[7] ^= a[12];
	a[8] ^= a[13];
	a[9] ^= a[0];
	a[10] ^= a[1];
	a[11] ^= a[2];
	a[12] ^= a[3];
	a[13] ^= a[4];
	t = buf;
	a[11] += t;
}
int main(void)
{
	uint64_t a[14], b[14];
	srand(14);
	for (int k = 0; k < 100; k++) {
		for (int i = 0; i < 14; i++)
			a[i] = b[i] = (uint64_t)rand() << 42 ^ (uint64_t)rand() << 21 ^ (uint64_t)rand();
		alloc_remat(a);
		ref(b);
		for (int i = 0; i < 14; i++)
			if (a[i] != b[i]) {
				printf("remat: word %d differs\n", i);
				return 1;
			}
	}
	printf("remat: 100 random inputs ok\n");
	return 0;
}
