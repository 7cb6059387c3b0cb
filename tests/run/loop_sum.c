/* sum64 over arrays of every length 0..100, against C */
#include <stdio.h>
#include <stdint.h>
uint64_t sum64(const uint64_t *p, uint64_t n);
int main(void)
{
	uint64_t a[100];
	for (int i = 0; i < 100; i++)
		a[i] = 0x9e3779b97f4a7c15ull * (i + 1);
	for (uint64_t n = 0; n <= 100; n++) {
		uint64_t s = 0;
		for (uint64_t i = 0; i < n; i++)
			s += a[i];
		if (sum64(a, n) != s) {
			printf("n=%llu: got %llx want %llx\n", (unsigned long long)n,
			       (unsigned long long)sum64(a, n), (unsigned long long)s);
			return 1;
		}
	}
	return 0;
}
