/* Not a test: the driver of tests/bench/mceliece-qemu-count.sh (docs/mceliece.md, "Speed",
 * session 5).  main WHICH N: N calls of 1 the kernel, 2 the reference C (csrc/ref),
 * 3 a bitsliced C (schoolbook over the words, then the fold by the modulus, written
 * here from the definition); WHICH 9: exit 0 when the three agree.  -DM=12|13 -DKERNEL=symbol. */
#include <stdint.h>
#include <stdlib.h>
void qhasm_ref_mceliece_vec_mul(int m, int lanes, uint64_t *h, const uint64_t *f, const uint64_t *g);
void KERNEL(uint64_t *, const uint64_t *, const uint64_t *);
static void vecc(uint64_t *h, const uint64_t *f, const uint64_t *g, int m)
{   /* portable bitsliced schoolbook (as a "vec C" baseline, written here from the definition) */
    uint64_t buf[2 * 13 - 1] = {0};
    int i, j;
    for (i = 0; i < m; i++) for (j = 0; j < m; j++) buf[i + j] ^= f[i] & g[j];
    for (i = 2 * m - 2; i >= m; i--) {
        if (m == 12) { buf[i - 12] ^= buf[i]; buf[i - 9] ^= buf[i]; }
        else { buf[i - 13] ^= buf[i]; buf[i - 12] ^= buf[i]; buf[i - 10] ^= buf[i]; buf[i - 9] ^= buf[i]; }
    }
    for (i = 0; i < m; i++) h[i] = buf[i];
}
int main(int argc, char **argv)
{
    static uint64_t f[13], g[13], h[13];
    int which = atoi(argv[1]), n = atoi(argv[2]), k;
    for (k = 0; k < 13; k++) { f[k] = 0x9e3779b97f4a7c15ull * (k + 1); g[k] = 0xc2b2ae3d27d4eb4full * (k + 3); }
    for (k = 0; k < n; k++) {
        if (which == 1) KERNEL(h, f, g);
        else if (which == 2) qhasm_ref_mceliece_vec_mul(M, 64, h, f, g);
        else if (which == 3) vecc(h, f, g, M);
    }
    if (which == 9) {   /* kernel against ref and against the bitsliced C */
        static uint64_t h1[13], h2[13], h3[13];
        int i;
        KERNEL(h1, f, g); qhasm_ref_mceliece_vec_mul(M, 64, h2, f, g); vecc(h3, f, g, M);
        for (i = 0; i < M; i++) if (h1[i] != h2[i] || h1[i] != h3[i]) return 1;
        return 0;
    }
    return (int)(h[0] & 1);
}
