/* abicheck.h: the calling-convention checker of qhasm-test (internal; not
 * part of libqhasm).  A per-architecture trampoline (csrc/abicheck_<arch>.S)
 * fills every callee-saved register with random values, calls a function,
 * and records what the callee left behind; abicheck.c compares.
 *
 * amd64 (System V): rbx, rbp, r12-r15 preserved, rsp restored, no writes
 * to the caller's stack above the return address, DF clear, MXCSR and the
 * x87 control word unchanged, and (where xgetbv with ecx=1 exists) no
 * dirty AVX/AVX-512 upper state: the trampoline executes vzeroupper before
 * the call, so XINUSE bits 2 (YMM_Hi128) and 6 (ZMM_Hi256) set after it
 * mean the callee returned without vzeroupper.
 *
 * Adding an architecture: a trampoline csrc/abicheck_<arch>.S guarded by
 * #if for that architecture, and a section in abicheck.c under the same
 * #if that implements qhasm_abicheck_call with it. */
#ifndef QHASM_ABICHECK_H
#define QHASM_ABICHECK_H

#include <stddef.h>
#include <stdint.h>

#define QHASM_ABICHECK_MAXARGS 6

/* name of the checked ABI ("amd64 System V"), or NULL if this build has no
 * trampoline for the CPU (then qhasm_abicheck_call returns -2) */
const char *qhasm_abicheck_abi(void);

/* what the checker covers on this machine, one line (e.g. whether the
 * dirty-upper-state check is possible here) */
const char *qhasm_abicheck_coverage(void);

/* Call fn(args[0], ..., args[nargs-1]) (integer and pointer arguments;
 * nargs <= QHASM_ABICHECK_MAXARGS) through the trampoline.  Returns 0 if
 * the callee respected the ABI, -1 if not (why gets every violation, one
 * after another, separated by "; "), -2 if unavailable.  *ret (may be NULL)
 * gets the integer return value.  Not reentrant. */
int qhasm_abicheck_call(void (*fn)(void), int nargs, const uint64_t *args,
                        uint64_t *ret, char *why, size_t whylen);

/* number of calls made through the trampoline so far */
unsigned long qhasm_abicheck_count(void);

#endif
