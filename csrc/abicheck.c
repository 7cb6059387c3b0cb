/* abicheck.c: the calling-convention checker (see abicheck.h).  The
 * architecture-independent part (random values, counting, messages) and
 * one section per architecture with a trampoline. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "abicheck.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define ABI_ON_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef ABI_ON_VALGRIND
#define ABI_ON_VALGRIND() 0
#endif

static unsigned long ncalls;
static uint64_t state;

unsigned long qhasm_abicheck_count(void) { return ncalls; }

/* random values for the registers: splitmix64, seeded from the clock once;
 * never 0 and never equal to the previous value, so a callee that zeroes
 * or copies a register is caught whatever it does */
static uint64_t rnd64(void)
{
    uint64_t z;
    if (!state) state = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)&state;
    do {
        z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
    } while (z == 0);
    return z;
}

/* append one violation to why */
static void add(char *why, size_t whylen, const char *fmt, ...)
{
    size_t n;
    va_list ap;
    if (!why || !whylen) return;
    n = strlen(why);
    if (n && n + 2 < whylen) { strcpy(why + n, "; "); n += 2; }
    if (n + 1 >= whylen) return;
    va_start(ap, fmt);
    vsnprintf(why + n, whylen - n, fmt, ap);
    va_end(ap);
}

/* number of arguments of a signature ('w' word, 'q' 64-bit), -1 if bad */
static int sig_args(const char *sig, char *why, size_t whylen)
{
    size_t n;
    if (!sig) sig = "";
    n = strlen(sig);
    if (n > QHASM_ABICHECK_MAXARGS || strspn(sig, "wq") != n) {
        add(why, whylen, "abicheck: bad signature \"%s\" (at most %d letters w or q)", sig, QHASM_ABICHECK_MAXARGS);
        return -1;
    }
    return (int)n;
}

int qhasm_abicheck_call(void (*fn)(void), int nargs, const uint64_t *args,
                        uint64_t *ret, char *why, size_t whylen)
{
    char sig[QHASM_ABICHECK_MAXARGS + 1];
    if (nargs < 0 || nargs > QHASM_ABICHECK_MAXARGS) {
        if (why && whylen) why[0] = 0;
        add(why, whylen, "abicheck: %d arguments (at most %d)", nargs, QHASM_ABICHECK_MAXARGS);
        return -1;
    }
    memset(sig, 'w', (size_t)nargs);
    sig[nargs] = 0;
    return qhasm_abicheck_call_sig(fn, sig, 0, args, ret, why, whylen);
}

#if defined(__x86_64__) && !defined(_WIN32) && defined(__GNUC__)
/* ======================================================================== */
/* amd64, System V                                                          */
/* ======================================================================== */
/* must match the offsets in abicheck_amd64.S */
typedef struct {
    uint64_t fn;             /*   0 */
    uint64_t args[6];        /*   8 */
    uint64_t fill[6];        /*  56: rbx rbp r12 r13 r14 r15 */
    uint64_t after[6];       /* 104 */
    uint64_t rsp0, rsp1;     /* 152, 160 */
    uint64_t flags;          /* 168 */
    uint64_t rax, rdx;       /* 176, 184 */
    uint64_t xcheck;         /* 192 */
    uint64_t xinuse;         /* 200 */
    uint64_t canary[3];      /* 208 */
    uint64_t canary1[3];     /* 232 */
    uint32_t mxcsr0, mxcsr1; /* 256, 260 */
    uint16_t fcw0, fcw1;     /* 264, 266 */
    uint32_t pad;
    uint64_t scratch[3];     /* 272: rax r10 r11 */
} qhasm_abicheck_amd64_ctx;

_Static_assert(offsetof(qhasm_abicheck_amd64_ctx, after) == 104, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_amd64_ctx, xcheck) == 192, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_amd64_ctx, mxcsr0) == 256, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_amd64_ctx, fcw1) == 266, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_amd64_ctx, scratch) == 272, "abicheck ctx layout");

void qhasm_abicheck_amd64_call(qhasm_abicheck_amd64_ctx *ctx);

static const char *const saved_names[6] = { "rbx", "rbp", "r12", "r13", "r14", "r15" };

#define XINUSE_YMM 0x04u      /* upper halves of ymm0-15 */
#define XINUSE_ZMM 0x40u      /* upper halves of zmm0-15 */

