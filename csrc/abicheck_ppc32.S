/* abicheck_ppc32.S: the 32-bit PowerPC (System V ABI) trampoline of the ABI
 * checker (csrc/abicheck.c, csrc/abicheck.h).
 *
 *   void qhasm_abicheck_ppc32_call(qhasm_abicheck_ppc32_ctx *ctx);
 *
 * Saves the caller's non-volatile state (r14-r31, f14-f31, CR, and v20-v31
 * when ctx says AltiVec is present), copies the parameter words of ctx to
 * the parameter area at 8(r1) and two canary words right above it (the
 * callee has no business writing there), records r2, r13, FPSCR (and
 * VSCR), fills r14-r31, f14-f31, the CR fields cr2-cr4, v20-v31 and the
 * scratch registers r0, r11, r12 with the values in ctx, loads the argument
 * registers r3-r10 (the C side has laid out 64-bit arguments in register
 * pairs / stack doublewords), calls ctx->fn and records everything the
 * callee left: r14-r31, f14-f31, CR, v20-v31, r1, r2, r13, FPSCR, VSCR, the
 * canaries and the return registers r3, r4.  Then it restores r1, r2, r13,
 * FPSCR, VSCR and the caller's registers and returns; the C side compares.
 * Not reentrant: the context pointer is kept in a static (reached
 * PC-relatively, so the object is position independent) so that it
 * survives a callee that breaks r1.
 *
 * The offsets below must match qhasm_abicheck_ppc32_ctx in abicheck.c. */
#if defined(__powerpc__) && !defined(__powerpc64__) && defined(__ELF__)

#define P_FN        0     /* function to call */
#define P_FLAGS     4     /* in: bit 0 = AltiVec present */
#define P_GPR       8     /* 8 x u32: r3..r10 */
#define P_STACK     40    /* 8 x u32: parameter words at 8(r1) */
#define P_FILL      72    /* 18 x u32: r14..r31 before the call */
#define P_AFTER     144   /* 18 x u32: the same after the call */
#define P_CR0       216   /* CR loaded before the call (fields cr2-cr4) */
#define P_CR1       220   /* CR after the call */
#define P_R1_0      224
#define P_R1_1      228
#define P_R2_0      232
#define P_R2_1      236
#define P_R13_0     240
#define P_R13_1     244
#define P_RET       248   /* r3, r4 after the call */
#define P_SCRATCH   256   /* 3 x u32 in: r0 r11 r12 */
#define P_CANARY    268   /* 2 x u32 in */
#define P_CANARY1   276   /* 2 x u32 out */
#define P_FILLF     288   /* 18 x u64: f14..f31 */
#define P_AFTERF    432
#define P_FPSCR0    576   /* mffs before/after (FPSCR in the low word) */
#define P_FPSCR1    584
#define P_FILLV     592   /* 12 x 16 bytes: v20..v31 */
#define P_AFTERV    784
#define P_VSCR0     976   /* mfvscr before/after */
#define P_VSCR1     992

/* the trampoline's frame */
#define FRAME       480
#define F_PARAM     8     /* 8 parameter words */
#define F_CANARY    40    /* 2 words */
#define F_GPR       48    /* r14-r31 of the caller */
#define F_FPR       120   /* f14-f31 */
#define F_VR        272   /* v20-v31 */
#define F_CR        464

	.text
	.globl	qhasm_abicheck_ppc32_call
	.hidden	qhasm_abicheck_ppc32_call
	.type	qhasm_abicheck_ppc32_call, @function
	.p2align 4
