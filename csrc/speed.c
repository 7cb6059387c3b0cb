/* qhasm-speed: cycle counts of every implementation of every primitive, in
 * the line format of djb's speed tools (lib1305-speed, mceliece-speed).
 * See docs/man/qhasm-speed.1.
 *
 *   qhasm-speed [-p prim] [-i impl] [-n timings] [-m maxlen] [--table] [--plot FILE.svg]
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "qhasm.h"
#include "impl.h"
#include "cpucycles.h"
#include "speedsizes.h"

#ifndef QHASM_SRCDIR
#define QHASM_SRCDIR "."
#endif
#ifndef QHASM_DATADIR
#define QHASM_DATADIR "/usr/local/share/qhasm"
#endif
#ifndef QHASM_PYTHON
#define QHASM_PYTHON "python3"
#endif

#define DEFAULT_TIMINGS 32
#define MAX_TIMINGS 4096
#define DEFAULT_MAXLEN 18205
#define CORE_INPUTBYTES 16          /* crypto_core_*_INPUTBYTES */

static const long long table_lens[] = { 11, 26, 61, 139, 314, 709, 1597, 3595, 8090, 18205 };
#define NTABLE (int)(sizeof table_lens / sizeof *table_lens)

/* ---- the operations measured ---------------------------------------------- */
enum kind { K_CORE, K_XOR, K_AUTH, K_VERIFY };
typedef int core_fn(unsigned char *, const unsigned char *, const unsigned char *, const unsigned char *);
typedef int xor_fn(unsigned char *, const unsigned char *, unsigned long long,
                   const unsigned char *, const unsigned char *);
typedef int auth_fn(unsigned char *, const unsigned char *, unsigned long long, const unsigned char *);
typedef int verify_fn(const unsigned char *, const unsigned char *, unsigned long long, const unsigned char *);

typedef struct {
    const char *name;
    int prim;               /* QHASM_PRIM_* */
    enum kind kind;
    core_fn *core;
    xor_fn *xor;
    auth_fn *auth;
    verify_fn *verify;
} op;

static const op ops[] = {
    { "core_salsa20", QHASM_PRIM_SALSA20, K_CORE, qhasm_core_salsa20, 0, 0, 0 },
    { "core_hsalsa20", QHASM_PRIM_SALSA20, K_CORE, qhasm_core_hsalsa20, 0, 0, 0 },
    { "stream_salsa20_xor", QHASM_PRIM_SALSA20, K_XOR, 0, qhasm_stream_salsa20_xor, 0, 0 },
    { "core_salsa2012", QHASM_PRIM_SALSA2012, K_CORE, qhasm_core_salsa2012, 0, 0, 0 },
    { "core_hsalsa2012", QHASM_PRIM_SALSA2012, K_CORE, qhasm_core_hsalsa2012, 0, 0, 0 },
    { "stream_salsa2012_xor", QHASM_PRIM_SALSA2012, K_XOR, 0, qhasm_stream_salsa2012_xor, 0, 0 },
    { "core_salsa208", QHASM_PRIM_SALSA208, K_CORE, qhasm_core_salsa208, 0, 0, 0 },
    { "core_hsalsa208", QHASM_PRIM_SALSA208, K_CORE, qhasm_core_hsalsa208, 0, 0, 0 },
    { "stream_salsa208_xor", QHASM_PRIM_SALSA208, K_XOR, 0, qhasm_stream_salsa208_xor, 0, 0 },
    { "onetimeauth_poly1305", QHASM_PRIM_POLY1305, K_AUTH, 0, 0, qhasm_onetimeauth_poly1305, 0 },
    { "onetimeauth_poly1305_verify", QHASM_PRIM_POLY1305, K_VERIFY, 0, 0, 0, qhasm_onetimeauth_poly1305_verify },
};
#define NOPS (int)(sizeof ops / sizeof *ops)

