/* tests/ct/leaky.c: deliberately leaky "kernels" for the constant-time
 * check's self-test (tests/sh/ct.sh).  Marks the key secret the way
 * `qhasm-test --valgrind-ct` does (VALGRIND_MAKE_MEM_UNDEFINED), runs one
 * kernel, marks the output public again and exits 0; run under
 *   valgrind --error-exitcode=1 leaky KERNEL
 * the leaky kernels must make valgrind fail and the clean one must not.
 *   branch  compares two halves of the key with an early exit (branch)
 *   index   loads from a table at an address depending on a key byte
 *   clean   the comparison in constant time (must pass) */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

static const unsigned char sbox[256] = { 1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31 };

/* a tag comparison that stops at the first difference (what a
 * non-constant-time verify does): the loop exit branches on the key */
__attribute__((noinline)) static void leaky_branch(unsigned char out[16], const unsigned char k[32])
{
    int i;
    for (i = 0; i < 16; i++)
        if (k[i] != k[i + 16]) break;     /* secret-dependent branch */
    memset(out, 0, 16);
    out[0] = (unsigned char)(i == 16);
}

__attribute__((noinline)) static void leaky_index(unsigned char out[16], const unsigned char k[32])
{
    int i;
    for (i = 0; i < 16; i++) out[i] = (unsigned char)(sbox[k[i]] ^ k[i + 16]);   /* secret address */
}

/* the constant-time comparison: OR of the differences, no early exit */
__attribute__((noinline)) static void clean(unsigned char out[16], const unsigned char k[32])
{
    unsigned d = 0;
    int i;
    for (i = 0; i < 16; i++) d |= (unsigned)(k[i] ^ k[i + 16]);
    memset(out, 0, 16);
    out[0] = (unsigned char)(1 & ((d - 1) >> 8));
}

int main(int argc, char **argv)
{
    unsigned char k[32], out[16];
    void (*f)(unsigned char *, const unsigned char *) = NULL;
    int i;
    if (argc == 2 && !strcmp(argv[1], "branch")) f = leaky_branch;
    if (argc == 2 && !strcmp(argv[1], "index")) f = leaky_index;
    if (argc == 2 && !strcmp(argv[1], "clean")) f = clean;
    if (!f) { fprintf(stderr, "usage: leaky branch|index|clean\n"); return 2; }
    for (i = 0; i < 32; i++) k[i] = (unsigned char)(i * 37 + 11);
    VALGRIND_MAKE_MEM_UNDEFINED(k, sizeof k);     /* the key is secret */
    f(out, k);
    VALGRIND_MAKE_MEM_DEFINED(out, sizeof out);   /* the output is public */
    for (i = 0; i < 16; i++) printf("%02x", out[i]);
    printf("\n");
    return 0;
}
