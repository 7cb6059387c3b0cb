/* qhasm-speed's operations of the salsa family (Salsa20/R: core, hcore and
 * the stream), measured through the same wrappers as the public functions. */
#include "speed.h"

static void core(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    (void)p; (void)len;
    qhasm_salsa_wrap_core(im, b->out, b->in, b->key, NULL, 0);
}

static void hcore(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    (void)p; (void)len;
    qhasm_salsa_wrap_core(im, b->out, b->in, b->key, NULL, 1);
}

static void xor(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    (void)p;
    qhasm_salsa_wrap_xor_ic(im, b->c, b->m, (unsigned long long)len, b->nonce, 0, b->key);
}

static const qhasm_speed_op ops[] = {
    { "core_%s", 16, NULL, 0, NULL, core, NULL },
    { "core_h%s", 16, NULL, 0, NULL, hcore, NULL },
    { "stream_%s_xor", 0, "stream", 0, NULL, xor, NULL },
};

const qhasm_speed_family qhasm_speed_salsa = { ops, (int)(sizeof ops / sizeof *ops), NULL };
