/* Reference C for the Classic McEliece arithmetic kernels, written from the
 * Classic McEliece specification ("Classic McEliece: conservative code-based
 * cryptography", the parameter sets and the ISO draft transcribed as
 * draft-josefsson-mceliece):
 *   - the field F_q, q = 2^m, is F_2[z]/f(z) with f(z) = z^12 + z^3 + 1 for
 *     m = 12 (mceliece348864) and z^13 + z^4 + z^3 + z + 1 for m = 13
 *     (mceliece460896, 6688128, 6960119, 8192128); an element is the
 *     integer sum of c_i 2^i for c_0 + c_1 z + ... + c_{m-1} z^{m-1};
 *   - the public key is T, an mt x k matrix (k = n - mt), H = (I_mt | T);
 *     it is stored row by row, each row in ceil(k/8) bytes, column j of a
 *     row in bit j%8 (least significant first) of byte j/8, the unused high
 *     bits of a row's last byte zero;
 *   - a vector of n bits (the error vector e) is n/8 bytes, bit j in bit
 *     j%8 of byte j/8; the syndrome C0 = He (mt bits) likewise in
 *     ceil(mt/8) bytes, the unused high bits of the last byte zero.
 * Element by element: simple, slow, independent of the bitsliced kernels. */
#include <string.h>
#include "ref/mceliece_ref.h"

uint32_t qhasm_ref_mceliece_modulus(int m)
{
    return m == 12 ? 0x1009u                                 /* z^12 + z^3 + 1 */
                   : 0x201Bu;                                /* z^13 + z^4 + z^3 + z + 1 */
}

uint16_t qhasm_ref_mceliece_gf_mul(int m, uint16_t a, uint16_t b)
{
    uint32_t mask = (1u << m) - 1, p = 0, f = qhasm_ref_mceliece_modulus(m);
    int i;
    a &= mask;
    b &= mask;
    /* without branches on the data (qhasm-test --valgrind-ct checks the
     * reference too): masks instead of tests */
    for (i = 0; i < m; i++)                 /* carry-less product, degree <= 2m-2 */
        p ^= ((uint32_t)a << i) & (0u - (((uint32_t)b >> i) & 1));
    for (i = 2 * m - 2; i >= m; i--)        /* reduce modulo f, top down */
        p ^= (f << (i - m)) & (0u - ((p >> i) & 1));
    return (uint16_t)p;
}

uint16_t qhasm_ref_mceliece_gf_inv(int m, uint16_t a)
{
    /* a^(q-2) by square-and-multiply over the bits of q-2 = 2^m - 2 */
    uint32_t e = (1u << m) - 2;
    uint16_t r = 1, x = a;
    while (e) {
        if (e & 1) r = qhasm_ref_mceliece_gf_mul(m, r, x);
        x = qhasm_ref_mceliece_gf_mul(m, x, x);
        e >>= 1;
    }
    return (uint16_t)(r & ((1u << m) - 1));
}

uint16_t qhasm_ref_mceliece_get(int m, int lanes, const uint64_t *v, int e)
{
    int w = lanes / 64, i;
    uint16_t x = 0;
    for (i = 0; i < m; i++) x |= (uint16_t)(((v[w * i + e / 64] >> (e % 64)) & 1) << i);
    return x;
}

void qhasm_ref_mceliece_set(int m, int lanes, uint64_t *v, int e, uint16_t x)
{
    int w = lanes / 64, i;
    for (i = 0; i < m; i++) {
        uint64_t *p = &v[w * i + e / 64];
        *p = (*p & ~((uint64_t)1 << (e % 64))) | ((uint64_t)((x >> i) & 1) << (e % 64));
    }
}

/* op 0: f*g, 1: f^2, 2: f^(q-2); all lanes read before h is written */
static void vec_op(int m, int lanes, uint64_t *h, const uint64_t *f, const uint64_t *g, int op)
{
    uint16_t r[512];
    int e;
    for (e = 0; e < lanes; e++) {
        uint16_t a = qhasm_ref_mceliece_get(m, lanes, f, e);
        if (op == 0) r[e] = qhasm_ref_mceliece_gf_mul(m, a, qhasm_ref_mceliece_get(m, lanes, g, e));
        else if (op == 1) r[e] = qhasm_ref_mceliece_gf_mul(m, a, a);
        else r[e] = qhasm_ref_mceliece_gf_inv(m, a);
    }
    for (e = 0; e < lanes; e++) qhasm_ref_mceliece_set(m, lanes, h, e, r[e]);
}

void qhasm_ref_mceliece_vec_mul(int m, int lanes, uint64_t *h, const uint64_t *f, const uint64_t *g)
{
    vec_op(m, lanes, h, f, g, 0);
}

void qhasm_ref_mceliece_vec_sq(int m, int lanes, uint64_t *h, const uint64_t *f)
{
    vec_op(m, lanes, h, f, f, 1);
}

void qhasm_ref_mceliece_vec_inv(int m, int lanes, uint64_t *h, const uint64_t *f)
{
    vec_op(m, lanes, h, f, f, 2);
}

void qhasm_ref_mceliece_transpose_64x64(uint64_t out[64], const uint64_t in[64])
{
    uint64_t t[64];
    int i, j;
    memset(t, 0, sizeof t);
    for (i = 0; i < 64; i++)
        for (j = 0; j < 64; j++) t[i] |= ((in[j] >> i) & 1) << j;
    memcpy(out, t, sizeof t);
}

/* mceliece348864: m = 12, t = 64, n = 3488; mceliece6960119: m = 13,
 * t = 119, n = 6960 */