/* xinuse: the XINUSE bits vzeroupper clears (0 = the check is impossible
 * here); decided once, by calibration with an empty function */
static int xinit;
static uint64_t xbits;
static char xnote[160];

static void empty_fn(void) { }

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static void xsetup(void)
{
    uint32_t r[4];
    uint64_t xcr0 = 0;
    xinit = 1;
    xbits = 0;
    if (ABI_ON_VALGRIND()) {
        snprintf(xnote, sizeof xnote, "dirty-upper-state check off (running under valgrind)");
        return;
    }
    cpuid(0, 0, r);
    if (r[0] < 0xd) { snprintf(xnote, sizeof xnote, "dirty-upper-state check off (no CPUID leaf 0xd)"); return; }
    cpuid(1, 0, r);
    if (!(r[2] & (1u << 27)) || !(r[2] & (1u << 28))) {
        snprintf(xnote, sizeof xnote, "dirty-upper-state check off (no AVX or OSXSAVE: no upper state to leave dirty)");
        return;
    }
    {
        uint32_t lo, hi;
        __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((uint64_t)hi << 32) | lo;
    }
    if ((xcr0 & 6) != 6) { snprintf(xnote, sizeof xnote, "dirty-upper-state check off (OS does not enable AVX state)"); return; }
    cpuid(0xd, 1, r);
    if (!(r[0] & 4)) { snprintf(xnote, sizeof xnote, "dirty-upper-state check off (no XGETBV with ECX=1)"); return; }
    xbits = XINUSE_YMM | ((xcr0 & 0x40) ? XINUSE_ZMM : 0);
    /* calibrate: an empty callee must leave the bits clear */
    {
        qhasm_abicheck_amd64_ctx c;
        memset(&c, 0, sizeof c);
        c.fn = (uint64_t)(uintptr_t)empty_fn;
        c.xcheck = 1;
        qhasm_abicheck_amd64_call(&c);
        xbits &= ~c.xinuse;
    }
    if (!xbits) { snprintf(xnote, sizeof xnote, "dirty-upper-state check off (XINUSE not clear after vzeroupper here)"); return; }
    snprintf(xnote, sizeof xnote, "dirty upper state checked (XINUSE bits%s%s after vzeroupper before the call)",
             (xbits & XINUSE_YMM) ? " 2 (YMM)" : "", (xbits & XINUSE_ZMM) ? " 6 (ZMM_Hi256)" : "");
}

const char *qhasm_abicheck_abi(void) { return "amd64 System V"; }

const char *qhasm_abicheck_coverage(void)
{
    static char buf[320];
    if (!xinit) xsetup();
    snprintf(buf, sizeof buf, "rbx rbp r12-r15, rsp, caller stack above the return address, DF, MXCSR, x87 CW; %s", xnote);
    return buf;
}

int qhasm_abicheck_call_sig(void (*fn)(void), const char *sig, unsigned flags, const uint64_t *args,
                            uint64_t *ret, char *why, size_t whylen)
{
    qhasm_abicheck_amd64_ctx c;
    int i, bad = 0, nargs;
    if (why && whylen) why[0] = 0;
    if ((nargs = sig_args(sig, why, whylen)) < 0) return -1;
    (void)flags;                 /* the same rules for compiled C here */
    if (!xinit) xsetup();
    memset(&c, 0, sizeof c);
    c.fn = (uint64_t)(uintptr_t)fn;
    for (i = 0; i < 6; i++) c.args[i] = i < nargs ? args[i] : rnd64();
    for (i = 0; i < 6; i++) c.fill[i] = rnd64();
    for (i = 0; i < 3; i++) c.scratch[i] = rnd64();
    c.canary[0] = rnd64();
    c.canary[1] = rnd64();
    c.xcheck = xbits != 0;
    ncalls++;
    qhasm_abicheck_amd64_call(&c);
    if (ret) *ret = c.rax;
    for (i = 0; i < 6; i++)
        if (c.after[i] != c.fill[i]) {
            add(why, whylen, "callee-saved %s not preserved (0x%016llx became 0x%016llx)", saved_names[i],
                (unsigned long long)c.fill[i], (unsigned long long)c.after[i]);
            bad = 1;
        }
    if (c.rsp1 != c.rsp0) {
        add(why, whylen, "rsp not restored (off by %lld)", (long long)(c.rsp1 - c.rsp0));
        bad = 1;
    }
    if (c.canary1[0] != c.fn || c.canary1[1] != c.canary[0] || c.canary1[2] != c.canary[1]) {
        add(why, whylen, "wrote to the caller's stack above the return address");
        bad = 1;
    }
    if (c.flags & 0x400) { add(why, whylen, "direction flag set on return"); bad = 1; }
    if (c.mxcsr1 != c.mxcsr0) {
        add(why, whylen, "MXCSR changed (0x%04x became 0x%04x)", (unsigned)c.mxcsr0, (unsigned)c.mxcsr1);
        bad = 1;
    }
    if (c.fcw1 != c.fcw0) {
        add(why, whylen, "x87 control word changed (0x%04x became 0x%04x)", (unsigned)c.fcw0, (unsigned)c.fcw1);
        bad = 1;
    }
    if (c.xinuse & xbits) {
        add(why, whylen, "returned with dirty upper %s state (missing vzeroupper; XINUSE 0x%llx)",
            (c.xinuse & xbits & XINUSE_YMM) ? "YMM" : "ZMM", (unsigned long long)c.xinuse);
        bad = 1;
    }
    return bad ? -1 : 0;
}

