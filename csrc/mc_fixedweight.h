/* mc_fixedweight.h: the vector core of Classic McEliece's FixedWeight
 * (csrc/mc_fixedweight.c; docs/mceliece-kem.md, "FixedWeight on
 * AVX-512").  The KEMs (csrc/kem_mceliece.h) call it where it runs and
 * keep their portable C loops elsewhere; the results are the same. */
#ifndef QHASM_MC_FIXEDWEIGHT_H
#define QHASM_MC_FIXEDWEIGHT_H

#include <stdint.h>

/* The largest t the vector core takes (four zmm of 16-bit lanes). */
#define QHASM_MC_FW_TMAX 128

/* 1 if the AVX-512 core below runs here for these parameters (compiled
 * for this target, the CPU has AVX-512F/BW/VL and QHASM_CPU_DISABLE does
 * not remove them, 1 <= t <= 128, m <= 13, n <= 2^m), else 0 */
int qhasm_mc_fw_avx512(long n, long t, int m);

/* for the test: 0 turns the AVX-512 core off (qhasm_mc_fw_avx512 then
 * says 0, so the KEMs take their portable loops), 1 back on */
void qhasm_mc_fw_avx512_enable(int on);

/* One attempt of FixedWeight (round 4): the 2t candidates d_i = the i-th
 * little-endian 16-bit word of buf (4t bytes) masked to m bits; ind[0 ..
 * t-1] = the first t of them that are < n.  Returns 0 if there were t of
 * them and they are distinct, 1 otherwise (the caller draws again; ind is
 * then unspecified).  No branch and no memory address depends on buf.
 * Returns -1 and does nothing where qhasm_mc_fw_avx512(n, t, m) is 0. */
int qhasm_mc_fw_select_avx512(uint16_t *ind, const unsigned char *buf, long n, long t, int m);

/* e (ceil(n/8) bytes, bit i of e = bit i % 8 of byte i / 8) = the vector of
 * weight t with ones at ind[0 .. t-1] (each < n, distinct).  No branch and
 * no memory address depends on ind.  0; -1 and nothing done where
 * qhasm_mc_fw_avx512(n, t, 13) is 0. */
int qhasm_mc_fw_expand_avx512(unsigned char *e, const uint16_t *ind, long n, long t);

#endif
