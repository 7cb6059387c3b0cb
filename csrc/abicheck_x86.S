/* abicheck_x86.S: the i386 (cdecl, System V) trampoline of the ABI checker
 * (csrc/abicheck.c, csrc/abicheck.h).
 *
 *   void qhasm_abicheck_x86_call(qhasm_abicheck_x86_ctx *ctx);
 *
 * Saves the caller's ebx, esi, edi, ebp, aligns the stack to 16 bytes and
 * puts the 12 argument words of ctx (already laid out by the C side: a
 * 64-bit argument is two words, low first) at esp, then the function
 * address and three canary words right above them (a function may write
 * its own argument words, but has no business writing above them).  Loads
 * ebx, esi, edi, ebp and the scratch registers eax, ecx, edx with the
 * values in ctx, calls, and records what the callee left: the callee-saved
 * registers, esp, EFLAGS (DF), the x87 control word, the x87 environment
 * (its tag word says whether the register stack is empty), MXCSR (only
 * when ctx says SSE exists) and the canaries.  Then it restores the x87
 * state (fninit + the old control word) and MXCSR and returns; the C side
 * compares.  Not reentrant: the context pointer is kept in a static so that
 * it survives a callee that breaks esp.  Position independent (the static
 * is reached through the GOT pointer computed with call/pop; after the
 * call, that writes the word below the callee's esp, which is below the
 * argument area when esp is right).
 *
 * The offsets below must match qhasm_abicheck_x86_ctx in abicheck.c. */
#if defined(__i386__) && defined(__ELF__)

#define X_FN        0     /* function to call */
#define X_MXCHECK   4     /* in: nonzero = SSE present: save/compare MXCSR */
#define X_WORDS     8     /* 12 x u32: the argument words, in stack order */
#define X_FILL      56    /* 4 x u32: ebx esi edi ebp before the call */
#define X_AFTER     72    /* 4 x u32: the same after the call */
#define X_ESP0      88    /* esp just before the call */
#define X_ESP1      92    /* esp just after the call */
#define X_FLAGS     96    /* EFLAGS after the call */
#define X_EAX       100   /* return value (eax, edx) */
#define X_EDX       104
#define X_SCRATCH   108   /* 3 x u32 in: eax ecx edx */
#define X_CANARY    120   /* 3 x u32 in */
#define X_CANARY1   132   /* 4 x u32 out: fn, canary[0..2] */
#define X_MXCSR0    148
#define X_MXCSR1    152
#define X_FCW0      156   /* u16 */
#define X_FCW1      158   /* u16 */
#define X_ESPSAVE   160   /* the trampoline's esp before aligning */
#define X_FENV      164   /* 28 bytes: fnstenv after the call */

	.text
	.globl	qhasm_abicheck_x86_call
	.hidden	qhasm_abicheck_x86_call
	.type	qhasm_abicheck_x86_call, @function
	.p2align 4
qhasm_abicheck_x86_call:
	pushl	%ebp
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	movl	20(%esp), %eax
	call	1f
1:	popl	%ecx
	addl	$_GLOBAL_OFFSET_TABLE_+(.-1b), %ecx
	movl	%eax, abictx@GOTOFF(%ecx)
	movl	%esp, X_ESPSAVE(%eax)
	andl	$-16, %esp
	subl	$64, %esp
	/* 0..47: argument words; 48: function address; 52..63: canaries */
	.irp	i, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44
	movl	X_WORDS+\i(%eax), %ecx
	movl	%ecx, \i(%esp)
	.endr
	movl	X_FN(%eax), %ecx
	movl	%ecx, 48(%esp)
	movl	X_CANARY+0(%eax), %ecx
	movl	%ecx, 52(%esp)
	movl	X_CANARY+4(%eax), %ecx
	movl	%ecx, 56(%esp)
	movl	X_CANARY+8(%eax), %ecx
	movl	%ecx, 60(%esp)
	fnstcw	X_FCW0(%eax)
	cmpl	$0, X_MXCHECK(%eax)
	je	2f
	stmxcsr	X_MXCSR0(%eax)
2:	movl	X_FILL+0(%eax), %ebx
	movl	X_FILL+4(%eax), %esi
	movl	X_FILL+8(%eax), %edi
	movl	X_FILL+12(%eax), %ebp
	movl	X_SCRATCH+4(%eax), %ecx
	movl	X_SCRATCH+8(%eax), %edx
	movl	%esp, X_ESP0(%eax)
	movl	X_SCRATCH+0(%eax), %eax
	call	*48(%esp)
	/* esp is not trusted yet; the context comes from the static */
	call	3f
3:	popl	%ecx
	addl	$_GLOBAL_OFFSET_TABLE_+(.-3b), %ecx
	movl	abictx@GOTOFF(%ecx), %ecx
	movl	%eax, X_EAX(%ecx)
	movl	%edx, X_EDX(%ecx)
	movl	%esp, X_ESP1(%ecx)
	movl	%ebx, X_AFTER+0(%ecx)
	movl	%esi, X_AFTER+4(%ecx)
	movl	%edi, X_AFTER+8(%ecx)
	movl	%ebp, X_AFTER+12(%ecx)
	movl	X_ESP0(%ecx), %esp
	pushfl
	popl	X_FLAGS(%ecx)
	cld
	fnstcw	X_FCW1(%ecx)
	fnstenv	X_FENV(%ecx)
	fninit
	fldcw	X_FCW0(%ecx)
	cmpl	$0, X_MXCHECK(%ecx)
	je	4f
	stmxcsr	X_MXCSR1(%ecx)
	ldmxcsr	X_MXCSR0(%ecx)
4:	movl	48(%esp), %eax
	movl	%eax, X_CANARY1+0(%ecx)
	movl	52(%esp), %eax
	movl	%eax, X_CANARY1+4(%ecx)
	movl	56(%esp), %eax
	movl	%eax, X_CANARY1+8(%ecx)
	movl	60(%esp), %eax
	movl	%eax, X_CANARY1+12(%ecx)
	movl	X_ESPSAVE(%ecx), %esp
	popl	%edi
	popl	%esi
	popl	%ebx
	popl	%ebp
	ret
	.size	qhasm_abicheck_x86_call, .-qhasm_abicheck_x86_call

	.local	abictx
	.comm	abictx, 4, 4

#endif

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",@progbits
#endif
