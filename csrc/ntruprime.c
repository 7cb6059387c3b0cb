/* The public Streamlined NTRU Prime functions (qhasm.h): thin wrappers
 * over the kernels of the selected implementation, plus its own small
 * dispatch table (until specs/kernels.conf generates one; see
 * csrc/ntruprime_impl.h and docs/ntruprime.md).  The kernels read both
 * inputs before writing, so out may alias in or k; c (0 bytes) is unused. */
#include <stdlib.h>
#include <string.h>
#include "qhasm.h"
#include "ntruprime_impl.h"
#include "ref/ref.h"

const int qhasm_ntru_p[QHASM_NTRU_NPARAMS] = {653, 761, 857};
const int qhasm_ntru_q[QHASM_NTRU_NPARAMS] = {4621, 4591, 5167};

/* ---- reference kernels (csrc/ref/ntruprime_ref.c) ----------------------- */
#define REF(P, Q) \
    static void ref_mult##P(unsigned char *out, const unsigned char *in, const unsigned char *k) \
    { qhasm_ref_core_multsntrup(out, in, k, P, Q); } \
    static void ref_mult3##P(unsigned char *out, const unsigned char *in, const unsigned char *k) \
    { qhasm_ref_core_mult3sntrup(out, in, k, P); }
REF(653, 4621)
REF(761, 4591)
REF(857, 5167)

/* ---- generated kernels, linked in when the build has their folder ------- */
/* implementations for which gen/ntruprime.py generates kernels (the folder
 * macros QHASM_HAVE_OUT_* only say that out/<impl>/ exists) */
#define QHASM_NTRU_AMD64_AVX2 1
#define QHASM_NTRU_AMD64 1
#define QHASM_NTRU_X86_SSE2 1
#define QHASM_NTRU_AMD64_AVX512 1
#define QHASM_NTRU_PPC64 1
#define QHASM_NTRU_SPARC64 1
#if (defined(QHASM_HAVE_PPC64) && defined(QHASM_HAVE_OUT_PPC64)) || \
    (defined(QHASM_HAVE_SPARC64) && defined(QHASM_HAVE_OUT_SPARC64))
static _Thread_local unsigned char ntru_work[QHASM_NTRU_WORK_BYTES] __attribute__((aligned(16)));
#endif
#define KERNELS(ID) \
    qhasm_ntru_fn qhasm_kernel_core_multsntrup653_##ID##_mul, qhasm_kernel_core_multsntrup761_##ID##_mul, \
        qhasm_kernel_core_multsntrup857_##ID##_mul, qhasm_kernel_core_mult3sntrup653_##ID##_mul, \
        qhasm_kernel_core_mult3sntrup761_##ID##_mul, qhasm_kernel_core_mult3sntrup857_##ID##_mul;
/* kernels with a work argument, behind wrappers that pass one per-thread
 * buffer (thread-local rather than on the stack: it is larger than many
 * thread stacks) */
#define WORKKERNEL(NAME) \
    qhasm_ntru_work_fn NAME; \
    static void w_##NAME(unsigned char *out, const unsigned char *in, const unsigned char *k) \
    { NAME(out, in, k, ntru_work); }
