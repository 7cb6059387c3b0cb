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
#include "speed.h"

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
/* ---- the operations measured: each primitive's family's (csrc/speed_*.c) -- */
typedef struct {
    char name[80];          /* "stream_salsa20_xor" */
    int prim;
    const qhasm_speed_op *f;
} op;
static op *ops;
static int NOPS;

static void make_ops(void)
{
    int p, j;
    for (p = 0; p < qhasm_nprims; p++) NOPS += qhasm_speed_families[p]->nops;
    ops = calloc((size_t)NOPS + 1, sizeof *ops);
    if (!ops) { perror("qhasm-speed"); exit(111); }
    NOPS = 0;
    for (p = 0; p < qhasm_nprims; p++)
        for (j = 0; j < qhasm_speed_families[p]->nops; j++) {
            op *o = &ops[NOPS++];
            o->prim = p;
            o->f = &qhasm_speed_families[p]->ops[j];
            snprintf(o->name, sizeof o->name, o->f->name, qhasm_prims[p].name);
        }
}

/* ---- options and state ----------------------------------------------------- */
static int ntimings = DEFAULT_TIMINGS;
static long long maxlen = DEFAULT_MAXLEN;
static int table_mode;
static const char *plot_file;
static int prim_on[QHASM_MAXPRIMS], prim_any;
static int *op_on, op_any;
static const char *impl_sel[64];
static int nimpl_sel;

static qhasm_speed_bufs B;

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
/* each call selects as the public functions do (forced, or by CPU and length) */
static void call(const op *o, long long len)
{
    o->f->call(o->prim, qhasm_select(o->prim, (unsigned long long)len), len, &B);
}

static void measure(const op *o, long long len, long long *t)
{
    int i;
    if (o->f->prepare) o->f->prepare(o->prim, qhasm_select(o->prim, (unsigned long long)len), len, &B);
    /* warm-up: two calls, then more for at least 200000 counter units
     * (caches, branch predictors, the core's clock ramp: with two calls a
     * 12000-tick kernel measured 1.2 times its steady figure) */
    long long start = cpucycles();
    for (i = 0; i < 2 || (cpucycles() - start < 200000 && i < 1000); i++)
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
    const unsigned long *sp = qhasm_prims[o->prim].speed;
    if (o->f->bytes) { lens[0] = o->f->bytes(o->prim); return 1; }
    if (o->f->fixed > 0) { lens[0] = o->f->fixed; return 1; }
    if (o->f->fixed < 0) {      /* the size of the first output argument */
        const qhasm_arg *a = qhasm_prims[o->prim].args;
        while (a->kind == QHASM_ARG_IN) a++;
        lens[0] = a->kind ? (long long)a->bytes : 0;
        return 1;
    }
    if (table_mode) {
        for (n = 0; sp[n] && (long long)sp[n] <= maxlen && n < 64; n++) lens[n] = (long long)sp[n];
        return n;
    }
    for (l = 0; l <= maxlen; l = l + 1 + l / 2) lens[n++] = l;
    return n;
}

/* Core cycles per tick of the counter: a chain of 2000 dependent adds of
 * a register (one core cycle each on every x86 core) timed like a kernel
 * (the IQM of ntimings counts).  The counter (TSC) ticks at a fixed rate
 * while the core clock varies, so the bound check converts ticks to cycles
 * with this.  Not `add $1`: Golden Cove folds small immediate adds at
 * rename and runs such a chain at more than one add per cycle (measured:
 * 2.6 "cycles" per tick against 1.15). */
