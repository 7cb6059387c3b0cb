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

#endif