/* ---- options and state ----------------------------------------------------- */
static int ntimings = DEFAULT_TIMINGS;
static long long maxlen = DEFAULT_MAXLEN;
static int table_mode;
static const char *plot_file;
static int prim_on[QHASM_NPRIMS], prim_any;
static int op_on[NOPS], op_any;
static const char *impl_sel[64];
static int nimpl_sel;

static unsigned char *mbuf, *cbuf;
static unsigned char key[32], nonce[16], in16[16], out64[64], tag[16];

typedef struct {
    int op, prim;
    char impl[40];
    int selected;           /* 1: measured as "selected" */
    long long len, q1, iqm, q3;
} result;
static result *results;
static size_t nresults, capresults;

/* ---- small helpers --------------------------------------------------------- */
static uint64_t rng = 0x7168617373706565ULL;
static void fill(unsigned char *p, size_t n)
{
    while (n--) {
        rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
        *p++ = (unsigned char)rng;
    }
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* interquartile mean (mean of the middle half of the sorted values), q1, q3 */
static void stats(const long long *t, int n, long long *q1, long long *iqm, long long *q3)
{
    long long s[MAX_TIMINGS], sum = 0;
    int i, lo = n / 4, hi = n - n / 4;
    memcpy(s, t, (size_t)n * sizeof *t);
    qsort(s, (size_t)n, sizeof *s, cmp_ll);
    for (i = lo; i < hi; i++) sum += s[i];
    *iqm = (sum + (hi - lo) / 2) / (hi - lo);
    *q1 = s[lo];
    *q3 = s[hi - 1];
}

static void print_timings(const char *prefix, long long len, const long long *t, long long iqm)
{
    int i;
    printf("%s %lld %lld ", prefix, len, iqm);
    for (i = 0; i < ntimings; i++) printf("%+lld", t[i] - iqm);
    printf("\n");
}

static int same_impl(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a == '_' ? '-' : *a, y = *b == '_' ? '-' : *b;
        if (x != y) return 0;
    }
    return *a == *b;
}

static const struct qhasm_codesize *codesize(const char *prim, const char *impl)
{
    const struct qhasm_codesize *s;
    for (s = qhasm_codesizes; s->prim; s++)
        if (!strcmp(s->prim, prim) && same_impl(s->impl, impl)) return s;
    return NULL;
}

/* ---- one measurement: ntimings calls of op at length len ---------------- */
static void call(const op *o, long long len)
{
    switch (o->kind) {
    case K_CORE: o->core(out64, in16, key, NULL); break;
    case K_XOR: o->xor(cbuf, mbuf, (unsigned long long)len, nonce, key); break;
    case K_AUTH: o->auth(tag, mbuf, (unsigned long long)len, key); break;
    case K_VERIFY: o->verify(tag, mbuf, (unsigned long long)len, key); break;
    }
}

static void measure(const op *o, long long len, long long *t)
{
    int i;
    if (o->kind == K_VERIFY)    /* verify a valid tag: the full path */
        qhasm_onetimeauth_poly1305(tag, mbuf, (unsigned long long)len, key);
    call(o, len);               /* warm-up */
    call(o, len);
    for (i = 0; i <= ntimings; i++) {
        t[i] = cpucycles();
        call(o, len);
    }
    for (i = 0; i < ntimings; i++) t[i] = t[i + 1] - t[i];
}

static void record(int opi, const char *impl, int selected, long long len, const long long *t,
                   long long *iqm_out)
{
    result *r;
    long long q1, iqm, q3;
    stats(t, ntimings, &q1, &iqm, &q3);
    *iqm_out = iqm;
    if (nresults == capresults) {
        capresults = capresults ? 2 * capresults : 256;
        results = realloc(results, capresults * sizeof *results);
        if (!results) { perror("qhasm-speed"); exit(111); }
    }
    r = &results[nresults++];
    r->op = opi;
    r->prim = ops[opi].prim;
    snprintf(r->impl, sizeof r->impl, "%s", impl);
    r->selected = selected;
    r->len = len;
    r->q1 = q1; r->iqm = iqm; r->q3 = q3;
}

