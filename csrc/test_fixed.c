/* qhasm-test's checks of the fixed family: kernels of fixed-size pointer
 * arguments (specs/kernels.conf `args out:N in:N ...`), such as field
 * arithmetic on bitsliced vectors or polynomial products.  Everything
 * follows from the manifest's argument list; the reference is the
 * primitive's ref implementation:
 *   - random inputs, all-zero, all-one bytes and mixes, against ref;
 *   - canaries around every buffer, inputs unchanged, every alignment
 *     multiple of the manifest's `align`;
 *   - every output aliasing every input of the same size (SUPERCOP rule);
 *   - the public function equals the kernel;
 *   - the kernel through the ABI checker;
 *   - --valgrind-ct: every input secret.
 * A primitive may add its own structured checks: a function
 * `int FUNCTION(int p, int i)` named by the primitive's line
 * `check csrc/FILE.c:FUNCTION` (docs/adding-a-kernel.md). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

#define MAXARGS 6
static int nargs(int p)
{
    int n = 0;
    while (qhasm_prims[p].args[n].kind) n++;
    return n;
}


/* the public function: the kernel's arguments without the work areas */
static void call_public(int p, unsigned char **a)
{
    unsigned char *v[MAXARGS];
    int k, n = 0;
    for (k = 0; qhasm_prims[p].args[k].kind; k++)
        if (qhasm_prims[p].args[k].kind != QHASM_ARG_WORK) v[n++] = a[k];
    qhasm_fixed_call((qhasm_fn *)qhasm_fixed_public(p), n, v);
}

/* inputs: 0 random, 1 zero bytes, 2 0xff bytes, 3 random bytes each 0 or 0xff,
 * 4 random with a few bits, 5 bytes 00 80 repeated and 6 ff 7f repeated (the
 * extreme little-endian int16 values -32768 and 32767) */
#define NMODES 7
static void fill(unsigned char *b, size_t n, int mode)
{
    size_t j;
    rnd_bytes(b, n);
    for (j = 0; j < n; j++)
        switch (mode) {
        case 1: b[j] = 0; break;
        case 2: b[j] = 0xff; break;
        case 3: b[j] = (b[j] & 1) ? 0xff : 0; break;
        case 4: b[j] = (unsigned char)(b[j] & (unsigned char)rnd() & (unsigned char)rnd()); break;
        case 5: b[j] = j & 1 ? 0x80 : 0x00; break;
        case 6: b[j] = j & 1 ? 0x7f : 0xff; break;
        default: break;
        }
}

static const char *const mode_names[NMODES] = { "random", "all zero", "all 0xff", "0/0xff bytes", "sparse bits",
                                                "00 80 (int16 -32768)", "ff 7f (int16 32767)" };

/* one case: inputs by mode, buffers at offset `off` from alignment, outputs
 * aliased to input `alias` (-1: none) when sizes agree */
