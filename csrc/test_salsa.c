/* qhasm-test's checks of the salsa family (Salsa20/R for the rounds of the
 * primitive's `rounds` parameter; with `xsalsa=1` also XSalsa20): the
 * specification's and NaCl's vectors, the reference on every length,
 * alignment, aliasing and counter crossing, the ABI checks of the kernels
 * and public functions, and the valgrind constant-time check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

/* ======================================================================== */
/* Salsa20 family                                                           */
/* ======================================================================== */
typedef int core_fn(unsigned char *, const unsigned char *, const unsigned char *, const unsigned char *);
typedef int stream_fn(unsigned char *, unsigned long long, const unsigned char *, const unsigned char *);
typedef int xor_fn(unsigned char *, const unsigned char *, unsigned long long,
                   const unsigned char *, const unsigned char *);
typedef int xor_ic_fn(unsigned char *, const unsigned char *, unsigned long long,
                      const unsigned char *, uint64_t, const unsigned char *);

typedef struct {
    int rounds;
    core_fn *core, *hcore;
    stream_fn *stream;
    xor_fn *xor_;
    xor_ic_fn *xor_ic;
} salsa_api;

static const salsa_api salsa_apis[] = {
    { 20, qhasm_core_salsa20, qhasm_core_hsalsa20, qhasm_stream_salsa20,
      qhasm_stream_salsa20_xor, qhasm_stream_salsa20_xor_ic },
    { 12, qhasm_core_salsa2012, qhasm_core_hsalsa2012, qhasm_stream_salsa2012,
      qhasm_stream_salsa2012_xor, qhasm_stream_salsa2012_xor_ic },
    { 8, qhasm_core_salsa208, qhasm_core_hsalsa208, qhasm_stream_salsa208,
      qhasm_stream_salsa208_xor, qhasm_stream_salsa208_xor_ic },
};

/* Salsa20 specification (Bernstein, 2005), section 8, the two examples of
 * the Salsa20 hash function, given as 64-byte input and output */
static const unsigned char spec_hash_in[2][64] = {
    { 211,159, 13,115, 76, 55, 82,183,  3,117,222, 37,191,187,234,136,
       49,237,179, 48,  1,106,178,219,175,199,166, 48, 86, 16,179,207,
       31,240, 32, 63, 15, 83, 93,161,116,147, 48,113,238, 55,204, 36,
       79,201,235, 79,  3, 81,156, 47,203, 26,244,243, 88,118,104, 54 },
    {  88,118,104, 54, 79,201,235, 79,  3, 81,156, 47,203, 26,244,243,
      191,187,234,136,211,159, 13,115, 76, 55, 82,183,  3,117,222, 37,
       86, 16,179,207, 49,237,179, 48,  1,106,178,219,175,199,166, 48,
      238, 55,204, 36, 31,240, 32, 63, 15, 83, 93,161,116,147, 48,113 },
};
static const unsigned char spec_hash_out[2][64] = {
    { 109, 42,178,168,156,240,248,238,168,196,190,203, 26,110,170,154,
       29, 29,150, 26,150, 30,235,249,190,163,251, 48, 69,144, 51, 57,
      118, 40,152,157,180, 57, 27, 94,107, 42,236, 35, 27,111,114,114,
      219,236,232,135,111,155,110, 18, 24,232, 95,158,179, 19, 48,202 },
    { 179, 19, 48,202,219,236,232,135,111,155,110, 18, 24,232, 95,158,
       26,110,170,154,109, 42,178,168,156,240,248,238,168,196,190,203,
       69,144, 51, 57, 29, 29,150, 26,150, 30,235,249,190,163,251, 48,
       27,111,114,114,118, 40,152,157,180, 57, 27, 94,107, 42,236, 35 },
};
/* section 9 (expansion): Salsa20_k(n), k0 = 1..16, k1 = 201..216, n = 101..116 */
static const unsigned char spec_exp_out[64] = {
     69, 37, 68, 39, 41, 15,107,193,255,139,122,  6,170,233,217, 98,
     89,144,182,106, 21, 51,200, 65,239, 49,222, 34,215,114, 40,126,
    104,197,  7,225,197,153, 31,  2,102, 78, 76,176, 84,245,246,184,
    177,160,133,130,  6, 72,149,119,192,195,132,236,234,103,246, 74 };

