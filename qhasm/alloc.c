/* alloc.c: register allocation by graph colouring (Chaitin-Briggs:
 * simplify, optimistic select, biased towards copy partners' registers
 * and the target's preference order), and spilling: a value that gets no
 * register lives in a stack slot, loaded before each use and stored after
 * each definition into short new temporaries; the caller then repeats
 * liveness, coalescing and colouring.  Needs: coalesce.c.
 * Provides: Tmp.reg, Fn.slot, Fn.usedregs; returns 0 if spill code was added. */
#include "all.h"

static Fn *F;
static Graph *G;  /* F's interference graph (coalesce.c) */
static const Target *T;

/* a reload or definition of a spilled value serves reads up to this many
 * instructions later */
enum { REUSE = 12 };

int fnslot(Fn *fn, int bytes)
{
	fn->slot = xrealloc(fn->slot, (fn->nslot + 1) * sizeof(Slot));
	/* natural size and alignment: int32 slots 4 bytes apart */
	int a = bytes > 64 ? 64 : bytes;
	fn->slot[fn->nslot] = (Slot){bytes, a, 0};
	return fn->nslot++;
}

static int newslot(int bytes) { return fnslot(F, bytes); }

static Pos tmppos(int t)
{
	for (int b = 0; b < F->nblk; b++)
		for (int i = 0; i < F->blk[b].nins; i++) {
			Ins *x = &F->blk[b].ins[i];
			for (int k = 0; k < x->md->nop; k++)
				if (x->op[k].kind == OTMP && rep(G, x->op[k].tmp) == t && x->stmt >= 0)
					return F->spos[x->stmt];
		}
	return F->pos;
}

/* Spill folding: if another form of x's instruction takes a memory operand
 * where x has the spilled temporary of operand k (a read: `add r, s` ->
 * `add r, [slot]`; read and written in place: `sub r, 1` -> `sub qword
 * [slot], 1`, md.c's mdmemform), rewrite x to use it and return 1. */
static int fold(Ins *x, int k, int slot)
{
	int k2;
	/* in place only for a piece split.c left in memory (a loop counter):
	 * elsewhere the reload's register serves the reads that follow */
	if (x->md->op[k].acc == ARW && !F->tmp[x->op[k].tmp].inmem)
		return 0;
	const MdLine *m = x->md, *m2 = mdmemform(T, F->ext, m, k, typebits(F->tmp[x->op[k].tmp].type), &k2);
	if (!m2)
		return 0;
	Ins y = *x;
	y.md = m2;
	/* operands of their own: m2's order differs from m's */
	y.op = newops(m2->nop);
	for (int j = 0; j < m->nop && j < m2->nop; j++)
		y.op[j] = x->op[j];
	for (int j = 0; j < m->nslot; j++)
		if (m->op[m->slotop[j]].pos == j)
			y.op[m2->slotop[j]] = x->op[m->slotop[j]];
	y.op[k2] = (Opnd){.kind = OMEM, .mkind = MBSPILL, .obj = slot, .base = -1, .index = -1};
	*x = y;
	return 1;
}

/* Rematerialisation: can instruction x be repeated anywhere, giving the
 * same value?  One register written, nothing read but immediates, the
 * address of a stack variable or constant, or a constant's data (read
 * only: not an external symbol's); no flags, no other effect. */
static int rematerialisable(const Ins *x)
{
	const MdLine *m = x->md;
	if (!m->tmpl[0] || m->def || (m->attr & (ASTORE | AMEM | AJUMP | ACJUMP | ARET | ADECL)))
		return 0;
	int dst = 0;
	for (int k = 0; k < m->nop; k++) {
		const Opnd *o = &x->op[k];
		int acc = m->op[k].acc;
		if (o->kind == OTMP) {
			if (acc != AW)
				return 0;
			dst++;
		} else if (o->kind == OMEM) {
			if ((acc & AW) || o->base >= 0 || o->index >= 0)
				return 0;
			if (o->mkind == MBSTACK ? !o->addr : o->mkind != MBSYM || (consts[o->obj].external && !o->addr))
				return 0;
		} else if (o->kind != OIMM)
			return 0;
	}
	return dst == 1;
}

