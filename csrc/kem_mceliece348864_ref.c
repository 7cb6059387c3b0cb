/* csrc/kem_mceliece348864_ref.c: Classic McEliece mceliece348864 (round 4), implementation
 * "ref" of the kem family: m = 12, n = 3488, t = 64, f(z) = z^12 + z^3 + 1,
 * F(y) = y^64 + y^3 + y + z.  Public key 261120 bytes, secret key 6492,
 * ciphertext 96, session key 32.  The algorithms: csrc/kem_mceliece.h;
 * docs/mceliece-kem.md. */
#define MC_M 12
#define MC_N 3488
#define MC_T 64
#define MC_NAME 348864
#define MC_REF 1
#define MC_PREFIX(x) qhasm_kernel_kem_mceliece348864_ref_##x
/* y^64 = y^3 + y + z (z is the field element 2) */
#define MC_FY_REDUCE(p, i) do { gf c_ = (p)[i]; (p)[(i) - MC_T + 3] ^= c_; (p)[(i) - MC_T + 1] ^= c_; \
                                (p)[(i) - MC_T] ^= mc_gf_mul(c_, 2); } while (0)
#include "kem_mceliece.h"