/* NaCl 20110221 tests/core1.c: HSalsa20 of the shared secret, zero input */
static const char *nacl_shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";
static const char *nacl_firstkey = "1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389";
/* NaCl tests/stream.c: nonce; SHA-256 of the first 4194304 bytes of
 * crypto_stream_xsalsa20(firstkey, nonce) (tests/stream.out); tests/stream2.c
 * gives the same stream through crypto_stream_salsa20 with
 * secondkey = HSalsa20(firstkey, nonce[0..15]) and nonce[16..23]. */
static const char *nacl_nonce = "69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37";
static const char *nacl_stream_sha256 = "662b9d0e3463029156069b12f918691a98f7dfb2ca0393c96bbfc6b1fbd630a2";

/* hash-function form of core: 64-byte input split into c16, k32, in16 */
static void split64(const unsigned char x[64], unsigned char c[16], unsigned char k[32],
                    unsigned char in[16])
{
    memcpy(c, x, 4); memcpy(c + 4, x + 20, 4); memcpy(c + 8, x + 40, 4); memcpy(c + 12, x + 60, 4);
    memcpy(k, x + 4, 16); memcpy(k + 16, x + 44, 16);
    memcpy(in, x + 24, 16);
}

/* the public functions of Salsa20/R for the primitive's rounds parameter */
static const salsa_api *api_of(int p)
{
    long r = qhasm_prim_param_long(p, "rounds", 20);
    size_t k;
    for (k = 0; k < sizeof salsa_apis / sizeof *salsa_apis; k++)
        if (salsa_apis[k].rounds == r) return &salsa_apis[k];
    die("salsa family: no public functions for these rounds");
    return NULL;
}

/* XSalsa20 is built on this primitive (the manifest's xsalsa=1) */
static int has_xsalsa(int p) { return qhasm_prim_param_long(p, "xsalsa", 0) != 0; }

static int salsa_vectors(const salsa_api *a)
{
    unsigned char c[16], k[32], in[16], out[64], key[32], n[24], sk[32], digest[32], want[32];
    unsigned char *buf;
    const size_t LONG = 4194304;
    int i;
    long d;

    if (a->rounds != 20) return 0;   /* the published examples are for Salsa20/20 */
    stage("Salsa20 specification section 8 examples");
    for (i = 0; i < 2; i++) {
        split64(spec_hash_in[i], c, k, in);
        a->core(out, in, k, c);
        if ((d = diffat(out, spec_hash_out[i], 64)) >= 0)
            return fail("core_salsa20: Salsa20 specification section 8 example %d differs at byte %ld", i + 1, d);
    }
    stage("Salsa20 specification section 9 example");
    for (i = 0; i < 16; i++) { k[i] = (unsigned char)(1 + i); k[16 + i] = (unsigned char)(201 + i); in[i] = (unsigned char)(101 + i); }
    a->core(out, in, k, NULL);
    if ((d = diffat(out, spec_exp_out, 64)) >= 0)
        return fail("core_salsa20: Salsa20 specification section 9 example differs at byte %ld", d);

    stage("NaCl core1 (HSalsa20)");
    hex(k, nacl_shared);
    memset(in, 0, 16);
    hex(key, nacl_firstkey);
    a->hcore(out, in, k, (const unsigned char *)"expand 32-byte k");
    if ((d = diffat(out, key, 32)) >= 0)
        return fail("core_hsalsa20: NaCl tests/core1 vector differs at byte %ld", d);

    stage("NaCl stream / stream2 (4 MiB, SHA-256)");
    hex(n, nacl_nonce);
    hex(want, nacl_stream_sha256);
    buf = malloc(LONG);
    if (!buf) die("malloc");
    qhasm_stream_xsalsa20(buf, LONG, n, key);
    sha256_hash(digest, buf, LONG);
    if (diffat(digest, want, 32) >= 0) { free(buf); return fail("stream_xsalsa20: NaCl tests/stream 4 MiB SHA-256 differs"); }
    qhasm_core_hsalsa20(sk, n, key, NULL);
    a->stream(buf, LONG, n + 16, sk);
    sha256_hash(digest, buf, LONG);
    free(buf);
    if (diffat(digest, want, 32) >= 0) return fail("stream_salsa20: NaCl tests/stream2 4 MiB SHA-256 differs");
    return 0;
}

