/* NOT part of the build or the tests (tests/kat/supercop-kat.sh compiles it
 * outside the repository): SUPERCOP's crypto_kem/sntrup761/ref
 * (from a copy of peers-wave2) with NIST's DRBG as randombytes, printing the
 * PQCgenKAT_kem .rsp text of the first N entries */
#include <stdio.h>
#include <stdlib.h>
#include "nist_drbg.c"   /* this directory: tests/kat/ */
int crypto_kem_sntrup761_ref_keypair(unsigned char *, unsigned char *);
int crypto_kem_sntrup761_ref_enc(unsigned char *, unsigned char *, const unsigned char *);
int crypto_kem_sntrup761_ref_dec(unsigned char *, const unsigned char *, const unsigned char *);
static nist_drbg d;
unsigned long long randombytes_calls, randombytes_bytes;
void randombytes(unsigned char *x, unsigned long long n) { randombytes_calls++; randombytes_bytes += n; nist_drbg_generate(&d, x, n); }
static void pr(const char *l, const unsigned char *b, int n) { printf("%s", l); for (int i = 0; i < n; i++) printf("%02X", b[i]); printf("\n"); }
int main(int argc, char **argv)
{
    int N = argc > 1 ? atoi(argv[1]) : 10, i;
    unsigned char e[48], seed[100][48], pk[1158], sk[1763], ct[1039], ss[32], ss2[32];
    for (i = 0; i < 48; i++) e[i] = (unsigned char)i;
    nist_drbg_init(&d, e, NULL);
    for (i = 0; i < N; i++) nist_drbg_generate(&d, seed[i], 48);
    printf("# sntrup761\n\n");
    for (i = 0; i < N; i++) {
        nist_drbg_init(&d, seed[i], NULL);
        randombytes_calls = randombytes_bytes = 0;
        crypto_kem_sntrup761_ref_keypair(pk, sk);
        crypto_kem_sntrup761_ref_enc(ct, ss, pk);
        crypto_kem_sntrup761_ref_dec(ss2, ct, sk);
        if (memcmp(ss, ss2, 32)) { fprintf(stderr, "dec mismatch\n"); return 1; }
        fprintf(stderr, "entry %d: %llu randombytes calls, %llu bytes\n", i, randombytes_calls, randombytes_bytes);
        printf("count = %d\n", i); pr("seed = ", seed[i], 48); pr("pk = ", pk, 1158); pr("sk = ", sk, 1763);
        pr("ct = ", ct, 1039); pr("ss = ", ss, 32); printf("\n");
    }
    return 0;
}
