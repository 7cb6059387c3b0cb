/* tests/abi/broken_ppc64.S: hand-written 64-bit PowerPC (ELFv1) kernels for
 * the ABI checker's cross self-test (tests/sh/abicheck-cross.sh,
 * tests/abi/abitest-cross.c).  Every symbol is a function descriptor in
 * .opd, as C expects.  abi_good and abi_good_altivec respect the ABI;
 * every other one breaks it in exactly one way.
 *
 * abi_good(a, b, c, d, e, f) (r3-r8) = Horner over the arguments: r = 2 r +
 * arg, using and saving r14, r31, f31 and cr4, loading through its own TOC.
 * The others take (a, b) and return a + b. */

#define KERNEL(name) \
	.section ".opd", "aw"; .p2align 3; .globl name; .type name, @function; \
name:	.quad .L.name, .TOC.@tocbase, 0; .text; .p2align 4; .L.name:
#define END(name) blr; .size name, .-.L.name

KERNEL(abi_good)
	stdu	%r1, -160(%r1)
	mfcr	%r0
	std	%r0, 112(%r1)
	std	%r14, 120(%r1)
	std	%r31, 128(%r1)
	stfd	%f31, 136(%r1)
	ld	%r0, .Lone@toc(%r2)	/* through the TOC: r2 must be right */
	mr	%r14, %r3
	add	%r31, %r14, %r14
	add	%r31, %r31, %r4
	add	%r31, %r31, %r31
	add	%r31, %r31, %r5
	add	%r31, %r31, %r31
	add	%r31, %r31, %r6
	add	%r31, %r31, %r31
	add	%r31, %r31, %r7
	add	%r31, %r31, %r31
	add	%r31, %r31, %r8
	mulld	%r31, %r31, %r0
	cmpdi	%cr4, %r31, 0		/* cr4 used (and restored) */
	std	%r31, 144(%r1)
	lfd	%f31, 144(%r1)		/* f31 used (and restored) */
	stfd	%f31, 152(%r1)
	ld	%r3, 152(%r1)
	lfd	%f31, 136(%r1)
	ld	%r31, 128(%r1)
	ld	%r14, 120(%r1)
	ld	%r0, 112(%r1)
	mtcrf	0x38, %r0
	addi	%r1, %r1, 160
END(abi_good)

	.section ".toc", "aw"
.Lone:	.quad	1
	.text

KERNEL(abi_good_altivec)	/* uses v31 (saved) and v0-v19 freely */
	stdu	%r1, -144(%r1)
	li	%r0, 112
	stvx	%v31, %r1, %r0
	vspltisw %v31, 7
	vspltisw %v1, -1
	vadduwm	%v2, %v31, %v1
	lvx	%v31, %r1, %r0
	addi	%r1, %r1, 144
	add	%r3, %r3, %r4
END(abi_good_altivec)

#define SUM	add %r3, %r3, %r4

KERNEL(abi_clobber_r14)		/* writes r14 without saving it */
	SUM
	mr	%r14, %r3
END(abi_clobber_r14)

KERNEL(abi_clobber_f31)		/* writes f31 without saving it */
	SUM
	fneg	%f31, %f31
END(abi_clobber_f31)

KERNEL(abi_clobber_cr4)		/* changes CR field cr4 */
	SUM
	crnot	16, 16
END(abi_clobber_cr4)

KERNEL(abi_clobber_v31)		/* writes v31 without saving it (AltiVec) */
	SUM
	vnor	%v31, %v31, %v31
END(abi_clobber_v31)

KERNEL(abi_bad_r1)		/* returns with r1 16 bytes lower */
	SUM
	addi	%r1, %r1, -16
END(abi_bad_r1)

KERNEL(abi_clobber_r2)		/* returns with another TOC pointer */
	SUM
	addi	%r2, %r2, 8
END(abi_clobber_r2)

KERNEL(abi_clobber_r13)		/* changes r13 (the thread pointer) */
	SUM
	addi	%r13, %r13, 8
END(abi_clobber_r13)

KERNEL(abi_frame_write)		/* writes the caller's frame above the parameter save area */
	SUM
	std	%r3, 112(%r1)
END(abi_frame_write)

KERNEL(abi_fpscr)		/* changes the FP rounding mode */
	SUM
	mtfsfi	7, 1
END(abi_fpscr)

	.section .note.GNU-stack,"",@progbits