const qhasm_ref_mceliece_params qhasm_ref_mceliece348864 = { "mceliece348864", 3488, 12 * 64 };
const qhasm_ref_mceliece_params qhasm_ref_mceliece6960119 = { "mceliece6960119", 6960, 13 * 119 };

int qhasm_ref_mceliece_row_bytes(const qhasm_ref_mceliece_params *p) { return (p->n - p->mt + 7) / 8; }
int qhasm_ref_mceliece_pk_bytes(const qhasm_ref_mceliece_params *p) { return p->mt * qhasm_ref_mceliece_row_bytes(p); }
int qhasm_ref_mceliece_e_bytes(const qhasm_ref_mceliece_params *p) { return p->n / 8; }
int qhasm_ref_mceliece_s_bytes(const qhasm_ref_mceliece_params *p) { return (p->mt + 7) / 8; }

static int bit(const unsigned char *v, int j) { return (v[j / 8] >> (j % 8)) & 1; }

void qhasm_ref_mceliece_syndrome(const qhasm_ref_mceliece_params *p, unsigned char *s,
                                 const unsigned char *pk, const unsigned char *e)
{
    /* e' = (e_mt, ..., e_(n-1)) re-packed from bit 0 of a byte string, so
     * that row i of T and e' meet byte by byte: bit j of T_i is bit j%8 of
     * byte j/8 of the row (the pad bits of a row's last byte meet the zero
     * bits of e' beyond k) */
    unsigned char r[256], ep[1024];
    int k = p->n - p->mt, rb = qhasm_ref_mceliece_row_bytes(p), i, j;
    memset(r, 0, sizeof r);
    memset(ep, 0, sizeof ep);
    for (j = 0; j < k; j++) ep[j / 8] |= (unsigned char)(bit(e, p->mt + j) << (j % 8));
    for (i = 0; i < p->mt; i++) {
        const unsigned char *row = pk + (long)i * rb;
        unsigned char x = 0;
        int b = bit(e, i);                  /* the identity part */
        for (j = 0; j < rb; j++) x ^= row[j] & ep[j];
        for (j = 0; j < 8; j++) b ^= (x >> j) & 1;
        r[i / 8] |= (unsigned char)(b << (i % 8));
    }
    memcpy(s, r, (size_t)qhasm_ref_mceliece_s_bytes(p));
}

/* ---- the ref kernels of the manifest's primitives (specs/kernels.conf):
 * qhasm_kernel_<primitive>_ref_<kernel>, the public functions' arguments */
#define REF_VEC(M, L, V) \
    void qhasm_kernel_mceliece_gf##M##_##V##_mul_ref_mul(uint64_t *h, const uint64_t *f, const uint64_t *g); \
    void qhasm_kernel_mceliece_gf##M##_##V##_mul_ref_mul(uint64_t *h, const uint64_t *f, const uint64_t *g) \
    { qhasm_ref_mceliece_vec_mul(M, L, h, f, g); } \
    void qhasm_kernel_mceliece_gf##M##_##V##_sq_ref_sq(uint64_t *h, const uint64_t *f); \
    void qhasm_kernel_mceliece_gf##M##_##V##_sq_ref_sq(uint64_t *h, const uint64_t *f) \
    { qhasm_ref_mceliece_vec_sq(M, L, h, f); } \
    void qhasm_kernel_mceliece_gf##M##_##V##_inv_ref_inv(uint64_t *h, const uint64_t *f); \
    void qhasm_kernel_mceliece_gf##M##_##V##_inv_ref_inv(uint64_t *h, const uint64_t *f) \
    { qhasm_ref_mceliece_vec_inv(M, L, h, f); }
REF_VEC(12, 64, vec)
REF_VEC(13, 64, vec)
REF_VEC(12, 256, vec256)
REF_VEC(13, 256, vec256)
REF_VEC(12, 512, vec512)
REF_VEC(13, 512, vec512)

void qhasm_kernel_mceliece_transpose_64x64_ref_transpose(uint64_t *out, const uint64_t *in);
void qhasm_kernel_mceliece_transpose_64x64_ref_transpose(uint64_t *out, const uint64_t *in)
{
    qhasm_ref_mceliece_transpose_64x64(out, in);
}

#define REF_GF(M) \
    void qhasm_kernel_mceliece_gf##M##_mul_ref_mul(uint16_t *c, const uint16_t *a, const uint16_t *b); \
    void qhasm_kernel_mceliece_gf##M##_mul_ref_mul(uint16_t *c, const uint16_t *a, const uint16_t *b) \
    { *c = qhasm_ref_mceliece_gf_mul(M, *a, *b); } \
    void qhasm_kernel_mceliece_gf##M##_inv_ref_inv(uint16_t *c, const uint16_t *a); \
    void qhasm_kernel_mceliece_gf##M##_inv_ref_inv(uint16_t *c, const uint16_t *a) \
    { *c = qhasm_ref_mceliece_gf_inv(M, *a); }
REF_GF(12)
REF_GF(13)

void qhasm_kernel_mceliece348864_syndrome_ref_syndrome(unsigned char *s, const unsigned char *pk, const unsigned char *e);
void qhasm_kernel_mceliece348864_syndrome_ref_syndrome(unsigned char *s, const unsigned char *pk, const unsigned char *e)
{
    qhasm_ref_mceliece_syndrome(&qhasm_ref_mceliece348864, s, pk, e);
}
void qhasm_kernel_mceliece6960119_syndrome_ref_syndrome(unsigned char *s, const unsigned char *pk, const unsigned char *e);
void qhasm_kernel_mceliece6960119_syndrome_ref_syndrome(unsigned char *s, const unsigned char *pk, const unsigned char *e)
{
    qhasm_ref_mceliece_syndrome(&qhasm_ref_mceliece6960119, s, pk, e);
}
