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
 * x86 (i386 cdecl, System V): ebx, esi, edi, ebp preserved, esp restored,
 * no writes to the caller's stack above the arguments, DF clear, the x87
 * control word (and MXCSR where SSE exists) unchanged, x87 register stack
 * empty on return (no MMX state left without emms).
 *
 * ppc32 (System V): r14-r31, f14-f31, CR fields cr2-cr4, v20-v31 (when
 * AT_HWCAP has AltiVec) preserved, r1 restored, the reserved r2 (thread
 * pointer) and r13 (small-data anchor) untouched, FPSCR control bits
 * (rounding mode, exception enables) and VSCR[NJ] unchanged, no writes to
 * the caller's frame above the parameter area.
 *
 * ppc64 (ELFv1): the same registers, plus r2 (TOC) equal on return to the
 * value the function descriptor loaded; the function is called through its
 * descriptor (entry, TOC, environment) as C does; r13 (thread pointer)
 * untouched.
 *
 * sparc64 (SPARC V9 ABI): the caller's window (%l0-%l7, %i0-%i7 including
 * %fp and the return address %i7) and %sp unchanged after the call, the
 * application registers %g2, %g3 and the system registers %g6, %g7
 * untouched (%g1, %g4, %g5 are volatile in the 64-bit ABI; for compiled C
 * only %g7, see QHASM_ABICHECK_COMPILED), the %fsr control fields
 * (rounding direction, trap enables) unchanged, no writes to the caller's
 * frame above the argument area.
 *
 * Adding an architecture: a trampoline csrc/abicheck_<arch>.S guarded by
 * #if for that architecture, and a section in abicheck.c under the same
 * #if that implements qhasm_abicheck_call_sig with it (csrc/csrc.mk links
 * every csrc/abicheck_*.S; each assembles to nothing on other CPUs). */
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

/* The same with the argument types: sig has one letter per argument,
 * 'w' for a machine word (pointer, int, unsigned, long, size_t) and 'q'
 * for a 64-bit integer (unsigned long long, uint64_t), which 32-bit ABIs
 * pass in two words (i386: two stack words, low first; ppc32: an aligned
 * register pair or stack doubleword, high first).  On 64-bit targets both
 * letters mean one register.  qhasm_abicheck_call(fn, n, ...) is this with
 * n letters 'w' and no flags.  *ret gets the first return register (rax,
 * eax, r3, %o0), zero-extended. */
int qhasm_abicheck_call_sig(void (*fn)(void), const char *sig, unsigned flags, const uint64_t *args,
                            uint64_t *ret, char *why, size_t whylen);

/* flags of qhasm_abicheck_call_sig.  Without flags the callee is held to
 * the letter of the ABI.  QHASM_ABICHECK_COMPILED: the callee is compiled
 * C (or calls the C library), held to what the platform's C compiler and C
 * library honor.  Only sparc64 differs: GCC on Linux defaults to
 * -mapp-regs (%g2-%g4 are scratch) and glibc (memcpy, the dynamic
 * loader, stdio, ...) uses %g6 too, so of the global registers only %g7
 * (thread pointer) is checked then. */
#define QHASM_ABICHECK_COMPILED 1u

/* number of calls made through the trampoline so far */
unsigned long qhasm_abicheck_count(void);

#endif
