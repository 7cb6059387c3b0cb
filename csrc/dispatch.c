/* Run-time dispatch: per primitive, a table of implementations in
 * preference order (fastest first), the CPU features each one needs, and
 * the selection (first supported, or forced by QHASM_IMPL or
 * qhasm_impl_force), made once on first use.  See docs/api.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"
#include "ref/ref.h"

/* ---- which generated-assembly implementations are linked in -------------
 * The build defines QHASM_HAVE_AMD64 when it assembles out/amd64* for an
 * x86-64 target, and QHASM_HAVE_OUT_<FOLDER> for each folder present
 * (out/amd64-avx2 -> QHASM_HAVE_OUT_AMD64_AVX2). */
#if defined(QHASM_HAVE_AMD64) && defined(QHASM_HAVE_OUT_AMD64)
#define IF_OUT_AMD64(x) x
#else
#define IF_OUT_AMD64(x)
#endif
#if defined(QHASM_HAVE_AMD64) && defined(QHASM_HAVE_OUT_AMD64_SSE2)
#define IF_OUT_AMD64_SSE2(x) x
#else
#define IF_OUT_AMD64_SSE2(x)
#endif
#if defined(QHASM_HAVE_AMD64) && defined(QHASM_HAVE_OUT_AMD64_AVX2)
#define IF_OUT_AMD64_AVX2(x) x
#else
#define IF_OUT_AMD64_AVX2(x)
#endif
#if defined(QHASM_HAVE_AMD64) && defined(QHASM_HAVE_OUT_AMD64_AVX512)
#define IF_OUT_AMD64_AVX512(x) x
#else
#define IF_OUT_AMD64_AVX512(x)
#endif
#if defined(QHASM_HAVE_AMD64) && defined(QHASM_HAVE_OUT_AMD64_BMI2)
#define IF_OUT_AMD64_BMI2(x) x
#else
#define IF_OUT_AMD64_BMI2(x)
#endif

/* ---- the other targets (csrc/cross.mk, docs/cross.md) -------------------
 * A cross build for TARGET (x86, ppc32, ppc64, sparc64) defines
 * QHASM_HAVE_<TARGET> (QHASM_HAVE_X86, QHASM_HAVE_PPC32, QHASM_HAVE_PPC64,
 * QHASM_HAVE_SPARC64) and QHASM_HAVE_OUT_<FOLDER> for each folder
 * out/<target>/ and out/<target>-<ext>/ present; IF_OUT_<FOLDER>(x) keeps a
 * table line only then.  AltiVec kernels need QHASM_CPU_ALTIVEC. */
#if defined(QHASM_HAVE_X86) && defined(QHASM_HAVE_OUT_X86)
#define IF_OUT_X86(x) x
#else
#define IF_OUT_X86(x)
#endif
#if defined(QHASM_HAVE_X86) && defined(QHASM_HAVE_OUT_X86_SSE2)
#define IF_OUT_X86_SSE2(x) x
#else
#define IF_OUT_X86_SSE2(x)
#endif
#if defined(QHASM_HAVE_PPC32) && defined(QHASM_HAVE_OUT_PPC32)
#define IF_OUT_PPC32(x) x
#else
#define IF_OUT_PPC32(x)
#endif
#if defined(QHASM_HAVE_PPC32) && defined(QHASM_HAVE_OUT_PPC32_ALTIVEC)
#define IF_OUT_PPC32_ALTIVEC(x) x
#else
#define IF_OUT_PPC32_ALTIVEC(x)
#endif
#if defined(QHASM_HAVE_PPC64) && defined(QHASM_HAVE_OUT_PPC64)
#define IF_OUT_PPC64(x) x
#else
#define IF_OUT_PPC64(x)
#endif
#if defined(QHASM_HAVE_SPARC64) && defined(QHASM_HAVE_OUT_SPARC64)
#define IF_OUT_SPARC64(x) x
#else
#define IF_OUT_SPARC64(x)
#endif

/* ---- Salsa20/20, /12, /8: one line per implementation -------------------
 * X(ID, "name", required features): ID is the C identifier part of
 * qhasm_kernel_salsa{20,12,8}_<ID>_{blocks,core}. */
