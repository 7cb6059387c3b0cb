/* qhasm.h: public C API of libqhasm.
 *
 * NaCl/SUPERCOP-shaped functions; every function returns 0 on success
 * (onetimeauth verify returns 0 or -1).  Outputs may alias any input
 * (the message, the nonce or the key): every input is read before the
 * corresponding output is written.  Each primitive has several
 * implementations; the fastest one the running CPU supports is chosen on
 * first use (see docs/api.md, "Dispatch"; QHASM_IMPL forces one).
 */
#ifndef QHASM_H
#define QHASM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QHASM_VERSION "0.1.0"

/* ---- Salsa20 family core functions ------------------------------------
 * core:  out64 = Salsa20 hash of the 64-byte block built from
 *        c16 (constants, may be NULL = "expand 32-byte k"), k32 (key) and
 *        in16 (nonce and block counter), i.e. rounds plus feed-forward.
 * hcore: out32 = words 0,5,10,15,6,7,8,9 after the rounds, without
 *        feed-forward (HSalsa20; used to derive XSalsa20 subkeys). */
int qhasm_core_salsa20(unsigned char *out64, const unsigned char *in16,
                       const unsigned char *k32, const unsigned char *c16);
int qhasm_core_hsalsa20(unsigned char *out32, const unsigned char *in16,
                        const unsigned char *k32, const unsigned char *c16);
int qhasm_core_salsa2012(unsigned char *out64, const unsigned char *in16,
                         const unsigned char *k32, const unsigned char *c16);
int qhasm_core_hsalsa2012(unsigned char *out32, const unsigned char *in16,
                          const unsigned char *k32, const unsigned char *c16);
int qhasm_core_salsa208(unsigned char *out64, const unsigned char *in16,
                        const unsigned char *k32, const unsigned char *c16);
int qhasm_core_hsalsa208(unsigned char *out32, const unsigned char *in16,
                         const unsigned char *k32, const unsigned char *c16);

/* ---- Salsa20 family stream ciphers (32-byte key, 8-byte nonce) --------
 * stream:     c = first clen keystream bytes (block counter starts at 0)
 * stream_xor: c = m XOR keystream
 * xor_ic:     same, block counter starts at ic (64-bit, wraps mod 2^64) */
int qhasm_stream_salsa20(unsigned char *c, unsigned long long clen,
                         const unsigned char *n8, const unsigned char *k32);
int qhasm_stream_salsa20_xor(unsigned char *c, const unsigned char *m,
                             unsigned long long mlen,
                             const unsigned char *n8, const unsigned char *k32);
int qhasm_stream_salsa20_xor_ic(unsigned char *c, const unsigned char *m,
                                unsigned long long mlen,
                                const unsigned char *n8, uint64_t ic,
                                const unsigned char *k32);

int qhasm_stream_salsa2012(unsigned char *c, unsigned long long clen,
                           const unsigned char *n8, const unsigned char *k32);
int qhasm_stream_salsa2012_xor(unsigned char *c, const unsigned char *m,
                               unsigned long long mlen,
                               const unsigned char *n8, const unsigned char *k32);
int qhasm_stream_salsa2012_xor_ic(unsigned char *c, const unsigned char *m,
                                  unsigned long long mlen,
                                  const unsigned char *n8, uint64_t ic,
                                  const unsigned char *k32);

int qhasm_stream_salsa208(unsigned char *c, unsigned long long clen,
                          const unsigned char *n8, const unsigned char *k32);
int qhasm_stream_salsa208_xor(unsigned char *c, const unsigned char *m,
                              unsigned long long mlen,
                              const unsigned char *n8, const unsigned char *k32);
int qhasm_stream_salsa208_xor_ic(unsigned char *c, const unsigned char *m,
                                 unsigned long long mlen,
                                 const unsigned char *n8, uint64_t ic,
                                 const unsigned char *k32);

/* XSalsa20: 24-byte nonce; subkey = HSalsa20(k, n[0..15]), then Salsa20
 * with that subkey and nonce n[16..23]. */
int qhasm_stream_xsalsa20(unsigned char *c, unsigned long long clen,
                          const unsigned char *n24, const unsigned char *k32);
int qhasm_stream_xsalsa20_xor(unsigned char *c, const unsigned char *m,
                              unsigned long long mlen,
                              const unsigned char *n24, const unsigned char *k32);

/* ---- Poly1305 one-time authenticator (RFC 8439) ------------------------ */
int qhasm_onetimeauth_poly1305(unsigned char *a16, const unsigned char *m,
                               unsigned long long mlen, const unsigned char *k32);
