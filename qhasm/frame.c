/* frame.c: lays out a function's stack frame: the user's stack variables
 * that the function uses and the spill slots, biggest alignment first,
 * then lets the target place callee-saved registers and align the stack
 * pointer for its ABI.  Needs: alloc.c.  Provides: Fn.varoff, slot
 * offsets, Fn.framesize (and the target's prologue/epilogue data). */
#include "all.h"

void frame(Fn *fn, const Target *t)
{
	fn->varoff = alloc(nvars * sizeof(int));
	for (int v = 0; v < nvars; v++)
		fn->varoff[v] = -1;
	for (int b = 0; b < fn->nblk; b++)
		for (int i = 0; i < fn->blk[b].nins; i++) {
			Ins *x = &fn->blk[b].ins[i];
			for (int k = 0; k < x->md->nop; k++)
				if (x->op[k].kind == OMEM && x->op[k].mkind == MBSTACK)
					fn->varoff[x->op[k].obj] = 0;
		}
	int off = 0;
	for (int a = 64; a >= 1; a /= 2) {
		for (int v = 0; v < nvars; v++)
			if (fn->varoff[v] == 0 && vars[v].align == a) {
				/* mark placed with offset + 1 to tell 0 from unplaced */
				off = (off + a - 1) & -a;
				fn->varoff[v] = off + 1;
				off += typebits(vars[v].type) / 8 * vars[v].count;
			}
		for (int s = 0; s < fn->nslot; s++)
			if (fn->slot[s].align == a) {
				off = (off + a - 1) & -a;
				fn->slot[s].off = off;
				off += fn->slot[s].size;
			}
	}
	for (int v = 0; v < nvars; v++)
		if (fn->varoff[v] > 0)
			fn->varoff[v]--;
	fn->framesize = off;
	t->layout(fn);
}