#define SALSA_IMPLS(X) \
    IF_OUT_AMD64_AVX512(X(amd64_avx512, "amd64-avx512", QHASM_CPU_AVX512F | QHASM_CPU_AVX512VL)) \
    IF_OUT_AMD64_AVX2(X(amd64_avx2, "amd64-avx2", QHASM_CPU_AVX2)) \
    IF_OUT_AMD64_SSE2(X(amd64_sse2, "amd64-sse2", QHASM_CPU_SSE2)) \
    IF_OUT_AMD64(X(amd64, "amd64", 0)) \
    IF_OUT_X86_SSE2(X(x86_sse2, "x86-sse2", QHASM_CPU_SSE2)) \
    IF_OUT_X86(X(x86, "x86", 0)) \
    IF_OUT_PPC32_ALTIVEC(X(ppc32_altivec, "ppc32-altivec", QHASM_CPU_ALTIVEC)) \
    IF_OUT_PPC32(X(ppc32, "ppc32", 0)) \
    IF_OUT_PPC64(X(ppc64, "ppc64", 0)) \
    IF_OUT_SPARC64(X(sparc64, "sparc64", 0)) \
    X(c, "c", 0) \
    X(ref, "ref", 0)

/* ---- Poly1305: one line per implementation ------------------------------
 * qhasm_kernel_poly1305_<ID>_{init,blocks,final} */
#define POLY1305_IMPLS(X) \
    IF_OUT_AMD64_AVX512(X(amd64_avx512, "amd64-avx512", QHASM_CPU_AVX512F | QHASM_CPU_AVX512IFMA | QHASM_CPU_BMI2)) \
    IF_OUT_AMD64_AVX2(X(amd64_avx2, "amd64-avx2", QHASM_CPU_AVX2)) \
    IF_OUT_AMD64_BMI2(X(amd64_bmi2, "amd64-bmi2", QHASM_CPU_BMI2)) \
    IF_OUT_AMD64(X(amd64, "amd64", 0)) \
    IF_OUT_X86(X(x86, "x86", 0)) \
    IF_OUT_PPC32(X(ppc32, "ppc32", 0)) \
    IF_OUT_PPC64(X(ppc64, "ppc64", 0)) \
    IF_OUT_SPARC64(X(sparc64, "sparc64", 0)) \
    X(c, "c", 0) \
    X(ref, "ref", 0)

#define DECLARE_SALSA(ID, NAME, FEAT) \
    qhasm_salsa_blocks_fn qhasm_kernel_salsa20_##ID##_blocks, \
        qhasm_kernel_salsa12_##ID##_blocks, qhasm_kernel_salsa8_##ID##_blocks; \
    qhasm_salsa_core_fn qhasm_kernel_salsa20_##ID##_core, \
        qhasm_kernel_salsa12_##ID##_core, qhasm_kernel_salsa8_##ID##_core;
#define DECLARE_POLY1305(ID, NAME, FEAT) \
    qhasm_poly1305_init_fn qhasm_kernel_poly1305_##ID##_init; \
    qhasm_poly1305_blocks_fn qhasm_kernel_poly1305_##ID##_blocks; \
    qhasm_poly1305_final_fn qhasm_kernel_poly1305_##ID##_final;
SALSA_IMPLS(DECLARE_SALSA)
POLY1305_IMPLS(DECLARE_POLY1305)

