/* abicheck_ppc64.S: the 64-bit PowerPC (ELFv1, big-endian Linux) trampoline
 * of the ABI checker (csrc/abicheck.c, csrc/abicheck.h).
 *
 *   void qhasm_abicheck_ppc64_call(qhasm_abicheck_ppc64_ctx *ctx);
 *
 * Like abicheck_ppc32.S: saves the caller's r14-r31, f14-f31, CR (and
 * v20-v31 when ctx says AltiVec is present), puts two canary doublewords
 * right above the parameter save area of its frame, records r13, FPSCR
 * (and VSCR), fills r14-r31, f14-f31, cr2-cr4, v20-v31 and the scratch
 * registers r0, r12 with the values in ctx, and calls ctx->fn through its
 * function descriptor as C does (entry address to CTR, r2 = the
 * descriptor's TOC, r11 = its environment word).  Records r14-r31,
 * f14-f31, CR, v20-v31, r1, r2 (which must again be the descriptor's TOC:
 * callers in the same module do not reload it), r13, FPSCR, VSCR, the
 * canaries and r3; restores r1, its own r2 and the rest, and returns.  Not
 * reentrant: the context pointer is kept in a static (reached
 * PC-relatively).
 *
 * The offsets below must match qhasm_abicheck_ppc64_ctx in abicheck.c. */
#if defined(__powerpc64__) && defined(__ELF__) && (!defined(_CALL_ELF) || _CALL_ELF == 1)

#define Q_FN        0     /* function descriptor of the function to call */
#define Q_FLAGS     8     /* in: bit 0 = AltiVec present */
#define Q_GPR       16    /* 8 x u64: r3..r10 */
#define Q_FILL      80    /* 18 x u64: r14..r31 before the call */
#define Q_AFTER     224   /* 18 x u64: the same after the call */
#define Q_CR0       368   /* CR loaded before the call (fields cr2-cr4) */
#define Q_CR1       376   /* CR after the call */
#define Q_R1_0      384
#define Q_R1_1      392
#define Q_TOC       400   /* r2 at the call (the descriptor's TOC) */
#define Q_R2_1      408   /* r2 after the call */
#define Q_R13_0     416
#define Q_R13_1     424
#define Q_RET       432   /* r3 after the call */
#define Q_SCRATCH   440   /* 2 x u64 in: r0 r12 */
#define Q_FPSCR0    456
#define Q_FPSCR1    464
#define Q_CANARY    472   /* 2 x u64 in */
#define Q_CANARY1   488   /* 2 x u64 out */
#define Q_FILLF     512   /* 18 x u64: f14..f31 */
#define Q_AFTERF    656
#define Q_FILLV     800   /* 12 x 16 bytes: v20..v31 */
#define Q_AFTERV    992
#define Q_VSCR0     1184
#define Q_VSCR1     1200

/* the trampoline's frame: the ELFv1 header (back chain, CR, LR, 2 reserved,
 * TOC save) and the 8-doubleword parameter save area, then ours */
#define FRAME       624
#define F_CANARY    112   /* 2 doublewords */
#define F_GPR       128   /* r14-r31 of the caller */
#define F_FPR       272   /* f14-f31 */
#define F_VR        416   /* v20-v31 */
#define F_CR        608
#define F_TOC       616   /* our own r2 */

	.section ".opd", "aw"
	.p2align 3
	.globl	qhasm_abicheck_ppc64_call
	.hidden	qhasm_abicheck_ppc64_call
	.type	qhasm_abicheck_ppc64_call, @function
qhasm_abicheck_ppc64_call:
	.quad	.L.qhasm_abicheck_ppc64_call, .TOC.@tocbase, 0
	.text
	.p2align 4
.L.qhasm_abicheck_ppc64_call:
	mflr %r0
	std %r0, 16(%r1)
	stdu %r1, -FRAME(%r1)
	mfcr %r0
	std %r0, F_CR(%r1)
	std %r2, F_TOC(%r1)
	std %r14, F_GPR+0(%r1)
	std %r15, F_GPR+8(%r1)
	std %r16, F_GPR+16(%r1)
	std %r17, F_GPR+24(%r1)
	std %r18, F_GPR+32(%r1)
	std %r19, F_GPR+40(%r1)
	std %r20, F_GPR+48(%r1)
	std %r21, F_GPR+56(%r1)
	std %r22, F_GPR+64(%r1)
	std %r23, F_GPR+72(%r1)
	std %r24, F_GPR+80(%r1)
	std %r25, F_GPR+88(%r1)
	std %r26, F_GPR+96(%r1)
	std %r27, F_GPR+104(%r1)
	std %r28, F_GPR+112(%r1)
	std %r29, F_GPR+120(%r1)
	std %r30, F_GPR+128(%r1)
	std %r31, F_GPR+136(%r1)
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
	ld %r0, Q_FLAGS(%r3)
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
	li %r0, Q_VSCR0
	stvx %v0, %r3, %r0
1:	/* the context pointer goes to the static */
	bcl	20, 31, 2f
