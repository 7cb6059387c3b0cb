/* ymm20: the same computation in C, lane by lane */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
void ymm20(const uint32_t *p, uint32_t *q);
static uint32_t rol(uint32_t x, int n) { return x << n | x >> (32 - n); }
int main(void)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2")) { printf("skipped: no avx2\n"); return 77; }
	uint32_t in[20][8], v[20][8], out[20][8];
	for (int i = 0; i < 20; i++)
		for (int l = 0; l < 8; l++)
			in[i][l] = v[i][l] = 0x9e3779b9u * (uint32_t)(8 * i + l + 1);
	for (int l = 0; l < 8; l++) {
		for (int i = 0; i < 20; i++) v[i][l] += v[(i + 1) % 20][l];
		for (int i = 0; i < 20; i++) v[i][l] = rol(v[i][l], i % 31 + 1);
		for (int i = 0; i < 20; i++) v[i][l] ^= v[(i + 5) % 20][l];
	}
	ymm20(&in[0][0], &out[0][0]);
	if (memcmp(out, v, sizeof v)) { printf("mismatch\n"); return 1; }
	return 0;
}
