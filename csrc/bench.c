/* qhasm-bench (`make bench`): every implementation of Salsa20 and Poly1305
 * beside other libraries in the same run, in ticks of the cycle counter
 * (csrc/cpucycles.c) per byte.  One measurement is the interquartile mean
 * of 32 timings of a batch of calls (per call); every cell is measured in ROUNDS rounds, all columns
 * interleaved within a round, and the table shows the median over the
 * rounds.  Ratios are medians of the per-round ratios: the machine is
 * shared and its clock drifts, so only figures taken moments apart are
 * compared.
 *
 *   stream_salsa20_xor at 64, 576, 1536, 4096, 18205 bytes
 *     beside libsodium crypto_stream_salsa20_xor           (HAVE_SODIUM)
 *     and the library's C kernel (csrc/salsa20_c.c) compiled again with
 *     gcc -O3 -march=native (column "c-O3-native", csrc/csrc.mk): issue
 *     14's baseline for the integer kernel, whatever CFLAGS built "c"
 *   onetimeauth_poly1305 at 11, 26, 61, 139, ..., 18205 bytes
 *     beside OpenSSL EVP_MAC "POLY1305"                    (HAVE_OPENSSL)
 *     and libsodium crypto_onetimeauth_poly1305            (HAVE_SODIUM)
 *
 * Each cell is "ticks/byte (ratio)", the ratio being to the peer named in
 * the heading (per byte and per call alike: both sides at the same length).
 * A second table compares each per-model variant (scheduled for its model,
 * e.g. amd64-sse2-zen4) with its source-order implementation.  The targets
 * of issues 3 and 4 are checked for the selected implementation at the end.  Not part of `make test`: the figures depend on the machine. */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qhasm.h"
#include "impl.h"
#include "cpucycles.h"
#ifdef HAVE_SODIUM
#include <sodium.h>
#endif
#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/core_names.h>
#endif
#ifdef HAVE_NETTLE
#include <nettle/poly1305.h>
#include <nettle/version.h>
/* nettle's Poly1305 core, which its ChaCha20-Poly1305 uses: exported (as
 * NETTLE_INTERNAL) but not declared by its headers; the public API only
 * has Poly1305-AES, whose AES would be measured too */
void _nettle_poly1305_set_key(struct poly1305_ctx *ctx, const uint8_t key[16]);
void _nettle_poly1305_digest(struct poly1305_ctx *ctx, union nettle_block16 *s);
void _nettle_poly1305_block(struct poly1305_ctx *ctx, const uint8_t *m, unsigned high);
#endif

#define TIMINGS 32
#define ROUNDS 15
#define MAXLEN 18205
/* columns per table (every implementation of a primitive, its variants
 * included, and the peers); a table wider than PERPART columns is printed
 * in parts of PERPART, none dropped */
#define MAXCOLS 64
#define PERPART 6

static const long long salsa_lens[] = { 64, 576, 1536, 4096, 18205 };
static const long long poly_lens[] = { 11, 26, 61, 139, 314, 709, 1597, 3595, 8090, 18205 };
#define NSALSA (int)(sizeof salsa_lens / sizeof *salsa_lens)
#define NPOLY (int)(sizeof poly_lens / sizeof *poly_lens)

static unsigned char mbuf[MAXLEN + 64], cbuf[MAXLEN + 64], key[32], nonce[8], tag[16];

typedef void bench_fn(long long len);

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* interquartile mean of TIMINGS timings, each of a batch of calls long
 * enough (about 4000 ticks) that the counter's granularity (measured: 24.5
 * ticks on a virtualised Zen 3) and its own cost do not matter; per call */
