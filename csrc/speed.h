/* speed.h: qhasm-speed's per-family hooks.  Each family of specs/kernels.conf
 * (salsa, poly1305, ...) defines `const qhasm_speed_family qhasm_speed_<family>`
 * in csrc/speed_<family>.c: the operations measured for each of its
 * primitives.  The table of which primitive uses which family is generated
 * (gen/manifest.py hooks speed).  qhasm-speed itself knows no primitive. */
#ifndef QHASM_SPEED_H
#define QHASM_SPEED_H

#include <stddef.h>
#include "impl.h"

/* buffers shared by all operations (filled with random bytes) */
typedef struct {
    unsigned char *m, *c;          /* maxlen + 64 bytes each */
    unsigned char key[64], nonce[32], in[64], out[256], tag[64];
} qhasm_speed_bufs;

typedef struct {
    const char *name;      /* printf format with one %s, the primitive's name:
                              "stream_%s_xor" -> stream_salsa20_xor */
    long long fixed;       /* > 0: one size only (bytes, as printed); 0: message lengths;
                              -1: the size of the primitive's first output argument */
    const char *column;    /* --table column name, NULL: not in the tables */
    int slow;              /* 1: measured only when asked for (-p NAME) */
    /* once per length before the timings (may be NULL) */
    void (*prepare)(int prim, const qhasm_impl *im, long long len, qhasm_speed_bufs *b);
    /* one call: the operation on a len-byte message by implementation im */
    void (*call)(int prim, const qhasm_impl *im, long long len, qhasm_speed_bufs *b);
    /* non-NULL: the one size printed, per primitive (overrides fixed; the kem
     * family's pk or ct bytes from the manifest's params) */
    long long (*bytes)(int prim);
} qhasm_speed_op;

typedef struct {
    const qhasm_speed_op *ops;
    int nops;
    /* non-NULL: printed after the primitive's `selected implementation`
     * lines (the kem family: the kernels its implementation uses) */
    void (*describe)(int prim);
} qhasm_speed_family;

extern const qhasm_speed_family *const qhasm_speed_families[];   /* indexed by primitive */

#endif
