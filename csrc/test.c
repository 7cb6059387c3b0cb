/* qhasm-test: checks every implementation of every primitive against the
 * reference C (csrc/ref/) and published test vectors, each implementation
 * in its own child process.  See docs/api.md ("Testing").
 *
 *   qhasm-test [-p prim] [-i impl] [-s seed] [-q] [-l]
 *              [--abi-only | --no-abi | --valgrind-ct] [--help]
 *
 * Every child first calls each kernel of its implementation (from the
 * dispatch tables) and the public functions through the ABI checker
 * (csrc/abicheck.h).  --valgrind-ct replaces the tests with a constant-time
 * check under valgrind (secrets marked undefined; see ct_child).
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "qhasm.h"
#include "impl.h"
#include "ref/ref.h"
#include "abicheck.h"

/* valgrind's client requests for --valgrind-ct (compiled out without the
 * header: the mode then reports itself unavailable) */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define QHASM_HAVE_MEMCHECK 1
#endif
#endif

#define GUARD 32                     /* canary bytes before and after every buffer */
#define MAXRANDLEN 70000

/* ---- deterministic PRNG (splitmix64) -------------------------------------- */
static uint64_t rng;
static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static void rnd_bytes(unsigned char *p, size_t n)
{
    while (n--) *p++ = (unsigned char)rnd();
}
static size_t rnd_below(size_t n) { return (size_t)(rnd() % n); }

/* ---- state shared with the parent (survives a crash of the child) -------- */
static struct shared { char stage[256]; char fail[1024]; unsigned long abicalls, ctcalls; } *sh;

static void stage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sh->stage, sizeof sh->stage, fmt, ap);
    va_end(ap);
}

static int fail(const char *fmt, ...)
{
    va_list ap;
    if (sh->fail[0]) return 1;
    va_start(ap, fmt);
    vsnprintf(sh->fail, sizeof sh->fail, fmt, ap);
    va_end(ap);
    return 1;
}

static void die(const char *what)
{
    fprintf(stderr, "qhasm-test: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* ---- guarded buffers: GUARD random canary bytes on both sides ----------- */
typedef struct {
    unsigned char *base, *p;
    size_t len;
    unsigned char before[GUARD], after[GUARD];
} gbuf;

/* len bytes at address = 64-byte boundary + align, canaries around */
static unsigned char *galloc(gbuf *g, size_t len, unsigned align)
{
    void *b;
    if (posix_memalign(&b, 64, 64 + 64 + len + GUARD + 64)) die("posix_memalign");
    g->base = b;
    g->p = g->base + 64 + (align % 64);
    g->len = len;
    rnd_bytes(g->before, GUARD);
    rnd_bytes(g->after, GUARD);
    memcpy(g->p - GUARD, g->before, GUARD);
    memcpy(g->p + len, g->after, GUARD);
    rnd_bytes(g->p, len);
    return g->p;
}

/* 0 if both canaries are intact */
static int gcheck(const gbuf *g)
{
    return memcmp(g->p - GUARD, g->before, GUARD) || memcmp(g->p + g->len, g->after, GUARD);
}

static void gfree(gbuf *g) { free(g->base); g->base = g->p = NULL; }

/* first differing offset, -1 if equal */
static long diffat(const unsigned char *a, const unsigned char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i]) return (long)i;
    return -1;
}

static void hex(unsigned char *out, const char *h)
{
    while (h[0] && h[1]) {
        unsigned v;
        sscanf(h, "%2x", &v);
        *out++ = (unsigned char)v;
        h += 2;
    }
}

