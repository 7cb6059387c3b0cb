/* qhasm-test's checks of the kem family (docs/kem.md): for implementation i
 * of a KEM primitive (sizes from its params pk= sk= ct= ss=)
 *
 *  - round trips: keypair, enc, dec agree on the session key;
 *  - byte sizes: every output byte is written (two runs on the same random
 *    bytes into buffers filled with 0x00 and 0xff agree) and nothing beyond
 *    (canaries around every buffer); inputs are not modified;
 *  - determinism against ref: on the same random bytes, the implementation
 *    and the ref kernels give the same pk, sk, ct and ss;
 *  - implicit rejection: decapsulating a modified ciphertext (each position
 *    class: first, second, middle, last bytes, the bytes around a trailing
 *    ss-byte confirmation; random positions; single-bit flips and random
 *    bytes; all-zero and all-0xff ciphertexts) returns 0 and the
 *    implicit-rejection key, computed independently from the secret key by
 *    the KEM's `param reject=NAME` rule (the table below), else at least a
 *    key other than the session key;
 *  - aliasing: enc with c or k on pk, dec with k on c or on sk;
 *  - known answers: the first `param katn=N` entries of the NIST KAT file
 *    (PQCgenKAT_kem format, randomness from NIST's AES-256 CTR DRBG,
 *    tests/kat/nist_drbg.c) hashed with SHA-256 equal `param kat=HEX`;
 *  - a split-independent source (qhasm_randombytes_set_stream): the same
 *    outputs from the same bytes as piecewise, in no more calls;
 *  - the default source (getrandom, restored by qhasm_randombytes_set(NULL)):
 *    a round trip, two key pairs differ;
 *  - the public functions and kernels through the ABI checker;
 *  - --valgrind-ct: keypair with the random bytes secret, enc with the
 *    random bytes secret, dec with the secret key and the ciphertext secret
 *    (a valid one and a modified one). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "kem_impl.h"
#include "hash_impl.h"
#include "../tests/kat/nist_drbg.c"

typedef struct { size_t pk, sk, ct, ss; } sizes;

static sizes sizes_of(int p)
{
    sizes s;
    s.pk = (size_t)qhasm_prim_param_long(p, "pk", 0);
    s.sk = (size_t)qhasm_prim_param_long(p, "sk", 0);
    s.ct = (size_t)qhasm_prim_param_long(p, "ct", 0);
    s.ss = (size_t)qhasm_prim_param_long(p, "ss", 0);
    return s;
}

/* ---- the random bytes the KEMs see --------------------------------------- */
/* a deterministic stream (splitmix64 of its own state), optionally marked
 * secret for valgrind; or NIST's DRBG for the KATs */
static uint64_t src_state;
static int src_secret;
static unsigned long long src_calls, src_bytes;
static nist_drbg drbg;

