/* extern data, stack sub-slots and an early return, against C */
#include <stdio.h>
#include <stdint.h>
uint64_t table[8] = {0x1111111122222222ull, 0x0101010102020202ull, 3, 4, 0xffffffff00000001ull, 6, 7, 8};
uint64_t lookup_sum(uint64_t p, uint64_t n);
int main(void)
{
	for (uint64_t n = 0; n < 8; n++) {
		uint64_t want = n == 0 ? table[0] : table[n] + table[1] + 5;
		uint64_t got = lookup_sum(5, n);
		if (got != want) {
			printf("n=%llu: got %llx want %llx\n", (unsigned long long)n, (unsigned long long)got, (unsigned long long)want);
			return 1;
		}
	}
	return 0;
}
