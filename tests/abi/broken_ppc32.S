/* tests/abi/broken_ppc32.S: hand-written 32-bit PowerPC (System V) kernels
 * for the ABI checker's cross self-test (tests/sh/abicheck-cross.sh,
 * tests/abi/abitest-cross.c).  abi_good and abi_good_altivec respect the
 * ABI; every other one breaks it in exactly one way.
 *
 * abi_good(a, b, uint64 c, d, uint64 e, f) = Horner over the argument words
 * in ABI order (a r3, b r4, c r5:r6, d r7, e r9:r10 (r8 skipped: pairs
 * start at an odd register), f on the stack at 8(r1)): r = 2 r + word,
 * using and saving r14, r31, f14 and cr2.  The others take (a, b) and
 * return a + b. */
	.text

	.globl	abi_good
	.type	abi_good, @function
abi_good:
	stwu	%r1, -64(%r1)
	mfcr	%r0
	stw	%r0, 8(%r1)
	stw	%r14, 12(%r1)
	stw	%r31, 16(%r1)
	stfd	%f14, 24(%r1)
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
	add	%r31, %r31, %r9
	add	%r31, %r31, %r31
	add	%r31, %r31, %r10
	lwz	%r0, 64+8(%r1)		/* f: the caller's first parameter word */
	add	%r31, %r31, %r31
	add	%r31, %r31, %r0
	cmpwi	%cr2, %r31, 0		/* cr2 used (and restored) */
	stw	%r31, 32(%r1)
	stw	%r31, 36(%r1)
	lfd	%f14, 32(%r1)		/* f14 used (and restored) */
	stfd	%f14, 40(%r1)
	lwz	%r3, 44(%r1)
	lfd	%f14, 24(%r1)
	lwz	%r31, 16(%r1)
	lwz	%r14, 12(%r1)
	lwz	%r0, 8(%r1)
	mtcrf	0x38, %r0
	addi	%r1, %r1, 64
	blr
	.size	abi_good, .-abi_good

/* uses v20 (saved in a 16-byte aligned slot) and v0-v19 freely */
	.globl	abi_good_altivec
	.type	abi_good_altivec, @function
abi_good_altivec:
	stwu	%r1, -48(%r1)
	li	%r0, 16
	stvx	%v20, %r1, %r0
	vspltisw %v20, 7
	vspltisw %v1, -1
	vadduwm	%v2, %v20, %v1
	vnor	%v20, %v20, %v20
	lvx	%v20, %r1, %r0
	addi	%r1, %r1, 48
	add	%r3, %r3, %r4
	blr
	.size	abi_good_altivec, .-abi_good_altivec

#define SUM	add %r3, %r3, %r4

#define KERNEL(name) .globl name; .type name, @function; name:
#define END(name) blr; .size name, .-name

KERNEL(abi_clobber_r14)		/* writes r14 without saving it */
	SUM
	mr	%r14, %r3
END(abi_clobber_r14)

KERNEL(abi_clobber_r31)		/* writes r31 without saving it */
	SUM
	not	%r31, %r31
END(abi_clobber_r31)

KERNEL(abi_clobber_f14)		/* writes f14 without saving it */
	SUM
	fneg	%f14, %f14
END(abi_clobber_f14)

KERNEL(abi_clobber_cr3)		/* changes CR field cr3 */
	SUM
	crnot	12, 12
END(abi_clobber_cr3)

KERNEL(abi_clobber_v20)		/* writes v20 without saving it (AltiVec) */
	SUM
	vnor	%v20, %v20, %v20
END(abi_clobber_v20)

KERNEL(abi_vscr_nj)		/* flips VSCR[NJ] (AltiVec) */
	SUM
	mfvscr	%v0
	vspltisw %v1, 1
	vspltisw %v2, 8
	vslw	%v1, %v1, %v2
	vslw	%v1, %v1, %v2
	vxor	%v0, %v0, %v1
	mtvscr	%v0
END(abi_vscr_nj)

KERNEL(abi_bad_r1)		/* returns with r1 16 bytes lower */
	SUM
	addi	%r1, %r1, -16
END(abi_bad_r1)

KERNEL(abi_clobber_r2)		/* changes r2 (the thread pointer) */
	SUM
	addi	%r2, %r2, 8
END(abi_clobber_r2)

KERNEL(abi_frame_write)		/* writes the caller's frame above the 8 parameter words */
	SUM
	stw	%r3, 40(%r1)
END(abi_frame_write)

KERNEL(abi_fpscr)		/* changes the FP rounding mode */
	SUM
	mtfsfi	7, 1
END(abi_fpscr)

	.section .note.GNU-stack,"",@progbits
