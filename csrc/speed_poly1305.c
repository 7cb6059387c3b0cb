/* qhasm-speed's operations of the poly1305 family: one-shot authentication
 * and verification of a valid tag (the full path), through the wrappers of
 * the public functions. */
#include <string.h>
#include "speed.h"

static void auth(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    (void)p;
    qhasm_poly1305_wrap_auth(im, b->tag, b->m, (unsigned long long)len, b->key);
}

/* verify = tag of the message, then a constant-time comparison */
static void verify(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    (void)p;
    qhasm_poly1305_wrap_verify(im, b->tag, b->m, (unsigned long long)len, b->key);
}

static const qhasm_speed_op ops[] = {
    { "onetimeauth_%s", 0, "auth", 0, auth, auth, NULL },
    { "onetimeauth_%s_verify", 0, "verify", 0, auth, verify, NULL },
};

const qhasm_speed_family qhasm_speed_poly1305 = { ops, (int)(sizeof ops / sizeof *ops), NULL };