qhasm_abicheck_ppc32_call:
	mflr %r0
	stwu %r1, -FRAME(%r1)
	stw %r0, FRAME+4(%r1)
	mfcr %r0
	stw %r0, F_CR(%r1)
	stmw %r14, F_GPR(%r1)
	stfd %f14, F_FPR+0(%r1)
	stfd %f15, F_FPR+8(%r1)
	stfd %f16, F_FPR+16(%r1)
	stfd %f17, F_FPR+24(%r1)
	stfd %f18, F_FPR+32(%r1)
	stfd %f19, F_FPR+40(%r1)
	stfd %f20, F_FPR+48(%r1)
	stfd %f21, F_FPR+56(%r1)
	stfd %f22, F_FPR+64(%r1)
	stfd %f23, F_FPR+72(%r1)
	stfd %f24, F_FPR+80(%r1)
	stfd %f25, F_FPR+88(%r1)
	stfd %f26, F_FPR+96(%r1)
	stfd %f27, F_FPR+104(%r1)
	stfd %f28, F_FPR+112(%r1)
	stfd %f29, F_FPR+120(%r1)
	stfd %f30, F_FPR+128(%r1)
	stfd %f31, F_FPR+136(%r1)
	lwz %r0, P_FLAGS(%r3)
	andi. %r0, %r0, 1
	beq 1f
	li %r0, F_VR+0
	stvx %v20, %r1, %r0
	li %r0, F_VR+16
	stvx %v21, %r1, %r0
	li %r0, F_VR+32
	stvx %v22, %r1, %r0
	li %r0, F_VR+48
	stvx %v23, %r1, %r0
	li %r0, F_VR+64
	stvx %v24, %r1, %r0
	li %r0, F_VR+80
	stvx %v25, %r1, %r0
	li %r0, F_VR+96
	stvx %v26, %r1, %r0
	li %r0, F_VR+112
	stvx %v27, %r1, %r0
	li %r0, F_VR+128
	stvx %v28, %r1, %r0
	li %r0, F_VR+144
	stvx %v29, %r1, %r0
	li %r0, F_VR+160
	stvx %v30, %r1, %r0
	li %r0, F_VR+176
	stvx %v31, %r1, %r0
	mfvscr %v0
	li %r0, P_VSCR0
	stvx %v0, %r3, %r0
1:	/* the context pointer goes to the static */
	bcl	20, 31, 2f
2:	mflr	%r11
	addis	%r11, %r11, (abictx-2b)@ha
	stw	%r3, (abictx-2b)@l(%r11)
	lwz %r0, P_STACK+0(%r3)
	stw %r0, F_PARAM+0(%r1)
	lwz %r0, P_STACK+4(%r3)
	stw %r0, F_PARAM+4(%r1)
	lwz %r0, P_STACK+8(%r3)
	stw %r0, F_PARAM+8(%r1)
	lwz %r0, P_STACK+12(%r3)
	stw %r0, F_PARAM+12(%r1)
	lwz %r0, P_STACK+16(%r3)
	stw %r0, F_PARAM+16(%r1)
	lwz %r0, P_STACK+20(%r3)
	stw %r0, F_PARAM+20(%r1)
	lwz %r0, P_STACK+24(%r3)
	stw %r0, F_PARAM+24(%r1)
	lwz %r0, P_STACK+28(%r3)
	stw %r0, F_PARAM+28(%r1)
	lwz %r0, P_CANARY(%r3)
	stw %r0, F_CANARY(%r1)
	lwz %r0, P_CANARY+4(%r3)
	stw %r0, F_CANARY+4(%r1)
	mffs %f0
	stfd %f0, P_FPSCR0(%r3)
	stw %r2, P_R2_0(%r3)
	stw %r13, P_R13_0(%r3)
	lfd %f14, P_FILLF+0(%r3)
	lfd %f15, P_FILLF+8(%r3)
	lfd %f16, P_FILLF+16(%r3)
	lfd %f17, P_FILLF+24(%r3)
	lfd %f18, P_FILLF+32(%r3)
	lfd %f19, P_FILLF+40(%r3)
	lfd %f20, P_FILLF+48(%r3)
	lfd %f21, P_FILLF+56(%r3)
	lfd %f22, P_FILLF+64(%r3)
	lfd %f23, P_FILLF+72(%r3)
	lfd %f24, P_FILLF+80(%r3)
	lfd %f25, P_FILLF+88(%r3)
	lfd %f26, P_FILLF+96(%r3)
	lfd %f27, P_FILLF+104(%r3)
	lfd %f28, P_FILLF+112(%r3)
	lfd %f29, P_FILLF+120(%r3)
	lfd %f30, P_FILLF+128(%r3)
	lfd %f31, P_FILLF+136(%r3)
	lwz %r0, P_FLAGS(%r3)
	andi. %r0, %r0, 1
	beq 3f
	li %r0, P_FILLV+0
	lvx %v20, %r3, %r0
	li %r0, P_FILLV+16
	lvx %v21, %r3, %r0
	li %r0, P_FILLV+32
	lvx %v22, %r3, %r0
	li %r0, P_FILLV+48
	lvx %v23, %r3, %r0
	li %r0, P_FILLV+64
	lvx %v24, %r3, %r0
	li %r0, P_FILLV+80
	lvx %v25, %r3, %r0
	li %r0, P_FILLV+96
	lvx %v26, %r3, %r0
	li %r0, P_FILLV+112
	lvx %v27, %r3, %r0
	li %r0, P_FILLV+128
	lvx %v28, %r3, %r0
	li %r0, P_FILLV+144
	lvx %v29, %r3, %r0
	li %r0, P_FILLV+160
	lvx %v30, %r3, %r0
	li %r0, P_FILLV+176
	lvx %v31, %r3, %r0