/* core and hcore against the reference, with aliasing and canaries */
static int salsa_core_checks(const salsa_api *a)
{
    int t, h;
    for (t = 0; t < 512; t++) {
        for (h = 0; h < 2; h++) {
            unsigned char in[16], k[32], c[16], want[64];
            size_t olen = h ? 32 : 64;
            int mode = t % 4;                 /* 0 separate, 1 out=in, 2 out=k, 3 out=c */
            gbuf O, I, K, C;
            long d;
            const unsigned char *cp;
            stage("core%s random %d mode %d", h ? " hsalsa" : "", t, mode);
            rnd_bytes(in, 16); rnd_bytes(k, 32); rnd_bytes(c, 16);
            cp = (t % 8 == 7) ? NULL : c;
            if (h) qhasm_ref_core_hsalsa(want, in, k, cp, a->rounds);
            else qhasm_ref_core_salsa(want, in, k, cp, a->rounds);
            galloc(&O, olen, (unsigned)rnd_below(64));
            galloc(&I, 16, (unsigned)rnd_below(64)); memcpy(I.p, in, 16);
            galloc(&K, 32, (unsigned)rnd_below(64)); memcpy(K.p, k, 32);
            galloc(&C, 16, (unsigned)rnd_below(64)); memcpy(C.p, c, 16);
            if (mode == 1) memcpy(O.p, in, 16);
            if (mode == 2) memcpy(O.p, k, 32);
            if (mode == 3) memcpy(O.p, c, 16);
            (h ? a->hcore : a->core)(O.p, mode == 1 ? O.p : I.p, mode == 2 ? O.p : K.p,
                                     cp == NULL ? NULL : mode == 3 ? O.p : C.p);
            d = diffat(O.p, want, olen);
            if (d < 0 && (gcheck(&O) || gcheck(&I) || gcheck(&K) || gcheck(&C))) d = -2;
            if (d < 0 && (memcmp(I.p, in, 16) || memcmp(K.p, k, 32) || memcmp(C.p, c, 16))) d = -3;
            gfree(&O); gfree(&I); gfree(&K); gfree(&C);
            if (d >= 0) return fail("core_%ssalsa%d: random input %d (%s) differs from ref at byte %ld",
                                    h ? "h" : "", a->rounds, t,
                                    (const char *[]){ "separate", "out=in", "out=k", "out=c" }[mode], d);
            if (d == -2) return fail("core_%ssalsa%d: wrote outside the buffers (canary), input %d", h ? "h" : "", a->rounds, t);
            if (d == -3) return fail("core_%ssalsa%d: modified an input, input %d", h ? "h" : "", a->rounds, t);
        }
    }
    return 0;
}

enum { OP_XOR_IC, OP_XOR, OP_STREAM, OP_XS_XOR, OP_XS_STREAM };
static const char *const op_names[] = { "stream_xor_ic", "stream_xor", "stream", "xsalsa20_xor", "xsalsa20" };
enum { AL_SEPARATE, AL_INPLACE, AL_NONCE, AL_KEY };
static const char *const alias_names[] = { "separate", "in place", "c=nonce", "c=key" };

