/* speedsizes.h: the code-size table generated at build time by
 * gen/codesize.py from the library objects (build/csrc/speedsizes.c). */
#ifndef QHASM_SPEEDSIZES_H
#define QHASM_SPEEDSIZES_H

struct qhasm_codesize {
    const char *prim;       /* "salsa20", "salsa2012", "salsa208", "poly1305" */
    const char *impl;       /* "c", "ref", "amd64-avx2", ... */
    long bytes;             /* code reachable from the kernel entry points */
    const char *compiler;   /* one token: "gcc_..._12.2.0", "nasm_2.16.01" */
};
extern const struct qhasm_codesize qhasm_codesizes[];   /* ends with prim == 0 */

/* the cost report's lower bound of each generated kernel per model
 * (gen/bounds.py), in cycles per byte of its main loop */
struct qhasm_speedbound {
    const char *prim, *impl, *model;
    double cpb;
    const char *binds;   /* which bound binds: resource, recurrence, ... */
    double call;         /* cpb 0: the bound of one call in cycles (fixed-size kernels) */
};
extern const struct qhasm_speedbound qhasm_speedbounds[];  /* ends with prim == 0 */

#endif
