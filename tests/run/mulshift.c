/* mulshift: checks the result against C and, through an assembly
 * trampoline, that rbx, rbp, r12-r15 survive the call. */
#include <stdint.h>
#include <stdio.h>
uint64_t mulshift(const uint64_t *p, uint64_t n);
uint64_t checkcall(void *fn, uint64_t a0, uint64_t a1);
uint64_t clobbered;
__asm__(
	".text\n.globl checkcall\ncheckcall:\n"
	"push %rbx\npush %rbp\npush %r12\npush %r13\npush %r14\npush %r15\nsub $8, %rsp\n"
	"mov %rdi, %rax\nmov %rsi, %rdi\nmov %rdx, %rsi\n"
	"movabs $0x1111111111111111, %rbx\nmovabs $0x2222222222222222, %rbp\n"
	"movabs $0x3333333333333333, %r12\nmovabs $0x4444444444444444, %r13\n"
	"movabs $0x5555555555555555, %r14\nmovabs $0x6666666666666666, %r15\n"
	"call *%rax\n"
	"xor %ecx, %ecx\n"
	"movabs $0x1111111111111111, %rdx\ncmp %rdx, %rbx\njne 1f\n"
	"movabs $0x2222222222222222, %rdx\ncmp %rdx, %rbp\njne 1f\n"
	"movabs $0x3333333333333333, %rdx\ncmp %rdx, %r12\njne 1f\n"
	"movabs $0x4444444444444444, %rdx\ncmp %rdx, %r13\njne 1f\n"
	"movabs $0x5555555555555555, %rdx\ncmp %rdx, %r14\njne 1f\n"
	"movabs $0x6666666666666666, %rdx\ncmp %rdx, %r15\njne 1f\n"
	"jmp 2f\n1: mov $1, %ecx\n2: mov %rcx, clobbered(%rip)\n"
	"add $8, %rsp\npop %r15\npop %r14\npop %r13\npop %r12\npop %rbp\npop %rbx\nret\n");

static uint64_t ref(const uint64_t *p, uint64_t n)
{
	uint64_t a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6], h = p[7], k = p[8], l = p[9];
	uint64_t acc = 0, i = 0;
	do {
		unsigned __int128 m = (unsigned __int128)a * b;
		acc += (uint64_t)m;
		acc ^= (uint64_t)(m >> 64);
		int cnt = c & 63;
		acc += d << cnt;
		acc ^= e >> cnt;
		m = (unsigned __int128)f * g;
		h += (uint64_t)(m >> 64);
		k ^= (uint64_t)m;
		l += acc;
		uint64_t t = a;
		a = b; b = c; c = d; d = e; e = f; f = g; g = h; h = k; k = l; l = t;
		i++;
	} while (i < n);
	return acc + a ^ b;
}

static uint64_t ref2(const uint64_t *p, uint64_t n)
{
	/* the final combination, spelled out like the .q */
	uint64_t a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6], h = p[7], k = p[8], l = p[9];
	uint64_t acc = 0, i = 0;
	do {
		unsigned __int128 m = (unsigned __int128)a * b;
		acc += (uint64_t)m;
		acc ^= (uint64_t)(m >> 64);
		int cnt = c & 63;
		acc += d << cnt;
		acc ^= e >> cnt;
		m = (unsigned __int128)f * g;
		h += (uint64_t)(m >> 64);
		k ^= (uint64_t)m;
		l += acc;
		uint64_t t = a;
		a = b; b = c; c = d; d = e; e = f; f = g; g = h; h = k; k = l; l = t;
		i++;
	} while (i < n);
	acc += a; acc ^= b; acc += c; acc ^= d; acc += e; acc ^= f; acc += g; acc ^= h; acc += k; acc ^= l;
	return acc;
}

int main(void)
{
	uint64_t p[10];
	(void)ref;
	for (int t = 0; t < 200; t++) {
		for (int i = 0; i < 10; i++)
			p[i] = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 3 + 11 * t) ^ (uint64_t)t << 40;
		uint64_t n = 1 + (uint64_t)t % 37;
		uint64_t want = ref2(p, n), got = checkcall((void *)mulshift, (uint64_t)p, n);
		if (got != want) {
			printf("trial %d: got %016llx want %016llx\n", t, (unsigned long long)got, (unsigned long long)want);
			return 1;
		}
		if (clobbered) {
			printf("trial %d: a callee-saved register was not preserved\n", t);
			return 1;
		}
	}
	return 0;
}
