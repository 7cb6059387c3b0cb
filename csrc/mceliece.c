/* The public Classic McEliece arithmetic functions (qhasm.h): thin
 * wrappers that call the first kernel of mceliece_impls.h's preference
 * order the running CPU supports, chosen once per function on first use;
 * the reference C (csrc/ref/mceliece_ref.c) when none is linked in.
 * QHASM_MCELIECE_IMPL=name forces one implementation (or "ref").
 * Layouts and kernels: docs/mceliece.md. */
#include <stdlib.h>
#include <string.h>
#include "mceliece_impls.h"
#include "ref/mceliece_ref.h"

#define MCE_CAT_(a, b) a##b
#define MCE_CAT(a, b) MCE_CAT_(a, b)
#define MCE_WHEN_0(...)
#define MCE_WHEN_1(...) __VA_ARGS__
#define MCE_WHEN(c, ...) MCE_CAT(MCE_WHEN_, c)(__VA_ARGS__)

#define MCE_DECL_L(ID, M, V) \
    qhasm_mce_mul_fn qhasm_kernel_mceliece_gf##M##_##V##_mul_##ID; \
    qhasm_mce_un_fn qhasm_kernel_mceliece_gf##M##_##V##_sq_##ID; \
    qhasm_mce_un_fn qhasm_kernel_mceliece_gf##M##_##V##_inv_##ID;
#define MCE_DECL(ID, NAME, FEAT, L64, L256, L512) \
    MCE_WHEN(L64, MCE_DECL_L(ID, 12, vec) MCE_DECL_L(ID, 13, vec)) \
    MCE_WHEN(L256, MCE_DECL_L(ID, 12, vec256) MCE_DECL_L(ID, 13, vec256)) \
    MCE_WHEN(L512, MCE_DECL_L(ID, 12, vec512) MCE_DECL_L(ID, 13, vec512))
MCE_VEC_IMPLS(MCE_DECL)

