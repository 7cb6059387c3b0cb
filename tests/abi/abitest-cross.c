/* tests/abi/abitest-cross.c: self-test of the ABI checker (csrc/abicheck.c)
 * on the cross targets x86, ppc32, ppc64 and sparc64: the correct kernels
 * of tests/abi/broken_<target>.S must pass (with the right result, which
 * also proves the argument layout: 64-bit arguments in two words on the
 * 32-bit targets, the stack argument on ppc32) and each deliberately broken
 * kernel must be reported with the right violation.  Run by
 * tests/sh/abicheck-cross.sh (natively for x86, under qemu for the
 * others).  Prints one line per kernel; exit 0 if every verdict is the
 * expected one. */
#include <stdio.h>
#include <string.h>
#include "abicheck.h"

#if defined(__powerpc__)
#include <sys/auxv.h>
static int has_altivec(void) { return (getauxval(AT_HWCAP) & 0x10000000ul) != 0; }
#else
static int has_altivec(void) { return 0; }
#endif

typedef void voidfn(void);
#define NO 0           /* a kernel that must pass */
#define AV 1           /* needs AltiVec */
#define CC QHASM_ABICHECK_COMPILED

typedef struct {
    const char *name;
    voidfn *fn;
    const char *sig;   /* "wwqwqw": the Horner kernels; "ww": a + b */
    unsigned flags;
    const char *want;  /* NULL: must pass */
    int need;
} kernel;

#if defined(__i386__)
extern voidfn abi_good, abi_good_fpu, abi_clobber_ebx, abi_clobber_esi_edi, abi_clobber_ebp, abi_bad_esp,
    abi_stack_write, abi_set_df, abi_x87_cw, abi_mmx_no_emms, abi_x87_push, abi_mxcsr;
static const kernel k[] = {
    { "abi_good", abi_good, "wwqwqw", 0, NULL, NO },
    { "abi_good_fpu", abi_good_fpu, "ww", 0, NULL, NO },
    { "abi_clobber_ebx", abi_clobber_ebx, "ww", 0, "callee-saved ebx not preserved", NO },
    { "abi_clobber_esi_edi", abi_clobber_esi_edi, "ww", 0, "callee-saved edi not preserved", NO },
    { "abi_clobber_ebp", abi_clobber_ebp, "ww", 0, "callee-saved ebp not preserved", NO },
    { "abi_bad_esp", abi_bad_esp, "ww", 0, "esp not restored (off by -4)", NO },
    { "abi_stack_write", abi_stack_write, "ww", 0, "wrote to the caller's stack above the arguments", NO },
    { "abi_set_df", abi_set_df, "ww", 0, "direction flag set", NO },
    { "abi_x87_cw", abi_x87_cw, "ww", 0, "x87 control word changed", NO },
    { "abi_mmx_no_emms", abi_mmx_no_emms, "ww", 0, "x87 register stack not empty", NO },
    { "abi_x87_push", abi_x87_push, "ww", 0, "x87 register stack not empty", NO },
    { "abi_mxcsr", abi_mxcsr, "ww", 0, "MXCSR changed", NO },
};
#elif defined(__powerpc__) && !defined(__powerpc64__)
extern voidfn abi_good, abi_good_altivec, abi_clobber_r14, abi_clobber_r31, abi_clobber_f14, abi_clobber_cr3,
    abi_clobber_v20, abi_vscr_nj, abi_bad_r1, abi_clobber_r2, abi_frame_write, abi_fpscr;
static const kernel k[] = {
    { "abi_good", abi_good, "wwqwqw", 0, NULL, NO },
    { "abi_good_altivec", abi_good_altivec, "ww", 0, NULL, AV },
    { "abi_clobber_r14", abi_clobber_r14, "ww", 0, "callee-saved r14 not preserved", NO },
    { "abi_clobber_r31", abi_clobber_r31, "ww", 0, "callee-saved r31 not preserved", NO },
    { "abi_clobber_f14", abi_clobber_f14, "ww", 0, "callee-saved f14 not preserved", NO },
    { "abi_clobber_cr3", abi_clobber_cr3, "ww", 0, "callee-saved CR field cr3 not preserved", NO },
    { "abi_clobber_v20", abi_clobber_v20, "ww", 0, "callee-saved v20 not preserved", AV },
    { "abi_vscr_nj", abi_vscr_nj, "ww", 0, "VSCR[NJ] changed", AV },
    { "abi_bad_r1", abi_bad_r1, "ww", 0, "r1 (stack pointer) not restored (off by -16)", NO },
    { "abi_clobber_r2", abi_clobber_r2, "ww", 0, "r2 (thread pointer, reserved) changed", NO },
    { "abi_frame_write", abi_frame_write, "ww", 0, "wrote to the caller's frame above the parameter words", NO },
    { "abi_fpscr", abi_fpscr, "ww", 0, "FPSCR control bits changed", NO },
};
#elif defined(__powerpc64__)
extern voidfn abi_good, abi_good_altivec, abi_clobber_r14, abi_clobber_f31, abi_clobber_cr4, abi_clobber_v31,
    abi_bad_r1, abi_clobber_r2, abi_clobber_r13, abi_frame_write, abi_fpscr;