static double iqm_ticks(bench_fn *f, long long len)
{
    long long t[TIMINGS], sum = 0, t0, one;
    int i, j, batch;
    f(len);
    t0 = cpucycles();
    f(len);
    one = cpucycles() - t0;
    batch = one >= 4000 ? 1 : (int)(4000 / (one > 0 ? one : 1));
    if (batch > 256) batch = 256;
    for (i = 0; i < TIMINGS; i++) {
        t0 = cpucycles();
        for (j = 0; j < batch; j++) f(len);
        t[i] = cpucycles() - t0;
    }
    qsort(t, TIMINGS, sizeof *t, cmp_ll);
    for (i = TIMINGS / 4; i < TIMINGS - TIMINGS / 4; i++) sum += t[i];
    return (double)sum / (TIMINGS / 2) / batch;
}

/* ---- the functions measured ------------------------------------------------ */
static void q_salsa(long long len) { qhasm_stream_salsa20_xor(cbuf, mbuf, (unsigned long long)len, nonce, key); }

/* the C kernel compiled with -O3 -march=native, its symbols prefixed
 * bench_o3_ by objcopy, run through the library's own wrapper so that the
 * column differs from the "c" and "amd64" ones in the kernel alone */
qhasm_salsa_blocks_fn bench_o3_qhasm_kernel_salsa20_c_blocks;
qhasm_salsa_core_fn bench_o3_qhasm_kernel_salsa20_c_core;
static const qhasm_impl o3_impl = { "c-O3-native", 0, "", NULL, 0, 0,
    { (qhasm_fn *)bench_o3_qhasm_kernel_salsa20_c_blocks, (qhasm_fn *)bench_o3_qhasm_kernel_salsa20_c_core } };
static void o3_salsa(long long len)
{
    qhasm_salsa_wrap_xor_ic(&o3_impl, cbuf, mbuf, (unsigned long long)len, nonce, 0, key);
}
static void q_poly(long long len) { qhasm_onetimeauth_poly1305(tag, mbuf, (unsigned long long)len, key); }
#ifdef HAVE_SODIUM
static void s_salsa(long long len) { crypto_stream_salsa20_xor(cbuf, mbuf, (unsigned long long)len, nonce, key); }
static void s_poly(long long len) { crypto_onetimeauth_poly1305(tag, mbuf, (unsigned long long)len, key); }
#endif
#ifdef HAVE_OPENSSL
static EVP_MAC_CTX *ossl_ctx;
static void o_poly(long long len)
{
    size_t outl = 0;
    if (!EVP_MAC_init(ossl_ctx, key, 32, NULL) || !EVP_MAC_update(ossl_ctx, mbuf, (size_t)len) ||
        !EVP_MAC_final(ossl_ctx, tag, &outl, sizeof tag)) {
        fprintf(stderr, "qhasm-bench: OpenSSL EVP_MAC POLY1305 failed\n");
        exit(111);
    }
}
#endif

#ifdef HAVE_NETTLE
/* the one-time authenticator on nettle's core: key setup, the blocks, the
 * padded final block, the digest adding s */
static void n_poly(long long len)
{
    struct poly1305_ctx ctx;
    union nettle_block16 s;
    long long i;
    _nettle_poly1305_set_key(&ctx, key);
    for (i = 0; i + 16 <= len; i += 16) _nettle_poly1305_block(&ctx, mbuf + i, 1);
    if (i < len) {
        uint8_t b[16] = { 0 };
        memcpy(b, mbuf + i, (size_t)(len - i));
        b[len - i] = 1;
        _nettle_poly1305_block(&ctx, b, 0);
    }
    memcpy(s.b, key + 16, 16);
    _nettle_poly1305_digest(&ctx, &s);
    memcpy(tag, s.b, 16);
}
#endif

/* impl: an implementation index (forced), SELECTED (the library's own
 * choice by CPU and length: what a caller gets), PEER, or BASELINE (our
 * own code built otherwise: neither forced nor a peer) */
#define SELECTED (-2)
#define PEER (-1)
#define BASELINE (-3)
typedef struct { const char *name; bench_fn *fn; int impl; } column;

