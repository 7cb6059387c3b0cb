/* qhasm-speed's operations of the hash family: the one-shot hash of a
 * message of each length (SHA-512: the 64-byte digest; SHAKE256: 32 output
 * bytes, as Classic McEliece's session keys and sntrup761's hashes use),
 * through the wrappers of the public functions. */
#include <string.h>
#include "speed.h"
#include "hash_impl.h"

static void hash(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    const char *fn = qhasm_prim_param(p, "fn");
    if (fn && !strcmp(fn, "shake256"))
        qhasm_shake256_wrap(im, b->out, 32, b->m, (unsigned long long)len);
    else
        qhasm_sha512_wrap(im, b->out, b->m, (unsigned long long)len);
}

static const qhasm_speed_op ops[] = {
    { "%s", 0, "hash", 0, NULL, hash, NULL },
};

const qhasm_speed_family qhasm_speed_hash = { ops, (int)(sizeof ops / sizeof *ops), NULL };
