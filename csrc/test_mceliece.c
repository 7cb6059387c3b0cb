/* test_mceliece: checks every Classic McEliece kernel linked into this
 * build (mceliece_impls.h) against the reference C (csrc/ref/mceliece_ref.c).
 * Standalone until the manifest's generic harness covers these kernels
 * (tests/sh/mceliece.sh builds it natively and for the cross targets).
 *
 * Per kernel: random inputs, structured ones (zero, one, all-ones words,
 * powers of the generator x in every lane, single bits), outputs aliasing
 * each input, canary words around every buffer, inputs left unchanged;
 * inversion exhaustively over all 2^m elements, with inv(a) * a = 1 for
 * every nonzero a.  Each implementation runs in a child process (an
 * illegal instruction is a failure, not a crash); one whose CPU features
 * are missing is reported as skipped.
 *
 *   test_mceliece [-v] [IMPL...]     exit status 1 if anything failed */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef QHASM_VALGRIND_CT
#include <valgrind/memcheck.h>
#endif
#include "mceliece_impls.h"
#include "ref/mceliece_ref.h"

#define CAN 4                          /* canary words each side */
#define CANARY 0xC3A5C3A5DEADBEEFull
#define MAXW (13 * 8)                  /* words of the largest vector (m = 13, 512 lanes) */

static uint64_t rstate = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    uint64_t z = (rstate += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int verbose, failures;
static long checks;

static void fail(const qhasm_mce_vec_kernel *k, const char *what, int e, uint16_t got, uint16_t want)
{
    if (failures++ < 10)
        printf("FAIL %s gf%d lanes %d %s: %s (lane %d: got 0x%x, expected 0x%x)\n",
               k->impl, k->m, k->lanes, k->op, what, e, got, want);
}

typedef struct {
    uint64_t w[3][CAN + MAXW + CAN];
} bufs;

static uint64_t *slot(bufs *b, int i) { return b->w[i] + CAN; }

static void set_canaries(bufs *b, int words)
{
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < CAN; j++) b->w[i][j] = b->w[i][CAN + words + j] = CANARY ^ (uint64_t)(i * 16 + j);
}

static int canaries_ok(const bufs *b, int words)
{
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < CAN; j++)
            if (b->w[i][j] != (CANARY ^ (uint64_t)(i * 16 + j)) ||
                b->w[i][CAN + words + j] != (CANARY ^ (uint64_t)(i * 16 + j)))
                return 0;
    return 1;
}

/* run kernel k on f (and g), h at slot 2 or aliasing an input: alias 0
 * none, 1 h = f, 2 h = g; compare with the reference */
static void run_one(const qhasm_mce_vec_kernel *k, const uint64_t *f, const uint64_t *g, int alias, const char *what)
{
    int words = k->m * k->lanes / 64, e;
    bufs b;
    uint64_t want[MAXW];
    uint64_t *pf, *pg, *ph;
    char desc[96];
    memset(&b, 0x5A, sizeof b);
    set_canaries(&b, words);
    pf = slot(&b, 0);
    pg = slot(&b, 1);
    memcpy(pf, f, (size_t)words * 8);
    memcpy(pg, g, (size_t)words * 8);
    ph = alias == 1 ? pf : alias == 2 ? pg : slot(&b, 2);
    if (k->mul) {
        qhasm_ref_mceliece_vec_mul(k->m, k->lanes, want, f, g);
        k->mul(ph, pf, pg);
    } else if (!strcmp(k->op, "sq")) {
        qhasm_ref_mceliece_vec_sq(k->m, k->lanes, want, f);
        k->un(ph, pf);
    } else {
        qhasm_ref_mceliece_vec_inv(k->m, k->lanes, want, f);
        k->un(ph, pf);
    }
    checks++;
    snprintf(desc, sizeof desc, "%s%s", what, alias == 1 ? " (h = f)" : alias == 2 ? " (h = g)" : "");
    for (e = 0; e < k->lanes; e++) {
        uint16_t x = qhasm_ref_mceliece_get(k->m, k->lanes, ph, e), y = qhasm_ref_mceliece_get(k->m, k->lanes, want, e);
        if (x != y) { fail(k, desc, e, x, y); return; }
    }
    if (!canaries_ok(&b, words)) fail(k, "canary overwritten", -1, 0, 0);
    if (alias != 1 && memcmp(pf, f, (size_t)words * 8)) fail(k, "input f changed", -1, 0, 0);
    if (alias != 2 && k->mul && memcmp(pg, g, (size_t)words * 8)) fail(k, "input g changed", -1, 0, 0);
}