/* the measurements of one table: v[round][length][column] in ticks/byte */
typedef struct { double v[ROUNDS][NPOLY > NSALSA ? NPOLY : NSALSA][MAXCOLS]; int npeers, ncols; } meas;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_d);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* the fastest peer (the last npeers columns) in round r at length k */
static double bestpeer(const meas *m, int r, int k)
{
    double best = 0;
    int c;
    for (c = m->ncols - m->npeers; c < m->ncols; c++)
        if (best == 0 || m->v[r][k][c] < best) best = m->v[r][k][c];
    return best;
}

/* median over the rounds of column c at length k; divided, round by
 * round, by column d (d >= 0), by the fastest peer (d == -2), or not */
static double med(const meas *m, int k, int c, int d)
{
    double x[ROUNDS];
    int r;
    for (r = 0; r < ROUNDS; r++)
        x[r] = m->v[r][k][c] / (d >= 0 ? m->v[r][k][d] : d == -2 ? bestpeer(m, r, k) : 1.0);
    return median(x, ROUNDS);
}

/* measures the columns at the lengths, the columns interleaved per round;
 * each round starts at another column, so no column always follows the
 * same one (measured: a fixed order biased 26..61-byte calls by 3-9%) */
static void run(const char *prim, const column *cols, int ncols, const long long *lens, int nlens, meas *m)
{
    int r, k, j, c;
    m->ncols = ncols;
    for (r = 0; r < ROUNDS; r++)
        for (k = 0; k < nlens; k++)
            for (j = 0; j < ncols; j++) {
                c = (j + r * 7) % ncols;
                if (cols[c].impl >= 0) qhasm_impl_force(prim, cols[c].impl);
                else qhasm_impl_force(prim, -1);
                m->v[r][k][c] = iqm_ticks(cols[c].fn, lens[k]) / (double)lens[k];
                qhasm_impl_force(prim, -1);
            }
}

static void print_table(const char *title, const char *prim, const column *cols, int ncols,
                        const long long *lens, int nlens, const meas *m)
{
    int k, c, c0, npeers = m->npeers;
    (void)prim;
    printf("\n== %s: ticks per byte, median of %d rounds of IQM of %d; (ratio) = implementation / %s\n", title,
           ROUNDS, TIMINGS,
           npeers == 0 ? "nothing (no peer installed)" : npeers == 1 ? cols[ncols - 1].name : "fastest peer");
    for (c0 = 0; c0 < ncols; c0 += PERPART) {
        int c1 = c0 + PERPART < ncols ? c0 + PERPART : ncols;
        if (ncols > PERPART)
            printf("(columns %d-%d of %d)\n", c0 + 1, c1, ncols);
        printf("%6s", "bytes");
        for (c = c0; c < c1; c++) {
            char h[64];
            snprintf(h, sizeof h, "%s", cols[c].name);
            printf(" %*s", cols[c].impl != PEER && npeers ? 17 : 10, h);
        }
        printf("\n");
        for (k = 0; k < nlens; k++) {
            printf("%6lld", lens[k]);
            for (c = c0; c < c1; c++) {
                if (cols[c].impl != PEER && npeers)
                    printf(" %9.2f (%5.2f)", med(m, k, c, -1), med(m, k, c, -2));
                else
                    printf(" %10.2f", med(m, k, c, -1));
            }
            printf("\n");
        }
    }
    printf("(selected = the library's choice by CPU and length, as a caller gets it)\n");
}

/* per length: the implementation the library selects, the fastest one in
 * the library, and the selected column's time over the fastest's (median
 * of the per-round ratios); the target is <= 1.05 at every length */
