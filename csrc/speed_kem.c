/* qhasm-speed's operations of the kem family: keypair, enc and dec of the
 * implementation as the public functions select it, printed as djb's
 * speed tools print KEMs (`kem_sntrup761_keypair selected 1158 IQM +d...`:
 * the public-key bytes for keypair, the ciphertext bytes for enc and dec),
 * and a line naming the implementations of the kernels underneath (the
 * manifest's `param uses=PRIM,...`).
 *
 * Random bytes: by default the library's default source, getrandom(2), as
 * a caller who installs nothing gets it.  QHASM_SPEED_RANDOM=user installs
 * a user-space generator instead, as SUPERCOP's benchmarks
 * (fastrandombytes) and the peer bench (a ChaCha20 keystream) do: the
 * Salsa20 keystream of this library under a key from getrandom, with fast
 * key erasure (the first 32 bytes of every 4 KB block are the next key).
 * A keystream read in order does not depend on how it is asked, so it is
 * installed with qhasm_randombytes_set_stream: one call per buffer, as the
 * peer bench's SUPERCOP code makes them (under qhasm_randombytes_set the
 * KAT's call pattern would ask it 761 times for 4 bytes per sntrup761
 * enc).  The uses line names the source:
 * `... randombytes getrandom` or `randombytes salsa20-user`. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "speed.h"
#include "kem_impl.h"

typedef struct { unsigned char *pk, *sk, *c, *k; } kem_bufs;

/* ---- the user-space source ---- */
#define RB_BLOCK 4096
static unsigned char rb_key[32], rb_buf[RB_BLOCK];
static unsigned long long rb_nonce;
static size_t rb_pos = RB_BLOCK;

static void rb_refill(void)
{
    unsigned char n[8];
    int i;
    for (i = 0; i < 8; i++) n[i] = (unsigned char)(rb_nonce >> (8 * i));
    rb_nonce++;
    memset(rb_buf, 0, sizeof rb_buf);
    qhasm_stream_salsa20(rb_buf, sizeof rb_buf, n, rb_key);
    memcpy(rb_key, rb_buf, 32);          /* fast key erasure: never output */
    memset(rb_buf, 0, 32);
    rb_pos = 32;
}

static void rb_user(unsigned char *x, unsigned long long xlen)
{
    while (xlen > 0) {
        size_t k;
        if (rb_pos == RB_BLOCK) rb_refill();
        k = RB_BLOCK - rb_pos < xlen ? RB_BLOCK - rb_pos : (size_t)xlen;
        memcpy(x, rb_buf + rb_pos, k);
        memset(rb_buf + rb_pos, 0, k);
        rb_pos += k;
        x += k;
        xlen -= k;
    }
}

/* the source of the timings: 1 user space, 0 getrandom (installed once) */
static int rb_source(void)
{
    static int which = -1;
    if (which < 0) {
        const char *e = getenv("QHASM_SPEED_RANDOM");
        which = e && !strcmp(e, "user");
        if (which) {
            qhasm_randombytes(rb_key, sizeof rb_key);   /* getrandom(2): the library default */
            qhasm_randombytes_set_stream(rb_user);
        }
    }
    return which;
}
static kem_bufs bufs[QHASM_MAXPRIMS];

static long long size(int p, const char *key)
{
    return qhasm_prim_param_long(p, key, 0);
}

static unsigned char *alloc(long long n)
{
    unsigned char *x = malloc((size_t)n + 64);
    if (!x) { perror("qhasm-speed"); exit(111); }
    memset(x, 0, (size_t)n + 64);
    return x;
}

/* one key pair and one ciphertext for enc and dec */
static void prepare(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    kem_bufs *k = &bufs[p];
    (void)len; (void)b;
    rb_source();
    if (!k->pk) {
        k->pk = alloc(size(p, "pk"));
        k->sk = alloc(size(p, "sk"));
        k->c = alloc(size(p, "ct"));
        k->k = alloc(size(p, "ss"));
    }
    QHASM_KEM_KEYPAIR(im)(k->pk, k->sk);
    QHASM_KEM_ENC(im)(k->c, k->k, k->pk);
}

static void keypair(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    (void)len; (void)b;
    QHASM_KEM_KEYPAIR(im)(bufs[p].pk, bufs[p].sk);
}

static void enc(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    (void)len; (void)b;
    QHASM_KEM_ENC(im)(bufs[p].c, bufs[p].k, bufs[p].pk);
}

static void dec(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    (void)len; (void)b;
    QHASM_KEM_DEC(im)(bufs[p].k, bufs[p].c, bufs[p].sk);
}

static long long pk_bytes(int p) { return size(p, "pk"); }
static long long ct_bytes(int p) { return size(p, "ct"); }

/* `kem_sntrup761 selected implementation c uses core_multsntrup761 amd64-avx2 ...` */
static void describe(int p)
{
    const char *uses = qhasm_prim_param(p, "uses"), *name = qhasm_prim_name(p);
    char list[512], *w, *save = NULL;
    printf("%s selected implementation %s uses", name, qhasm_impl_name(name, qhasm_impl_selected(name)));
    snprintf(list, sizeof list, "%s", uses ? uses : "");
    for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int q = qhasm_prim_lookup(w);
        if (q < 0) { printf(" %s unknown", w); continue; }
        printf(" %s %s", qhasm_prim_name(q), qhasm_impl_name(qhasm_prim_name(q), qhasm_impl_selected(qhasm_prim_name(q))));
    }
    printf(" randombytes %s%s\n", rb_source() ? "salsa20-user" : "getrandom", uses ? "" : " (no param uses=)");
}

static const qhasm_speed_op ops[] = {
    { "%s_keypair", 1, NULL, 0, prepare, keypair, pk_bytes },
    { "%s_enc", 1, NULL, 0, prepare, enc, ct_bytes },
    { "%s_dec", 1, NULL, 0, prepare, dec, ct_bytes },
};

const qhasm_speed_family qhasm_speed_kem = { ops, (int)(sizeof ops / sizeof *ops), describe };
