/* split.c: live-range splitting around loops.  A value live through a
 * loop that the loop never reads or writes (a pointer used only before
 * and after it) is copied into a new temporary before the loop and back
 * after it: the original is then not live in the loop, and the copy, with
 * no use inside, is what the allocator spills when registers run out
 * there (one store before the loop, one reload after), instead of the
 * value being spilled before and after the loop too.  Only where the loop
 * needs the registers: its pressure plus its pinned registers exceed the
 * file (else the copies buy nothing, and stay where the colouring gives
 * the two pieces different registers).  The copies are marked KSPLIT so
 * that coalescing does not undo the split; colouring still prefers one
 * register for both sides (the copies then vanish).
 * Only loops entered by falling into their head from the block before
 * and left by falling out of their last block into a block nothing else
 * jumps to (the .q shape `L: ... goto L if ...`).
 * Then, inside such a loop of one block, the values of a register file
 * that outnumber its registers are split by furthest next use (Belady;
 * see "inside a straight-line loop body" below): pieces in memory (Tmp.inmem,
 * a slot) that alloc.c spills without colouring.
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
	GROW(bl->ins, bl->nins, bl->cap);
	memmove(&bl->ins[at + 1], &bl->ins[at], (bl->nins - at) * sizeof(Ins));
	bl->nins++;
	Ins *x = &bl->ins[at];
	*x = (Ins){.md = m, .op = newops(m->nop)};
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

static int bodies(Fn *fn, const Target *t, const int *npred);

static int fileof(const Fn *fn, int v)
{
	int f = fn->tmp[v].file;
	if (f < 0 || f >= MAXFILE)
		die("temporary %d in no register file", v);
	return f;
}

/* the most values of each register file live at once in blocks [s, b]
 * (a result that dies at once and the scratch operands count too) */
static void pressure(const Fn *fn, int s, int b, int *press)
{
	int w = bswords(fn->ntmp);
	u64 *l = xmalloc((w + 1) * sizeof(u64));
	for (int f = 0; f < MAXFILE; f++)
		press[f] = 0;
	for (int x = s; x <= b; x++) {
		const Blk *bl = &fn->blk[x];
		int cnt[MAXFILE] = {0};
		memcpy(l, bl->out, w * sizeof(u64));
		for (int v = 0; v < fn->ntmp; v++)
			if (bshas(l, v))
				cnt[fileof(fn, v)]++;
		for (int i = bl->nins - 1; i >= 0; i--) {
			const Ins *y = &bl->ins[i];
			int here[MAXFILE];
			memcpy(here, cnt, sizeof here);
			for (int k = 0; k < y->md->nop; k++) {
				const Opnd *o = &y->op[k];
				if (o->kind == OTMP && (y->md->op[k].acc & (AW | ASCR)) && !bshas(l, o->tmp))
					here[fileof(fn, o->tmp)]++;
			}
			for (int k = 0; k < y->md->nop; k++)
				if (opwrites(y, k) && !opreads(y, k) && bshas(l, y->op[k].tmp)) {
					bsclr(l, y->op[k].tmp);
					cnt[fileof(fn, y->op[k].tmp)]--;
				}
			for (int k = 0; k < y->md->nop; k++) {
				const Opnd *o = &y->op[k];
				int r[3] = {opreads(y, k) ? o->tmp : -1, o->kind == OMEM ? o->base : -1, o->kind == OMEM ? o->index : -1};
				for (int j = 0; j < 3; j++)
					if (r[j] >= 0 && !bshas(l, r[j])) {
						bsset(l, r[j]);
						cnt[fileof(fn, r[j])]++;
					}
			}
			for (int f = 0; f < MAXFILE; f++) {
				if (here[f] > press[f])
					press[f] = here[f];
				if (cnt[f] > press[f])
					press[f] = cnt[f];
			}
		}
	}
	free(l);
}

