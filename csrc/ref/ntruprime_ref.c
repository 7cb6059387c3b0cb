/* Streamlined NTRU Prime reference arithmetic, written from the NTRU Prime
 * specification (Bernstein, Chuengsatiansup, Lange, van Vredendaal et al.,
 * "NTRU Prime", NIST round-3 submission, section "Streamlined NTRU Prime"):
 *
 *   R   = Z[x]/(x^p - x - 1)
 *   R/q = (Z/q)[x]/(x^p - x - 1), elements of Z/q written in
 *         -(q-1)/2 .. (q-1)/2 ("Freeze")
 *   R/3 = (Z/3)[x]/(x^p - x - 1), elements written in -1, 0, 1
 *
 * and the SUPERCOP crypto_core byte layouts (docs/ntruprime.md):
 *   multsntrupP:  in  = p little-endian int16 (any value; reduced mod q),
 *                 k   = p bytes, small g: low two bits 0 or 2 -> 0,
 *                       1 -> +1, 3 -> -1,
 *                 out = f*g in R/q, p little-endian int16, frozen.
 *   mult3sntrupP: in and k both p bytes mapped as k above,
 *                 out = f*g in R/3, p bytes (int8) in {-1, 0, 1}.
 *
 * Simple, slow and independent of the generated kernels: schoolbook in
 * 64-bit integers over Z (no overflow for any input), then reduction modulo
 * x^p - x - 1 by x^i = x^(i-p+1) + x^(i-p) from the top, then one reduction
 * of each coefficient.  Outputs may alias inputs (everything is read into
 * local arrays first). */
#include <stdint.h>
#include "ref.h"

#define NTRU_MAXP 1024

/* x mod m in -(m-1)/2 .. (m-1)/2, for odd m > 0 and any x */
static int64_t freeze_mod(int64_t x, int64_t m)
{
    int64_t r = x % m;          /* C99: sign of x, |r| < m */
    int64_t h = (m - 1) / 2;
    /* without branches (qhasm-test --valgrind-ct checks the reference too):
     * (h - r) >> 63 is all ones exactly when r > h (arithmetic shift) */
    r -= m & ((h - r) >> 63);
    r += m & ((r + h) >> 63);
    return r;
}

/* a small coefficient from one byte of the SUPERCOP layout */
static int64_t small_of_byte(unsigned char b)
{
    int64_t t = b & 3;          /* 1 -> 1, 3 -> -1, 0 and 2 -> 0, without branches */
    return (t & 1) - 2 * ((t >> 1) & t & 1);
}

/* h = f*g in Z[x]/(x^p - x - 1) (unreduced coefficients), p <= NTRU_MAXP */
static void ring_mul(int64_t *h, const int64_t *f, const int64_t *g, int p)
{
    int64_t prod[2 * NTRU_MAXP];
    int i, j;
    for (i = 0; i < 2 * p - 1; i++) prod[i] = 0;
    for (i = 0; i < p; i++)
        for (j = 0; j < p; j++) prod[i + j] += f[i] * g[j];
    /* x^i = x^(i-p) * x^p = x^(i-p) * (x + 1) for i >= p, from the top down
     * so that every folded term lands below index i */
    for (i = 2 * p - 2; i >= p; i--) {
        prod[i - p + 1] += prod[i];
        prod[i - p] += prod[i];
        prod[i] = 0;
    }
    for (i = 0; i < p; i++) h[i] = prod[i];
}

int qhasm_ref_core_multsntrup(unsigned char *out, const unsigned char *in,
                              const unsigned char *k, int p, int q)
{
    int64_t f[NTRU_MAXP] = {0}, g[NTRU_MAXP] = {0}, h[NTRU_MAXP];
    int i;
    if (p < 2 || p > NTRU_MAXP || q < 3 || (q & 1) == 0) return -1;
    for (i = 0; i < p; i++) {
        int16_t v = (int16_t)(uint16_t)(in[2 * i] | (in[2 * i + 1] << 8));
        f[i] = freeze_mod(v, q);
        g[i] = small_of_byte(k[i]);
    }
    ring_mul(h, f, g, p);
    for (i = 0; i < p; i++) {
        uint16_t u = (uint16_t)(int16_t)freeze_mod(h[i], q);
        out[2 * i] = (unsigned char)(u & 255);
        out[2 * i + 1] = (unsigned char)(u >> 8);
    }
    return 0;
}

int qhasm_ref_core_mult3sntrup(unsigned char *out, const unsigned char *in,
                               const unsigned char *k, int p)
{
    int64_t f[NTRU_MAXP] = {0}, g[NTRU_MAXP] = {0}, h[NTRU_MAXP];
    int i;
    if (p < 2 || p > NTRU_MAXP) return -1;
    for (i = 0; i < p; i++) {
        f[i] = small_of_byte(in[i]);
        g[i] = small_of_byte(k[i]);
    }
    ring_mul(h, f, g, p);
    for (i = 0; i < p; i++) out[i] = (unsigned char)(int8_t)freeze_mod(h[i], 3);
    return 0;
}

/* the ref kernels as the manifest names them (specs/kernels.conf: symbol
 * core_<fn>sntrup<p>, kernel mul), with the public function's arguments */
#define NTRU_REF_KERNELS(P, Q) \
    void qhasm_kernel_core_multsntrup##P##_ref_mul(unsigned char *out, const unsigned char *in, \
                                                  const unsigned char *k, const unsigned char *c) \
    { (void)c; qhasm_ref_core_multsntrup(out, in, k, P, Q); } \
    void qhasm_kernel_core_mult3sntrup##P##_ref_mul(unsigned char *out, const unsigned char *in, \
                                                   const unsigned char *k, const unsigned char *c) \
    { (void)c; qhasm_ref_core_mult3sntrup(out, in, k, P); }
NTRU_REF_KERNELS(653, 4621)
NTRU_REF_KERNELS(761, 4591)
NTRU_REF_KERNELS(857, 5167)