#elif defined(__i386__) && defined(__GNUC__) && defined(__ELF__)
/* ======================================================================== */
/* x86 (i386), cdecl / System V                                             */
/* ======================================================================== */
#include <cpuid.h>

#define X86_NWORDS 12        /* argument words on the stack */
/* must match the offsets in abicheck_x86.S */
typedef struct {
    uint32_t fn;                 /*   0 */
    uint32_t mxcheck;            /*   4 */
    uint32_t words[X86_NWORDS];  /*   8: stack order */
    uint32_t fill[4];            /*  56: ebx esi edi ebp */
    uint32_t after[4];           /*  72 */
    uint32_t esp0, esp1;         /*  88, 92 */
    uint32_t flags;              /*  96 */
    uint32_t eax, edx;           /* 100, 104 */
    uint32_t scratch[3];         /* 108: eax ecx edx */
    uint32_t canary[3];          /* 120 */
    uint32_t canary1[4];         /* 132: fn, canary[0..2] after the call */
    uint32_t mxcsr0, mxcsr1;     /* 148, 152 */
    uint16_t fcw0, fcw1;         /* 156, 158 */
    uint32_t espsave;            /* 160 */
    uint32_t fenv[7];            /* 164: fnstenv after the call */
} qhasm_abicheck_x86_ctx;

_Static_assert(offsetof(qhasm_abicheck_x86_ctx, fill) == 56, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_x86_ctx, scratch) == 108, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_x86_ctx, fcw1) == 158, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_x86_ctx, fenv) == 164, "abicheck ctx layout");

void qhasm_abicheck_x86_call(qhasm_abicheck_x86_ctx *ctx);

static const char *const saved_names[4] = { "ebx", "esi", "edi", "ebp" };

static int has_sse(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (d & (1u << 25));
}

const char *qhasm_abicheck_abi(void) { return "x86 cdecl (i386 System V)"; }

const char *qhasm_abicheck_coverage(void)
{
    return has_sse() ? "ebx esi edi ebp, esp, caller stack above the arguments, DF, x87 CW, x87 stack empty, MXCSR"
                     : "ebx esi edi ebp, esp, caller stack above the arguments, DF, x87 CW, x87 stack empty (no SSE: MXCSR not checked)";
}