int split(Fn *fn, const Target *t, int inbody)
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
		return 0;
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
		/* where the loop's values fit in the registers, a split buys
		 * nothing and its copies cost (measured: the Benes network's
		 * nested loops, where v and cb changed registers around every
		 * inner loop: 228 moves against 160 unsplit) */
		int press[MAXFILE], fits[MAXFILE];
		u64 pinned[MAXFILE] = {0};
		pressure(fn, s, b, press);
		for (int v = 0; v < nt; v++)
			if (used[v] && fn->tmp[v].fixed != NOREG)
				pinned[fileof(fn, v)] |= 1ull << fn->tmp[v].fixed;
		for (int f = 0; f < MAXFILE; f++)
			fits[f] = press[f] + popcnt(pinned[f]) <= popcnt(filemask(f, fn->ext));
		for (int v = 0; v < nt; v++) {
			Tmp *x = &fn->tmp[v];
			int in = bshas(fn->blk[s].in, v), out = bshas(fn->blk[b + 1].in, v);
			if ((!in && !out) || (!used[v] && !(in && out)) || x->fixed != NOREG || x->nospill || fits[x->file])
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
	int n = inbody ? bodies(fn, t, npred) : 0;
	free(npred);
	return n;
}

/* ---- inside a straight-line loop body: evictions by furthest next use ----
 * Where more values of a register file are live in the body of a
 * one-block loop than the file has registers, the values in registers are
 * simulated along the body (Belady): a read of a value in memory reloads
 * it just before the read, and when an instruction needs more registers
 * than there are, the value whose next read is furthest (past the back
 * edge: its first read in the next iteration) goes to memory right after
 * its last reference.  The memory pieces are new temporaries with a slot
 * (one slot per value; alloc.c spills them without colouring), joined to
 * the register pieces by split copies: a store where the register piece
 * was written since its reload, none where the slot still holds the value.
 * The set of values in memory across the back edge is iterated to a fixed
 * point (a few passes); what still differs is mended before the branch. */

typedef struct Ref { int v, acc, die; } Ref;

typedef struct Body {
	Fn *fn;
	int b, n, nt, K;
	int *rstart; Ref *ref;   /* per instruction, its references of the file (CSR) */
	int *pstart, *pos;       /* per temporary, its read positions (CSR) */
	char *livein, *liveout;  /* at the head (the back edge), at the exit */
	char *refd;              /* referenced in the body */
	int *ev, nev, *rl, nrl;  /* evictions (v, at) and reloads (v, at) */
	char *st;                /* per temporary: 0 dead, 1 in a register, 2 in memory */
	int *rp, *last;          /* next read index, last reference */
} Body;

/* the next read of v at or after instruction i, past the back edge if none */
static int nextread(const Body *d, int v, int i)
{
	int *p = d->pos + d->pstart[v], np = d->pstart[v + 1] - d->pstart[v];
	for (int k = d->rp[v]; k < np; k++)
		if (p[k] >= i)
			return p[k];
	if (d->livein[v] && np)
		return d->n + p[0];
	return 3 * d->n;
}

typedef struct MEnt { int key, v; } MEnt;

