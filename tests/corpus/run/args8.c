/* arguments 7 and 8 on the stack (the 8th an int32), against C */
#include <stdio.h>
#include <stdint.h>
uint64_t args8(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f, uint64_t g, uint32_t w);
uint64_t args8p(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f, uint64_t g, uint32_t w);
int main(void)
{
	for (uint64_t k = 1; k < 50; k++) {
		uint64_t x = 0x9e3779b97f4a7c15ull * k;
		uint32_t w = (uint32_t)(x >> 17);
		uint64_t want = (x + 2 * x + 3 * x + 4 * x + 5 * x + 6 * x + 7 * x) ^ ((uint64_t)w << 40);
		uint64_t got = args8(x, 2 * x, 3 * x, 4 * x, 5 * x, 6 * x, 7 * x, w);
		if (got != want) {
			printf("k=%llu: got %llx want %llx\n", (unsigned long long)k, (unsigned long long)got, (unsigned long long)want);
			return 1;
		}
		uint64_t a = x, b = 2 * x, c = 3 * x, d = 4 * x, e = 5 * x, f = 6 * x, g = 7 * x;
		uint64_t want2 = (uint64_t)w + a + b + c + d + e + f + g + (a + 1) + (b + 1) + (c + 1) + (d + 1) + (e + 1)
			+ (f + 1) + (g + 1) + (a + 2) + (b + 2) + g + a;
		uint64_t got2 = args8p(a, b, c, d, e, f, g, w);
		if (got2 != want2) {
			printf("k=%llu: args8p got %llx want %llx\n", (unsigned long long)k, (unsigned long long)got2, (unsigned long long)want2);
			return 1;
		}
	}
	return 0;
}
