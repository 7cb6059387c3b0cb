/* split.c: live-range splitting around loops.  A value live through a
 * loop that the loop never reads or writes (a pointer used only before
 * and after it) is copied into a new temporary before the loop and back
 * after it: the original is then not live in the loop, and the copy, with
 * no use inside, is what the allocator spills when registers run out
 * there (one store before the loop, one reload after), instead of the
 * value being spilled before and after the loop too.  The copies are
 * marked KSPLIT so that coalescing does not undo the split; colouring
 * still prefers one register for both sides (the copies then vanish).
 * Only loops entered by falling into their head from the block before
 * and left by falling out of their last block into a block nothing else
 * jumps to (the .q shape `L: ... goto L if ...`).
 * Needs: live.c (run here).  Provides: split copies, new temporaries. */
#include "all.h"

/* the block range [s, b] of a loop closed by b's branch back to s can
 * take copies on its entry and exit edges */
static int simpleloop(const Fn *fn, int s, int b, const int *npred)
{
	if (s == 0 || b + 1 >= fn->nblk || npred[b + 1] != 1 || npred[s] != 2)
		return 0;
	const Blk *pre = &fn->blk[s - 1];
	if (pre->succ[0] != s && pre->succ[1] != s)
		return 0;
	if (fn->blk[b].succ[0] != s || fn->blk[b].succ[1] != b + 1)
		return 0;
	for (int x = s; x <= b; x++)
		for (int k = 0; k < 2; k++) {
			int y = fn->blk[x].succ[k];
			if (y >= 0 && (y < s || y > b) && !(x == b && y == b + 1))
				return 0; /* another exit */
		}
	for (int x = s + 1; x <= b; x++)
		if (npred[x] != 1 || (fn->blk[x - 1].succ[0] != x && fn->blk[x - 1].succ[1] != x))
			return 0; /* entered from elsewhere */
	return 1;
}

static Ins *insert(Fn *fn, int b, int at, const MdLine *m)
{
	Blk *bl = &fn->blk[b];
	addins(fn, b, m); /* grows the block */
	memmove(&bl->ins[at + 1], &bl->ins[at], (bl->nins - 1 - at) * sizeof(Ins));
	Ins *x = &bl->ins[at];
	memset(x, 0, sizeof *x);
	x->md = m;
	for (int k = 0; k < MAXOP; k++)
		x->op[k].base = x->op[k].index = -1;
	return x;
}

/* is temporary v referenced by instruction y? */
static int refs(const Ins *y, int v)
{
	for (int k = 0; k < y->md->nop; k++) {
		const Opnd *o = &y->op[k];
		if ((o->kind == OTMP && o->tmp == v) || (o->kind == OMEM && (o->base == v || o->index == v)))
			return 1;
	}
	return 0;
}

static void renametmp(Ins *y, int v, int c)
{
	for (int k = 0; k < y->md->nop; k++) {
		Opnd *o = &y->op[k];
		if (o->kind == OTMP && o->tmp == v)
			o->tmp = c;
		if (o->kind == OMEM) {
			if (o->base == v)
				o->base = c;
			if (o->index == v)
				o->index = c;
		}
	}
}

static void copyat(Fn *fn, int b, int at, const MdLine *mv, int dst, int src)
{
	Blk *bl = &fn->blk[b];
	int stmt = at < bl->nins ? bl->ins[at].stmt : at ? bl->ins[at - 1].stmt : fn->blk[b + 1 < fn->nblk ? b + 1 : b].ins[0].stmt;
	Ins *y = insert(fn, b, at, mv);
	y->stmt = stmt;
	y->keep = KSPLIT;
	y->op[0] = (Opnd){.kind = OTMP, .tmp = dst, .base = -1, .index = -1};
	y->op[1] = (Opnd){.kind = OTMP, .tmp = src, .base = -1, .index = -1};
}

