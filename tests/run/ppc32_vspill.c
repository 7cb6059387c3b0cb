/* ppc32_vspill: the same computation in C (big-endian lanes) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#define N 40
void vspill40(const unsigned char *p, unsigned char *q);
static uint32_t w32(const unsigned char *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }
static void p32(unsigned char *b, uint32_t x) { b[0] = x >> 24; b[1] = x >> 16; b[2] = x >> 8; b[3] = x; }
static int16_t h16(const unsigned char *b) { return (int16_t)(b[0] << 8 | b[1]); }
static void p16(unsigned char *b, int v) { b[0] = (unsigned char)(v >> 8); b[1] = (unsigned char)v; }
int main(void)
{
	if (!(getauxval(AT_HWCAP) & 0x10000000)) { printf("skipped: no AltiVec\n"); return 77; }
	static unsigned char in[N][16] __attribute__((aligned(16))), v[N][16], out[N][16] __attribute__((aligned(16)));
	unsigned char t[16];
	for (int i = 0; i < N; i++)
		for (int k = 0; k < 16; k++) in[i][k] = (unsigned char)(0x9e * i + 0x37 * k + (i * k >> 2) + 1);
	memcpy(v, in, sizeof v);
	/* in statement order: v39 gets the new v0, v33.. the new v0.. */
	for (int i = 0; i < N; i++)
		for (int l = 0; l < 4; l++) p32(v[i] + 4 * l, w32(v[i] + 4 * l) + w32(v[(i + 1) % N] + 4 * l));
	for (int i = 0; i < N; i++)
		for (int k = 0; k < 16; k++) v[i][k] ^= v[(i + 7) % N][k];
	for (int l = 0; l < 8; l++) memcpy(t + 2 * l, v[3] + 10, 2);
	for (int l = 0; l < 8; l++) {
		int x = h16(v[1] + 2 * l), y = h16(t + 2 * l), z = h16(v[0] + 2 * l);
		p16(v[0] + 2 * l, (int)(uint16_t)(x * y + z));
		int a = h16(v[2] + 2 * l), m = (a * y) >> 15;
		p16(v[2] + 2 * l, m > 32767 ? 32767 : m < -32768 ? -32768 : m);
	}
	vspill40(&in[0][0], &out[0][0]);
	if (memcmp(out, v, sizeof v)) {
		for (int i = 0; i < N; i++) if (memcmp(out[i], v[i], 16)) { printf("mismatch in vector %d\n", i); break; }
		return 1;
	}
	return 0;
}