static int fixed_case(int p, int i, int mode, unsigned off, int alias, int t)
{
    const qhasm_prim *pr = &qhasm_prims[p];
    const qhasm_impl *im = &pr->impls[i], *ref = &pr->impls[QHASM_REF(p)];
    int n = nargs(p), k, out = -1;
    gbuf g[MAXARGS];
    unsigned char *a[MAXARGS], *want[MAXARGS], *init[MAXARGS];
    int bad = 0;
    for (k = 0; k < n; k++) {
        size_t len = pr->args[k].bytes;
        want[k] = malloc(len + 1);
        init[k] = malloc(len + 1);
        if (!want[k] || !init[k]) die("malloc");
        if (pr->args[k].kind == QHASM_ARG_WORK) {
            /* a work area's content is garbage to the kernel: a byte per
             * case, not random bytes (never compared, so not copied) */
            a[k] = galloc_fill(&g[k], len, off, (unsigned char)(0x5a ^ (t * 7 + mode * 31)));
            continue;
        }
        a[k] = galloc(&g[k], len, off);
        fill(a[k], len, pr->args[k].kind == QHASM_ARG_OUT ? 0 : mode);
        memcpy(init[k], a[k], len);
        if ((pr->args[k].kind == QHASM_ARG_OUT || pr->args[k].kind == QHASM_ARG_INOUT) && out < 0) out = k;
    }
    if (alias >= 0 && (out < 0 || pr->args[alias].kind != QHASM_ARG_IN || pr->args[alias].bytes != pr->args[out].bytes))
        alias = -1;
    /* the reference on separate copies: an aliased output must get the
     * same value (the kernel reads its inputs before writing) */
    for (k = 0; k < n; k++)
        if (pr->args[k].kind != QHASM_ARG_WORK) memcpy(want[k], init[k], pr->args[k].bytes);
    qhasm_fixed_call(ref->fn[0], n, want);
    stage("%s (%s): %s inputs, offset %u%s%s, case %d", pr->name, im->name, mode_names[mode], off,
          alias >= 0 ? ", output aliases an input" : "", "", t);
    if (alias >= 0) {
        unsigned char *c[MAXARGS];
        memcpy(a[out], init[alias], pr->args[out].bytes);
        for (k = 0; k < n; k++) c[k] = a[k];
        c[alias] = a[out];
        qhasm_fixed_call(im->fn[0], n, c);
    } else
        qhasm_fixed_call(im->fn[0], n, a);
    for (k = 0; k < n && !bad; k++) {
        long d;
        if (gcheck(&g[k]))
            bad = fail("%s (%s): argument %d: wrote outside its %lu bytes (canary), %s inputs", pr->name, im->name,
                       k, pr->args[k].bytes, mode_names[mode]);
        else if (k == alias || pr->args[k].kind == QHASM_ARG_WORK)
            continue;
        else if (pr->args[k].kind == QHASM_ARG_IN && (d = diffat(a[k], init[k], pr->args[k].bytes)) >= 0)
            bad = fail("%s (%s): modified input argument %d at byte %ld, %s inputs", pr->name, im->name, k, d,
                       mode_names[mode]);
        else if (pr->args[k].kind != QHASM_ARG_IN && (d = diffat(a[k], want[k], pr->args[k].bytes)) >= 0)
            bad = fail("%s (%s): output argument %d differs from ref at byte %ld (%02x, ref %02x): %s inputs, "
                       "offset %u%s, case %d", pr->name, im->name, k, d, a[k][d], want[k][d], mode_names[mode],
                       off, alias >= 0 ? ", output aliasing an input" : "", t);
    }
    for (k = 0; k < n; k++) { gfree(&g[k]); free(want[k]); free(init[k]); }
    return bad;
}

static int fixed_check(int p, int i)
{
    const qhasm_prim *pr = &qhasm_prims[p];
    int n = nargs(p), t, mode, al, k;
    unsigned step = (unsigned)(pr->align > 0 ? pr->align : 1);
    /* buffers of a megabyte (the McEliece public keys) get fewer cases:
     * each case fills, copies and compares every byte (minutes under qemu);
     * work areas are not compared and do not count */
    unsigned long total = 0;
    int big;
    for (k = 0; k < n; k++)
        if (pr->args[k].kind != QHASM_ARG_WORK) total += pr->args[k].bytes;
    big = total > 65536;
    int nrand = big ? 12 : 200, nmode = big ? 2 : 8, nalias = big ? 5 : 20;
    unsigned near = 0, far = big ? 7 * step : step;   /* offsets below near: every one */
    /* under emulation (QHASM_EMULATED=1: tests/sh/cross.sh under qemu-user)
     * kernels of more than 1 KB of arguments (the NTRU Prime products, whose
     * schoolbook reference takes ~0.1 s a call there) get fewer cases: 20
     * random, 4 per structured mode, 5 per aliasing, every offset below 16
     * and every seventh above */
    const char *emu = getenv("QHASM_EMULATED");
    if (!big && total > 1024 && emu && strcmp(emu, "1") == 0) {
        nrand = 20, nmode = 4, nalias = 5;
        near = 16, far = 7 * step;
    }
    for (mode = 0; mode < NMODES; mode++)
        for (t = 0; t < (mode ? nmode : nrand); t++)
            if (fixed_case(p, i, mode, 0, -1, t)) return 1;
    for (unsigned off = step; off < 64; off += off < near ? step : far)
        if (fixed_case(p, i, 0, off, -1, 0)) return 1;
    for (al = 0; al < n; al++)
        for (t = 0; t < nalias; t++)
            if (fixed_case(p, i, t % NMODES, 0, al, t)) return 1;
    /* the public function: the same as the kernel, with the selection forced */
    {
        unsigned char *a[MAXARGS], *b[MAXARGS];
        const qhasm_impl *im = &pr->impls[i];
        int k;
        for (k = 0; k < n; k++) {
            a[k] = malloc(pr->args[k].bytes + 64);
            b[k] = malloc(pr->args[k].bytes + 64);
            if (!a[k] || !b[k]) die("malloc");
            rnd_bytes(a[k], pr->args[k].bytes);
            memcpy(b[k], a[k], pr->args[k].bytes);
        }
        stage("%s (%s): the public function", pr->name, im->name);
        qhasm_fixed_call(im->fn[0], n, a);
        call_public(p, b);
        for (k = 0; k < n; k++) {
            if (pr->args[k].kind != QHASM_ARG_WORK && diffat(a[k], b[k], pr->args[k].bytes) >= 0) {
                fail("%s: the public function differs from implementation %s's kernel", pr->name, im->name);
                return 1;
            }
            free(a[k]); free(b[k]);
        }
    }
    return 0;
}