/* 0 if a16 is the tag of m under k32, else -1; constant time in a16. */
int qhasm_onetimeauth_poly1305_verify(const unsigned char *a16,
                                      const unsigned char *m,
                                      unsigned long long mlen,
                                      const unsigned char *k32);

/* Incremental interface.  The state is opaque, 512 bytes, and remembers the
 * implementation chosen at _init (forcing another one later does not
 * affect a message in progress).  It must not be copied between init and
 * final by anything but memcpy of the whole struct. */
typedef struct qhasm_onetimeauth_poly1305_state {
    union {
        unsigned char bytes[512];
        unsigned long long align8;
        double alignd;
    } opaque;
}
#if defined(__GNUC__)
__attribute__((aligned(64)))
#endif
qhasm_onetimeauth_poly1305_state;

int qhasm_onetimeauth_poly1305_init(qhasm_onetimeauth_poly1305_state *st,
                                    const unsigned char *k32);
int qhasm_onetimeauth_poly1305_update(qhasm_onetimeauth_poly1305_state *st,
                                      const unsigned char *m,
                                      unsigned long long mlen);
int qhasm_onetimeauth_poly1305_final(qhasm_onetimeauth_poly1305_state *st,
                                     unsigned char *a16);

/* ---- Hash functions: SHA-512 (FIPS 180-4), SHAKE256 (FIPS 202) --------
 * Any lengths (0 included); out may alias in.  Return 0. */
int qhasm_hash_sha512(unsigned char *out64, const unsigned char *in,
                      unsigned long long inlen);
int qhasm_xof_shake256(unsigned char *out, unsigned long long outlen,
                       const unsigned char *in, unsigned long long inlen);

/* Incremental SHAKE256: init, absorb any number of times, then squeeze any
 * number of times (the output is the same as one squeeze of the total
 * length).  absorb after squeeze returns -1.  The state is opaque and may
 * be copied with memcpy (to fork a sponge). */
typedef struct qhasm_xof_shake256_state {
    union {
        unsigned char bytes[360];
        unsigned long long align8;
    } opaque;
} qhasm_xof_shake256_state;
int qhasm_xof_shake256_init(qhasm_xof_shake256_state *st);
int qhasm_xof_shake256_absorb(qhasm_xof_shake256_state *st, const unsigned char *in,
                              unsigned long long inlen);
int qhasm_xof_shake256_squeeze(qhasm_xof_shake256_state *st, unsigned char *out,
                               unsigned long long outlen);

/* ---- Streamlined NTRU Prime arithmetic (SUPERCOP crypto_core layouts) ----
 * multsntrupP:  out (2P bytes) = f*g in (Z/q)[x]/(x^P - x - 1), coefficients
 *               frozen to -(q-1)/2..(q-1)/2, little-endian int16; f = in
 *               (P little-endian int16, any values, reduced mod q), g = k
 *               (P bytes: low two bits 1 -> +1, 3 -> -1, 0 or 2 -> 0).
 * mult3sntrupP: out (P bytes, int8 in {-1,0,1}) = f*g in (Z/3)[x]/(x^P-x-1),
 *               f = in and g = k (P bytes each, mapped as k above).
 * P = 653 (q = 4621), 761 (q = 4591), 857 (q = 5167).  c is 0 bytes (may be
 * NULL); out may alias in or k.  Return 0. */
int qhasm_core_multsntrup653(unsigned char *out1306, const unsigned char *in1306,
                             const unsigned char *k653, const unsigned char *c0);
int qhasm_core_multsntrup761(unsigned char *out1522, const unsigned char *in1522,
                             const unsigned char *k761, const unsigned char *c0);
int qhasm_core_multsntrup857(unsigned char *out1714, const unsigned char *in1714,
                             const unsigned char *k857, const unsigned char *c0);
int qhasm_core_mult3sntrup653(unsigned char *out653, const unsigned char *in653,
                              const unsigned char *k653, const unsigned char *c0);
int qhasm_core_mult3sntrup761(unsigned char *out761, const unsigned char *in761,
                              const unsigned char *k761, const unsigned char *c0);
int qhasm_core_mult3sntrup857(unsigned char *out857, const unsigned char *in857,
                              const unsigned char *k857, const unsigned char *c0);

/* ---- Implementation selection -----------------------------------------
 * Primitives (dispatch units): "salsa20" (also used by hsalsa20 and
 * xsalsa20), "salsa2012", "salsa208", "poly1305", "sha512", "shake256".  Each has implementations
 * numbered 0..count-1 in preference order (fastest first; "ref" last).
 * Public-function names are accepted as aliases of their primitive
 * ("stream_salsa20_xor", "core_hsalsa20", "onetimeauth_poly1305", ...).
 * Implementation names use '-' ("amd64-avx2"); '_' is accepted too. */