static uint64_t rnd_counter(void)
{
    switch (rnd() % 6) {
    case 0: return 0xffffffffULL - rnd_below(4);              /* crosses into the high word */
    case 1: return 0xffffffffffffffffULL - rnd_below(4);      /* wraps mod 2^64 */
    case 2: return ((rnd() % 7) << 32) | (0xffffffffULL - rnd_below(20));
    case 3: return rnd_below(1000);
    default: return rnd();
    }
}

/* one stream operation with guarded buffers, compared with the reference */
static int salsa_case(const salsa_api *a, int op, size_t len, unsigned calign, unsigned malign,
                      int alias, uint64_t ic)
{
    int xs = op == OP_XS_XOR || op == OP_XS_STREAM;
    int noinput = op == OP_STREAM || op == OP_XS_STREAM;
    size_t nlen = xs ? 24 : 8, clen = len;
    unsigned char k[32], n[24], *m, *want;
    gbuf C, M, N, K;
    long d = -1;
    const char *bad = NULL;

    if (op != OP_XOR_IC) ic = 0;
    if (noinput && alias == AL_INPLACE) return 0;
    stage("%s len %zu align c %u m %u %s ic %llu", op_names[op], len, calign, malign,
          alias_names[alias], (unsigned long long)ic);
    rnd_bytes(k, 32); rnd_bytes(n, nlen);
    m = malloc(len + 1); want = malloc(len + 1);
    if (!m || !want) die("malloc");
    rnd_bytes(m, len);
    switch (op) {
    case OP_XOR_IC: case OP_XOR: qhasm_ref_stream_salsa_xor_ic(want, m, len, n, ic, k, a->rounds); break;
    case OP_STREAM: qhasm_ref_stream_salsa(want, len, n, k, a->rounds); break;
    case OP_XS_XOR: qhasm_ref_stream_xsalsa20_xor(want, m, len, n, k); break;
    case OP_XS_STREAM: qhasm_ref_stream_xsalsa20(want, len, n, k); break;
    }
    if (alias == AL_NONCE && clen < nlen) clen = nlen;
    if (alias == AL_KEY && clen < 32) clen = 32;
    galloc(&C, clen, calign);
    galloc(&M, len, malign); memcpy(M.p, m, len);
    galloc(&N, nlen, (unsigned)rnd_below(64)); memcpy(N.p, n, nlen);
    galloc(&K, 32, (unsigned)rnd_below(64)); memcpy(K.p, k, 32);
    {
        unsigned char *cp = C.p, *mp = M.p, *np = N.p, *kp = K.p, *tail = NULL;
        size_t taillen = clen - len;
        if (alias == AL_INPLACE) { memcpy(C.p, m, len); mp = C.p; }
        if (alias == AL_NONCE) { memcpy(C.p, n, nlen); np = C.p; }
        if (alias == AL_KEY) { memcpy(C.p, k, 32); kp = C.p; }
        if (taillen) { tail = malloc(taillen); memcpy(tail, C.p + len, taillen); }
        switch (op) {
        case OP_XOR_IC: a->xor_ic(cp, mp, len, np, ic, kp); break;
        case OP_XOR: a->xor_(cp, mp, len, np, kp); break;
        case OP_STREAM: a->stream(cp, len, np, kp); break;
        case OP_XS_XOR: qhasm_stream_xsalsa20_xor(cp, mp, len, np, kp); break;
        case OP_XS_STREAM: qhasm_stream_xsalsa20(cp, len, np, kp); break;
        }
        d = diffat(C.p, want, len);
        if (d < 0 && taillen && memcmp(C.p + len, tail, taillen)) bad = "wrote past c+len (into the aliased input)";
        free(tail);
    }
    if (d < 0 && !bad && (gcheck(&C) || gcheck(&M) || gcheck(&N) || gcheck(&K))) bad = "wrote outside a buffer (canary)";
    if (d < 0 && !bad && ((!noinput && alias != AL_INPLACE && memcmp(M.p, m, len)) ||
                          memcmp(N.p, n, nlen) || memcmp(K.p, k, 32))) bad = "modified an input";
    gfree(&C); gfree(&M); gfree(&N); gfree(&K);
    free(m); free(want);
    if (d >= 0)
        return fail("%s (%d rounds): len %zu, align c %u m %u, %s, counter %llu: differs from ref at offset %ld",
                    op_names[op], a->rounds, len, calign, malign, alias_names[alias], (unsigned long long)ic, d);
    if (bad)
        return fail("%s (%d rounds): len %zu, align c %u m %u, %s, counter %llu: %s",
                    op_names[op], a->rounds, len, calign, malign, alias_names[alias], (unsigned long long)ic, bad);
    return 0;
}

