/* x86_spill: against C, with callee-saved registers checked (i386 cdecl) */
#include <stdint.h>
#include <stdio.h>
uint32_t x86_spill(const uint32_t *p, uint32_t n);
uint32_t checkcall(void *fn, uint32_t a0, uint32_t a1);
uint32_t clobbered;
__asm__(
	".text\n.globl checkcall\ncheckcall:\n"
	"push %ebx\npush %esi\npush %edi\npush %ebp\n"
	"mov 20(%esp), %eax\nmov 28(%esp), %ecx\nmov 24(%esp), %edx\n"
	"sub $12, %esp\npush %ecx\npush %edx\n"
	"mov $0x11111111, %ebx\nmov $0x22222222, %esi\nmov $0x33333333, %edi\nmov $0x44444444, %ebp\n"
	"call *%eax\nadd $20, %esp\n"
	"xor %ecx, %ecx\n"
	"cmp $0x11111111, %ebx\njne 1f\ncmp $0x22222222, %esi\njne 1f\n"
	"cmp $0x33333333, %edi\njne 1f\ncmp $0x44444444, %ebp\njne 1f\njmp 2f\n"
	"1: mov $1, %ecx\n2: mov %ecx, clobbered\n"
	"pop %ebp\npop %edi\npop %esi\npop %ebx\nret\n");

static uint32_t ref(const uint32_t *p, uint32_t n)
{
	uint32_t a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6], h = p[7], k = p[8];
	uint32_t acc = 0, i = 0;
	do {
		uint64_t m = (uint64_t)a * b;
		acc += (uint32_t)m;
		acc ^= (uint32_t)(m >> 32);
		int cnt = c & 31;
		acc += d << cnt;
		acc ^= e >> cnt;
		h += f;
		k ^= g;
		uint32_t t = a;
		a = b; b = c; c = d; d = e; e = f; f = g; g = h; h = k; k = t;
		k += acc;
		i++;
	} while (i < n);
	acc += a; acc ^= b; acc += c; acc ^= d; acc += e; acc ^= f; acc += g; acc ^= h; acc += k;
	return acc;
}

int main(void)
{
	uint32_t p[9];
	for (int t = 0; t < 300; t++) {
		for (int i = 0; i < 9; i++)
			p[i] = 0x9e3779b9u * (uint32_t)(i + 3 + 11 * t) ^ (uint32_t)t << 20;
		uint32_t n = 1 + (uint32_t)t % 37;
		uint32_t want = ref(p, n), got = checkcall((void *)x86_spill, (uint32_t)(uintptr_t)p, n);
		if (got != want) {
			printf("trial %d: got %08x want %08x\n", t, got, want);
			return 1;
		}
		if (clobbered) {
			printf("trial %d: a callee-saved register was not preserved\n", t);
			return 1;
		}
	}
	return 0;
}