const char *qhasm_prim_name(int j);               /* j-th primitive, NULL past the end */
int qhasm_impl_count(const char *prim);           /* -1: unknown primitive */
const char *qhasm_impl_name(const char *prim, int i);   /* NULL: out of range */
int qhasm_impl_find(const char *prim, const char *name);/* index or -1 */
/* the model a per-model variant is scheduled for ("zen4"); "" for an
 * implementation in source order; NULL: out of range */
const char *qhasm_impl_uarch(const char *prim, int i);
int qhasm_impl_supported(const char *prim, int i);      /* 1 if runnable here */
/* why implementation i cannot run here ("" if it can), e.g. "missing avx2" */
const char *qhasm_impl_missing(const char *prim, int i);
int qhasm_impl_selected(const char *prim);        /* index in use (selects if needed) */
/* the index in use for a message of len bytes: implementations are
 * preferred over length ranges measured per CPU (specs/kernels.conf) */
int qhasm_impl_selected_len(const char *prim, unsigned long long len);
/* a per-model variant whose code is identical to another implementation's:
 * that implementation's name (its kernels are that one's); else NULL */
const char *qhasm_impl_alias(const char *prim, int i);
/* force implementation i (0 on success, -1 if unknown or unsupported);
 * i = -1 returns to automatic selection (QHASM_IMPL is consulted again). */
int qhasm_impl_force(const char *prim, int i);

/* CPU features detected at run time (x86: CPUID + XGETBV; PowerPC: the
 * kernel's AT_HWCAP), as a bit mask */
#define QHASM_CPU_SSE2       0x001u
#define QHASM_CPU_SSSE3      0x002u
#define QHASM_CPU_AVX        0x004u
#define QHASM_CPU_AVX2       0x008u
#define QHASM_CPU_BMI2       0x010u
#define QHASM_CPU_ADX        0x020u
#define QHASM_CPU_AVX512F    0x040u
#define QHASM_CPU_AVX512VL   0x080u
#define QHASM_CPU_AVX512BW   0x100u
#define QHASM_CPU_AVX512IFMA 0x200u
#define QHASM_CPU_ALTIVEC    0x400u   /* PowerPC AltiVec/VMX (AT_HWCAP) */
#define QHASM_CPU_PCLMULQDQ  0x800u   /* carry-less multiply (CPUID.1:ECX bit 1) */
#define QHASM_CPU_BMI1       0x1000u  /* andn (CPUID.7:EBX bit 3) */
#define QHASM_CPU_AVX512VPOPCNTDQ 0x2000u  /* vpopcntd/q (CPUID.7:ECX bit 14) */
#define QHASM_CPU_NFEATURES  14
unsigned qhasm_cpu_features(void);
const char *qhasm_cpu_feature_name(unsigned bit);  /* "avx2" for QHASM_CPU_AVX2 */
/* the running CPU's microarchitecture model ("zen4", "skylake", ...) or "";
 * per-model variants are preferred on it (QHASM_UARCH=name overrides,
 * QHASM_UARCH= turns the preference off) */
const char *qhasm_cpu_uarch(void);

/* ---- Classic McEliece arithmetic (docs/mceliece.md) -------------------
 * GF(2^12) = GF(2)[z]/(z^12 + z^3 + 1) (mceliece348864) and GF(2^13) =
 * GF(2)[z]/(z^13 + z^4 + z^3 + z + 1) (mceliece460896 ... 8192128).
 * Bitsliced vectors of m bit-words: vec (64 elements) is uint64_t[m],
 * word i holding bit i of each element; vec256 is uint64_t[4m] and vec512
 * uint64_t[8m], the words of bit i at [4i..4i+3] ([8i..8i+7]), element
 * 64k+j in bit j of word k of them (the Classic McEliece vec and avx
 * layouts).  h may equal f or g. */