/* the lengths of one operation */
static int lengths(const op *o, long long *lens)
{
    int n = 0;
    long long l;
    if (o->kind == K_CORE) { lens[0] = CORE_INPUTBYTES; return 1; }
    if (table_mode) {
        for (n = 0; n < NTABLE && table_lens[n] <= maxlen; n++) lens[n] = table_lens[n];
        return n;
    }
    for (l = 0; l <= maxlen; l = l + 1 + l / 2) lens[n++] = l;
    return n;
}

/* the cost report's bound for an implementation on the running CPU's
 * model, beside the measured figure at the longest length */
static void print_bound(const op *o, const char *label, const char *impl, long long len, long long iqm)
{
    const char *prim = qhasm_prim_name(o->prim), *model = qhasm_cpu_uarch();
    if (table_mode || len <= 0 || !*model || (!strstr(o->name, "stream") && !strstr(o->name, "onetimeauth")))
        return;
    for (const struct qhasm_speedbound *b = qhasm_speedbounds; b->prim; b++)
        if (!strcmp(b->prim, prim) && !strcmp(b->impl, impl) && !strcmp(b->model, model)) {
            double measured = (double)iqm / (double)len;
            printf("%s %s bound %s %.3f cycles/byte (cost report) measured %.3f ticks/byte at %lld bytes ratio %.2f\n",
                   o->name, label, model, b->cpb, measured, len, measured / b->cpb);
            return;
        }
}

static void run_op(int opi, long long *t)
{
    const op *o = &ops[opi];
    const char *prim = qhasm_prim_name(o->prim);
    long long lens[128], iqm;
    int nl = lengths(o, lens), k, i, count = qhasm_impl_count(prim);
    char prefix[128];
    const char *name;

    qhasm_impl_force(prim, -1);
    name = qhasm_impl_name(prim, qhasm_impl_selected(prim));
    snprintf(prefix, sizeof prefix, "%s selected", o->name);
    for (k = 0; k < nl; k++) {
        measure(o, lens[k], t);
        record(opi, name, 1, lens[k], t, &iqm);
        if (!table_mode) print_timings(prefix, lens[k], t, iqm);
    }
    if (nl) print_bound(o, "selected", name, lens[nl - 1], iqm);
    for (i = 0; i < count; i++) {
        int want = !nimpl_sel, j;
        name = qhasm_impl_name(prim, i);
        for (j = 0; j < nimpl_sel; j++)
            if (same_impl(impl_sel[j], name)) want = 1;
        if (!want) continue;
        if (!qhasm_impl_supported(prim, i)) {
            if (!table_mode) printf("%s %d skipped %s\n", o->name, i, qhasm_impl_missing(prim, i));
            continue;
        }
        if (qhasm_impl_force(prim, i) != 0) {
            if (!table_mode) printf("%s %d skipped cannot force implementation\n", o->name, i);
            continue;
        }
        snprintf(prefix, sizeof prefix, "%s %d", o->name, i);
        for (k = 0; k < nl; k++) {
            measure(o, lens[k], t);
            record(opi, name, 0, lens[k], t, &iqm);
            if (!table_mode) print_timings(prefix, lens[k], t, iqm);
        }
        if (nl) {
            char label[16];
            snprintf(label, sizeof label, "%d", i);
            print_bound(o, label, name, lens[nl - 1], iqm);
        }
    }
    qhasm_impl_force(prim, -1);
    fflush(stdout);
}

static void print_impl_line(const char *prim, const char *label, const char *name)
{
    const struct qhasm_codesize *s = codesize(prim, name);
    if (s)
        printf("%s %s implementation %s bytes %ld compiler %s\n", prim, label, name, s->bytes, s->compiler);
    else
        printf("%s %s implementation %s bytes unknown\n", prim, label, name);
}

