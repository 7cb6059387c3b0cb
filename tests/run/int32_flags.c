/* int32_flags: the driver of tests/run/int32_flags_<target>.q (issue 13's
 * three wrong-code programs, int32 compares, tests and carry chains),
 * checked against C at edge values on every target. */
#include <stdint.h>
#include <stdio.h>

uint32_t flag32(uint32_t a, uint32_t b);
uint32_t flag32b(uint32_t a, uint32_t b);
void carry32(uint32_t *p);
void carry96(uint32_t *p);
void sub64(uint32_t *p);
uint32_t cmp32(uint32_t a, uint32_t b, uint32_t m);
void carry32i(uint32_t *p);
void sub96(uint32_t *p);

static const uint32_t edge[] = {0, 1, 2, 5, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffd, 0xfffffffe,
	0xffffffff, 0x12345678, 0xdeadbeef, 0xffff, 0x10000};
enum { NE = sizeof edge / sizeof edge[0] };

static uint32_t cmpref(uint32_t x, uint32_t y)
{
	uint32_t r = 0;
	r |= (x == y) << 0;
	r |= (x < y) << 1;
	r |= ((int32_t)x < (int32_t)y) << 2;
	r |= (x > y) << 3;
	r |= ((int32_t)x > (int32_t)y) << 4;
	r |= ((x & y) == 0) << 5;
	r |= (x == 0) << 6;
	r |= (x < 5) << 7;
	r |= ((int32_t)x < -3) << 8;
	r |= (x - y == 0) << 9;
	r |= ((x ^ y) == 0) << 10;
	return r;
}

static int fail(const char *what, uint32_t a, uint32_t b, unsigned long long got, unsigned long long want)
{
	printf("%s(0x%08x, 0x%08x): got 0x%llx, want 0x%llx\n", what, a, b, got, want);
	return 1;
}

int main(void)
{
	int bad = 0;
	if (flag32(0xffffffff, 1) != 0)
		bad |= fail("flag32", 0xffffffff, 1, flag32(0xffffffff, 1), 0);
	for (int i = 0; i < NE; i++)
		for (int j = 0; j < NE; j++) {
			uint32_t a = edge[i], b = edge[j], want = (uint32_t)(a + b) != 0;
			if (flag32(a, b) != want)
				bad |= fail("flag32", a, b, flag32(a, b), want);
			if (flag32b(a, b) != want)
				bad |= fail("flag32b", a, b, flag32b(a, b), want);
			if (cmp32(a, b, 0xffffffff) != cmpref(a, b))
				bad |= fail("cmp32", a, b, cmp32(a, b, 0xffffffff), cmpref(a, b));
			uint32_t p[10] = {a, b, b, a};
			uint64_t x = (uint64_t)b << 32 | a, y = (uint64_t)a << 32 | b;
			carry32(p);
			if (((uint64_t)p[5] << 32 | p[4]) != x + y)
				bad |= fail("carry32", a, b, (uint64_t)p[5] << 32 | p[4], x + y);
			uint32_t q[6] = {a, b, b, a, b, b};
			sub64(q);
			if (((uint64_t)q[5] << 32 | q[4]) != x - y)
				bad |= fail("sub64", a, b, (uint64_t)q[5] << 32 | q[4], x - y);
			/* 96-bit: (a, b, a) + (b, 0xffffffff, b), least significant word first */
			uint32_t s[10] = {a, b, a, b, 0xffffffff, b};
			carry96(s);
			uint32_t v[3] = {b, 0xffffffff, b}, w[4];
			uint64_t acc = 0;
			for (int k = 0; k < 3; k++) {
				acc += (uint64_t)s[k] + v[k];
				w[k] = (uint32_t)acc;
				acc >>= 32;
			}
			w[3] = (uint32_t)acc;
			for (int k = 0; k < 4; k++)
				if (s[6 + k] != w[k])
					bad |= fail("carry96 word", a, b, s[6 + k], w[k]);
			uint32_t ci[4] = {a, b};
			carry32i(ci);
			uint64_t cw = ((uint64_t)b << 32 | a) + 100;
			if (((uint64_t)ci[3] << 32 | ci[2]) != cw)
				bad |= fail("carry32i", a, b, (uint64_t)ci[3] << 32 | ci[2], cw);
			/* 96-bit: (a, b, a) - (b, a, 1) */
			uint32_t d[9] = {a, b, a, b, a, 1}, dw[3];
			int64_t br = 0;
			for (int k = 0; k < 3; k++) {
				int64_t x = (int64_t)d[k] - d[3 + k] - br;
				dw[k] = (uint32_t)x;
				br = x < 0;
			}
			sub96(d);
			for (int k = 0; k < 3; k++)
				if (d[6 + k] != dw[k])
					bad |= fail("sub96 word", a, b, d[6 + k], dw[k]);
		}
	if (!bad)
		printf("int32 flags and carries: %d x %d edge pairs agree with C\n", NE, NE);
	return bad;
}
