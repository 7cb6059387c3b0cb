/* Run-time dispatch, one generic table per primitive (generated from
 * specs/kernels.conf by gen/manifest.py): implementations in preference
 * order (fastest first), the CPU features each one needs and the message
 * lengths where it is preferred.  The selection for the running CPU is made
 * once per primitive, as a few length segments; a call picks its segment.
 * QHASM_IMPL and qhasm_impl_force override it.  See docs/api.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"

static int count_(int p) { return qhasm_prims[p].nimpls; }
static const char *name_(int p, int i) { return qhasm_prims[p].impls[i].name; }
static const char *uarch_(int p, int i) { return qhasm_prims[p].impls[i].uarch; }
static unsigned features_(int p, int i) { return qhasm_prims[p].impls[i].features; }
static int supported_(int p, int i) { return (features_(p, i) & ~qhasm_cpu_features()) == 0; }

const char *qhasm_prim_param(int p, const char *key)
{
    const qhasm_param *q;
    if (p < 0 || p >= qhasm_nprims) return NULL;
    for (q = qhasm_prims[p].params; q->key; q++)
        if (!strcmp(q->key, key)) return q->value;
    return NULL;
}

long qhasm_prim_param_long(int p, const char *key, long dflt)
{
    const char *v = qhasm_prim_param(p, key);
    return v ? strtol(v, NULL, 0) : dflt;
}

/* names compare with '-' and '_' equivalent; n = length of a (a need not end) */
static int same_name(const char *a, size_t n, const char *b)
{
    size_t i;
    for (i = 0; i < n; i++) {
        char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];
        if (!y || x != y) return 0;
    }
    return b[n] == 0;
}

static int find_(int p, const char *name, size_t n)
{
    int i;
    for (i = 0; i < count_(p); i++)
        if (same_name(name, n, name_(p, i))) return i;
    return -1;
}

/* primitive of a name or alias (length n): the primitive's name, one of
 * its aliases (the public functions' names, with or without qhasm_ or
 * crypto_), all from the manifest */
static int lookup_(const char *s, size_t n)
{
    static const char *const prefixes[] = { "qhasm_", "crypto_" };
    size_t i;
    int p, again = 1;
    while (again) {
        again = 0;
        for (i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
            size_t l = strlen(prefixes[i]);
            if (n > l && !strncmp(s, prefixes[i], l)) { s += l; n -= l; again = 1; }
        }
    }
    for (p = 0; p < qhasm_nprims; p++) {
        const char *const *a;
        if (strlen(qhasm_prims[p].name) == n && !strncmp(s, qhasm_prims[p].name, n)) return p;
        for (a = qhasm_prims[p].aliases; *a; a++) {
            const char *x = strncmp(*a, "qhasm_", 6) ? *a : *a + 6;
            if (strlen(x) == n && !strncmp(s, x, n)) return p;
        }
    }
    return -1;
}

int qhasm_prim_lookup(const char *prim)
{
    return prim ? lookup_(prim, strlen(prim)) : -1;
}

/* ---- selection ----------------------------------------------------------- */
/* per primitive, once: either one forced implementation (QHASM_IMPL,
 * qhasm_impl_force) or up to MAXSEG length segments [from, next from) */
#define MAXSEG 8
typedef struct {
    int ready;                         /* 0 until chosen (atomic) */
    int forced;                        /* index + 1, 0: by length */
    int nseg;
    unsigned long long from[MAXSEG];   /* from[0] = 0 */
    int impl[MAXSEG];
} selection;

/* the implementation QHASM_IMPL asks for (-1: none): "prim=name" entries
 * win over plain "name" entries; entries are separated by ',' or spaces */
static int from_env(int p)
{
    const char *e = getenv("QHASM_IMPL");
    int specific = -1, global = -1;
    while (e && *e) {
        size_t n = strcspn(e, ", ");
        const char *eq = memchr(e, '=', n);
        if (eq) {
            if (lookup_(e, (size_t)(eq - e)) == p) {
                specific = find_(p, eq + 1, n - (size_t)(eq + 1 - e));
                if (specific < 0 || !supported_(p, specific)) {
                    fprintf(stderr, "qhasm: QHASM_IMPL: %.*s: %s; selecting automatically\n",
                            (int)n, e, specific < 0 ? "no such implementation" : "not supported by this CPU");
                    specific = -1;
                }
            }
        } else if (n && global < 0) {
            int i = find_(p, e, n);
            if (i >= 0 && supported_(p, i)) global = i;
        }
        e += n;
        while (*e == ',' || *e == ' ') e++;
    }
    return specific >= 0 ? specific : global;
}

/* the variant of implementation i scheduled for the running CPU's
 * microarchitecture, if listed (name "<base>-<model>"; an alias variant
 * has the same code as i) */
static int variant_(int p, int i)
{
    /* QHASM_UARCH=name prefers another model's variants, QHASM_UARCH= none */
    const char *u = qhasm_cpu_uarch();
    if (!*u)
        return i;
    size_t n = strlen(name_(p, i));
    for (int j = 0; j < count_(p); j++)
        if (!strcmp(uarch_(p, j), u) && !strncmp(name_(p, j), name_(p, i), n) && name_(p, j)[n] == '-'
            && !strcmp(name_(p, j) + n + 1, u) && supported_(p, j))
            return j;
    return i;
}

/* the preferred generic implementation for a message of len bytes: the
 * first supported one whose length range holds len (ref holds all) */
