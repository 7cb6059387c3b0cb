/* ct_sort.h: constant-time sorting of uint32 and uint64 arrays (csrc/ct_sort.c),
 * shared by the KEMs (sntrup761's Short, Classic McEliece's FieldOrdering and
 * control bits).  Ascending, unsigned, any n >= 0, in place; no branch and no
 * memory address depends on the values (only on n).  docs/sntrup761.md,
 * "Sorting". */
#ifndef QHASM_CT_SORT_H
#define QHASM_CT_SORT_H

#include <stdint.h>

void qhasm_ct_sort_u32(uint32_t *x, long n);
void qhasm_ct_sort_u64(uint64_t *x, long n);

/* the two paths, for csrc/test_ct_sort.c: the portable one (GCC vector
 * extensions where available, else scalar) and the AVX2 one (x86-64 with
 * gcc; returns -1 without sorting where it is not compiled or the CPU lacks
 * AVX2, else 0).  The functions above take the AVX2 path when it returns 0. */
void qhasm_ct_sort_portable_u32(uint32_t *x, long n);
void qhasm_ct_sort_portable_u64(uint64_t *x, long n);
int qhasm_ct_sort_avx2_u32(uint32_t *x, long n);
int qhasm_ct_sort_avx2_u64(uint64_t *x, long n);
/* the AVX-512F path for 32 bits (16 lanes; -1 without sorting where it is not
 * compiled or the CPU lacks AVX-512F, else 0): qhasm_ct_sort_u32 takes it first */
int qhasm_ct_sort_avx512_u32(uint32_t *x, long n);

#endif