int qhasm_abicheck_call_sig(void (*fn)(void), const char *sig, unsigned flags, const uint64_t *args,
                            uint64_t *ret, char *why, size_t whylen)
{
    qhasm_abicheck_x86_ctx c;
    int i, w, bad = 0, nargs;
    unsigned tag;
    if (why && whylen) why[0] = 0;
    if ((nargs = sig_args(sig, why, whylen)) < 0) return -1;
    (void)flags;                 /* the same rules for compiled C here */
    memset(&c, 0, sizeof c);
    c.fn = (uint32_t)(uintptr_t)fn;
    c.mxcheck = has_sse();
    for (i = w = 0; i < nargs; i++) {          /* cdecl: word by word, a 64-bit value low word first */
        c.words[w++] = (uint32_t)args[i];
        if (sig[i] == 'q') c.words[w++] = (uint32_t)(args[i] >> 32);
    }
    for (; w < X86_NWORDS; w++) c.words[w] = (uint32_t)rnd64();
    for (i = 0; i < 4; i++) c.fill[i] = (uint32_t)rnd64();
    for (i = 0; i < 3; i++) c.scratch[i] = (uint32_t)rnd64();
    for (i = 0; i < 3; i++) c.canary[i] = (uint32_t)rnd64();
    ncalls++;
    qhasm_abicheck_x86_call(&c);
    if (ret) *ret = c.eax;
    for (i = 0; i < 4; i++)
        if (c.after[i] != c.fill[i]) {
            add(why, whylen, "callee-saved %s not preserved (0x%08x became 0x%08x)", saved_names[i],
                (unsigned)c.fill[i], (unsigned)c.after[i]);
            bad = 1;
        }
    if (c.esp1 != c.esp0) {
        add(why, whylen, "esp not restored (off by %d)", (int)(c.esp1 - c.esp0));
        bad = 1;
    }
    if (c.canary1[0] != c.fn || c.canary1[1] != c.canary[0] || c.canary1[2] != c.canary[1] || c.canary1[3] != c.canary[2]) {
        add(why, whylen, "wrote to the caller's stack above the arguments");
        bad = 1;
    }
    if (c.flags & 0x400) { add(why, whylen, "direction flag set on return"); bad = 1; }
    if (c.fcw1 != c.fcw0) {
        add(why, whylen, "x87 control word changed (0x%04x became 0x%04x)", (unsigned)c.fcw0, (unsigned)c.fcw1);
        bad = 1;
    }
    tag = c.fenv[2] & 0xffff;
    if (tag != 0xffff) {
        add(why, whylen, "x87 register stack not empty on return (tag word 0x%04x; values left on it, or MMX code without emms)", tag);
        bad = 1;
    }
    if (c.mxcheck && c.mxcsr1 != c.mxcsr0) {
        add(why, whylen, "MXCSR changed (0x%04x became 0x%04x)", (unsigned)c.mxcsr0, (unsigned)c.mxcsr1);
        bad = 1;
    }
    return bad ? -1 : 0;
}

#elif (defined(__powerpc__) && !defined(__powerpc64__) && defined(__ELF__) && defined(__GNUC__)) || \
      (defined(__powerpc64__) && defined(__ELF__) && defined(__GNUC__) && (!defined(_CALL_ELF) || _CALL_ELF == 1))
/* ======================================================================== */
/* PowerPC: ppc32 (System V) and ppc64 (ELFv1)                              */
/* ======================================================================== */
#include <sys/auxv.h>

#define PPC_ALTIVEC 0x10000000ul           /* PPC_FEATURE_HAS_ALTIVEC, <asm/cputable.h> */

static int has_altivec(void) { return (getauxval(AT_HWCAP) & PPC_ALTIVEC) != 0; }

