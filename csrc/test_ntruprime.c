/* test_ntruprime: every Streamlined NTRU Prime implementation of this build
 * against the reference C (csrc/ref/ntruprime_ref.c), p = 653, 761, 857:
 *   random inputs; extreme inputs (every coefficient of f -32768, or 32767,
 *   or random; all of g +1 or -1; g = x^i for every i; k bytes with the high
 *   six bits set, which must be ignored); outputs always in range; the
 *   output aliasing in and k; canary bytes around every buffer, and
 *   unaligned buffers.  Each implementation runs in a child process (an
 *   illegal instruction is a failure, not a crash of the run); one whose
 *   CPU extension is missing is reported as SKIPPED.
 *
 *   test_ntruprime [-n ROUNDS] [-i IMPL] [--speed] [--valgrind-ct]
 *
 * --valgrind-ct (run under valgrind memcheck, djb's method): in and k are
 * marked undefined before each kernel call, so a branch or a memory address
 * that depends on them is reported; the reference is not checked (it is not
 * constant time).  Exit status 77 when built without valgrind/memcheck.h.
 *
 * --speed prints, per implementation and kernel, the median and the best of
 * 64 timings (TSC ticks or the platform cycle counter per call). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/wait.h>
#include "qhasm.h"
#include "ntruprime_impl.h"
#include "ref/ref.h"
#include "cpucycles.h"
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HAVE_MEMCHECK 1
#endif
#endif

#define MAXP 857
#define GUARD 64
#define CANARY 0xA5

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

static int failures;
static long checks;

static void fail(const char *impl, const char *fn, int p, const char *what, int i)
{
    if (failures < 20) printf("FAIL %s %s%d: %s (index %d)\n", impl, fn, p, what, i);
    failures++;
}

/* one buffer with canaries on both sides, at offset `mis` from alignment */
typedef struct { unsigned char raw[2 * MAXP + 2 * GUARD + 64]; unsigned char *p; size_t n; } buf;

static void buf_init(buf *b, size_t n, int mis)
{
    memset(b->raw, CANARY, sizeof b->raw);
    b->p = b->raw + GUARD + mis;
    b->n = n;
}

static int buf_canaries_ok(const buf *b)
{
    size_t i;
    for (i = 0; i < sizeof b->raw; i++) {
        if (b->raw + i >= b->p && b->raw + i < b->p + b->n) continue;
        if (b->raw[i] != CANARY) return 0;
    }
    return 1;
}

/* run one case: fn vs ref on (in, k); modes: 0 separate buffers,
 * 1 out = in, 2 out = k */
static void check_case(const qhasm_ntru_impl *im, int ix, int three, const unsigned char *in,
                       const unsigned char *k, int mode, int mis, const unsigned char *want)
{
    int p = qhasm_ntru_p[ix], q = qhasm_ntru_q[ix];
    size_t inb = three ? (size_t)p : 2 * (size_t)p, outb = inb;
    static buf bo, bi, bk;
    unsigned char *out;
    const char *fn = three ? "mult3sntrup" : "multsntrup";
    qhasm_ntru_fn *f = three ? im->mult3[ix] : im->mult[ix];
    size_t i;
    buf_init(&bo, outb, mis);
    buf_init(&bi, mode == 1 ? outb : inb, (mis * 7) & 31);
    buf_init(&bk, mode == 2 ? outb : (size_t)p, (mis * 13) & 31);
    memcpy(bi.p, in, inb);
    memcpy(bk.p, k, (size_t)p);
    if (mode == 2) memset(bk.p + p, 0x5A, outb - (size_t)p);
    out = mode == 1 ? bi.p : mode == 2 ? bk.p : bo.p;
    f(out, bi.p, bk.p);
    checks++;
    if (memcmp(out, want, outb)) {
        for (i = 0; i < outb && out[i] == want[i]; i++) {}
        fail(im->name, fn, p, mode == 1 ? "differs from ref (out = in)" : mode == 2 ? "differs from ref (out = k)" : "differs from ref", (int)i);
    }
    for (i = 0; i < (size_t)p; i++) {
        int v = three ? (int)(signed char)out[i] : (int)(int16_t)(uint16_t)(out[2 * i] | out[2 * i + 1] << 8);
        int lim = three ? 1 : (q - 1) / 2;
        if (v < -lim || v > lim) { fail(im->name, fn, p, "output out of range", (int)i); break; }
    }
    if (!buf_canaries_ok(&bo) || !buf_canaries_ok(&bi) || !buf_canaries_ok(&bk))
        fail(im->name, fn, p, "canary overwritten", -1);
    if (mode != 1 && memcmp(bi.p, in, inb)) fail(im->name, fn, p, "input in modified", -1);
    if (mode != 2 && memcmp(bk.p, k, (size_t)p)) fail(im->name, fn, p, "input k modified", -1);
}

