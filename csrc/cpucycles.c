/* cpucycles.c: chooses and reads the best cycle counter; see cpucycles.h. */
#define _DEFAULT_SOURCE
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>
#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#endif
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>
#endif
#include "cpucycles.h"

typedef long long read_fn(void);

typedef struct {
    const char *name;
    const char *(*setup)(void);    /* NULL or the reason it is unavailable; no counter reads */
    read_fn *read;
    long long (*rate)(void);       /* known counts per second, or 0 to measure */
    int risky;                     /* may fault: probe in a child first */
} counter;

static char why_buf[160];

static const char *why_errno(const char *what)
{
    snprintf(why_buf, sizeof why_buf, "%s: %s", what, strerror(errno));
    return why_buf;
}

/* ---- default-monotonic --------------------------------------------------- */
static long long monotonic_read(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
static const char *monotonic_setup(void)
{
    struct timespec ts;
    return clock_gettime(CLOCK_MONOTONIC, &ts) ? why_errno("clock_gettime") : NULL;
}
static long long monotonic_rate(void) { return 1000000000LL; }

/* ---- test counters (only when named in QHASM_CPUCYCLES) ------------------ */
static uint64_t broken_state = 0x123456789abcdefULL;
static long long broken_read(void)
{
    broken_state = broken_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (long long)(broken_state >> 20);
}
static long long stuck_read(void) { return 42; }
static const char *none_setup(void) { return NULL; }
static const char *absent_setup(void) { errno = ENODEV; return why_errno("test counter"); }

/* ---- perf events (Linux) ------------------------------------------------- */
#ifdef __linux__
static int perf_fd = -1;

static int perf_open(void)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

static const char *perfevent_setup(void)
{
    if (perf_fd >= 0) close(perf_fd);
    perf_fd = perf_open();
    return perf_fd < 0 ? why_errno("perf_event_open") : NULL;
}
static long long perfevent_read(void)
{
    long long v = 0;
    if (read(perf_fd, &v, sizeof v) != (ssize_t)sizeof v) return 0;
    return v;
}
#define HAVE_PERFEVENT 1
#endif

/* ---- amd64 / x86 ---------------------------------------------------------- */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
static int x86_sse2;

static const char *tsc_setup(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return "no cpuid";
    if (!(d & (1u << 4))) return "cpuid: no time-stamp counter";
    x86_sse2 = (d >> 26) & 1;
    return NULL;
}
static long long tsc_read(void)
{
    uint32_t lo, hi;
#if defined(__x86_64__)
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
#else
    if (x86_sse2) __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
    else __asm__ volatile("xor %%eax,%%eax\n\tcpuid\n\trdtsc" : "=a"(lo), "=d"(hi) :: "ebx", "ecx", "memory");
#endif
    return (long long)(((uint64_t)hi << 32) | lo);
}
#define HAVE_TSC 1

#if defined(__x86_64__) && defined(__linux__)
static volatile struct perf_event_mmap_page *pmc_page;

static const char *pmc_setup(void)
{
    void *p;
    const char *w = perfevent_setup();
    if (w) return w;
    p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, perf_fd, 0);
    if (p == MAP_FAILED) return why_errno("mmap of the perf page");
    pmc_page = p;
    if (!pmc_page->cap_user_rdpmc) return "kernel does not allow user rdpmc";
    if (!pmc_page->index) return "counter not scheduled (index 0)";
    return NULL;
}
static long long pmc_read(void)
{
    uint32_t seq, idx, lo, hi;
    uint64_t count;
    int64_t pmc;
    unsigned width;
    do {
        seq = pmc_page->lock;
        __asm__ volatile("" ::: "memory");
        idx = pmc_page->index;
        count = (uint64_t)pmc_page->offset;
        if (idx) {
            width = pmc_page->pmc_width;
            __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx - 1));
            pmc = (int64_t)(((uint64_t)hi << 32) | lo);
            if (width > 0 && width < 64) {
                pmc = (int64_t)((uint64_t)pmc << (64 - width));
                pmc >>= 64 - width;
            }
            count += (uint64_t)pmc;
        }
        __asm__ volatile("" ::: "memory");
    } while (pmc_page->lock != seq);
    return (long long)count;
}
#define HAVE_PMC 1
#endif
#endif

