/* ppc32_args: five arguments, one of them a 64-bit count in two registers */
#include <stdint.h>
#include <stdio.h>
void args5(uint32_t *st, const uint32_t *m, unsigned long long n, uint32_t hib);
int main(void)
{
	uint32_t st = 0, m = 0x12345678;
	args5(&st, &m, 0x100000000ull, 7);
	if (st != 0x1234567f) {
		printf("got %08x want 1234567f\n", st);
		return 1;
	}
	st = 5;
	args5(&st, &m, 0, 7);
	if (st != 5) {
		printf("n = 0 wrote %08x\n", st);
		return 1;
	}
	return 0;
}