#define WORKKERNELS(ID) \
    WORKKERNEL(qhasm_kernel_core_multsntrup653_##ID##_mul) WORKKERNEL(qhasm_kernel_core_multsntrup761_##ID##_mul) \
    WORKKERNEL(qhasm_kernel_core_multsntrup857_##ID##_mul) WORKKERNEL(qhasm_kernel_core_mult3sntrup653_##ID##_mul) \
    WORKKERNEL(qhasm_kernel_core_mult3sntrup761_##ID##_mul) WORKKERNEL(qhasm_kernel_core_mult3sntrup857_##ID##_mul)
#define WORKENTRY(NAME, ID, FEAT) \
    {NAME, FEAT, \
     {w_qhasm_kernel_core_multsntrup653_##ID##_mul, w_qhasm_kernel_core_multsntrup761_##ID##_mul, \
      w_qhasm_kernel_core_multsntrup857_##ID##_mul}, \
     {w_qhasm_kernel_core_mult3sntrup653_##ID##_mul, w_qhasm_kernel_core_mult3sntrup761_##ID##_mul, \
      w_qhasm_kernel_core_mult3sntrup857_##ID##_mul}},
#define ENTRY(NAME, ID, FEAT) \
    {NAME, FEAT, \
     {qhasm_kernel_core_multsntrup653_##ID##_mul, qhasm_kernel_core_multsntrup761_##ID##_mul, \
      qhasm_kernel_core_multsntrup857_##ID##_mul}, \
     {qhasm_kernel_core_mult3sntrup653_##ID##_mul, qhasm_kernel_core_mult3sntrup761_##ID##_mul, \
      qhasm_kernel_core_mult3sntrup857_##ID##_mul}},

#if defined(QHASM_HAVE_AMD64) && defined(QHASM_HAVE_OUT_AMD64_AVX512) && defined(QHASM_NTRU_AMD64_AVX512)
KERNELS(amd64_avx512)
#define E_AMD64_AVX512 ENTRY("amd64-avx512", amd64_avx512, QHASM_CPU_AVX512F | QHASM_CPU_AVX512BW | QHASM_CPU_AVX512VL)
#else
#define E_AMD64_AVX512
#endif
#if defined(QHASM_HAVE_AMD64) && defined(QHASM_HAVE_OUT_AMD64_AVX2) && defined(QHASM_NTRU_AMD64_AVX2)
KERNELS(amd64_avx2)
#define E_AMD64_AVX2 ENTRY("amd64-avx2", amd64_avx2, QHASM_CPU_AVX2)
#else
#define E_AMD64_AVX2
#endif
#if defined(QHASM_HAVE_AMD64) && defined(QHASM_HAVE_OUT_AMD64) && defined(QHASM_NTRU_AMD64)
KERNELS(amd64)
#define E_AMD64 ENTRY("amd64", amd64, 0)
#else
#define E_AMD64
#endif
#if defined(QHASM_HAVE_X86) && defined(QHASM_HAVE_OUT_X86_SSE2) && defined(QHASM_NTRU_X86_SSE2)
KERNELS(x86_sse2)
#define E_X86_SSE2 ENTRY("x86-sse2", x86_sse2, QHASM_CPU_SSE2)
#else
#define E_X86_SSE2
#endif
#if defined(QHASM_HAVE_PPC32) && defined(QHASM_HAVE_OUT_PPC32_ALTIVEC) && defined(QHASM_NTRU_PPC32_ALTIVEC)
KERNELS(ppc32_altivec)
#define E_PPC32_ALTIVEC ENTRY("ppc32-altivec", ppc32_altivec, QHASM_CPU_ALTIVEC)
#else
#define E_PPC32_ALTIVEC
#endif
#if defined(QHASM_HAVE_PPC64) && defined(QHASM_HAVE_OUT_PPC64) && defined(QHASM_NTRU_PPC64)
WORKKERNELS(ppc64)
#define E_PPC64 WORKENTRY("ppc64", ppc64, 0)
#else
#define E_PPC64
#endif
#if defined(QHASM_HAVE_SPARC64) && defined(QHASM_HAVE_OUT_SPARC64) && defined(QHASM_NTRU_SPARC64)
WORKKERNELS(sparc64)
#define E_SPARC64 WORKENTRY("sparc64", sparc64, 0)
#else
#define E_SPARC64
#endif

/* preference order: fastest first, the reference last.  amd64-avx512 comes
 * after amd64-avx2 until it has been run on an AVX-512 machine (this
 * session's CPU has none; see docs/ntruprime.md): it is generated from the
 * same description and assembled, but untested, so it is used only when
 * forced (QHASM_NTRU_IMPL=amd64-avx512 or qhasm_ntru_impl_force). */
static const qhasm_ntru_impl table[] = {
    E_AMD64_AVX2 E_AMD64_AVX512 E_AMD64 E_X86_SSE2 E_PPC32_ALTIVEC E_PPC64 E_SPARC64
    {"ref", 0, {ref_mult653, ref_mult761, ref_mult857}, {ref_mult3653, ref_mult3761, ref_mult3857}},
};
#define NIMPL ((int)(sizeof table / sizeof table[0]))

int qhasm_ntru_impl_count(void) { return NIMPL; }

const qhasm_ntru_impl *qhasm_ntru_impl_get(int i)
{
    return i >= 0 && i < NIMPL ? &table[i] : NULL;
}

int qhasm_ntru_impl_supported(int i)
{
    if (i < 0 || i >= NIMPL) return 0;
    return (qhasm_cpu_features() & table[i].features) == table[i].features;
}

static int selected = -1;

int qhasm_ntru_impl_force(int i)
{
    if (!qhasm_ntru_impl_supported(i)) return -1;
    __atomic_store_n(&selected, i, __ATOMIC_RELEASE);
    return 0;
}

int qhasm_ntru_impl_selected(void)
{
    int s = __atomic_load_n(&selected, __ATOMIC_ACQUIRE);
    if (s < 0) {
        const char *want = getenv("QHASM_NTRU_IMPL");
        int i;
        for (i = 0; i < NIMPL && s < 0; i++)
            if (qhasm_ntru_impl_supported(i) && (!want || !*want || !strcmp(want, table[i].name))) s = i;
        if (s < 0) s = NIMPL - 1;
        __atomic_store_n(&selected, s, __ATOMIC_RELEASE);
    }
    return s;
}

#define PUBLIC(P, IX) \
    int qhasm_core_multsntrup##P(unsigned char *out, const unsigned char *in, \
                                 const unsigned char *k, const unsigned char *c) \
    { (void)c; table[qhasm_ntru_impl_selected()].mult[IX](out, in, k); return 0; } \
    int qhasm_core_mult3sntrup##P(unsigned char *out, const unsigned char *in, \
                                  const unsigned char *k, const unsigned char *c) \
    { (void)c; table[qhasm_ntru_impl_selected()].mult3[IX](out, in, k); return 0; }
PUBLIC(653, 0)
PUBLIC(761, 1)
PUBLIC(857, 2)