void qhasm_mceliece_gf12_vec_mul(uint64_t *h, const uint64_t *f, const uint64_t *g);
void qhasm_mceliece_gf12_vec_sq(uint64_t *h, const uint64_t *f);
void qhasm_mceliece_gf12_vec_inv(uint64_t *h, const uint64_t *f);   /* 1/a, 0 for 0 */
void qhasm_mceliece_gf13_vec_mul(uint64_t *h, const uint64_t *f, const uint64_t *g);
void qhasm_mceliece_gf13_vec_sq(uint64_t *h, const uint64_t *f);
void qhasm_mceliece_gf13_vec_inv(uint64_t *h, const uint64_t *f);   /* 1/a, 0 for 0 */
void qhasm_mceliece_gf12_vec256_mul(uint64_t *h, const uint64_t *f, const uint64_t *g);
void qhasm_mceliece_gf12_vec256_sq(uint64_t *h, const uint64_t *f);
void qhasm_mceliece_gf12_vec256_inv(uint64_t *h, const uint64_t *f);   /* 1/a, 0 for 0 */
void qhasm_mceliece_gf13_vec256_mul(uint64_t *h, const uint64_t *f, const uint64_t *g);
void qhasm_mceliece_gf13_vec256_sq(uint64_t *h, const uint64_t *f);
void qhasm_mceliece_gf13_vec256_inv(uint64_t *h, const uint64_t *f);   /* 1/a, 0 for 0 */
void qhasm_mceliece_gf12_vec512_mul(uint64_t *h, const uint64_t *f, const uint64_t *g);
void qhasm_mceliece_gf12_vec512_sq(uint64_t *h, const uint64_t *f);
void qhasm_mceliece_gf12_vec512_inv(uint64_t *h, const uint64_t *f);   /* 1/a, 0 for 0 */
void qhasm_mceliece_gf13_vec512_mul(uint64_t *h, const uint64_t *f, const uint64_t *g);
void qhasm_mceliece_gf13_vec512_sq(uint64_t *h, const uint64_t *f);
void qhasm_mceliece_gf13_vec512_inv(uint64_t *h, const uint64_t *f);   /* 1/a, 0 for 0 */
/* one element: *c = a * b and *c = a^(2^m - 2) (the inverse; 0 for 0) in
 * constant time; only the low m bits of *a and *b are used; c may equal a or b */
void qhasm_mceliece_gf12_mul(uint16_t *c, const uint16_t *a, const uint16_t *b);
void qhasm_mceliece_gf12_inv(uint16_t *c, const uint16_t *a);
void qhasm_mceliece_gf13_mul(uint16_t *c, const uint16_t *a, const uint16_t *b);
void qhasm_mceliece_gf13_inv(uint16_t *c, const uint16_t *a);
/* out[i] bit j = in[j] bit i (out may equal in) */
void qhasm_mceliece_transpose_64x64(uint64_t *out, const uint64_t *in);
/* s = H e, H = (I_mt | T), T the public key pk (Classic McEliece byte
 * layouts: docs/mceliece.md); s may alias pk or e.
 * mceliece348864: s 96 bytes, pk 261120 (768 rows of 340), e 436;
 * mceliece6960119: s 194 bytes, pk 1047319 (1547 rows of 677), e 870. */
void qhasm_mceliece348864_syndrome(unsigned char *s, const unsigned char *pk, const unsigned char *e);
void qhasm_mceliece6960119_syndrome(unsigned char *s, const unsigned char *pk, const unsigned char *e);

/* ---- Key encapsulation mechanisms (docs/kem.md) -----------------------
 * SUPERCOP's crypto_kem shape: keypair(pk, sk), enc(c, k, pk) (k the
 * session key), dec(k, c, sk).  Return 0; dec returns 0 for every
 * ciphertext (a modified one gives the implicit-rejection key, in constant
 * time).  Outputs may alias inputs. */
/* Streamlined NTRU Prime sntrup761 (NIST round 3): pk 1158, sk 1763,
 * c 1039, k 32 bytes (docs/sntrup761.md) */
int qhasm_kem_sntrup761_keypair(unsigned char *pk, unsigned char *sk);
int qhasm_kem_sntrup761_enc(unsigned char *c, unsigned char *k, const unsigned char *pk);
int qhasm_kem_sntrup761_dec(unsigned char *k, const unsigned char *c, const unsigned char *sk);
/* Classic McEliece (round 4, non-f; docs/mceliece-kem.md).  mceliece348864:
 * pk 261120, sk 6492, c 96, k 32 bytes; mceliece6960119: pk 1047319,
 * sk 13948, c 194, k 32 bytes.  Key generation allocates about 0.5 MB
 * (348864) or 2 MB (6960119) and returns -1 if that fails.  mceliece6960119
 * as the round-4 reference: enc returns -1 (c and k zero) for a public key
 * with a padding bit set, dec returns -1 (k zero) for a ciphertext with a
 * padding bit set (the top 5 bits of c[193]); every other ciphertext gives
 * 0 and the session key or the implicit-rejection key. */