#if !defined(__powerpc64__)
/* must match the offsets in abicheck_ppc32.S */
typedef struct {
    uint32_t fn;                 /*   0 */
    uint32_t flags;              /*   4: bit 0 AltiVec */
    uint32_t gpr[8];             /*   8: r3..r10 */
    uint32_t stack[8];           /*  40: parameter words at 8(r1) */
    uint32_t fill[18];           /*  72: r14..r31 */
    uint32_t after[18];          /* 144 */
    uint32_t cr0, cr1;           /* 216, 220 */
    uint32_t r1_0, r1_1;         /* 224, 228 */
    uint32_t r2_0, r2_1;         /* 232, 236 */
    uint32_t r13_0, r13_1;       /* 240, 244 */
    uint32_t ret[2];             /* 248: r3 r4 */
    uint32_t scratch[3];         /* 256: r0 r11 r12 */
    uint32_t canary[2];          /* 268 */
    uint32_t canary1[2];         /* 276 */
    uint32_t pad;                /* 284 */
    uint64_t fillf[18];          /* 288: f14..f31 */
    uint64_t afterf[18];         /* 432 */
    uint64_t fpscr0, fpscr1;     /* 576, 584 */
    _Alignas(16) uint32_t fillv[12][4]; /* 592: v20..v31 */
    uint32_t afterv[12][4];      /* 784 */
    uint32_t vscr0[4], vscr1[4]; /* 976, 992 */
} ppc_ctx;
typedef uint32_t ppc_word;
_Static_assert(offsetof(ppc_ctx, cr0) == 216, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, canary1) == 276, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, fillf) == 288, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, fillv) == 592, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, vscr1) == 992, "abicheck ctx layout");
void qhasm_abicheck_ppc32_call(ppc_ctx *ctx);
#define PPC_CALL qhasm_abicheck_ppc32_call
#define PPC_ABI "ppc32 System V"
#define PPC_R2 "r2 (thread pointer, reserved)"
#define PPC_R13 "r13 (small-data anchor, reserved)"
#define PPC_HEX "0x%08llx"
#else
/* must match the offsets in abicheck_ppc64.S */
typedef struct {
    uint64_t fn;                 /*    0: function descriptor */
    uint64_t flags;              /*    8: bit 0 AltiVec */
    uint64_t gpr[8];             /*   16: r3..r10 */
    uint64_t fill[18];           /*   80: r14..r31 */
    uint64_t after[18];          /*  224 */
    uint64_t cr0, cr1;           /*  368, 376 */
    uint64_t r1_0, r1_1;         /*  384, 392 */
    uint64_t toc, r2_1;          /*  400, 408 */
    uint64_t r13_0, r13_1;       /*  416, 424 */
    uint64_t ret[1];             /*  432: r3 */
    uint64_t scratch[2];         /*  440: r0 r12 */
    uint64_t fpscr0, fpscr1;     /*  456, 464 */
    uint64_t canary[2];          /*  472 */
    uint64_t canary1[2];         /*  488 */
    uint64_t pad[1];             /*  504 */
    uint64_t fillf[18];          /*  512: f14..f31 */
    uint64_t afterf[18];         /*  656 */
    _Alignas(16) uint32_t fillv[12][4]; /* 800: v20..v31 */
    uint32_t afterv[12][4];      /*  992 */
    uint32_t vscr0[4], vscr1[4]; /* 1184, 1200 */
} ppc_ctx;
typedef uint64_t ppc_word;
_Static_assert(offsetof(ppc_ctx, cr0) == 368, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, scratch) == 440, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, canary1) == 488, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, fillf) == 512, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, fillv) == 800, "abicheck ctx layout");
_Static_assert(offsetof(ppc_ctx, vscr1) == 1200, "abicheck ctx layout");
void qhasm_abicheck_ppc64_call(ppc_ctx *ctx);
#define PPC_CALL qhasm_abicheck_ppc64_call
#define PPC_ABI "ppc64 ELFv1"
#define PPC_R13 "r13 (thread pointer, reserved)"
#define PPC_HEX "0x%016llx"
#endif

_Static_assert(_Alignof(ppc_ctx) == 16, "abicheck ctx: lvx/stvx need 16-byte alignment");

#define CR_NONVOLATILE 0x00fff000u      /* fields cr2, cr3, cr4 */
#define FPSCR_CONTROL  0xffu            /* VE OE UE ZE XE NI RN */
#define VSCR_NJ        0x00010000u      /* word 3 of mfvscr */

const char *qhasm_abicheck_abi(void) { return PPC_ABI; }

const char *qhasm_abicheck_coverage(void)
{
#if !defined(__powerpc64__)
    return has_altivec() ? "r14-r31, f14-f31, cr2-cr4, v20-v31, r1, r2, r13, caller frame above the parameter words, FPSCR control bits, VSCR[NJ]"
                         : "r14-r31, f14-f31, cr2-cr4, r1, r2, r13, caller frame above the parameter words, FPSCR control bits (no AltiVec in AT_HWCAP: v20-v31 not checked)";
#else
    return has_altivec() ? "r14-r31, f14-f31, cr2-cr4, v20-v31, r1, r2 (TOC, call through the function descriptor), r13, caller frame above the parameter save area, FPSCR control bits, VSCR[NJ]"
                         : "r14-r31, f14-f31, cr2-cr4, r1, r2 (TOC, call through the function descriptor), r13, caller frame above the parameter save area, FPSCR control bits (no AltiVec in AT_HWCAP: v20-v31 not checked)";
#endif
}

