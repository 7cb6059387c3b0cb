/* int64_carry: the driver of tests/run/int64_carry_<target>.q: 256-bit add
 * and subtract chains and an immediate carry at edge values, against C. */
#include <stdint.h>
#include <stdio.h>

void add256(uint64_t *p);
void sub256(uint64_t *p);
void addimm(uint64_t *p);

static const uint64_t edge[] = {0, 1, 5, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xfffffffffffffffbull,
	0xfffffffffffffffeull, 0xffffffffffffffffull, 0xffffffff, 0x100000000ull, 0x123456789abcdef0ull};
enum { NE = sizeof edge / sizeof edge[0] };

int main(void)
{
	int bad = 0;
	for (int i = 0; i < NE; i++)
		for (int j = 0; j < NE; j++) {
			uint64_t a[4] = {edge[i], edge[j], edge[i], edge[j]}, b[4] = {edge[j], edge[i], ~edge[i], edge[j]};
			uint64_t p[13], w[5], c = 0;
			for (int k = 0; k < 4; k++) {
				p[k] = a[k];
				p[4 + k] = b[k];
			}
			for (int k = 0; k < 4; k++) {
				uint64_t s = a[k] + b[k], c1 = s < a[k], t = s + c, c2 = t < s;
				w[k] = t;
				c = c1 | c2;
			}
			w[4] = c;
			add256(p);
			for (int k = 0; k < 5; k++)
				if (p[8 + k] != w[k]) {
					printf("add256(%d, %d) word %d: got %016llx want %016llx\n", i, j, k, (unsigned long long)p[8 + k],
					       (unsigned long long)w[k]);
					bad = 1;
				}
			uint64_t q[12], br = 0;
			for (int k = 0; k < 4; k++) {
				q[k] = a[k];
				q[4 + k] = b[k];
			}
			for (int k = 0; k < 4; k++) {
				uint64_t d = a[k] - b[k], b1 = a[k] < b[k], e = d - br, b2 = d < br;
				w[k] = e;
				br = b1 | b2;
			}
			sub256(q);
			for (int k = 0; k < 4; k++)
				if (q[8 + k] != w[k]) {
					printf("sub256(%d, %d) word %d: got %016llx want %016llx\n", i, j, k, (unsigned long long)q[8 + k],
					       (unsigned long long)w[k]);
					bad = 1;
				}
			uint64_t m[4] = {edge[i], edge[j]};
			addimm(m);
			uint64_t lo = edge[i] + 5, hi = edge[j] + (lo < 5);
			if (m[2] != lo || m[3] != hi) {
				printf("addimm(%d, %d): got %016llx %016llx\n", i, j, (unsigned long long)m[3], (unsigned long long)m[2]);
				bad = 1;
			}
		}
	if (!bad)
		printf("int64 carry chains: %d x %d edge pairs agree with C\n", NE, NE);
	return bad;
}
