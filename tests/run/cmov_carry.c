/* cmov_carry: the driver of tests/run/cmov_carry_<target>.q */
#include <stdint.h>
#include <stdio.h>
uint32_t addcarry(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
uint32_t subnocarry(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
static const uint32_t edge[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x12345678};
enum { NE = sizeof edge / sizeof edge[0] };
int main(void)
{
	int bad = 0;
	for (int i = 0; i < NE; i++)
		for (int j = 0; j < NE; j++) {
			uint32_t a = edge[i], b = edge[j], c = 0xc0ffee, d = 0xdecade;
			uint32_t w1 = (uint32_t)(a + b) < a ? d : c, w2 = a >= b ? d : c;
			if (addcarry(a, b, c, d) != w1 || subnocarry(a, b, c, d) != w2) {
				printf("a=0x%x b=0x%x: addcarry 0x%x (want 0x%x), subnocarry 0x%x (want 0x%x)\n", a, b,
				       addcarry(a, b, c, d), w1, subnocarry(a, b, c, d), w2);
				bad = 1;
			}
		}
	if (!bad)
		printf("moves on the carry: %d x %d edge pairs agree with C\n", NE, NE);
	return bad;
}
