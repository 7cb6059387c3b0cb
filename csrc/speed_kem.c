/* qhasm-speed's operations of the kem family: keypair, enc and dec of the
 * implementation as the public functions select it, printed as djb's
 * speed tools print KEMs (`kem_sntrup761_keypair selected 1158 IQM +d...`:
 * the public-key bytes for keypair, the ciphertext bytes for enc and dec),
 * and a line naming the implementations of the kernels underneath (the
 * manifest's `param uses=PRIM,...`).  Random bytes: the library's default
 * source (getrandom), as a user gets it. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "speed.h"
#include "kem_impl.h"

typedef struct { unsigned char *pk, *sk, *c, *k; } kem_bufs;
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
    printf("%s\n", uses ? "" : " (no param uses=)");
}

static const qhasm_speed_op ops[] = {
    { "%s_keypair", 1, NULL, 0, prepare, keypair, pk_bytes },
    { "%s_enc", 1, NULL, 0, prepare, enc, ct_bytes },
    { "%s_dec", 1, NULL, 0, prepare, dec, ct_bytes },
};

const qhasm_speed_family qhasm_speed_kem = { ops, (int)(sizeof ops / sizeof *ops), describe };