static void mpush(MEnt **h, int *nh, int *ch, int key, int v)
{
	if (*nh == *ch)
		*h = xrealloc(*h, (*ch = *ch ? 2 * *ch : 64) * sizeof **h);
	int i = (*nh)++;
	(*h)[i] = (MEnt){key, v};
	while (i && ((*h)[(i - 1) / 2].key < (*h)[i].key || ((*h)[(i - 1) / 2].key == (*h)[i].key && (*h)[(i - 1) / 2].v > (*h)[i].v))) {
		MEnt t = (*h)[i];
		(*h)[i] = (*h)[(i - 1) / 2];
		(*h)[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static MEnt mpop(MEnt *h, int *nh)
{
	MEnt top = h[0];
	h[0] = h[--*nh];
	for (int i = 0;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < *nh && (h[l].key > h[m].key || (h[l].key == h[m].key && h[l].v < h[m].v)))
			m = l;
		if (r < *nh && (h[r].key > h[m].key || (h[r].key == h[m].key && h[r].v < h[m].v)))
			m = r;
		if (m == i)
			break;
		MEnt t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
	return top;
}

/* can v go to memory?  (a fixed or unspillable one cannot; nor one
 * whose copy would touch the flags) */
static int evictable(Fn *fn, const Target *t, int v)
{
	return fn->tmp[v].fixed == NOREG && !fn->tmp[v].nospill && !findmove(t, fn, fn->tmp[v].type, MVREG)->def;
}

/* one simulation of the body with the values m0 in memory at its head;
 * returns 1 if the values in memory at its end (across the back edge) are m0 */
static int simulate(Body *d, const Target *t, char *m0)
{
	Fn *fn = d->fn;
	int nR = 0, nh = 0, ch = 0;
	MEnt *h = NULL;
	d->nev = d->nrl = 0;
	for (int v = 0; v < d->nt; v++) {
		/* one the body never references is left to the split around
		 * the loop (or to the colouring): counted as in memory */
		d->st[v] = d->livein[v] ? (!d->refd[v] ? 3 : m0[v] ? 2 : 1) : 0;
		d->rp[v] = 0;
		d->last[v] = -1;
		if (d->st[v] == 1) {
			nR++;
			mpush(&h, &nh, &ch, nextread(d, v, 0), v);
		}
	}
	const Blk *bl = &fn->blk[d->b];
	for (int i = 0; i < d->n; i++) {
		Ref *r = d->ref + d->rstart[i];
		int nr = d->rstart[i + 1] - d->rstart[i], ndef = 0, nscr = 0, ndie = 0;
		for (int k = 0; k < nr; k++) {
			int v = r[k].v;
			if (r[k].acc == ASCR) {
				nscr++;
				continue;
			}
			if ((r[k].acc & AR) && d->st[v] == 2) {
				d->rl[2 * d->nrl] = v;
				d->rl[2 * d->nrl++ + 1] = i;
				d->st[v] = 1;
				nR++;
			}
		}
		for (int k = 0; k < nr; k++) {
			int v = r[k].v;
			if (r[k].acc == AW && d->st[v] != 1) {
				int dup = 0;
				for (int j = 0; j < k; j++)
					dup |= r[j].v == v && r[j].acc != ASCR;
				if (!dup)
					ndef++;
			}
			if ((r[k].acc & AR) && r[k].die)
				ndie++;
		}
		/* a single instruction's result may take a dying operand's register */
		int multi = bl->ins[i].md->multi;
		int need = nR + nscr + ndef - (multi ? 0 : (ndie < ndef ? ndie : ndef));
		if (need < nR + nscr)
			need = nR + nscr;
		MEnt keep[2 * MAXOP];
		int nkeep = 0;
		while (need > d->K && nh) {
			MEnt e = mpop(h, &nh);
			int v = e.v;
			if (d->st[v] != 1 || e.key != nextread(d, v, i))
				continue;
			int used = 0;
			for (int k = 0; k < nr; k++)
				used |= r[k].v == v;
			if (used || !evictable(fn, t, v)) {
				if (nkeep < 2 * MAXOP && used)
					keep[nkeep++] = e;
				continue;
			}
			d->ev[2 * d->nev] = v;
			d->ev[2 * d->nev++ + 1] = d->last[v] + 1;
			d->st[v] = 2;
			nR--;
			need--;
		}
		for (int k = 0; k < nkeep; k++)
			mpush(&h, &nh, &ch, keep[k].key, keep[k].v);
		for (int k = 0; k < nr; k++) {
			int v = r[k].v;
			if (r[k].acc == ASCR)
				continue;
			if ((r[k].acc & AW) && d->st[v] == 0) {
				d->st[v] = 1;
				nR++;
			}
			if (d->st[v] == 2 && r[k].acc == AW) {
				d->st[v] = 1; /* redefined: the old value is dead */
				nR++;
			}
			d->last[v] = i;
		}
		for (int k = 0; k < nr; k++) {
			int v = r[k].v;
			if (r[k].acc == ASCR || d->st[v] != 1)
				continue;
			int np = d->pstart[v + 1] - d->pstart[v];
			while (d->rp[v] < np && d->pos[d->pstart[v] + d->rp[v]] <= i)
				d->rp[v]++;
			if (r[k].die) {
				d->st[v] = 0;
				nR--;
			} else
				mpush(&h, &nh, &ch, nextread(d, v, i + 1), v);
		}
	}
	free(h);
	int same = 1;
	for (int v = 0; v < d->nt; v++) {
		char m = d->livein[v] && d->st[v] == 2;
		same &= m == m0[v];
		m0[v] = m;
	}
	return same;
}

static void mkcopy(Ins *y, const MdLine *mv, int dst, int src, int stmt)
{
	*y = (Ins){.md = mv, .op = newops(mv->nop)};
	y->stmt = stmt;
	y->keep = KSPLIT;
	y->op[0] = (Opnd){.kind = OTMP, .tmp = dst, .base = -1, .index = -1};
	y->op[1] = (Opnd){.kind = OTMP, .tmp = src, .base = -1, .index = -1};
}

static int piece(Fn *fn, int v, int slot)
{
	int c = newtmp(fn, fn->tmp[v].var, fn->tmp[v].type, fn->tmp[v].file);
	fn->tmp[c].mask = fn->tmp[v].mask;
	fn->tmp[c].slot = slot;
	fn->tmp[c].inmem = slot >= 0;
	return c;
}

/* the references of file f in block b, their deaths, and the reads per temporary */
static void collect(Body *d, int f)
{
	Fn *fn = d->fn;
	Blk *bl = &fn->blk[d->b];
	int cap = 64, nref = 0;
	d->rstart = xmalloc((d->n + 1) * sizeof(int));
	d->ref = xmalloc(cap * sizeof(Ref));
	d->pstart = xcalloc(d->nt + 2, sizeof(int));
	for (int i = 0; i < d->n; i++) {
		d->rstart[i] = nref;
		const Ins *x = &bl->ins[i];
		for (int k = 0; k < x->md->nop; k++) {
			const Opnd *o = &x->op[k];
			int vs[2], acc[2], nv = 0;
			if (o->kind == OTMP) {
				vs[nv] = o->tmp;
				acc[nv++] = x->md->op[k].acc & (AR | AW | ASCR);
			} else if (o->kind == OMEM) {
				if (o->base >= 0) { vs[nv] = o->base; acc[nv++] = AR; }
				if (o->index >= 0) { vs[nv] = o->index; acc[nv++] = AR; }
			}
			for (int j = 0; j < nv; j++) {
				if (!acc[j] || fn->tmp[vs[j]].file != f)
					continue;
				if (nref == cap)
					d->ref = xrealloc(d->ref, (cap *= 2) * sizeof(Ref));
				d->ref[nref++] = (Ref){vs[j], acc[j] == ASCR ? ASCR : acc[j], 0};
				d->refd[vs[j]] = 1;
				if (acc[j] & AR && acc[j] != ASCR)
					d->pstart[vs[j] + 1]++;
			}
		}
	}
	d->rstart[d->n] = nref;
	for (int v = 0; v < d->nt; v++)
		d->pstart[v + 1] += d->pstart[v];
	d->pos = xmalloc((d->pstart[d->nt] + 1) * sizeof(int));
	int *fill = xmalloc((d->nt + 1) * sizeof(int));
	memcpy(fill, d->pstart, d->nt * sizeof(int));
	for (int i = 0; i < d->n; i++)
		for (int k = d->rstart[i]; k < d->rstart[i + 1]; k++)
			if ((d->ref[k].acc & AR) && d->ref[k].acc != ASCR) {
				int v = d->ref[k].v;
				if (fill[v] == d->pstart[v] || d->pos[fill[v] - 1] != i)
					d->pos[fill[v]++] = i;
			}
	/* deaths: backward from what is live at the end */
	char *lv = xcalloc(d->nt + 1, 1);
	for (int v = 0; v < d->nt; v++)
		lv[v] = d->livein[v] || d->liveout[v];
	for (int i = d->n - 1; i >= 0; i--) {
		Ref *r = d->ref + d->rstart[i];
		int nr = d->rstart[i + 1] - d->rstart[i];
		for (int k = 0; k < nr; k++)
			r[k].die = r[k].acc != ASCR && !lv[r[k].v];
		for (int k = 0; k < nr; k++)
			if (r[k].acc == AW)
				lv[r[k].v] = 0;
		for (int k = 0; k < nr; k++)
			if ((r[k].acc & AR) && r[k].acc != ASCR)
				lv[r[k].v] = 1;
	}
	free(lv);
	/* the read positions of a temporary with duplicates in one
	 * instruction leave gaps: compact them into the CSR */
	int *np = xmalloc((d->nt + 2) * sizeof(int)), acc = 0;
	for (int v = 0; v < d->nt; v++) {
		int n = fill[v] - d->pstart[v];
		memmove(d->pos + acc, d->pos + d->pstart[v], n * sizeof(int));
		np[v] = acc;
		acc += n;
	}
	np[d->nt] = acc;
	free(d->pstart);
	d->pstart = np;
	free(fill);
}

/* rewrite the body by the last simulation: m0 in memory at the head */
static void rewrite(Body *d, const Target *t, const char *m0)
{
	Fn *fn = d->fn;
	int nt = d->nt, b = d->b;
	int *cur = xmalloc(nt * sizeof(int)), *mem = xmalloc(nt * sizeof(int)), *slot = xmalloc(nt * sizeof(int));
	int *head = xmalloc(nt * sizeof(int));
	char *inm = xcalloc(nt, 1), *dirty = xcalloc(nt, 1), *inv = xcalloc(nt, 1);
	for (int k = 0; k < d->nev; k++)
		inv[d->ev[2 * k]] = 1;
	for (int v = 0; v < nt; v++) {
		inv[v] |= m0[v];
		cur[v] = head[v] = v;
		mem[v] = slot[v] = -1;
		if (inv[v]) {
			slot[v] = fnslot(fn, typebits(fn->tmp[v].type) / 8);
			dirty[v] = 1;
			if (m0[v]) {
				cur[v] = mem[v] = head[v] = piece(fn, v, slot[v]);
				inm[v] = 1;
				dirty[v] = 0;
			}
		}
	}
	/* events by position */
	int *es = xcalloc(d->n + 2, sizeof(int)), *rs = xcalloc(d->n + 2, sizeof(int));
	for (int k = 0; k < d->nev; k++)
		es[d->ev[2 * k + 1] + 1]++;
	for (int k = 0; k < d->nrl; k++)
		rs[d->rl[2 * k + 1] + 1]++;
	for (int i = 0; i <= d->n; i++) {
		es[i + 1] += es[i];
		rs[i + 1] += rs[i];
	}
	int *el = xmalloc((d->nev + 1) * sizeof(int)), *rlv = xmalloc((d->nrl + 1) * sizeof(int));
	int *ef = xmalloc((d->n + 2) * sizeof(int)), *rf = xmalloc((d->n + 2) * sizeof(int));
	memcpy(ef, es, (d->n + 2) * sizeof(int));
	memcpy(rf, rs, (d->n + 2) * sizeof(int));
	for (int k = 0; k < d->nev; k++)
		el[ef[d->ev[2 * k + 1]]++] = d->ev[2 * k];
	for (int k = 0; k < d->nrl; k++)
		rlv[rf[d->rl[2 * k + 1]]++] = d->rl[2 * k];
	Blk *bl = &fn->blk[b];
	Ins *old = bl->ins;
	int nold = bl->nins, nout = 0, cap = nold + 2 * (d->nev + d->nrl) + 2 * nt + 8;
	Ins *out = xmalloc(cap * sizeof(Ins));
	for (int i = 0; i <= nold; i++) {
		int isbr = i < nold && i == nold - 1 && (old[i].md->attr & (AJUMP | ACJUMP));
		int stmt = i < nold ? old[i].stmt : nold ? old[nold - 1].stmt : -1;
		if (i < nold)
			for (int k = es[i]; k < es[i + 1]; k++) {
				int v = el[k];
				if (!dirty[v] && mem[v] >= 0) {
					cur[v] = mem[v];
				} else {
					int m = piece(fn, v, slot[v]);
					mkcopy(&out[nout++], findmove(t, fn, fn->tmp[v].type, MVREG), m, cur[v], stmt);
					cur[v] = mem[v] = m;
				}
				inm[v] = 1;
				dirty[v] = 0;
			}
		if (i < nold)
			for (int k = rs[i]; k < rs[i + 1]; k++) {
				int v = rlv[k];
				int r = piece(fn, v, -1);
				mkcopy(&out[nout++], findmove(t, fn, fn->tmp[v].type, MVREG), r, mem[v], stmt);
				cur[v] = r;
				inm[v] = 0;
			}
		if (i == nold || isbr) {
			/* the back edge: each value where the head has it */
			for (int v = 0; v < nt; v++) {
				if (!inv[v] || !(d->livein[v] || d->liveout[v]))
					continue;
				if (!d->livein[v]) {
					/* live at the exit only: there as v */
					if (inm[v])
						mkcopy(&out[nout++], findmove(t, fn, fn->tmp[v].type, MVREG), v, cur[v], stmt);
					else if (cur[v] != v)
						mkcopy(&out[nout++], findmove(t, fn, fn->tmp[v].type, MVREG), v, cur[v], stmt);
					continue;
				}
				int hv = head[v];
				if (m0[v]) {
					if (!inm[v] && (dirty[v] || mem[v] < 0))
						mkcopy(&out[nout++], findmove(t, fn, fn->tmp[v].type, MVREG), hv, cur[v], stmt);
					else if (mem[v] != hv)
						mkcopy(&out[nout++], findmove(t, fn, fn->tmp[v].type, MVREG), hv, mem[v], stmt);
				} else if (cur[v] != hv) {
					mkcopy(&out[nout++], findmove(t, fn, fn->tmp[v].type, MVREG), hv, cur[v], stmt);
					if (!inm[v])
						out[nout - 1].keep = 0; /* register to register: coalesced */
				}
			}
		}
		if (i == nold)
			break;
		Ins x = old[i];
		for (int k = 0; k < x.md->nop; k++) {
			Opnd *o = &x.op[k];
			if (o->kind == OTMP && o->tmp < nt && inv[o->tmp]) {
				int v = o->tmp, acc = x.md->op[k].acc;
				if (acc == AW && inm[v]) {
					/* redefined while in memory: a new register piece */
					int only = 1;
					for (int j = 0; j < x.md->nop; j++)
						if (j != k && x.op[j].kind == OTMP && x.op[j].tmp == v && (x.md->op[j].acc & AR))
							only = 0;
					if (only) {
						cur[v] = piece(fn, v, -1);
						inm[v] = 0;
					}
				}
				if ((acc & AR) && inm[v])
					die("split: %s reads a value in memory", fn->name);
				if (acc & (AR | AW))
					o->tmp = cur[v];
				if (acc & AW)
					dirty[v] = 1;
			} else if (o->kind == OMEM) {
				if (o->base >= 0 && o->base < nt && inv[o->base])
					o->base = cur[o->base];
				if (o->index >= 0 && o->index < nt && inv[o->index])
					o->index = cur[o->index];
			}
		}
		out[nout++] = x;
	}
	if (nout > cap)
		die("split: %s: body outgrew its array", fn->name);
	free(old);
	bl->ins = out;
	bl->nins = bl->cap = nout;
	/* the entry and exit edges of the values in memory at the head */
	for (int v = 0; v < nt; v++)
		if (m0[v]) {
			const MdLine *mv = findmove(t, fn, fn->tmp[v].type, MVREG);
			copyat(fn, b - 1, beforebranch(&fn->blk[b - 1]), mv, head[v], v);
			if (d->liveout[v])
				copyat(fn, b + 1, 0, mv, v, head[v]);
		}
	free(cur); free(mem); free(slot); free(head); free(inm); free(dirty); free(inv);
	free(es); free(rs); free(el); free(rlv); free(ef); free(rf);
}

/* is v referenced by one instruction of the body (a loop counter)? */
static int onlyref(const Body *d, int v)
{
	int at = -1;
	for (int i = 0; i < d->n; i++)
		for (int k = d->rstart[i]; k < d->rstart[i + 1]; k++)
			if (d->ref[k].v == v) {
				if (at >= 0 && at != i)
					return 0;
				at = i;
			}
	return 1;
}

/* A value in a register at the head that is evicted before the body
 * references it (at position 0) is in memory at the head instead: its
 * store moves to the back edge (made there only if the body wrote it) and
 * to the entry edge, and it no longer holds a register across the back
 * edge.  Held there, it was live through the block before the loop, whose
 * colouring then spilled it whole (the ChaCha counter: a load and a store
 * more per iteration).  Only for a value one instruction of the body
 * references (a loop counter): done for any value, it cost the integer
 * Salsa20 double round a register copy at the back edge (111 instructions
 * instead of 110), for fewer spills in the enclosing block loop. */
static void headevictions(Body *d, char *m0)
{
	int n = 0;
	for (int k = 0; k < d->nev; k++) {
		int v = d->ev[2 * k];
		if (d->ev[2 * k + 1] == 0 && d->livein[v] && !m0[v] && onlyref(d, v)) {
			int first = 1; /* the first eviction of v */
			for (int j = 0; j < k; j++)
				first &= d->ev[2 * j] != v;
			if (first) {
				m0[v] = 1;
				continue;
			}
		}
		d->ev[2 * n] = v;
		d->ev[2 * n++ + 1] = d->ev[2 * k + 1];
	}
	d->nev = n;
}

/* Loop counters updated in memory: a value live around the body that one
 * instruction references, through one operand of which the machine
 * description has a memory form (mdmemform: `sub qword [slot], 1`), takes
 * no register in the body at all when registers run short there: it is
 * left out of the simulation (as a value the body never references) and
 * then lives in a memory piece, stored on the entry edge and reloaded on
 * the exit edge; alloc.c folds the piece's slot into the instruction.
 * Marks them in res (the instruction's index in res as 1 + i); returns
 * how many. */
static int residents(Body *d, const Target *t, int *res)
{
	Fn *fn = d->fn;
	int n = 0;
	for (int v = 0; v < d->nt; v++) {
		res[v] = 0;
		if (!d->livein[v] || !d->refd[v] || !onlyref(d, v) || !evictable(fn, t, v))
			continue;
		int at = -1;
		for (int i = 0; i < d->n && at < 0; i++)
			for (int k = d->rstart[i]; k < d->rstart[i + 1]; k++)
				if (d->ref[k].v == v)
					at = i;
		const Ins *x = &fn->blk[d->b].ins[at];
		int kk = -1, other = 0, k2;
		for (int k = 0; k < x->md->nop; k++) {
			const Opnd *o = &x->op[k];
			if (o->kind == OTMP && o->tmp == v)
				other |= kk >= 0, kk = k;
			else if (o->kind == OMEM && (o->base == v || o->index == v))
				other = 1;
		}
		if (kk < 0 || other || !mdmemform(t, fn->ext, x->md, kk, typebits(fn->tmp[v].type), &k2))
			continue;
		res[v] = 1 + at;
		d->refd[v] = 0;
		n++;
	}
	return n;
}

/* the memory pieces of the residents, after the body's rewrite (which
 * leaves their instructions in place) */
static void placeresidents(Body *d, const Target *t, const int *res, const Ins *const *at)
{
	Fn *fn = d->fn;
	int b = d->b;
	for (int v = 0; v < d->nt; v++) {
		if (!res[v])
			continue;
		Ins *x = NULL;
		for (int i = 0; i < fn->blk[b].nins && !x; i++)
			if (fn->blk[b].ins[i].stmt == at[v]->stmt && fn->blk[b].ins[i].md == at[v]->md && refs(&fn->blk[b].ins[i], v))
				x = &fn->blk[b].ins[i];
		if (!x)
			die("split: %s: a loop counter's instruction is gone", fn->name);
		int c = piece(fn, v, fnslot(fn, typebits(fn->tmp[v].type) / 8));
		x = NULL;
		for (int i = 0; i < fn->blk[b].nins && !x; i++)
			if (fn->blk[b].ins[i].stmt == at[v]->stmt && fn->blk[b].ins[i].md == at[v]->md && refs(&fn->blk[b].ins[i], v))
				x = &fn->blk[b].ins[i];
		renametmp(x, v, c);
		const MdLine *mv = findmove(t, fn, fn->tmp[v].type, MVREG);
		copyat(fn, b - 1, beforebranch(&fn->blk[b - 1]), mv, c, v);
		if (d->liveout[v])
			copyat(fn, b + 1, 0, mv, v, c);
	}
}

/* QHASM_DEBUG_EVICT: the simulation's decisions for one loop body */
static void debugevict(const Fn *fn, const Body *d, int b, int f, int K, const char *inmem)
{
	fprintf(stderr, "%s: block %d file %d: %d registers, %d evictions, %d reloads\n", fn->name, b, f, K, d->nev, d->nrl);
	for (int k = 0; k < d->nev; k++)
		fprintf(stderr, "  evict t.%d at %d\n", d->ev[2 * k], d->ev[2 * k + 1]);
	for (int k = 0; k < d->nrl; k++)
		fprintf(stderr, "  reload t.%d at %d\n", d->rl[2 * k], d->rl[2 * k + 1]);
	for (int v = 0; v < d->nt; v++)
		if (inmem[v])
			fprintf(stderr, "  in memory at the head: t.%d\n", v);
}

/* one-block loops, each register file; returns 1 if any was split */
static int bodies(Fn *fn, const Target *t, const int *npred)
{
	/* liveness is current on entry (split() recomputes it after its
	 * copies) and changes only with a rewrite: recomputing it for every
	 * body cost time and memory linear in the whole function per body
	 * (a generated FFT of 70k lines with hundreds of loops: 1.2 s, 600 MB) */
	int any = 0, stale = 0;
	for (int b = 1; b + 1 < fn->nblk; b++) {
		if (fn->blk[b].succ[0] != b || !simpleloop(fn, b, b, npred))
			continue;
		for (int f = 0; f < MAXFILE; f++) {
			int K = popcnt(filemask(f, fn->ext));
			if (!K)
				continue;
			if (stale)
				live(fn);
			stale = 0;
			Body d = {.fn = fn, .b = b, .n = fn->blk[b].nins, .nt = fn->ntmp, .K = K};
			d.livein = xcalloc(d.nt + 1, 1);
			d.liveout = xcalloc(d.nt + 1, 1);
			for (int v = 0; v < d.nt; v++) {
				d.livein[v] = fn->tmp[v].file == f && bshas(fn->blk[b].in, v);
				d.liveout[v] = fn->tmp[v].file == f && bshas(fn->blk[b + 1].in, v);
			}
			d.refd = xcalloc(d.nt + 1, 1);
			collect(&d, f);
			int nref = d.rstart[d.n];
			d.ev = xmalloc((2 * nref + 2 * d.nt + 2) * sizeof(int));
			d.rl = xmalloc((2 * nref + 2) * sizeof(int));
			d.st = xmalloc(d.nt + 1);
			d.rp = xmalloc((d.nt + 1) * sizeof(int));
			d.last = xmalloc((d.nt + 1) * sizeof(int));
			char *m0 = xcalloc(d.nt + 1, 1), *prev = xmalloc(d.nt + 1);
			for (int it = 0; it < 4; it++) {
				memcpy(prev, m0, d.nt + 1);
				if (simulate(&d, t, m0))
					break;
			}
			/* registers short: loop counters to memory, and again */
			int *res = xmalloc((d.nt + 1) * sizeof(int)), nres = 0;
			const Ins **resat = NULL;
			if (d.nev && (nres = residents(&d, t, res))) {
				resat = xmalloc((d.nt + 1) * sizeof *resat);
				for (int v = 0; v < d.nt; v++)
					resat[v] = res[v] ? &fn->blk[b].ins[res[v] - 1] : NULL;
				memset(m0, 0, d.nt + 1);
				for (int it = 0; it < 4; it++) {
					memcpy(prev, m0, d.nt + 1);
					if (simulate(&d, t, m0))
						break;
				}
			}
			if (getenv("QHASM_DEBUG_EVICT"))
				debugevict(fn, &d, b, f, K, prev);
			/* the last simulation ran with prev at the head */
			int evicted = d.nev;
			headevictions(&d, prev);
			Ins *saved = NULL;
			if (nres) {
				/* the counters' instructions, to find them after the rewrite */
				saved = xmalloc((d.nt + 1) * sizeof(Ins));
				for (int v = 0; v < d.nt; v++)
					if (res[v]) {
						saved[v] = *resat[v];
						resat[v] = &saved[v];
					}
			}
			if (evicted)
				rewrite(&d, t, prev);
			if (nres)
				placeresidents(&d, t, res, resat);
			if (evicted || nres)
				any = stale = 1;
			free(res); free(resat); free(saved);
			free(m0); free(prev);
			free(d.livein); free(d.liveout); free(d.refd); free(d.rstart); free(d.ref); free(d.pstart); free(d.pos);
			free(d.ev); free(d.rl); free(d.st); free(d.rp); free(d.last);
		}
	}
	return any;
}