/* ---- emulation ---------------------------------------------------------- */
static const char *emulated(void)
{
    static char why[160];
    const char *e = getenv("QHASM_EMULATED");
    char line[512];
    int x86_host = 0, qemu = 0;
    FILE *f;
    if (e && *e) return strcmp(e, "0") ? "QHASM_EMULATED is set" : NULL;
    f = fopen("/proc/cpuinfo", "r");
    if (!f) return NULL;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "vendor_id", 9)) x86_host = 1;
        if (strstr(line, "QEMU Virtual CPU") || strstr(line, "QEMU TCG")) qemu = 1;
    }
    fclose(f);
#if !defined(__x86_64__) && !defined(__i386__)
    /* qemu-user passes the host's /proc/cpuinfo through for most targets */
    if (x86_host) {
        snprintf(why, sizeof why, "/proc/cpuinfo describes an x86 host");
        return why;
    }
#else
    (void)x86_host;
#endif
    if (qemu) {
        snprintf(why, sizeof why, "/proc/cpuinfo names a QEMU CPU");
        return why;
    }
    return NULL;
}

static const char *arch(void)
{
#if defined(__x86_64__)
    return "amd64";
#elif defined(__i386__)
    return "x86";
#elif defined(__aarch64__)
    return "arm64";
#elif defined(__arm__)
    return "arm";
#elif defined(__powerpc64__)
    return "ppc64";
#elif defined(__powerpc__)
    return "ppc32";
#elif defined(__sparc__) && defined(__arch64__)
    return "sparc64";
#elif defined(__sparc__)
    return "sparc32";
#elif defined(__riscv)
    return "riscv";
#else
    return "unknown";
#endif
}

static void cpu_model(char *buf, size_t n)
{
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(buf, n, "unknown");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        /* x86 and arm "model name", PowerPC and SPARC "cpu" */
        size_t k = strcspn(line, "\t:");
        int model = k == 10 && !strncmp(line, "model name", 10);
        if (model || (k == 3 && !strncmp(line, "cpu", 3))) {
            char *c = strchr(line, ':'), *p;
            if (!c) continue;
            for (c++; *c == ' ' || *c == '\t'; c++)
                ;
            c[strcspn(c, "\n")] = 0;
            for (p = c; *p; p++)
                if (*p == ' ' || *p == '\t') *p = '_';
            snprintf(buf, n, "%s", c);
            if (model) break;
        }
    }
    fclose(f);
}

static void note(const char *name, const char *why)
{
    if (!table_mode) printf("cpucycles fallback %s %s\n", name, why);
}

/* ---- --table --------------------------------------------------------------- */
static const result *find_result(int opi, const char *impl, int selected, long long len)
{
    size_t i;
    for (i = 0; i < nresults; i++)
        if (results[i].op == opi && results[i].selected == selected && results[i].len == len &&
            !strcmp(results[i].impl, impl))
            return &results[i];
    return NULL;
}

static void cell3(const result *r)
{
    if (!r) { printf(" | | |"); return; }
    printf(" %.2f | %.2f | %.2f |", (double)r->q1 / (double)r->len, (double)r->iqm / (double)r->len,
           (double)r->q3 / (double)r->len);
}