int qhasm_abicheck_call_sig(void (*fn)(void), const char *sig, unsigned flags, const uint64_t *args,
                            uint64_t *ret, char *why, size_t whylen)
{
    static ppc_ctx c;            /* static: 16-byte aligned whatever the stack */
    int i, j, bad = 0, nargs;
    if (why && whylen) why[0] = 0;
    if ((nargs = sig_args(sig, why, whylen)) < 0) return -1;
    (void)flags;                 /* the same rules for compiled C here */
    memset(&c, 0, sizeof c);
    c.fn = (ppc_word)(uintptr_t)fn;
    c.flags = has_altivec();
    for (i = 0; i < 8; i++) c.gpr[i] = (ppc_word)rnd64();
#if !defined(__powerpc64__)
    for (i = 0; i < 8; i++) c.stack[i] = (uint32_t)rnd64();
    {
        /* SysV ppc32: words in r3..r10; a 64-bit value in an odd/even pair
         * (r3:r4, r5:r6, ...; high word first), or once the registers are
         * used up, in an 8-byte aligned stack doubleword (and then nothing
         * more goes in registers) */
        int gr = 3, st = 0;
        for (i = 0; i < nargs; i++) {
            uint32_t hi = (uint32_t)(args[i] >> 32), lo = (uint32_t)args[i];
            if (sig[i] == 'q') {
                if (!(gr & 1)) gr++;
                if (gr + 1 <= 10) { c.gpr[gr - 3] = hi; c.gpr[gr - 2] = lo; }
                else { st = (st + 1) & ~1; c.stack[st++] = hi; c.stack[st++] = lo; }
                gr += 2;
            } else {
                if (gr <= 10) c.gpr[gr - 3] = lo;
                else c.stack[st++] = lo;
                gr++;
            }
        }
    }
#else
    for (i = 0; i < nargs; i++) c.gpr[i] = args[i];
#endif
    for (i = 0; i < 18; i++) c.fill[i] = (ppc_word)rnd64();
    for (i = 0; i < 18; i++) c.fillf[i] = rnd64();
    for (i = 0; i < 12; i++)
        for (j = 0; j < 4; j++) c.fillv[i][j] = (uint32_t)rnd64();
    c.cr0 = (ppc_word)rnd64();
    for (i = 0; i < (int)(sizeof c.scratch / sizeof c.scratch[0]); i++) c.scratch[i] = (ppc_word)rnd64();
    for (i = 0; i < 2; i++) c.canary[i] = (ppc_word)rnd64();
    ncalls++;
    PPC_CALL(&c);
    if (ret) *ret = c.ret[0];
    for (i = 0; i < 18; i++)
        if (c.after[i] != c.fill[i]) {
            add(why, whylen, "callee-saved r%d not preserved (" PPC_HEX " became " PPC_HEX ")", 14 + i,
                (unsigned long long)c.fill[i], (unsigned long long)c.after[i]);
            bad = 1;
        }
    for (i = 0; i < 18; i++)
        if (c.afterf[i] != c.fillf[i]) {
            add(why, whylen, "callee-saved f%d not preserved (0x%016llx became 0x%016llx)", 14 + i,
                (unsigned long long)c.fillf[i], (unsigned long long)c.afterf[i]);
            bad = 1;
        }
    if ((c.cr1 ^ c.cr0) & CR_NONVOLATILE) {
        for (i = 2; i <= 4; i++)
            if (((c.cr1 ^ c.cr0) >> (28 - 4 * i)) & 0xf)
                add(why, whylen, "callee-saved CR field cr%d not preserved (%x became %x)", i,
                    (unsigned)((c.cr0 >> (28 - 4 * i)) & 0xf), (unsigned)((c.cr1 >> (28 - 4 * i)) & 0xf));
        bad = 1;
    }
    if (c.flags)
        for (i = 0; i < 12; i++)
            if (memcmp(c.afterv[i], c.fillv[i], 16)) {
                add(why, whylen, "callee-saved v%d not preserved (%08x%08x%08x%08x became %08x%08x%08x%08x)", 20 + i,
                    (unsigned)c.fillv[i][0], (unsigned)c.fillv[i][1], (unsigned)c.fillv[i][2], (unsigned)c.fillv[i][3],
                    (unsigned)c.afterv[i][0], (unsigned)c.afterv[i][1], (unsigned)c.afterv[i][2], (unsigned)c.afterv[i][3]);
                bad = 1;
            }
    if (c.r1_1 != c.r1_0) {
        add(why, whylen, "r1 (stack pointer) not restored (off by %lld)", (long long)((int64_t)c.r1_1 - (int64_t)c.r1_0));
        bad = 1;
    }
#if !defined(__powerpc64__)
    if (c.r2_1 != c.r2_0) {
        add(why, whylen, "%s changed (0x%08x became 0x%08x)", PPC_R2, (unsigned)c.r2_0, (unsigned)c.r2_1);
        bad = 1;
    }
#else
    if (c.r2_1 != c.toc) {
        add(why, whylen, "r2 (TOC) not restored (0x%016llx from the function descriptor became 0x%016llx)",
            (unsigned long long)c.toc, (unsigned long long)c.r2_1);
        bad = 1;
    }
#endif
    if (c.r13_1 != c.r13_0) {
        add(why, whylen, "%s changed (" PPC_HEX " became " PPC_HEX ")", PPC_R13,
            (unsigned long long)c.r13_0, (unsigned long long)c.r13_1);
        bad = 1;
    }
    if (c.canary1[0] != c.canary[0] || c.canary1[1] != c.canary[1]) {
        add(why, whylen, "wrote to the caller's frame above the %s", sizeof(ppc_word) == 4 ? "parameter words" : "parameter save area");
        bad = 1;
    }
    if ((c.fpscr1 ^ c.fpscr0) & FPSCR_CONTROL) {
        add(why, whylen, "FPSCR control bits changed (0x%02x became 0x%02x)",
            (unsigned)(c.fpscr0 & FPSCR_CONTROL), (unsigned)(c.fpscr1 & FPSCR_CONTROL));
        bad = 1;
    }
    if (c.flags && ((c.vscr1[3] ^ c.vscr0[3]) & VSCR_NJ)) {
        add(why, whylen, "VSCR[NJ] changed (%u became %u)", (unsigned)!!(c.vscr0[3] & VSCR_NJ),
            (unsigned)!!(c.vscr1[3] & VSCR_NJ));
        bad = 1;
    }
    return bad ? -1 : 0;
}

