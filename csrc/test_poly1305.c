/* qhasm-test's checks of the poly1305 family: RFC 8439's vectors, the
 * reference on every length, alignment and aliasing, accumulators around
 * the modulus, verify, the incremental API, the ABI checks of the kernels
 * and public functions, and the valgrind constant-time check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

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

static int poly_check(int p, int impl)
{
    size_t len, j, i;
    (void)p; (void)impl;
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

static int poly_abi(int p, int i)
{
    const qhasm_impl *im = qhasm_impl_get(p, i);
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
        if (abicall(what, FN(QHASM_POLY1305_INIT(im)), "ww", kernel_abi_flags(im->name), U(ks), U(k), 0, 0, 0, 0, NULL)) return 1;
        snprintf(what, sizeof what, "qhasm_kernel_poly1305 (%s) blocks, %llu blocks", im->name, nb);
        if (abicall(what, FN(QHASM_POLY1305_BLOCKS(im)), "wwqw", kernel_abi_flags(im->name), U(ks), U(m), nb, 1, 0, 0, NULL)) return 1;
        if (tail) {
            memset(pad, 0, 16); memcpy(pad, m + 16 * nb, tail); pad[tail] = 1;
            snprintf(what, sizeof what, "qhasm_kernel_poly1305 (%s) blocks, final padded block", im->name);
            if (abicall(what, FN(QHASM_POLY1305_BLOCKS(im)), "wwqw", kernel_abi_flags(im->name), U(ks), U(pad), 1, 0, 0, 0, NULL)) return 1;
        }
        snprintf(what, sizeof what, "qhasm_kernel_poly1305 (%s) final", im->name);
        if (abicall(what, FN(QHASM_POLY1305_FINAL(im)), "ww", kernel_abi_flags(im->name), U(ks), U(a16), 0, 0, 0, 0, NULL)) return 1;
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

static int poly_ct(int p, int i)
{
    const qhasm_impl *im = qhasm_impl_get(p, i);
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
        QHASM_POLY1305_INIT(im)(ks, K);
        QHASM_POLY1305_BLOCKS(im)(ks, M, nb / 2, 1);
        QHASM_POLY1305_BLOCKS(im)(ks, M + 16 * (nb / 2), nb - nb / 2, 1);
        if (len % 16) {
            memset(pad, 0, 16); memcpy(pad, M + 16 * nb, len % 16); pad[len % 16] = 1;
            QHASM_POLY1305_BLOCKS(im)(ks, pad, 1, 0);
        }
        QHASM_POLY1305_FINAL(im)(ks, a16);
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

const qhasm_test_family qhasm_test_poly1305 = {
    poly_check, poly_abi, poly_ct, "keys, messages (and so the kernel state), the tag given to verify"
};