/* the spilled classes defined once, by a rematerialisable instruction:
 * remat[r] is that instruction (a copy), or NULL */
static Ins **findremat(const int *spilled, int n0)
{
	Ins **remat = xcalloc(n0 + 1, sizeof *remat);
	char *bad = xcalloc(n0 + 1, 1);
	for (int b = 0; b < F->nblk; b++)
		for (int i = 0; i < F->blk[b].nins; i++) {
			const Ins *x = &F->blk[b].ins[i];
			for (int k = 0; k < x->md->nop; k++) {
				if (!opwrites(x, k))
					continue;
				int r = rep(G, x->op[k].tmp);
				if (!spilled[r] || bad[r])
					continue;
				if (remat[r] || !rematerialisable(x)) {
					bad[r] = 1;
					free(remat[r]);
					remat[r] = NULL;
					continue;
				}
				remat[r] = xmalloc(sizeof *x);
				*remat[r] = *x;
				remat[r]->op = newops(x->md->nop); /* the rewrite changes x's */
				memcpy(remat[r]->op, x->op, x->md->nop * sizeof *x->op);
			}
		}
	free(bad);
	return remat;
}

/* a new temporary holding the value of remat class r, made right here
 * by a copy of its definition */
static int rematerialise(int b, Ins *const *remat, int r, int t, int stmt)
{
	int n = newtmp(F, -1, F->tmp[t].type, F->tmp[t].file);
	F->tmp[n].nospill = 1;
	F->tmp[n].mask &= F->tmp[r].mask;
	const Ins *d = remat[r];
	Ins *y = addins(F, b, d->md);
	Opnd *op = y->op;
	*y = *d;
	y->op = op;
	memcpy(op, d->op, d->md->nop * sizeof *op);
	y->stmt = stmt;
	y->keep = 0;
	for (int k = 0; k < d->md->nop; k++)
		if (d->op[k].kind == OTMP)
			y->op[k].tmp = n;
	return n;
}

/* the registers operand k of x may be in: its class, or its fixed
 * register.  A spilled value's reload or definition temporary takes
 * this, not its class's mask: a class joined to a fixed register (rcx
 * of a shift count) is spilled because it cannot stay there, and its
 * pieces elsewhere need not be in that register (two of them live at
 * once, or one live across the fixed use, could not be coloured) */
static u64 usemask(const Ins *x, int k)
{
	const MdOp *o = &x->md->op[k];
	u64 whole = F->tmp[rep(G, x->op[k].tmp)].mask;
	/* a pseudo-instruction (input, a declaration) has no real operand
	 * class nor fixed register: the class's registers then */
	if (!x->md->tmpl[0])
		return whole;
	if (o->fixed != NOREG)
		return 1ull << o->fixed;
	if (T->cls[o->cls].kind != CREG || !(T->cls[o->cls].mask & F->tmp[x->op[k].tmp].mask))
		return whole;
	return T->cls[o->cls].mask;
}

/* can the temporary h holding a slot's value serve operand k of x?  It
 * is narrowed to what x needs, unless that leaves it few registers */
static int canreuse(int h, const Ins *x, int k)
{
	u64 m = F->tmp[h].mask, n = m & usemask(x, k);
	if (n == m || popcnt(n) >= 4) {
		F->tmp[h].mask = n;
		return 1;
	}
	return 0;
}

/* rewrite the code so that spilled temporaries live in stack slots, or
 * are made again where they are read (rematerialisation) */