/* ---- SHA-256 (FIPS 180-4), for the long-stream vector ------------------ */
typedef struct { uint32_t h[8]; unsigned char buf[64]; uint64_t len; } sha256;
static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static void sha256_block(sha256 *s, const unsigned char *p)
{
    static const uint32_t K[64] = {
        0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,
        0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,
        0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,
        0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,
        0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,
        0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,
        0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,
        0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2 };
    uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = ((uint32_t)p[4*i] << 24) | ((uint32_t)p[4*i+1] << 16) | ((uint32_t)p[4*i+2] << 8) | p[4*i+3];
    for (i = 16; i < 64; i++)
        w[i] = (ror(w[i-2], 17) ^ ror(w[i-2], 19) ^ (w[i-2] >> 10)) + w[i-7]
             + (ror(w[i-15], 7) ^ ror(w[i-15], 18) ^ (w[i-15] >> 3)) + w[i-16];
    a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
    e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
    for (i = 0; i < 64; i++) {
        t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
    s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}
static void sha256_hash(unsigned char out[32], const unsigned char *m, size_t n)
{
    static const uint32_t iv[8] = { 0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,
                                    0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19 };
    sha256 s;
    unsigned char last[128];
    size_t i, r;
    memcpy(s.h, iv, sizeof iv);
    for (i = 0; i + 64 <= n; i += 64) sha256_block(&s, m + i);
    r = n - i;
    memset(last, 0, sizeof last);
    memcpy(last, m + i, r);
    last[r] = 0x80;
    r = r < 56 ? 64 : 128;
    for (i = 0; i < 8; i++) last[r - 1 - i] = (unsigned char)(((uint64_t)n * 8) >> (8 * i));
    sha256_block(&s, last);
    if (r == 128) sha256_block(&s, last + 64);
    for (i = 0; i < 32; i++) out[i] = (unsigned char)(s.h[i / 4] >> (24 - 8 * (i % 4)));
}

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

static const salsa_api salsa_apis[3] = {
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

static const size_t align_lengths[] = { 0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 65, 127, 128, 129, 191, 192,
                                        255, 256, 257, 511, 512, 513, 575, 1023, 1024, 1025, 1100 };
#define NALIGNLEN (sizeof align_lengths / sizeof align_lengths[0])

static int salsa_prim(int p)
{
    const salsa_api *a = &salsa_apis[p];
    size_t len, j;
    unsigned al;
    int op, t, alias;
    int nops = p == QHASM_PRIM_SALSA20 ? 5 : 3;

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

/* ======================================================================== */
/* Poly1305                                                                 */
/* ======================================================================== */
/* RFC 8439 section 2.5.2 and Appendix A.3 (test vectors #1..#11) */
static const char ietf_text[] =
    "Any submission to the IETF intended by the Contributor for publication as all or part "
    "of an IETF Internet-Draft or RFC and any statement made within the context of an IETF "
    "activity is considered an \"IETF Contribution\". Such statements include oral statements "
    "in IETF sessions, as well as written and electronic communications made at any time or "
    "place, which are addressed to";
static const char jabberwocky[] =
    "'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\n"
    "All mimsy were the borogoves,\nAnd the mome raths outgrabe.";
static const struct { const char *what, *key, *msg_hex, *msg_text, *tag; } rfc[] = {
    { "RFC 8439 2.5.2",
      "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
      NULL, "Cryptographic Forum Research Group", "a8061dc1305136c6c22b8baf0c0127a9" },
    { "RFC 8439 A.3 #1", "0000000000000000000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
      NULL, "00000000000000000000000000000000" },
    { "RFC 8439 A.3 #2", "0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e",
      NULL, ietf_text, "36e5f6b5c5e06070f0efca96227a863e" },
    { "RFC 8439 A.3 #3", "36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000",
      NULL, ietf_text, "f3477e7cd95417af89a6b8794c310cf0" },
    { "RFC 8439 A.3 #4", "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
      NULL, jabberwocky, "4541669a7eaaee61e708dc7cbcc5eb62" },
    { "RFC 8439 A.3 #5", "0200000000000000000000000000000000000000000000000000000000000000",
      "ffffffffffffffffffffffffffffffff", NULL, "03000000000000000000000000000000" },
    { "RFC 8439 A.3 #6", "02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
      "02000000000000000000000000000000", NULL, "03000000000000000000000000000000" },
    { "RFC 8439 A.3 #7", "0100000000000000000000000000000000000000000000000000000000000000",
      "fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff11000000000000000000000000000000",
      NULL, "05000000000000000000000000000000" },
    { "RFC 8439 A.3 #8", "0100000000000000000000000000000000000000000000000000000000000000",
      "fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe01010101010101010101010101010101",
      NULL, "00000000000000000000000000000000" },
    { "RFC 8439 A.3 #9", "0200000000000000000000000000000000000000000000000000000000000000",
      "fdffffffffffffffffffffffffffffff", NULL, "faffffffffffffffffffffffffffffff" },
    { "RFC 8439 A.3 #10", "0100000000000000040000000000000000000000000000000000000000000000",
      "e33594d7505e43b900000000000000003394d7505e4379cd01000000000000000000000000000000000000000000000001000000000000000000000000000000",
      NULL, "14000000000000005500000000000000" },
    { "RFC 8439 A.3 #11", "0100000000000000040000000000000000000000000000000000000000000000",
      "e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000",
      NULL, "13000000000000000000000000000000" },
};

/* tag of m under k, computed through the incremental API split at the given points */
static void poly_incremental(unsigned char *a, const unsigned char *m, size_t len,
                             const unsigned char *k, const size_t *cuts, int ncuts)
{
    qhasm_onetimeauth_poly1305_state st;
    size_t pos = 0;
    int i;
    qhasm_onetimeauth_poly1305_init(&st, k);
    for (i = 0; i < ncuts; i++) {
        qhasm_onetimeauth_poly1305_update(&st, m + pos, cuts[i] - pos);
        pos = cuts[i];
    }
    qhasm_onetimeauth_poly1305_update(&st, m + pos, len - pos);
    qhasm_onetimeauth_poly1305_final(&st, a);
}

static int poly_vectors(void)
{
    size_t i;
    for (i = 0; i < sizeof rfc / sizeof rfc[0]; i++) {
        unsigned char k[32], m[512], want[16], a[16];
        size_t len, cut;
        long d;
        stage("%s", rfc[i].what);
        hex(k, rfc[i].key);
        hex(want, rfc[i].tag);
        if (rfc[i].msg_text) { len = strlen(rfc[i].msg_text); memcpy(m, rfc[i].msg_text, len); }
        else { len = strlen(rfc[i].msg_hex) / 2; hex(m, rfc[i].msg_hex); }
        qhasm_onetimeauth_poly1305(a, m, len, k);
        if ((d = diffat(a, want, 16)) >= 0) return fail("onetimeauth_poly1305: %s: tag differs at byte %ld", rfc[i].what, d);
        if (qhasm_onetimeauth_poly1305_verify(want, m, len, k) != 0)
            return fail("onetimeauth_poly1305_verify: %s: rejects the correct tag", rfc[i].what);
        cut = len / 3;
        poly_incremental(a, m, len, k, &cut, 1);
        if ((d = diffat(a, want, 16)) >= 0) return fail("onetimeauth_poly1305_update: %s: tag differs at byte %ld", rfc[i].what, d);
    }
    return 0;
}

enum { PA_SEPARATE, PA_TAG_M, PA_TAG_K };
static const char *const palias_names[] = { "separate", "a=m", "a=k" };

static int poly_case(size_t len, unsigned aalign, unsigned malign, int alias, int special)
{
    unsigned char k[32], want[16], *m;
    gbuf A, M, K;
    size_t alen = 16;
    long d;
    const char *bad = NULL;
    stage("onetimeauth_poly1305 len %zu align a %u m %u %s", len, aalign, malign, palias_names[alias]);
    m = malloc(len + 1);
    if (!m) die("malloc");
    rnd_bytes(k, 32); rnd_bytes(m, len);
    if (special & 1) memset(m, 0xff, len);
    if (special & 2) memset(k, 0xff, 32);
    qhasm_ref_onetimeauth_poly1305(want, m, len, k);
    if (alias == PA_TAG_M && alen < len) alen = len;
    if (alias == PA_TAG_K) alen = 32;
    galloc(&A, alen, aalign);
    galloc(&M, len, malign); memcpy(M.p, m, len);
    galloc(&K, 32, (unsigned)rnd_below(64)); memcpy(K.p, k, 32);
    {
        unsigned char *mp = M.p, *kp = K.p, *tail = NULL;
        if (alias == PA_TAG_M) { memcpy(A.p, m, len); mp = A.p; }
        if (alias == PA_TAG_K) { memcpy(A.p, k, 32); kp = A.p; }
        if (alen > 16) { tail = malloc(alen - 16); memcpy(tail, A.p + 16, alen - 16); }
        qhasm_onetimeauth_poly1305(A.p, mp, len, kp);
        d = diffat(A.p, want, 16);
        if (d < 0 && tail && memcmp(A.p + 16, tail, alen - 16)) bad = "wrote past a+16";
        free(tail);
    }
    if (d < 0 && !bad && (gcheck(&A) || gcheck(&M) || gcheck(&K))) bad = "wrote outside a buffer (canary)";
    if (d < 0 && !bad && (memcmp(M.p, m, len) || memcmp(K.p, k, 32))) bad = "modified an input";
    gfree(&A); gfree(&M); gfree(&K);
    free(m);
    if (d >= 0) return fail("onetimeauth_poly1305: len %zu, align a %u m %u, %s: differs from ref at byte %ld",
                            len, aalign, malign, palias_names[alias], d);
    if (bad) return fail("onetimeauth_poly1305: len %zu, align a %u m %u, %s: %s",
                         len, aalign, malign, palias_names[alias], bad);
    return 0;
}

/* accumulators at and around the modulus: with r = 1 the accumulator is
 * the sum of the blocks (each < 2^129), so runs of all-0xff blocks and
 * blocks just below them walk h across 2^130-5 and 2^130 */
static int poly_nearp(void)
{
    unsigned char k[32], m[16 * 9], want[16], got[16];
    for (int nb = 1; nb <= 9; nb++)
        for (int low = 0; low < 8; low++) {
            size_t len = 16 * (size_t)nb;
            memset(k, 0, 16);
            k[0] = 1;                                 /* r = 1 (survives clamping) */
            rnd_bytes(k + 16, 16);
            memset(m, 0xff, len);
            m[0] = (unsigned char)(0xff - low);       /* the first block a little lower */
            stage("onetimeauth_poly1305 near the modulus: %d blocks, low %d", nb, low);
            qhasm_ref_onetimeauth_poly1305(want, m, len, k);
            qhasm_onetimeauth_poly1305(got, m, len, k);
            long d = diffat(got, want, 16);
            if (d >= 0)
                return fail("onetimeauth_poly1305: accumulator near 2^130-5 (%d blocks of 0xff, first low byte 0x%02x): "
                            "differs from ref at byte %ld", nb, 0xff - low, d);
        }
    return 0;
}

static int poly_prim(void)
{
    size_t len, j, i;
    unsigned al;
    int t, alias;
    if (poly_vectors()) return 1;
    if (poly_nearp()) return 1;
    for (len = 0; len <= 1100; len++)
        if (poly_case(len, 0, 0, PA_SEPARATE, (int)(len % 5 == 0 ? len % 4 : 0))) return 1;
    for (t = 0; t < 24; t++)
        if (poly_case(rnd_below(MAXRANDLEN + 1), (unsigned)rnd_below(64), (unsigned)rnd_below(64),
                      (int)rnd_below(3), t % 4)) return 1;
    for (j = 0; j < NALIGNLEN; j++)
        for (al = 0; al < 64; al++) {
            if (poly_case(align_lengths[j], al, (al * 37 + 5) % 64, PA_SEPARATE, 0)) return 1;
            if (poly_case(align_lengths[j], (al * 11 + 3) % 64, al, PA_SEPARATE, 0)) return 1;
        }
    for (alias = PA_TAG_M; alias <= PA_TAG_K; alias++)
        for (len = 0; len <= 300; len++)
            if (poly_case(len, (unsigned)rnd_below(64), (unsigned)rnd_below(64), alias, 0)) return 1;

    /* verify: accepts the tag, rejects every single-bit change of it */
    for (t = 0; t < 40; t++) {
        unsigned char k[32], m[200], a[16];
        size_t l = rnd_below(sizeof m + 1);
        int bit;
        stage("onetimeauth_poly1305_verify %d", t);
        rnd_bytes(k, 32); rnd_bytes(m, l);
        qhasm_ref_onetimeauth_poly1305(a, m, l, k);
        if (qhasm_onetimeauth_poly1305_verify(a, m, l, k) != 0)
            return fail("onetimeauth_poly1305_verify: rejects a correct tag (len %zu)", l);
        for (bit = 0; bit < 128; bit++) {
            int r;
            a[bit / 8] ^= (unsigned char)(1 << (bit % 8));
            r = qhasm_onetimeauth_poly1305_verify(a, m, l, k);
            a[bit / 8] ^= (unsigned char)(1 << (bit % 8));
            if (r != -1) return fail("onetimeauth_poly1305_verify: returns %d for tag bit %d flipped (len %zu)", r, bit, l);
        }
        if (l) {
            m[rnd_below(l)] ^= 1;
            if (qhasm_onetimeauth_poly1305_verify(a, m, l, k) != -1)
                return fail("onetimeauth_poly1305_verify: accepts a changed message (len %zu)", l);
        }
    }

    /* incremental: every split point of a 300-byte message, then random multi-way splits */
    {
        unsigned char k[32], m[300], want[16], a[16];
        size_t cuts[8];
        rnd_bytes(k, 32); rnd_bytes(m, sizeof m);
        qhasm_ref_onetimeauth_poly1305(want, m, sizeof m, k);
        for (i = 0; i <= sizeof m; i++) {
            stage("onetimeauth_poly1305 incremental split at %zu", i);
            poly_incremental(a, m, sizeof m, k, &i, 1);
            if (diffat(a, want, 16) >= 0)
                return fail("onetimeauth_poly1305_update: 300-byte message split at %zu differs from one-shot", i);
        }
        for (t = 0; t < 300; t++) {
            int nc = 1 + (int)rnd_below(8), c;
            for (c = 0; c < nc; c++) cuts[c] = rnd_below(sizeof m + 1);
            for (c = 1; c < nc; c++) {             /* sort */
                size_t v = cuts[c]; int e = c;
                while (e > 0 && cuts[e - 1] > v) { cuts[e] = cuts[e - 1]; e--; }
                cuts[e] = v;
            }
            stage("onetimeauth_poly1305 incremental %d-way split %d", nc + 1, t);
            poly_incremental(a, m, sizeof m, k, cuts, nc);
            if (diffat(a, want, 16) >= 0)
                return fail("onetimeauth_poly1305_update: 300-byte message in %d pieces (first cut %zu) differs", nc + 1, cuts[0]);
        }
    }
    return 0;
}

/* ======================================================================== */
/* ABI conformance: every kernel of the dispatch tables and the public     */
/* functions on top of them, called through the checker's trampoline       */
/* (csrc/abicheck.c) on realistic inputs, results compared with ref        */
/* ======================================================================== */
#define U(x) ((uint64_t)(uintptr_t)(x))
#define FN(x) ((void (*)(void))(x))

/* one call through the trampoline; 1 (and the failure) on a violation.  sig:
 * one letter per argument, 'w' word (pointer, int), 'q' 64-bit (unsigned long
 * long), which 32-bit ABIs pass in two words; flags: QHASM_ABICHECK_COMPILED
 * for C code (the public functions, the c and ref kernels), which is held
 * to what the C compiler and C library honor (csrc/abicheck.h) */
static int abicall(const char *what, void (*fn)(void), const char *sig, unsigned flags, uint64_t a0, uint64_t a1,
                   uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t *ret)
{
    uint64_t args[6];
    char why[640];
    int r;
    args[0] = a0; args[1] = a1; args[2] = a2; args[3] = a3; args[4] = a4; args[5] = a5;
    stage("ABI check: %s", what);
    r = qhasm_abicheck_call_sig(fn, sig, flags, args, ret, why, sizeof why);
    sh->abicalls++;
    if (r == -1) return fail("ABI violation in %s: %s", what, why);
    return 0;
}

/* the kernels of the c and ref implementations are compiled C; all others
 * are generated assembly, checked against the letter of the ABI */
static unsigned kernel_abi_flags(const char *impl)
{
    return !strcmp(impl, "c") || !strcmp(impl, "ref") ? QHASM_ABICHECK_COMPILED : 0;
}

static const unsigned long long abi_nblocks[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33 };
#define NABI (sizeof abi_nblocks / sizeof abi_nblocks[0])
static const int salsa_rounds[3] = { 20, 12, 8 };

static int salsa_abi(int p, int i)
{
    const qhasm_salsa_impl *im = qhasm_salsa_get(p, i);
    const qhasm_salsa_impl *ref = qhasm_salsa_get(p, qhasm_impl_count(qhasm_prim_name(p)) - 1);
    const salsa_api *a = &salsa_apis[p];
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
            ref->blocks(want, m, nb, x2);
            if (inplace) memcpy(c, m, len);
            snprintf(what, sizeof what, "qhasm_kernel_salsa%d (%s) blocks, %llu blocks%s",
                     salsa_rounds[p], im->name, nb, inplace ? ", in place" : "");
            if (abicall(what, FN(im->blocks), "wwqw", kernel_abi_flags(im->name), U(c), U(inplace ? c : m), nb, U(x), 0, 0, NULL)) SFAIL("%s", sh->fail);
            if (diffat(c, want, len) >= 0 || memcmp(x, x2, sizeof x))
                SFAIL("%s: through the ABI checker: differs from ref", what);
        }
    {
        uint32_t xin[16], xo[16], xw[16];
        rnd_bytes((unsigned char *)xin, sizeof xin);
        ref->core(xw, xin);
        snprintf(what, sizeof what, "qhasm_kernel_salsa%d (%s) core", salsa_rounds[p], im->name);
        if (abicall(what, FN(im->core), "ww", kernel_abi_flags(im->name), U(xo), U(xin), 0, 0, 0, 0, NULL)) SFAIL("%s", sh->fail);
        if (memcmp(xo, xw, sizeof xo)) SFAIL("%s: through the ABI checker: differs from ref", what);
    }
    /* the public functions (C glue + this implementation, forced) */
    for (j = 0; j < sizeof lens / sizeof lens[0]; j++) {
        size_t len = lens[j];
        uint64_t ic = rnd_counter(), r = 1;
        rnd_bytes(k, 32); rnd_bytes(n, 24); rnd_bytes(m, len);
        qhasm_ref_stream_salsa_xor_ic(want, m, len, n, ic, k, a->rounds);
        snprintf(what, sizeof what, "stream_salsa%s_xor_ic (%s), len %zu", p ? (p == 1 ? "2012" : "208") : "20", im->name, len);
        if (abicall(what, FN(a->xor_ic), "wwqwqw", QHASM_ABICHECK_COMPILED, U(c), U(m), len, U(n), ic, U(k), &r)) SFAIL("%s", sh->fail);
        if ((int)r != 0 || diffat(c, want, len) >= 0) SFAIL("%s: through the ABI checker: wrong result", what);
        qhasm_ref_stream_salsa(want, len, n, k, a->rounds);
        snprintf(what, sizeof what, "stream_salsa%s (%s), len %zu", p ? (p == 1 ? "2012" : "208") : "20", im->name, len);
        if (abicall(what, FN(a->stream), "wqww", QHASM_ABICHECK_COMPILED, U(c), len, U(n), U(k), 0, 0, &r)) SFAIL("%s", sh->fail);
        if ((int)r != 0 || diffat(c, want, len) >= 0) SFAIL("%s: through the ABI checker: wrong result", what);
        qhasm_ref_stream_salsa_xor_ic(want, m, len, n, 0, k, a->rounds);
        if (abicall(what, FN(a->xor_), "wwqww", QHASM_ABICHECK_COMPILED, U(c), U(m), len, U(n), U(k), 0, &r)) SFAIL("%s", sh->fail);
        if ((int)r != 0 || diffat(c, want, len) >= 0) SFAIL("%s: through the ABI checker: wrong result", what);
        if (p == QHASM_PRIM_SALSA20) {
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

static int poly_abi(int i)
{
    const qhasm_poly1305_impl *im = qhasm_poly1305_get(i);
    static _Alignas(64) unsigned char ks[QHASM_POLY1305_KSTATE_BYTES];
    unsigned char k[32], m[16 * 33 + 16], pad[16], a16[16], want[16];
    char what[160];
    size_t j;
    for (j = 0; j < NABI; j++) {
        unsigned long long nb = abi_nblocks[j];
        size_t tail = (size_t)rnd_below(16), len = 16 * nb + tail;
        uint64_t r = 1;
        rnd_bytes(k, 32); rnd_bytes(m, len);
        qhasm_ref_onetimeauth_poly1305(want, m, len, k);
        snprintf(what, sizeof what, "qhasm_kernel_poly1305 (%s) init", im->name);
        if (abicall(what, FN(im->init), "ww", kernel_abi_flags(im->name), U(ks), U(k), 0, 0, 0, 0, NULL)) return 1;
        snprintf(what, sizeof what, "qhasm_kernel_poly1305 (%s) blocks, %llu blocks", im->name, nb);
        if (abicall(what, FN(im->blocks), "wwqw", kernel_abi_flags(im->name), U(ks), U(m), nb, 1, 0, 0, NULL)) return 1;
        if (tail) {
            memset(pad, 0, 16); memcpy(pad, m + 16 * nb, tail); pad[tail] = 1;
            snprintf(what, sizeof what, "qhasm_kernel_poly1305 (%s) blocks, final padded block", im->name);
            if (abicall(what, FN(im->blocks), "wwqw", kernel_abi_flags(im->name), U(ks), U(pad), 1, 0, 0, 0, NULL)) return 1;
        }
        snprintf(what, sizeof what, "qhasm_kernel_poly1305 (%s) final", im->name);
        if (abicall(what, FN(im->final), "ww", kernel_abi_flags(im->name), U(ks), U(a16), 0, 0, 0, 0, NULL)) return 1;
        if (memcmp(a16, want, 16))
            return fail("qhasm_kernel_poly1305 (%s) through the ABI checker: %zu-byte message: tag differs from ref", im->name, len);
        /* the public functions (C glue + this implementation, forced) */
        snprintf(what, sizeof what, "onetimeauth_poly1305 (%s), len %zu", im->name, len);
        if (abicall(what, FN(qhasm_onetimeauth_poly1305), "wwqw", QHASM_ABICHECK_COMPILED, U(a16), U(m), len, U(k), 0, 0, &r)) return 1;
        if ((int)r != 0 || memcmp(a16, want, 16)) return fail("%s: through the ABI checker: wrong result", what);
        snprintf(what, sizeof what, "onetimeauth_poly1305_verify (%s), len %zu", im->name, len);
        if (abicall(what, FN(qhasm_onetimeauth_poly1305_verify), "wwqw", QHASM_ABICHECK_COMPILED, U(want), U(m), len, U(k), 0, 0, &r)) return 1;
        if ((int)r != 0) return fail("%s: through the ABI checker: rejects the correct tag", what);
        {
            qhasm_onetimeauth_poly1305_state st;
            size_t cut = len / 2;
            snprintf(what, sizeof what, "onetimeauth_poly1305_init/update/final (%s), len %zu", im->name, len);
            if (abicall(what, FN(qhasm_onetimeauth_poly1305_init), "ww", QHASM_ABICHECK_COMPILED, U(&st), U(k), 0, 0, 0, 0, NULL)) return 1;
            if (abicall(what, FN(qhasm_onetimeauth_poly1305_update), "wwq", QHASM_ABICHECK_COMPILED, U(&st), U(m), cut, 0, 0, 0, NULL)) return 1;
            if (abicall(what, FN(qhasm_onetimeauth_poly1305_update), "wwq", QHASM_ABICHECK_COMPILED, U(&st), U(m + cut), len - cut, 0, 0, 0, NULL)) return 1;
            if (abicall(what, FN(qhasm_onetimeauth_poly1305_final), "ww", QHASM_ABICHECK_COMPILED, U(&st), U(a16), 0, 0, 0, 0, NULL)) return 1;
            if (memcmp(a16, want, 16)) return fail("%s: through the ABI checker: wrong result", what);
        }
    }
    return 0;
}

static int abi_checks(int p, int i)
{
    if (!qhasm_abicheck_abi()) return 0;    /* no trampoline for this CPU: the summary says so */
    return p == QHASM_PRIM_POLY1305 ? poly_abi(i) : salsa_abi(p, i);
}

/* ======================================================================== */
/* constant time, dynamically: --valgrind-ct                                */
/* Secret inputs (keys and messages; for Poly1305 also the kernel state)    */
/* are marked undefined with memcheck's client requests, so valgrind        */
/* reports every conditional branch and memory address that depends on     */
/* them; outputs are marked defined again before they are compared.        */
/* ======================================================================== */
#ifdef QHASM_HAVE_MEMCHECK
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define CT_ERRORS() ((unsigned long)VALGRIND_COUNT_ERRORS)
#define CT_ON_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#else
#define SECRET(p, n) ((void)(p), (void)(n))
#define PUBLIC(p, n) ((void)(p), (void)(n))
#define CT_ERRORS() 0UL
#define CT_ON_VALGRIND() 0
#endif

static const size_t ct_lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 300, 511, 512, 1025 };
#define NCT (sizeof ct_lens / sizeof ct_lens[0])

/* after each operation: did valgrind report anything since `before`? */
static int ct_verdict(unsigned long before, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    sh->ctcalls++;
    if (CT_ERRORS() == before) return 0;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return fail("valgrind: branch or memory address depends on secret data in %s (the valgrind report above says where)", what);
}

static int salsa_ct(int p, const char *impl)
{
    const salsa_api *a = &salsa_apis[p];
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
        if (p == QHASM_PRIM_SALSA20 && len % 3 == 0) {
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

static int poly_ct(int i)
{
    const qhasm_poly1305_impl *im = qhasm_poly1305_get(i);
    static _Alignas(64) unsigned char ks[QHASM_POLY1305_KSTATE_BYTES];
    unsigned char k[32], m[1100], a16[16], want[16], K[32], M[1100], A[16], pad[16];
    size_t j;
    unsigned long e;
    for (j = 0; j < NCT; j++) {
        size_t len = ct_lens[j], cut = len / 3;
        unsigned long long nb = len / 16;
        int r;
        qhasm_onetimeauth_poly1305_state st;
        rnd_bytes(k, 32); rnd_bytes(m, len);
        qhasm_ref_onetimeauth_poly1305(want, m, len, k);
        memcpy(K, k, 32); memcpy(M, m, len);
        SECRET(K, 32); SECRET(M, len);

        /* the kernel interface.  The kernel state is secret by propagation:
         * everything init derives from the key (r, s, powers of r) and
         * everything blocks derives from the message (the accumulator) is
         * undefined for memcheck; marking the whole state would also mark
         * the kernels' public bookkeeping (e.g. amd64-avx2's "powers of r
         * computed" flag) and report branches on it.  blocks runs twice, so
         * the state crosses a call boundary. */
        stage("valgrind-ct: qhasm_kernel_poly1305 (%s), len %zu", im->name, len);
        e = CT_ERRORS();
        im->init(ks, K);
        im->blocks(ks, M, nb / 2, 1);
        im->blocks(ks, M + 16 * (nb / 2), nb - nb / 2, 1);
        if (len % 16) {
            memset(pad, 0, 16); memcpy(pad, M + 16 * nb, len % 16); pad[len % 16] = 1;
            im->blocks(ks, pad, 1, 0);
        }
        im->final(ks, a16);
        PUBLIC(a16, 16);
        if (ct_verdict(e, "qhasm_kernel_poly1305_%s init/blocks/final, len %zu", im->name, len)) return 1;
        if (memcmp(a16, want, 16)) return fail("qhasm_kernel_poly1305 (%s), len %zu: tag differs from ref", im->name, len);

        /* the public functions: one-shot, verify (the tag under test is
         * secret too: the comparison must not leak where it differs), and
         * init/update/final */
        stage("valgrind-ct: onetimeauth_poly1305 (%s), len %zu", im->name, len);
        e = CT_ERRORS();
        qhasm_onetimeauth_poly1305(a16, M, len, K);
        PUBLIC(a16, 16);
        if (ct_verdict(e, "onetimeauth_poly1305 (%s), len %zu", im->name, len)) return 1;
        if (memcmp(a16, want, 16)) return fail("onetimeauth_poly1305 (%s), len %zu: differs from ref", im->name, len);
        stage("valgrind-ct: onetimeauth_poly1305_verify (%s), len %zu", im->name, len);
        memcpy(A, want, 16);
        if (len & 1) A[len % 16] ^= 0x10;
        SECRET(A, 16);
        e = CT_ERRORS();
        r = qhasm_onetimeauth_poly1305_verify(A, M, len, K);
        PUBLIC(&r, sizeof r);
        if (ct_verdict(e, "onetimeauth_poly1305_verify (%s), len %zu", im->name, len)) return 1;
        if (r != ((len & 1) ? -1 : 0)) return fail("onetimeauth_poly1305_verify (%s), len %zu: returns %d", im->name, len, r);
        stage("valgrind-ct: onetimeauth_poly1305_init/update/final (%s), len %zu", im->name, len);
        e = CT_ERRORS();
        qhasm_onetimeauth_poly1305_init(&st, K);
        qhasm_onetimeauth_poly1305_update(&st, M, cut);
        qhasm_onetimeauth_poly1305_update(&st, M + cut, len - cut);
        qhasm_onetimeauth_poly1305_final(&st, a16);
        PUBLIC(a16, 16);
        if (ct_verdict(e, "onetimeauth_poly1305_init/update/final (%s), len %zu", im->name, len)) return 1;
        if (memcmp(a16, want, 16)) return fail("onetimeauth_poly1305_update (%s), len %zu: differs from ref", im->name, len);
        PUBLIC(K, 32); PUBLIC(M, len);
    }
    return 0;
}

static int ct_child(int p, int i)
{
    if (p == QHASM_PRIM_POLY1305) return poly_ct(i);
    return salsa_ct(p, qhasm_impl_name(qhasm_prim_name(p), i));
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

/* ======================================================================== */
/* driver                                                                   */
/* ======================================================================== */
static const char *signame(int s)
{
    switch (s) {
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGALRM: return "SIGALRM (timeout)";
    case SIGKILL: return "SIGKILL";
    default: return "signal";
    }
}

/* modes: the default runs the ABI checks, then the functional tests */
static int abi_only, no_abi, ct_mode;

static int child(int p, int i)
{
    alarm(ct_mode ? 3600 : 600);
    if (qhasm_impl_force(qhasm_prim_name(p), i)) return fail("cannot force implementation");
    if (ct_mode) return ct_child(p, i);
    if (!no_abi && abi_checks(p, i)) return 1;
    if (abi_only) return 0;
    if (ref_self_check()) return 1;
    if (p == QHASM_PRIM_POLY1305) return poly_prim();
    return salsa_prim(p);
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: qhasm-test [-p prim] [-i impl] [-s seed] [-q] [-l]\n"
        "                  [--abi-only | --no-abi | --valgrind-ct] [--help]\n"
        "Checks every implementation of every primitive (each in a child process)\n"
        "against the reference C and published vectors, and calls each of its\n"
        "kernels and the public functions through the ABI checker (callee-saved\n"
        "registers, stack pointer, direction flag, dirty AVX state).\n"
        "  -p prim   only this primitive (salsa20, salsa2012, salsa208, poly1305;\n"
        "            aliases such as stream_salsa20_xor work); repeatable\n"
        "  -i impl   only this implementation (ref, c, amd64-avx2, ...); repeatable\n"
        "  -s seed   PRNG seed (decimal or 0x hex; default 0x7168617331323334)\n"
        "  -q        print only failures and the summary\n"
        "  -l        list primitives, implementations and CPU support, then exit\n"
        "  --abi-only     only the ABI checks\n"
        "  --no-abi       skip the ABI checks\n"
        "  --valgrind-ct  constant-time check instead: keys and messages (and the\n"
        "            Poly1305 state) are marked undefined for valgrind's memcheck,\n"
        "            which then reports every branch or address depending on them;\n"
        "            run as: valgrind --error-exitcode=1 qhasm-test --valgrind-ct\n"
        "            (exit status 77 if built without valgrind/memcheck.h)\n"
        "Output: one line per primitive and implementation: ok, FAIL <what>, or\n"
        "skipped <why>; then 'N passed, N failed, N skipped'. Exit status 1 on failure.\n"
        "QHASM_CPU_DISABLE=avx2,... pretends CPU features are absent.\n");
}

int main(int argc, char **argv)
{
    const char *prims[16], *impls[16];
    int nprims = 0, nimpls = 0, quiet = 0, list = 0, a, p, i, j;
    int passed = 0, failed = 0, skipped = 0, ctskipped = 0;
    unsigned long abicalls = 0, ctcalls = 0;
    uint64_t seed = 0x7168617331323334ULL;   /* "qhas1234" */

    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) { usage(stdout); return 0; }
        else if (!strcmp(argv[a], "-q")) quiet = 1;
        else if (!strcmp(argv[a], "-l")) list = 1;
        else if (!strcmp(argv[a], "-p") && a + 1 < argc && nprims < 16) prims[nprims++] = argv[++a];
        else if (!strcmp(argv[a], "-i") && a + 1 < argc && nimpls < 16) impls[nimpls++] = argv[++a];
        else if (!strcmp(argv[a], "-s") && a + 1 < argc) seed = strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "--abi-only")) abi_only = 1;
        else if (!strcmp(argv[a], "--no-abi")) no_abi = 1;
        else if (!strcmp(argv[a], "--valgrind-ct")) ct_mode = 1;
        else { usage(stderr); return 2; }
    }
    for (j = 0; j < nprims; j++)
        if (qhasm_prim_lookup(prims[j]) < 0) { fprintf(stderr, "qhasm-test: unknown primitive %s\n", prims[j]); return 2; }
    for (j = 0; j < nimpls; j++) {
        int found = 0;
        for (p = 0; qhasm_prim_name(p); p++) found |= qhasm_impl_find(qhasm_prim_name(p), impls[j]) >= 0;
        if (!found) { fprintf(stderr, "qhasm-test: unknown implementation %s\n", impls[j]); return 2; }
    }

    if (list) {
        unsigned f = qhasm_cpu_features();
        printf("cpu:");
        for (j = 0; j < QHASM_CPU_NFEATURES; j++)
            if (f & (1u << j)) printf(" %s", qhasm_cpu_feature_name(1u << j));
        printf("\n");
        for (p = 0; qhasm_prim_name(p); p++) {
            const char *pn = qhasm_prim_name(p);
            printf("%s:", pn);
            for (i = 0; i < qhasm_impl_count(pn); i++)
                printf(" %s%s%s", qhasm_impl_name(pn, i),
                       qhasm_impl_supported(pn, i) ? "" : "(unsupported)",
                       qhasm_impl_selected(pn) == i ? "(selected)" : "");
            printf("\n");
        }
        return 0;
    }

    if (abi_only && no_abi) { fprintf(stderr, "qhasm-test: --abi-only and --no-abi exclude each other\n"); return 2; }
    if (ct_mode) {
#ifndef QHASM_HAVE_MEMCHECK
        printf("qhasm-test: --valgrind-ct: not available: built without valgrind/memcheck.h\n");
        return 77;
#else
        if (!CT_ON_VALGRIND())
            fprintf(stderr, "qhasm-test: --valgrind-ct: NOT running under valgrind: secrets are not tracked, "
                            "this only runs the cases; use: valgrind --error-exitcode=1 %s --valgrind-ct\n", argv[0]);
#endif
    }

    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) die("mmap");
    if (!quiet) printf("qhasm-test: seed 0x%016llx\n", (unsigned long long)seed);
    if (ct_mode && !quiet)
        printf("qhasm-test: valgrind-ct: secret: keys, messages (and so the Poly1305 kernel state), the tag given to verify\n");
    if (!ct_mode && !no_abi && !quiet)
        printf("qhasm-test: ABI checker: %s\n", qhasm_abicheck_abi()
               ? qhasm_abicheck_coverage() : "none for this architecture (ABI checks skipped)");

    for (p = 0; qhasm_prim_name(p); p++) {
        const char *pn = qhasm_prim_name(p);
        int want = nprims == 0;
        for (j = 0; j < nprims; j++) want |= qhasm_prim_lookup(prims[j]) == p;
        if (!want) continue;
        for (i = 0; i < qhasm_impl_count(pn); i++) {
            const char *in = qhasm_impl_name(pn, i);
            int status;
            pid_t pid;
            want = nimpls == 0;
            for (j = 0; j < nimpls; j++) want |= qhasm_impl_find(pn, impls[j]) == i;
            if (!want) continue;
            if (!qhasm_impl_supported(pn, i)) {
                if (ct_mode && CT_ON_VALGRIND()) {
                    const char *miss = qhasm_impl_missing(pn, i);
                    printf("%-10s %-14s skipped: NOT CHECKED for constant time: %s%s\n", pn, in, miss,
                           strstr(miss, "avx512") ? " (valgrind does not emulate AVX-512; the CPU may have it)"
                                                  : " (under valgrind: its emulated CPU lacks the feature)");
                    ctskipped++;
                } else
                    printf("%-10s %-14s skipped %s\n", pn, in, qhasm_impl_missing(pn, i));
                skipped++;
                continue;
            }
            memset(sh, 0, sizeof *sh);
            fflush(stdout);
            pid = fork();
            if (pid < 0) die("fork");
            if (pid == 0) {
                rng = seed ^ ((uint64_t)p << 56) ^ ((uint64_t)i << 48);   /* same inputs per (prim, impl) whatever else runs */
                _exit(child(p, i) ? 1 : 0);
            }
            while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR) die("waitpid");
            abicalls += sh->abicalls;
            ctcalls += sh->ctcalls;
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                if (!quiet) printf("%-10s %-14s ok\n", pn, in);
                passed++;
            } else {
                if (WIFSIGNALED(status))
                    printf("%-10s %-14s FAIL killed by %s during %s\n", pn, in, signame(WTERMSIG(status)), sh->stage);
                else if (sh->fail[0])
                    printf("%-10s %-14s FAIL %s\n", pn, in, sh->fail);
                else
                    printf("%-10s %-14s FAIL exit status %d during %s\n", pn, in, WEXITSTATUS(status), sh->stage);
                failed++;
            }
        }
    }
    if (ct_mode)
        printf("valgrind-ct: %lu operations on secret data%s; %d implementation%s NOT checked for constant time%s\n",
               ctcalls, CT_ON_VALGRIND() ? " checked by valgrind" : " run (NOT under valgrind: nothing tracked)",
               ctskipped, ctskipped == 1 ? "" : "s", ctskipped ? " (listed above)" : "");
    else if (!no_abi) {
        if (qhasm_abicheck_abi())
            printf("abi: %lu calls through the %s checker\n", abicalls, qhasm_abicheck_abi());
        else
            printf("abi: no ABI checker for this architecture: calling conventions NOT checked\n");
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