static void run_all_alias(const qhasm_mce_vec_kernel *k, const uint64_t *f, const uint64_t *g, const char *what)
{
    run_one(k, f, g, 0, what);
    run_one(k, f, g, 1, what);
    if (k->mul) run_one(k, f, g, 2, what);
}

/* lane e = x^(e + off) */
static void powers(int m, int lanes, uint64_t *v, int off)
{
    uint16_t p = 1;
    int e;
    for (e = 0; e < off; e++) p = qhasm_ref_mceliece_gf_mul(m, p, 2);
    for (e = 0; e < lanes; e++) {
        qhasm_ref_mceliece_set(m, lanes, v, e, p);
        p = qhasm_ref_mceliece_gf_mul(m, p, 2);
    }
}

static void test_kernel(const qhasm_mce_vec_kernel *k)
{
    int words = k->m * k->lanes / 64, i, j, e, base;
    uint64_t f[MAXW], g[MAXW], h[MAXW], one[MAXW];
    const uint16_t mask = (uint16_t)((1u << k->m) - 1);
    /* structured: zero, one, all-ones, powers of x, single bits */
    memset(one, 0, sizeof one);
    for (e = 0; e < k->lanes; e++) qhasm_ref_mceliece_set(k->m, k->lanes, one, e, 1);
    memset(f, 0, sizeof f);
    memset(g, 0, sizeof g);
    run_all_alias(k, f, g, "zero");
    run_all_alias(k, one, one, "one");
    memset(f, 0xff, sizeof f);
    run_all_alias(k, f, f, "all-ones");
    run_all_alias(k, f, one, "all-ones * one");
    for (i = 0; i < 8; i++) {
        powers(k->m, k->lanes, f, i * 97);
        powers(k->m, k->lanes, g, i * 131 + 5);
        run_all_alias(k, f, g, "powers of x");
    }
    for (i = 0; i < k->m; i++) {               /* one bit-word set: z^i in every lane */
        memset(f, 0, sizeof f);
        for (j = 0; j < k->lanes / 64; j++) f[(k->lanes / 64) * i + j] = ~0ull;
        for (j = 0; j < words; j++) g[j] = rnd();
        run_all_alias(k, f, g, "z^i");
    }
    for (i = 0; i < 200; i++) {
        for (j = 0; j < words; j++) { f[j] = rnd(); g[j] = rnd(); }
        run_all_alias(k, f, g, "random");
    }
    if (strcmp(k->op, "inv")) return;
    /* every element of the field, lanes at a time: inv(a) = ref, a * inv(a) = 1 */
    for (base = 0; base < (1 << k->m); base += k->lanes) {
        for (e = 0; e < k->lanes; e++) qhasm_ref_mceliece_set(k->m, k->lanes, f, e, (uint16_t)((base + e) & mask));
        run_one(k, f, f, 0, "exhaustive");
        k->un(h, f);
        for (e = 0; e < k->lanes; e++) {
            uint16_t a = qhasm_ref_mceliece_get(k->m, k->lanes, f, e), r = qhasm_ref_mceliece_get(k->m, k->lanes, h, e);
            uint16_t p = qhasm_ref_mceliece_gf_mul(k->m, a, r);
            if (p != (a != 0)) { fail(k, "inv(a) * a != 1", e, p, a != 0); break; }
        }
    }
}

/* ---- transpose_64x64 ---------------------------------------------------- */
static void tfail(const char *impl, const char *what)
{
    if (failures++ < 10) printf("FAIL %s transpose_64x64: %s\n", impl, what);
}

