/* spillopt.c: cleans the spill code after register allocation, on the
 * registers chosen:
 *  - a reload into a register that still holds the slot's value is
 *    dropped, and one from a slot another register holds becomes a
 *    register copy (within a block);
 *  - a store of a value the slot already holds is dropped;
 *  - a store no reload can read (the slot is stored again, or never read,
 *    on every path) is dropped (backward liveness of slots over the CFG);
 *  - slots whose contents are never live at once share one, packed by
 *    size and alignment.
 * Needs: alloc.c (Tmp.reg).  Provides: fewer spill instructions and slots. */
#include "all.h"

static Fn *F;
static const Target *T;

/* the slot of a spill reload `r = [slot]` or store `[slot] = r`, else -1 */
static int spillload(const Ins *x)
{
	if (!(x->md->attr & AMOV) || x->md->nop != 2 || x->op[0].kind != OTMP || x->op[1].kind != OMEM
	    || x->op[1].mkind != MBSPILL)
		return -1;
	return x->op[1].obj;
}

static int spillstore(const Ins *x)
{
	if (!(x->md->attr & AMOV) || x->md->nop != 2 || x->op[1].kind != OTMP || x->op[0].kind != OMEM
	    || x->op[0].mkind != MBSPILL)
		return -1;
	return x->op[0].obj;
}

/* one register file's registers: what each holds */
enum { NR = MAXFILE * 64 };
static int holds[NR];      /* 1 + slot whose value the register holds, or 0 */
static int holdtmp[NR];    /* a temporary in the register then */
static u64 (*held)[MAXFILE];  /* per slot, the registers holding its value (the inverse of holds) */

static void sethold(int r, int slot1)
{
	if (holds[r])
		held[holds[r] - 1][r / 64] &= ~(1ull << (r % 64));
	holds[r] = slot1;
	if (slot1)
		held[slot1 - 1][r / 64] |= 1ull << (r % 64);
}

static int regkey(int t)
{
	if (F->tmp[t].reg == NOREG || F->tmp[t].reg >= 64)
		die("spillopt: temporary %d has no register", t);
	return F->tmp[t].file * 64 + F->tmp[t].reg;
}

static void forget(int slot)
{
	for (int f = 0; f < MAXFILE; f++)
		for (u64 m = held[slot][f]; m; m &= m - 1)
			holds[f * 64 + ctz(m)] = 0;
	memset(held[slot], 0, sizeof held[slot]);
}

/* forward, per block: drop or turn into copies the redundant reloads and
 * stores; marks dropped instructions with md = NULL */
static int redundant(Blk *bl)
{
	int dropped = 0;
	for (int r = 0; r < NR; r++)
		if (holds[r])
			sethold(r, 0);
	for (int i = 0; i < bl->nins; i++) {
		Ins *x = &bl->ins[i];
		int s = spillload(x);
		if (s >= 0) {
			int t = x->op[0].tmp, r = regkey(t);
			if (holds[r] == s + 1 && F->tmp[holdtmp[r]].type == F->tmp[t].type) {
				x->md = NULL;
				dropped++;
				continue;
			}
			int from = -1;
			for (int f = 0; f < MAXFILE && from < 0; f++)
				for (u64 m = held[s][f]; m && from < 0; m &= m - 1) {
					int q = f * 64 + ctz(m);
					if (q != r && F->tmp[holdtmp[q]].type == F->tmp[t].type
					    && F->tmp[holdtmp[q]].file == F->tmp[t].file)
						from = q;
				}
			if (from >= 0) {
				x->md = findmove(T, F, F->tmp[t].type, MVREG);
				x->op[1] = (Opnd){.kind = OTMP, .tmp = holdtmp[from], .base = -1, .index = -1};
			}
			sethold(r, s + 1);
			holdtmp[r] = t;
			continue;
		}
		s = spillstore(x);
		if (s >= 0) {
			int t = x->op[1].tmp, r = regkey(t);
			if (holds[r] == s + 1 && F->tmp[holdtmp[r]].type == F->tmp[t].type) {
				x->md = NULL;
				dropped++;
				continue;
			}
			forget(s);
			sethold(r, s + 1);
			holdtmp[r] = t;
			continue;
		}
		for (int k = 0; k < x->md->nop; k++) {
			if (opwrites(x, k) && F->tmp[x->op[k].tmp].reg != NOREG)
				sethold(regkey(x->op[k].tmp), 0);
			if (x->op[k].kind == OMEM && x->op[k].mkind == MBSPILL && (x->md->op[k].acc & AW))
				forget(x->op[k].obj);
		}
	}
	return dropped;
}

