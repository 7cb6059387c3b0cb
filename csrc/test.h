/* test.h: what qhasm-test's driver (csrc/test.c) shares with the checks of
 * each family (csrc/test_<family>.c).  A family defines
 * `const qhasm_test_family qhasm_test_<family>`; the table of which
 * primitive uses which family is generated from specs/kernels.conf
 * (gen/manifest.py hooks test).  The driver knows no primitive. */
#ifndef QHASM_TEST_H
#define QHASM_TEST_H

#include <stddef.h>
#include <stdint.h>
#include "qhasm.h"
#include "impl.h"
#include "ref/ref.h"
#include "abicheck.h"

/* valgrind's client requests for --valgrind-ct (compiled out without the
 * header: the mode then reports itself unavailable) */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define QHASM_HAVE_MEMCHECK 1
#endif
#endif
#ifdef QHASM_HAVE_MEMCHECK
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define CT_ERRORS() ((unsigned long)VALGRIND_COUNT_ERRORS)
#define CT_ON_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#else
#define SECRET(p, n) ((void)(p), (void)(n))
#define PUBLIC(p, n) ((void)(p), (void)(n))
#define CT_ERRORS() 0UL
#define CT_ON_VALGRIND() 0
#endif

/* one family's checks of implementation i of primitive p (already forced),
 * each run in the child process; 0 ok, else 1 after fail() */
typedef struct {
    int (*check)(int p, int i);   /* functional: vectors, reference, buffers */
    int (*abi)(int p, int i);     /* kernels and public functions through the ABI checker */
    int (*ct)(int p, int i);      /* --valgrind-ct: secrets marked undefined */
    const char *secrets;          /* what --valgrind-ct marks secret, for the log */
} qhasm_test_family;
extern const qhasm_test_family *const qhasm_test_families[];   /* indexed by primitive */
/* a primitive's own checks (the manifest's `check FILE:FUNCTION`), run after
 * its family's functional checks; NULL if none */
extern int (*const qhasm_test_extra[])(int p, int i);

#define GUARD 32                     /* canary bytes before and after every buffer */
#define MAXRANDLEN 70000

/* deterministic PRNG (splitmix64), seeded per (primitive, implementation) */
uint64_t rnd(void);
void rnd_bytes(unsigned char *p, size_t n);
size_t rnd_below(size_t n);

/* state shared with the parent (survives a crash of the child) */
struct qhasm_test_shared { char stage[256]; char fail[1024]; unsigned long abicalls, ctcalls; };
extern struct qhasm_test_shared *sh;
void stage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *what);

/* guarded buffers: GUARD random canary bytes on both sides */
typedef struct {
    unsigned char *base, *p;
    size_t len;
    unsigned char before[GUARD], after[GUARD];
} gbuf;
unsigned char *galloc(gbuf *g, size_t len, unsigned align);   /* at 64-byte boundary + align */
unsigned char *galloc_fill(gbuf *g, size_t len, unsigned align, unsigned char byte); /* filled with byte */
int gcheck(const gbuf *g);                                    /* 0 if both canaries are intact */
void gfree(gbuf *g);
long diffat(const unsigned char *a, const unsigned char *b, size_t n);   /* -1 if equal */
void hex(unsigned char *out, const char *h);
void sha256_hash(unsigned char out[32], const unsigned char *m, size_t n);

/* lengths every family's alignment sweep uses */
extern const size_t align_lengths[];
#define NALIGNLEN 27

/* ABI checks: one call through the trampoline (csrc/abicheck.c); sig: one
 * letter per argument, 'w' word, 'q' 64-bit */
#define U(x) ((uint64_t)(uintptr_t)(x))
#define FN(x) ((void (*)(void))(x))
int abicall(const char *what, void (*fn)(void), const char *sig, unsigned flags, uint64_t a0, uint64_t a1,
            uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t *ret);
unsigned kernel_abi_flags(const char *impl);
extern const unsigned long long abi_nblocks[];
#define NABI 12

/* --valgrind-ct */
extern const size_t ct_lens[];
#define NCT 17
int ct_verdict(unsigned long before, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
