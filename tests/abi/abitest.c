/* tests/abi/abitest.c: self-test of the ABI checker (csrc/abicheck.c):
 * a correct kernel must pass and each deliberately broken kernel of
 * tests/abi/broken.asm must be reported with the right violation.
 * Run by tests/sh/abicheck.sh.  Prints one line per kernel; exit 0 if
 * every verdict is the expected one. */
#include <stdio.h>
#include <string.h>
#include "abicheck.h"

typedef void voidfn(void);
extern voidfn abi_good, abi_good_avx, abi_clobber_r12, abi_clobber_rbx_rbp, abi_bad_rsp,
    abi_stack_write, abi_set_df, abi_mxcsr, abi_dirty_ymm;

static int has_avx(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx");
}

int main(void)
{
    static const struct { const char *name; voidfn *fn; const char *want; int avx; } k[] = {
        { "abi_good", abi_good, NULL, 0 },
        { "abi_good_avx", abi_good_avx, NULL, 1 },
        { "abi_clobber_r12", abi_clobber_r12, "callee-saved r12 not preserved", 0 },
        { "abi_clobber_rbx_rbp", abi_clobber_rbx_rbp, "callee-saved rbp not preserved", 0 },
        { "abi_bad_rsp", abi_bad_rsp, "rsp not restored", 0 },
        { "abi_stack_write", abi_stack_write, "wrote to the caller's stack", 0 },
        { "abi_set_df", abi_set_df, "direction flag set", 0 },
        { "abi_mxcsr", abi_mxcsr, "MXCSR changed", 0 },
        { "abi_dirty_ymm", abi_dirty_ymm, "dirty upper YMM state", 1 },
    };
    const uint64_t args[6] = { 1000, 200, 30, 4, 5, 6 };
    int bad = 0;
    size_t i;
    if (!qhasm_abicheck_abi()) { printf("abitest: %s\n", qhasm_abicheck_coverage()); return 77; }
    printf("abitest: %s: %s\n", qhasm_abicheck_abi(), qhasm_abicheck_coverage());
    for (i = 0; i < sizeof k / sizeof k[0]; i++) {
        char why[1024];
        uint64_t ret = 0;
        int r, rep;
        if (k[i].avx && !has_avx()) { printf("%-20s skipped (no AVX)\n", k[i].name); continue; }
        if (k[i].want && !strcmp(k[i].want, "dirty upper YMM state") && strstr(qhasm_abicheck_coverage(), "check off")) {
            printf("%-20s skipped (%s)\n", k[i].name, qhasm_abicheck_coverage());
            continue;
        }
        for (rep = 0; rep < 3; rep++) {      /* fresh random register values each time */
            r = qhasm_abicheck_call(k[i].fn, k[i].fn == abi_good ? 6 : 2, args, &ret, why, sizeof why);
            if (k[i].want == NULL) {
                uint64_t want = k[i].fn == abi_good ? 1245 : 1200;
                if (r != 0 || ret != want) {
                    printf("%-20s FAIL: correct kernel rejected or wrong result %llu: %s\n", k[i].name,
                           (unsigned long long)ret, why);
                    bad = 1;
                    break;
                }
            } else if (r != -1 || !strstr(why, k[i].want)) {
                printf("%-20s FAIL: expected '%s', checker said %d '%s'\n", k[i].name, k[i].want, r, why);
                bad = 1;
                break;
            } else if (ret != 1200) {
                printf("%-20s FAIL: return value %llu, expected 1200\n", k[i].name, (unsigned long long)ret);
                bad = 1;
                break;
            }
        }
        if (rep == 3) printf("%-20s ok: %s\n", k[i].name, k[i].want ? why : "passes");
    }
    printf("abitest: %lu calls through the trampoline\n", qhasm_abicheck_count());
    return bad;
}
