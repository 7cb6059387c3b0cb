/* qhasm-test: checks every implementation of every primitive against the
 * reference C (csrc/ref/) and published test vectors, each implementation
 * in its own child process.  See docs/api.md ("Testing").  This file is the
 * driver and the helpers the families' checks share (test.h); the checks of
 * each family of specs/kernels.conf are in csrc/test_<family>.c, and which
 * primitive uses which family is generated (gen/manifest.py hooks test).
 *
 *   qhasm-test [-p prim] [-i impl] [-s seed] [-q] [-l]
 *              [--abi-only | --no-abi | --valgrind-ct] [--help]
 *
 * Every child runs its family's checks, then calls each kernel of its
 * implementation (from the dispatch tables) and the public functions
 * through the ABI checker
 * (csrc/abicheck.h).  --valgrind-ct replaces the tests with a constant-time
 * check under valgrind (secrets marked undefined; see ct_child).
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"


/* ---- deterministic PRNG (splitmix64) -------------------------------------- */
uint64_t rng;
uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
void rnd_bytes(unsigned char *p, size_t n)
{
    while (n--) *p++ = (unsigned char)rnd();
}
size_t rnd_below(size_t n) { return (size_t)(rnd() % n); }

/* ---- state shared with the parent (survives a crash of the child) -------- */
struct qhasm_test_shared *sh;

void stage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sh->stage, sizeof sh->stage, fmt, ap);
    va_end(ap);
}

int fail(const char *fmt, ...)
{
    va_list ap;
    if (sh->fail[0]) return 1;
    va_start(ap, fmt);
    vsnprintf(sh->fail, sizeof sh->fail, fmt, ap);
    va_end(ap);
    return 1;
}

void die(const char *what)
{
    fprintf(stderr, "qhasm-test: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* ---- guarded buffers: GUARD random canary bytes on both sides ----------- */

/* len bytes at address = 64-byte boundary + align, canaries around */
unsigned char *galloc(gbuf *g, size_t len, unsigned align)
{
    void *b;
    if (posix_memalign(&b, 64, 64 + 64 + len + GUARD + 64)) die("posix_memalign");
    g->base = b;
    g->p = g->base + 64 + (align % 64);
    g->len = len;
    rnd_bytes(g->before, GUARD);
    rnd_bytes(g->after, GUARD);
    memcpy(g->p - GUARD, g->before, GUARD);
    memcpy(g->p + len, g->after, GUARD);
    rnd_bytes(g->p, len);
    return g->p;
}

/* galloc with the buffer filled with one byte value (a large work area:
 * random filling of 600 KB per case dominated the emulated tests) */
unsigned char *galloc_fill(gbuf *g, size_t len, unsigned align, unsigned char byte)
{
    void *b;
    if (posix_memalign(&b, 64, 64 + 64 + len + GUARD + 64)) die("posix_memalign");
    g->base = b;
    g->p = g->base + 64 + (align % 64);
    g->len = len;
    rnd_bytes(g->before, GUARD);
    rnd_bytes(g->after, GUARD);
    memcpy(g->p - GUARD, g->before, GUARD);
    memcpy(g->p + len, g->after, GUARD);
    memset(g->p, byte, len);
    return g->p;
}

/* 0 if both canaries are intact */
int gcheck(const gbuf *g)
{
    return memcmp(g->p - GUARD, g->before, GUARD) || memcmp(g->p + g->len, g->after, GUARD);
}

void gfree(gbuf *g) { free(g->base); g->base = g->p = NULL; }

/* first differing offset, -1 if equal */
long diffat(const unsigned char *a, const unsigned char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i]) return (long)i;
    return -1;
}

void hex(unsigned char *out, const char *h)
{
    while (h[0] && h[1]) {
        unsigned v;
        sscanf(h, "%2x", &v);
        *out++ = (unsigned char)v;
        h += 2;
    }
}