int qhasm_kem_mceliece348864_keypair(unsigned char *pk, unsigned char *sk);
int qhasm_kem_mceliece348864_enc(unsigned char *c, unsigned char *k, const unsigned char *pk);
int qhasm_kem_mceliece348864_dec(unsigned char *k, const unsigned char *c, const unsigned char *sk);
int qhasm_kem_mceliece6960119_keypair(unsigned char *pk, unsigned char *sk);
int qhasm_kem_mceliece6960119_enc(unsigned char *c, unsigned char *k, const unsigned char *pk);
int qhasm_kem_mceliece6960119_dec(unsigned char *k, const unsigned char *c, const unsigned char *sk);

/* The KEMs' random bytes: getrandom(2) (retried on EINTR and short reads;
 * abort() if the kernel has no entropy source), or fn when set (NULL
 * restores getrandom).  A replaced source is called in the order and with
 * the amounts of the specifications' reference implementations (several
 * small calls, e.g. 4 bytes per coefficient), so a deterministic generator
 * such as NIST's AES-256 CTR DRBG reproduces the submissions' KAT files.
 * Process-wide; set it before KEM calls run in other threads. */
void qhasm_randombytes_set(void (*fn)(unsigned char *x, unsigned long long xlen));
/* The same for a source whose output does not depend on how the requests
 * are split (a keystream read in order, getrandom, SUPERCOP's
 * knownrandombytes): the KEMs then ask it once per buffer instead of once
 * per piece (sntrup761: one call of 3044 bytes instead of 761 of 4), with
 * the same bytes in the same places.  NIST's AES-256 CTR DRBG is not such
 * a source (each call ends with a state update): install it with
 * qhasm_randombytes_set.  NULL restores getrandom. */
void qhasm_randombytes_set_stream(void (*fn)(unsigned char *x, unsigned long long xlen));

/* ---- Classic McEliece Benes network, additive FFT and transpose (issue 18;
 * docs/mceliece-fft.md).  A bit-plane is 2^m bits in 2^m/64 uint64_t words,
 * position e at bit e%64 of word e/64; c is the secret key's control bits
 * ((2m-1)2^(m-1) bits, bit k in bit k%8 of byte k/8: 5888 bytes for m = 12,
 * 12800 for m = 13).  In place: y[i] = x[pi(i)] (benes, benes_bits) or
 * y[pi(i)] = x[i] (benes_bits_inv), pi the permutation of the control bits.
 * benes: m planes (uint64_t v[m * 2^m/64]); _bits: one plane. */
void qhasm_mceliece_gf12_benes(uint64_t *v, const unsigned char *c);
void qhasm_mceliece_gf12_benes_bits(uint64_t *v, const unsigned char *c);
void qhasm_mceliece_gf12_benes_bits_inv(uint64_t *v, const unsigned char *c);
void qhasm_mceliece_gf13_benes(uint64_t *v, const unsigned char *c);
void qhasm_mceliece_gf13_benes_bits(uint64_t *v, const unsigned char *c);
void qhasm_mceliece_gf13_benes_bits_inv(uint64_t *v, const unsigned char *c);
/* additive FFT: v (m planes of 2^m bits) = f at the points P(e) =
 * bitrev_m(e), f 128 coefficients bitsliced (uint64_t f[2m]: coefficient k
 * of plane b at bit k%64 of f[2b + k/64]); v 6144 / 13312 bytes */
void qhasm_mceliece_gf12_fft(uint64_t *v, const uint64_t *f);
void qhasm_mceliece_gf13_fft(uint64_t *v, const uint64_t *f);
/* transposed FFT: s_j = sum_e r_e P(e)^j, j < K (K = 128 for m = 12, 256
 * for m = 13), r m planes of 2^m bits, s m planes of K/64 words
 * (coefficient j of plane b at bit j%64 of s[(K/64) b + j/64]) */
void qhasm_mceliece_gf12_fft_tr(uint64_t *s, const uint64_t *r);
void qhasm_mceliece_gf13_fft_tr(uint64_t *s, const uint64_t *r);
/* Berlekamp-Massey (inversion-free, 2t iterations, constant time): s the
 * 2t syndromes in fft_tr's layout, f the error locator sigma_k = C_(t-k)
 * in the FFT's input layout (2m words); 192 / 208 bytes out, 192 / 416 in */
void qhasm_mceliece_gf12_bm(uint64_t *f, const uint64_t *s);
void qhasm_mceliece_gf13_bm(uint64_t *f, const uint64_t *s);

#ifdef __cplusplus
}
#endif

#endif
