/* tests/abi/broken_x86.S: hand-written i386 (cdecl) kernels for the ABI
 * checker's cross self-test (tests/sh/abicheck-cross.sh,
 * tests/abi/abitest-cross.c).  abi_good and abi_good_fpu respect the ABI;
 * every other one breaks it in exactly one way.  Written by hand: the
 * translator always saves the callee-saved registers it uses, so it cannot
 * produce these.
 *
 * abi_good(a, b, uint64 c, d, uint64 e, f) = Horner over the argument words
 * in ABI order (a, b, c.hi, c.lo, d, e.hi, e.lo, f): r = 2 r + word, using
 * and saving every callee-saved register.  The others take (a, b) and
 * return a + b. */
	.text

	.globl	abi_good
	.type	abi_good, @function
abi_good:
	pushl	%ebp
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	subl	$12, %esp
	/* the arguments are at 32(%esp): a b c.lo c.hi d e.lo e.hi f */
	movl	32(%esp), %ebx
	movl	36(%esp), %esi
	movl	40(%esp), %edi
	movl	44(%esp), %ebp
	movl	%ebx, %eax
	addl	%eax, %eax
	addl	%esi, %eax
	addl	%eax, %eax
	addl	%ebp, %eax
	addl	%eax, %eax
	addl	%edi, %eax
	movl	%eax, 0(%esp)
	movl	48(%esp), %ebx
	movl	52(%esp), %esi
	movl	56(%esp), %edi
	movl	60(%esp), %ebp
	movl	0(%esp), %eax
	addl	%eax, %eax
	addl	%ebx, %eax
	addl	%eax, %eax
	addl	%edi, %eax
	addl	%eax, %eax
	addl	%esi, %eax
	addl	%eax, %eax
	addl	%ebp, %eax
	addl	$12, %esp
	popl	%edi
	popl	%esi
	popl	%ebx
	popl	%ebp
	ret
	.size	abi_good, .-abi_good

/* uses the x87 stack and MMX correctly (empty stack, emms) and DF (cleared) */
	.globl	abi_good_fpu
	.type	abi_good_fpu, @function
abi_good_fpu:
	fld1
	fld1
	faddp
	fstp	%st(0)
	movd	4(%esp), %mm0
	movd	%mm0, %eax
	emms
	std
	cld
	addl	8(%esp), %eax
	ret
	.size	abi_good_fpu, .-abi_good_fpu

#define SUM	movl 4(%esp), %eax; addl 8(%esp), %eax

/* writes ebx without saving it */
	.globl	abi_clobber_ebx
	.type	abi_clobber_ebx, @function
abi_clobber_ebx:
	SUM
	movl	%eax, %ebx
	ret
	.size	abi_clobber_ebx, .-abi_clobber_ebx

/* writes esi and edi without saving them */
	.globl	abi_clobber_esi_edi
	.type	abi_clobber_esi_edi, @function
abi_clobber_esi_edi:
	SUM
	notl	%esi
	notl	%edi
	ret
	.size	abi_clobber_esi_edi, .-abi_clobber_esi_edi

/* writes ebp without saving it */
	.globl	abi_clobber_ebp
	.type	abi_clobber_ebp, @function
abi_clobber_ebp:
	SUM
	notl	%ebp
	ret
	.size	abi_clobber_ebp, .-abi_clobber_ebp

/* returns with esp 4 bytes lower than it should be */
	.globl	abi_bad_esp
	.type	abi_bad_esp, @function
abi_bad_esp:
	SUM
	popl	%ecx
	subl	$4, %esp
	jmp	*%ecx
	.size	abi_bad_esp, .-abi_bad_esp

/* writes the caller's stack above the 12 argument words */
	.globl	abi_stack_write
	.type	abi_stack_write, @function
abi_stack_write:
	SUM
	movl	%eax, 56(%esp)
	ret
	.size	abi_stack_write, .-abi_stack_write

/* returns with the direction flag set */
	.globl	abi_set_df
	.type	abi_set_df, @function
abi_set_df:
	SUM
	std
	ret
	.size	abi_set_df, .-abi_set_df

/* changes the x87 rounding mode and does not restore it */
	.globl	abi_x87_cw
	.type	abi_x87_cw, @function
abi_x87_cw:
	subl	$4, %esp
	fnstcw	(%esp)
	xorw	$0x0c00, (%esp)
	fldcw	(%esp)
	addl	$4, %esp
	SUM
	ret
	.size	abi_x87_cw, .-abi_x87_cw

/* uses MMX and returns without emms (x87 tag word not empty) */
	.globl	abi_mmx_no_emms
	.type	abi_mmx_no_emms, @function
abi_mmx_no_emms:
	SUM
	movd	%eax, %mm0
	ret
	.size	abi_mmx_no_emms, .-abi_mmx_no_emms

/* leaves a value on the x87 stack */
	.globl	abi_x87_push
	.type	abi_x87_push, @function
abi_x87_push:
	SUM
	fld1
	ret
	.size	abi_x87_push, .-abi_x87_push

/* changes the SSE rounding mode (MXCSR) and does not restore it */
	.globl	abi_mxcsr
	.type	abi_mxcsr, @function
abi_mxcsr:
	subl	$4, %esp
	stmxcsr	(%esp)
	xorl	$0x6000, (%esp)
	ldmxcsr	(%esp)
	addl	$4, %esp
	SUM
	ret
	.size	abi_mxcsr, .-abi_mxcsr

	.section .note.GNU-stack,"",@progbits
