/* abicheck_sparc64.S: the SPARC V9 (64-bit Linux) trampoline of the ABI
 * checker (csrc/abicheck.c, csrc/abicheck.h).
 *
 *   void qhasm_abicheck_sparc64_call(qhasm_abicheck_sparc64_ctx *ctx);
 *
 * With register windows the callee's save/restore preserves the caller's
 * %l0-%l7 and %i0-%i7, so a violation shows up exactly there: a leaf
 * routine writing %l/%i registers, a save without restore (or two
 * restores), a clobbered %fp or %i7, a changed %sp.  The trampoline opens
 * its own window, puts two canary doublewords right above the argument
 * area of its frame (the callee may write the register save area and the
 * six argument slots, nothing above), fills its %l0-%l7, %i0-%i5, the
 * application registers %g2, %g3 and the scratch %g4, %g5 with the values
 * in ctx (%i6 = %fp and %i7 are kept: they are needed to return; the C side
 * checks that they did not change), records %g6, %g7 (system registers,
 * must not change) and %fsr, loads %o0-%o5 and calls ctx->fn through %g1.
 * Afterwards it records %l0-%l7, %i0-%i7, %sp, %g2, %g3, %g6, %g7, %fsr,
 * the canaries and %o0, restores %sp, %fp, %i7, %g2, %g3, %g6, %g7 and
 * %fsr and returns.  Not reentrant: the context pointer is kept in a
 * static (reached PC-relatively) so that it survives a broken %sp.
 *
 * The offsets below must match qhasm_abicheck_sparc64_ctx in abicheck.c. */
#if defined(__sparc__) && defined(__arch64__) && defined(__ELF__)

#define S_FN        0     /* function to call */
#define S_ARGS      8     /* 6 x u64: %o0..%o5 */
#define S_FILLL     56    /* 8 x u64: %l0..%l7 before the call */
#define S_FILLI     120   /* 6 x u64: %i0..%i5 before the call */
#define S_AFTERL    168   /* 8 x u64: %l0..%l7 after */
#define S_AFTERI    232   /* 8 x u64: %i0..%i7 after */
#define S_FP0       296   /* %i6 (%fp) before */
#define S_I7_0      304   /* %i7 before */
#define S_SP0       312
#define S_SP1       320
#define S_FILLG     328   /* 2 x u64: %g2 %g3 before */
#define S_AFTERG    344   /* 4 x u64: %g2 %g3 %g6 %g7 after */
#define S_G6_0      376
#define S_G7_0      384
#define S_RET       392   /* %o0 after */
#define S_SCRATCH   400   /* 2 x u64 in: %g4 %g5 */
#define S_FSR0      416
#define S_FSR1      424
#define S_CANARY    432   /* 2 x u64 in */
#define S_CANARY1   448   /* 2 x u64 out */

#define BIAS        2047
/* the frame: 16 doublewords of register save area, 6 argument slots, then
 * ours: the canaries and the caller's %g2, %g3 */
#define FRAME       208
#define F_CANARY    176
#define F_G23       192

/* reg = the context pointer from the static (PC-relative: rd %pc gives the
 * address of the rd; %pc22/%pc10 are relative to their own instruction) */
#define LOADCTXADDR(reg, tmp) \
	rd	%pc, reg; \
	sethi	%pc22(abictx+4), tmp; \
	or	tmp, %pc10(abictx+8), tmp; \
	add	reg, tmp, reg

	.register %g2, #scratch
	.register %g3, #scratch
	.register %g6, #ignore
	.register %g7, #ignore

	.text
	.globl	qhasm_abicheck_sparc64_call
	.hidden	qhasm_abicheck_sparc64_call
	.type	qhasm_abicheck_sparc64_call, #function
	.p2align 5
