/* taint.c: the constant-time check.  Inputs declared `secret x` carry
 * secret values; `secret [p]` makes every value loaded through p (or an
 * address computed from p) secret.  Secrecy flows forward through every
 * instruction (outputs of an instruction with a secret input are secret),
 * through flags, and through stack variables and memory stored via secret
 * pointers.  A conditional branch on secret flags, or a memory address
 * computed from a secret value, is an error, unless the value was passed
 * through `declassify x`.  Conditional moves on secret flags are fine.
 * Needs: select.c.  Provides: errors only.  Limitation: memory written
 * through a public pointer and read back through another is not tracked. */
#include "all.h"

typedef struct State { u64 *sec, *ptr; unsigned flags; } State;

static int W;

static void meet(State *a, const State *b)
{
	for (int i = 0; i < W; i++) {
		a->sec[i] |= b->sec[i];
		a->ptr[i] |= b->ptr[i];
	}
	a->flags |= b->flags;
}

static int same(const State *a, const State *b)
{
	return !memcmp(a->sec, b->sec, W * 8) && !memcmp(a->ptr, b->ptr, W * 8) && a->flags == b->flags;
}

/* one instruction; reports errors when report is set */
static void step(Fn *fn, const Ins *x, State *st, char *stacksec, int report)
{
	int secin = 0, ptrin = 0;
	const Pos *s = x->stmt >= 0 ? &fn->spos[x->stmt] : NULL;
	if (x->md->attr & ADECL) {
		bsclr(st->sec, x->op[0].tmp);
		return;
	}
	if (!x->md->tmpl[0] && !(x->md->attr & ARET))
		return; /* an argument arriving: seeded at the entry */
	for (int k = 0; k < x->md->nop; k++) {
		const Opnd *o = &x->op[k];
		if (opreads(x, k)) {
			secin |= bshas(st->sec, o->tmp);
			ptrin |= bshas(st->ptr, o->tmp);
		}
		if (o->kind != OMEM)
			continue;
		int rs[2] = {o->base, o->index};
		for (int j = 0; j < 2; j++)
			if (rs[j] >= 0) {
				if (bshas(st->sec, rs[j]) && report && !o->addr)
					err(s ? *s : fn->pos, "address depends on secret value");
				ptrin |= bshas(st->ptr, rs[j]);
			}
		if (o->addr)
			continue;
		if (x->md->op[k].acc & AR) {
			int viaptr = (o->base >= 0 && bshas(st->ptr, o->base)) || (o->index >= 0 && bshas(st->ptr, o->index));
			if (viaptr || (o->mkind == MBSTACK && stacksec[o->obj]))
				secin = 1;
		}
	}
	if (x->md->use & st->flags) {
		if ((x->md->attr & ACJUMP) && report)
			err(s ? *s : fn->pos, "branch depends on secret value");
		secin = 1; /* conditional moves, add with carry */
	}
	/* stores of secrets into stack variables make them secret */
	for (int k = 0; k < x->md->nop; k++) {
		const Opnd *o = &x->op[k];
		if (o->kind == OMEM && o->mkind == MBSTACK && !o->addr && (x->md->op[k].acc & AW) && secin)
			stacksec[o->obj] = 1;
	}
	for (int k = 0; k < x->md->nop; k++)
		if (opwrites(x, k)) {
			int t = x->op[k].tmp;
			int isaddr = 0;
			for (int j = 0; j < x->md->nop; j++)
				if (x->op[j].kind == OMEM && x->op[j].addr)
					isaddr = 1;
			if (secin)
				bsset(st->sec, t);
			else
				bsclr(st->sec, t);
			/* pointer provenance: arithmetic on a secret pointer, not a load through it */
			int loads = 0;
			for (int j = 0; j < x->md->nop; j++)
				if (x->op[j].kind == OMEM && !x->op[j].addr)
					loads = 1;
			if (ptrin && !loads && !isaddr)
				bsset(st->ptr, t);
			else
				bsclr(st->ptr, t);
		}
	if (x->md->def)
		st->flags = secin ? st->flags | x->md->def : st->flags & ~x->md->def;
}

void taint(Fn *fn, const Target *t)
{
	(void)t;
	if (!fn->secretval)
		return;
	int n = fn->ntmp;
	W = bswords(n);
	State *in = alloc(fn->nblk * sizeof *in), cur;
	for (int b = 0; b < fn->nblk; b++) {
		in[b].sec = bsnew(n);
		in[b].ptr = bsnew(n);
	}
	cur.sec = bsnew(n);
	cur.ptr = bsnew(n);
	char *stacksec = alloc(nvars + 1);
	/* the entry: inputs arrive through copies from argument temporaries */
	State entry = {bsnew(n), bsnew(n), 0};
	for (int v = 0; v < nvars; v++) {
		if (fn->vartmp[v] < 0)
			continue;
		if (fn->secretval[v])
			bsset(entry.sec, fn->vartmp[v]);
		if (fn->secretmem[v])
			bsset(entry.ptr, fn->vartmp[v]);
	}
	/* argument copies would clear the taint: seed the argument temporaries too */
	for (int i = 0; i < fn->blk[0].nins; i++) {
		Ins *x = &fn->blk[0].ins[i];
		if ((x->md->attr & AMOV) && x->op[0].kind == OTMP && x->op[1].kind == OTMP && fn->tmp[x->op[1].tmp].fixed != NOREG) {
			int v = fn->tmp[x->op[0].tmp].var;
			if (v >= 0 && fn->secretval[v])
				bsset(entry.sec, x->op[1].tmp);
			if (v >= 0 && fn->secretmem[v])
				bsset(entry.ptr, x->op[1].tmp);
		}
	}
	meet(&in[0], &entry);
	for (int changed = 1; changed;) {
		changed = 0;
		for (int b = 0; b < fn->nblk; b++) {
			memcpy(cur.sec, in[b].sec, W * 8);
			memcpy(cur.ptr, in[b].ptr, W * 8);
			cur.flags = in[b].flags;
			for (int i = 0; i < fn->blk[b].nins; i++)
				step(fn, &fn->blk[b].ins[i], &cur, stacksec, 0);
			for (int k = 0; k < 2; k++) {
				int s = fn->blk[b].succ[k];
				if (s < 0)
					continue;
				State old = {bsnew(n), bsnew(n), in[s].flags};
				memcpy(old.sec, in[s].sec, W * 8);
				memcpy(old.ptr, in[s].ptr, W * 8);
				meet(&in[s], &cur);
				if (!same(&old, &in[s]))
					changed = 1;
			}
		}
	}
	for (int b = 0; b < fn->nblk; b++) {
		memcpy(cur.sec, in[b].sec, W * 8);
		memcpy(cur.ptr, in[b].ptr, W * 8);
		cur.flags = in[b].flags;
		for (int i = 0; i < fn->blk[b].nins; i++)
			step(fn, &fn->blk[b].ins[i], &cur, stacksec, 1);
	}
}