2:	mflr	%r11
	addis	%r11, %r11, (abictx-2b)@ha
	addi	%r11, %r11, (abictx-2b)@l
	std	%r3, 0(%r11)
	ld %r0, Q_CANARY(%r3)
	std %r0, F_CANARY(%r1)
	ld %r0, Q_CANARY+8(%r3)
	std %r0, F_CANARY+8(%r1)
	mffs %f0
	stfd %f0, Q_FPSCR0(%r3)
	std %r13, Q_R13_0(%r3)
	lfd %f14, Q_FILLF+0(%r3)
	lfd %f15, Q_FILLF+8(%r3)
	lfd %f16, Q_FILLF+16(%r3)
	lfd %f17, Q_FILLF+24(%r3)
	lfd %f18, Q_FILLF+32(%r3)
	lfd %f19, Q_FILLF+40(%r3)
	lfd %f20, Q_FILLF+48(%r3)
	lfd %f21, Q_FILLF+56(%r3)
	lfd %f22, Q_FILLF+64(%r3)
	lfd %f23, Q_FILLF+72(%r3)
	lfd %f24, Q_FILLF+80(%r3)
	lfd %f25, Q_FILLF+88(%r3)
	lfd %f26, Q_FILLF+96(%r3)
	lfd %f27, Q_FILLF+104(%r3)
	lfd %f28, Q_FILLF+112(%r3)
	lfd %f29, Q_FILLF+120(%r3)
	lfd %f30, Q_FILLF+128(%r3)
	lfd %f31, Q_FILLF+136(%r3)
	ld %r0, Q_FLAGS(%r3)
	andi. %r0, %r0, 1
	beq 3f
	li %r0, Q_FILLV+0
	lvx %v20, %r3, %r0
	li %r0, Q_FILLV+16
	lvx %v21, %r3, %r0
	li %r0, Q_FILLV+32
	lvx %v22, %r3, %r0
	li %r0, Q_FILLV+48
	lvx %v23, %r3, %r0
	li %r0, Q_FILLV+64
	lvx %v24, %r3, %r0
	li %r0, Q_FILLV+80
	lvx %v25, %r3, %r0
	li %r0, Q_FILLV+96
	lvx %v26, %r3, %r0
	li %r0, Q_FILLV+112
	lvx %v27, %r3, %r0
	li %r0, Q_FILLV+128
	lvx %v28, %r3, %r0
	li %r0, Q_FILLV+144
	lvx %v29, %r3, %r0
	li %r0, Q_FILLV+160
	lvx %v30, %r3, %r0
	li %r0, Q_FILLV+176
	lvx %v31, %r3, %r0
3:	ld %r0, Q_CR0(%r3)
	mtcrf 0x38, %r0
	ld %r12, Q_FN(%r3)          /* the function descriptor */
	ld %r0, 0(%r12)
	mtctr %r0
	ld %r2, 8(%r12)
	std %r2, Q_TOC(%r3)
	ld %r11, 16(%r12)
	std %r1, Q_R1_0(%r3)
	ld %r14, Q_FILL+0(%r3)
	ld %r15, Q_FILL+8(%r3)
	ld %r16, Q_FILL+16(%r3)
	ld %r17, Q_FILL+24(%r3)
	ld %r18, Q_FILL+32(%r3)
	ld %r19, Q_FILL+40(%r3)
	ld %r20, Q_FILL+48(%r3)
	ld %r21, Q_FILL+56(%r3)
	ld %r22, Q_FILL+64(%r3)
	ld %r23, Q_FILL+72(%r3)
	ld %r24, Q_FILL+80(%r3)
	ld %r25, Q_FILL+88(%r3)
	ld %r26, Q_FILL+96(%r3)
	ld %r27, Q_FILL+104(%r3)
	ld %r28, Q_FILL+112(%r3)
	ld %r29, Q_FILL+120(%r3)
	ld %r30, Q_FILL+128(%r3)
	ld %r31, Q_FILL+136(%r3)
	ld %r0, Q_SCRATCH(%r3)
	ld %r12, Q_SCRATCH+8(%r3)
	ld %r4, Q_GPR+8(%r3)
	ld %r5, Q_GPR+16(%r3)
	ld %r6, Q_GPR+24(%r3)
	ld %r7, Q_GPR+32(%r3)
	ld %r8, Q_GPR+40(%r3)
	ld %r9, Q_GPR+48(%r3)
	ld %r10, Q_GPR+56(%r3)
	ld %r3, Q_GPR(%r3)
	bctrl
	/* r1 and r2 are not trusted yet; the context comes from the static */
	bcl	20, 31, 4f