3:	lwz %r0, P_CR0(%r3)
	mtcrf 0x38, %r0
	lwz %r0, P_FN(%r3)
	mtctr %r0
	stw %r1, P_R1_0(%r3)
	lmw %r14, P_FILL(%r3)
	lwz %r0, P_SCRATCH(%r3)
	lwz %r11, P_SCRATCH+4(%r3)
	lwz %r12, P_SCRATCH+8(%r3)
	lwz %r4, P_GPR+4(%r3)
	lwz %r5, P_GPR+8(%r3)
	lwz %r6, P_GPR+12(%r3)
	lwz %r7, P_GPR+16(%r3)
	lwz %r8, P_GPR+20(%r3)
	lwz %r9, P_GPR+24(%r3)
	lwz %r10, P_GPR+28(%r3)
	lwz %r3, P_GPR(%r3)
	bctrl
	/* r1 is not trusted yet; the context comes from the static */
	bcl	20, 31, 4f
4:	mflr	%r11
	addis	%r11, %r11, (abictx-4b)@ha
	lwz	%r11, (abictx-4b)@l(%r11)
	stw %r3, P_RET(%r11)
	stw %r4, P_RET+4(%r11)
	stw %r1, P_R1_1(%r11)
	stw %r2, P_R2_1(%r11)
	stw %r13, P_R13_1(%r11)
	stmw %r14, P_AFTER(%r11)
	mfcr %r0
	stw %r0, P_CR1(%r11)
	stfd %f14, P_AFTERF+0(%r11)
	stfd %f15, P_AFTERF+8(%r11)
	stfd %f16, P_AFTERF+16(%r11)
	stfd %f17, P_AFTERF+24(%r11)
	stfd %f18, P_AFTERF+32(%r11)
	stfd %f19, P_AFTERF+40(%r11)
	stfd %f20, P_AFTERF+48(%r11)
	stfd %f21, P_AFTERF+56(%r11)
	stfd %f22, P_AFTERF+64(%r11)
	stfd %f23, P_AFTERF+72(%r11)
	stfd %f24, P_AFTERF+80(%r11)
	stfd %f25, P_AFTERF+88(%r11)
	stfd %f26, P_AFTERF+96(%r11)
	stfd %f27, P_AFTERF+104(%r11)
	stfd %f28, P_AFTERF+112(%r11)
	stfd %f29, P_AFTERF+120(%r11)
	stfd %f30, P_AFTERF+128(%r11)
	stfd %f31, P_AFTERF+136(%r11)
	lwz %r1, P_R1_0(%r11)
	lwz %r2, P_R2_0(%r11)
	lwz %r13, P_R13_0(%r11)
	mffs %f0
	stfd %f0, P_FPSCR1(%r11)
	lfd %f0, P_FPSCR0(%r11)
	mtfsf 0xff, %f0
	lwz %r0, P_FLAGS(%r11)
	andi. %r0, %r0, 1
	beq 5f
	li %r0, P_AFTERV+0
	stvx %v20, %r11, %r0
	li %r0, P_AFTERV+16
	stvx %v21, %r11, %r0
	li %r0, P_AFTERV+32
	stvx %v22, %r11, %r0
	li %r0, P_AFTERV+48
	stvx %v23, %r11, %r0
	li %r0, P_AFTERV+64
	stvx %v24, %r11, %r0
	li %r0, P_AFTERV+80
	stvx %v25, %r11, %r0
	li %r0, P_AFTERV+96
	stvx %v26, %r11, %r0
	li %r0, P_AFTERV+112
	stvx %v27, %r11, %r0
	li %r0, P_AFTERV+128
	stvx %v28, %r11, %r0
	li %r0, P_AFTERV+144
	stvx %v29, %r11, %r0
	li %r0, P_AFTERV+160
	stvx %v30, %r11, %r0
	li %r0, P_AFTERV+176
	stvx %v31, %r11, %r0
	mfvscr %v0
	li %r0, P_VSCR1
	stvx %v0, %r11, %r0
	li %r0, P_VSCR0
	lvx %v0, %r11, %r0
	mtvscr %v0
	li %r0, F_VR+0
	lvx %v20, %r1, %r0
	li %r0, F_VR+16
	lvx %v21, %r1, %r0
	li %r0, F_VR+32
	lvx %v22, %r1, %r0
	li %r0, F_VR+48
	lvx %v23, %r1, %r0
	li %r0, F_VR+64
	lvx %v24, %r1, %r0
	li %r0, F_VR+80
	lvx %v25, %r1, %r0
	li %r0, F_VR+96
	lvx %v26, %r1, %r0
	li %r0, F_VR+112
	lvx %v27, %r1, %r0
	li %r0, F_VR+128
	lvx %v28, %r1, %r0
	li %r0, F_VR+144
	lvx %v29, %r1, %r0
	li %r0, F_VR+160
	lvx %v30, %r1, %r0
	li %r0, F_VR+176
	lvx %v31, %r1, %r0