static void run_case(const qhasm_ntru_impl *im, int ix, int three, const unsigned char *in,
                     const unsigned char *k, int mode, int mis)
{
    unsigned char want[2 * MAXP];
    int p = qhasm_ntru_p[ix];
    if (three) qhasm_ref_core_mult3sntrup(want, in, k, p);
    else qhasm_ref_core_multsntrup(want, in, k, p, qhasm_ntru_q[ix]);
    check_case(im, ix, three, in, k, mode, mis, want);
}

/* cur = x*cur in Z[x]/(x^p - x - 1) modulo m (coefficients in 0..m-1) */
static void times_x(long *cur, int p, long m)
{
    long top = cur[p - 1];
    int i;
    for (i = p - 1; i >= 1; i--) cur[i] = cur[i - 1];
    cur[0] = top;
    cur[1] = (cur[1] + top) % m;
}

/* the expected product +-x^i * cur, frozen, in the output layout */
static void want_of(unsigned char *want, const long *cur, int p, long m, int neg, int three)
{
    int i;
    for (i = 0; i < p; i++) {
        long v = neg ? (m - cur[i]) % m : cur[i];
        if (v > (m - 1) / 2) v -= m;
        if (three) want[i] = (unsigned char)(signed char)v;
        else { want[2 * i] = (unsigned char)((uint16_t)(int16_t)v & 255); want[2 * i + 1] = (unsigned char)((uint16_t)(int16_t)v >> 8); }
    }
}

static void small_bytes(unsigned char *k, int p, int kind)
{
    int i;
    for (i = 0; i < p; i++) {
        unsigned char r = (unsigned char)rnd();
        switch (kind) {
        case 0: k[i] = r; break;                               /* any byte */
        case 1: k[i] = (unsigned char)((r & 0xFC) | 1); break; /* all +1, high bits set */
        case 2: k[i] = (unsigned char)(r | 3); break;          /* all -1 */
        case 3: k[i] = (unsigned char)(r & ~1u); break;        /* all 0 */
        default: k[i] = (unsigned char)((rnd() % 3 == 0) ? 0 : (r & 2) | 1); break; /* ternary */
        }
    }
}

static void f_coeffs(unsigned char *in, int p, int kind)
{
    int i;
    for (i = 0; i < p; i++) {
        uint16_t v;
        switch (kind) {
        case 0: v = (uint16_t)rnd(); break;
        case 1: v = 0x8000; break;
        case 2: v = 0x7FFF; break;
        case 3: v = (uint16_t)((rnd() & 1) ? 0x8000 : 0x7FFF); break;
        default: v = (uint16_t)(int16_t)((int)(rnd() % 4591) - 2295); break;
        }
        in[2 * i] = (unsigned char)v;
        in[2 * i + 1] = (unsigned char)(v >> 8);
    }
}