static void print_selection(const char *title, const char *prim, const column *cols, int ncols,
                           const long long *lens, int nlens, const meas *m)
{
    int k, c, selc = -1, worst = 0;
    double wr = 0;
    for (c = 0; c < ncols; c++)
        if (cols[c].impl == SELECTED) selc = c;
    if (selc < 0) return;
    printf("\n== %s: selected implementation against the fastest in the library\n", title);
    printf("%6s %-20s %-20s %s\n", "bytes", "selected", "fastest", "selected/fastest");
    for (k = 0; k < nlens; k++) {
        int best = -1;
        double r;
        for (c = 0; c < ncols; c++)
            if (cols[c].impl >= 0 && (best < 0 || med(m, k, c, -1) < med(m, k, best, -1))) best = c;
        if (best < 0) continue;
        r = med(m, k, selc, best);
        printf("%6lld %-20s %-20s %.3f\n", lens[k],
               qhasm_impl_name(prim, qhasm_impl_selected_len(prim, (unsigned long long)lens[k])), cols[best].name, r);
        if (r > wr) { wr = r; worst = k; }
    }
    printf("target %s: selected within 5%% of the fastest at every length: worst %.3f at %lld bytes: %s\n",
           title, wr, lens[worst], wr <= 1.05 ? "met" : "MISSED");
}

/* per-model variants (NAME-MODEL, scheduled for MODEL) against NAME
 * (source order), median of the per-round ratios */
static void print_variants(const char *title, const char *prim, const column *cols, int ncols, const long long *lens, int nlens,
                           const meas *m)
{
    int c, b, k, any = 0;
    for (c = 0; c < ncols; c++)
        for (b = 0; b < ncols; b++) {
            size_t n = strlen(cols[b].name);
            const char *u;
            if (b == c || cols[b].impl < 0 || cols[c].impl < 0 || strncmp(cols[c].name, cols[b].name, n) ||
                cols[c].name[n] != '-')
                continue;
            u = qhasm_impl_uarch(prim, cols[c].impl);
            if (!u || strcmp(cols[c].name + n + 1, u) || *qhasm_impl_uarch(prim, cols[b].impl))
                continue;
            if (!any++) {
                printf("\n== %s: scheduled / source order (median of per-round ratios; < 1: the schedule is faster)\n", title);
                printf("%-28s", "variant / implementation");
                for (k = 0; k < nlens; k++) printf(" %7lld", lens[k]);
                printf("\n");
            }
            char h[64];
            snprintf(h, sizeof h, "%s / %s", cols[c].name, cols[b].name);
            printf("%-28s", h);
            for (k = 0; k < nlens; k++) printf(" %7.3f", med(m, k, c, b));
            printf("\n");
        }
}

static int add_impls(const char *prim, column *cols, bench_fn *fn)
{
    int i, n = 0, count = qhasm_impl_count(prim);
    for (i = 0; i < count; i++) {
        if (qhasm_impl_alias(prim, i)) {
            printf("%s %s: alias of %s (identical code), not measured twice\n", prim, qhasm_impl_name(prim, i),
                   qhasm_impl_alias(prim, i));
            continue;
        }
        if (!qhasm_impl_supported(prim, i)) {
            printf("%s %s skipped: %s\n", prim, qhasm_impl_name(prim, i), qhasm_impl_missing(prim, i));
            continue;
        }
        if (n == MAXCOLS - 5) {
            printf("%s %s: NOT MEASURED: more than %d columns (raise MAXCOLS in csrc/bench.c)\n", prim,
                   qhasm_impl_name(prim, i), MAXCOLS - 5);
            continue;
        }
        cols[n].name = qhasm_impl_name(prim, i);
        cols[n].fn = fn;
        cols[n].impl = i;
        n++;
    }
    cols[n].name = "selected";
    cols[n].fn = fn;
    cols[n].impl = SELECTED;
    n++;
    return n;
}

static int col_of(const column *cols, int ncols, int impl)
{
    int c;
    for (c = 0; c < ncols; c++)
        if (cols[c].impl == impl) return c;
    return -1;
}

static void verdict(const char *what, double ratio, double limit)
{
    printf("target %-58s %5.2f %s %.2f: %s\n", what, ratio, ratio <= limit ? "<=" : ">", limit,
           ratio <= limit ? "met" : "MISSED");
}

