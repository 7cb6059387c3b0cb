/* csrc/kem_mceliece6960119.c: Classic McEliece mceliece6960119 (round 4), implementation
 * "c" of the kem family: m = 13, n = 6960, t = 119,
 * f(z) = z^13 + z^4 + z^3 + z + 1, F(y) = y^119 + y^8 + 1.  Public key
 * 1047319 bytes, secret key 13948, ciphertext 194, session key 32.
 * mt = 1547 and k = 5413 are not multiples of 8: the padding bits of the
 * ciphertext and of each public-key row are checked (docs/mceliece-kem.md).
 * The algorithms: csrc/kem_mceliece.h. */
#define MC_M 13
#define MC_N 6960
#define MC_T 119
#define MC_NAME 6960119
#define MC_REF 0
#define MC_PREFIX(x) qhasm_kernel_kem_mceliece6960119_c_##x
/* y^119 = y^8 + 1 */
#define MC_FY_REDUCE(p, i) do { gf c_ = (p)[i]; (p)[(i) - MC_T + 8] ^= c_; (p)[(i) - MC_T] ^= c_; } while (0)
#include "kem_mceliece.h"