static int fixed_abi(int p, int i)
{
    const qhasm_prim *pr = &qhasm_prims[p];
    const qhasm_impl *im = &pr->impls[i];
    int n = nargs(p), k, t;
    uint64_t v[6] = { 0 };
    char sig[8] = { 0 }, what[160];
    unsigned char *a[MAXARGS];
    for (k = 0; k < n; k++) {
        if (posix_memalign((void **)&a[k], 64, pr->args[k].bytes + 64)) die("posix_memalign");
        sig[k] = 'w';
    }
    for (t = 0; t < 4; t++) {
        for (k = 0; k < n; k++) { rnd_bytes(a[k], pr->args[k].bytes); v[k] = U(a[k]); }
        snprintf(what, sizeof what, "qhasm_kernel_%s_%s (%s) call %d", pr->symbol, qhasm_prims[p].kernels[0], im->name, t);
        if (abicall(what, FN(im->fn[0]), sig, kernel_abi_flags(im->name), v[0], v[1], v[2], v[3], v[4], v[5], NULL))
            return 1;
        {
            uint64_t w[6] = { 0 };
            char psig[8] = { 0 };
            int j = 0;
            for (k = 0; k < n; k++)
                if (pr->args[k].kind != QHASM_ARG_WORK) { w[j] = v[k]; psig[j++] = 'w'; }
            snprintf(what, sizeof what, "%s (%s) public function, call %d", pr->name, im->name, t);
            if (abicall(what, FN(qhasm_fixed_public(p)), psig, QHASM_ABICHECK_COMPILED, w[0], w[1], w[2], w[3], w[4], w[5], NULL))
                return 1;
        }
    }
    for (k = 0; k < n; k++) free(a[k]);
    return 0;
}

static int fixed_ct(int p, int i)
{
    const qhasm_prim *pr = &qhasm_prims[p];
    const qhasm_impl *im = &pr->impls[i];
    int n = nargs(p), k, t;
    unsigned char *a[MAXARGS];
    for (k = 0; k < n; k++) {
        if (posix_memalign((void **)&a[k], 64, pr->args[k].bytes + 64)) die("posix_memalign");
    }
    for (t = 0; t < 8; t++) {
        unsigned long e;
        for (k = 0; k < n; k++) {
            fill(a[k], pr->args[k].bytes, t % NMODES);
            if (pr->args[k].kind == QHASM_ARG_IN || pr->args[k].kind == QHASM_ARG_INOUT) SECRET(a[k], pr->args[k].bytes);
        }
        stage("valgrind-ct: %s (%s), %s inputs", pr->name, im->name, mode_names[t % NMODES]);
        e = CT_ERRORS();
        qhasm_fixed_call(im->fn[0], n, a);
        call_public(p, a);
        for (k = 0; k < n; k++) PUBLIC(a[k], pr->args[k].bytes);
        if (ct_verdict(e, "%s (%s), %s inputs", pr->name, im->name, mode_names[t % NMODES])) return 1;
    }
    for (k = 0; k < n; k++) free(a[k]);
    return 0;
}

const qhasm_test_family qhasm_test_fixed = { fixed_check, fixed_abi, fixed_ct, "every input" };