/* redundant() on every block, with the slot numbering of the moment */
static void redundantall(void)
{
	memset(holds, 0, sizeof holds);
	held = xcalloc(F->nslot + 1, sizeof *held);
	for (int b = 0; b < F->nblk; b++)
		redundant(&F->blk[b]);
	free(held);
	held = NULL;
}

/* slots read (gen) before written, and written (kill), in block b */
static void slotuse(Blk *bl, u64 *gen, u64 *kill)
{
	for (int i = bl->nins - 1; i >= 0; i--) {
		Ins *x = &bl->ins[i];
		if (!x->md)
			continue;
		for (int k = 0; k < x->md->nop; k++) {
			const Opnd *o = &x->op[k];
			if (o->kind != OMEM || o->mkind != MBSPILL)
				continue;
			if (x->md->op[k].acc == AW) {
				bsset(kill, o->obj);
				bsclr(gen, o->obj);
			}
		}
		for (int k = 0; k < x->md->nop; k++) {
			const Opnd *o = &x->op[k];
			if (o->kind == OMEM && o->mkind == MBSPILL && (x->md->op[k].acc & AR))
				bsset(gen, o->obj);
		}
	}
}

/* Backward liveness of the slots; drops the stores nothing reads.  With
 * conflict set, also records which slots are live at once (a slot stored
 * while another is live, or live together at a block's end). */
static int deadstores(u64 *conflict)
{
	int ns = F->nslot, w = bswords(ns), dropped = 0;
	u64 **in = alloc(F->nblk * sizeof *in), **out = alloc(F->nblk * sizeof *out);
	u64 **gen = alloc(F->nblk * sizeof *gen), **kill = alloc(F->nblk * sizeof *kill);
	for (int b = 0; b < F->nblk; b++) {
		in[b] = bsnew(ns);
		out[b] = bsnew(ns);
		gen[b] = bsnew(ns);
		kill[b] = bsnew(ns);
		slotuse(&F->blk[b], gen[b], kill[b]);
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (int b = F->nblk - 1; b >= 0; b--) {
			Blk *bl = &F->blk[b];
			for (int k = 0; k < 2; k++)
				if (bl->succ[k] >= 0)
					for (int j = 0; j < w; j++)
						out[b][j] |= in[bl->succ[k]][j];
			for (int j = 0; j < w; j++) {
				u64 v = gen[b][j] | (out[b][j] & ~kill[b][j]);
				if (v != in[b][j]) {
					in[b][j] = v;
					changed = 1;
				}
			}
		}
	}
	u64 *lv = bsnew(ns);
	for (int b = 0; b < F->nblk; b++) {
		Blk *bl = &F->blk[b];
		memcpy(lv, out[b], w * sizeof(u64));
		for (int i = bl->nins - 1; i >= 0; i--) {
			Ins *x = &bl->ins[i];
			if (!x->md)
				continue;
			int s = spillstore(x);
			if (s >= 0 && !bshas(lv, s)) {
				x->md = NULL;
				dropped++;
				continue;
			}
			for (int k = 0; k < x->md->nop; k++) {
				const Opnd *o = &x->op[k];
				if (o->kind != OMEM || o->mkind != MBSPILL || x->md->op[k].acc != AW)
					continue;
				if (conflict)
					for (int j = 0; j < w; j++)
						conflict[(size_t)o->obj * w + j] |= lv[j];
				bsclr(lv, o->obj);
			}
			for (int k = 0; k < x->md->nop; k++) {
				const Opnd *o = &x->op[k];
				if (o->kind == OMEM && o->mkind == MBSPILL && (x->md->op[k].acc & AR))
					bsset(lv, o->obj);
			}
		}
		/* live together at the block's start (entry, loop heads) */
		if (conflict)
			for (int j = 0; j < w; j++)
				for (u64 v = in[b][j]; v; v &= v - 1) {
					int s = j * 64 + ctz(v);
					for (int q = 0; q < w; q++)
						conflict[(size_t)s * w + q] |= in[b][q];
				}
	}
	return dropped;
}