static void transpose_one(const qhasm_mce_transpose_kernel *k, const uint64_t *in, const char *what)
{
    uint64_t buf[2][CAN + 64 + CAN], want[64], back[64];
    uint64_t *pin = buf[0] + CAN, *pout = buf[1] + CAN;
    int j;
    char desc[96];
    for (j = 0; j < CAN; j++)
        buf[0][j] = buf[1][j] = buf[0][CAN + 64 + j] = buf[1][CAN + 64 + j] = CANARY ^ (uint64_t)j;
    memcpy(pin, in, sizeof want);
    qhasm_ref_mceliece_transpose_64x64(want, in);
    k->fn(pout, pin);
    checks++;
    snprintf(desc, sizeof desc, "%s: differs from the reference", what);
    if (memcmp(pout, want, sizeof want)) tfail(k->impl, desc);
    if (memcmp(pin, in, sizeof want)) tfail(k->impl, "input changed");
    k->fn(back, pout);                         /* twice: the identity */
    snprintf(desc, sizeof desc, "%s: transposed twice is not the input", what);
    if (memcmp(back, in, sizeof back)) tfail(k->impl, desc);
    k->fn(pin, pin);                           /* in place */
    snprintf(desc, sizeof desc, "%s: in place", what);
    if (memcmp(pin, want, sizeof want)) tfail(k->impl, desc);
    for (j = 0; j < CAN; j++)
        if (buf[0][j] != (CANARY ^ (uint64_t)j) || buf[1][j] != (CANARY ^ (uint64_t)j) ||
            buf[0][CAN + 64 + j] != (CANARY ^ (uint64_t)j) || buf[1][CAN + 64 + j] != (CANARY ^ (uint64_t)j))
            tfail(k->impl, "canary overwritten");
}

static void test_transpose(const qhasm_mce_transpose_kernel *k)
{
    uint64_t in[64];
    int i, j;
    memset(in, 0, sizeof in);
    transpose_one(k, in, "zero");
    memset(in, 0xff, sizeof in);
    transpose_one(k, in, "all-ones");
    for (i = 0; i < 64; i++) in[i] = (uint64_t)1 << i;
    transpose_one(k, in, "identity");
    for (i = 0; i < 64; i++) {                 /* every single bit */
        for (j = 0; j < 64; j++) {
            memset(in, 0, sizeof in);
            in[i] = (uint64_t)1 << j;
            transpose_one(k, in, "single bit");
        }
    }
    for (i = 0; i < 64; i++) in[i] = (uint64_t)1 << (63 - i);
    transpose_one(k, in, "anti-diagonal");
    for (i = 0; i < 500; i++) {
        for (j = 0; j < 64; j++) in[j] = rnd();
        transpose_one(k, in, "random");
    }
}

/* ---- single elements ------------------------------------------------------ */
static void test_gf(const qhasm_mce_gf_kernel *k)
{
    const uint16_t q = (uint16_t)(1u << k->m);
    uint16_t a, b, x;
    int i, bad = 0;
    static const uint16_t bs[] = { 0, 1, 2, 3, 0x800, 0x1000, 0xfff, 0x1fff, 0x1234, 0xabc };
    /* every a against a few b (and high garbage bits, which are ignored) */
    for (a = 0; a < q && bad < 5; a++) {
        for (i = 0; i < (int)(sizeof bs / sizeof bs[0]); i++) {
            b = (uint16_t)(bs[i] & (q - 1));
            x = k->mul((uint16_t)(a | (uint16_t)(0xffffu << k->m)), b);
            checks++;
            if (x != qhasm_ref_mceliece_gf_mul(k->m, a, b)) {
                if (failures++ < 10) printf("FAIL %s gf%d_mul(0x%x, 0x%x) = 0x%x\n", k->impl, k->m, a, b, x);
                bad++;
            }
        }
        /* inv: every element, against the reference and by a * inv(a) = 1 */
        x = k->inv((uint16_t)(a | (uint16_t)(0xffffu << k->m)));
        checks++;
        if (x != qhasm_ref_mceliece_gf_inv(k->m, a) || qhasm_ref_mceliece_gf_mul(k->m, a, x) != (a != 0)) {
            if (failures++ < 10) printf("FAIL %s gf%d_inv(0x%x) = 0x%x\n", k->impl, k->m, a, x);
            bad++;
        }
    }
    for (i = 0; i < 100000 && bad < 5; i++) {
        uint64_t r = rnd();
        a = (uint16_t)r;
        b = (uint16_t)(r >> 16);
        x = k->mul(a, b);
        checks++;
        if (x != qhasm_ref_mceliece_gf_mul(k->m, a, b)) {
            if (failures++ < 10) printf("FAIL %s gf%d_mul(0x%x, 0x%x) = 0x%x\n", k->impl, k->m, a, b, x);
            bad++;
        }
    }
}