/* ---- SHA-256 (FIPS 180-4), for the long-stream vector ------------------ */
typedef struct { uint32_t h[8]; unsigned char buf[64]; uint64_t len; } sha256;
static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static void sha256_block(sha256 *s, const unsigned char *p)
{
    static const uint32_t K[64] = {
        0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,
        0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,
        0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,
        0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,
        0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,
        0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,
        0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,
        0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2 };
    uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = ((uint32_t)p[4*i] << 24) | ((uint32_t)p[4*i+1] << 16) | ((uint32_t)p[4*i+2] << 8) | p[4*i+3];
    for (i = 16; i < 64; i++)
        w[i] = (ror(w[i-2], 17) ^ ror(w[i-2], 19) ^ (w[i-2] >> 10)) + w[i-7]
             + (ror(w[i-15], 7) ^ ror(w[i-15], 18) ^ (w[i-15] >> 3)) + w[i-16];
    a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
    e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
    for (i = 0; i < 64; i++) {
        t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
    s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}
void sha256_hash(unsigned char out[32], const unsigned char *m, size_t n)
{
    static const uint32_t iv[8] = { 0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,
                                    0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19 };
    sha256 s;
    unsigned char last[128];
    size_t i, r;
    memcpy(s.h, iv, sizeof iv);
    for (i = 0; i + 64 <= n; i += 64) sha256_block(&s, m + i);
    r = n - i;
    memset(last, 0, sizeof last);
    memcpy(last, m + i, r);
    last[r] = 0x80;
    r = r < 56 ? 64 : 128;
    for (i = 0; i < 8; i++) last[r - 1 - i] = (unsigned char)(((uint64_t)n * 8) >> (8 * i));
    sha256_block(&s, last);
    if (r == 128) sha256_block(&s, last + 64);
    for (i = 0; i < 32; i++) out[i] = (unsigned char)(s.h[i / 4] >> (24 - 8 * (i % 4)));
}

/* ======================================================================== */
/* ABI conformance: every kernel of the dispatch tables and the public     */
/* functions on top of them, called through the checker's trampoline       */
/* (csrc/abicheck.c) on realistic inputs, results compared with ref        */
/* ======================================================================== */

/* one call through the trampoline; 1 (and the failure) on a violation.  sig:
 * one letter per argument, 'w' word (pointer, int), 'q' 64-bit (unsigned long
 * long), which 32-bit ABIs pass in two words; flags: QHASM_ABICHECK_COMPILED
 * for C code (the public functions, the c and ref kernels), which is held
 * to what the C compiler and C library honor (csrc/abicheck.h) */
int abicall(const char *what, void (*fn)(void), const char *sig, unsigned flags, uint64_t a0, uint64_t a1,
                   uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t *ret)
{
    uint64_t args[6];
    char why[640];
    int r;
    args[0] = a0; args[1] = a1; args[2] = a2; args[3] = a3; args[4] = a4; args[5] = a5;
    stage("ABI check: %s", what);
    r = qhasm_abicheck_call_sig(fn, sig, flags, args, ret, why, sizeof why);
    sh->abicalls++;
    if (r == -1) return fail("ABI violation in %s: %s", what, why);
    return 0;
}

/* the kernels of the c and ref implementations are compiled C; all others
 * are generated assembly, checked against the letter of the ABI */
unsigned kernel_abi_flags(const char *impl)
{
    return !strcmp(impl, "c") || !strcmp(impl, "ref") ? QHASM_ABICHECK_COMPILED : 0;
}

const unsigned long long abi_nblocks[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33 };

/* ======================================================================== */
/* constant time, dynamically: --valgrind-ct                                */
/* Secret inputs (keys and messages; for Poly1305 also the kernel state)    */
/* are marked undefined with memcheck's client requests, so valgrind        */
/* reports every conditional branch and memory address that depends on     */
/* them; outputs are marked defined again before they are compared.        */
/* ======================================================================== */

const size_t ct_lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 300, 511, 512, 1025 };