int main(void)
{
    column cols[MAXCOLS];
    static meas sv, pv;
    int ns, np, speers = 0, ppeers = 0, k, sel;
    int sodium_col = -1, ossl_col = -1, o3_col = -1;
    size_t i;
    for (i = 0; i < sizeof mbuf; i++) mbuf[i] = (unsigned char)(i * 131 + 7);
    for (i = 0; i < sizeof key; i++) key[i] = (unsigned char)(i * 17 + 3);
    for (i = 0; i < sizeof nonce; i++) nonce[i] = (unsigned char)(i * 29 + 5);

    cpucycles_init(NULL);
    printf("qhasm-bench %s: counter %s, %lld ticks per second\n", QHASM_VERSION,
           cpucycles_implementation(), cpucycles_persecond());
#ifdef HAVE_SODIUM
    if (sodium_init() < 0) { fprintf(stderr, "qhasm-bench: sodium_init failed\n"); return 111; }
    printf("peer libsodium %s\n", sodium_version_string());
#else
    printf("peer libsodium not installed (pkg-config libsodium): no comparison\n");
#endif
#ifdef HAVE_OPENSSL
    {
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
        if (mac) ossl_ctx = EVP_MAC_CTX_new(mac);
        if (ossl_ctx) printf("peer OpenSSL %s\n", OpenSSL_version(OPENSSL_VERSION));
        else printf("peer OpenSSL: EVP_MAC POLY1305 unavailable\n");
    }
#else
    printf("peer OpenSSL not installed (pkg-config libcrypto): no comparison\n");
#endif

    /* a warm-up of about 100 ms (clock frequency ramp) */
    {
        long long end = cpucycles() + cpucycles_persecond() / 10;
        while (cpucycles() < end) q_salsa(4096);
    }

    /* ---- Salsa20 ---- */
    ns = add_impls("salsa20", cols, q_salsa);
    {   /* the -O3 -march=native build must compute what the library does */
        unsigned char a[600], b[600];
        qhasm_stream_salsa20_xor(a, mbuf, sizeof a, nonce, key);
        o3_salsa(sizeof b);
        memcpy(b, cbuf, sizeof b);
        if (memcmp(a, b, sizeof a)) { printf("salsa20: c-O3-native output differs!\n"); return 1; }
    }
    o3_col = ns;
    cols[ns].name = "c-O3-native"; cols[ns].fn = o3_salsa; cols[ns].impl = BASELINE; ns++;
#ifdef HAVE_SODIUM
    {   /* same output as libsodium, or the comparison means nothing */
        unsigned char a[600], b[600];
        qhasm_stream_salsa20_xor(a, mbuf, sizeof a, nonce, key);
        crypto_stream_salsa20_xor(b, mbuf, sizeof b, nonce, key);
        if (memcmp(a, b, sizeof a)) { printf("salsa20: output differs from libsodium!\n"); return 1; }
    }
    sodium_col = ns;
    cols[ns].name = "libsodium"; cols[ns].fn = s_salsa; cols[ns].impl = -1; ns++; speers++;
#endif
    sv.npeers = speers;
    run("salsa20", cols, ns, salsa_lens, NSALSA, &sv);
    print_table("stream_salsa20_xor", "salsa20", cols, ns, salsa_lens, NSALSA, &sv);
    print_variants("stream_salsa20_xor", "salsa20", cols, ns, salsa_lens, NSALSA, &sv);
    print_selection("stream_salsa20_xor", "salsa20", cols, ns, salsa_lens, NSALSA, &sv);
    sel = col_of(cols, ns, SELECTED);
    {   /* issue 14: the integer kernel against the C compiled -O3 -march=native */
        int ii = qhasm_impl_find("salsa20", "amd64"), integer = ii >= 0 ? col_of(cols, ns, ii) : -1;
        for (k = 0; k < NSALSA; k++)
            if (integer >= 0 && salsa_lens[k] == 4096)
                verdict("salsa20 amd64 (integer) 4096 bytes vs c-O3-native", med(&sv, k, integer, o3_col), 0.85);
    }
    if (sodium_col >= 0 && sel >= 0) {
        char what[128];
        for (k = 0; k < NSALSA; k++) {
            if (salsa_lens[k] < 4096 && salsa_lens[k] != 64) continue;
            snprintf(what, sizeof what, "salsa20 selected (%s) %lld bytes vs libsodium",
                     qhasm_impl_name("salsa20", qhasm_impl_selected_len("salsa20", (unsigned long long)salsa_lens[k])),
                     salsa_lens[k]);
            verdict(what, med(&sv, k, sel, sodium_col), salsa_lens[k] == 64 ? 1.0 : 0.45);
        }
    }

    /* ---- Poly1305 ---- */
    np = add_impls("poly1305", cols, q_poly);
    sodium_col = ossl_col = -1;
#ifdef HAVE_OPENSSL
    if (ossl_ctx) {
        unsigned char a[16], b[16];
        qhasm_onetimeauth_poly1305(a, mbuf, 1000, key);
        o_poly(1000);
        memcpy(b, tag, 16);
        if (memcmp(a, b, 16)) { printf("poly1305: tag differs from OpenSSL!\n"); return 1; }
        ossl_col = np;
        cols[np].name = "openssl"; cols[np].fn = o_poly; cols[np].impl = -1; np++; ppeers++;
    }
#endif
#ifdef HAVE_SODIUM
    {
        unsigned char a[16], b[16];
        qhasm_onetimeauth_poly1305(a, mbuf, 1000, key);
        crypto_onetimeauth_poly1305(b, mbuf, 1000, key);
        if (memcmp(a, b, 16)) { printf("poly1305: tag differs from libsodium!\n"); return 1; }
    }
    sodium_col = np;
    cols[np].name = "libsodium"; cols[np].fn = s_poly; cols[np].impl = -1; np++; ppeers++;
#endif
#ifdef HAVE_NETTLE
    {
        unsigned char a[16];
        int l;
        for (l = 0; l <= 100; l++) {
            qhasm_onetimeauth_poly1305(a, mbuf, (unsigned long long)l, key);
            n_poly(l);
            if (memcmp(a, tag, 16)) { printf("poly1305: tag differs from nettle at %d bytes!\n", l); return 1; }
        }
        printf("peer nettle %d.%d (its Poly1305 core)\n", nettle_version_major(), nettle_version_minor());
    }
    cols[np].name = "nettle"; cols[np].fn = n_poly; cols[np].impl = -1; np++; ppeers++;
#else
    printf("peer nettle not installed (pkg-config nettle): no comparison\n");
#endif
    pv.npeers = ppeers;
    run("poly1305", cols, np, poly_lens, NPOLY, &pv);
    print_table("onetimeauth_poly1305", "poly1305", cols, np, poly_lens, NPOLY, &pv);
    print_variants("onetimeauth_poly1305", "poly1305", cols, np, poly_lens, NPOLY, &pv);
    print_selection("onetimeauth_poly1305", "poly1305", cols, np, poly_lens, NPOLY, &pv);
    sel = col_of(cols, np, SELECTED);
    if (sel >= 0 && ppeers) {
        char what[128];
        for (k = 0; k < NPOLY; k++) {
            if (poly_lens[k] >= 8090 && ossl_col >= 0) {
                snprintf(what, sizeof what, "poly1305 selected %lld bytes vs OpenSSL", poly_lens[k]);
                verdict(what, med(&pv, k, sel, ossl_col), 0.9);
            }
            if (poly_lens[k] > 139) continue;
            snprintf(what, sizeof what, "poly1305 selected %lld bytes vs the fastest peer (per call)", poly_lens[k]);
            verdict(what, med(&pv, k, sel, -2), 0.9);
        }
    }
    (void)sodium_col;
#ifdef HAVE_OPENSSL
    if (ossl_ctx) EVP_MAC_CTX_free(ossl_ctx);
#endif
    return 0;
}
