/* shiftcount: the driver of tests/run/shiftcount_<target>.q: register shift
 * and rotate counts are taken modulo the width on every target */
#include <stdint.h>
#include <stdio.h>
#define ROL32(x, n) ((uint32_t)((x) << ((n) & 31) | (x) >> ((32 - (n)) & 31)))
#define ROL64(x, n) ((uint64_t)((x) << ((n) & 63) | (x) >> ((64 - (n)) & 63)))
uint32_t shl32(uint32_t a, uint32_t k);
uint32_t shr32(uint32_t a, uint32_t k);
uint32_t sar32(uint32_t a, uint32_t k);
uint32_t rol32(uint32_t a, uint32_t k);
uint32_t ror32(uint32_t a, uint32_t k);
#if UINTPTR_MAX > 0xffffffff
uint64_t shl64(uint64_t a, uint64_t k);
uint64_t shr64(uint64_t a, uint64_t k);
uint64_t sar64(uint64_t a, uint64_t k);
uint64_t rol64(uint64_t a, uint64_t k);
uint64_t ror64(uint64_t a, uint64_t k);
#endif
int main(void)
{
	int bad = 0;
	const uint64_t vals[] = {0x80000001u, 0x12345678u, 0xffffffffu, 0x8000000000000001ull, 0x0123456789abcdefull};
	for (int v = 0; v < 5; v++)
		for (uint32_t k = 0; k < 256; k++) {
			uint32_t a = (uint32_t)vals[v], got, want;
			got = shl32(a, k);
			want = (uint32_t)(a << (k & 31));
			if (got != want) { printf("shl32(0x%x, %u): got 0x%x want 0x%x\n", a, k, got, want); bad = 1; }
			got = shr32(a, k);
			want = (uint32_t)(a >> (k & 31));
			if (got != want) { printf("shr32(0x%x, %u): got 0x%x want 0x%x\n", a, k, got, want); bad = 1; }
			got = sar32(a, k);
			want = (uint32_t)((uint32_t)((int32_t)a >> (k & 31)));
			if (got != want) { printf("sar32(0x%x, %u): got 0x%x want 0x%x\n", a, k, got, want); bad = 1; }
			got = rol32(a, k);
			want = (uint32_t)(ROL32(a, k & 31));
			if (got != want) { printf("rol32(0x%x, %u): got 0x%x want 0x%x\n", a, k, got, want); bad = 1; }
			got = ror32(a, k);
			want = (uint32_t)(ROL32(a, (32 - (k & 31)) & 31));
			if (got != want) { printf("ror32(0x%x, %u): got 0x%x want 0x%x\n", a, k, got, want); bad = 1; }
#if UINTPTR_MAX > 0xffffffff
			uint64_t a6 = vals[v], g6, w6;
			g6 = shl64(a6, k);
			w6 = (uint64_t)(a6 << (k & 63));
			if (g6 != w6) { printf("shl64(0x%llx, %u): got 0x%llx want 0x%llx\n", (unsigned long long)a6, k, (unsigned long long)g6, (unsigned long long)w6); bad = 1; }
			g6 = shr64(a6, k);
			w6 = (uint64_t)(a6 >> (k & 63));
			if (g6 != w6) { printf("shr64(0x%llx, %u): got 0x%llx want 0x%llx\n", (unsigned long long)a6, k, (unsigned long long)g6, (unsigned long long)w6); bad = 1; }
			g6 = sar64(a6, k);
			w6 = (uint64_t)((uint64_t)((int64_t)a6 >> (k & 63)));
			if (g6 != w6) { printf("sar64(0x%llx, %u): got 0x%llx want 0x%llx\n", (unsigned long long)a6, k, (unsigned long long)g6, (unsigned long long)w6); bad = 1; }
			g6 = rol64(a6, k);
			w6 = (uint64_t)(ROL64(a6, k & 63));
			if (g6 != w6) { printf("rol64(0x%llx, %u): got 0x%llx want 0x%llx\n", (unsigned long long)a6, k, (unsigned long long)g6, (unsigned long long)w6); bad = 1; }
			g6 = ror64(a6, k);
			w6 = (uint64_t)(ROL64(a6, (64 - (k & 63)) & 63));
			if (g6 != w6) { printf("ror64(0x%llx, %u): got 0x%llx want 0x%llx\n", (unsigned long long)a6, k, (unsigned long long)g6, (unsigned long long)w6); bad = 1; }
#endif
		}
	if (!bad)
		printf("shift and rotate counts 0..255 agree with C (modulo the width)\n");
	return bad;
}