/* after each operation: did valgrind report anything since `before`? */
int ct_verdict(unsigned long before, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    sh->ctcalls++;
    if (CT_ERRORS() == before) return 0;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return fail("valgrind: branch or memory address depends on secret data in %s (the valgrind report above says where)", what);
}
const size_t align_lengths[] = { 0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 65, 127, 128, 129, 191, 192,
                                        255, 256, 257, 511, 512, 513, 575, 1023, 1024, 1025, 1100 };
_Static_assert(sizeof align_lengths / sizeof align_lengths[0] == NALIGNLEN, "NALIGNLEN in test.h");
_Static_assert(sizeof abi_nblocks / sizeof abi_nblocks[0] == NABI, "NABI in test.h");
_Static_assert(sizeof ct_lens / sizeof ct_lens[0] == NCT, "NCT in test.h");

/* ======================================================================== */
/* driver                                                                   */
/* ======================================================================== */
static const char *signame(int s)
{
    switch (s) {
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGALRM: return "SIGALRM (timeout)";
    case SIGKILL: return "SIGKILL";
    default: return "signal";
    }
}

/* modes: the default runs the functional tests, then the ABI checks */
static int abi_only, no_abi, ct_mode;

/* implementation i of primitive p, in the child: its family's checks */
static int child(int p, int i)
{
    const qhasm_test_family *f = qhasm_test_families[p];
    alarm(ct_mode ? 3600 : 600);
    if (qhasm_impl_force(qhasm_prim_name(p), i)) return fail("cannot force implementation");
    if (ct_mode) return f->ct(p, i);
    /* the functional checks first: a wrong kernel is reported by the
     * vector or length it fails, not as a wrong result through the checker */
    if (!abi_only) {
        if (f->check(p, i)) return 1;
        if (qhasm_test_extra[p] && qhasm_test_extra[p](p, i)) return 1;
    }
    if (!no_abi && qhasm_abicheck_abi() && f->abi(p, i)) return 1;
    return 0;
}

/* `param ctcheck=IMPL,...`: the implementations valgrind checks by default;
 * the others (a slow reference the dispatch never prefers) only with
 * QHASM_CT_ALL=1 */
static int ct_deferred(const char *prim, const char *impl)
{
    const char *s = qhasm_prim_param(qhasm_prim_lookup(prim), "ctcheck"), *all = getenv("QHASM_CT_ALL");
    size_t n = strlen(impl), k;
    if (!s || (all && *all && strcmp(all, "0"))) return 0;
    for (;; s += k + 1) {
        k = strcspn(s, ",");
        if (k == n && !strncmp(s, impl, n)) return 0;
        if (!s[k]) return 1;
    }
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: qhasm-test [-p prim] [-i impl] [-s seed] [-q] [-l]\n"
        "                  [--abi-only | --no-abi | --valgrind-ct] [--help]\n"
        "Checks every implementation of every primitive (each in a child process)\n"
        "against the reference C and published vectors, and calls each of its\n"
        "kernels and the public functions through the ABI checker (callee-saved\n"
        "registers, stack pointer, direction flag, dirty AVX state).\n"
        "  -p prim   only this primitive (-l lists them; the public functions'\n"
        "            names such as stream_salsa20_xor work too); repeatable\n"
        "  -i impl   only this implementation (ref, c, amd64-avx2, ...); repeatable\n"
        "  -s seed   PRNG seed (decimal or 0x hex; default 0x7168617331323334)\n"
        "  -q        print only failures and the summary\n"
        "  -l        list primitives, implementations and CPU support, then exit\n"
        "  --abi-only     only the ABI checks\n"
        "  --no-abi       skip the ABI checks\n"
        "  --valgrind-ct  constant-time check instead: keys and messages (and the\n"
        "            Poly1305 state) are marked undefined for valgrind's memcheck,\n"
        "            which then reports every branch or address depending on them;\n"
        "            run as: valgrind --error-exitcode=1 qhasm-test --valgrind-ct\n"
        "            (exit status 77 if built without valgrind/memcheck.h)\n"
        "Output: one line per primitive and implementation: ok, FAIL <what>, or\n"
        "skipped <why>; then 'N passed, N failed, N skipped'. Exit status 1 on failure.\n"
        "QHASM_CPU_DISABLE=avx2,... pretends CPU features are absent.\n");
}