static int best_at(int p, unsigned long long len)
{
    const qhasm_impl *t = qhasm_prims[p].impls;
    int i;
    for (i = 0; i < count_(p); i++)
        if (!*t[i].uarch && supported_(p, i) && t[i].minlen <= len && len <= t[i].maxlen)
            return variant_(p, i);
    return QHASM_REF(p);
}

static void choose(int p, selection *s)
{
    const qhasm_impl *t = qhasm_prims[p].impls;
    int i = from_env(p);
    s->forced = i + 1;
    s->nseg = 1;
    s->from[0] = 0;
    s->impl[0] = i >= 0 ? i : best_at(p, 0);
    /* the segments start where some range starts or ends */
    for (i = 0; i < count_(p) && !s->forced; i++) {
        unsigned long long edges[2] = { t[i].minlen, t[i].maxlen + 1 };
        for (int e = 0; e < 2; e++) {
            unsigned long long x = edges[e];
            int b, k;
            if (x == 0 || (e == 1 && t[i].maxlen == ~0ULL)) continue;
            b = best_at(p, x);
            for (k = 0; k < s->nseg && s->from[k] < x; k++)
                ;
            if (k < s->nseg && s->from[k] == x) continue;
            if (s->nseg == MAXSEG) break;
            memmove(&s->from[k + 1], &s->from[k], (size_t)(s->nseg - k) * sizeof s->from[0]);
            memmove(&s->impl[k + 1], &s->impl[k], (size_t)(s->nseg - k) * sizeof s->impl[0]);
            s->from[k] = x;
            s->impl[k] = b;
            s->nseg++;
        }
    }
    /* a segment's implementation may have changed by a later insertion */
    for (i = 0; i < s->nseg && !s->forced; i++)
        s->impl[i] = best_at(p, s->from[i]);
}

static selection *selection_of(int p)
{
    static selection table[QHASM_MAXPRIMS];
    selection *s = &table[p];
    if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE)) {
        selection n;
        memset(&n, 0, sizeof n);
        choose(p, &n);
        n.ready = 1;
        *s = n;   /* a race writes the same value */
        __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
    }
    return s;
}

static int select_(int p, unsigned long long len)
{
    const selection *s = selection_of(p);
    int k = 0;
    if (s->forced) return s->forced - 1;
    while (k + 1 < s->nseg && s->from[k + 1] <= len) k++;
    return s->impl[k];
}

const qhasm_impl *qhasm_select(int p, unsigned long long len)
{
    return &qhasm_prims[p].impls[select_(p, len)];
}

int qhasm_select_segments(int p, unsigned long long *from, int *impl, int max)
{
    const selection *s = selection_of(p);
    int k;
    if (s->forced) { from[0] = 0; impl[0] = s->forced - 1; return 1; }
    for (k = 0; k < s->nseg && k < max; k++) { from[k] = s->from[k]; impl[k] = s->impl[k]; }
    return k;
}

const qhasm_impl *qhasm_impl_get(int p, int i)
{
    if (p < 0 || p >= qhasm_nprims || i < 0 || i >= count_(p)) return NULL;
    return &qhasm_prims[p].impls[i];
}

/* ---- the public implementation-control API (qhasm.h) --------------------- */
const char *qhasm_prim_name(int j)
{
    return j >= 0 && j < qhasm_nprims ? qhasm_prims[j].name : NULL;
}
int qhasm_impl_count(const char *prim)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 ? -1 : count_(p);
}

const char *qhasm_impl_name(const char *prim, int i)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 || i < 0 || i >= count_(p) ? NULL : name_(p, i);
}

const char *qhasm_impl_uarch(const char *prim, int i)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 || i < 0 || i >= count_(p) ? NULL : uarch_(p, i);
}

int qhasm_impl_find(const char *prim, const char *name)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 || !name ? -1 : find_(p, name, strlen(name));
}

int qhasm_impl_supported(const char *prim, int i)
{
    int p = qhasm_prim_lookup(prim);
    return p >= 0 && i >= 0 && i < count_(p) && supported_(p, i);
}

const char *qhasm_impl_missing(const char *prim, int i)
{
    static _Thread_local char buf[160];
    int p = qhasm_prim_lookup(prim), b;
    unsigned missing;
    if (p < 0 || i < 0 || i >= count_(p)) return "no such implementation";
    missing = features_(p, i) & ~qhasm_cpu_features();
    buf[0] = 0;
    if (!missing) return buf;
    strcpy(buf, "missing");
    for (b = 0; b < QHASM_CPU_NFEATURES; b++)
        if (missing & (1u << b)) {
            strcat(buf, " ");
            strcat(buf, qhasm_cpu_feature_name(1u << b));
        }
    return buf;
}

int qhasm_impl_selected(const char *prim)
{
    return qhasm_impl_selected_len(prim, 0);
}

int qhasm_impl_selected_len(const char *prim, unsigned long long len)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 ? -1 : select_(p, len);
}

const char *qhasm_impl_alias(const char *prim, int i)
{
    int p = qhasm_prim_lookup(prim);
    return p < 0 || i < 0 || i >= count_(p) ? NULL : qhasm_prims[p].impls[i].alias_of;
}

int qhasm_impl_force(const char *prim, int i)
{
    int p = qhasm_prim_lookup(prim);
    if (p < 0) return -1;
    selection *s = selection_of(p);
    if (i == -1) {
        __atomic_store_n(&s->ready, 0, __ATOMIC_RELEASE);
        return 0;
    }
    if (i < 0 || i >= count_(p) || !supported_(p, i)) return -1;
    s->forced = i + 1;
    return 0;
}