/* ---- PowerPC time base ---------------------------------------------------- */
#if (defined(__powerpc__) || defined(__powerpc64__) || defined(__PPC__)) && defined(__GNUC__)
static long long mftb_read(void)
{
#if defined(__powerpc64__) || defined(__PPC64__)
    uint64_t t;
    __asm__ volatile("mftb %0" : "=r"(t));
    return (long long)t;
#else
    uint32_t hi, lo, hi2;
    do {
        __asm__ volatile("mftbu %0" : "=r"(hi));
        __asm__ volatile("mftb %0" : "=r"(lo));
        __asm__ volatile("mftbu %0" : "=r"(hi2));
    } while (hi != hi2);
    return (long long)(((uint64_t)hi << 32) | lo);
#endif
}
/* the time base frequency, from /proc/cpuinfo ("timebase : 512000000") */
static long long mftb_rate(void)
{
    char line[256];
    long long r = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "timebase", 8)) {
            char *colon = strchr(line, ':');
            if (colon) r = atoll(colon + 1);
            break;
        }
    fclose(f);
    return r;
}
#define HAVE_MFTB 1
#endif

/* ---- SPARC %tick ---------------------------------------------------------- */
#if defined(__sparc__) && defined(__GNUC__)
static long long tick_read(void)
{
#if defined(__arch64__)
    uint64_t t;
    __asm__ volatile("rd %%tick, %0" : "=r"(t));
    return (long long)t;
#else
    uint32_t hi, lo;   /* v8plus: split the 64-bit register in one asm block */
    __asm__ volatile("rd %%tick, %%g1\n\tsrlx %%g1, 32, %0\n\tsrl %%g1, 0, %1"
                     : "=r"(hi), "=r"(lo) :: "g1");
    return (long long)(((uint64_t)hi << 32) | lo);
#endif
}
#define HAVE_TICK 1
#endif

/* ---- ARMv8 virtual counter ------------------------------------------------ */
#if defined(__aarch64__) && defined(__GNUC__)
static long long vct_read(void)
{
    uint64_t t;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(t) :: "memory");
    return (long long)t;
}
static long long vct_rate(void)
{
    uint64_t f;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
    return (long long)f;
}
#define HAVE_VCT 1
#endif

/* ---- the candidates, best first ------------------------------------------- */
static const counter counters[] = {
#ifdef HAVE_PMC
    { "amd64-pmc", pmc_setup, pmc_read, 0, 1 },
#endif
#ifdef HAVE_TSC
#if defined(__x86_64__)
    { "amd64-tsc", tsc_setup, tsc_read, 0, 1 },
#else
    { "x86-tsc", tsc_setup, tsc_read, 0, 1 },
#endif
#endif
#ifdef HAVE_MFTB
#if defined(__powerpc64__) || defined(__PPC64__)
    { "ppc64-mftb", none_setup, mftb_read, mftb_rate, 1 },
#else
    { "ppc32-mftb", none_setup, mftb_read, mftb_rate, 1 },
#endif
#endif
#ifdef HAVE_TICK
#if defined(__arch64__)
    { "sparc64-tick", none_setup, tick_read, 0, 1 },
#else
    { "sparc32-tick", none_setup, tick_read, 0, 1 },
#endif
#endif
#ifdef HAVE_PERFEVENT
    { "default-perfevent", perfevent_setup, perfevent_read, 0, 0 },
#endif
#ifdef HAVE_VCT
    { "arm64-vct", none_setup, vct_read, vct_rate, 1 },
#endif
    { "default-monotonic", monotonic_setup, monotonic_read, monotonic_rate, 0 },
};
static const counter test_counters[] = {
    { "test-broken", none_setup, broken_read, 0, 0 },   /* runs backwards */
    { "test-stuck", none_setup, stuck_read, 0, 0 },     /* never advances */
    { "test-absent", absent_setup, stuck_read, 0, 0 },  /* unavailable */
};
#define NCOUNTERS (sizeof counters / sizeof *counters)
#define NTEST (sizeof test_counters / sizeof *test_counters)

static const counter *chosen;
static long long first_read(void);
static read_fn *reader = first_read;
static long long persecond;

