/* cpucycles.h: the cycle counter of qhasm-speed and the bench program.
 *
 * cpucycles_init() picks the best counter this machine offers, in order:
 *   amd64-pmc          core cycles via rdpmc on a perf-events counter (Linux,
 *                      when the kernel grants user rdpmc)
 *   amd64-tsc, x86-tsc time-stamp counter, lfence-ordered (rdtscp if no SSE2)
 *   ppc64-mftb, ppc32-mftb  PowerPC time base
 *   sparc64-tick       SPARC %tick register
 *   default-perfevent  perf-events hardware cycle counter read with read(2)
 *   arm64-vct          ARMv8 virtual counter (cntvct_el0)
 *   default-monotonic  clock_gettime(CLOCK_MONOTONIC) in nanoseconds (always works)
 * Every counter that could fault is probed in a child process first (so an
 * illegal instruction or a disabled counter never kills the caller), then
 * checked for sanity (it must not run backwards, must advance, and must tick
 * between 10^5 and 10^12 times per second); a counter that fails is reported
 * through the note callback with the reason and the next one is tried.
 *
 * Environment: QHASM_CPUCYCLES=name[,name...] restricts the candidates to the
 * listed ones (default-monotonic stays as the last resort); the name
 * "test-broken" selects a deliberately bad counter, for testing the
 * fallback.  QHASM_CPUCYCLES_PERSECOND=N overrides the rate estimate. */
#ifndef QHASM_CPUCYCLES_H
#define QHASM_CPUCYCLES_H

/* note(name, why) is called for each counter rejected (may be NULL).
 * Returns 0; safe to call again (later calls do nothing). */
int cpucycles_init(void (*note)(const char *name, const char *why));
long long cpucycles(void);                 /* current count (calls init if needed) */
const char *cpucycles_implementation(void);
long long cpucycles_persecond(void);       /* estimated counts per second */

#endif
