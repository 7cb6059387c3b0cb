/* Run-time CPU feature detection: on x86 our own CPUID and XGETBV,
 * including the operating-system checks (XCR0) that the AVX and AVX-512
 * register state is saved on context switches; on PowerPC (32 and 64 bit)
 * the kernel's AT_HWCAP word, whose PPC_FEATURE_HAS_ALTIVEC bit says both
 * that the CPU has AltiVec and that the kernel saves its registers
 * (qemu-ppc -cpu 7400 sets it, a plain qemu-ppc does not).  Other targets
 * report no features. */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

static const char *const feature_names[QHASM_CPU_NFEATURES] = {
    "sse2", "ssse3", "avx", "avx2", "bmi2", "adx",
    "avx512f", "avx512vl", "avx512bw", "avx512ifma", "altivec", "pclmulqdq",
    "bmi1", "avx512vpopcntdq",
};

const char *qhasm_cpu_feature_name(unsigned bit)
{
    int i;
    for (i = 0; i < QHASM_CPU_NFEATURES; i++)
        if (bit == (1u << i)) return feature_names[i];
    return "?";
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ __volatile__("cpuid"
                         : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                         : "a"(leaf), "c"(sub));
}

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static unsigned detect(void)
{
    uint32_t r[4], maxleaf, ecx1, edx1, ebx7 = 0, ecx7 = 0;
    uint64_t xcr0 = 0;
    unsigned f = 0;
    int os_ymm, os_zmm;

#if defined(__i386__)
    /* CPUID itself may be missing on very old i386: test the EFLAGS.ID bit */
    {
        uint32_t a, b;
        __asm__ __volatile__("pushfl\n\tpopl %0\n\tmovl %0, %1\n\txorl $0x200000, %0\n\t"
                             "pushl %0\n\tpopfl\n\tpushfl\n\tpopl %0\n\tpushl %1\n\tpopfl"
                             : "=&r"(a), "=&r"(b));
        if (((a ^ b) & 0x200000) == 0) return 0;
    }
#endif
    cpuid(0, 0, r);
    maxleaf = r[0];
    if (maxleaf < 1) return 0;
    cpuid(1, 0, r);
    ecx1 = r[2];
    edx1 = r[3];
    if (maxleaf >= 7) {
        cpuid(7, 0, r);
        ebx7 = r[1];
        ecx7 = r[2];
    }
    if (ecx1 & (1u << 27)) xcr0 = xgetbv0();             /* OSXSAVE */
    os_ymm = (xcr0 & 0x06) == 0x06;                       /* XMM and YMM state */
    os_zmm = (xcr0 & 0xe6) == 0xe6;                       /* + opmask, ZMM_Hi256, Hi16_ZMM */

    if (edx1 & (1u << 26)) f |= QHASM_CPU_SSE2;
    if (ecx1 & (1u << 9)) f |= QHASM_CPU_SSSE3;
    if ((ecx1 & (1u << 28)) && os_ymm) f |= QHASM_CPU_AVX;
    if ((f & QHASM_CPU_AVX) && (ebx7 & (1u << 5))) f |= QHASM_CPU_AVX2;
    if (ebx7 & (1u << 8)) f |= QHASM_CPU_BMI2;
    if (ebx7 & (1u << 3)) f |= QHASM_CPU_BMI1;
    if ((f & QHASM_CPU_SSE2) && (ecx1 & (1u << 1))) f |= QHASM_CPU_PCLMULQDQ;
    if (ebx7 & (1u << 19)) f |= QHASM_CPU_ADX;
    if (os_zmm && (f & QHASM_CPU_AVX2)) {
        if (ebx7 & (1u << 16)) f |= QHASM_CPU_AVX512F;
        if (f & QHASM_CPU_AVX512F) {
            if (ebx7 & (1u << 31)) f |= QHASM_CPU_AVX512VL;
            if (ebx7 & (1u << 30)) f |= QHASM_CPU_AVX512BW;
            if (ebx7 & (1u << 21)) f |= QHASM_CPU_AVX512IFMA;
            if (ecx7 & (1u << 14)) f |= QHASM_CPU_AVX512VPOPCNTDQ;    /* vpopcntd/q */
        }
    }
    return f;
}
#elif (defined(__powerpc__) || defined(__powerpc64__) || defined(__PPC__)) && defined(__linux__)
#include <sys/auxv.h>
#define QHASM_PPC_FEATURE_HAS_ALTIVEC 0x10000000ul   /* <asm/cputable.h> */
static unsigned detect(void)
{
    unsigned long hwcap = getauxval(AT_HWCAP);
    return (hwcap & QHASM_PPC_FEATURE_HAS_ALTIVEC) ? QHASM_CPU_ALTIVEC : 0;
}
#else
static unsigned detect(void) { return 0; }
#endif

