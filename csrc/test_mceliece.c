/* qhasm-test's structured checks of the Classic McEliece primitives (the
 * manifest's `check csrc/test_mceliece.c:FUNCTION` lines), run after the
 * fixed family's generic checks (random inputs against ref, canaries,
 * alignments, aliasing, ABI, --valgrind-ct), in the child process, with
 * implementation i of primitive p forced.  Parameters from the manifest's
 * `param` lines (m, lanes, op; set).  Layouts: docs/mceliece.md.
 *
 *   vec:       zero, one, all-ones, powers of the generator x in every lane,
 *              single bit-words z^i; h = f and h = g; for inv every element
 *              of the field, with inv(a) * a = 1
 *   transpose: every single bit, identity, twice is the identity, in place
 *   gf:        every a (with garbage high bits) against a set of b; inv of
 *              every element with a * inv(a) = 1
 *   syndrome:  weight-t error vectors, single columns, s aliasing e and pk */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "ref/mceliece_ref.h"

int qhasm_test_mceliece_vec(int p, int i);
int qhasm_test_mceliece_transpose(int p, int i);
int qhasm_test_mceliece_gf(int p, int i);
int qhasm_test_mceliece_syndrome(int p, int i);

#define MAXW (13 * 8)
typedef void mul_fn(uint64_t *h, const uint64_t *f, const uint64_t *g);
typedef void un_fn(uint64_t *h, const uint64_t *f);

/* one call of the vector kernel, h aliasing f (alias 1), g (2) or neither,
 * against the reference */
static int vec_one(int p, int i, int m, int lanes, const char *op, const uint64_t *f, const uint64_t *g,
                   int alias, const char *what)
{
    int words = m * lanes / 64, e;
    uint64_t bf[MAXW], bg[MAXW], bh[MAXW], want[MAXW], *ph;
    qhasm_fn *k = qhasm_prims[p].impls[i].fn[0];
    memcpy(bf, f, (size_t)words * 8);
    memcpy(bg, g, (size_t)words * 8);
    ph = alias == 1 ? bf : alias == 2 ? bg : bh;
    if (!strcmp(op, "mul")) {
        qhasm_ref_mceliece_vec_mul(m, lanes, want, f, g);
        ((mul_fn *)k)(ph, bf, bg);
    } else if (!strcmp(op, "sq")) {
        qhasm_ref_mceliece_vec_sq(m, lanes, want, f);
        ((un_fn *)k)(ph, bf);
    } else {
        qhasm_ref_mceliece_vec_inv(m, lanes, want, f);
        ((un_fn *)k)(ph, bf);
    }
    for (e = 0; e < lanes; e++) {
        uint16_t x = qhasm_ref_mceliece_get(m, lanes, ph, e), y = qhasm_ref_mceliece_get(m, lanes, want, e);
        if (x != y)
            return fail("%s%s: lane %d is 0x%x, expected 0x%x", what,
                        alias == 1 ? " (h = f)" : alias == 2 ? " (h = g)" : "", e, x, y);
    }
    return 0;
}

static int vec_all(int p, int i, int m, int lanes, const char *op, const uint64_t *f, const uint64_t *g,
                   const char *what)
{
    return vec_one(p, i, m, lanes, op, f, g, 0, what) || vec_one(p, i, m, lanes, op, f, g, 1, what) ||
           (!strcmp(op, "mul") && vec_one(p, i, m, lanes, op, f, g, 2, what));
}

/* lane e = x^(e + off) */
static void powers(int m, int lanes, uint64_t *v, int off)
{
    uint16_t x = 1;
    int e;
    for (e = 0; e < off; e++) x = qhasm_ref_mceliece_gf_mul(m, x, 2);
    for (e = 0; e < lanes; e++) {
        qhasm_ref_mceliece_set(m, lanes, v, e, x);
        x = qhasm_ref_mceliece_gf_mul(m, x, 2);
    }
}