#define ENTRY_SALSA20(ID, NAME, FEAT) \
    { NAME, FEAT, qhasm_kernel_salsa20_##ID##_blocks, qhasm_kernel_salsa20_##ID##_core },
#define ENTRY_SALSA12(ID, NAME, FEAT) \
    { NAME, FEAT, qhasm_kernel_salsa12_##ID##_blocks, qhasm_kernel_salsa12_##ID##_core },
#define ENTRY_SALSA8(ID, NAME, FEAT) \
    { NAME, FEAT, qhasm_kernel_salsa8_##ID##_blocks, qhasm_kernel_salsa8_##ID##_core },
#define ENTRY_POLY1305(ID, NAME, FEAT) \
    { NAME, FEAT, qhasm_kernel_poly1305_##ID##_init, qhasm_kernel_poly1305_##ID##_blocks, \
      qhasm_kernel_poly1305_##ID##_final },

static const qhasm_salsa_impl salsa20_impls[] = { SALSA_IMPLS(ENTRY_SALSA20) };
static const qhasm_salsa_impl salsa2012_impls[] = { SALSA_IMPLS(ENTRY_SALSA12) };
static const qhasm_salsa_impl salsa208_impls[] = { SALSA_IMPLS(ENTRY_SALSA8) };
static const qhasm_poly1305_impl poly1305_impls[] = { POLY1305_IMPLS(ENTRY_POLY1305) };

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const qhasm_salsa_impl *const salsa_tables[3] = {
    salsa20_impls, salsa2012_impls, salsa208_impls
};
static const int salsa_counts[3] = {
    COUNT(salsa20_impls), COUNT(salsa2012_impls), COUNT(salsa208_impls)
};
static const char *const prim_names[QHASM_NPRIMS] = {
    "salsa20", "salsa2012", "salsa208", "poly1305"
};

/* ---- table access ------------------------------------------------------ */
static int count_(int p)
{
    return p == QHASM_PRIM_POLY1305 ? COUNT(poly1305_impls) : salsa_counts[p];
}

static const char *name_(int p, int i)
{
    return p == QHASM_PRIM_POLY1305 ? poly1305_impls[i].name : salsa_tables[p][i].name;
}

static unsigned features_(int p, int i)
{
    return p == QHASM_PRIM_POLY1305 ? poly1305_impls[i].features : salsa_tables[p][i].features;
}

static int supported_(int p, int i)
{
    return (features_(p, i) & ~qhasm_cpu_features()) == 0;
}

/* names compare with '-' and '_' equivalent; n = length of a (a need not end) */
static int same_name(const char *a, size_t n, const char *b)
{
    size_t i;
    for (i = 0; i < n; i++) {
        char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];
        if (!y || x != y) return 0;
    }
    return b[n] == 0;
}

static int find_(int p, const char *name, size_t n)
{
    int i;
    for (i = 0; i < count_(p); i++)
        if (same_name(name, n, name_(p, i))) return i;
    return -1;
}

/* primitive of a name or alias (length n): "salsa20", "stream_salsa20_xor",
 * "crypto_core_hsalsa20", "xsalsa20", "onetimeauth_poly1305_verify", ... */
static int lookup_(const char *s, size_t n)
{
    static const char *const prefixes[] = { "qhasm_", "crypto_", "core_", "stream_", "onetimeauth_" };
    static const char *const suffixes[] = { "_xor_ic", "_xor", "_verify", "_init", "_update", "_final" };
    size_t i;
    int p, again = 1;
    while (again) {
        again = 0;
        for (i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
            size_t l = strlen(prefixes[i]);
            if (n > l && !strncmp(s, prefixes[i], l)) { s += l; n -= l; again = 1; }
        }
    }
    for (i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t l = strlen(suffixes[i]);
        if (n > l && !strncmp(s + n - l, suffixes[i], l)) { n -= l; break; }
    }
    if (n > 1 && (s[0] == 'h' || s[0] == 'x') && !strncmp(s + 1, "salsa", 5)) { s++; n--; }
    for (p = 0; p < QHASM_NPRIMS; p++)
        if (strlen(prim_names[p]) == n && !strncmp(s, prim_names[p], n)) return p;
    return -1;
}

int qhasm_prim_lookup(const char *prim)
{
    return prim ? lookup_(prim, strlen(prim)) : -1;
}

/* ---- selection ----------------------------------------------------------- */
/* sel[p] = index + 1 of the implementation in use, 0 = not chosen yet */
static int sel[QHASM_NPRIMS];

/* the implementation QHASM_IMPL asks for (-1: none): "prim=name" entries
 * win over plain "name" entries; entries are separated by ',' or spaces */
static int from_env(int p)
{
    const char *e = getenv("QHASM_IMPL");
    int specific = -1, global = -1;
    while (e && *e) {
        size_t n = strcspn(e, ", ");
        const char *eq = memchr(e, '=', n);
        if (eq) {
            if (lookup_(e, (size_t)(eq - e)) == p) {
                specific = find_(p, eq + 1, n - (size_t)(eq + 1 - e));
                if (specific < 0 || !supported_(p, specific)) {
                    fprintf(stderr, "qhasm: QHASM_IMPL: %.*s: %s; selecting automatically\n",
                            (int)n, e, specific < 0 ? "no such implementation" : "not supported by this CPU");
                    specific = -1;
                }
            }
        } else if (n && global < 0) {
            int i = find_(p, e, n);
            if (i >= 0 && supported_(p, i)) global = i;
        }
        e += n;
        while (*e == ',' || *e == ' ') e++;
    }
    return specific >= 0 ? specific : global;
}

static int select_(int p)
{
    int i = __atomic_load_n(&sel[p], __ATOMIC_ACQUIRE);
    if (i) return i - 1;
    i = from_env(p);
    if (i < 0)
        for (i = 0; i < count_(p) - 1 && !supported_(p, i); i++)
            ;   /* the last one (ref) needs nothing */
    __atomic_store_n(&sel[p], i + 1, __ATOMIC_RELEASE);   /* a race stores the same value */
    return i;
}

const qhasm_salsa_impl *qhasm_salsa_current(int p)
{
    return &salsa_tables[p][select_(p)];
}

const qhasm_poly1305_impl *qhasm_poly1305_current(void)
{
    return &poly1305_impls[select_(QHASM_PRIM_POLY1305)];
}

const qhasm_salsa_impl *qhasm_salsa_get(int p, int i)
{
    if (p < 0 || p > QHASM_PRIM_SALSA208 || i < 0 || i >= salsa_counts[p]) return NULL;
    return &salsa_tables[p][i];
}

const qhasm_poly1305_impl *qhasm_poly1305_get(int i)
{
    if (i < 0 || i >= COUNT(poly1305_impls)) return NULL;
    return &poly1305_impls[i];
}

/* ---- the public implementation-control API (qhasm.h) --------------------- */
const char *qhasm_prim_name(int j)
{
    return j >= 0 && j < QHASM_NPRIMS ? prim_names[j] : NULL;
}

int qhasm_impl_count(const char *prim)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 ? -1 : count_(p);
}

const char *qhasm_impl_name(const char *prim, int i)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 || i < 0 || i >= count_(p) ? NULL : name_(p, i);
}

int qhasm_impl_find(const char *prim, const char *name)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 || !name ? -1 : find_(p, name, strlen(name));
}