static void test_impl(const qhasm_ntru_impl *im, int rounds)
{
    unsigned char in[2 * MAXP], k[MAXP];
    int ix, three, r, i, fk, gk;
    for (ix = 0; ix < QHASM_NTRU_NPARAMS; ix++) {
        int p = qhasm_ntru_p[ix];
        for (three = 0; three < 2; three++) {
            /* extreme and structured inputs */
            for (fk = 0; fk < 5; fk++)
                for (gk = 0; gk < 5; gk++) {
                    if (three) small_bytes(in, p, fk); else f_coeffs(in, p, fk);
                    small_bytes(k, p, gk);
                    run_case(im, ix, three, in, k, 0, (fk + gk) & 31);
                }
            /* g = +-x^i for every i (and f = x^i for mult3), one random f:
             * the expected value is f*x^i, updated by one multiplication by
             * x per step (independent of the reference) */
            {
                long cur[MAXP], m = three ? 3 : qhasm_ntru_q[ix];
                unsigned char want[2 * MAXP], fixed[2 * MAXP];
                if (three) small_bytes(fixed, p, 0); else f_coeffs(fixed, p, 0);
                for (i = 0; i < p; i++) {
                    long v = three ? ((fixed[i] & 3) == 1 ? 1 : (fixed[i] & 3) == 3 ? -1 : 0)
                                   : (long)(int16_t)(uint16_t)(fixed[2 * i] | fixed[2 * i + 1] << 8);
                    cur[i] = ((v % m) + m) % m;
                }
                for (i = 0; i < p; i++) {
                    memset(k, 0, (size_t)p);
                    k[i] = (unsigned char)((i & 1) ? 1 : 3);
                    want_of(want, cur, p, m, !(i & 1), three);
                    check_case(im, ix, three, fixed, k, 0, i & 31, want);
                    if (three) {             /* the same with the roles swapped */
                        memset(in, 0, (size_t)p);
                        in[i] = k[i];
                        check_case(im, ix, three, in, fixed, 0, (i + 7) & 31, want);
                    }
                    times_x(cur, p, m);
                }
            }
            /* random, aliasing, alignment */
            for (r = 0; r < rounds; r++) {
                if (three) small_bytes(in, p, r & 1 ? 0 : 4); else f_coeffs(in, p, r & 1 ? 0 : 4);
                small_bytes(k, p, r % 3 ? 0 : 4);
                run_case(im, ix, three, in, k, r % 3, (int)(rnd() & 31));
            }
        }
    }
}

#ifdef HAVE_MEMCHECK
static void ct_impl(const qhasm_ntru_impl *im)
{
    static unsigned char in[2 * MAXP], k[MAXP], out[2 * MAXP];
    int ix, three, r;
    for (ix = 0; ix < QHASM_NTRU_NPARAMS; ix++)
        for (three = 0; three < 2; three++)
            for (r = 0; r < 2; r++) {
                int p = qhasm_ntru_p[ix];
                if (three) small_bytes(in, p, 0); else f_coeffs(in, p, 0);
                small_bytes(k, p, 0);
                VALGRIND_MAKE_MEM_UNDEFINED(in, sizeof in);
                VALGRIND_MAKE_MEM_UNDEFINED(k, sizeof k);
                (three ? im->mult3[ix] : im->mult[ix])(out, in, k);
                VALGRIND_MAKE_MEM_DEFINED(out, sizeof out);
                VALGRIND_MAKE_MEM_DEFINED(in, sizeof in);
                VALGRIND_MAKE_MEM_DEFINED(k, sizeof k);
            }
    printf("ct %s: %d calls with secret in and k\n", im->name, QHASM_NTRU_NPARAMS * 4);
}
#endif

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

static void speed_impl(const qhasm_ntru_impl *im)
{
    static unsigned char in[2 * MAXP], k[MAXP], out[2 * MAXP];
    long long t[64];
    int ix, three, r;
    for (ix = 0; ix < QHASM_NTRU_NPARAMS; ix++)
        for (three = 0; three < 2; three++) {
            qhasm_ntru_fn *f = three ? im->mult3[ix] : im->mult[ix];
            int p = qhasm_ntru_p[ix];
            if (three) small_bytes(in, p, 4); else f_coeffs(in, p, 0);
            small_bytes(k, p, 4);
            for (r = 0; r < 8; r++) f(out, in, k);
            for (r = 0; r < 64; r++) {
                long long a = cpucycles();
                f(out, in, k);
                t[r] = cpucycles() - a;
            }
            qsort(t, 64, sizeof t[0], cmp_ll);
            printf("speed %-14s core_%s%d median %lld best %lld\n", im->name,
                   three ? "mult3sntrup" : "multsntrup", p, t[32], t[0]);
        }
}

