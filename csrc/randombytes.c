/* The random bytes of the KEMs (docs/kem.md): getrandom(2) by default, or a
 * function the caller installs with qhasm_randombytes_set() (a
 * deterministic generator such as NIST's AES-256 CTR DRBG reproduces the
 * known-answer tests of the submissions).
 *
 * Call pattern: the KEMs draw their random bytes in the order and the
 * amounts of the specifications' reference implementations.  Some of those
 * draw many small pieces (sntrup761: one 4-byte call per coefficient); under
 * a replaced source every piece is one call, as there, because a
 * deterministic generator's output depends on how it is asked; under the
 * default source the pieces are read in one call (getrandom's output does
 * not depend on how it is split, and one system call per 4 bytes would
 * dominate key generation).  A source installed with
 * qhasm_randombytes_set_stream() declares itself split-independent too and
 * gets the pieces in one call. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "kem_impl.h"

#if defined(__has_include)
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define QHASM_HAVE_GETRANDOM 1
#endif
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define QHASM_HAVE_MEMCHECK 1
#endif
#endif

static void (*source)(unsigned char *x, unsigned long long xlen);
static int source_stream;   /* its output does not depend on the split */

void qhasm_randombytes_set(void (*fn)(unsigned char *x, unsigned long long xlen))
{
    source = fn;
    source_stream = 0;
}

void qhasm_randombytes_set_stream(void (*fn)(unsigned char *x, unsigned long long xlen))
{
    source = fn;
    source_stream = 1;
}

int qhasm_randombytes_replaced(void)
{
    return source != NULL;
}

/* getrandom(2), retried on EINTR and short reads; a failure other than
 * EINTR (no entropy source at all) aborts: a KEM must never run on
 * predictable bytes */
static void getrandom_all(unsigned char *x, unsigned long long xlen)
{
    while (xlen > 0) {
        size_t n = xlen > 33554431 ? 33554431 : (size_t)xlen;   /* getrandom's per-call limit */
        long r;
#ifdef QHASM_HAVE_GETRANDOM
        r = (long)getrandom(x, n, 0);
#else
        r = syscall(SYS_getrandom, x, n, 0);
#endif
        if (r < 0) {
            if (errno == EINTR) continue;
            abort();
        }
        x += r;
        xlen -= (unsigned long long)r;
    }
}

void qhasm_randombytes(unsigned char *x, unsigned long long xlen)
{
    if (source) source(x, xlen);
    else getrandom_all(x, xlen);
}

void qhasm_randombytes_pieces(unsigned char *x, unsigned long long n, unsigned long long piece)
{
    unsigned long long i;
    if (!source) { getrandom_all(x, n * piece); return; }
    if (source_stream) { source(x, n * piece); return; }
    for (i = 0; i < n; i++) source(x + i * piece, piece);
}

/* valgrind's client request is a no-op sequence of instructions when the
 * program does not run under valgrind */
void qhasm_declassify(const void *p, unsigned long long n)
{
#ifdef QHASM_HAVE_MEMCHECK
    VALGRIND_MAKE_MEM_DEFINED(p, n);
#else
    (void)p; (void)n;
#endif
}