/* ---- syndrome ------------------------------------------------------------ */
static const qhasm_ref_mceliece_params *const sets[2] = { &qhasm_ref_mceliece348864, &qhasm_ref_mceliece6960119 };

static void sfail(const qhasm_mce_syndrome_kernel *k, const char *what)
{
    if (failures++ < 10) printf("FAIL %s %s_syndrome: %s\n", k->impl, sets[k->set]->name, what);
}

/* pk and e in buffers of their own (malloc'd, canaries after), s in its own
 * or aliasing e (alias 1) or pk (alias 2) */
static void syndrome_one(const qhasm_mce_syndrome_kernel *k, const unsigned char *pk, const unsigned char *e,
                         int alias, const char *what)
{
    const qhasm_ref_mceliece_params *p = sets[k->set];
    int pkb = qhasm_ref_mceliece_pk_bytes(p), eb = qhasm_ref_mceliece_e_bytes(p), sb = qhasm_ref_mceliece_s_bytes(p), j;
    unsigned char *bpk = malloc((size_t)pkb + 64), *be = malloc((size_t)eb + 64), bs[64 + 256 + 64], want[256];
    unsigned char *ps = bs + 64;
    char desc[128];
    if (!bpk || !be) { perror("malloc"); exit(2); }
    memcpy(bpk, pk, (size_t)pkb);
    memcpy(be, e, (size_t)eb);
    memset(bpk + pkb, 0xA5, 64);
    memset(be + eb, 0xA5, 64);
    memset(bs, 0xA5, sizeof bs);
    qhasm_ref_mceliece_syndrome(p, want, pk, e);
    if (alias == 1) ps = be;
    if (alias == 2) ps = bpk;
    k->fn(ps, bpk, be);
    checks++;
    snprintf(desc, sizeof desc, "%s%s: differs from the reference", what,
             alias == 1 ? " (s = e)" : alias == 2 ? " (s = pk)" : "");
    if (memcmp(ps, want, (size_t)sb)) sfail(k, desc);
    for (j = 0; j < 64; j++)
        if (bpk[pkb + j] != 0xA5 || be[eb + j] != 0xA5 || bs[j] != 0xA5 || (alias == 0 && bs[64 + sb + j] != 0xA5)) {
            sfail(k, "canary overwritten");
            break;
        }
    if (alias != 2 && memcmp(bpk, pk, (size_t)pkb)) sfail(k, "pk changed");
    if (alias != 1 && memcmp(be, e, (size_t)eb)) sfail(k, "e changed");
    free(bpk);
    free(be);
}

static void test_syndrome(const qhasm_mce_syndrome_kernel *k)
{
    const qhasm_ref_mceliece_params *p = sets[k->set];
    int pkb = qhasm_ref_mceliece_pk_bytes(p), eb = qhasm_ref_mceliece_e_bytes(p), t = p->mt / (k->set ? 13 : 12);
    unsigned char *pk = malloc((size_t)pkb), e[1024];
    int i, j, round;
    if (!pk) { perror("malloc"); exit(2); }
    for (round = 0; round < 6; round++) {
        for (j = 0; j < pkb; j++) pk[j] = (unsigned char)rnd();
        memset(e, 0, sizeof e);
        syndrome_one(k, pk, e, 0, "zero e");
        for (i = 0; i < t; i++) {              /* weight t (repeats only lower it) */
            int b = (int)(rnd() % (uint64_t)p->n);
            e[b / 8] |= (unsigned char)(1 << (b % 8));
        }
        syndrome_one(k, pk, e, 0, "weight-t e");
        syndrome_one(k, pk, e, 1, "weight-t e");
        syndrome_one(k, pk, e, 2, "weight-t e");
        for (j = 0; j < eb; j++) e[j] = (unsigned char)rnd();
        syndrome_one(k, pk, e, 0, "random bytes");
        memset(e, 0, sizeof e);
        e[(p->mt + round) / 8] = (unsigned char)(1 << ((p->mt + round) % 8));   /* one column of T */
        syndrome_one(k, pk, e, 0, "single column");
        e[eb - 1] = 0x80;                      /* and the last column */
        syndrome_one(k, pk, e, 0, "last column");
    }
    memset(pk, 0xff, (size_t)pkb);
    memset(e, 0xff, (size_t)eb);
    syndrome_one(k, pk, e, 0, "all-ones");
    free(pk);
}