static void spill(const int *spilled)
{
	int n0 = F->ntmp;
	Ins **remat = findremat(spilled, n0);
#define REMAT(t) ((t) < n0 ? remat[rep(G, (t))] != NULL : 0)
	int *slotof = xmalloc(n0 * sizeof(int));
	/* the slot of an original temporary; the ones made here have none */
#define SLOT(t) ((t) < n0 ? slotof[t] : -1)
	/* A spilled value already held by a slot (a reload, or a definition
	 * stored at once) lives in that slot: no second slot and no store.
	 * Only if every temporary merged into it has that home. */
	int *home = xmalloc(n0 * sizeof(int));
	for (int t = 0; t < n0; t++)
		home[t] = -2; /* not seen */
	for (int t = 0; t < n0; t++) {
		int r = rep(G, t);
		if (!spilled[r])
			continue;
		int h = F->tmp[t].home ? F->tmp[t].home - 1 : -1;
		home[r] = home[r] == -2 || home[r] == h ? h : -1;
	}
	/* a value spilled to its home is read from the slot at each use, with
	 * no holder reuse: that reuse is what made its range long (and the
	 * allocation would not converge) */
	char *noreuse = xcalloc(n0 + 1, 1);
	/* the two sides of a split copy (split.c), both spilled, share a
	 * slot: one dies where the other is born, so the copy is nothing */
	/* (only two values not interfering, neither with a slot yet: the
	 * slot is then theirs alone, as if they had been coalesced) */
	for (int i = 0; i < G->nmv; i++) {
		int a = rep(G, G->mv[i][0]), b = rep(G, G->mv[i][1]);
		if (!G->mvsplit[i] || a == b || !spilled[a] || !spilled[b] || F->tmp[a].type != F->tmp[b].type
		    || F->tmp[a].slot >= 0 || F->tmp[b].slot >= 0 || hasedge(G, a, b))
			continue;
		F->tmp[a].slot = F->tmp[b].slot = newslot(typebits(F->tmp[a].type) / 8);
	}
	for (int t = 0; t < n0; t++) {
		int r = rep(G, t);
		slotof[t] = -1;
		if (!spilled[r] || remat[r])
			continue;
		if (F->tmp[r].slot < 0)
			F->tmp[r].slot = home[r] >= 0 ? home[r] : newslot(typebits(F->tmp[r].type) / 8);
		noreuse[t] = home[r] >= 0;
		slotof[t] = F->tmp[r].slot;
	}
	free(home);
	/* per slot: the new temporary that holds its value since instruction
	 * holdat (a reload or a definition), reused by reads soon after
	 * instead of a second load: a store followed at once by a load of the
	 * same slot would put the store-to-load forwarding latency on the
	 * dependence chain (x ^= t; u = x + y with x spilled) */
	int *holder = xmalloc((F->nslot + 1) * sizeof(int)), *holdat = xmalloc((F->nslot + 1) * sizeof(int));
	for (int b = 0; b < F->nblk; b++) {
		Blk *bl = &F->blk[b];
		Ins *old = bl->ins;
		int nold = bl->nins;
		bl->ins = NULL;
		bl->nins = bl->cap = 0;
		for (int s = 0; s < F->nslot; s++)
			holder[s] = -1;
		for (int i = 0; i < nold; i++) {
			Ins x = old[i];
			/* the temporaries x had (x's operands are old[i]'s and change below) */
			int otmp[MAXOP];
			for (int k = 0; k < MAXOP; k++)
				otmp[k] = k < x.md->nop ? x.op[k].tmp : 0;
			/* rematerialised values: their definition goes, each read
			 * gets a new copy of it */
			int isdef = 0;
			for (int k = 0; k < x.md->nop; k++)
				isdef |= opwrites(&x, k) && REMAT(x.op[k].tmp);
			if (isdef)
				continue;
			for (int k = 0; k < x.md->nop; k++) {
				Opnd *o = &x.op[k];
				if (opreads(&x, k) && REMAT(o->tmp)) {
					int was = o->tmp;
					int nt = rematerialise(b, remat, rep(G, was), was, x.stmt);
					for (int j = k; j < x.md->nop; j++)
						if (opreads(&x, j) && x.op[j].tmp == was)
							x.op[j].tmp = nt;
				}
				if (o->kind == OMEM) {
					if (o->base >= 0 && REMAT(o->base))
						o->base = rematerialise(b, remat, rep(G, o->base), o->base, x.stmt);
					if (o->index >= 0 && REMAT(o->index))
						o->index = rematerialise(b, remat, rep(G, o->index), o->index, x.stmt);
				}
			}
			/* reads of a slot whose value a recent temporary holds (an
			 * update in place updates the holder, then stores it) */
			int post[MAXOP], npost = 0;
			for (int k = 0; k < x.md->nop; k++) {
				Opnd *o = &x.op[k];
				int s = o->kind == OTMP ? SLOT(o->tmp) : -1, acc = x.md->op[k].acc;
				if (s >= 0 && holder[s] >= 0 && i - holdat[s] <= REUSE && (acc == AR || acc == ARW) && !noreuse[o->tmp]
				    && F->tmp[holder[s]].type == F->tmp[o->tmp].type && canreuse(holder[s], &x, k)) {
					o->tmp = holder[s];
					F->tmp[holder[s]].nospill = 0; /* its range grew: it may be spilled in turn */
					if (acc == ARW) {
						post[npost++] = k;
						holdat[s] = i;
					}
				}
			}
			Opnd slotop = {.kind = OMEM, .mkind = MBSPILL, .base = -1, .index = -1};
			/* a reload into, or a store from, a value now living in that
			 * very slot is nothing */
			if ((x.md->attr & AMOV) && x.md->nop == 2) {
				const Opnd *a = &x.op[0], *c = &x.op[1];
				if (a->kind == OTMP && c->kind == OMEM && c->mkind == MBSPILL && SLOT(a->tmp) == c->obj)
					continue;
				if (c->kind == OTMP && a->kind == OMEM && a->mkind == MBSPILL && SLOT(c->tmp) == a->obj) {
					holder[a->obj] = -1;
					continue;
				}
			}
			int ismove = (x.md->attr & AMOV) && x.op[0].kind == OTMP && x.op[1].kind == OTMP;
			if (ismove) {
				int d = x.op[0].tmp, s = x.op[1].tmp;
				if (SLOT(d) >= 0 && SLOT(d) == SLOT(s))
					continue;
				if (SLOT(s) >= 0 && SLOT(d) < 0) {
					Ins *l = addins(F, b, findmove(T, F, F->tmp[d].type, MVLOAD));
					l->stmt = x.stmt;
					l->op[0] = x.op[0];
					l->op[1] = slotop;
					l->op[1].obj = SLOT(s);
					continue;
				}
				if (SLOT(d) >= 0 && SLOT(s) < 0) {
					holder[SLOT(d)] = -1;
					Ins *st = addins(F, b, findmove(T, F, F->tmp[s].type, MVSTORE));
					st->stmt = x.stmt;
					st->op[0] = slotop;
					st->op[0].obj = SLOT(d);
					st->op[1] = x.op[1];
					continue;
				}
			}
			/* a read of a spilled value straight from its slot, where a form allows */
			for (int k = 0; k < x.md->nop; k++)
				if (x.op[k].kind == OTMP && SLOT(x.op[k].tmp) >= 0) {
					int s = SLOT(x.op[k].tmp), w = x.md->op[k].acc & AW;
					if (fold(&x, k, s)) {
						if (w)
							holder[s] = -1; /* the slot changed in place */
						break;
					}
				}
			/* loads before, stores after */
			for (int k = 0; k < x.md->nop; k++) {

				Opnd *o = &x.op[k];
				if (o->kind == OMEM) {
					int *r[2] = {&o->base, &o->index};
					for (int j = 0; j < 2; j++)
						if (*r[j] >= 0 && SLOT(*r[j]) >= 0) {
							int t = newtmp(F, -1, F->tmp[*r[j]].type, F->tmp[*r[j]].file);
							F->tmp[t].nospill = 1;
							F->tmp[t].home = SLOT(*r[j]) + 1;
							F->tmp[t].mask &= F->tmp[*r[j]].mask | F->tmp[rep(G, *r[j])].mask;
							Ins *l = addins(F, b, findmove(T, F, F->tmp[t].type, MVLOAD));
							l->stmt = x.stmt;
							l->op[0] = (Opnd){.kind = OTMP, .tmp = t, .base = -1, .index = -1};
							l->op[1] = slotop;
							l->op[1].obj = SLOT(*r[j]);
							*r[j] = t;
						}
					continue;
				}
				if (o->kind != OTMP || SLOT(o->tmp) < 0)
					continue;
				int old_t = o->tmp;
				int t = newtmp(F, -1, F->tmp[old_t].type, F->tmp[old_t].file);
				F->tmp[t].nospill = 1;
				F->tmp[t].mask &= usemask(&x, k);
				/* read from the slot, or stored to it right after: the
				 * slot holds its value wherever it is read (not a scratch) */
				if (x.md->op[k].acc != ASCR)
					F->tmp[t].home = SLOT(old_t) + 1;

				if (opreads(&x, k)) {
					Ins *l = addins(F, b, findmove(T, F, F->tmp[t].type, MVLOAD));
					l->stmt = x.stmt;
					l->op[0] = (Opnd){.kind = OTMP, .tmp = t, .base = -1, .index = -1};
					l->op[1] = slotop;
					l->op[1].obj = SLOT(old_t);
				}
				/* a reload holds the slot's value (unless an operand
				 * written below stores a new one); a scratch none */
				if (x.md->op[k].acc == AR) {
					holder[SLOT(old_t)] = t;
					holdat[SLOT(old_t)] = i;
				} else if (!opwrites(&x, k) || x.md->op[k].acc == ASCR)
					holder[SLOT(old_t)] = -1;
				if (opwrites(&x, k) && x.md->op[k].acc != ASCR)
					post[npost++] = k;
				o->tmp = t;
			}
			pushins(F, b, &x);
			for (int j = 0; j < npost; j++) {
				int k = post[j];
				/* what x writes is the slot's value from now on */
				holder[SLOT(otmp[k])] = x.op[k].tmp;
				holdat[SLOT(otmp[k])] = i;
				Ins *st = addins(F, b, findmove(T, F, F->tmp[x.op[k].tmp].type, MVSTORE));
				st->stmt = x.stmt;
				st->op[0] = slotop;
				st->op[0].obj = SLOT(otmp[k]);
				st->op[1] = (Opnd){.kind = OTMP, .tmp = x.op[k].tmp, .base = -1, .index = -1};
			}
		}
		free(old);
	}
	free(holder);
	free(holdat);
	free(slotof);
	free(noreuse);
	for (int t = 0; t < n0; t++)
		free(remat[t]);
	free(remat);
#undef SLOT
#undef REMAT
}