/* run setup and three reads in a child; NULL if it exited normally */
static const char *probe_child(const counter *c)
{
    pid_t pid;
    int status;
    fflush(NULL);
    pid = fork();
    if (pid < 0) return why_errno("cannot probe safely (fork)");
    if (pid == 0) {
        volatile long long sink = 0;
        signal(SIGILL, SIG_DFL);
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        if (c->setup()) _exit(3);
        sink += c->read();
        sink += c->read();
        sink += c->read();
        (void)sink;
        _exit(0);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return why_errno("waitpid");
    if (WIFSIGNALED(status)) {
        snprintf(why_buf, sizeof why_buf, "faulted in a probe (signal %d, %s)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
        return why_buf;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "unavailable in a probe";
    return NULL;
}

/* counts per second over about ms milliseconds of busy waiting */
static long long measure_rate(read_fn *rd, int ms)
{
    long long t0 = monotonic_read(), c0 = rd(), t1, c1;
    do t1 = monotonic_read(); while (t1 - t0 < ms * 1000000LL);
    c1 = rd();
    t1 = monotonic_read();
    if (c1 <= c0 || t1 <= t0) return 0;
    return (long long)((double)(c1 - c0) * 1e9 / (double)(t1 - t0));
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* sanity checks on a working counter; sets *rate */
static const char *check(const counter *c, long long *rate)
{
    long long v[64], r[3];
    int i;
    for (i = 0; i < 64; i++) v[i] = c->read();
    for (i = 1; i < 64; i++)
        if (v[i] < v[i - 1]) return "runs backwards between consecutive reads";
    for (i = 0; i < 3; i++) r[i] = measure_rate(c->read, 10);
    qsort(r, 3, sizeof *r, cmp_ll);
    if (r[1] <= 0) return "does not advance over 10 ms";
    *rate = c->rate ? c->rate() : 0;
    if (*rate <= 0) *rate = r[1];
    if (*rate < 100000LL || *rate > 1000000000000LL) {
        snprintf(why_buf, sizeof why_buf, "implausible rate %lld per second", *rate);
        return why_buf;
    }
    return NULL;
}

static const char *try_counter(const counter *c, long long *rate)
{
    const char *w = c->setup();
    if (w) return w;
    if (c->risky && (w = probe_child(c))) return w;
    return check(c, rate);
}

static const counter *find(const char *name, size_t n)
{
    size_t i;
    for (i = 0; i < NCOUNTERS; i++)
        if (strlen(counters[i].name) == n && !strncmp(counters[i].name, name, n)) return &counters[i];
    for (i = 0; i < NTEST; i++)
        if (strlen(test_counters[i].name) == n && !strncmp(test_counters[i].name, name, n))
            return &test_counters[i];
    return NULL;
}

int cpucycles_init(void (*note)(const char *name, const char *why))
{
    const counter *list[NCOUNTERS + NTEST + 16];
    size_t n = 0, i;
    const char *env = getenv("QHASM_CPUCYCLES");
    if (chosen) return 0;
    if (env && *env) {
        while (*env && n < sizeof list / sizeof *list - 1) {
            size_t len = strcspn(env, ", ");
            if (len) {
                const counter *c = find(env, len);
                if (c) list[n++] = c;
                else if (note) {
                    char nm[64];
                    snprintf(nm, sizeof nm, "%.*s", (int)len, env);
                    note(nm, "no such counter here (QHASM_CPUCYCLES)");
                }
            }
            env += len;
            while (*env == ',' || *env == ' ') env++;
        }
    } else {
        for (i = 0; i < NCOUNTERS; i++) list[n++] = &counters[i];
    }
    for (i = 0; i < n; i++) {
        long long rate = 0;
        const char *w = try_counter(list[i], &rate);
        if (!w) {
            chosen = list[i];
            persecond = rate;
            break;
        }
        if (note) note(list[i]->name, w);
    }
    if (!chosen) {      /* the last resort */
        chosen = &counters[NCOUNTERS - 1];
        persecond = monotonic_rate();
    }
    reader = chosen->read;
    env = getenv("QHASM_CPUCYCLES_PERSECOND");
    if (env && atoll(env) > 0) persecond = atoll(env);
    return 0;
}

static long long first_read(void)
{
    cpucycles_init(NULL);
    return reader();
}

long long cpucycles(void)
{
    return reader();
}

const char *cpucycles_implementation(void)
{
    if (!chosen) cpucycles_init(NULL);
    return chosen->name;
}

long long cpucycles_persecond(void)
{
    if (!chosen) cpucycles_init(NULL);
    return persecond;
}