/* ---- --valgrind-ct: every input undefined (secret), each kernel once ---
 * memcheck then reports any branch or address that depends on them
 * (djb's method); the outputs are marked defined again afterwards. */
#ifdef QHASM_VALGRIND_CT
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED(p, n)
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#else
#define SECRET(p, n) ((void)(p), (void)(n))
#define PUBLIC(p, n) ((void)(p), (void)(n))
#endif
static void ct_impl(const char *impl)
{
    static uint64_t f[MAXW], g[MAXW], h[MAXW], t[64];
    static unsigned char e[1024], s[256];
    int j;
    for (j = 0; j < MAXW; j++) { f[j] = rnd(); g[j] = rnd(); }
    for (j = 0; j < qhasm_mce_vec_nkernels; j++) {
        const qhasm_mce_vec_kernel *k = &qhasm_mce_vec_kernels[j];
        if (strcmp(k->impl, impl)) continue;
        SECRET(f, sizeof f);
        SECRET(g, sizeof g);
        if (k->mul) k->mul(h, f, g);
        else k->un(h, f);
        PUBLIC(h, sizeof h);
        checks++;
    }
    for (j = 0; j < qhasm_mce_transpose_nkernels; j++) {
        if (strcmp(qhasm_mce_transpose_kernels[j].impl, impl)) continue;
        SECRET(f, sizeof f);
        qhasm_mce_transpose_kernels[j].fn(t, f);
        PUBLIC(t, sizeof t);
        checks++;
    }
    for (j = 0; j < qhasm_mce_gf_nkernels; j++) {
        volatile uint16_t a = (uint16_t)rnd(), b = (uint16_t)rnd(), r;
        if (strcmp(qhasm_mce_gf_kernels[j].impl, impl)) continue;
        SECRET((void *)&a, sizeof a);
        SECRET((void *)&b, sizeof b);
        r = qhasm_mce_gf_kernels[j].mul(a, b);
        PUBLIC((void *)&r, sizeof r);
        SECRET((void *)&a, sizeof a);
        r = qhasm_mce_gf_kernels[j].inv(a);
        PUBLIC((void *)&r, sizeof r);
        checks += 2;
    }
    for (j = 0; j < qhasm_mce_syndrome_nkernels; j++) {
        const qhasm_mce_syndrome_kernel *k = &qhasm_mce_syndrome_kernels[j];
        int pkb = qhasm_ref_mceliece_pk_bytes(sets[k->set]);
        unsigned char *pk;
        if (strcmp(k->impl, impl)) continue;
        pk = malloc((size_t)pkb);
        if (!pk) { perror("malloc"); exit(2); }
        memset(pk, 0x5a, (size_t)pkb);
        SECRET(pk, (size_t)pkb);
        SECRET(e, sizeof e);
        k->fn(s, pk, e);
        PUBLIC(s, sizeof s);
        free(pk);
        checks++;
    }
}

/* ---- driver ------------------------------------------------------------- */
static int selected(const char *impl, int argc, char **argv)
{
    int i, any = 0;
    for (i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;
        any = 1;
        if (!strcmp(argv[i], impl)) return 1;
    }
    return !any;
}

#define MAXIMPL 32
static const char *impls[MAXIMPL];
static unsigned impl_features[MAXIMPL];
static int nimpls;

static void add_impl(const char *impl, unsigned features)
{
    int i;
    for (i = 0; i < nimpls; i++)
        if (!strcmp(impls[i], impl)) { impl_features[i] |= features; return; }
    if (nimpls < MAXIMPL) { impls[nimpls] = impl; impl_features[nimpls++] = features; }
}