static const kernel k[] = {
    { "abi_good", abi_good, "wwqwqw", 0, NULL, NO },
    { "abi_good_altivec", abi_good_altivec, "ww", 0, NULL, AV },
    { "abi_clobber_r14", abi_clobber_r14, "ww", 0, "callee-saved r14 not preserved", NO },
    { "abi_clobber_f31", abi_clobber_f31, "ww", 0, "callee-saved f31 not preserved", NO },
    { "abi_clobber_cr4", abi_clobber_cr4, "ww", 0, "callee-saved CR field cr4 not preserved", NO },
    { "abi_clobber_v31", abi_clobber_v31, "ww", 0, "callee-saved v31 not preserved", AV },
    { "abi_bad_r1", abi_bad_r1, "ww", 0, "r1 (stack pointer) not restored (off by -16)", NO },
    { "abi_clobber_r2", abi_clobber_r2, "ww", 0, "r2 (TOC) not restored", NO },
    { "abi_clobber_r13", abi_clobber_r13, "ww", 0, "r13 (thread pointer, reserved) changed", NO },
    { "abi_frame_write", abi_frame_write, "ww", 0, "wrote to the caller's frame above the parameter save area", NO },
    { "abi_fpscr", abi_fpscr, "ww", 0, "FPSCR control bits changed", NO },
};
#elif defined(__sparc__) && defined(__arch64__)
extern voidfn abi_good, abi_good_leaf, abi_clobber_l0, abi_clobber_i3, abi_clobber_fp, abi_bad_sp, abi_clobber_g2,
    abi_clobber_g6, abi_clobber_g7, abi_frame_write, abi_fsr;
static const kernel k[] = {
    { "abi_good", abi_good, "wwqwqw", 0, NULL, NO },
    { "abi_good_leaf", abi_good_leaf, "wwqwqw", 0, NULL, NO },
    { "abi_clobber_l0", abi_clobber_l0, "ww", 0, "caller's %l0 not preserved", NO },
    { "abi_clobber_i3", abi_clobber_i3, "ww", 0, "caller's %i3 not preserved", NO },
    { "abi_clobber_fp", abi_clobber_fp, "ww", 0, "caller's %i6 (%fp) not preserved", NO },
    { "abi_bad_sp", abi_bad_sp, "ww", 0, "%sp not restored (off by -16)", NO },
    { "abi_clobber_g2", abi_clobber_g2, "ww", 0, "%g2 (application register) changed", NO },
    /* compiled C may use %g2 (GCC's -mapp-regs, the Linux default) */
    { "abi_clobber_g2 (C)", abi_clobber_g2, "ww", CC, NULL, NO },
    { "abi_clobber_g6", abi_clobber_g6, "ww", 0, "%g6 (system register) changed", NO },
    { "abi_clobber_g7", abi_clobber_g7, "ww", 0, "%g7 (system register, thread pointer) changed", NO },
    { "abi_clobber_g7 (C)", abi_clobber_g7, "ww", CC, "%g7 (system register, thread pointer) changed", NO },
    { "abi_frame_write", abi_frame_write, "ww", 0, "wrote to the caller's frame above the argument slots", NO },
    { "abi_fsr", abi_fsr, "ww", 0, "%fsr control fields changed", NO },
};
#else
#error "abitest-cross.c: not a cross target (x86, ppc32, ppc64, sparc64)"
#endif

/* the expected result: Horner (r = 2 r + word) over the argument words in
 * ABI order for "wwqwqw" (a 64-bit value is high word, low word on 32-bit
 * targets), a + b for "ww"; in the width of a register */
static uint64_t expect(const char *sig, const uint64_t *a)
{
    uint64_t r = 0, mask = sizeof(void *) == 4 ? 0xffffffffull : ~0ull;
    size_t i;
    if (!strcmp(sig, "ww")) return (a[0] + a[1]) & mask;
    for (i = 0; sig[i]; i++) {
        if (sig[i] == 'q' && sizeof(void *) == 4) r = 2 * r + (a[i] >> 32);
        r = 2 * r + (a[i] & mask);
    }
    return r & mask;
}

int main(void)
{
    const uint64_t args[6] = { 1000, 200, 0x0000003000000004ull, 5, 0x0000006000000007ull, 8 };
    int bad = 0, av = has_altivec();
    size_t i;
    if (!qhasm_abicheck_abi()) { printf("abitest-cross: %s\n", qhasm_abicheck_coverage()); return 1; }
    printf("abitest-cross: %s: %s\n", qhasm_abicheck_abi(), qhasm_abicheck_coverage());
    for (i = 0; i < sizeof k / sizeof k[0]; i++) {
        char why[1024];
        uint64_t ret = 0, want = expect(k[i].sig, args);
        int r = 0, rep;
        if (k[i].need == AV && !av) { printf("%-22s skipped (no AltiVec in AT_HWCAP)\n", k[i].name); continue; }
        for (rep = 0; rep < 3; rep++) {      /* fresh random register values each time */
            r = qhasm_abicheck_call_sig(k[i].fn, k[i].sig, k[i].flags, args, &ret, why, sizeof why);
            if (sizeof(void *) == 4) ret &= 0xffffffffull;
            if (k[i].want == NULL) {
                if (r != 0 || ret != want) {
                    printf("%-22s FAIL: correct kernel rejected (%d) or wrong result %llu (want %llu): %s\n", k[i].name,
                           r, (unsigned long long)ret, (unsigned long long)want, why);
                    bad = 1;
                    break;
                }
            } else if (r != -1 || !strstr(why, k[i].want)) {
                printf("%-22s FAIL: expected '%s', checker said %d '%s'\n", k[i].name, k[i].want, r, why);
                bad = 1;
                break;
            } else if (ret != want) {
                printf("%-22s FAIL: return value %llu, expected %llu\n", k[i].name, (unsigned long long)ret,
                       (unsigned long long)want);
                bad = 1;
                break;
            }
        }
        if (rep == 3) printf("%-22s ok: %s\n", k[i].name, k[i].want ? why : "passes");
    }
    printf("abitest-cross: %lu calls through the trampoline\n", qhasm_abicheck_count());
    return bad;
}