static int ref_self_check(void);

static int salsa_check(int p, int i)
{
    const salsa_api *a = api_of(p);
    (void)i;
    if (ref_self_check()) return 1;
    size_t len, j;
    unsigned al;
    int op, t, alias;
    int nops = has_xsalsa(p) ? 5 : 3;

    if (salsa_vectors(a)) return 1;
    if (salsa_core_checks(a)) return 1;
    /* every length 0..1100, alignment 0, random counters */
    for (len = 0; len <= 1100; len++)
        if (salsa_case(a, OP_XOR_IC, len, 0, 0, AL_SEPARATE, rnd_counter())) return 1;
    for (op = OP_XOR; op < nops; op++)
        for (len = 0; len <= 1100; len += (op == OP_XOR ? 1 : 3))
            if (salsa_case(a, op, len, 0, 0, AL_SEPARATE, 0)) return 1;
    /* random lengths up to 70000 */
    for (t = 0; t < 24; t++)
        if (salsa_case(a, t % 4 ? OP_XOR_IC : (t % 8 ? OP_STREAM : OP_XOR), rnd_below(MAXRANDLEN + 1),
                       (unsigned)rnd_below(64), (unsigned)rnd_below(64), (int)rnd_below(4), rnd_counter())) return 1;
    /* every alignment 0..63 of c and of m, for a set of lengths */
    for (j = 0; j < NALIGNLEN; j++)
        for (al = 0; al < 64; al++) {
            if (salsa_case(a, OP_XOR_IC, align_lengths[j], al, (al * 37 + 5) % 64, AL_SEPARATE, rnd_counter())) return 1;
            if (salsa_case(a, OP_XOR_IC, align_lengths[j], (al * 11 + 3) % 64, al, AL_SEPARATE, rnd_counter())) return 1;
            if (salsa_case(a, OP_XOR_IC, align_lengths[j], al, al, AL_INPLACE, rnd_counter())) return 1;
        }
    /* output aliasing each input, every operation */
    for (op = OP_XOR_IC; op < nops; op++)
        for (alias = AL_INPLACE; alias <= AL_KEY; alias++)
            for (len = 0; len <= 300; len++)
                if (salsa_case(a, op, len, (unsigned)rnd_below(64), (unsigned)rnd_below(64), alias, rnd_counter())) return 1;
    return 0;
}