/* a binary min-heap of (key, temporary), ties to the lower temporary */
typedef struct HEnt { double key; int v; } HEnt;
typedef struct Heap { HEnt *e; int n, cap; } Heap;

static int hless(HEnt a, HEnt b) { return a.key < b.key || (a.key == b.key && a.v < b.v); }

/* grown in the round arena: an error (longjmp in the fuzzer) frees it
 * with the rest of the round */
static void *rgrow(void *old, size_t used, size_t size)
{
	void *p = ralloc(size);
	if (used)
		memcpy(p, old, used);
	return p;
}

static void hpush(Heap *h, double key, int v)
{
	if (h->n == h->cap) {
		int c = h->cap ? 2 * h->cap : 64;
		h->e = rgrow(h->e, h->n * sizeof *h->e, c * sizeof *h->e);
		h->cap = c;
	}
	int i = h->n++;
	h->e[i] = (HEnt){key, v};
	while (i && hless(h->e[i], h->e[(i - 1) / 2])) {
		HEnt t = h->e[i];
		h->e[i] = h->e[(i - 1) / 2];
		h->e[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static HEnt hpop(Heap *h)
{
	HEnt top = h->e[0];
	h->e[0] = h->e[--h->n];
	for (int i = 0;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && hless(h->e[l], h->e[m]))
			m = l;
		if (r < h->n && hless(h->e[r], h->e[m]))
			m = r;
		if (m == i)
			break;
		HEnt t = h->e[i];
		h->e[i] = h->e[m];
		h->e[m] = t;
		i = m;
	}
	return top;
}

int regalloc(Fn *fn, const Target *t)
{
	F = fn;
	G = fn->graph;
	T = t;
	int n = fn->ntmp;
	int *deg = ralloc(n * sizeof(int)), *removed = ralloc(n * sizeof(int));
	int *stack = ralloc(n * sizeof(int)), nstack = 0;
	int *spilled = ralloc(n * sizeof(int)), nspilled = 0;
	int *color = ralloc(n * sizeof(int));
	int *work = ralloc(n * sizeof(int)), nwork = 0;
	int remaining = 0, heapinit = 0;
	Heap hp = {0};
#define SKEY(i) (fn->tmp[i].nospill ? 1e300 : fn->tmp[i].cost / (deg[i] + 1))
	/* partners, for biased colouring: the two sides of each copy, and
	 * the result and the operand of `x = x ^ t` (one variable, two webs
	 * when the form writes a separate register): the same register for
	 * both keeps a variable updated in a loop in one register, which a
	 * colouring of the webs alone can miss (they form a cycle through
	 * the back edge, and Chaitin's heuristic then spills) */
	int npr = G->nmv, cpr = G->nmv + 16;
	int (*pr)[2] = ralloc(cpr * sizeof *pr);
	if (G->nmv)
		memcpy(pr, G->mv, G->nmv * sizeof *pr);
	for (int b = 0; b < fn->nblk; b++)
		for (int i = 0; i < fn->blk[b].nins; i++) {
			const Ins *x = &fn->blk[b].ins[i];
			for (int k = 0; k < x->md->nop; k++)
				for (int j = 0; j < x->md->nop; j++) {
					int d = x->op[k].tmp, s = x->op[j].tmp;
					if (x->md->op[k].acc != AW || x->md->op[j].acc != AR || x->op[k].kind != OTMP
					    || x->op[j].kind != OTMP || fn->tmp[d].var < 0 || fn->tmp[d].var != fn->tmp[s].var
					    || fn->tmp[d].file != fn->tmp[s].file || rep(G, d) == rep(G, s))
						continue;
					if (npr == cpr)
						pr = rgrow(pr, npr * sizeof *pr, (cpr *= 2) * sizeof *pr);
					pr[npr][0] = d;
					pr[npr++][1] = s;
				}
		}
	int *pstart = ralloc((n + 1) * sizeof(int)), *plist = ralloc((2 * npr + 1) * sizeof(int));
	for (int i = 0; i < npr; i++) {
		pstart[rep(G, pr[i][0])]++;
		pstart[rep(G, pr[i][1])]++;
	}
	for (int i = 0, acc = 0; i <= n; i++) {
		int c = i < n ? pstart[i] : 0;
		pstart[i] = acc;
		acc += c;
	}
	int *pfill = ralloc((n + 1) * sizeof(int));
	memcpy(pfill, pstart, (n + 1) * sizeof(int));
	for (int i = 0; i < npr; i++) {
		int a = rep(G, pr[i][0]), b = rep(G, pr[i][1]);
		plist[pfill[a]++] = b;
		plist[pfill[b]++] = a;
	}
	for (int i = 0; i < n; i++) {
		color[i] = NOREG;
		deg[i] = G->nadj[i];
		if (rep(G, i) != i) {
			removed[i] = 1;
			continue;
		}
		/* precoloured: what must be in its register; a spillable value
		 * merged with a fixed register is coloured (its mask is that
		 * register) and may be spilled like any other */
		if (fn->tmp[i].fixed != NOREG && fn->tmp[i].nospill) {
			color[i] = fn->tmp[i].fixed;
			removed[i] = 1;
			continue;
		}
		/* a piece that split.c put in memory (a slot already): spilled
		 * without colouring */
		if (fn->tmp[i].inmem && fn->tmp[i].slot >= 0 && !fn->tmp[i].nospill && fn->tmp[i].fixed == NOREG) {
			spilled[i] = removed[i] = 1;
			nspilled++;
			continue;
		}
		remaining++;
	}
	for (int i = 0; i < n; i++)
		if (spilled[i])
			for (int j = 0; j < G->nadj[i]; j++)
				deg[G->adj[i][j]]--;
	/* registers each node may take (popcount once, not per edge) */
	int *K = ralloc((n + 1) * sizeof(int));
	for (int i = 0; i < n; i++)
		K[i] = popcnt(fn->tmp[i].mask);
	for (int i = 0; i < n; i++)
		if (!removed[i] && deg[i] < K[i])
			work[nwork++] = i;
	/* simplify */
	while (remaining) {
		int v = -1;
		while (nwork) {
			int c = work[--nwork];
			if (!removed[c]) {
				v = c;
				break;
			}
		}
		if (v < 0) {
			/* blocked: push the cheapest candidate optimistically (a
			 * heap with lazy updates: degrees only fall, so a key only
			 * rises; a popped entry whose key rose goes back in) */
			if (!heapinit) {
				heapinit = 1;
				for (int i = 0; i < n; i++)
					if (!removed[i])
						hpush(&hp, SKEY(i), i);
			}
			while (hp.n) {
				HEnt e = hpop(&hp);
				if (removed[e.v])
					continue;
				double c = SKEY(e.v);
				if (c > e.key) {
					hpush(&hp, c, e.v);
					continue;
				}
				v = e.v;
				break;
			}
			if (v < 0)
				die("register allocation: no node to simplify");
		}
		removed[v] = 1;
		remaining--;
		stack[nstack++] = v;
		for (int j = 0; j < G->nadj[v]; j++) {
			int m = G->adj[v][j];
			if (!removed[m] && --deg[m] == K[m] - 1)
				work[nwork++] = m;
		}
	}
	/* select */
	while (nstack) {
		int v = stack[--nstack];
		Tmp *x = &fn->tmp[v];
		u64 used = 0, pref = 0;
		for (int j = 0; j < G->nadj[v]; j++)
			if (color[G->adj[v][j]] != NOREG)
				used |= 1ull << color[G->adj[v][j]];
		u64 avail = x->mask & ~used;
		/* leave an uncoloured neighbour's only register to it when it
		 * is worth at least as much as v (a value merged with a fixed
		 * register); a cheaper one may lose it and be spilled */
		u64 reserved = 0;
		for (int j = 0; j < G->nadj[v]; j++) {
			int m = G->adj[v][j];
			if (color[m] == NOREG && !spilled[m] && K[m] == 1
			    && (fn->tmp[m].nospill || fn->tmp[m].cost / (G->nadj[m] + 1) >= (x->nospill ? 1e300 : x->cost / (G->nadj[v] + 1))))
				reserved |= fn->tmp[m].mask;
		}
		if (avail & ~reserved)
			avail &= ~reserved;
		if (!avail) {
			if (x->nospill) {
				/* spill a spillable neighbour instead */
				int best = -1;
				for (int j = 0; j < G->nadj[v]; j++) {
					int m = G->adj[v][j];
					if (color[m] != NOREG && fn->tmp[m].fixed == NOREG && !fn->tmp[m].nospill && !spilled[m]
					    && (best < 0 || fn->tmp[m].cost < fn->tmp[best].cost))
						best = m;
				}
				if (best < 0)
					err(tmppos(v), "too many values must be in registers at once here: the fixed and scratch registers of this instruction cannot be satisfied");
				spilled[best] = 1;
				nspilled++;
			} else {
				spilled[v] = 1;
				nspilled++;
			}
			continue;
		}
		for (int i = pstart[v]; i < pstart[v + 1]; i++)
			if (color[plist[i]] != NOREG)
				pref |= 1ull << color[plist[i]];
		if (avail & pref)
			avail &= pref;
		const int *ord = t->order[x->file];
		for (int i = 0; i < t->nreg[x->file]; i++)
			if (avail >> ord[i] & 1) {
				color[v] = ord[i];
				break;
			}
	}
	if (nspilled) {
		fn->round++;
		spill(spilled);
		for (int i = 0; i < n; i++)
			fn->tmp[i].inmem = 0; /* in their slots now */
	} else {
		for (int f = 0; f < MAXFILE; f++)
			fn->usedregs[f] = 0;
		for (int i = 0; i < n; i++) {
			fn->tmp[i].reg = color[rep(G, i)];
			if (fn->tmp[i].reg != NOREG)
				fn->usedregs[fn->tmp[i].file] |= 1ull << fn->tmp[i].reg;
		}
	}
	freeround();
#undef SKEY
	return nspilled == 0;
}
