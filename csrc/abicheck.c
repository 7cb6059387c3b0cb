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

int qhasm_abicheck_call(void (*fn)(void), int nargs, const uint64_t *args,
                        uint64_t *ret, char *why, size_t whylen)
{
    qhasm_abicheck_amd64_ctx c;
    int i, bad = 0;
    if (why && whylen) why[0] = 0;
    if (nargs < 0 || nargs > 6) { add(why, whylen, "abicheck: %d arguments (at most 6)", nargs); return -1; }
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

#else
/* ======================================================================== */
/* no trampoline for this architecture yet                                  */
/* ======================================================================== */
const char *qhasm_abicheck_abi(void) { return NULL; }
const char *qhasm_abicheck_coverage(void) { return "no ABI checker for this architecture"; }

int qhasm_abicheck_call(void (*fn)(void), int nargs, const uint64_t *args,
                        uint64_t *ret, char *why, size_t whylen)
{
    (void)fn; (void)nargs; (void)args; (void)ret;
    if (why && whylen) snprintf(why, whylen, "no ABI checker for this architecture");
    (void)add;
    (void)rnd64;
    return -2;
}
#endif