qhasm_abicheck_sparc64_call:
	save %sp, -FRAME, %sp
	LOADCTXADDR(%g1, %g5)
	stx %i0, [%g1]
	stx %g2, [%sp + BIAS + F_G23]
	stx %g3, [%sp + BIAS + F_G23 + 8]
	stx %i6, [%i0 + S_FP0]
	stx %i7, [%i0 + S_I7_0]
	stx %g6, [%i0 + S_G6_0]
	stx %g7, [%i0 + S_G7_0]
	stx %fsr, [%i0 + S_FSR0]
	ldx [%i0 + S_CANARY], %g1
	stx %g1, [%sp + BIAS + F_CANARY]
	ldx [%i0 + S_CANARY + 8], %g1
	stx %g1, [%sp + BIAS + F_CANARY + 8]
	ldx [%i0 + S_FILLL + 0], %l0
	ldx [%i0 + S_FILLL + 8], %l1
	ldx [%i0 + S_FILLL + 16], %l2
	ldx [%i0 + S_FILLL + 24], %l3
	ldx [%i0 + S_FILLL + 32], %l4
	ldx [%i0 + S_FILLL + 40], %l5
	ldx [%i0 + S_FILLL + 48], %l6
	ldx [%i0 + S_FILLL + 56], %l7
	ldx [%i0 + S_FILLG], %g2
	ldx [%i0 + S_FILLG + 8], %g3
	ldx [%i0 + S_SCRATCH], %g4
	ldx [%i0 + S_SCRATCH + 8], %g5
	ldx [%i0 + S_ARGS + 0], %o0
	ldx [%i0 + S_ARGS + 8], %o1
	ldx [%i0 + S_ARGS + 16], %o2
	ldx [%i0 + S_ARGS + 24], %o3
	ldx [%i0 + S_ARGS + 32], %o4
	ldx [%i0 + S_ARGS + 40], %o5
	ldx [%i0 + S_FN], %g1
	stx %sp, [%i0 + S_SP0]
	ldx [%i0 + S_FILLI + 8], %i1
	ldx [%i0 + S_FILLI + 16], %i2
	ldx [%i0 + S_FILLI + 24], %i3
	ldx [%i0 + S_FILLI + 32], %i4
	ldx [%i0 + S_FILLI + 40], %i5
	ldx [%i0 + S_FILLI], %i0
	call %g1
	 nop
	/* %sp is not trusted yet; the context comes from the static */
	LOADCTXADDR(%g1, %g4)
	ldx [%g1], %g1
	stx %o0, [%g1 + S_RET]
	stx %sp, [%g1 + S_SP1]
	stx %l0, [%g1 + S_AFTERL + 0]
	stx %l1, [%g1 + S_AFTERL + 8]
	stx %l2, [%g1 + S_AFTERL + 16]
	stx %l3, [%g1 + S_AFTERL + 24]
	stx %l4, [%g1 + S_AFTERL + 32]
	stx %l5, [%g1 + S_AFTERL + 40]
	stx %l6, [%g1 + S_AFTERL + 48]
	stx %l7, [%g1 + S_AFTERL + 56]
	stx %i0, [%g1 + S_AFTERI + 0]
	stx %i1, [%g1 + S_AFTERI + 8]
	stx %i2, [%g1 + S_AFTERI + 16]
	stx %i3, [%g1 + S_AFTERI + 24]
	stx %i4, [%g1 + S_AFTERI + 32]
	stx %i5, [%g1 + S_AFTERI + 40]
	stx %i6, [%g1 + S_AFTERI + 48]
	stx %i7, [%g1 + S_AFTERI + 56]
	stx %g2, [%g1 + S_AFTERG]
	stx %g3, [%g1 + S_AFTERG + 8]
	stx %g6, [%g1 + S_AFTERG + 16]
	stx %g7, [%g1 + S_AFTERG + 24]
	stx %fsr, [%g1 + S_FSR1]
	ldx [%g1 + S_FSR0], %fsr
	ldx [%g1 + S_SP0], %sp
	ldx [%g1 + S_FP0], %i6
	ldx [%g1 + S_I7_0], %i7
	ldx [%g1 + S_G6_0], %g6
	ldx [%g1 + S_G7_0], %g7
	ldx [%sp + BIAS + F_G23], %g2
	ldx [%sp + BIAS + F_G23 + 8], %g3
	ldx [%sp + BIAS + F_CANARY], %g4
	stx %g4, [%g1 + S_CANARY1]
	ldx [%sp + BIAS + F_CANARY + 8], %g4
	stx %g4, [%g1 + S_CANARY1 + 8]
	ret
	 restore
	.size qhasm_abicheck_sparc64_call, .-qhasm_abicheck_sparc64_call
	
	.local abictx
	.comm abictx, 8, 8

#endif

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",@progbits
#endif