static double cycles_per_tick(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    long long t[MAX_TIMINGS + 1], q1, iqm, q3;
    int i;
    for (i = 0; i <= ntimings; i++) {
        long x = i, one = 1;
        t[i] = cpucycles();
        __asm__ volatile(".rept 2000\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
    }
    for (i = 0; i < ntimings; i++) t[i] = t[i + 1] - t[i];
    stats(t, ntimings, &q1, &iqm, &q3);
    return iqm > 0 ? 2000.0 / (double)iqm : 0;
#else
    return 0;
#endif
}

/* decimals that print x with at least 4 significant digits (3 at least):
 * a fixed-size kernel's bound per byte can be 0.012, and 3 decimals would
 * make the printed ratio disagree with the printed figures by 8% */
static int decimals(double x)
{
    int d = 3;
    for (double v = 1000; x > 0 && x * v < 1000 && d < 9; v *= 10)
        d++;
    return d;
}

/* the cost report's bound for an implementation on the running CPU's
 * model, beside the measured figure at the longest length */
static void print_bound(const op *o, const char *label, const char *impl, long long len, long long iqm)
{
    const char *prim = qhasm_prim_name(o->prim), *model = qhasm_cpu_uarch();
    if (table_mode || len <= 0 || !*model)
        return;
    for (const struct qhasm_speedbound *b = qhasm_speedbounds; b->prim; b++)
        if (!strcmp(b->prim, prim) && !strcmp(b->impl, impl) && !strcmp(b->model, model)
            && (o->f->column || b->cpb <= 0)) {   /* per byte: the tables' operations; per call: the one call */
            double measured = (double)iqm / (double)len, cpt = cycles_per_tick();
            /* a fixed-size kernel's bound is per call */
            double cpb = b->cpb > 0 ? b->cpb : b->call / (double)len;
            printf("%s %s bound %s %.*f cycles/byte (cost report: %s binds", o->name, label, model, decimals(cpb), cpb,
                   b->binds);
            if (b->cpb <= 0)
                printf("; %.*f cycles per call", b->call < 100 ? 1 : 0, b->call); /* 8.7, not 9: the check divides it by the bytes */
            printf(") measured %.*f ticks/byte at %lld bytes", decimals(measured), measured, len);
            if (cpt > 0)
                printf(" = %.*f cycles/byte (%.3f cycles per tick) ratio %.2f\n", decimals(measured * cpt),
                       measured * cpt, cpt, measured * cpt / cpb);
            else
                printf(" ratio %.2f (ticks per cycle unknown)\n", measured / cpb);
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
    snprintf(prefix, sizeof prefix, "%s selected", o->name);
    for (k = 0; k < nl; k++) {
        name = qhasm_impl_name(prim, qhasm_impl_selected_len(prim, (unsigned long long)lens[k]));
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
        if (qhasm_impl_alias(prim, i)) {
            if (!table_mode) printf("%s %d skipped alias of %s (identical code)\n", o->name, i, qhasm_impl_alias(prim, i));
            continue;
        }
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
    /* an alias variant's code is its base implementation's */
    const char *alias = qhasm_impl_alias(prim, qhasm_impl_find(prim, name));
    const struct qhasm_codesize *s = codesize(prim, alias ? alias : name);
    if (s)
        printf("%s %s implementation %s bytes %ld compiler %s\n", prim, label, name, s->bytes, s->compiler);
    else
        printf("%s %s implementation %s bytes unknown\n", prim, label, name);
}

/* the "selected implementation" line; with length-aware selection one line
 * per length range: `salsa20 selected implementation amd64 lengths 0-191 bytes ...` */
static void print_selected(int p)
{
    const char *prim = qhasm_prim_name(p);
    unsigned long long from[16];
    int impl[16], n = qhasm_select_segments(p, from, impl, 16), k;
    char label[96];
    if (n == 1) { print_impl_line(prim, "selected", qhasm_impl_name(prim, impl[0])); return; }
    for (k = 0; k < n; k++) {
        if (k + 1 < n) snprintf(label, sizeof label, "selected lengths %llu-%llu", from[k], from[k + 1] - 1);
        else snprintf(label, sizeof label, "selected lengths %llu-", from[k]);
        print_impl_line(prim, label, qhasm_impl_name(prim, impl[k]));
    }
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
    printf("TSC ticks (or the counter's unit) per byte: q1, interquartile mean, q3 of %d timings, on `%s`, "
           "counter `%s` (%lld per second).\n\n", ntimings, model, cpucycles_implementation(),
           cpucycles_persecond());
    if (why_emulated) printf("**Emulated (%s): these figures are not speeds.**\n\n", why_emulated);
    for (p = 0; p < qhasm_nprims; p++) {
        const char *prim = qhasm_prim_name(p);
        const unsigned long *sp = qhasm_prims[p].speed;
        int opa = -1, opb = -1, count = qhasm_impl_count(prim);
        if (prim_any && !prim_on[p]) continue;
        for (i = 0; i < NOPS; i++)
            if (ops[i].prim == p && ops[i].f->column && (!op_any || op_on[i])) {
                if (opa < 0) opa = i; else if (opb < 0) opb = i;
            }
        if (opa < 0 || !sp[0]) continue;
        qhasm_impl_force(prim, -1);
        for (i = 0; i < count; i++) {
            const char *name = qhasm_impl_name(prim, i);
            const char *ca = ops[opa].f->column, *cb = opb < 0 ? NULL : ops[opb].f->column;
            long long l0 = (long long)sp[0];
            if (!find_result(opa, name, 0, l0) && !(opb >= 0 && find_result(opb, name, 0, l0)))
                continue;
            printf("## %s %s%s\n\n", prim, name, i == qhasm_impl_selected_len(prim, ~0ULL) ? " (selected)" : "");
            printf("| bytes | %s q1 | %s IQM | %s q3 |", ca, ca, ca);
            if (cb) printf(" %s q1 | %s IQM | %s q3 |", cb, cb, cb);
            printf("\n|---:|---:|---:|---:|%s\n", cb ? "---:|---:|---:|" : "");
            for (k = 0; sp[k]; k++) {
                const result *ra = find_result(opa, name, 0, (long long)sp[k]);
                const result *rb = opb >= 0 ? find_result(opb, name, 0, (long long)sp[k]) : NULL;
                if (!ra && !rb) continue;
                printf("| %lu |", sp[k]);
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
        if (r->selected || ops[r->op].f->fixed != 0 || r->len == 0) continue;
        fprintf(f, "%s\t%s\t%d\t%lld\t%lld\t%lld\t%lld\n", ops[r->op].name, r->impl,
                qhasm_impl_find(qhasm_prim_name(r->prim), r->impl) ==
                    qhasm_impl_selected_len(qhasm_prim_name(r->prim), (unsigned long long)r->len),
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
        "  -p prim     only this primitive (qhasm-test -l lists them) or operation\n"
        "              (stream_salsa20_xor, onetimeauth_poly1305_verify, ...); repeatable\n"
        "  -i impl     only this implementation (ref, c, amd64-avx2, ...) besides 'selected'; repeatable\n"
        "  -n timings  timings per measurement (default %d; IQM of the middle half)\n"
        "  -m maxlen   longest message (default %d); lengths 0,1,2,4,7,11,... (n+1+n/2)\n"
        "  --table     print only Markdown tables of ticks/byte at each primitive's speed lengths\n"
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

    make_ops();
    op_on = calloc((size_t)NOPS + 1, sizeof *op_on);
    if (!op_on) { perror("qhasm-speed"); return 111; }

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
        for (p = 0; p < qhasm_nprims; p++)
            if (qhasm_impl_find(qhasm_prim_name(p), impl_sel[i]) >= 0) found = 1;
        if (!found) { fprintf(stderr, "qhasm-speed: no implementation named %s\n", impl_sel[i]); return 2; }
    }

    t = malloc((size_t)(ntimings + 1) * sizeof *t);
    B.m = malloc((size_t)maxlen + 64);
    B.c = malloc((size_t)maxlen + 64);
    if (!t || !B.m || !B.c) { perror("qhasm-speed"); return 111; }
    fill(B.m, (size_t)maxlen + 64);
    fill(B.c, (size_t)maxlen + 64);
    fill(B.key, sizeof B.key);
    fill(B.nonce, sizeof B.nonce);
    fill(B.in, sizeof B.in);

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
        while (cpucycles() < end) fill(B.out, sizeof B.out);
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
                   "beside the measurement, in ticks and in core cycles (ticks times the core cycles per tick of a "
                   "chain of dependent adds measured just before); their ratio must be at least 1\n", qhasm_cpu_uarch());
        else
            printf("qhasm-speed bounds none: no microarchitecture model for this CPU (set QHASM_UARCH=model)\n");
    }

    for (p = 0; p < qhasm_nprims; p++) {
        const char *prim = qhasm_prim_name(p);
        int count = qhasm_impl_count(prim), j;
        if (prim_any && !prim_on[p]) continue;
        qhasm_impl_force(prim, -1);
        if (!table_mode) {
            char lab[16];
            print_selected(p);
            if (qhasm_speed_families[p]->describe) qhasm_speed_families[p]->describe(p);
            for (j = 0; j < count; j++) {
                snprintf(lab, sizeof lab, "%d", j);
                print_impl_line(prim, lab, qhasm_impl_name(prim, j));
            }
        }
        for (j = 0; j < NOPS; j++) {
            if (ops[j].prim != p || (op_any && !op_on[j])) continue;
            if (table_mode && !ops[j].f->column) continue;
            if (ops[j].f->slow && !op_on[j]) continue;
            run_op(j, t);
        }
    }
    if (table_mode) print_tables(why_emulated);
    fflush(stdout);
    if (plot_file && plot(plot_file, why_emulated)) return 1;
    return 0;
}