#define MCE_ENTRY_L(ID, NAME, FEAT, M, L, V) \
    { NAME, FEAT, M, L, "mul", qhasm_kernel_mceliece_gf##M##_##V##_mul_##ID, NULL }, \
    { NAME, FEAT, M, L, "sq", NULL, qhasm_kernel_mceliece_gf##M##_##V##_sq_##ID }, \
    { NAME, FEAT, M, L, "inv", NULL, qhasm_kernel_mceliece_gf##M##_##V##_inv_##ID },
#define MCE_ENTRY(ID, NAME, FEAT, L64, L256, L512) \
    MCE_WHEN(L64, MCE_ENTRY_L(ID, NAME, FEAT, 12, 64, vec) MCE_ENTRY_L(ID, NAME, FEAT, 13, 64, vec)) \
    MCE_WHEN(L256, MCE_ENTRY_L(ID, NAME, FEAT, 12, 256, vec256) MCE_ENTRY_L(ID, NAME, FEAT, 13, 256, vec256)) \
    MCE_WHEN(L512, MCE_ENTRY_L(ID, NAME, FEAT, 12, 512, vec512) MCE_ENTRY_L(ID, NAME, FEAT, 13, 512, vec512))

const qhasm_mce_vec_kernel qhasm_mce_vec_kernels[] = {
    MCE_VEC_IMPLS(MCE_ENTRY)
    { NULL, 0, 0, 0, NULL, NULL, NULL }
};
const int qhasm_mce_vec_nkernels = (int)(sizeof qhasm_mce_vec_kernels / sizeof qhasm_mce_vec_kernels[0]) - 1;

#define MCE_TDECL(ID, NAME, FEAT) qhasm_mce_transpose_fn qhasm_kernel_mceliece_transpose_64x64_##ID;
MCE_TRANSPOSE_IMPLS(MCE_TDECL)
#define MCE_TENTRY(ID, NAME, FEAT) { NAME, FEAT, qhasm_kernel_mceliece_transpose_64x64_##ID },
const qhasm_mce_transpose_kernel qhasm_mce_transpose_kernels[] = {
    MCE_TRANSPOSE_IMPLS(MCE_TENTRY)
    { NULL, 0, NULL }
};
const int qhasm_mce_transpose_nkernels =
    (int)(sizeof qhasm_mce_transpose_kernels / sizeof qhasm_mce_transpose_kernels[0]) - 1;

/* the implementation a table entry of name impl with features feat is
 * usable under the forced name (QHASM_MCELIECE_IMPL) or the CPU */
static int usable(const char *impl, unsigned feat)
{
    const char *force = getenv("QHASM_MCELIECE_IMPL");
    if (force) return !strcmp(force, impl);
    return (feat & ~qhasm_cpu_features()) == 0;
}

static int forced_ref(void)
{
    const char *force = getenv("QHASM_MCELIECE_IMPL");
    return force && !strcmp(force, "ref");
}

void qhasm_mceliece_transpose_64x64(uint64_t *out, const uint64_t *in)
{
    static qhasm_mce_transpose_fn *fn;
    static int done;
    if (!done) {
        int i;
        for (i = 0; !forced_ref() && i < qhasm_mce_transpose_nkernels; i++)
            if (usable(qhasm_mce_transpose_kernels[i].impl, qhasm_mce_transpose_kernels[i].features)) {
                fn = qhasm_mce_transpose_kernels[i].fn;
                break;
            }
        done = 1;
    }
    if (fn) fn(out, in);
    else qhasm_ref_mceliece_transpose_64x64(out, in);
}

#define MCE_SDECL(ID, NAME, FEAT) \
    qhasm_mce_syndrome_fn qhasm_kernel_mceliece348864_syndrome_##ID, qhasm_kernel_mceliece6960119_syndrome_##ID;
MCE_SYNDROME_IMPLS(MCE_SDECL)
#define MCE_SENTRY(ID, NAME, FEAT) \
    { NAME, FEAT, 0, qhasm_kernel_mceliece348864_syndrome_##ID }, \
    { NAME, FEAT, 1, qhasm_kernel_mceliece6960119_syndrome_##ID },
const qhasm_mce_syndrome_kernel qhasm_mce_syndrome_kernels[] = {
    MCE_SYNDROME_IMPLS(MCE_SENTRY)
    { NULL, 0, 0, NULL }
};
const int qhasm_mce_syndrome_nkernels =
    (int)(sizeof qhasm_mce_syndrome_kernels / sizeof qhasm_mce_syndrome_kernels[0]) - 1;

static qhasm_mce_syndrome_fn *pick_syndrome(int set)
{
    int i;
    for (i = 0; !forced_ref() && i < qhasm_mce_syndrome_nkernels; i++)
        if (qhasm_mce_syndrome_kernels[i].set == set &&
            usable(qhasm_mce_syndrome_kernels[i].impl, qhasm_mce_syndrome_kernels[i].features))
            return qhasm_mce_syndrome_kernels[i].fn;
    return NULL;
}

void qhasm_mceliece348864_syndrome(unsigned char *s, const unsigned char *pk, const unsigned char *e)
{
    static qhasm_mce_syndrome_fn *fn;
    static int done;
    if (!done) { fn = pick_syndrome(0); done = 1; }
    if (fn) fn(s, pk, e);
    else qhasm_ref_mceliece_syndrome(&qhasm_ref_mceliece348864, s, pk, e);
}

void qhasm_mceliece6960119_syndrome(unsigned char *s, const unsigned char *pk, const unsigned char *e)
{
    static qhasm_mce_syndrome_fn *fn;
    static int done;
    if (!done) { fn = pick_syndrome(1); done = 1; }
    if (fn) fn(s, pk, e);
    else qhasm_ref_mceliece_syndrome(&qhasm_ref_mceliece6960119, s, pk, e);
}

#define MCE_GDECL(ID, NAME, FEAT) \
    qhasm_mce_gfmul_fn qhasm_kernel_mceliece_gf12_mul_##ID, qhasm_kernel_mceliece_gf13_mul_##ID; \
    qhasm_mce_gfinv_fn qhasm_kernel_mceliece_gf12_inv_##ID, qhasm_kernel_mceliece_gf13_inv_##ID;
MCE_GF_IMPLS(MCE_GDECL)
#define MCE_GENTRY(ID, NAME, FEAT) \
    { NAME, FEAT, 12, qhasm_kernel_mceliece_gf12_mul_##ID, qhasm_kernel_mceliece_gf12_inv_##ID }, \
    { NAME, FEAT, 13, qhasm_kernel_mceliece_gf13_mul_##ID, qhasm_kernel_mceliece_gf13_inv_##ID },
const qhasm_mce_gf_kernel qhasm_mce_gf_kernels[] = {
    MCE_GF_IMPLS(MCE_GENTRY)
    { NULL, 0, 0, NULL, NULL }
};
const int qhasm_mce_gf_nkernels = (int)(sizeof qhasm_mce_gf_kernels / sizeof qhasm_mce_gf_kernels[0]) - 1;

static const qhasm_mce_gf_kernel *pick_gf(int m)
{
    int i;
    for (i = 0; !forced_ref() && i < qhasm_mce_gf_nkernels; i++)
        if (qhasm_mce_gf_kernels[i].m == m && usable(qhasm_mce_gf_kernels[i].impl, qhasm_mce_gf_kernels[i].features))
            return &qhasm_mce_gf_kernels[i];
    return NULL;
}

/* the reference is not constant time (square-and-multiply branches on the
 * public exponent only; gf_mul branches on b): it is the fallback of a
 * build without kernels, and the tests' oracle */
#define MCE_GF(M) \
    uint16_t qhasm_mceliece_gf##M##_mul(uint16_t a, uint16_t b) \
    { \
        static const qhasm_mce_gf_kernel *k; \
        static int done; \
        if (!done) { k = pick_gf(M); done = 1; } \
        return k ? k->mul(a, b) : qhasm_ref_mceliece_gf_mul(M, a, b); \
    } \
    uint16_t qhasm_mceliece_gf##M##_inv(uint16_t a) \
    { \
        static const qhasm_mce_gf_kernel *k; \
        static int done; \
        if (!done) { k = pick_gf(M); done = 1; } \
        return k ? k->inv(a) : qhasm_ref_mceliece_gf_inv(M, a); \
    }
MCE_GF(12)
MCE_GF(13)

/* the kernel for (m, lanes, op): the first supported one, or NULL (ref) */
static const qhasm_mce_vec_kernel *pick(int m, int lanes, const char *op)
{
    int i;
    if (forced_ref()) return NULL;
    for (i = 0; i < qhasm_mce_vec_nkernels; i++) {
        const qhasm_mce_vec_kernel *k = &qhasm_mce_vec_kernels[i];
        if (k->m == m && k->lanes == lanes && !strcmp(k->op, op) && usable(k->impl, k->features)) return k;
    }
    return NULL;
}

/* one public function: a cached kernel pointer, the reference otherwise */
#define MCE_MUL(M, L, V) \
    void qhasm_mceliece_gf##M##_##V##_mul(uint64_t *h, const uint64_t *f, const uint64_t *g) \
    { \
        static const qhasm_mce_vec_kernel *k; \
        static int done; \
        if (!done) { k = pick(M, L, "mul"); done = 1; } \
        if (k) k->mul(h, f, g); \
        else qhasm_ref_mceliece_vec_mul(M, L, h, f, g); \
    }
#define MCE_UN(M, L, V, OP) \
    void qhasm_mceliece_gf##M##_##V##_##OP(uint64_t *h, const uint64_t *f) \
    { \
        static const qhasm_mce_vec_kernel *k; \
        static int done; \
        if (!done) { k = pick(M, L, #OP); done = 1; } \
        if (k) k->un(h, f); \
        else qhasm_ref_mceliece_vec_##OP(M, L, h, f); \
    }
#define MCE_ALL(M, L, V) MCE_MUL(M, L, V) MCE_UN(M, L, V, sq) MCE_UN(M, L, V, inv)
MCE_ALL(12, 64, vec)
MCE_ALL(13, 64, vec)
MCE_ALL(12, 256, vec256)
MCE_ALL(13, 256, vec256)
MCE_ALL(12, 512, vec512)
MCE_ALL(13, 512, vec512)
