/* ntruprime_impl.h: the Streamlined NTRU Prime kernel interface and the
 * implementation table behind csrc/ntruprime.c (until the kernel manifest,
 * specs/kernels.conf, generates it).  See docs/ntruprime.md.
 *
 * Every implementation IMPL and parameter set P provides
 *   void qhasm_kernel_core_multsntrupP_IMPL(unsigned char *out,
 *            const unsigned char *in, const unsigned char *k);
 *     out (2P bytes) = f*g in R/q, frozen, for f = in (P little-endian
 *     int16, any values) and g = k (P bytes, low two bits 1 -> +1,
 *     3 -> -1, else 0);
 *   void qhasm_kernel_core_mult3sntrupP_IMPL(out, in, k);
 *     out (P bytes, int8 in {-1,0,1}) = f*g in R/3, f = in and g = k
 *     (P bytes each, mapped as k above).
 * out may alias in or k (the kernels read both inputs first). */
#ifndef QHASM_NTRUPRIME_IMPL_H
#define QHASM_NTRUPRIME_IMPL_H

typedef void qhasm_ntru_fn(unsigned char *out, const unsigned char *in,
                           const unsigned char *k);
/* the integer kernels of ppc64 and sparc64 take their work area (at most
 * QHASM_NTRU_WORK_BYTES, 16-byte aligned) as a fourth argument: those
 * targets' frames cannot hold it (gen/ntruprime.py WORK_BYTES) */
typedef void qhasm_ntru_work_fn(unsigned char *out, const unsigned char *in,
                                const unsigned char *k, void *work);
#define QHASM_NTRU_WORK_BYTES 622592

#define QHASM_NTRU_NPARAMS 3     /* p = 653, 761, 857 */

typedef struct {
    const char *name;               /* "ref", "amd64-avx2", ... */
    unsigned features;              /* QHASM_CPU_* bits required */
    qhasm_ntru_fn *mult[QHASM_NTRU_NPARAMS];
    qhasm_ntru_fn *mult3[QHASM_NTRU_NPARAMS];
} qhasm_ntru_impl;

extern const int qhasm_ntru_p[QHASM_NTRU_NPARAMS];
extern const int qhasm_ntru_q[QHASM_NTRU_NPARAMS];

int qhasm_ntru_impl_count(void);
const qhasm_ntru_impl *qhasm_ntru_impl_get(int i);     /* NULL if out of range */
int qhasm_ntru_impl_supported(int i);                  /* runnable on this CPU */
/* the implementation the public functions use: the first supported one in
 * table order, or the one named by QHASM_NTRU_IMPL, or forced here */
int qhasm_ntru_impl_selected(void);
int qhasm_ntru_impl_force(int i);                      /* -1 if unsupported */

#endif