int main(int argc, char **argv)
{
    const char *prims[256], *impls[256];
    int nprims = 0, nimpls = 0, quiet = 0, list = 0, a, p, i, j;
    int passed = 0, failed = 0, skipped = 0, ctskipped = 0, aliases = 0;
    static char skiplist[8192];
    unsigned long abicalls = 0, ctcalls = 0;
    uint64_t seed = 0x7168617331323334ULL;   /* "qhas1234" */

    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) { usage(stdout); return 0; }
        else if (!strcmp(argv[a], "-q")) quiet = 1;
        else if (!strcmp(argv[a], "-l")) list = 1;
        else if (!strcmp(argv[a], "-p") && a + 1 < argc && nprims < 256) prims[nprims++] = argv[++a];
        else if (!strcmp(argv[a], "-i") && a + 1 < argc && nimpls < 256) impls[nimpls++] = argv[++a];
        else if (!strcmp(argv[a], "-s") && a + 1 < argc) seed = strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "--abi-only")) abi_only = 1;
        else if (!strcmp(argv[a], "--no-abi")) no_abi = 1;
        else if (!strcmp(argv[a], "--valgrind-ct")) ct_mode = 1;
        else { usage(stderr); return 2; }
    }
    for (j = 0; j < nprims; j++)
        if (qhasm_prim_lookup(prims[j]) < 0) { fprintf(stderr, "qhasm-test: unknown primitive %s\n", prims[j]); return 2; }
    for (j = 0; j < nimpls; j++) {
        int found = 0;
        for (p = 0; qhasm_prim_name(p); p++) found |= qhasm_impl_find(qhasm_prim_name(p), impls[j]) >= 0;
        if (!found) { fprintf(stderr, "qhasm-test: unknown implementation %s\n", impls[j]); return 2; }
    }

    if (list) {
        unsigned f = qhasm_cpu_features();
        printf("cpu:");
        for (j = 0; j < QHASM_CPU_NFEATURES; j++)
            if (f & (1u << j)) printf(" %s", qhasm_cpu_feature_name(1u << j));
        printf("\n");
        for (p = 0; qhasm_prim_name(p); p++) {
            const char *pn = qhasm_prim_name(p);
            printf("%s:", pn);
            for (i = 0; i < qhasm_impl_count(pn); i++)
                printf(" %s%s%s", qhasm_impl_name(pn, i),
                       qhasm_impl_supported(pn, i) ? "" : "(unsupported)",
                       qhasm_impl_selected(pn) == i ? "(selected)" : "");
            printf("\n");
        }
        return 0;
    }

    if (abi_only && no_abi) { fprintf(stderr, "qhasm-test: --abi-only and --no-abi exclude each other\n"); return 2; }
    if (ct_mode) {
#ifndef QHASM_HAVE_MEMCHECK
        printf("qhasm-test: --valgrind-ct: not available: built without valgrind/memcheck.h\n");
        return 77;
#else
        if (!CT_ON_VALGRIND())
            fprintf(stderr, "qhasm-test: --valgrind-ct: NOT running under valgrind: secrets are not tracked, "
                            "this only runs the cases; use: valgrind --error-exitcode=1 %s --valgrind-ct\n", argv[0]);
#endif
    }

    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) die("mmap");
    if (!quiet) printf("qhasm-test: seed 0x%016llx\n", (unsigned long long)seed);
    if (ct_mode && !quiet)
        for (p = 0; qhasm_prim_name(p); p++)
            printf("qhasm-test: valgrind-ct: %s: secret: %s\n", qhasm_prim_name(p), qhasm_test_families[p]->secrets);
    if (!ct_mode && !no_abi && !quiet)
        printf("qhasm-test: ABI checker: %s\n", qhasm_abicheck_abi()
               ? qhasm_abicheck_coverage() : "none for this architecture (ABI checks skipped)");

    for (p = 0; qhasm_prim_name(p); p++) {
        const char *pn = qhasm_prim_name(p);
        int want = nprims == 0;
        for (j = 0; j < nprims; j++) want |= qhasm_prim_lookup(prims[j]) == p;
        if (!want) continue;
        for (i = 0; i < qhasm_impl_count(pn); i++) {
            const char *in = qhasm_impl_name(pn, i);
            int status;
            pid_t pid;
            want = nimpls == 0;
            for (j = 0; j < nimpls; j++) want |= qhasm_impl_find(pn, impls[j]) == i;
            if (!want) continue;
            if (qhasm_impl_alias(pn, i)) {
                /* a per-model variant with its base's code (out/ALIASES): not run twice */
                if (!quiet) printf("%-10s %-14s alias of %s (identical code, tested as that)\n", pn, in,
                                   qhasm_impl_alias(pn, i));
                aliases++;
                continue;
            }
            if (!qhasm_impl_supported(pn, i)) {
                size_t l = strlen(skiplist);
                snprintf(skiplist + l, sizeof skiplist - l, "%s%s/%s (%s)", l ? ", " : "", pn, in,
                         qhasm_impl_missing(pn, i));
                if (ct_mode && CT_ON_VALGRIND()) {
                    const char *miss = qhasm_impl_missing(pn, i);
                    printf("%-10s %-14s skipped: NOT CHECKED for constant time: %s%s\n", pn, in, miss,
                           strstr(miss, "avx512") ? " (valgrind does not emulate AVX-512; the CPU may have it)"
                                                  : " (under valgrind: its emulated CPU lacks the feature)");
                    ctskipped++;
                } else
                    printf("%-10s %-14s skipped %s\n", pn, in, qhasm_impl_missing(pn, i));
                skipped++;
                continue;
            }
            if (ct_mode && ct_deferred(pn, in)) {
                printf("%-10s %-14s skipped: NOT CHECKED for constant time in this run: the manifest's "
                       "param ctcheck=%s limits the default run (too slow under valgrind); QHASM_CT_ALL=1 checks it\n",
                       pn, in, qhasm_prim_param(p, "ctcheck"));
                ctskipped++;
                skipped++;
                continue;
            }
            memset(sh, 0, sizeof *sh);
            fflush(stdout);
            pid = fork();
            if (pid < 0) die("fork");
            if (pid == 0) {
                rng = seed ^ ((uint64_t)p << 56) ^ ((uint64_t)i << 48);   /* same inputs per (prim, impl) whatever else runs */
                _exit(child(p, i) ? 1 : 0);
            }
            while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR) die("waitpid");
            abicalls += sh->abicalls;
            ctcalls += sh->ctcalls;
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                if (!quiet) printf("%-10s %-14s ok\n", pn, in);
                passed++;
            } else {
                if (WIFSIGNALED(status))
                    printf("%-10s %-14s FAIL killed by %s during %s\n", pn, in, signame(WTERMSIG(status)), sh->stage);
                else if (sh->fail[0])
                    printf("%-10s %-14s FAIL %s\n", pn, in, sh->fail);
                else
                    printf("%-10s %-14s FAIL exit status %d during %s\n", pn, in, WEXITSTATUS(status), sh->stage);
                failed++;
            }
        }
    }
    if (ct_mode)
        printf("valgrind-ct: %lu operations on secret data%s; %d implementation%s NOT checked for constant time%s\n",
               ctcalls, CT_ON_VALGRIND() ? " checked by valgrind" : " run (NOT under valgrind: nothing tracked)",
               ctskipped, ctskipped == 1 ? "" : "s", ctskipped ? " (listed above)" : "");
    else if (!no_abi) {
        if (qhasm_abicheck_abi())
            printf("abi: %lu calls through the %s checker\n", abicalls, qhasm_abicheck_abi());
        else
            printf("abi: no ABI checker for this architecture: calling conventions NOT checked\n");
    }
    if (aliases) printf("aliases: %d per-model variants identical to their base implementation (not run twice)\n", aliases);
    if (skiplist[0]) printf("skipped implementations (this CPU lacks the extension): %s\n", skiplist);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