static int salsa_abi(int p, int i)
{
    const qhasm_impl *im = qhasm_impl_get(p, i);
    const qhasm_impl *ref = qhasm_impl_get(p, QHASM_REF(p));
    const salsa_api *a = api_of(p);
    static const size_t lens[] = { 0, 1, 63, 64, 65, 200, 513, 1100 };
    unsigned char *m, *c, *want, k[32], n[24], in16[16], out[64], ref64[64];
    char what[160];
    size_t j;
    int inplace;

    m = malloc(64 * 33 + 1100); c = malloc(64 * 33 + 1100); want = malloc(64 * 33 + 1100);
    if (!m || !c || !want) die("malloc");
#define SFAIL(...) do { fail(__VA_ARGS__); free(m); free(c); free(want); return 1; } while (0)
    for (j = 0; j < NABI; j++)
        for (inplace = 0; inplace < 2; inplace++) {
            uint32_t x[16], x2[16];
            unsigned long long nb = abi_nblocks[j];
            size_t len = 64 * nb;
            int w;
            for (w = 0; w < 16; w++) x[w] = (uint32_t)rnd();
            x[0] = 0x61707865; x[5] = 0x3320646e; x[10] = 0x79622d32; x[15] = 0x6b206574;
            x[8] = (uint32_t)(0xffffffffu - rnd_below(8));
            memcpy(x2, x, sizeof x);
            rnd_bytes(m, len);
            QHASM_SALSA_BLOCKS(ref)(want, m, nb, x2);
            if (inplace) memcpy(c, m, len);
            snprintf(what, sizeof what, "qhasm_kernel_salsa%d (%s) blocks, %llu blocks%s",
                     a->rounds, im->name, nb, inplace ? ", in place" : "");
            if (abicall(what, FN(QHASM_SALSA_BLOCKS(im)), "wwqw", kernel_abi_flags(im->name), U(c), U(inplace ? c : m), nb, U(x), 0, 0, NULL)) SFAIL("%s", sh->fail);
            if (diffat(c, want, len) >= 0 || memcmp(x, x2, sizeof x))
                SFAIL("%s: through the ABI checker: differs from ref", what);
        }
    {
        uint32_t xin[16], xo[16], xw[16];
        rnd_bytes((unsigned char *)xin, sizeof xin);
        QHASM_SALSA_CORE(ref)(xw, xin);
        snprintf(what, sizeof what, "qhasm_kernel_salsa%d (%s) core", a->rounds, im->name);
        if (abicall(what, FN(QHASM_SALSA_CORE(im)), "ww", kernel_abi_flags(im->name), U(xo), U(xin), 0, 0, 0, 0, NULL)) SFAIL("%s", sh->fail);
        if (memcmp(xo, xw, sizeof xo)) SFAIL("%s: through the ABI checker: differs from ref", what);
    }
    /* the public functions (C glue + this implementation, forced) */
    for (j = 0; j < sizeof lens / sizeof lens[0]; j++) {
        size_t len = lens[j];
        uint64_t ic = rnd_counter(), r = 1;
        rnd_bytes(k, 32); rnd_bytes(n, 24); rnd_bytes(m, len);
        qhasm_ref_stream_salsa_xor_ic(want, m, len, n, ic, k, a->rounds);
        snprintf(what, sizeof what, "stream_%s_xor_ic (%s), len %zu", qhasm_prim_name(p), im->name, len);
        if (abicall(what, FN(a->xor_ic), "wwqwqw", QHASM_ABICHECK_COMPILED, U(c), U(m), len, U(n), ic, U(k), &r)) SFAIL("%s", sh->fail);
        if ((int)r != 0 || diffat(c, want, len) >= 0) SFAIL("%s: through the ABI checker: wrong result", what);
        qhasm_ref_stream_salsa(want, len, n, k, a->rounds);
        snprintf(what, sizeof what, "stream_%s (%s), len %zu", qhasm_prim_name(p), im->name, len);
        if (abicall(what, FN(a->stream), "wqww", QHASM_ABICHECK_COMPILED, U(c), len, U(n), U(k), 0, 0, &r)) SFAIL("%s", sh->fail);
        if ((int)r != 0 || diffat(c, want, len) >= 0) SFAIL("%s: through the ABI checker: wrong result", what);
        qhasm_ref_stream_salsa_xor_ic(want, m, len, n, 0, k, a->rounds);
        if (abicall(what, FN(a->xor_), "wwqww", QHASM_ABICHECK_COMPILED, U(c), U(m), len, U(n), U(k), 0, &r)) SFAIL("%s", sh->fail);
        if ((int)r != 0 || diffat(c, want, len) >= 0) SFAIL("%s: through the ABI checker: wrong result", what);
        if (has_xsalsa(p)) {
            qhasm_ref_stream_xsalsa20_xor(want, m, len, n, k);
            snprintf(what, sizeof what, "stream_xsalsa20_xor (%s), len %zu", im->name, len);
            if (abicall(what, FN(qhasm_stream_xsalsa20_xor), "wwqww", QHASM_ABICHECK_COMPILED, U(c), U(m), len, U(n), U(k), 0, &r)) SFAIL("%s", sh->fail);
            if ((int)r != 0 || diffat(c, want, len) >= 0) SFAIL("%s: through the ABI checker: wrong result", what);
        }
    }
    rnd_bytes(in16, 16); rnd_bytes(k, 32);
    qhasm_ref_core_salsa(ref64, in16, k, NULL, a->rounds);
    snprintf(what, sizeof what, "core_salsa%d (%s)", a->rounds, im->name);
    if (abicall(what, FN(a->core), "wwww", QHASM_ABICHECK_COMPILED, U(out), U(in16), U(k), 0, 0, 0, NULL)) SFAIL("%s", sh->fail);
    if (memcmp(out, ref64, 64)) SFAIL("%s: through the ABI checker: wrong result", what);
    qhasm_ref_core_hsalsa(ref64, in16, k, NULL, a->rounds);
    snprintf(what, sizeof what, "core_hsalsa%d (%s)", a->rounds, im->name);
    if (abicall(what, FN(a->hcore), "wwww", QHASM_ABICHECK_COMPILED, U(out), U(in16), U(k), 0, 0, 0, NULL)) SFAIL("%s", sh->fail);
    if (memcmp(out, ref64, 32)) SFAIL("%s: through the ABI checker: wrong result", what);
#undef SFAIL
    free(m); free(c); free(want);
    return 0;
}