int qhasm_impl_supported(const char *prim, int i)
{
    int p = qhasm_prim_lookup(prim);
    return p >= 0 && i >= 0 && i < count_(p) && supported_(p, i);
}

const char *qhasm_impl_missing(const char *prim, int i)
{
    static _Thread_local char buf[160];
    int p = qhasm_prim_lookup(prim), b;
    unsigned missing;
    if (p < 0 || i < 0 || i >= count_(p)) return "no such implementation";
    missing = features_(p, i) & ~qhasm_cpu_features();
    buf[0] = 0;
    if (!missing) return buf;
    strcpy(buf, "missing");
    for (b = 0; b < QHASM_CPU_NFEATURES; b++)
        if (missing & (1u << b)) {
            strcat(buf, " ");
            strcat(buf, qhasm_cpu_feature_name(1u << b));
        }
    return buf;
}

int qhasm_impl_selected(const char *prim)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 ? -1 : select_(p);
}

int qhasm_impl_force(const char *prim, int i)
{
    int p = qhasm_prim_lookup(prim);
    if (p < 0) return -1;
    if (i == -1) {
        __atomic_store_n(&sel[p], 0, __ATOMIC_RELEASE);
        return 0;
    }
    if (i < 0 || i >= count_(p) || !supported_(p, i)) return -1;
    __atomic_store_n(&sel[p], i + 1, __ATOMIC_RELEASE);
    return 0;
}