static void print_tables(const char *why_emulated)
{
    int p, i, k;
    char model[256];
    cpu_model(model, sizeof model);
    printf("# qhasm-speed %s\n\n", QHASM_VERSION);
    printf("Cycles per byte (q1, interquartile mean, q3 of %d timings) on `%s`, "
           "counter `%s` (%lld per second).\n\n", ntimings, model, cpucycles_implementation(),
           cpucycles_persecond());
    if (why_emulated) printf("**Emulated (%s): these figures are not speeds.**\n\n", why_emulated);
    for (p = 0; p < QHASM_NPRIMS; p++) {
        const char *prim = qhasm_prim_name(p);
        int opa = -1, opb = -1, count = qhasm_impl_count(prim), sel;
        if (prim_any && !prim_on[p]) continue;
        for (i = 0; i < NOPS; i++)
            if (ops[i].prim == p && ops[i].kind != K_CORE && (!op_any || op_on[i])) {
                if (opa < 0) opa = i; else if (opb < 0) opb = i;
            }
        if (opa < 0) continue;
        qhasm_impl_force(prim, -1);
        sel = qhasm_impl_selected(prim);
        for (i = 0; i < count; i++) {
            const char *name = qhasm_impl_name(prim, i);
            const char *ca = ops[opa].kind == K_XOR ? "stream" : ops[opa].kind == K_AUTH ? "auth" : "verify";
            const char *cb = opb < 0 ? NULL : ops[opb].kind == K_VERIFY ? "verify" : "auth";
            if (!find_result(opa, name, 0, table_lens[0]) && !(opb >= 0 && find_result(opb, name, 0, table_lens[0])))
                continue;
            printf("## %s %s%s\n\n", prim, name, i == sel ? " (selected)" : "");
            printf("| bytes | %s q1 | %s IQM | %s q3 |", ca, ca, ca);
            if (cb) printf(" %s q1 | %s IQM | %s q3 |", cb, cb, cb);
            printf("\n|---:|---:|---:|---:|%s\n", cb ? "---:|---:|---:|" : "");
            for (k = 0; k < NTABLE; k++) {
                const result *ra = find_result(opa, name, 0, table_lens[k]);
                const result *rb = opb >= 0 ? find_result(opb, name, 0, table_lens[k]) : NULL;
                if (!ra && !rb) continue;
                printf("| %lld |", table_lens[k]);
                cell3(ra);
                if (cb) cell3(rb);
                printf("\n");
            }
            printf("\n");
        }
    }
}

/* ---- --plot ---------------------------------------------------------------- */
static int plot(const char *file, const char *why_emulated)
{
    char tmpl[] = "/tmp/qhasm-speed-XXXXXX";
    const char *src = getenv("QHASM_SRCDIR"), *py = getenv("QHASM_PYTHON"), *old;
    char title[512], model[256], *pp;
    size_t i, n;
    int fd = mkstemp(tmpl), status;
    FILE *f;
    pid_t pid;
    if (fd < 0 || !(f = fdopen(fd, "w"))) { perror("qhasm-speed: temporary file"); return 1; }
    fprintf(f, "# op\timpl\tselected\tbytes\tq1\tiqm\tq3\n");
    for (i = 0; i < nresults; i++) {
        const result *r = &results[i];
        if (r->selected || ops[r->op].kind == K_CORE || r->len == 0) continue;
        fprintf(f, "%s\t%s\t%d\t%lld\t%lld\t%lld\t%lld\n", ops[r->op].name, r->impl,
                qhasm_impl_find(qhasm_prim_name(r->prim), r->impl) == qhasm_impl_selected(qhasm_prim_name(r->prim)),
                r->len, r->q1, r->iqm, r->q3);
    }
    if (fclose(f)) { perror("qhasm-speed: temporary file"); unlink(tmpl); return 1; }
    cpu_model(model, sizeof model);
    snprintf(title, sizeof title, "qhasm %s, %s, counter %s%s", QHASM_VERSION, model,
             cpucycles_implementation(), why_emulated ? " (EMULATED: not speeds)" : "");
    if (!src) {     /* the source tree it was built in, else the installed copy */
        static char probe[4096];
        snprintf(probe, sizeof probe, "%s/gen/plot.py", QHASM_SRCDIR);
        src = access(probe, R_OK) == 0 ? QHASM_SRCDIR : QHASM_DATADIR;
    }
    if (!py) py = QHASM_PYTHON;
    old = getenv("PYTHONPATH");
    n = strlen(src) + (old ? strlen(old) : 0) + 2;
    pp = malloc(n);
    if (!pp) return 1;
    snprintf(pp, n, "%s%s%s", src, old && *old ? ":" : "", old && *old ? old : "");
    fflush(NULL);
    pid = fork();
    if (pid < 0) { perror("qhasm-speed: fork"); unlink(tmpl); free(pp); return 1; }
    if (pid == 0) {
        setenv("PYTHONPATH", pp, 1);
        execlp(py, py, "-m", "gen.plot", "--title", title, "-o", file, tmpl, (char *)NULL);
        fprintf(stderr, "qhasm-speed: cannot run %s: %s\n", py, strerror(errno));
        _exit(127);
    }
    free(pp);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) break;
    unlink(tmpl);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "qhasm-speed: %s -m gen.plot failed (QHASM_SRCDIR=%s)\n", py, src);
        return 1;
    }
    return 0;
}

