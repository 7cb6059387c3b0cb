/* qhasm-test's checks of the hash family (the manifest's `param fn=`:
 * sha512 or shake256): the FIPS 180-4 and FIPS 202 example vectors, every
 * length 0..1100 and random long ones against the reference, unaligned
 * buffers, output aliasing the input, canaries, the incremental SHAKE256,
 * the ABI checks of the kernels and public functions, and the valgrind
 * constant-time check with the message secret. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "hash_impl.h"

/* one hash function of the family: the public one-shot function as
 * out(outlen) = H(in), outlen fixed (SHA-512) or free (SHAKE256) */
typedef struct {
    const char *fn, *api;
    size_t fixed_out;          /* 0: extendable output */
    size_t block;              /* the kernel's block bytes */
    int (*pub)(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);
    int (*ref)(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);
    int (*wrap)(const qhasm_impl *im, unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);
    size_t state_words;
    const char *kernel;        /* qhasm_kernel_<kernel>_<impl>_... */
    qhasm_hash_blocks_fn *refblocks;
} hash_api;

static int sha512_pub(unsigned char *o, size_t ol, const unsigned char *in, size_t il)
{ (void)ol; return qhasm_hash_sha512(o, in, il); }
static int sha512_ref(unsigned char *o, size_t ol, const unsigned char *in, size_t il)
{ (void)ol; return qhasm_ref_sha512(o, in, il); }
static int sha512_wrap(const qhasm_impl *im, unsigned char *o, size_t ol, const unsigned char *in, size_t il)
{ (void)ol; return qhasm_sha512_wrap(im, o, in, il); }
static int shake_pub(unsigned char *o, size_t ol, const unsigned char *in, size_t il)
{ return qhasm_xof_shake256(o, ol, in, il); }
static int shake_ref(unsigned char *o, size_t ol, const unsigned char *in, size_t il)
{ return qhasm_ref_shake256(o, ol, in, il); }
static int shake_wrap(const qhasm_impl *im, unsigned char *o, size_t ol, const unsigned char *in, size_t il)
{ return qhasm_shake256_wrap(im, o, ol, in, il); }

static const hash_api apis[] = {
    { "sha512", "hash_sha512", 64, QHASM_SHA512_BLOCK, sha512_pub, sha512_ref, sha512_wrap, 8, "sha512", qhasm_kernel_sha512_ref_blocks },
    { "shake256", "xof_shake256", 0, QHASM_SHAKE256_RATE, shake_pub, shake_ref, shake_wrap, 25, "shake256", qhasm_kernel_shake256_ref_blocks },
};

static const hash_api *api_of(int p)
{
    const char *fn = qhasm_prim_param(p, "fn");
    size_t k;
    for (k = 0; fn && k < sizeof apis / sizeof *apis; k++)
        if (!strcmp(apis[k].fn, fn)) return &apis[k];
    die("hash family: the primitive's `param fn=` names no known hash function");
    return NULL;
}

/* ---- published vectors --------------------------------------------------- */
/* FIPS 180-4 examples (NIST CSRC "SHA512.pdf", and the 448-bit message of
 * the SHA-256 examples), and the one-million-'a' message */
