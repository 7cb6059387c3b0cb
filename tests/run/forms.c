/* forms: the driver of tests/run/forms_<target>.q: every int32 (and int64)
 * form the .q files use, at edge values, against C.  Operation i of the .q
 * is check i here: keep the two lists in step. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#define ROL32(x, n) ((uint32_t)((x) << ((n) & 31) | (x) >> ((32 - (n)) & 31)))
#define ROL64(x, n) ((uint64_t)((x) << ((n) & 63) | (x) >> ((64 - (n)) & 63)))
void forms32(unsigned char *p);
#if UINTPTR_MAX > 0xffffffff
void forms64(unsigned char *p);
#endif
static const uint64_t edge[] = {0, 1, 2, 5, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
	0xfffffffe, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0xffffffffffffffffull, 0x123456789abcdef0ull, 0xfedcba9876543210ull};
enum { NE = sizeof edge / sizeof edge[0] };

static int check32(uint32_t a, uint32_t b, uint32_t k, int16_t h, int8_t c)
{
	unsigned char p[16 + 4 * 27 + 2];
	uint32_t in[3] = {a, b, k}, got, want;
	memset(p, 0x5a, sizeof p);
	memcpy(p, in, 12);
	memcpy(p + 12, &h, 2);
	memcpy(p + 14, &c, 1);
	forms32(p);
	int bad = 0;
	memcpy(&got, p + 16, 4);
	want = (uint32_t)(-a);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 0, "r = - a", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 20, 4);
	want = (uint32_t)(~a & b);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 1, "r = ~ a & b", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 24, 4);
	want = (uint32_t)(a * 7);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 2, "r = a * 7", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 28, 4);
	want = (uint32_t)((uint32_t)((int32_t)a >> 5));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 3, "(int32) r = a >> 5", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 32, 4);
	want = (uint32_t)(a << k);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 4, "r = a << k", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 36, 4);
	want = (uint32_t)(a >> k);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 5, "r = a >> k", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 40, 4);
	want = (uint32_t)((uint32_t)((int32_t)a >> k));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 6, "(int32) r = a >> k", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 44, 4);
	want = (uint32_t)(ROL32(a, 7));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 7, "r = a <<< 7", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 48, 4);
	want = (uint32_t)(ROL32(a, 25));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 8, "r = a >>> 7", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 52, 4);
	want = (uint32_t)(ROL32(a, k));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 9, "r = a <<< k", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 56, 4);
	want = (uint32_t)(ROL32(a, (32 - k) & 31));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 10, "r = a >>> k", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 60, 4);
	want = (uint32_t)((uint32_t)(int32_t)h);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 11, "(int32) r = mem16[p + 12]", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 64, 4);
	want = (uint32_t)((uint32_t)(int32_t)c);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 12, "(int32) r = mem8[p + 14]", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 68, 4);
	want = (uint32_t)((uint16_t)h);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 13, "r = mem16[p + 12]", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 72, 4);
	want = (uint32_t)((uint8_t)c);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 14, "r = mem8[p + 14]", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 76, 4);
	want = (uint32_t)((uint32_t)((uint64_t)a * b >> 32) ^ (uint32_t)((uint64_t)a * b));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 15, "(uint64) r t = a * b", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 80, 4);
	want = (uint32_t)((uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32) + (uint32_t)((int64_t)(int32_t)a * (int32_t)b));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 16, "(int64) r t = a * b", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 84, 4);
	want = (uint32_t)(a + 100);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 17, "r = a + 100", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 88, 4);
	want = (uint32_t)(a - 100);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 18, "r = a - 100", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 92, 4);
	want = (uint32_t)(a & 0x7f0);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 19, "r = a & 0x7f0", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 96, 4);
	want = (uint32_t)(a | 0x123);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 20, "r = a | 0x123", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 100, 4);
	want = (uint32_t)(a ^ 0x456);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 21, "r = a ^ 0x456", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 104, 4);
	want = (uint32_t)(a * b);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 22, "r = a * b", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 108, 4);
	want = (uint32_t)((a - b) ^ (b - a - (a < b)));
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 23, "carry? r = a - b", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 112, 4);
	want = (uint32_t)((a & b) == 0);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 24, "r = 0", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 116, 4);
	want = (uint32_t)((a | b) == 0);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 25, "r = 0", a, b, k, h, c, got, want); bad = 1; }
	memcpy(&got, p + 120, 4);
	want = (uint32_t)((a & 0x300) == 0);
	if (got != want) { printf("int32 form %d (%s): a=0x%x b=0x%x k=%u h=%d c=%d: got 0x%x want 0x%x\n", 26, "r = 0", a, b, k, h, c, got, want); bad = 1; }
	uint16_t s16;
	memcpy(&s16, p + 124, 2);
	if (s16 != (uint16_t)a) { printf("int32 mem16 store: got 0x%x\n", s16); bad = 1; }
	return bad;
}

#if UINTPTR_MAX > 0xffffffff
static int check64(uint64_t a, uint64_t b, uint64_t k, int32_t w, int16_t h, int8_t c)
{
	unsigned char p[32 + 8 * 38 + 8 + 2];
	uint64_t in[3] = {a, b, k}, got, want;
	memset(p, 0x5a, sizeof p);
	memcpy(p, in, 24);
	memcpy(p + 24, &w, 4);
	memcpy(p + 28, &h, 2);
	memcpy(p + 30, &c, 1);
	forms64(p);
	int bad = 0;
	memcpy(&got, p + 32, 8);
	want = (uint64_t)(-a);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 0, "r = - a", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 40, 8);
	want = (uint64_t)(~a & b);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 1, "r = ~ a & b", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 48, 8);
	want = (uint64_t)(a * 7);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 2, "r = a * 7", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 56, 8);
	want = (uint64_t)((uint64_t)((int64_t)a >> 5));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 3, "(int64) r = a >> 5", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 64, 8);
	want = (uint64_t)(a << k);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 4, "r = a << k", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 72, 8);
	want = (uint64_t)(a >> k);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 5, "r = a >> k", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 80, 8);
	want = (uint64_t)((uint64_t)((int64_t)a >> k));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 6, "(int64) r = a >> k", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 88, 8);
	want = (uint64_t)(ROL64(a, 7));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 7, "r = a <<< 7", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 96, 8);
	want = (uint64_t)(ROL64(a, 57));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 8, "r = a >>> 7", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 104, 8);
	want = (uint64_t)(ROL64(a, k));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 9, "r = a <<< k", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 112, 8);
	want = (uint64_t)(ROL64(a, (64 - k) & 63));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 10, "r = a >>> k", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 120, 8);
	want = (uint64_t)((uint64_t)(int64_t)w);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 11, "(int64) r = mem32[p + 24]", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 128, 8);
	want = (uint64_t)((uint64_t)(int64_t)h);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 12, "(int64) r = mem16[p + 28]", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 136, 8);
	want = (uint64_t)((uint64_t)(int64_t)c);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 13, "(int64) r = mem8[p + 30]", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 144, 8);
	want = (uint64_t)((uint16_t)h);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 14, "r = mem16[p + 28]", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 152, 8);
	want = (uint64_t)((uint32_t)a);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 15, "(uint32) r = a", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 160, 8);
	want = (uint64_t)((uint32_t)(a + 100));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 16, "(uint32) r = a + 100", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 168, 8);
	want = (uint64_t)((uint32_t)(a - b));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 17, "(uint32) r = a - b", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 176, 8);
	want = (uint64_t)((uint32_t)(a - 100));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 18, "(uint32) r = a - 100", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 184, 8);
	want = (uint64_t)((uint32_t)(a & b));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 19, "(uint32) r = a & b", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 192, 8);
	want = (uint64_t)((uint32_t)(a & 0x7f0));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 20, "(uint32) r = a & 0x7f0", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 200, 8);
	want = (uint64_t)((uint32_t)(a | b));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 21, "(uint32) r = a | b", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 208, 8);
	want = (uint64_t)((uint32_t)(a | 0x123));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 22, "(uint32) r = a | 0x123", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 216, 8);
	want = (uint64_t)((uint32_t)(a ^ b));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 23, "(uint32) r = a ^ b", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 224, 8);
	want = (uint64_t)((uint32_t)(a ^ 0x456));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 24, "(uint32) r = a ^ 0x456", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 232, 8);
	want = (uint64_t)((uint32_t)(a << 5));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 25, "(uint32) r = a << 5", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 240, 8);
	want = (uint64_t)((uint32_t)a >> 5);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 26, "(uint32) r = a >> 5", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 248, 8);
	want = (uint64_t)(ROL32((uint32_t)a, 7));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 27, "(uint32) r = a <<< 7", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 256, 8);
	want = (uint64_t)(ROL32((uint32_t)a, 25));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 28, "(uint32) r = a >>> 7", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 264, 8);
	want = (uint64_t)((uint32_t)(a * b));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 29, "(uint32) r = a * b", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 272, 8);
	want = (uint64_t)(((uint64_t)(uint32_t)(a + b) << 32) | (uint32_t)(b + a + ((uint64_t)(uint32_t)a + (uint32_t)b > 0xffffffffu)));
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 30, "carry? (uint32) r = a + b", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 280, 8);
	want = (uint64_t)(a + b == 0);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 31, "r = 0", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 288, 8);
	want = (uint64_t)(a == b);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 32, "r = 0", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 296, 8);
	want = (uint64_t)(a == b);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 33, "r = 0", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 304, 8);
	want = (uint64_t)((a & b) == 0);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 34, "r = 0", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 312, 8);
	want = (uint64_t)((a & 0x300) == 0);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 35, "r = 0", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 320, 8);
	want = (uint64_t)(a < b);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 36, "r = 0", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 328, 8);
	want = (uint64_t)((int64_t)a < -7);
	if (got != want) { printf("int64 form %d (%s): a=0x%llx b=0x%llx k=%llu: got 0x%llx want 0x%llx\n", 37, "r = 0", (unsigned long long)a, (unsigned long long)b, (unsigned long long)k, (unsigned long long)got, (unsigned long long)want); bad = 1; }
	memcpy(&got, p + 336, 8);
	if (got != b) { printf("int64 p = &stack: read 0x%llx through it, want 0x%llx\n", (unsigned long long)got, (unsigned long long)b); bad = 1; }
	uint16_t s16;
	memcpy(&s16, p + 344, 2);
	if (s16 != (uint16_t)a) { printf("int64 mem16 store: got 0x%x\n", s16); bad = 1; }
	return bad;
}
#endif

int main(void)
{
	int bad = 0, n = 0;
	for (int i = 0; i < NE; i++)
		for (int j = 0; j < NE; j++) {
			uint64_t a = edge[i], b = edge[j];
			bad |= check32((uint32_t)a, (uint32_t)b, (uint32_t)(i + 3 * j) % 32, (int16_t)a, (int8_t)b);
#if UINTPTR_MAX > 0xffffffff
			bad |= check64(a, b, (uint64_t)(i + 5 * j) % 64, (int32_t)b, (int16_t)a, (int8_t)b);
#endif
			n++;
			if (bad)
				return 1;
		}
	printf("65 forms x %d edge pairs agree with C\n", n);
	return 0;
}