static void src_fn(unsigned char *x, unsigned long long n)
{
    unsigned long long j;
    src_calls++;
    src_bytes += n;
    for (j = 0; j < n; j++) {
        uint64_t z = (src_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        x[j] = (unsigned char)(z ^ (z >> 31));
    }
    if (src_secret) SECRET(x, n);
}

static void drbg_fn(unsigned char *x, unsigned long long n)
{
    nist_drbg_generate(&drbg, x, n);
}

static void src_seed(uint64_t s)
{
    src_state = s;
    src_calls = src_bytes = 0;
    qhasm_randombytes_set(src_fn);
}

/* ---- one KEM: either an implementation's kernels or the public functions */
typedef struct {
    qhasm_kem_keypair_fn *keypair;
    qhasm_kem_enc_fn *enc;
    qhasm_kem_dec_fn *dec;
    const char *name;
} kem;

static kem kem_impl(int p, int i)
{
    const qhasm_impl *im = qhasm_impl_get(p, i);
    kem k = { QHASM_KEM_KEYPAIR(im), QHASM_KEM_ENC(im), QHASM_KEM_DEC(im), im->name };
    return k;
}

static kem kem_public(int p)
{
    const qhasm_kem_api *a = qhasm_kem_public(p);
    kem k = { a->keypair, a->enc, a->dec, "public functions" };
    return k;
}

/* ---- the implicit-rejection keys, computed from the specifications -------- */
/* Streamlined NTRU Prime (round 3): HashSession(0, rho, c) =
 * first 32 bytes of SHA-512(0 || first 32 bytes of SHA-512(3 || rho) || c),
 * rho the Small_bytes = (p+3)/4 bytes before the last 32 of sk */
static void hash32(unsigned char *out, int b, const unsigned char *in, size_t n)
{
    unsigned char *x = malloc(n + 1), h[64];
    if (!x) die("malloc");
    x[0] = (unsigned char)b;
    memcpy(x + 1, in, n);
    qhasm_ref_sha512(h, x, n + 1);
    memcpy(out, h, 32);
    free(x);
}

static void reject_sntrup(int p, unsigned char *k, const unsigned char *c, const unsigned char *sk)
{
    sizes s = sizes_of(p);
    size_t small = (size_t)(qhasm_prim_param_long(p, "p", 0) + 3) / 4;
    unsigned char *x = malloc(32 + s.ct);
    if (!x) die("malloc");
    hash32(x, 3, sk + s.sk - 32 - small, small);
    memcpy(x + 32, c, s.ct);
    hash32(k, 0, x, 32 + s.ct);
    free(x);
}

/* Classic McEliece (round 4, non-f): K = SHAKE256(0 || s || c, 32 bytes),
 * s the last n/8 bytes of sk */
static void reject_mceliece(int p, unsigned char *k, const unsigned char *c, const unsigned char *sk)
{
    sizes s = sizes_of(p);
    size_t ne = (size_t)qhasm_prim_param_long(p, "n", 0) / 8;
    unsigned char *x = malloc(1 + ne + s.ct);
    if (!x || !ne) die("reject_mceliece: malloc or no `param n=`");
    x[0] = 0;
    memcpy(x + 1, sk + s.sk - ne, ne);
    memcpy(x + 1 + ne, c, s.ct);
    qhasm_ref_shake256(k, 32, x, 1 + ne + s.ct);
    free(x);
}

static const struct {
    const char *name;
    void (*fn)(int p, unsigned char *k, const unsigned char *c, const unsigned char *sk);
} rejects[] = {
    { "sntrup", reject_sntrup },
    { "mceliece", reject_mceliece },
};

static void (*reject_of(int p))(int, unsigned char *, const unsigned char *, const unsigned char *)
{
    const char *r = qhasm_prim_param(p, "reject");
    size_t j;
    for (j = 0; r && j < sizeof rejects / sizeof *rejects; j++)
        if (!strcmp(rejects[j].name, r)) return rejects[j].fn;
    if (r) die("kem family: `param reject=` names no rule of csrc/test_kem.c");
    return NULL;
}

/* ---- buffers -------------------------------------------------------------- */
typedef struct { gbuf pk, sk, c, k, k2; } kbufs;

static void kb_alloc(kbufs *b, sizes s, unsigned align)
{
    galloc(&b->pk, s.pk, align);
    galloc(&b->sk, s.sk, align);
    galloc(&b->c, s.ct, align);
    galloc(&b->k, s.ss, align);
    galloc(&b->k2, s.ss, align);
}

static int kb_check(const kbufs *b, const char *what)
{
    if (gcheck(&b->pk)) return fail("%s: wrote outside pk", what);
    if (gcheck(&b->sk)) return fail("%s: wrote outside sk", what);
    if (gcheck(&b->c)) return fail("%s: wrote outside c", what);
    if (gcheck(&b->k)) return fail("%s: wrote outside k", what);
    if (gcheck(&b->k2)) return fail("%s: wrote outside k", what);
    return 0;
}

static void kb_free(kbufs *b)
{
    gfree(&b->pk); gfree(&b->sk); gfree(&b->c); gfree(&b->k); gfree(&b->k2);
}

/* one keypair + enc + dec on the random stream seed; 1 on failure */
static int trip(const kem *K, sizes s, kbufs *b, uint64_t seed, const char *what)
{
    int r;
    src_seed(seed);
    stage("%s: %s keypair", what, K->name);
    if ((r = K->keypair(b->pk.p, b->sk.p))) return fail("%s: %s keypair returned %d", what, K->name, r);
    stage("%s: %s enc", what, K->name);
    if ((r = K->enc(b->c.p, b->k.p, b->pk.p))) return fail("%s: %s enc returned %d", what, K->name, r);
    stage("%s: %s dec", what, K->name);
    if ((r = K->dec(b->k2.p, b->c.p, b->sk.p))) return fail("%s: %s dec returned %d", what, K->name, r);
    if (memcmp(b->k.p, b->k2.p, s.ss)) return fail("%s: %s: dec gives another session key than enc", what, K->name);
    return kb_check(b, what);
}

/* ---- the checks --------------------------------------------------------- */
static int round_trips(int p, int i, sizes s)
{
    kem K = kem_impl(p, i), P = kem_public(p), R = kem_impl(p, QHASM_REF(p));
    long n = qhasm_prim_param_long(p, "trips", 4), t;
    for (t = 0; t < n; t++) {
        kbufs a, z, r;
        uint64_t seed = rnd();
        char what[96];
        unsigned align = (unsigned)(t % 8);
        snprintf(what, sizeof what, "round trip %ld (alignment %u)", t, align);
        kb_alloc(&a, s, align);
        kb_alloc(&z, s, align);
        /* byte sizes: the same random bytes into 0x00- and 0xff-filled buffers */
        memset(a.pk.p, 0, s.pk); memset(a.sk.p, 0, s.sk); memset(a.c.p, 0, s.ct); memset(a.k.p, 0, s.ss);
        memset(z.pk.p, 0xff, s.pk); memset(z.sk.p, 0xff, s.sk); memset(z.c.p, 0xff, s.ct); memset(z.k.p, 0xff, s.ss);
        if (trip(&K, s, &a, seed, what) || trip(&K, s, &z, seed, what)) return 1;
        if (memcmp(a.pk.p, z.pk.p, s.pk) || memcmp(a.sk.p, z.sk.p, s.sk) || memcmp(a.c.p, z.c.p, s.ct) ||
            memcmp(a.k.p, z.k.p, s.ss))
            return fail("%s: an output byte depends on the buffer's old contents (not every byte written: "
                        "pk %zu, sk %zu, ct %zu, ss %zu bytes)", what, s.pk, s.sk, s.ct, s.ss);
        /* the public functions and ref on the same random bytes */
        kb_alloc(&r, s, 0);
        if (trip(&P, s, &r, seed, what)) return 1;
        if (memcmp(a.pk.p, r.pk.p, s.pk) || memcmp(a.sk.p, r.sk.p, s.sk) || memcmp(a.c.p, r.c.p, s.ct) ||
            memcmp(a.k.p, r.k.p, s.ss))
            return fail("%s: the public functions differ from the forced implementation", what);
        if (trip(&R, s, &r, seed, what)) return 1;
        if (diffat(a.pk.p, r.pk.p, s.pk) >= 0) return fail("%s: pk differs from ref at byte %ld", what, diffat(a.pk.p, r.pk.p, s.pk));
        if (diffat(a.sk.p, r.sk.p, s.sk) >= 0) return fail("%s: sk differs from ref at byte %ld", what, diffat(a.sk.p, r.sk.p, s.sk));
        if (diffat(a.c.p, r.c.p, s.ct) >= 0) return fail("%s: ct differs from ref at byte %ld", what, diffat(a.c.p, r.c.p, s.ct));
        if (memcmp(a.k.p, r.k.p, s.ss)) return fail("%s: session key differs from ref", what);
        kb_free(&a); kb_free(&z); kb_free(&r);
    }
    return 0;
}

/* inputs unmodified and outputs aliasing inputs */
static int aliasing(int p, int i, sizes s)
{
    kem K = kem_impl(p, i);
    size_t big = s.pk + s.sk + s.ct + s.ss;
    unsigned char *pk = malloc(s.pk), *sk = malloc(s.sk), *c = malloc(s.ct), *k = malloc(s.ss),
                  *x = malloc(big), *y = malloc(big);
    uint64_t seed = rnd();
    int ret = 1;
    if (!pk || !sk || !c || !k || !x || !y) die("malloc");
    stage("aliasing: %s", K.name);
    src_seed(seed);
    K.keypair(pk, sk);
    src_seed(seed + 1);
    K.enc(c, k, pk);
    /* enc: c on pk (c written over the key it reads), then k on pk */
    memcpy(x, pk, s.pk);
    src_seed(seed + 1);
    K.enc(x, y, x);
    if (memcmp(x, c, s.ct) || memcmp(y, k, s.ss)) { fail("enc with c = pk differs"); goto out; }
    memcpy(x, pk, s.pk);
    src_seed(seed + 1);
    K.enc(y, x, x);
    if (memcmp(y, c, s.ct) || memcmp(x, k, s.ss)) { fail("enc with k = pk differs"); goto out; }
    /* dec: k on c, k on sk; c and sk unmodified otherwise */
    memcpy(x, c, s.ct);
    memcpy(y, sk, s.sk);
    K.dec(x, x, y);
    if (memcmp(x, k, s.ss)) { fail("dec with k = c differs"); goto out; }
    if (memcmp(y, sk, s.sk)) { fail("dec modified sk"); goto out; }
    memcpy(x, c, s.ct);
    K.dec(y, x, y);
    if (memcmp(y, k, s.ss)) { fail("dec with k = sk differs"); goto out; }
    if (memcmp(x, c, s.ct)) { fail("dec modified c"); goto out; }
    memcpy(x, pk, s.pk);
    src_seed(seed + 1);
    K.enc(y, y + s.ct, x);
    if (memcmp(x, pk, s.pk)) { fail("enc modified pk"); goto out; }
    ret = 0;
out:
    free(pk); free(sk); free(c); free(k); free(x); free(y);
    return ret;
}

static int rejection(int p, int i, sizes s)
{
    kem K = kem_impl(p, i);
    void (*rej)(int, unsigned char *, const unsigned char *, const unsigned char *) = reject_of(p);
    unsigned char *pk = malloc(s.pk), *sk = malloc(s.sk), *c = malloc(s.ct), *c2 = malloc(s.ct),
                  *k = malloc(s.ss), *k2 = malloc(s.ss), *want = malloc(s.ss);
    size_t cls[6] = { 0, 1, s.ct / 2, s.ct > s.ss ? s.ct - s.ss - 1 : 0, s.ct > s.ss ? s.ct - s.ss : 0, s.ct - 1 };
    int t, ret = 1, pad = (int)qhasm_prim_param_long(p, "ctpad", 0), padded = 0;
    if (!pk || !sk || !c || !c2 || !k || !k2 || !want) die("malloc");
    src_seed(rnd());
    K.keypair(pk, sk);
    K.enc(c, k, pk);
    /* the six position classes, then 10 random positions; a bit flip and a random byte each,
     * then an all-zero and an all-0xff ciphertext */
    for (t = 0; t < 2 * 16 + 2; t++) {
        size_t pos = t / 2 < 6 ? cls[t / 2] : rnd_below(s.ct);
        int r;
        memcpy(c2, c, s.ct);
        if (t >= 32) memset(c2, t == 32 ? 0 : 0xff, s.ct);
        else if (t % 2 == 0) c2[pos] ^= (unsigned char)(1u << rnd_below(8));
        else c2[pos] ^= (unsigned char)(1 + rnd_below(255));
        stage("rejection: %s, ciphertext modified at byte %zu (case %d)", K.name, pos, t);
        if (pad && (c2[s.ct - 1] >> (8 - pad))) {
            /* `param ctpad=B`: a padding bit set, not an encoding: -1 and a zero key */
            size_t z;
            if ((r = K.dec(k2, c2, sk)) != -1)
                return fail("dec of a ciphertext with a padding bit set (case %d) returned %d, not -1", t, r);
            for (z = 0; z < s.ss; z++)
                if (k2[z]) return fail("dec of a ciphertext with a padding bit set (case %d): key not zero", t);
            padded++;
            continue;
        }
        if ((r = K.dec(k2, c2, sk))) return fail("dec of a modified ciphertext (byte %zu) returned %d", pos, r);
        if (!memcmp(k2, k, s.ss)) return fail("dec of a modified ciphertext (byte %zu, case %d) gives the session key", pos, t);
        if (rej) {
            rej(p, want, c2, sk);
            if (memcmp(k2, want, s.ss))
                return fail("dec of a modified ciphertext (byte %zu, case %d) is not the implicit-rejection key", pos, t);
        }
        memcpy(want, k2, s.ss);
        K.dec(k2, c2, sk);
        if (memcmp(k2, want, s.ss)) return fail("dec of the same modified ciphertext gives another key");
    }
    /* ctpad: each padding bit alone, on the valid ciphertext */
    for (t = 0; t < pad; t++) {
        int r;
        size_t z;
        memcpy(c2, c, s.ct);
        c2[s.ct - 1] ^= (unsigned char)(0x80 >> t);
        stage("rejection: %s, padding bit %d of the last ciphertext byte", K.name, 7 - t);
        if ((r = K.dec(k2, c2, sk)) != -1) return fail("dec with padding bit %d set returned %d, not -1", 7 - t, r);
        for (z = 0; z < s.ss; z++)
            if (k2[z]) return fail("dec with padding bit %d set: key not zero", 7 - t);
        padded++;
    }
    if (pad && !padded) die("kem family: ctpad cases not run");
    /* the unmodified ciphertext again: the session key */
    K.dec(k2, c, sk);
    if (memcmp(k2, k, s.ss)) { fail("dec after the modified ciphertexts gives another session key"); goto out; }
    ret = 0;
out:
    free(pk); free(sk); free(c); free(c2); free(k); free(k2); free(want);
    return ret;
}

/* ---- the NIST KAT file (PQCgenKAT_kem) ------------------------------------ */
typedef struct { char *s; size_t n, cap; } text;

static void put(text *t, const char *fmt, const unsigned char *b, size_t n, int count)
{
    size_t need = strlen(fmt) + 2 * n + 32, j;
    if (t->n + need >= t->cap) {
        t->cap = 2 * (t->n + need);
        t->s = realloc(t->s, t->cap);
        if (!t->s) die("realloc");
    }
    if (!b) { t->n += (size_t)sprintf(t->s + t->n, fmt, count); return; }
    t->n += (size_t)sprintf(t->s + t->n, "%s", fmt);
    for (j = 0; j < n; j++) t->n += (size_t)sprintf(t->s + t->n, "%02X", b[j]);
    t->n += (size_t)sprintf(t->s + t->n, "\n");
}

/* the text of the first n entries of the .rsp file ("# NAME", a blank
 * line, then per entry count, seed, pk, sk, ct, ss and a blank line) */
static int kem_kat_text(int p, const kem *K, long n, const char *name, unsigned char hash[32], text *t)
{
    sizes s = sizes_of(p);
    unsigned char entropy[48], (*seeds)[48] = malloc((size_t)n * 48), *pk = malloc(s.pk), *sk = malloc(s.sk),
                  *c = malloc(s.ct), *k = malloc(s.ss), *k2 = malloc(s.ss);
    long j;
    if (!seeds || !pk || !sk || !c || !k || !k2) die("malloc");
    for (j = 0; j < 48; j++) entropy[j] = (unsigned char)j;
    nist_drbg_init(&drbg, entropy, NULL);
    for (j = 0; j < n; j++) nist_drbg_generate(&drbg, seeds[j], 48);
    t->cap = 4096 + strlen(name);
    t->s = malloc(t->cap);
    if (!t->s) die("malloc");
    t->n = (size_t)sprintf(t->s, "# %s\n\n", name);
    qhasm_randombytes_set(drbg_fn);
    for (j = 0; j < n; j++) {
        stage("KAT entry %ld: %s", j, K->name);
        nist_drbg_init(&drbg, seeds[j], NULL);
        K->keypair(pk, sk);
        K->enc(c, k, pk);
        K->dec(k2, c, sk);
        if (memcmp(k, k2, s.ss)) { qhasm_randombytes_set(NULL); return fail("KAT entry %ld: dec gives another key", j); }
        put(t, "count = %d\n", NULL, 0, (int)j);
        put(t, "seed = ", seeds[j], 48, 0);
        put(t, "pk = ", pk, s.pk, 0);
        put(t, "sk = ", sk, s.sk, 0);
        put(t, "ct = ", c, s.ct, 0);
        put(t, "ss = ", k, s.ss, 0);
        put(t, "\n", NULL, 0, 0);
    }
    qhasm_randombytes_set(NULL);
    sha256_hash(hash, (const unsigned char *)t->s, t->n);
    free(seeds); free(pk); free(sk); free(c); free(k); free(k2);
    return 0;
}

/* `param katshort=N:HEX`: the hash of the first N entries, checked instead
 * of `kat=` on 32-bit builds and under QHASM_KAT_SHORT=1 (the sanitizer
 * run), where the slow key generation of every entry would dominate the
 * run (mceliece6960119 on x86: about 200 s an entry under load) */
static int kat_short(int p, const char **want, long *n)
{
    const char *e = getenv("QHASM_KAT_SHORT"), *ks = qhasm_prim_param(p, "katshort");
    char *end;
    long m;
    if (!ks || (sizeof(void *) >= 8 && !(e && *e && strcmp(e, "0")))) return 0;
    m = strtol(ks, &end, 10);
    if (m <= 0 || *end != ':') die("kem family: `param katshort=` is N:HEX");
    *n = m;
    *want = end + 1;
    return 1;
}

static int kat(int p, int i)
{
    const char *want = qhasm_prim_param(p, "kat"), *name = qhasm_prim_param(p, "katname");
    long n = qhasm_prim_param_long(p, "katn", 10), full = n;
    kem K = kem_impl(p, i);
    unsigned char h[32], w[32];
    text t;
    char got[65];
    int j;
    if (!want) return 0;
    if (kat_short(p, &want, &n)) {
        printf("%s %s: KAT: the first %ld entries only (32-bit build or QHASM_KAT_SHORT); "
               "SKIPPED here: entries %ld to %ld (they run in the 64-bit native run)\n",
               qhasm_prim_name(p), K.name, n, n, full - 1);
        fflush(stdout);
    }
    if (strlen(want) != 64) die("kem family: `param kat=` is a SHA-256 (64 hex digits)");
    if (kem_kat_text(p, &K, n, name ? name : qhasm_prim_name(p), h, &t)) return 1;
    if (getenv("QHASM_KAT_DUMP")) {
        FILE *f = fopen(getenv("QHASM_KAT_DUMP"), "w");
        if (f) { fwrite(t.s, 1, t.n, f); fclose(f); }
    }
    free(t.s);
    hex(w, want);
    for (j = 0; j < 32; j++) sprintf(got + 2 * j, "%02x", h[j]);
    if (memcmp(h, w, 32)) return fail("KAT: SHA-256 of the first %ld entries is %s, expected %s", n, got, want);
    return 0;
}

/* a split-independent source (qhasm_randombytes_set_stream; src_fn's output
 * is one byte stream however it is asked): the same keys and ciphertext as
 * under qhasm_randombytes_set, from the same bytes in the same places, in
 * no more calls (sntrup761: one per buffer instead of one per 4-byte
 * piece) */
static int stream_source(int p, int i, sizes s)
{
    kem K = kem_impl(p, i);
    kbufs a, b;
    uint64_t seed = rnd();
    unsigned long long calls, bytes;
    kb_alloc(&a, s, 0);
    kb_alloc(&b, s, 0);
    stage("split-independent random source (qhasm_randombytes_set_stream): %s", K.name);
    src_seed(seed);
    if (K.keypair(a.pk.p, a.sk.p) || K.enc(a.c.p, a.k.p, a.pk.p)) return fail("keypair or enc failed");
    calls = src_calls; bytes = src_bytes;
    src_seed(seed);
    qhasm_randombytes_set_stream(src_fn);
    if (K.keypair(b.pk.p, b.sk.p) || K.enc(b.c.p, b.k.p, b.pk.p)) return fail("keypair or enc failed");
    if (memcmp(a.pk.p, b.pk.p, s.pk) || memcmp(a.sk.p, b.sk.p, s.sk) || memcmp(a.c.p, b.c.p, s.ct) ||
        memcmp(a.k.p, b.k.p, s.ss))
        return fail("a split-independent source gives other keys or another ciphertext than the same bytes piecewise");
    if (src_bytes != bytes || src_calls > calls)
        return fail("split-independent source: %llu bytes in %llu calls, piecewise %llu bytes in %llu calls",
                    src_bytes, src_calls, bytes, calls);
    K.dec(b.k2.p, b.c.p, b.sk.p);
    if (memcmp(b.k.p, b.k2.p, s.ss)) return fail("split-independent source: dec gives another session key");
    if (kb_check(&a, "stream source") || kb_check(&b, "stream source")) return 1;
    kb_free(&a); kb_free(&b);
    return 0;
}

/* the default source (getrandom): a round trip, and two key pairs differ */
static int default_source(int p, int i, sizes s)
{
    kem K = kem_impl(p, i);
    kbufs a, b;
    kb_alloc(&a, s, 0);
    kb_alloc(&b, s, 0);
    stage("default random source (getrandom): %s", K.name);
    qhasm_randombytes_set(src_fn);
    qhasm_randombytes_set(NULL);
    K.keypair(a.pk.p, a.sk.p);
    K.keypair(b.pk.p, b.sk.p);
    if (!memcmp(a.pk.p, b.pk.p, s.pk) || !memcmp(a.sk.p, b.sk.p, s.sk))
        return fail("two key pairs from getrandom are equal (qhasm_randombytes_set(NULL) did not restore it?)");
    K.enc(a.c.p, a.k.p, a.pk.p);
    K.dec(a.k2.p, a.c.p, a.sk.p);
    if (memcmp(a.k.p, a.k2.p, s.ss)) return fail("default random source: dec gives another session key");
    if (kb_check(&a, "default random source") || kb_check(&b, "default random source")) return 1;
    kb_free(&a); kb_free(&b);
    return 0;
}

/* `param emulated=light` under QHASM_EMULATED=1 (tests/sh/cross.sh's qemu
 * runs): key generation too slow for the full checks (Classic McEliece);
 * one round trip with canaries, the session key, and one modified
 * ciphertext giving the implicit-rejection key.  Said loudly. */
static int emulated_light(int p)
{
    const char *e = getenv("QHASM_EMULATED"), *l = qhasm_prim_param(p, "emulated");
    return e && *e && strcmp(e, "0") && l && !strcmp(l, "light");
}

static int light_trip(int p, int i, sizes s)
{
    kem K = kem_impl(p, i);
    void (*rej)(int, unsigned char *, const unsigned char *, const unsigned char *) = reject_of(p);
    kbufs b;
    unsigned char *want = malloc(s.ss);
    int r;
    if (!want) die("malloc");
    printf("%s %s: under emulation: one round trip and one modified ciphertext only; SKIPPED here: "
           "the KAT, aliasing, alignment and ref comparisons (slow key generation; they run natively)\n",
           qhasm_prim_name(p), K.name);
    fflush(stdout);
    kb_alloc(&b, s, 3);
    if (trip(&K, s, &b, rnd(), "emulated round trip")) return 1;
    b.c.p[s.ct / 2] ^= 0x10;
    if ((r = K.dec(b.k2.p, b.c.p, b.sk.p))) return fail("dec of a modified ciphertext returned %d", r);
    if (!memcmp(b.k.p, b.k2.p, s.ss)) return fail("dec of a modified ciphertext gives the session key");
    if (rej) {
        rej(p, want, b.c.p, b.sk.p);
        if (memcmp(b.k2.p, want, s.ss)) return fail("dec of a modified ciphertext is not the implicit-rejection key");
    }
    r = kb_check(&b, "emulated round trip");
    kb_free(&b);
    free(want);
    return r;
}

static int kem_check(int p, int i)
{
    sizes s = sizes_of(p);
    int r = emulated_light(p) ? light_trip(p, i, s)
          : round_trips(p, i, s) || aliasing(p, i, s) || rejection(p, i, s) || kat(p, i) ||
            stream_source(p, i, s) || default_source(p, i, s);
    qhasm_randombytes_set(NULL);
    return r;
}

/* ---- ABI ------------------------------------------------------------------ */
static int kem_abi(int p, int i)
{
    sizes s = sizes_of(p);
    const qhasm_impl *im = qhasm_impl_get(p, i);
    kem K = kem_impl(p, i);
    const qhasm_kem_api *A = qhasm_kem_public(p);
    unsigned char *pk = malloc(s.pk), *sk = malloc(s.sk), *c = malloc(s.ct), *k = malloc(s.ss),
                  *pk2 = malloc(s.pk), *sk2 = malloc(s.sk), *c2 = malloc(s.ct), *k2 = malloc(s.ss);
    uint64_t seed = rnd(), r;
    char what[160];
    int pub;
    /* emulated=light under qemu: one key pair only, the kernel's through the
     * checker (its result is the reference); the public function's keypair
     * is not called (slow key generation); enc and dec are checked as usual */
    int light = emulated_light(p);
    uint64_t after_kp = 0;
    if (!pk || !sk || !c || !k || !pk2 || !sk2 || !c2 || !k2) die("malloc");
    src_seed(seed);
    if (!light) {
        K.keypair(pk, sk);
        K.enc(c, k, pk);
    }
    for (pub = 0; pub < 2; pub++) {
        unsigned flags = pub ? QHASM_ABICHECK_COMPILED : kernel_abi_flags(im->name);
        void (*kp)(void) = pub ? FN(A->keypair) : FN(K.keypair), (*en)(void) = pub ? FN(A->enc) : FN(K.enc),
             (*de)(void) = pub ? FN(A->dec) : FN(K.dec);
        const char *who = pub ? "public function" : im->name;
        src_seed(seed);
        snprintf(what, sizeof what, "%s keypair (%s)", qhasm_prim_name(p), who);
        r = 1;
        if (light && pub) {
            src_state = after_kp;
        } else {
            if (abicall(what, kp, "ww", flags, U(pk2), U(sk2), 0, 0, 0, 0, &r)) return 1;
            if (light) {
                if ((int)r) return fail("%s: through the ABI checker: returned %d", what, (int)r);
                memcpy(pk, pk2, s.pk);
                memcpy(sk, sk2, s.sk);
                after_kp = src_state;
                K.enc(c, k, pk);
                src_state = after_kp;
            } else if ((int)r || memcmp(pk, pk2, s.pk) || memcmp(sk, sk2, s.sk))
                return fail("%s: through the ABI checker: wrong result", what);
        }
        snprintf(what, sizeof what, "%s enc (%s)", qhasm_prim_name(p), who);
        r = 1;
        if (abicall(what, en, "www", flags, U(c2), U(k2), U(pk), 0, 0, 0, &r)) return 1;
        if ((int)r || memcmp(c, c2, s.ct) || memcmp(k, k2, s.ss)) return fail("%s: through the ABI checker: wrong result", what);
        snprintf(what, sizeof what, "%s dec (%s)", qhasm_prim_name(p), who);
        r = 1;
        memset(k2, 0, s.ss);
        if (abicall(what, de, "www", flags, U(k2), U(c), U(sk), 0, 0, 0, &r)) return 1;
        if ((int)r || memcmp(k, k2, s.ss)) return fail("%s: through the ABI checker: wrong result", what);
    }
    qhasm_randombytes_set(NULL);
    free(pk); free(sk); free(c); free(k); free(pk2); free(sk2); free(c2); free(k2);
    return 0;
}

/* ---- valgrind constant time ------------------------------------------------ */
static int kem_ct(int p, int i)
{
    sizes s = sizes_of(p);
    kem K = kem_impl(p, i);
    unsigned char *pk = malloc(s.pk), *sk = malloc(s.sk), *c = malloc(s.ct), *k = malloc(s.ss), *k2 = malloc(s.ss);
    long n = qhasm_prim_param_long(p, "ctrounds", 2), t;
    unsigned long e;
    if (!pk || !sk || !c || !k || !k2) die("malloc");
    for (t = 0; t < n; t++) {
        src_seed(rnd());
        src_secret = 1;
        stage("valgrind-ct: %s keypair (%s), random bytes secret", qhasm_prim_name(p), K.name);
        e = CT_ERRORS();
        K.keypair(pk, sk);
        PUBLIC(pk, s.pk);
        PUBLIC(sk, s.sk);
        if (ct_verdict(e, "%s keypair (%s), random bytes secret", qhasm_prim_name(p), K.name)) return 1;
        stage("valgrind-ct: %s enc (%s), random bytes secret", qhasm_prim_name(p), K.name);
        e = CT_ERRORS();
        K.enc(c, k, pk);
        PUBLIC(c, s.ct);
        PUBLIC(k, s.ss);
        if (ct_verdict(e, "%s enc (%s), random bytes secret", qhasm_prim_name(p), K.name)) return 1;
        src_secret = 0;
        stage("valgrind-ct: %s dec (%s), secret key and ciphertext secret", qhasm_prim_name(p), K.name);
        SECRET(sk, s.sk);
        SECRET(c, s.ct);
        e = CT_ERRORS();
        K.dec(k2, c, sk);
        PUBLIC(k2, s.ss);
        if (ct_verdict(e, "%s dec (%s), sk and c secret", qhasm_prim_name(p), K.name)) return 1;
        PUBLIC(c, s.ct);
        if (memcmp(k, k2, s.ss)) return fail("dec under valgrind-ct gives another key");
        c[rnd_below(s.ct)] ^= 4;
        SECRET(c, s.ct);
        stage("valgrind-ct: %s dec (%s) of a modified ciphertext, sk and c secret", qhasm_prim_name(p), K.name);
        e = CT_ERRORS();
        K.dec(k2, c, sk);
        PUBLIC(k2, s.ss);
        if (ct_verdict(e, "%s dec (%s) of a modified ciphertext, sk and c secret", qhasm_prim_name(p), K.name)) return 1;
        PUBLIC(sk, s.sk);
        PUBLIC(c, s.ct);
        if (!memcmp(k, k2, s.ss)) return fail("dec of a modified ciphertext gives the session key");
    }
    qhasm_randombytes_set(NULL);
    free(pk); free(sk); free(c); free(k); free(k2);
    return 0;
}

const qhasm_test_family qhasm_test_kem = { kem_check, kem_abi, kem_ct,
    "keypair: the random bytes; enc: the random bytes; dec: the secret key and the ciphertext" };