int qhasm_test_mceliece_vec(int p, int i)
{
    int m = (int)qhasm_prim_param_long(p, "m", 12), lanes = (int)qhasm_prim_param_long(p, "lanes", 64);
    const char *op = qhasm_prim_param(p, "op");
    int words = m * lanes / 64, w = lanes / 64, j, k, base, e;
    uint64_t f[MAXW], g[MAXW], one[MAXW], h[MAXW];
    qhasm_fn *fn = qhasm_prims[p].impls[i].fn[0];
    stage("mceliece structured inputs");
    memset(one, 0, sizeof one);
    for (e = 0; e < lanes; e++) qhasm_ref_mceliece_set(m, lanes, one, e, 1);
    memset(f, 0, sizeof f);
    if (vec_all(p, i, m, lanes, op, f, f, "zero") || vec_all(p, i, m, lanes, op, one, one, "one")) return 1;
    memset(f, 0xff, sizeof f);
    if (vec_all(p, i, m, lanes, op, f, f, "all-ones") || vec_all(p, i, m, lanes, op, f, one, "all-ones * one"))
        return 1;
    for (j = 0; j < 8; j++) {
        powers(m, lanes, f, j * 97);
        powers(m, lanes, g, j * 131 + 5);
        if (vec_all(p, i, m, lanes, op, f, g, "powers of x")) return 1;
    }
    for (j = 0; j < m; j++) {                  /* z^j in every lane */
        memset(f, 0, sizeof f);
        for (k = 0; k < w; k++) f[w * j + k] = ~0ull;
        for (k = 0; k < words; k++) g[k] = rnd();
        if (vec_all(p, i, m, lanes, op, f, g, "z^j")) return 1;
    }
    if (strcmp(op, "inv")) return 0;
    stage("mceliece inversion of every element");
    for (base = 0; base < (1 << m); base += lanes) {
        for (e = 0; e < lanes; e++) qhasm_ref_mceliece_set(m, lanes, f, e, (uint16_t)((base + e) & ((1 << m) - 1)));
        if (vec_one(p, i, m, lanes, op, f, f, 0, "every element")) return 1;
        ((un_fn *)fn)(h, f);
        for (e = 0; e < lanes; e++) {
            uint16_t a = qhasm_ref_mceliece_get(m, lanes, f, e), r = qhasm_ref_mceliece_get(m, lanes, h, e);
            if (qhasm_ref_mceliece_gf_mul(m, a, r) != (a != 0)) return fail("inv(0x%x) * 0x%x != 1", a, a);
        }
    }
    return 0;
}

int qhasm_test_mceliece_transpose(int p, int i)
{
    uint64_t in[64], out[64], back[64], want[64];
    un_fn *k = (un_fn *)qhasm_prims[p].impls[i].fn[0];
    int a, b, r;
    stage("mceliece transpose: single bits, identity, twice, in place");
    for (a = 0; a < 64; a++)
        for (b = 0; b < 64; b++) {
            memset(in, 0, sizeof in);
            in[a] = 1ull << b;
            k(out, in);
            qhasm_ref_mceliece_transpose_64x64(want, in);
            if (memcmp(out, want, sizeof out)) return fail("the single bit in[%d] bit %d", a, b);
        }
    for (a = 0; a < 64; a++) in[a] = 1ull << a;
    k(out, in);
    if (memcmp(out, in, sizeof out)) return fail("the identity is not its own transpose");
    for (r = 0; r < 200; r++) {
        for (a = 0; a < 64; a++) in[a] = rnd();
        k(out, in);
        k(back, out);
        if (memcmp(back, in, sizeof in)) return fail("transposed twice is not the input");
        memcpy(back, in, sizeof in);
        k(back, back);
        if (memcmp(back, out, sizeof out)) return fail("in place differs");
    }
    return 0;
}

typedef void gfmul_fn(uint16_t *c, const uint16_t *a, const uint16_t *b);
typedef void gfinv_fn(uint16_t *c, const uint16_t *a);

