/* NIST's AES-256 CTR DRBG as the PQC submissions' rng.c uses it
 * (randombytes_init, randombytes), written for the known-answer tests of
 * the KEMs from FIPS 197 (AES-256) and SP 800-90A section 10.2.1
 * (CTR_DRBG with AES-256, no derivation function, no prediction
 * resistance, no reseeding).  TEST-ONLY code: it is compiled into
 * qhasm-test (included by csrc/test_kem.c), never into the library.
 *
 * State: Key (32 bytes) and V (16 bytes, a big-endian counter).
 *   Update(data48): three blocks AES_Key(++V), xor data48 (if any),
 *                   Key = first 32 bytes, V = last 16.
 *   init(entropy48, personalization48 or NULL): Key = 0, V = 0,
 *                   Update(entropy ^ personalization).
 *   generate(x, n): blocks AES_Key(++V) until n bytes (the last one
 *                   truncated), then Update(NULL).  So the output depends on
 *                   how a caller splits its requests. */
#include <string.h>

typedef struct { unsigned char key[32], v[16]; } nist_drbg;

/* ---- AES-256 (FIPS 197) ----------------------------------------------- */
static unsigned char aes_sbox[256];

/* multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (section 4.2) */
static unsigned char gf_mul(unsigned char a, unsigned char b)
{
    unsigned char r = 0;
    while (b) {
        if (b & 1) r ^= a;
        a = (unsigned char)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}

/* the S-box of section 5.1.1: the multiplicative inverse (0 for 0), then
 * the affine transformation b_i ^ b_{i+4} ^ b_{i+5} ^ b_{i+6} ^ b_{i+7} ^ c_i */
static void aes_init_sbox(void)
{
    int x;
    if (aes_sbox[0] == 0x63) return;
    for (x = 0; x < 256; x++) {
        unsigned char inv = 0, b, s;
        int y, i;
        for (y = 1; y < 256 && x; y++)
            if (gf_mul((unsigned char)x, (unsigned char)y) == 1) { inv = (unsigned char)y; break; }
        b = inv;
        s = 0x63;
        for (i = 0; i < 8; i++) {
            int bit = ((b >> i) ^ (b >> ((i + 4) % 8)) ^ (b >> ((i + 5) % 8)) ^ (b >> ((i + 6) % 8)) ^
                       (b >> ((i + 7) % 8))) & 1;
            s ^= (unsigned char)(bit << i);
        }
        aes_sbox[x] = s;
    }
}

/* KeyExpansion (section 5.2), Nk = 8, Nr = 14: 60 words */
static void aes256_expand(unsigned char w[240], const unsigned char key[32])
{
    unsigned char rcon = 1, t[4];
    int i, j;
    aes_init_sbox();
    memcpy(w, key, 32);
    for (i = 8; i < 60; i++) {
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % 8 == 0) {
            unsigned char u = t[0];
            t[0] = (unsigned char)(aes_sbox[t[1]] ^ rcon); t[1] = aes_sbox[t[2]];
            t[2] = aes_sbox[t[3]]; t[3] = aes_sbox[u];
            rcon = gf_mul(rcon, 2);
        } else if (i % 8 == 4) {
            for (j = 0; j < 4; j++) t[j] = aes_sbox[t[j]];
        }
        for (j = 0; j < 4; j++) w[4 * i + j] = (unsigned char)(w[4 * (i - 8) + j] ^ t[j]);
    }
}

/* Cipher (section 5.1); the state is column-major: s[r + 4c] */
static void aes256_encrypt(unsigned char out[16], const unsigned char w[240], const unsigned char in[16])
{
    unsigned char s[16], t[16];
    int round, c, r;
    for (c = 0; c < 16; c++) s[c] = (unsigned char)(in[c] ^ w[c]);
    for (round = 1; round <= 14; round++) {
        for (c = 0; c < 16; c++) s[c] = aes_sbox[s[c]];                  /* SubBytes */
        for (c = 0; c < 4; c++)                                          /* ShiftRows */
            for (r = 0; r < 4; r++) t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
        if (round < 14)                                                  /* MixColumns */
            for (c = 0; c < 4; c++) {
                unsigned char *a = t + 4 * c, b0 = a[0], b1 = a[1], b2 = a[2], b3 = a[3];
                s[4 * c + 0] = (unsigned char)(gf_mul(b0, 2) ^ gf_mul(b1, 3) ^ b2 ^ b3);
                s[4 * c + 1] = (unsigned char)(b0 ^ gf_mul(b1, 2) ^ gf_mul(b2, 3) ^ b3);
                s[4 * c + 2] = (unsigned char)(b0 ^ b1 ^ gf_mul(b2, 2) ^ gf_mul(b3, 3));
                s[4 * c + 3] = (unsigned char)(gf_mul(b0, 3) ^ b1 ^ b2 ^ gf_mul(b3, 2));
            }
        else
            memcpy(s, t, 16);
        for (c = 0; c < 16; c++) s[c] ^= w[16 * round + c];               /* AddRoundKey */
    }
    memcpy(out, s, 16);
}

/* ---- CTR_DRBG (SP 800-90A 10.2.1) -------------------------------------- */
static void drbg_increment(unsigned char v[16])
{
    int j;
    for (j = 15; j >= 0; j--)
        if (++v[j]) break;
}

static void drbg_update(nist_drbg *d, const unsigned char *data48)
{
    unsigned char w[240], temp[48];
    int i;
    aes256_expand(w, d->key);
    for (i = 0; i < 3; i++) {
        drbg_increment(d->v);
        aes256_encrypt(temp + 16 * i, w, d->v);
    }
    if (data48)
        for (i = 0; i < 48; i++) temp[i] ^= data48[i];
    memcpy(d->key, temp, 32);
    memcpy(d->v, temp + 32, 16);
}

static void nist_drbg_init(nist_drbg *d, const unsigned char entropy48[48], const unsigned char *pers48)
{
    unsigned char seed[48];
    int i;
    memcpy(seed, entropy48, 48);
    if (pers48)
        for (i = 0; i < 48; i++) seed[i] ^= pers48[i];
    memset(d->key, 0, 32);
    memset(d->v, 0, 16);
    drbg_update(d, seed);
}

static void nist_drbg_generate(nist_drbg *d, unsigned char *x, unsigned long long n)
{
    unsigned char w[240], block[16];
    aes256_expand(w, d->key);
    while (n > 0) {
        size_t k = n < 16 ? (size_t)n : 16;
        drbg_increment(d->v);
        aes256_encrypt(block, w, d->v);
        memcpy(x, block, k);
        x += k;
        n -= k;
    }
    drbg_update(d, NULL);
}
