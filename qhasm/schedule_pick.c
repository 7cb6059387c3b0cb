/* schedule_pick.c: choose the schedule of a function by its allocated
 * code.  The list scheduler runs before register allocation, so the
 * machine estimate it keeps an order by cannot see the spill loads and
 * stores the allocator adds, nor the register reuse they bring; measured
 * on a Zen 3 (docs/models.md), orders the zen3 estimate rated equal (27
 * cycles per Salsa20 double round) ran 4.5% apart once allocated.  So the
 * function is scheduled with the model's own machine and, as further
 * candidates, with the list scheduler driven by each other model of the
 * same target (their orders differ: other latencies and units steer the
 * same heuristics elsewhere); each distinct candidate is allocated and
 * post-scheduled, and the one whose allocated blocks the model's machine
 * runs fastest (block times weighted by 10 per loop level; ties: the
 * earlier candidate) is kept, the source order (allocated as it stands)
 * unless a schedule saves at least a cycle per loop iteration on it.
 * Every candidate is a correct schedule (the dependences are the same),
 * so the choice only ever changes speed.  Only for a model
 * that says `orders all` (measured to gain on its CPU: zen3); otherwise
 * the model's own schedule is allocated as before.
 * Needs: webs.c (the IR before live/schedule), a source-order copy.
 * Provides: fn scheduled, allocated and post-scheduled. */
#include "all.h"

static double weight(const Blk *b)
{
	double w = 1;
	for (int d = 0; d < b->depth && d < 6; d++)
		w *= 10;
	return w;
}

static double fntime(Fn *fn, const Target *t, const Model *m)
{
	double s = 0;
	for (int b = 0; b < fn->nblk; b++)
		s += weight(&fn->blk[b]) * blocktime(fn, b, t, m);
	return s;
}

/* the instruction order of every block (statement and pattern per
 * instruction), to skip a candidate identical to an earlier one */
static int sameorder(const Fn *a, const Fn *b)
{
	if (a->nblk != b->nblk)
		return 0;
	for (int k = 0; k < a->nblk; k++) {
		const Blk *x = &a->blk[k], *y = &b->blk[k];
		if (x->nins != y->nins)
			return 0;
		for (int i = 0; i < x->nins; i++)
			if (x->ins[i].stmt != y->ins[i].stmt || x->ins[i].md != y->ins[i].md)
				return 0;
	}
	return 1;
}

#define MAXCAND 16

/* candidate c: -1 the source order, allocated as it stands; else the
 * list schedule under model cand[c], allocated and post-scheduled for m */
static void candidate(Fn *x, const Fn *unsched, const Target *t, const Model *m, const Model *c,
                      void (*alloc)(Fn *fn, const Target *t, const Fn *unsched))
{
	copyir(x, unsched);
	if (!c) {
		alloc(x, t, unsched); /* (with spills it tries the same order again) */
		return;
	}
	live(x);
	schedule(x, t, c);
	alloc(x, t, unsched);
	postschedule(x, t, m);
}

void schedulepick(Fn *fn, const Target *t, const Model *m,
                  void (*alloc)(Fn *fn, const Target *t, const Fn *unsched))
{
	Fn unsched = *fn, best = *fn;
	double tbest = 0;
	copyir(&unsched, fn);
	if (!m->allorders) {
		live(fn);
		schedule(fn, t, m);
		alloc(fn, t, &unsched);
		postschedule(fn, t, m);
		freeir(&unsched);
		return;
	}
	/* the source order first, then this model's schedule, then the other
	 * models' (ties: the earlier) */
	const Model *cand[MAXCAND];
	int nc = 0;
	cand[nc++] = NULL;
	cand[nc++] = m;
	for (int i = 0; qhasm_models[i] && nc < MAXCAND; i++) {
		const Model *c = modelnamed(i, t);
		if (c && strcmp(c->name, m->name))
			cand[nc++] = c;
	}
	Fn kept[MAXCAND];
	int nkept = 0;
	/* a reordering must earn its place: save at least one cycle per
	 * iteration of a loop (weight 10) over the source order, or 2 cycles
	 * in a function without loops; measured on the Zen 3, a gain the
	 * estimate saw only outside loops (Poly1305: 377 against 378) ran 2%
	 * slower, one inside the Salsa20 loops (11076 against 11116) 1-5%
	 * faster */
	double margin = 2, tsrc = 0;
	for (int b = 0; b < fn->nblk; b++)
		if (fn->blk[b].depth > 0)
			margin = 10;
	for (int c = 0; c < nc; c++) {
		Fn x = *fn;
		candidate(&x, &unsched, t, m, cand[c], alloc);
		int dup = 0;
		for (int k = 0; k < nkept && !dup; k++)
			dup = sameorder(&kept[k], &x);
		if (dup) {
			freeir(&x);
			continue;
		}
		double a = fntime(&x, t, m);
		kept[nkept] = *fn;
		copyir(&kept[nkept++], &x);
		if (c == 0)
			tsrc = a;
		if (c == 0 || (a < tbest && a + margin <= tsrc)) {
			if (c)
				freeir(&best);
			best = x;
			tbest = a;
		} else
			freeir(&x);
	}
	for (int k = 0; k < nkept; k++)
		freeir(&kept[k]);
	freeir(&unsched);
	freeir(fn);
	copyir(fn, &best);
	freeir(&best);
}