static int salsa_ct(int p, int i)
{
    const salsa_api *a = api_of(p);
    const char *impl = qhasm_impl_name(qhasm_prim_name(p), i);
    unsigned char k[32], n[24], in16[16], out[64], want64[64], *m, *c, *want, *K, *M;
    size_t j;
    unsigned long e;
    m = malloc(1100); c = malloc(1100); want = malloc(1100); M = malloc(1100); K = malloc(32);
    if (!m || !c || !want || !M || !K) die("malloc");
#define CTFAIL(...) do { fail(__VA_ARGS__); free(m); free(c); free(want); free(M); free(K); return 1; } while (0)
    for (j = 0; j < NCT; j++) {
        size_t len = ct_lens[j];
        uint64_t ic = rnd_counter();
        rnd_bytes(k, 32); rnd_bytes(n, 24); rnd_bytes(m, len);
        stage("valgrind-ct: stream_salsa%d_xor_ic len %zu", a->rounds, len);
        qhasm_ref_stream_salsa_xor_ic(want, m, len, n, ic, k, a->rounds);
        memcpy(K, k, 32); memcpy(M, m, len);
        SECRET(K, 32); SECRET(M, len);
        e = CT_ERRORS();
        a->xor_ic(c, M, len, n, ic, K);
        PUBLIC(c, len);
        if (ct_verdict(e, "stream_salsa%d_xor_ic (%s), len %zu", a->rounds, impl, len)) CTFAIL("%s", sh->fail);
        if (diffat(c, want, len) >= 0) CTFAIL("stream_salsa%d_xor_ic (%s), len %zu: differs from ref", a->rounds, impl, len);
        stage("valgrind-ct: stream_salsa%d len %zu", a->rounds, len);
        qhasm_ref_stream_salsa(want, len, n, k, a->rounds);
        e = CT_ERRORS();
        a->stream(c, len, n, K);
        PUBLIC(c, len);
        if (ct_verdict(e, "stream_salsa%d (%s), len %zu", a->rounds, impl, len)) CTFAIL("%s", sh->fail);
        if (diffat(c, want, len) >= 0) CTFAIL("stream_salsa%d (%s), len %zu: differs from ref", a->rounds, impl, len);
        if (has_xsalsa(p) && len % 3 == 0) {
            stage("valgrind-ct: stream_xsalsa20_xor len %zu", len);
            qhasm_ref_stream_xsalsa20_xor(want, m, len, n, k);
            e = CT_ERRORS();
            qhasm_stream_xsalsa20_xor(c, M, len, n, K);
            PUBLIC(c, len);
            if (ct_verdict(e, "stream_xsalsa20_xor (%s), len %zu", impl, len)) CTFAIL("%s", sh->fail);
            if (diffat(c, want, len) >= 0) CTFAIL("stream_xsalsa20_xor (%s), len %zu: differs from ref", impl, len);
        }
    }
    /* core and hcore: the 16-byte input is secret too (hash-function use) */
    rnd_bytes(k, 32); rnd_bytes(in16, 16);
    stage("valgrind-ct: core_salsa%d", a->rounds);
    qhasm_ref_core_salsa(want64, in16, k, NULL, a->rounds);
    memcpy(K, k, 32); memcpy(M, in16, 16);
    SECRET(K, 32); SECRET(M, 16);
    e = CT_ERRORS();
    a->core(out, M, K, NULL);
    PUBLIC(out, 64);
    if (ct_verdict(e, "core_salsa%d (%s)", a->rounds, impl)) CTFAIL("%s", sh->fail);
    if (memcmp(out, want64, 64)) CTFAIL("core_salsa%d (%s): differs from ref", a->rounds, impl);
    stage("valgrind-ct: core_hsalsa%d", a->rounds);
    qhasm_ref_core_hsalsa(want64, in16, k, NULL, a->rounds);
    e = CT_ERRORS();
    a->hcore(out, M, K, NULL);
    PUBLIC(out, 32);
    if (ct_verdict(e, "core_hsalsa%d (%s)", a->rounds, impl)) CTFAIL("%s", sh->fail);
    if (memcmp(out, want64, 32)) CTFAIL("core_hsalsa%d (%s): differs from ref", a->rounds, impl);
#undef CTFAIL
    free(m); free(c); free(want); free(M); free(K);
    return 0;
}