static const struct { const char *msg; size_t repeat; const char *digest; } sha512_vec[] = {
    { "abc", 1, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
    { "", 1, "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
      "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445" },
    { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 1,
      "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
    { "a", 1000000, "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b" },
};
/* FIPS 202 examples (NIST CSRC "SHAKE256_Msg0.pdf", "SHAKE256_Msg1600.pdf":
 * 4096 output bits of the empty message and of 200 bytes 0xa3): the first
 * 64 and the last 32 of the 512 output bytes, and SHA-256 of all 512 */
static const struct { size_t len; const char *first64, *last32, *sha256; } shake_vec[] = {
    { 0, "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be",
      "ab0bae316339894304e35877b0c28a9b1fd166c796b9cc258a064a8f57e27f2a",
      "d018698fef76d90be13ccff752556ac41ebe9152d0820b6a49da74a5e63e0e02" },
    { 200, "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d2d700caae7396ece96604440577da4f3aa22aeb8857f961c4cd8e06f0ae6610b",
      "6a1a9d7846436e4dca5728b6f760eef0ca92bf0be5615e96959d767197a0beeb",
      "5324d170930075b539d5b2752dfe21dca1a2172f5fc7f48ab6f468162ab458ea" },
};
/* output lengths at which the SHAKE256 examples are checked (prefixes of
 * the 512 bytes: SHAKE output of length d is the first d bytes) */
static const size_t shake_outlens[] = { 1, 7, 8, 32, 64, 135, 136, 137, 272, 273, 511, 512 };

static int sha512_vectors(void)
{
    size_t k, j;
    for (k = 0; k < sizeof sha512_vec / sizeof *sha512_vec; k++) {
        size_t l = strlen(sha512_vec[k].msg), len = l * sha512_vec[k].repeat;
        unsigned char *m = malloc(len + 1), want[64], out[64];
        long d;
        if (!m) die("malloc");
        for (j = 0; j < sha512_vec[k].repeat; j++) memcpy(m + j * l, sha512_vec[k].msg, l);
        stage("FIPS 180-4 SHA-512 example %zu (%zu bytes)", k, len);
        hex(want, sha512_vec[k].digest);
        qhasm_hash_sha512(out, m, len);
        free(m);
        if ((d = diffat(out, want, 64)) >= 0)
            return fail("hash_sha512: FIPS 180-4 example %zu (%zu bytes) differs at byte %ld", k, len, d);
    }
    return 0;
}

static int shake_vectors(void)
{
    size_t k, j;
    for (k = 0; k < sizeof shake_vec / sizeof *shake_vec; k++) {
        unsigned char m[200], out[512], f[64], l[32], h[32], digest[32];
        long d;
        memset(m, 0xa3, sizeof m);
        hex(f, shake_vec[k].first64); hex(l, shake_vec[k].last32); hex(h, shake_vec[k].sha256);
        for (j = 0; j < sizeof shake_outlens / sizeof *shake_outlens; j++) {
            size_t ol = shake_outlens[j];
            stage("FIPS 202 SHAKE256 example, %zu-byte message, %zu output bytes", shake_vec[k].len, ol);
            memset(out, 0, sizeof out);
            qhasm_xof_shake256(out, ol, m, shake_vec[k].len);
            if ((d = diffat(out, f, ol < 64 ? ol : 64)) >= 0)
                return fail("xof_shake256: FIPS 202 example (%zu-byte message), %zu output bytes: differs at byte %ld",
                            shake_vec[k].len, ol, d);
            if (ol == 512) {
                if ((d = diffat(out + 480, l, 32)) >= 0)
                    return fail("xof_shake256: FIPS 202 example (%zu-byte message): output byte %ld differs",
                                shake_vec[k].len, 480 + d);
                sha256_hash(digest, out, 512);
                if (diffat(digest, h, 32) >= 0)
                    return fail("xof_shake256: FIPS 202 example (%zu-byte message): the 512 output bytes differ",
                                shake_vec[k].len);
            }
        }
    }
    return 0;
}

/* ---- against the reference --------------------------------------------- */
enum { AL_SEPARATE, AL_INPLACE, AL_OVERLAP };
static const char *const alias_names[] = { "separate", "out=in", "out=in+1" };

/* one call of the public function with guarded buffers; alias: out at the
 * input's start, or one byte into it */
static int hash_case(const hash_api *a, size_t len, size_t outlen, unsigned ialign, unsigned oalign, int alias)
{
    size_t span = len + outlen + 1;
    unsigned char *m = malloc(len + 1), *want = malloc(outlen + 1);
    gbuf I, O;
    long d;
    int bad = 0;
    if (!m || !want) die("malloc");
    stage("%s len %zu outlen %zu align %u/%u %s", a->api, len, outlen, ialign, oalign, alias_names[alias]);
    rnd_bytes(m, len);
    a->ref(want, outlen, m, len);
    if (alias == AL_SEPARATE) {
        galloc(&I, len, ialign); memcpy(I.p, m, len);
        galloc(&O, outlen, oalign);
        a->pub(O.p, outlen, I.p, len);
        d = diffat(O.p, want, outlen);
        if (d < 0 && (gcheck(&I) || gcheck(&O))) bad = 2;
        if (d < 0 && !bad && memcmp(I.p, m, len)) bad = 3;
        gfree(&O);
    } else {
        size_t off = alias == AL_OVERLAP ? 1 : 0;
        galloc(&I, span, ialign);
        memcpy(I.p + off, m, len);
        a->pub(I.p, outlen, I.p + off, len);
        d = diffat(I.p, want, outlen);
        if (d < 0 && gcheck(&I)) bad = 2;
    }
    gfree(&I);
    free(m); free(want);
    if (d >= 0) return fail("%s: %zu-byte message, %zu output bytes, alignment %u/%u, %s: differs from ref at byte %ld",
                            a->api, len, outlen, ialign, oalign, alias_names[alias], d);
    if (bad == 2) return fail("%s: wrote outside the buffers (canary): %zu-byte message, %s", a->api, len, alias_names[alias]);
    if (bad == 3) return fail("%s: modified its input: %zu-byte message", a->api, len);
    return 0;
}

/* an output length for message length len (SHAKE256: varied across the
 * squeeze boundaries) */
static size_t outlen_for(const hash_api *a, size_t len)
{
    static const size_t ol[] = { 0, 1, 32, 64, 135, 136, 137, 200, 272, 300, 545 };
    return a->fixed_out ? a->fixed_out : ol[len % (sizeof ol / sizeof *ol)];
}

/* incremental SHAKE256: random splits of absorb and squeeze */
static int shake_incremental(void)
{
    unsigned char m[700], want[700], out[700];
    int t;
    for (t = 0; t < 300; t++) {
        size_t len = rnd_below(sizeof m + 1), ol = 1 + rnd_below(sizeof out), done;
        qhasm_xof_shake256_state st, copy;
        long d;
        stage("xof_shake256 incremental %d: %zu bytes in, %zu out", t, len, ol);
        rnd_bytes(m, len);
        qhasm_ref_shake256(want, ol, m, len);
        qhasm_xof_shake256_init(&st);
        for (done = 0; done < len;) {
            size_t n = rnd_below(len - done + 1);
            if (t % 3 == 0) n = n % 140;
            qhasm_xof_shake256_absorb(&st, m + done, n);
            done += n;
        }
        memcpy(&copy, &st, sizeof st);
        for (done = 0; done < ol;) {
            size_t n = rnd_below(ol - done + 1);
            if (t % 2) n = n % 140;
            qhasm_xof_shake256_squeeze(&st, out + done, n);
            done += n;
        }
        if ((d = diffat(out, want, ol)) >= 0)
            return fail("xof_shake256_absorb/squeeze: %zu bytes in, %zu out, random pieces: differs at byte %ld", len, ol, d);
        if (qhasm_xof_shake256_absorb(&st, m, 1) != -1)
            return fail("xof_shake256_absorb: accepted input after squeeze");
        qhasm_xof_shake256_squeeze(&copy, out, ol);   /* a memcpy'd state continues alike */
        if ((d = diffat(out, want, ol)) >= 0)
            return fail("xof_shake256 incremental: a copied state squeezes differently (byte %ld)", d);
    }
    return 0;
}

static int hash_check(int p, int i)
{
    const hash_api *a = api_of(p);
    size_t len, j;
    unsigned al;
    int t, alias;
    (void)i;
    if (a->fixed_out ? sha512_vectors() : shake_vectors()) return 1;
    for (len = 0; len <= 1100; len++)
        if (hash_case(a, len, outlen_for(a, len), 0, 0, AL_SEPARATE)) return 1;
    for (t = 0; t < 24; t++) {
        size_t l = rnd_below(MAXRANDLEN + 1);
        if (hash_case(a, l, a->fixed_out ? a->fixed_out : rnd_below(3000), (unsigned)rnd_below(64),
                      (unsigned)rnd_below(64), (int)rnd_below(3))) return 1;
    }
    for (j = 0; j < NALIGNLEN; j++)
        for (al = 0; al < 64; al += 3)
            if (hash_case(a, align_lengths[j], outlen_for(a, j), al, (al * 37 + 5) % 64, AL_SEPARATE)) return 1;
    for (alias = AL_INPLACE; alias <= AL_OVERLAP; alias++)
        for (len = 0; len <= 300; len++)
            if (hash_case(a, len, outlen_for(a, len + 3), (unsigned)rnd_below(64), 0, alias)) return 1;
    if (!a->fixed_out && shake_incremental()) return 1;
    return 0;
}

/* ---- ABI ----------------------------------------------------------------- */
static int hash_abi(int p, int i)
{
    const hash_api *a = api_of(p);
    const qhasm_impl *im = qhasm_impl_get(p, i);
    uint64_t st[25], rst[25];
    unsigned char *m = malloc(34 * a->block), out[300], want[300];
    char what[200];
    size_t j;
    if (!m) die("malloc");
    for (j = 0; j < NABI; j++) {
        unsigned long long nb = abi_nblocks[j];
        size_t len = (size_t)nb * a->block + (size_t)rnd_below(a->block), ol = a->fixed_out ? a->fixed_out : 1 + rnd_below(300);
        uint64_t r = 1;
        rnd_bytes(m, len);
        rnd_bytes((unsigned char *)st, sizeof st);
        memcpy(rst, st, sizeof st);
        a->refblocks(rst, m, nb);
        snprintf(what, sizeof what, "qhasm_kernel_%s (%s) blocks, %llu blocks", a->kernel, im->name, nb);
        if (abicall(what, FN(QHASM_HASH_BLOCKS(im)), "wwq", kernel_abi_flags(im->name), U(st), U(m), nb, 0, 0, 0, NULL)) { free(m); return 1; }
        if (memcmp(st, rst, a->state_words * 8)) { free(m); return fail("%s: through the ABI checker: state differs from ref", what); }
        if (!a->fixed_out) {
            qhasm_kernel_shake256_ref_permute(rst);
            snprintf(what, sizeof what, "qhasm_kernel_%s (%s) permute", a->kernel, im->name);
            if (abicall(what, FN(QHASM_HASH_PERMUTE(im)), "w", kernel_abi_flags(im->name), U(st), 0, 0, 0, 0, 0, NULL)) { free(m); return 1; }
            if (memcmp(st, rst, sizeof st)) { free(m); return fail("%s: through the ABI checker: state differs from ref", what); }
        }
        a->ref(want, ol, m, len);
        snprintf(what, sizeof what, "%s (%s), len %zu", a->api, im->name, len);
        if (a->fixed_out) {
            if (abicall(what, FN(qhasm_hash_sha512), "wwq", QHASM_ABICHECK_COMPILED, U(out), U(m), len, 0, 0, 0, &r)) { free(m); return 1; }
        } else {
            if (abicall(what, FN(qhasm_xof_shake256), "wqwq", QHASM_ABICHECK_COMPILED, U(out), ol, U(m), len, 0, 0, &r)) { free(m); return 1; }
        }
        if ((int)r != 0 || memcmp(out, want, ol)) { free(m); return fail("%s: through the ABI checker: wrong result", what); }
    }
    free(m);
    return 0;
}

/* ---- valgrind constant time: the message is secret ---------------------- */
static int hash_ct(int p, int i)
{
    const hash_api *a = api_of(p);
    const qhasm_impl *im = qhasm_impl_get(p, i);
    unsigned char M[1100], out[300], want[300];
    size_t j;
    unsigned long e;
    for (j = 0; j < NCT; j++) {
        size_t len = ct_lens[j], ol = a->fixed_out ? a->fixed_out : 32 + 67 * (j % 5);
        uint64_t st[25];
        rnd_bytes(M, len);
        a->ref(want, ol, M, len);
        SECRET(M, len);
        stage("valgrind-ct: qhasm_kernel_%s (%s), len %zu", a->kernel, im->name, len);
        memset(st, 0, sizeof st);
        SECRET(st, sizeof st);
        e = CT_ERRORS();
        QHASM_HASH_BLOCKS(im)(st, M, len / a->block);
        if (!a->fixed_out) QHASM_HASH_PERMUTE(im)(st);
        if (ct_verdict(e, "qhasm_kernel_%s_%s blocks%s, len %zu", a->kernel, im->name, a->fixed_out ? "" : "/permute", len)) return 1;
        stage("valgrind-ct: %s (%s), len %zu", a->api, im->name, len);
        e = CT_ERRORS();
        a->wrap(im, out, ol, M, len);
        PUBLIC(out, ol);
        if (ct_verdict(e, "%s (%s), len %zu", a->api, im->name, len)) return 1;
        if (memcmp(out, want, ol)) return fail("%s (%s), len %zu: differs from ref", a->api, im->name, len);
        PUBLIC(M, len);
    }
    return 0;
}

const qhasm_test_family qhasm_test_hash = { hash_check, hash_abi, hash_ct, "the message (and so the kernel state)" };
