/* qhasm-test's structured checks of the NTRU Prime products (the manifest's
 * `check csrc/test_ntruprime.c:qhasm_test_ntruprime_mult` line), run after
 * the fixed family's generic checks (random and extreme inputs against
 * ref, canaries, alignments, aliasing, ABI, --valgrind-ct), in the child
 * process, with implementation i of primitive p forced.
 *
 * The expected values are computed here without the reference product:
 * f * x^j in R = Z_m[x]/(x^p - x - 1) is f * x^(j-1) shifted by one place
 * with the top coefficient added at x^0 and x^1 (x^p = x + 1), so a walk
 * over j gives every monomial product in O(p) each, and their running sum
 * gives f * (1 + x + ... + x^(p-1)), the product with g = all +1 (and its
 * negation, g = all -1).  Cases (issue 17's evidence): g = x^j for every
 * j, g = -x^j for every j, g = all +1 and all -1, with f random, all
 * -32768 and all 32767 (R/q) or random small and all -1 (R/3).  Under
 * emulation (QHASM_EMULATED=1, tests/sh/cross.sh under qemu-user, where a
 * call of the schoolbook reference takes ~0.1 s) only j = 0, p - 1 and two
 * random j are checked, as test_fixed.c thins its cases there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

int qhasm_test_ntruprime_mult(int p, int i);

typedef int mult_fn(unsigned char *out, const unsigned char *in, const unsigned char *k, const unsigned char *c);

#define PMAX 1024

/* one product through the public function (implementation i forced) and
 * its comparison with want[] (coefficients in [0, m)) */
static int mult_case(int p, int r3, long n, long m, const unsigned char *in, const unsigned char *k,
                     const long *want, const char *what, long j)
{
    static unsigned char out[2 * PMAX];
    unsigned char c0 = 0;
    long t, half = (m - 1) / 2;
    ((mult_fn *)qhasm_fixed_public(p))(out, in, k, &c0);
    for (t = 0; t < n; t++) {
        long got = r3 ? (long)(signed char)out[t] : (long)(int16_t)(out[2 * t] | out[2 * t + 1] << 8);
        long e = want[t] > half ? want[t] - m : want[t];   /* frozen to [-(m-1)/2, (m-1)/2] */
        if (got != e)
            return fail("%s: %s (j = %ld): coefficient %ld is %ld, expected %ld", qhasm_prims[p].name, what, j, t,
                        got, e);
    }
    return 0;
}

/* f's coefficients in [0, m) from the kernel's input layout */
static void load_f(long *F, const unsigned char *in, int r3, long n, long m)
{
    long t;
    for (t = 0; t < n; t++) {
        long v = r3 ? ((in[t] & 3) == 1) - ((in[t] & 3) == 3)
                    : (long)(int16_t)(in[2 * t] | in[2 * t + 1] << 8);
        F[t] = ((v % m) + m) % m;
    }
}

/* every monomial product (both signs; `few`: only some j) and the all +1
 * / all -1 products of one f */
static int walk(int p, int r3, long n, long m, const unsigned char *in, const char *fname, int few)
{
    static long F[PMAX], N[PMAX], S[PMAX];
    static unsigned char k[PMAX];
    char what[96];
    long j, t, top, r1 = 1 + (long)rnd_below((size_t)n - 2), r2 = 1 + (long)rnd_below((size_t)n - 2);
    load_f(F, in, r3, n, m);
    memset(S, 0, sizeof S);
    memset(k, 0, sizeof k);
    for (j = 0; j < n; j++) {
        for (t = 0; t < n; t++) {
            S[t] = (S[t] + F[t]) % m;
            N[t] = (m - F[t]) % m;
        }
        if (few && j != 0 && j != n - 1 && j != r1 && j != r2) goto shift;
        k[j] = 1;
        snprintf(what, sizeof what, "f %s, g = x^j", fname);
        if (mult_case(p, r3, n, m, in, k, F, what, j)) return 1;
        k[j] = 3;
        snprintf(what, sizeof what, "f %s, g = -x^j", fname);
        if (mult_case(p, r3, n, m, in, k, N, what, j)) return 1;
        k[j] = (unsigned char)(rnd() & 4);           /* 0 or 4: both read as 0 */
    shift:
        top = F[n - 1];                               /* F = F * x */
        memmove(F + 1, F, sizeof(long) * (size_t)(n - 1));
        F[0] = top;
        F[1] = (F[1] + top) % m;
    }
    for (t = 0; t < n; t++) {
        k[t] = (unsigned char)(1 | (rnd() & 0xf8));  /* +1, high bits ignored */
        N[t] = (m - S[t]) % m;
    }
    snprintf(what, sizeof what, "f %s, g = all +1", fname);
    if (mult_case(p, r3, n, m, in, k, S, what, -1)) return 1;
    for (t = 0; t < n; t++) k[t] = (unsigned char)(3 | (rnd() & 0xf8));
    snprintf(what, sizeof what, "f %s, g = all -1", fname);
    return mult_case(p, r3, n, m, in, k, N, what, -1);
}

int qhasm_test_ntruprime_mult(int p, int i)
{
    static unsigned char in[2 * PMAX];
    long n = qhasm_prim_param_long(p, "p", 0), q = qhasm_prim_param_long(p, "q", 0), t;
    int r3 = strcmp(qhasm_prim_param(p, "fn"), "mult3") == 0;
    long m = r3 ? 3 : q;
    const char *emu = getenv("QHASM_EMULATED");
    int few = emu && strcmp(emu, "1") == 0;
    (void)i;
    if (n <= 1 || n > PMAX || m < 3) return fail("%s: bad parameters p = %ld, q = %ld", qhasm_prims[p].name, n, q);
    rnd_bytes(in, sizeof in);
    if (walk(p, r3, n, m, in, "random", few)) return 1;
    if (r3) {
        memset(in, 0xff, (size_t)n);                  /* all -1 */
        return walk(p, r3, n, m, in, "all -1", few);
    }
    for (t = 0; t < n; t++) in[2 * t] = 0x00, in[2 * t + 1] = 0x80;
    if (walk(p, r3, n, m, in, "all -32768", few)) return 1;
    for (t = 0; t < n; t++) in[2 * t] = 0xff, in[2 * t + 1] = 0x7f;
    return walk(p, r3, n, m, in, "all 32767", few);
}