/* ======================================================================== */
/* the reference itself: the specification's small examples                 */
/* ======================================================================== */
static int ref_self_check(void)
{
    /* Salsa20 specification section 3 (quarterround) examples */
    static const uint32_t qin[4][4] = {
        { 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
        { 0x00000001, 0x00000000, 0x00000000, 0x00000000 },
        { 0x00000000, 0x00000001, 0x00000000, 0x00000000 },
        { 0xe7e8c006, 0xc4f9417d, 0x6479b4b2, 0x68c67137 } };
    static const uint32_t qout[4][4] = {
        { 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
        { 0x08008145, 0x00000080, 0x00010200, 0x20500000 },
        { 0x88000100, 0x00000001, 0x00000200, 0x00402000 },
        { 0xe876d72b, 0x9361dfd5, 0xf1460244, 0x948541a3 } };
    int i;
    stage("reference: Salsa20 specification section 3 examples");
    for (i = 0; i < 4; i++) {
        uint32_t y[4];
        memcpy(y, qin[i], sizeof y);
        qhasm_ref_salsa_quarterround(y);
        if (memcmp(y, qout[i], sizeof y)) return fail("reference quarterround: specification example %d differs", i + 1);
    }
    return 0;
}

const qhasm_test_family qhasm_test_salsa = {
    salsa_check, salsa_abi, salsa_ct, "keys, messages (core: the 16-byte input too)"
};