/* ---- main -------------------------------------------------------------------- */
static void usage(FILE *f)
{
    fprintf(f,
        "usage: qhasm-speed [-p prim] [-i impl] [-n timings] [-m maxlen] [--table] [--plot FILE.svg]\n"
        "Cycle counts of every implementation of every primitive (see qhasm-speed(1)).\n"
        "  -p prim     only this primitive (salsa20, salsa2012, salsa208, poly1305) or\n"
        "              operation (stream_salsa20_xor, onetimeauth_poly1305_verify, ...); repeatable\n"
        "  -i impl     only this implementation (ref, c, amd64-avx2, ...) besides 'selected'; repeatable\n"
        "  -n timings  timings per measurement (default %d; IQM of the middle half)\n"
        "  -m maxlen   longest message (default %d); lengths 0,1,2,4,7,11,... (n+1+n/2)\n"
        "  --table     print only Markdown tables of cycles/byte at 11,26,...,18205 bytes\n"
        "  --plot F    also draw cycles/byte against length into the SVG file F\n"
        "  -h, --help  this help\n"
        "Output lines: NAME selected|INDEX BYTES IQM +d+d... (each timing minus the IQM).\n"
        "QHASM_CPUCYCLES=name picks a counter; QHASM_EMULATED=1 marks figures as emulated;\n"
        "QHASM_IMPL and QHASM_CPU_DISABLE act as in the library.\n",
        DEFAULT_TIMINGS, DEFAULT_MAXLEN);
}

static const char *optarg_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "qhasm-speed: %s needs an argument\n", argv[*i]);
        usage(stderr);
        exit(2);
    }
    return argv[++*i];
}

