/* live.c: liveness of temporaries over the control-flow graph (backward
 * dataflow on bitsets, iterated to a fixed point), loop depths for spill
 * costs, and the check that no variable is read before it is written on
 * some path from the function's entry.  Needs: select.c.
 * Provides: Blk.in, Blk.out, Blk.depth. */
#include "all.h"

/* Loop depth: a branch to an earlier block closes a loop over the blocks
 * in between (the .q source is laid out in order). */
void loopdepth(Fn *fn)
{
	for (int b = 0; b < fn->nblk; b++)
		fn->blk[b].depth = 0;
	for (int b = 0; b < fn->nblk; b++)
		for (int k = 0; k < 2; k++) {
			int s = fn->blk[b].succ[k];
			if (s >= 0 && s <= b)
				for (int x = s; x <= b; x++)
					fn->blk[x].depth++;
		}
}

static void usedef(Blk *b, u64 *gen, u64 *kill)
{
	for (int i = b->nins - 1; i >= 0; i--) {
		Ins *x = &b->ins[i];
		for (int k = 0; k < x->md->nop; k++)
			if (opwrites(x, k)) {
				bsset(kill, x->op[k].tmp);
				bsclr(gen, x->op[k].tmp);
			}
		for (int k = 0; k < x->md->nop; k++) {
			if (opreads(x, k))
				bsset(gen, x->op[k].tmp);
			if (x->op[k].kind == OMEM) {
				if (x->op[k].base >= 0)
					bsset(gen, x->op[k].base);
				if (x->op[k].index >= 0)
					bsset(gen, x->op[k].index);
			}
		}
	}
}

/* report the first read of a variable that may be uninitialised */
static void uninit(Fn *fn, int t)
{
	for (int b = 0; b < fn->nblk; b++) {
		Blk *bl = &fn->blk[b];
		if (!bshas(bl->in, t))
			continue;
		for (int i = 0; i < bl->nins; i++) {
			Ins *x = &bl->ins[i];
			for (int k = 0; k < x->md->nop; k++)
				if (opreads(x, k) && x->op[k].tmp == t) {
					err(fn->spos[x->stmt], "'%s' may be used before it is given a value", vars[fn->tmp[t].var].name);
				} else if (x->op[k].kind == OMEM && (x->op[k].base == t || x->op[k].index == t)) {
					err(fn->spos[x->stmt], "'%s' may be used before it is given a value", vars[fn->tmp[t].var].name);
				}
		}
	}
	die("uninitialised temporary %d not found", t);
}

void live(Fn *fn)
{
	int n = fn->ntmp, w = bswords(n);
	/* gen and kill are freed on return: live() runs once per loop in
	 * split(), and the function's arena would keep every copy */
	u64 **gen = xcalloc(fn->nblk, sizeof *gen), **kill = xcalloc(fn->nblk, sizeof *kill);
	for (int b = 0; b < fn->nblk; b++) {
		Blk *bl = &fn->blk[b];
		gen[b] = xcalloc(w, sizeof(u64));
		kill[b] = xcalloc(w, sizeof(u64));
		bl->in = bsnew(n);
		bl->out = bsnew(n);
		usedef(bl, gen[b], kill[b]);
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (int b = fn->nblk - 1; b >= 0; b--) {
			Blk *bl = &fn->blk[b];
			for (int k = 0; k < 2; k++)
				if (bl->succ[k] >= 0)
					for (int j = 0; j < w; j++)
						bl->out[j] |= fn->blk[bl->succ[k]].in[j];
			for (int j = 0; j < w; j++) {
				u64 v = gen[b][j] | (bl->out[j] & ~kill[b][j]);
				if (v != bl->in[j]) {
					bl->in[j] = v;
					changed = 1;
				}
			}
		}
	}
	for (int b = 0; b < fn->nblk; b++) {
		free(gen[b]);
		free(kill[b]);
	}
	free(gen);
	free(kill);
	if (fn->round == 0)
		for (int t = 0; t < n; t++)
			if (bshas(fn->blk[0].in, t)) {
				if (fn->tmp[t].var < 0)
					die("compiler temporary %d live at entry", t);
				if (!undefok)
					uninit(fn, t);
			}
}
