/* Driver for chacha.q: the kernel against the ChaCha20 block function
 * written from RFC 8439 section 2.3, on the RFC's test vector (2.3.2) and
 * on random states. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void alloc_chacha20_block(uint32_t out[16], const uint32_t in[16]);

static uint32_t rotl(uint32_t x, int n) { return x << n | x >> (32 - n); }

static void qr(uint32_t *x, int a, int b, int c, int d)
{
	x[a] += x[b]; x[d] ^= x[a]; x[d] = rotl(x[d], 16);
	x[c] += x[d]; x[b] ^= x[c]; x[b] = rotl(x[b], 12);
	x[a] += x[b]; x[d] ^= x[a]; x[d] = rotl(x[d], 8);
	x[c] += x[d]; x[b] ^= x[c]; x[b] = rotl(x[b], 7);
}

static void ref(uint32_t out[16], const uint32_t in[16])
{
	uint32_t x[16];
	for (int i = 0; i < 16; i++)
		x[i] = in[i];
	for (int r = 0; r < 10; r++) {
		qr(x, 0, 4, 8, 12); qr(x, 1, 5, 9, 13); qr(x, 2, 6, 10, 14); qr(x, 3, 7, 11, 15);
		qr(x, 0, 5, 10, 15); qr(x, 1, 6, 11, 12); qr(x, 2, 7, 8, 13); qr(x, 3, 4, 9, 14);
	}
	for (int i = 0; i < 16; i++)
		out[i] = x[i] + in[i];
}

int main(void)
{
	/* RFC 8439 2.3.2: key 00 01 .. 1f, block count 1, nonce 00:00:00:09:00:00:00:4a:00:00:00:00 */
	uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}, out[16], want[16];
	for (int i = 0; i < 8; i++)
		in[4 + i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 | (uint32_t)(4 * i + 2) << 16 | (uint32_t)(4 * i + 3) << 24;
	in[12] = 1;
	in[13] = 0x09000000;
	in[14] = 0x4a000000;
	in[15] = 0;
	static const uint32_t rfc[4] = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3};
	alloc_chacha20_block(out, in);
	ref(want, in);
	for (int i = 0; i < 4; i++)
		if (out[i] != rfc[i] || want[i] != rfc[i]) {
			printf("RFC 8439 vector: word %d is %08x (reference %08x), expected %08x\n", i, out[i], want[i], rfc[i]);
			return 1;
		}
	srand(14);
	for (int n = 0; n < 1000; n++) {
		for (int i = 0; i < 16; i++)
			in[i] = (uint32_t)rand() << 16 ^ (uint32_t)rand();
		alloc_chacha20_block(out, in);
		ref(want, in);
		for (int i = 0; i < 16; i++)
			if (out[i] != want[i]) {
				printf("state %d word %d: %08x, expected %08x\n", n, i, out[i], want[i]);
				return 1;
			}
	}
	printf("chacha: RFC 8439 vector and 1000 random states ok\n");
	return 0;
}
