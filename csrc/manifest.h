/* manifest.h: the types of the tables gen/manifest.py generates from
 * specs/kernels.conf (build/<...>/gen/manifest_tables.c), shared by the
 * library (dispatch.c), qhasm-test and qhasm-speed.  See docs/manifest.md. */
#ifndef QHASM_MANIFEST_H
#define QHASM_MANIFEST_H

typedef void qhasm_fn(void);
#define QHASM_MAXKERNELS 4
#define QHASM_MAXPRIMS 64      /* gen/manifest.py refuses more */

typedef struct {
    const char *name;          /* "ref", "c", "amd64", "amd64-avx2", "amd64-zen4", ... */
    unsigned features;         /* QHASM_CPU_* bits required */
    const char *uarch;         /* "": generic; else scheduled for this model */
    const char *alias_of;      /* a variant identical to this implementation, or NULL */
    unsigned long long minlen, maxlen;   /* message lengths where it is preferred */
    qhasm_fn *fn[QHASM_MAXKERNELS];
} qhasm_impl;

typedef struct { const char *key, *value; } qhasm_param;

/* family fixed: the kernel's pointer arguments (kind 0 ends the list) */
enum { QHASM_ARG_OUT = 1, QHASM_ARG_IN = 2, QHASM_ARG_INOUT = 3 };
typedef struct { int kind; unsigned long bytes; } qhasm_arg;

typedef struct {
    const char *name;          /* "salsa20", "poly1305", ... */
    const char *family;        /* the C hooks: "salsa", "poly1305", "fixed", ... */
    const char *symbol;        /* kernel symbols qhasm_kernel_<symbol>_<impl>_<kernel> */
    const char *const *aliases;   /* NULL-terminated */
    const qhasm_param *params;    /* ends with key == NULL */
    const char *const *kernels;   /* NULL-terminated */
    const unsigned long *speed;   /* qhasm-speed's lengths, 0-terminated */
    const char *vectors;       /* the published vectors qhasm-test checks */
    const qhasm_arg *args;     /* family fixed: the kernel's buffers */
    int align;                 /* family fixed: their alignment (bytes) */
    const qhasm_impl *impls;   /* generic ones in preference order, ref the last of
                                  them; then the per-model variants */
    int nimpls;
    int ref;                   /* the index of ref */
} qhasm_prim;

extern const qhasm_prim qhasm_prims[];   /* ends with name == NULL */
extern const int qhasm_nprims;

#endif