/* share slots whose contents are never live at once, same size and
 * alignment only; the first slot of each group keeps its number order */
static void pack(u64 *conflict)
{
	int ns = F->nslot, w = bswords(ns);
	int *to = alloc((ns + 1) * sizeof(int)), nn = 0;
	Slot *ns2 = xmalloc((ns + 1) * sizeof(Slot));
	u64 **members = alloc((ns + 1) * sizeof *members);
	for (int s = 0; s < ns; s++) {
		int g;
		for (g = 0; g < nn; g++) {
			if (ns2[g].size != F->slot[s].size || ns2[g].align != F->slot[s].align)
				continue;
			int clash = 0;
			for (int j = 0; j < w && !clash; j++)
				clash = (members[g][j] & conflict[(size_t)s * w + j]) != 0;
			if (!clash)
				break;
		}
		if (g == nn) {
			ns2[nn] = F->slot[s];
			members[nn++] = bsnew(ns);
		}
		/* conflicts are symmetric: record both ways through the group */
		bsset(members[g], s);
		to[s] = g;
	}
	/* a group's members conflict with what any member conflicts with:
	 * checked above against each member's own row, which suffices since
	 * conflict rows are made symmetric in spillopt() */
	for (int b = 0; b < F->nblk; b++)
		for (int i = 0; i < F->blk[b].nins; i++) {
			Ins *x = &F->blk[b].ins[i];
			for (int k = 0; k < x->md->nop; k++)
				if (x->op[k].kind == OMEM && x->op[k].mkind == MBSPILL)
					x->op[k].obj = to[x->op[k].obj];
		}
	free(F->slot);
	F->slot = ns2;
	F->nslot = nn;
}

static void compact(void)
{
	for (int b = 0; b < F->nblk; b++) {
		Blk *bl = &F->blk[b];
		int n = 0;
		for (int i = 0; i < bl->nins; i++)
			if (bl->ins[i].md)
				bl->ins[n++] = bl->ins[i];
		bl->nins = n;
	}
}

void spillopt(Fn *fn, const Target *t)
{
	F = fn;
	T = t;
	if (!fn->nslot)
		return;
	redundantall();
	compact();
	/* a slot too many for a bit matrix is left alone (not met in practice) */
	int ns = fn->nslot, w = bswords(ns);
	u64 *conflict = ns <= 8192 ? xcalloc((size_t)ns * w + 1, sizeof(u64)) : NULL;
	deadstores(conflict);
	compact();
	if (conflict) {
		/* symmetric, and a slot never conflicts with itself */
		for (int a = 0; a < ns; a++)
			for (int b = 0; b < ns; b++)
				if (bshas(&conflict[(size_t)a * w], b))
					bsset(&conflict[(size_t)b * w], a);
		for (int a = 0; a < ns; a++)
			bsclr(&conflict[(size_t)a * w], a);
		pack(conflict);
		free(conflict);
		/* slots now shared: a store of what a register reloaded from
		 * what is now the same slot is redundant */
		redundantall();
		compact();
	}
}
