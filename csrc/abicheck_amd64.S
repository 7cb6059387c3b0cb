/* abicheck_amd64.S: the System V AMD64 trampoline of the ABI checker
 * (csrc/abicheck.c, csrc/abicheck.h).
 *
 *   void qhasm_abicheck_amd64_call(qhasm_abicheck_amd64_ctx *ctx);
 *
 * Saves the caller's callee-saved registers, loads rbx, rbp, r12-r15 and
 * the scratch registers rax, r10, r11 with the values in ctx, puts three
 * canary quadwords right above the return address (a function without
 * stack arguments has no business writing there), clears the AVX upper
 * state with vzeroupper (only when ctx asks: the instruction needs AVX),
 * calls ctx->fn with the six argument registers from ctx, and records
 * everything the callee might have broken: the callee-saved registers,
 * rsp, RFLAGS (DF), MXCSR and the x87 control word, the canaries and, when
 * ctx asks, XINUSE (xgetbv with ecx=1) for the dirty-upper-state check.
 * The C side compares.  Not reentrant (the context pointer is kept in a
 * static, so that it survives a callee that breaks rsp).
 *
 * The offsets below must match qhasm_abicheck_amd64_ctx in abicheck.c. */
#if defined(__x86_64__) && !defined(_WIN32)

#define C_FN        0     /* function to call */
#define C_ARGS      8     /* 6 x u64: rdi rsi rdx rcx r8 r9 */
#define C_FILL      56    /* 6 x u64: rbx rbp r12 r13 r14 r15 before the call */
#define C_AFTER     104   /* 6 x u64: the same after the call */
#define C_RSP0      152   /* rsp just before the call */
#define C_RSP1      160   /* rsp just after the call */
#define C_FLAGS     168   /* RFLAGS after the call */
#define C_RAX       176   /* return value (rax, rdx) */
#define C_RDX       184
#define C_XCHECK    192   /* in: nonzero = vzeroupper before, xgetbv(1) after */
#define C_XINUSE    200   /* out: XINUSE after the call */
#define C_CANARY    208   /* 2 x u64 in (3rd: unused) */
#define C_CANARY1   232   /* 3 x u64 out: fn, canary[0], canary[1] */
#define C_MXCSR0    256   /* u32 */
#define C_MXCSR1    260   /* u32 */
#define C_FCW0      264   /* u16 */
#define C_FCW1      266   /* u16 */
#define C_SCRATCH   272   /* 3 x u64 in: rax r10 r11 */

	.text
	.globl	qhasm_abicheck_amd64_call
	.hidden	qhasm_abicheck_amd64_call
	.type	qhasm_abicheck_amd64_call, @function
	.p2align 4
qhasm_abicheck_amd64_call:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rdi, abictx(%rip)
	/* entry rsp = 8 mod 16; 6 pushes, 16 bytes of canaries and the pushed
	 * function address below make it 0 mod 16 at the call */
	subq	$16, %rsp
	movq	C_CANARY(%rdi), %rax
	movq	%rax, 0(%rsp)
	movq	C_CANARY+8(%rdi), %rax
	movq	%rax, 8(%rsp)
	stmxcsr	C_MXCSR0(%rdi)
	fnstcw	C_FCW0(%rdi)
	cmpq	$0, C_XCHECK(%rdi)
	je	1f
	vzeroupper
1:	movq	C_FILL+0(%rdi), %rbx
	movq	C_FILL+8(%rdi), %rbp
	movq	C_FILL+16(%rdi), %r12
	movq	C_FILL+24(%rdi), %r13
	movq	C_FILL+32(%rdi), %r14
	movq	C_FILL+40(%rdi), %r15
	movq	C_SCRATCH+8(%rdi), %r10
	movq	C_SCRATCH+16(%rdi), %r11
	movq	C_ARGS+8(%rdi), %rsi
	movq	C_ARGS+16(%rdi), %rdx
	movq	C_ARGS+24(%rdi), %rcx
	movq	C_ARGS+32(%rdi), %r8
	movq	C_ARGS+40(%rdi), %r9
	/* the function address goes on the stack below the canaries, so that
	 * rax too can carry a random value into the call; it is the third
	 * canary (the C side expects it unchanged) */
	pushq	C_FN(%rdi)
	movq	%rsp, C_RSP0(%rdi)
	movq	C_SCRATCH+0(%rdi), %rax
	movq	C_ARGS+0(%rdi), %rdi
	call	*(%rsp)
	/* rsp is not trusted yet; the context comes from the static */
	movq	abictx(%rip), %r11
	movq	%rax, C_RAX(%r11)
	movq	%rdx, C_RDX(%r11)
	movq	%rsp, C_RSP1(%r11)
	movq	%rbx, C_AFTER+0(%r11)
	movq	%rbp, C_AFTER+8(%r11)
	movq	%r12, C_AFTER+16(%r11)
	movq	%r13, C_AFTER+24(%r11)
	movq	%r14, C_AFTER+32(%r11)
	movq	%r15, C_AFTER+40(%r11)
	movq	C_RSP0(%r11), %rsp
	pushfq
	popq	C_FLAGS(%r11)
	cld
	stmxcsr	C_MXCSR1(%r11)
	fnstcw	C_FCW1(%r11)
	ldmxcsr	C_MXCSR0(%r11)
	fldcw	C_FCW0(%r11)
	cmpq	$0, C_XCHECK(%r11)
	je	2f
	movl	$1, %ecx
	xgetbv
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, C_XINUSE(%r11)
2:	movq	0(%rsp), %rax
	movq	%rax, C_CANARY1(%r11)
	movq	8(%rsp), %rax
	movq	%rax, C_CANARY1+8(%r11)
	movq	16(%rsp), %rax
	movq	%rax, C_CANARY1+16(%r11)
	addq	$24, %rsp              /* function address and canaries */
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	qhasm_abicheck_amd64_call, .-qhasm_abicheck_amd64_call

	.local	abictx
	.comm	abictx, 8, 8

#endif

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",@progbits
#endif