int main(int argc, char **argv)
{
    long long *t, ov[MAX_TIMINGS + 1], iqm, q1, q3;
    const char *why_emulated;
    int i, p;
    unsigned feat;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--table")) table_mode = 1;
        else if (!strcmp(a, "--plot")) plot_file = optarg_of(argc, argv, &i);
        else if (!strcmp(a, "-n")) {
            ntimings = atoi(optarg_of(argc, argv, &i));
            if (ntimings < 4 || ntimings > MAX_TIMINGS) {
                fprintf(stderr, "qhasm-speed: -n must be between 4 and %d\n", MAX_TIMINGS);
                return 2;
            }
        } else if (!strcmp(a, "-m")) {
            maxlen = atoll(optarg_of(argc, argv, &i));
            if (maxlen < 0 || maxlen > 100000000) {
                fprintf(stderr, "qhasm-speed: -m must be between 0 and 100000000\n");
                return 2;
            }
        } else if (!strcmp(a, "-p")) {
            const char *s = optarg_of(argc, argv, &i);
            int j, pr = qhasm_prim_lookup(s), exact = 0;
            if (pr < 0) { fprintf(stderr, "qhasm-speed: unknown primitive %s\n", s); return 2; }
            prim_on[pr] = prim_any = 1;
            for (j = 0; j < NOPS; j++)
                if (!strcmp(ops[j].name, s) || (!strncmp(s, "crypto_", 7) && !strcmp(ops[j].name, s + 7)))
                    op_on[j] = op_any = exact = 1;
            if (!exact)
                for (j = 0; j < NOPS; j++)
                    if (ops[j].prim == pr) op_on[j] = 1;
        } else if (!strcmp(a, "-i")) {
            if (nimpl_sel == (int)(sizeof impl_sel / sizeof *impl_sel)) { fprintf(stderr, "qhasm-speed: too many -i\n"); return 2; }
            impl_sel[nimpl_sel++] = optarg_of(argc, argv, &i);
        } else {
            fprintf(stderr, "qhasm-speed: unknown argument %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (prim_any) op_any = 1;
    for (i = 0; i < nimpl_sel; i++) {
        int found = 0;
        for (p = 0; p < QHASM_NPRIMS; p++)
            if (qhasm_impl_find(qhasm_prim_name(p), impl_sel[i]) >= 0) found = 1;
        if (!found) { fprintf(stderr, "qhasm-speed: no implementation named %s\n", impl_sel[i]); return 2; }
    }

    t = malloc((size_t)(ntimings + 1) * sizeof *t);
    mbuf = malloc((size_t)maxlen + 64);
    cbuf = malloc((size_t)maxlen + 64);
    if (!t || !mbuf || !cbuf) { perror("qhasm-speed"); return 111; }
    fill(mbuf, (size_t)maxlen + 64);
    fill(cbuf, (size_t)maxlen + 64);
    fill(key, sizeof key);
    fill(nonce, sizeof nonce);
    fill(in16, sizeof in16);

    why_emulated = emulated();
    if (!table_mode) {
        char model[256];
        printf("qhasm-speed version %s\n", QHASM_VERSION);
        printf("qhasm-speed arch %s\n", arch());
        cpu_model(model, sizeof model);
        printf("qhasm-speed cpu %s\n", model);
        printf("qhasm-speed cpuid");
        feat = qhasm_cpu_features();
        for (i = 0; i < QHASM_CPU_NFEATURES; i++)
            if (feat & (1u << i)) printf(" %s", qhasm_cpu_feature_name(1u << i));
        printf("\n");
        if (why_emulated)
            printf("qhasm-speed emulated %s: figures under emulation are not speeds\n", why_emulated);
        fflush(stdout);
    }
    cpucycles_init(note);

    /* warm up (clock frequency ramp) for about 50 ms of the counter */
    {
        long long end = cpucycles() + cpucycles_persecond() / 20;
        while (cpucycles() < end) qhasm_core_salsa20(out64, in16, key, NULL);
    }

    /* the counter's overhead: back-to-back reads */
    for (i = 0; i <= ntimings; i++) ov[i] = cpucycles();
    for (i = 0; i < ntimings; i++) ov[i] = ov[i + 1] - ov[i];
    stats(ov, ntimings, &q1, &iqm, &q3);
    if (!table_mode) {
        printf("cpucycles selected persecond %lld\n", cpucycles_persecond());
        printf("cpucycles selected implementation %s\n", cpucycles_implementation());
        print_timings("cpucycles selected", 0, ov, iqm);
        if (*qhasm_cpu_uarch())
            printf("qhasm-speed bounds model %s: 'bound' lines give the cost report's lower bound in core cycles "
                   "beside measured ticks; their ratio includes the tick/core clock ratio\n", qhasm_cpu_uarch());
        else
            printf("qhasm-speed bounds none: no microarchitecture model for this CPU (set QHASM_UARCH=model)\n");
    }

    for (p = 0; p < QHASM_NPRIMS; p++) {
        const char *prim = qhasm_prim_name(p);
        int count = qhasm_impl_count(prim), j;
        if (prim_any && !prim_on[p]) continue;
        qhasm_impl_force(prim, -1);
        if (!table_mode) {
            char lab[16];
            print_impl_line(prim, "selected", qhasm_impl_name(prim, qhasm_impl_selected(prim)));
            for (j = 0; j < count; j++) {
                snprintf(lab, sizeof lab, "%d", j);
                print_impl_line(prim, lab, qhasm_impl_name(prim, j));
            }
        }
        for (j = 0; j < NOPS; j++) {
            if (ops[j].prim != p || (op_any && !op_on[j])) continue;
            if (table_mode && ops[j].kind == K_CORE) continue;
            run_op(j, t);
        }
    }
    if (table_mode) print_tables(why_emulated);
    fflush(stdout);
    if (plot_file && plot(plot_file, why_emulated)) return 1;
    return 0;
}
