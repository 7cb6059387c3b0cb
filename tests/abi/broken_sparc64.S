/* tests/abi/broken_sparc64.S: hand-written SPARC V9 (64-bit) kernels for
 * the ABI checker's cross self-test (tests/sh/abicheck-cross.sh,
 * tests/abi/abitest-cross.c).  abi_good and abi_good_leaf respect the ABI;
 * every other one breaks it in exactly one way.
 *
 * abi_good(a, b, c, d, e, f) (%o0-%o5, %i0-%i5 after save) = Horner over
 * the arguments: r = 2 r + arg, in its own window (%l0-%l7, %i0-%i7) and
 * the volatile %g1, %g4, %g5.  abi_good_leaf does the same without a window,
 * in %o registers and %g1, %g4, %g5.  The others take (a, b) and return
 * a + b. */
#define BIAS 2047

	.register %g2, #scratch
	.register %g3, #scratch
	.register %g6, #ignore
	.register %g7, #ignore
	.text

#define KERNEL(name) .globl name; .type name, #function; .p2align 5; name:
#define END(name) .size name, .-name

KERNEL(abi_good)
	save	%sp, -192, %sp
	mov	%i0, %l0
	add	%l0, %l0, %l1
	add	%l1, %i1, %l2
	add	%l2, %l2, %l3
	add	%l3, %i2, %l4
	add	%l4, %l4, %l5
	add	%l5, %i3, %l6
	add	%l6, %l6, %l7
	add	%l7, %i4, %g1
	add	%g1, %g1, %g4
	add	%g4, %i5, %g5
	stx	%g5, [%fp + BIAS - 8]	/* own frame */
	ldx	[%fp + BIAS - 8], %i0
	mov	0, %i1
	mov	0, %i5
	ret
	 restore
END(abi_good)

KERNEL(abi_good_leaf)
	add	%o0, %o0, %g1
	add	%g1, %o1, %g1
	add	%g1, %g1, %g4
	add	%g4, %o2, %g4
	add	%g4, %g4, %g5
	add	%g5, %o3, %g5
	add	%g5, %g5, %g1
	add	%g1, %o4, %g1
	add	%g1, %g1, %o0
	stx	%o5, [%sp + BIAS + 128]	/* the caller's argument slot for arg 0 (allowed) */
	ldx	[%sp + BIAS + 128], %o5
	retl
	 add	%o0, %o5, %o0
END(abi_good_leaf)

KERNEL(abi_clobber_l0)		/* a leaf routine writing %l0: the caller's */
	add	%o0, %o1, %o0
	retl
	 mov	%o0, %l0
END(abi_clobber_l0)

KERNEL(abi_clobber_i3)		/* a leaf routine writing %i3: the caller's */
	add	%o0, %o1, %o0
	retl
	 not	%i3
END(abi_clobber_i3)

KERNEL(abi_clobber_fp)		/* a leaf routine writing the caller's %fp */
	add	%o0, %o1, %o0
	retl
	 xor	%i6, 64, %i6
END(abi_clobber_fp)

KERNEL(abi_bad_sp)		/* returns with %sp 16 bytes lower */
	add	%o0, %o1, %o0
	retl
	 add	%sp, -16, %sp
END(abi_bad_sp)

KERNEL(abi_clobber_g2)		/* writes the application register %g2 */
	add	%o0, %o1, %o0
	retl
	 not	%g2
END(abi_clobber_g2)

KERNEL(abi_clobber_g6)		/* writes the system register %g6 */
	add	%o0, %o1, %o0
	retl
	 not	%g6
END(abi_clobber_g6)

KERNEL(abi_clobber_g7)		/* changes %g7 (the thread pointer) */
	add	%o0, %o1, %o0
	retl
	 xor	%g7, 8, %g7
END(abi_clobber_g7)

KERNEL(abi_frame_write)		/* writes the caller's frame above the six argument slots */
	add	%o0, %o1, %o0
	retl
	 stx	%o0, [%sp + BIAS + 176]
END(abi_frame_write)

KERNEL(abi_fsr)			/* changes the FP rounding direction */
	stx	%fsr, [%sp + BIAS + 128]
	ldx	[%sp + BIAS + 128], %g1
	sethi	%hi(0x40000000), %g4
	xor	%g1, %g4, %g1
	stx	%g1, [%sp + BIAS + 128]
	ldx	[%sp + BIAS + 128], %fsr
	retl
	 add	%o0, %o1, %o0
END(abi_fsr)

	.section .note.GNU-stack,"",@progbits