#elif defined(__sparc__) && defined(__arch64__) && defined(__ELF__) && defined(__GNUC__)
/* ======================================================================== */
/* sparc64, SPARC V9 ABI                                                    */
/* ======================================================================== */
/* must match the offsets in abicheck_sparc64.S */
typedef struct {
    uint64_t fn;                 /*   0 */
    uint64_t args[6];            /*   8: %o0..%o5 */
    uint64_t filll[8];           /*  56: %l0..%l7 */
    uint64_t filli[6];           /* 120: %i0..%i5 */
    uint64_t afterl[8];          /* 168 */
    uint64_t afteri[8];          /* 232: %i0..%i7 */
    uint64_t fp0, i7_0;          /* 296, 304 */
    uint64_t sp0, sp1;           /* 312, 320 */
    uint64_t fillg[2];           /* 328: %g2 %g3 */
    uint64_t afterg[4];          /* 344: %g2 %g3 %g6 %g7 */
    uint64_t g6_0, g7_0;         /* 376, 384 */
    uint64_t ret;                /* 392: %o0 */
    uint64_t scratch[2];         /* 400: %g4 %g5 */
    uint64_t fsr0, fsr1;         /* 416, 424 */
    uint64_t canary[2];          /* 432 */
    uint64_t canary1[2];         /* 448 */
} qhasm_abicheck_sparc64_ctx;

_Static_assert(offsetof(qhasm_abicheck_sparc64_ctx, afteri) == 232, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_sparc64_ctx, fillg) == 328, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_sparc64_ctx, ret) == 392, "abicheck ctx layout");
_Static_assert(offsetof(qhasm_abicheck_sparc64_ctx, canary1) == 448, "abicheck ctx layout");

void qhasm_abicheck_sparc64_call(qhasm_abicheck_sparc64_ctx *ctx);

#define FSR_CONTROL 0xcfc00000ull       /* RD (31:30), TEM (27:23), NS (22) */

const char *qhasm_abicheck_abi(void) { return "sparc64 V9"; }

const char *qhasm_abicheck_coverage(void)
{
    return "the caller's window %l0-%l7 %i0-%i7 (with %fp and %i7), %sp, caller frame above the argument slots, "
           "%g2 %g3 (application) and %g6 %g7 (system) for assembly, %g7 for compiled C, %fsr control fields";
}