/* run (or count, when run is 0) every kernel of impl; returns the count */
static int kernels_of(const char *impl, int run)
{
    int j, n = 0;
    for (j = 0; j < qhasm_mce_vec_nkernels; j++) {
        const qhasm_mce_vec_kernel *k = &qhasm_mce_vec_kernels[j];
        if (strcmp(k->impl, impl)) continue;
        n++;
        if (!run) continue;
        test_kernel(k);
        if (verbose) printf("  %s gf%d %d lanes %s\n", impl, k->m, k->lanes, k->op);
    }
    for (j = 0; j < qhasm_mce_transpose_nkernels; j++) {
        if (strcmp(qhasm_mce_transpose_kernels[j].impl, impl)) continue;
        n++;
        if (!run) continue;
        test_transpose(&qhasm_mce_transpose_kernels[j]);
        if (verbose) printf("  %s transpose_64x64\n", impl);
    }
    for (j = 0; j < qhasm_mce_gf_nkernels; j++) {
        if (strcmp(qhasm_mce_gf_kernels[j].impl, impl)) continue;
        n++;
        if (!run) continue;
        test_gf(&qhasm_mce_gf_kernels[j]);
        if (verbose) printf("  %s gf%d_mul, gf%d_inv\n", impl, qhasm_mce_gf_kernels[j].m, qhasm_mce_gf_kernels[j].m);
    }
    for (j = 0; j < qhasm_mce_syndrome_nkernels; j++) {
        if (strcmp(qhasm_mce_syndrome_kernels[j].impl, impl)) continue;
        n++;
        if (!run) continue;
        test_syndrome(&qhasm_mce_syndrome_kernels[j]);
        if (verbose) printf("  %s %s_syndrome\n", impl, sets[qhasm_mce_syndrome_kernels[j].set]->name);
    }
    return n;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, skipped = 0, i, j, ct = 0;
    unsigned have = qhasm_cpu_features();
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) verbose = 1;
        if (!strcmp(argv[i], "--valgrind-ct")) ct = 1;
        if (!strcmp(argv[i], "--valgrind-ct-selftest")) {
            /* the reference gf_mul branches on b: memcheck must report it */
            volatile uint16_t a = 3, b = 5, r;
            SECRET((void *)&b, sizeof b);
            r = qhasm_ref_mceliece_gf_mul(12, a, b);
            PUBLIC((void *)&r, sizeof r);
            printf("selftest ran (0x%x)\n", r);
            return 0;
        }
    }
    for (i = 0; i < qhasm_mce_vec_nkernels; i++) add_impl(qhasm_mce_vec_kernels[i].impl, qhasm_mce_vec_kernels[i].features);
    for (i = 0; i < qhasm_mce_transpose_nkernels; i++)
        add_impl(qhasm_mce_transpose_kernels[i].impl, qhasm_mce_transpose_kernels[i].features);
    for (i = 0; i < qhasm_mce_gf_nkernels; i++) add_impl(qhasm_mce_gf_kernels[i].impl, qhasm_mce_gf_kernels[i].features);
    for (i = 0; i < qhasm_mce_syndrome_nkernels; i++)
        add_impl(qhasm_mce_syndrome_kernels[i].impl, qhasm_mce_syndrome_kernels[i].features);
    for (i = 0; i < nimpls; i++) {
        const char *impl = impls[i];
        int n = kernels_of(impl, 0), status;
        pid_t pid;
        if (!selected(impl, argc, argv)) continue;
        if (impl_features[i] & ~have) {
            printf("mceliece %-14s SKIPPED: %d kernels not run, the CPU lacks", impl, n);
            for (j = 0; j < QHASM_CPU_NFEATURES; j++)
                if (impl_features[i] & ~have & (1u << j)) printf(" %s", qhasm_cpu_feature_name(1u << j));
            printf("\n");
            skipped += n;
            continue;
        }
        if (ct) {                              /* in process: valgrind follows it */
            ct_impl(impl);
            printf("mceliece %-14s constant time: %d kernels run on secret inputs\n", impl, n);
            passed += n;
            continue;
        }
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            kernels_of(impl, 1);
            printf("mceliece %-14s %s: %d kernels, %ld checks against the reference\n", impl,
                   failures ? "FAILED" : "ok", n, checks);
            fflush(stdout);
            _exit(failures ? 1 : 0);
        }
        if (pid < 0 || waitpid(pid, &status, 0) < 0) { perror("fork"); return 2; }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            passed += n;
        } else {
            if (WIFSIGNALED(status)) printf("mceliece %-14s FAILED: killed by signal %d\n", impl, WTERMSIG(status));
            failed += n;
        }
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