int qhasm_test_mceliece_gf(int p, int i)
{
    int m = (int)qhasm_prim_param_long(p, "m", 12), mul = !strcmp(qhasm_prim_param(p, "op"), "mul"), j;
    qhasm_fn *fn = qhasm_prims[p].impls[i].fn[0];
    static const uint16_t bs[] = { 0, 1, 2, 3, 0x800, 0x1000, 0xfff, 0x1fff, 0x1234, 0xabc };
    uint32_t a;
    stage("mceliece every element");
    for (a = 0; a < (1u << m); a++) {
        uint16_t x = (uint16_t)(a | (0xffffu << m)), c;   /* garbage high bits are ignored */
        if (mul) {
            for (j = 0; j < (int)(sizeof bs / sizeof bs[0]); j++) {
                uint16_t b = bs[j];
                ((gfmul_fn *)fn)(&c, &x, &b);
                if (c != qhasm_ref_mceliece_gf_mul(m, (uint16_t)a, b))
                    return fail("gf%d_mul(0x%x, 0x%x) = 0x%x", m, a, b, c);
            }
        } else {
            ((gfinv_fn *)fn)(&c, &x);
            if (c != qhasm_ref_mceliece_gf_inv(m, (uint16_t)a) || qhasm_ref_mceliece_gf_mul(m, (uint16_t)a, c) != (a != 0))
                return fail("gf%d_inv(0x%x) = 0x%x", m, a, c);
        }
    }
    return 0;
}

typedef void syn_fn(unsigned char *s, const unsigned char *pk, const unsigned char *e);

/* s at its own buffer, or aliasing e (alias 1) or pk (2) */
static int syn_one(int p, int i, const qhasm_ref_mceliece_params *par, const unsigned char *pk,
                   const unsigned char *e, int alias, const char *what)
{
    int pkb = qhasm_ref_mceliece_pk_bytes(par), eb = qhasm_ref_mceliece_e_bytes(par), sb = qhasm_ref_mceliece_s_bytes(par);
    unsigned char *bpk = malloc((size_t)pkb), be[1024], bs[256], want[256], *ps;
    long d;
    if (!bpk) die("malloc");
    memcpy(bpk, pk, (size_t)pkb);
    memcpy(be, e, (size_t)eb);
    ps = alias == 1 ? be : alias == 2 ? bpk : bs;
    qhasm_ref_mceliece_syndrome(par, want, pk, e);
    ((syn_fn *)qhasm_prims[p].impls[i].fn[0])(ps, bpk, be);
    d = diffat(ps, want, (size_t)sb);
    free(bpk);
    if (d >= 0) return fail("%s%s: byte %ld differs", what, alias == 1 ? " (s = e)" : alias == 2 ? " (s = pk)" : "", d);
    return 0;
}

int qhasm_test_mceliece_syndrome(int p, int i)
{
    const qhasm_ref_mceliece_params *par = qhasm_prim_param_long(p, "set", 0) ? &qhasm_ref_mceliece6960119
                                                                                : &qhasm_ref_mceliece348864;
    int pkb = qhasm_ref_mceliece_pk_bytes(par), eb = qhasm_ref_mceliece_e_bytes(par), t = par->mt / (par->n > 4096 ? 13 : 12);
    unsigned char *pk = malloc((size_t)pkb), e[1024];
    int r, j, bad = 0;
    if (!pk) die("malloc");
    stage("mceliece weight-t error vectors, single columns, aliasing");
    for (r = 0; r < 4 && !bad; r++) {
        rnd_bytes(pk, (size_t)pkb);
        memset(e, 0, sizeof e);
        for (j = 0; j < t; j++) {               /* weight t (a repeat only lowers it) */
            size_t b = rnd_below((size_t)par->n);
            e[b / 8] |= (unsigned char)(1 << (b % 8));
        }
        bad = syn_one(p, i, par, pk, e, 0, "weight-t e") || syn_one(p, i, par, pk, e, 1, "weight-t e") ||
              syn_one(p, i, par, pk, e, 2, "weight-t e");
        memset(e, 0, sizeof e);
        e[(par->mt + r) / 8] = (unsigned char)(1 << ((par->mt + r) % 8));   /* one column of T */
        bad = bad || syn_one(p, i, par, pk, e, 0, "a single column of T");
        memset(e, 0, sizeof e);
        e[eb - 1] = 0x80;                       /* the last column */
        bad = bad || syn_one(p, i, par, pk, e, 0, "the last column");
    }
    free(pk);
    return bad;
}