5:	lwz %r0, F_CANARY(%r1)
	stw %r0, P_CANARY1(%r11)
	lwz %r0, F_CANARY+4(%r1)
	stw %r0, P_CANARY1+4(%r11)
	lmw %r14, F_GPR(%r1)
	lfd %f14, F_FPR+0(%r1)
	lfd %f15, F_FPR+8(%r1)
	lfd %f16, F_FPR+16(%r1)
	lfd %f17, F_FPR+24(%r1)
	lfd %f18, F_FPR+32(%r1)
	lfd %f19, F_FPR+40(%r1)
	lfd %f20, F_FPR+48(%r1)
	lfd %f21, F_FPR+56(%r1)
	lfd %f22, F_FPR+64(%r1)
	lfd %f23, F_FPR+72(%r1)
	lfd %f24, F_FPR+80(%r1)
	lfd %f25, F_FPR+88(%r1)
	lfd %f26, F_FPR+96(%r1)
	lfd %f27, F_FPR+104(%r1)
	lfd %f28, F_FPR+112(%r1)
	lfd %f29, F_FPR+120(%r1)
	lfd %f30, F_FPR+128(%r1)
	lfd %f31, F_FPR+136(%r1)
	lwz %r0, F_CR(%r1)
	mtcrf 0x38, %r0
	lwz %r0, FRAME+4(%r1)
	mtlr %r0
	addi %r1, %r1, FRAME
	blr
	.size qhasm_abicheck_ppc32_call, .-qhasm_abicheck_ppc32_call
	
	.local abictx
	.comm abictx, 4, 4

#endif

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",@progbits
#endif