int main(int argc, char **argv)
{
    int rounds = 100, speed = 0, ct = 0, i, n = qhasm_ntru_impl_count(), bad = 0, tested = 0;
    const char *only = NULL;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-i") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--speed")) speed = 1;
        else if (!strcmp(argv[i], "--valgrind-ct")) ct = 1;
        else { fprintf(stderr, "usage: %s [-n ROUNDS] [-i IMPL] [--speed] [--valgrind-ct]\n", argv[0]); return 2; }
    }
    if (ct) {
#ifdef HAVE_MEMCHECK
        for (i = 0; i < n; i++) {
            const qhasm_ntru_impl *im = qhasm_ntru_impl_get(i);
            if (!strcmp(im->name, "ref") || (only && strcmp(only, im->name))) continue;
            if (!qhasm_ntru_impl_supported(i)) { printf("NOT CHECKED %s: the CPU lacks a required extension\n", im->name); continue; }
            ct_impl(im);
        }
        return 0;
#else
        printf("built without valgrind/memcheck.h\n");
        return 77;
#endif
    }
    if (speed) {
        cpucycles_init(NULL);
        printf("timer %s\n", cpucycles_implementation());
    }
    for (i = 0; i < n; i++) {
        const qhasm_ntru_impl *im = qhasm_ntru_impl_get(i);
        pid_t pid;
        int st;
        if (only && strcmp(only, im->name)) continue;
        if (!qhasm_ntru_impl_supported(i)) {
            printf("SKIPPED %s: the CPU lacks a required extension\n", im->name);
            continue;
        }
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            if (speed) speed_impl(im);
            else test_impl(im, rounds);
            if (!speed) printf("%s %s: %ld checks, %d failures\n", failures ? "FAIL" : "ok", im->name, checks, failures);
            fflush(stdout);
            _exit(failures ? 1 : 0);
        }
        if (pid < 0 || waitpid(pid, &st, 0) < 0) { perror("fork"); return 2; }
        tested++;
        if (!WIFEXITED(st) || WEXITSTATUS(st)) {
            if (WIFSIGNALED(st)) printf("FAIL %s: killed by signal %d\n", im->name, WTERMSIG(st));
            bad++;
        }
    }
    /* the public functions: the selected implementation, aliasing */
    if (!speed && !only) {
        unsigned char in[2 * 761], k[761], want[2 * 761], a[2 * 761];
        f_coeffs(in, 761, 0);
        small_bytes(k, 761, 0);
        qhasm_ref_core_multsntrup(want, in, k, 761, 4591);
        memcpy(a, in, sizeof a);
        if (qhasm_core_multsntrup761(a, a, k, NULL) != 0 || memcmp(a, want, sizeof a)) {
            printf("FAIL qhasm_core_multsntrup761 (selected %s)\n", qhasm_ntru_impl_get(qhasm_ntru_impl_selected())->name);
            bad++;
        }
        qhasm_ref_core_mult3sntrup(want, k, in, 761);
        memcpy(a, k, 761);
        if (qhasm_core_mult3sntrup761(a, a, in, NULL) != 0 || memcmp(a, want, 761)) {
            printf("FAIL qhasm_core_mult3sntrup761\n");
            bad++;
        }
        printf("public functions use %s\n", qhasm_ntru_impl_get(qhasm_ntru_impl_selected())->name);
    }
    if (!tested) { printf("FAIL: no implementation tested\n"); return 1; }
    return bad ? 1 : 0;
}
