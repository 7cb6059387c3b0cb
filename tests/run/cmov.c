/* cmov: the driver of tests/run/cmov_<target>.q: conditional moves on
 * every condition at edge values (int32 on every target, int64 where the
 * target has it), against C. */
#include <stdint.h>
#include <stdio.h>

uint32_t cmov32(uint32_t a, uint32_t b, uint32_t m);
uint32_t cmov32sel(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
#if UINTPTR_MAX > 0xffffffff
uint64_t cmov64(uint64_t a, uint64_t b, uint64_t m);
uint64_t cmov64sel(uint64_t a, uint64_t b, uint64_t c, uint64_t d);
#endif

#define REF(T, S, x, y) \
	((T)((x) == (y)) | (T)((x) != (y)) << 1 | (T)((x) < (y)) << 2 | (T)((x) >= (y)) << 3 | (T)((x) > (y)) << 4 \
	 | (T)((x) <= (y)) << 5 | (T)((S)(x) < (S)(y)) << 6 | (T)((S)(x) >= (S)(y)) << 7 | (T)((S)(x) > (S)(y)) << 8 \
	 | (T)((S)(x) <= (S)(y)) << 9)

static const uint64_t edge[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x100000000ull,
	0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull, 0x123456789abcdef0ull};
enum { NE = sizeof edge / sizeof edge[0] };

int main(void)
{
	int bad = 0;
	for (int i = 0; i < NE; i++)
		for (int j = 0; j < NE; j++) {
			uint32_t a = (uint32_t)edge[i], b = (uint32_t)edge[j];
			uint32_t want = REF(uint32_t, int32_t, a, b), got = cmov32(a, b, 0xffffffff);
			if (got != want) {
				printf("cmov32(0x%x, 0x%x): got 0x%x, want 0x%x\n", a, b, got, want);
				bad = 1;
			}
			uint32_t s = cmov32sel(a, b, 0xdeadbeef, 0x87654321), sw = a < b ? 0xdeadbeef : 0x87654321;
			if (s != sw) {
				printf("cmov32sel(0x%x, 0x%x): got 0x%x, want 0x%x\n", a, b, s, sw);
				bad = 1;
			}
#if UINTPTR_MAX > 0xffffffff
			uint64_t x = edge[i], y = edge[j];
			uint64_t w64 = REF(uint64_t, int64_t, x, y), g64;
			/* cmov64 computes x = a + m + 1: pass m = -1 */
			g64 = cmov64(x, y, (uint64_t)-1);
			if (g64 != w64) {
				printf("cmov64(0x%llx, 0x%llx): got 0x%llx, want 0x%llx\n", (unsigned long long)x, (unsigned long long)y,
				       (unsigned long long)g64, (unsigned long long)w64);
				bad = 1;
			}
			uint64_t s64 = cmov64sel(x, y, 0xfedcba9876543210ull, 0x0123456789abcdefull);
			if (s64 != (x < y ? 0xfedcba9876543210ull : 0x0123456789abcdefull)) {
				printf("cmov64sel(0x%llx, 0x%llx): got 0x%llx\n", (unsigned long long)x, (unsigned long long)y,
				       (unsigned long long)s64);
				bad = 1;
			}
#endif
		}
	if (!bad)
		printf("conditional moves: %d x %d edge pairs agree with C\n", NE, NE);
	return bad;
}
