/* qhasm-speed's operation of the fixed family: one call of the kernel on
 * buffers of the manifest's argument sizes (reported as the size of the
 * first output), through the selection as the public function does. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <stdio.h>
#include "speed.h"

static unsigned char *buf[QHASM_MAXPRIMS][6];

static void prepare(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    int k;
    (void)im; (void)len; (void)b;
    for (k = 0; qhasm_prims[p].args[k].kind; k++) {
        size_t n = qhasm_prims[p].args[k].bytes + 64, j;
        if (buf[p][k]) continue;
        if (posix_memalign((void **)&buf[p][k], 64, n)) { perror("qhasm-speed"); exit(111); }
        for (j = 0; j < n; j++) buf[p][k][j] = (unsigned char)(j * 131 + 7 * (size_t)k);
    }
}

static void call(int p, const qhasm_impl *im, long long len, qhasm_speed_bufs *b)
{
    int n = 0;
    (void)len; (void)b;
    while (qhasm_prims[p].args[n].kind) n++;
    qhasm_fixed_call(im->fn[0], n, buf[p]);
}

static const qhasm_speed_op ops[] = {
    { "%s", -1, NULL, 0, prepare, call, NULL },
};

const qhasm_speed_family qhasm_speed_fixed = { ops, 1, NULL };
