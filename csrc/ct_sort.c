/* ct_sort.c: constant-time sorts of uint32 and uint64 (csrc/ct_sort.h), one
 * template (csrc/ct_sort_impl.h) instantiated for the two widths.
 *
 * The network: bitonic on the next power of two N >= n, in its
 * direction-free form (for each block size k a "flip", element t of a block
 * against element k-1-t, then half-cleaners, t against t+j, j = k/4 .. 1),
 * every comparator with its minimum at the lower index.  Virtual padding:
 * positions n..N-1 hold +infinity, and a comparator with its upper index
 * there leaves both positions as they are, so those comparators are skipped
 * (the bounds are public) and the padding is never stored: the flat form
 * sorts in place for any n.  Unsigned order = signed order of the values with
 * the top bit flipped (signed vector compares exist on SSE2 and AVX2).
 *
 * The vector form (GCC vector extensions, L = 8 lanes of 32 bits or 4 of 64
 * bits: one AVX2 register; docs/sntrup761.md) holds the N values as R = N/L
 * rows of L lanes, element t at row t % R of lane t / R, in a scratch array
 * (padded with the maximum); on x86-64 it is also compiled for AVX2 (gcc
 * target_clones, chosen at load time by GNU ifunc), the mechanism the KEMs
 * used before.  On x86-64 with gcc a second instantiation (CT_AVX2) is the
 * AVX2 path: target("avx2") functions with the compare-exchange from
 * intrinsics (vpminsd/vpmaxsd for 32 bits, vpcmpgtq and vpblendvb for 64),
 * chosen per call by the CPU dispatch's qhasm_cpu_features() (so
 * QHASM_CPU_DISABLE=avx2 selects the portable path); test_ct_sort.c runs
 * both paths (qhasm_ct_sort_*_portable, _avx2) against each other.  For 32
 * bits a third instantiation (CT_AVX512, 16 lanes: one zmm register per row,
 * vpminsd/vpmaxsd on zmm, the output read back by gathers at public
 * addresses) is taken first where the CPU has AVX-512F: sntrup761's 761
 * words 5.7k -> 4.5k TSC ticks on Intel family 6 model 207 (Emerald
 * Rapids, best of 2000).
 * Provides: qhasm_ct_sort_u32, qhasm_ct_sort_u64 (and the two paths). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")   /* the networks are meant to be vectorised */
#endif
#include <stdlib.h>
#include "ct_sort.h"
#include "qhasm.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#define CT_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CT_CLONES
#endif
/* the scratch array of the vector form is on the stack up to this many
 * values, else from malloc (without memory: the flat form, in place) */
#define CT_STACK 1024
/* below this many values the flat form (the vector form pads to at least
 * 64: measured on Zen 3, 16 values take 0.18 us flat and 0.15 us padded,
 * 8 values are faster flat) */
#define CT_FLAT_BELOW 16

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#define CT_VECTORS 1
#endif

#if defined(CT_VECTORS) && defined(__x86_64__)
#include <immintrin.h>
#define CT_HAVE_AVX2 1
#endif

#define CT_BITS 32
#define CT_S int32_t
#define CT_U uint32_t
#define CT_NAME(x) x##_u32
#define CT_LANES 8
#include "ct_sort_impl.h"
#ifdef CT_HAVE_AVX2
#undef CT_AVX2
#define CT_AVX2 1
#include "ct_sort_impl.h"
#undef CT_LANES
#define CT_LANES 16   /* one AVX-512 register */
#undef CT_AVX512
#define CT_AVX512 1
#include "ct_sort_impl.h"
#undef CT_AVX512
#define CT_AVX512 0
#endif
#undef CT_AVX2
#undef CT_BITS
#undef CT_S
#undef CT_U
#undef CT_NAME
#undef CT_LANES

#define CT_BITS 64
#define CT_S int64_t
#define CT_U uint64_t
#define CT_NAME(x) x##_u64
#define CT_LANES 4   /* one AVX2 register (8 lanes of 64 bits are lowered badly) */
#include "ct_sort_impl.h"
#ifdef CT_HAVE_AVX2
#undef CT_AVX2
#define CT_AVX2 1
#include "ct_sort_impl.h"
#endif

#ifndef CT_HAVE_AVX2
int qhasm_ct_sort_avx512_u32(uint32_t *x, long n) { (void)x; (void)n; return -1; }
int qhasm_ct_sort_avx2_u32(uint32_t *x, long n) { (void)x; (void)n; return -1; }
int qhasm_ct_sort_avx2_u64(uint64_t *x, long n) { (void)x; (void)n; return -1; }
#endif

void qhasm_ct_sort_u32(uint32_t *x, long n)
{
    if (qhasm_ct_sort_avx512_u32(x, n) && qhasm_ct_sort_avx2_u32(x, n)) qhasm_ct_sort_portable_u32(x, n);
}

void qhasm_ct_sort_u64(uint64_t *x, long n)
{
    if (qhasm_ct_sort_avx2_u64(x, n)) qhasm_ct_sort_portable_u64(x, n);
}