/* where the branch of block b (if any) is, else its end */
static int beforebranch(const Blk *bl)
{
	return bl->nins && (bl->ins[bl->nins - 1].md->attr & (AJUMP | ACJUMP)) ? bl->nins - 1 : bl->nins;
}

void split(Fn *fn, const Target *t)
{
	int *npred = xcalloc(fn->nblk + 1, sizeof(int));
	for (int b = 0; b < fn->nblk; b++)
		for (int k = 0; k < 2; k++)
			if (fn->blk[b].succ[k] >= 0)
				npred[fn->blk[b].succ[k]]++;
	int any = 0;
	for (int b = 0; b < fn->nblk && !any; b++)
		any = fn->blk[b].succ[0] >= 0 && fn->blk[b].succ[0] <= b && simpleloop(fn, fn->blk[b].succ[0], b, npred);
	if (!any) {
		free(npred);
		return;
	}
	live(fn);
	/* innermost loops first: a loop's pieces are then split again around
	 * an enclosing loop like any value */
	for (int b = 0; b < fn->nblk; b++) {
		int s = fn->blk[b].succ[0];
		if (s < 0 || s > b || !simpleloop(fn, s, b, npred))
			continue;
		int nt = fn->ntmp;
		char *used = xcalloc(nt + 1, 1);
		for (int x = s; x <= b; x++)
			for (int i = 0; i < fn->blk[x].nins; i++) {
				const Ins *y = &fn->blk[x].ins[i];
				for (int k = 0; k < y->md->nop; k++) {
					const Opnd *o = &y->op[k];
					if (o->kind == OTMP)
						used[o->tmp] = 1;
					if (o->kind == OMEM) {
						if (o->base >= 0)
							used[o->base] = 1;
						if (o->index >= 0)
							used[o->index] = 1;
					}
				}
			}
		for (int v = 0; v < nt; v++) {
			Tmp *x = &fn->tmp[v];
			int in = bshas(fn->blk[s].in, v), out = bshas(fn->blk[b + 1].in, v);
			if ((!in && !out) || (!used[v] && !(in && out)) || x->fixed != NOREG || x->nospill)
				continue;
			/* a value the loop uses is split only around an outermost
			 * loop: around an inner one, the copies would run in the
			 * enclosing loop, and its spills cost as much there (measured:
			 * the Salsa20 kernels, whose round loop runs in a block loop,
			 * gained nothing from it and lost a few instructions) */
			if (used[v] && fn->blk[s].depth > 1)
				continue;
			const MdLine *mv = findmove(t, fn, x->type, MVREG);
			if (mv->def)
				continue; /* a copy must leave the flags alone */
			int c = newtmp(fn, x->var, x->type, x->file);
			fn->tmp[c].mask = fn->tmp[v].mask;
			if (used[v])
				for (int y = s; y <= b; y++)
					for (int i = 0; i < fn->blk[y].nins; i++)
						renametmp(&fn->blk[y].ins[i], v, c);
			Blk *pre = &fn->blk[s - 1], *post = &fn->blk[b + 1];
			if (!used[v]) {
				/* not in the loop: copy out right after the last use
				 * before it (or where the block before starts), back in
				 * right before the first use after it (or where the
				 * block after ends), to free its register the longest */
				int at = 0;
				for (int i = beforebranch(pre) - 1; i >= 0 && !at; i--)
					if (refs(&pre->ins[i], v))
						at = i + 1;
				copyat(fn, s - 1, at, mv, c, v);
				int at2 = beforebranch(post);
				for (int i = 0; i < beforebranch(post); i++)
					if (refs(&post->ins[i], v)) {
						at2 = i;
						break;
					}
				copyat(fn, b + 1, at2, mv, v, c);
				continue;
			}
			if (in)
				copyat(fn, s - 1, beforebranch(pre), mv, c, v);
			if (out)
				copyat(fn, b + 1, 0, mv, v, c);
		}
		free(used);
		/* the copies changed what is live at the outer loops' edges */
		live(fn);
	}
	free(npred);
}