int qhasm_abicheck_call_sig(void (*fn)(void), const char *sig, unsigned flags, const uint64_t *args,
                            uint64_t *ret, char *why, size_t whylen)
{
    static const char *const gname[4] = { "%g2 (application register)", "%g3 (application register)",
                                          "%g6 (system register)", "%g7 (system register, thread pointer)" };
    qhasm_abicheck_sparc64_ctx c;
    uint64_t gwant[4];
    int i, bad = 0, nargs;
    if (why && whylen) why[0] = 0;
    if ((nargs = sig_args(sig, why, whylen)) < 0) return -1;
    memset(&c, 0, sizeof c);
    c.fn = (uint64_t)(uintptr_t)fn;
    for (i = 0; i < 6; i++) c.args[i] = i < nargs ? args[i] : rnd64();
    for (i = 0; i < 8; i++) c.filll[i] = rnd64();
    for (i = 0; i < 6; i++) c.filli[i] = rnd64();
    for (i = 0; i < 2; i++) c.fillg[i] = rnd64();
    for (i = 0; i < 2; i++) c.scratch[i] = rnd64();
    for (i = 0; i < 2; i++) c.canary[i] = rnd64();
    ncalls++;
    qhasm_abicheck_sparc64_call(&c);
    if (ret) *ret = c.ret;
    for (i = 0; i < 8; i++)
        if (c.afterl[i] != c.filll[i]) {
            add(why, whylen, "caller's %%l%d not preserved (0x%016llx became 0x%016llx)", i,
                (unsigned long long)c.filll[i], (unsigned long long)c.afterl[i]);
            bad = 1;
        }
    for (i = 0; i < 8; i++) {
        uint64_t want = i < 6 ? c.filli[i] : i == 6 ? c.fp0 : c.i7_0;
        if (c.afteri[i] != want) {
            add(why, whylen, "caller's %s not preserved (0x%016llx became 0x%016llx)",
                i == 6 ? "%i6 (%fp)" : i == 7 ? "%i7 (return address)" : (const char *[]){ "%i0", "%i1", "%i2", "%i3", "%i4", "%i5" }[i],
                (unsigned long long)want, (unsigned long long)c.afteri[i]);
            bad = 1;
        }
    }
    if (c.sp1 != c.sp0) {
        add(why, whylen, "%%sp not restored (off by %lld)", (long long)(c.sp1 - c.sp0));
        bad = 1;
    }
    gwant[0] = c.fillg[0]; gwant[1] = c.fillg[1]; gwant[2] = c.g6_0; gwant[3] = c.g7_0;
    for (i = (flags & QHASM_ABICHECK_COMPILED) ? 3 : 0; i < 4; i++)
        if (c.afterg[i] != gwant[i]) {
            add(why, whylen, "%s changed (0x%016llx became 0x%016llx)", gname[i],
                (unsigned long long)gwant[i], (unsigned long long)c.afterg[i]);
            bad = 1;
        }
    if (c.canary1[0] != c.canary[0] || c.canary1[1] != c.canary[1]) {
        add(why, whylen, "wrote to the caller's frame above the argument slots");
        bad = 1;
    }
    if ((c.fsr1 ^ c.fsr0) & FSR_CONTROL) {
        add(why, whylen, "%%fsr control fields changed (0x%08llx became 0x%08llx)",
            (unsigned long long)(c.fsr0 & FSR_CONTROL), (unsigned long long)(c.fsr1 & FSR_CONTROL));
        bad = 1;
    }
    return bad ? -1 : 0;
}

#else
/* ======================================================================== */
/* no trampoline for this architecture yet                                  */
/* ======================================================================== */
const char *qhasm_abicheck_abi(void) { return NULL; }
const char *qhasm_abicheck_coverage(void) { return "no ABI checker for this architecture"; }

int qhasm_abicheck_call_sig(void (*fn)(void), const char *sig, unsigned flags, const uint64_t *args,
                            uint64_t *ret, char *why, size_t whylen)
{
    (void)fn; (void)sig; (void)flags; (void)args; (void)ret;
    if (why && whylen) snprintf(why, whylen, "no ABI checker for this architecture");
    (void)rnd64;
    (void)sig_args;
    return -2;
}
#endif