/* QHASM_CPU_DISABLE=avx512f,avx2 pretends those features are absent
 * (for testing the fallbacks; disabling a feature also disables the ones
 * that build on it: avx -> avx2 -> avx512*) */
static unsigned disabled(void)
{
    const char *e = getenv("QHASM_CPU_DISABLE");
    unsigned d = 0;
    int i;
    while (e && *e) {
        size_t n = strcspn(e, ", ");
        for (i = 0; i < QHASM_CPU_NFEATURES; i++)
            if (n == strlen(feature_names[i]) && !strncmp(e, feature_names[i], n)) d |= 1u << i;
        if (n == 3 && !strncmp(e, "all", 3)) d = ~0u;
        e += n;
        while (*e == ',' || *e == ' ') e++;
    }
    if (d & QHASM_CPU_AVX) d |= QHASM_CPU_AVX2;
    if (d & QHASM_CPU_AVX2) d |= QHASM_CPU_AVX512F;
    if (d & QHASM_CPU_AVX512F) d |= QHASM_CPU_AVX512VL | QHASM_CPU_AVX512BW | QHASM_CPU_AVX512IFMA | QHASM_CPU_AVX512VPOPCNTDQ;
    return d;
}

unsigned qhasm_cpu_features(void)
{
    static int done;
    static unsigned features;
    /* idempotent: a race only computes the same value twice */
    if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&features, detect() & ~disabled(), __ATOMIC_RELAXED);
        __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&features, __ATOMIC_RELAXED);
}

/* ---- microarchitecture -------------------------------------------------
 * The name of the running CPU's microarchitecture model (qhasm/<isa>/
 * models/<name>.model) when known from CPUID's vendor, family and model,
 * else "".  QHASM_UARCH=name overrides (QHASM_UARCH= forces "", and
 * QHASM_UARCH=auto is the detected model). */
#if defined(__x86_64__)
static const char *uarch_x86(void)
{
    unsigned a, b, c, d;
    char vendor[13];
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = 0;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
    unsigned base = (a >> 8) & 15, family = base, model = (a >> 4) & 15;
    if (base == 15)
        family += (a >> 20) & 255;
    if (base == 6 || base == 15)
        model |= ((a >> 16) & 15) << 4;
    if (!strcmp(vendor, "AuthenticAMD")) {
        if (family == 0x17 && (model == 0x31 || model == 0x60 || model == 0x68 || model == 0x71 || model == 0x90))
            return "zen2";
        if (family == 0x19 && ((model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) || (model >= 0xa0 && model <= 0xaf)))
            return "zen4";
        /* Zen 3: Milan 0x01, Chagall 0x08, Vermeer 0x21, Cezanne 0x50, Rembrandt 0x44 (Zen 3+) */
        if (family == 0x19 && (model <= 0x0f || (model >= 0x20 && model <= 0x5f)))
            return "zen3";
        /* Zen 5: family 0x1A (Turin 0x02/0x11, Strix Point 0x24, Granite Ridge 0x44, Krackan 0x60, Strix Halo 0x70) */
        if (family == 0x1a)
            return "zen5";
    }
    if (!strcmp(vendor, "GenuineIntel") && family == 6) {
        switch (model) {
        case 0x0f: case 0x16: case 0x17: case 0x1d: return "core2";
        case 0x3c: case 0x3f: case 0x45: case 0x46: return "haswell";
        case 0x4e: case 0x5e: case 0x55: case 0x8e: case 0x9e: case 0xa5: case 0xa6: return "skylake";
        case 0x8f: case 0x97: case 0x9a: case 0xb7: case 0xba: case 0xbf: case 0xcf: return "goldencove";
        }
    }
    return "";
}
#endif

const char *qhasm_cpu_uarch(void)
{
    const char *e = getenv("QHASM_UARCH");
    if (e && strcmp(e, "auto"))
        return e;
#if defined(__x86_64__)
    static const char *name;
    if (!name)
        name = uarch_x86();
    return name;
#else
    return "";
#endif
}