4:	mflr	%r11
	addis	%r11, %r11, (abictx-4b)@ha
	addi	%r11, %r11, (abictx-4b)@l
	ld	%r11, 0(%r11)
	std %r3, Q_RET(%r11)
	std %r1, Q_R1_1(%r11)
	std %r2, Q_R2_1(%r11)
	std %r13, Q_R13_1(%r11)
	std %r14, Q_AFTER+0(%r11)
	std %r15, Q_AFTER+8(%r11)
	std %r16, Q_AFTER+16(%r11)
	std %r17, Q_AFTER+24(%r11)
	std %r18, Q_AFTER+32(%r11)
	std %r19, Q_AFTER+40(%r11)
	std %r20, Q_AFTER+48(%r11)
	std %r21, Q_AFTER+56(%r11)
	std %r22, Q_AFTER+64(%r11)
	std %r23, Q_AFTER+72(%r11)
	std %r24, Q_AFTER+80(%r11)
	std %r25, Q_AFTER+88(%r11)
	std %r26, Q_AFTER+96(%r11)
	std %r27, Q_AFTER+104(%r11)
	std %r28, Q_AFTER+112(%r11)
	std %r29, Q_AFTER+120(%r11)
	std %r30, Q_AFTER+128(%r11)
	std %r31, Q_AFTER+136(%r11)
	mfcr %r0
	std %r0, Q_CR1(%r11)
	stfd %f14, Q_AFTERF+0(%r11)
	stfd %f15, Q_AFTERF+8(%r11)
	stfd %f16, Q_AFTERF+16(%r11)
	stfd %f17, Q_AFTERF+24(%r11)
	stfd %f18, Q_AFTERF+32(%r11)
	stfd %f19, Q_AFTERF+40(%r11)
	stfd %f20, Q_AFTERF+48(%r11)
	stfd %f21, Q_AFTERF+56(%r11)
	stfd %f22, Q_AFTERF+64(%r11)
	stfd %f23, Q_AFTERF+72(%r11)
	stfd %f24, Q_AFTERF+80(%r11)
	stfd %f25, Q_AFTERF+88(%r11)
	stfd %f26, Q_AFTERF+96(%r11)
	stfd %f27, Q_AFTERF+104(%r11)
	stfd %f28, Q_AFTERF+112(%r11)
	stfd %f29, Q_AFTERF+120(%r11)
	stfd %f30, Q_AFTERF+128(%r11)
	stfd %f31, Q_AFTERF+136(%r11)
	ld %r1, Q_R1_0(%r11)
	ld %r2, F_TOC(%r1)
	ld %r13, Q_R13_0(%r11)
	mffs %f0
	stfd %f0, Q_FPSCR1(%r11)
	lfd %f0, Q_FPSCR0(%r11)
	mtfsf 0xff, %f0
	ld %r0, Q_FLAGS(%r11)
	andi. %r0, %r0, 1
	beq 5f
	li %r0, Q_AFTERV+0
	stvx %v20, %r11, %r0
	li %r0, Q_AFTERV+16
	stvx %v21, %r11, %r0
	li %r0, Q_AFTERV+32
	stvx %v22, %r11, %r0
	li %r0, Q_AFTERV+48
	stvx %v23, %r11, %r0
	li %r0, Q_AFTERV+64
	stvx %v24, %r11, %r0
	li %r0, Q_AFTERV+80
	stvx %v25, %r11, %r0
	li %r0, Q_AFTERV+96
	stvx %v26, %r11, %r0
	li %r0, Q_AFTERV+112
	stvx %v27, %r11, %r0
	li %r0, Q_AFTERV+128
	stvx %v28, %r11, %r0
	li %r0, Q_AFTERV+144
	stvx %v29, %r11, %r0
	li %r0, Q_AFTERV+160
	stvx %v30, %r11, %r0
	li %r0, Q_AFTERV+176
	stvx %v31, %r11, %r0
	mfvscr %v0
	li %r0, Q_VSCR1
	stvx %v0, %r11, %r0
	li %r0, Q_VSCR0
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
5:	ld %r0, F_CANARY(%r1)
	std %r0, Q_CANARY1(%r11)
	ld %r0, F_CANARY+8(%r1)
	std %r0, Q_CANARY1+8(%r11)
	ld %r14, F_GPR+0(%r1)
	ld %r15, F_GPR+8(%r1)
	ld %r16, F_GPR+16(%r1)
	ld %r17, F_GPR+24(%r1)
	ld %r18, F_GPR+32(%r1)
	ld %r19, F_GPR+40(%r1)
	ld %r20, F_GPR+48(%r1)
	ld %r21, F_GPR+56(%r1)
	ld %r22, F_GPR+64(%r1)
	ld %r23, F_GPR+72(%r1)
	ld %r24, F_GPR+80(%r1)
	ld %r25, F_GPR+88(%r1)
	ld %r26, F_GPR+96(%r1)
	ld %r27, F_GPR+104(%r1)
	ld %r28, F_GPR+112(%r1)
	ld %r29, F_GPR+120(%r1)
	ld %r30, F_GPR+128(%r1)
	ld %r31, F_GPR+136(%r1)
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
	ld %r0, F_CR(%r1)
	mtcrf 0x38, %r0
	addi %r1, %r1, FRAME
	ld %r0, 16(%r1)
	mtlr %r0
	blr
	.size qhasm_abicheck_ppc64_call, .-.L.qhasm_abicheck_ppc64_call
	
	.local abictx
	.comm abictx, 8, 8

#endif

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",@progbits
#endif
