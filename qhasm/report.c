/* report.c: the cost report (`qhasm --report -u MODEL`).  For each
 * function and each loop body (the blocks between a label and the branch
 * back to it), and for the function as a whole: the operations per model
 * class, the resource lower bound (for every set S of units, the
 * operations that can only use units in S, in unit-cycles, divided by |S|:
 * the busiest set bounds the cycles), the critical-path lower bound, and
 * the list scheduler's length.  Loop control (the branch, its compare and
 * the induction update) is counted apart, so a loop over Salsa20
 * double-rounds reports the double-round itself.  Also (and alone,
 * without a model) the static spill loads and stores per function and per
 * loop.  Needs: the selected IR
 * (and the scheduler's dependence graph). */
#include "all.h"

/* instructions of a loop that only serve its control */
static void loopctl(Fn *fn, int s, int b, char **ctl)
{
	Blk *bl = &fn->blk[b];
	if (!bl->nins)
		return;
	int last = bl->nins - 1;
	Ins *br = &bl->ins[last];
	if (!(br->md->attr & ACJUMP))
		return;
	ctl[b][last] = 1;
	/* the flag-setting instruction the branch reads */
	int cmp = -1;
	for (int i = last - 1; i >= 0; i--)
		if (bl->ins[i].md->def & br->md->use) {
			cmp = i;
			break;
		}
	if (cmp < 0)
		return;
	ctl[b][cmp] = 1;
	/* induction updates of the compared temporaries: t = t op imm */
	Ins *c = &bl->ins[cmp];
	for (int k = 0; k < c->md->nop; k++) {
		if (c->op[k].kind != OTMP)
			continue;
		int t = c->op[k].tmp;
		for (int x = s; x <= b; x++)
			for (int i = 0; i < fn->blk[x].nins; i++) {
				Ins *y = &fn->blk[x].ins[i];
				int writes = 0, other = 0;
				for (int j = 0; j < y->md->nop; j++) {
					if (opwrites(y, j) && y->op[j].tmp == t)
						writes = 1;
					else if ((y->op[j].kind == OTMP && y->op[j].tmp != t) || y->op[j].kind == OMEM)
						other = 1;
				}
				if (writes && !other)
					ctl[x][i] = 1;
			}
	}
}

static void add(BStat *to, const BStat *st, int m)
{
	for (int i = 0; i < m; i++) {
		to->ops[i] += st->ops[i];
		to->ctl[i] += st->ctl[i];
	}
	to->nops += st->nops;
	to->critical += st->critical;
	to->length += st->length;
}

/* statistics of the blocks in [s, b] whose skip[] is 0; prints them when f
 * is set; returns the resource lower bound in cycles */
static double region(FILE *f, Fn *fn, const Model *m, int s, int b, const char *skip, char **ctl, const char *what)
{
	BStat sum;
	memset(&sum, 0, sizeof sum);
	for (int x = s; x <= b; x++) {
		if (skip && skip[x])
			continue;
		BStat st;
		blockstat(fn, x, m, &st);
		for (int i = 0; i < fn->blk[x].nins; i++)
			if (ctl[x][i]) {
				int c[64], n = insops(m, fn, &fn->blk[x].ins[i], c, 64);
				for (int j = 0; j < n; j++)
					st.ctl[c[j]]++;
			}
		add(&sum, &st, m->ncls);
	}
	int total = 0, totalctl = 0;
	for (int i = 0; i < m->ncls; i++) {
		total += sum.ops[i] - sum.ctl[i];
		totalctl += sum.ctl[i];
	}
	/* the resource bound, over every set of units */
	double best = 0;
	u64 bestset = 0;
	int bestops = 0, bestcyc = 0;
	for (u64 set = 1; set < (1ull << m->nunit); set++) {
		int cyc = 0, ops = 0;
		for (int i = 0; i < m->ncls; i++)
			if (!(m->cls[i].units & ~set)) {
				cyc += (sum.ops[i] - sum.ctl[i]) * m->cls[i].slots;
				ops += sum.ops[i] - sum.ctl[i];
			}
		double bound = (double)cyc / popcnt(set);
		if (bound > best + 1e-9) {
			best = bound;
			bestset = set;
			bestops = ops;
			bestcyc = cyc;
		}
	}
	double issue = (double)total / m->issue;
	if (!f)
		return issue > best ? issue : best;
	fprintf(f, "%s:\n  operations:", what);
	for (int i = 0; i < m->ncls; i++)
		if (sum.ops[i] > sum.ctl[i])
			fprintf(f, " %s %d", m->cls[i].name, sum.ops[i] - sum.ctl[i]);
	fprintf(f, " (%d in all", total);
	if (totalctl)
		fprintf(f, ", plus %d of loop control", totalctl);
	fprintf(f, ")\n");
	if (issue > best + 1e-9) {
		fprintf(f, "  resource bound: %d operations at %d per cycle: at least %.1f cycles (issue width)\n", total,
			m->issue, issue);
	} else if (bestset) {
		int units = popcnt(bestset);
		fprintf(f, "  resource bound: %d operations", bestops);
		if (bestcyc != bestops)
			fprintf(f, " (%d counting multi-cycle ones)", bestcyc);
		fprintf(f, " on %d unit%s (", units, units > 1 ? "s" : "");
		for (int u = 0, first = 1; u < m->nunit; u++)
			if (bestset >> u & 1) {
				fprintf(f, "%s%s", first ? "" : " ", m->unit[u]);
				first = 0;
			}
		fprintf(f, "): at least %.1f cycles\n", best);
	}
	fprintf(f, "  critical path: at least %d cycles\n", sum.critical);
	fprintf(f, "  schedule estimate: %d cycles\n", sum.length);
	return issue > best ? issue : best;
}

/* does y store into stack variable or spill slot (kind, obj)? */
static int storesto(const Ins *y, int kind, int obj)
{
	return y->md->nop == 2 && y->op[0].kind == OMEM && y->op[0].mkind == kind && y->op[0].obj == obj
	       && (y->md->op[0].acc & AW);
}

/* A counted loop: its counter is set to a constant before the loop and
 * stepped by a constant to zero (`i = 10` ... `=? i -= 1`, `goto L if !=`).
 * Returns the trip count, or 0 if it cannot tell. */
static long tripcount(Fn *fn, int s, int b)
{
	Blk *bl = &fn->blk[b];
	if (!bl->nins || !(bl->ins[bl->nins - 1].md->attr & ACJUMP) || s == 0)
		return 0;
	const Ins *br = &bl->ins[bl->nins - 1];
	const char *cond = strstr(br->md->pattern, " if ");
	if (!cond || !(strstr(cond, "!=") || strstr(cond, ">")) || strstr(cond, ">="))
		return 0;
	/* the flag-setting instruction: an in-place step t = t +- c */
	const Ins *x = NULL;
	for (int i = bl->nins - 2; i >= 0; i--)
		if (bl->ins[i].md->def & br->md->use) {
			x = &bl->ins[i];
			break;
		}
	if (!x)
		return 0;
	int t = -1;
	i64 step = 0;
	for (int k = 0; k < x->md->nop; k++) {
		if (opwrites(x, k))
			t = x->op[k].tmp;
		if (x->op[k].kind == OIMM)
			step = x->op[k].imm;
	}
	if (t < 0 || step <= 0 || !strchr(x->md->pattern, '-'))
		return 0;
	/* a counter kept in a stack slot (by the kernel or by a spill) is
	 * loaded into t in the loop before the step, maybe through further
	 * slots and temporaries */
	int slot = -1, kind = 0;
	for (const Ins *y = x - 1; y >= bl->ins; y--) {
		if (slot >= 0) {
			/* looking for the store into the slot within the loop */
			if (storesto(y, kind, slot)) {
				if (y->op[1].kind != OTMP)
					return 0;
				t = y->op[1].tmp;
				slot = -1;
			}
			continue;
		}
		if (y->md->nop == 2 && opwrites(y, 0) && y->op[0].kind == OTMP && y->op[0].tmp == t) {
			if (!(y->md->attr & AMOV) || y->op[1].kind != OMEM
			    || (y->op[1].mkind != MBSTACK && y->op[1].mkind != MBSPILL))
				break;
			slot = y->op[1].obj;
			kind = y->op[1].mkind;
		}
	}
	/* the constant it starts from, set in the block entering the loop
	 * (into t, or stored into the slot directly or from a temporary) */
	Blk *pre = &fn->blk[s - 1];
	for (int i = pre->nins - 1; i >= 0; i--) {
		const Ins *y = &pre->ins[i];
		if (slot >= 0 && storesto(y, kind, slot)) {
			if (y->op[1].kind == OIMM)
				return y->op[1].imm > 0 && y->op[1].imm % step == 0 ? y->op[1].imm / step : 0;
			if (y->op[1].kind != OTMP)
				return 0;
			t = y->op[1].tmp; /* now the temporary stored */
			slot = -1;
			continue;
		}
		for (int k = 0; k < y->md->nop; k++)
			if (slot < 0 && opwrites(y, k) && y->op[k].kind == OTMP && y->op[k].tmp == t) {
				if (y->md->nop == 2 && y->op[1].kind == OIMM && y->op[1].imm > 0 && y->op[1].imm % step == 0)
					return y->op[1].imm / step;
				return 0;
			}
	}
	return 0;
}

/* bytes a loop iteration advances its pointers: the largest constant added
 * in place to a temporary the loop uses as an address */
static long advance(Fn *fn, int s, int b, const char *skip)
{
	long best = 0;
	for (int x = s; x <= b; x++) {
		if (skip[x])
			continue;
		for (int i = 0; i < fn->blk[x].nins; i++) {
			const Ins *y = &fn->blk[x].ins[i];
			int t = -1;
			i64 c = 0;
			for (int k = 0; k < y->md->nop; k++) {
				if (opwrites(y, k) && opreads(y, k))
					t = y->op[k].tmp;
				if (y->op[k].kind == OIMM)
					c = y->op[k].imm;
			}
			if (t < 0 || c <= best || strchr(y->md->pattern, '-'))
				continue;
			/* used as an address in the loop? */
			for (int z = s; z <= b && t >= 0; z++)
				for (int j = 0; j < fn->blk[z].nins; j++)
					for (int k = 0; k < fn->blk[z].ins[j].md->nop; k++) {
						const Opnd *o = &fn->blk[z].ins[j].op[k];
						if (o->kind == OMEM && (o->base == t || o->index == t)) {
							best = c;
							t = -1;
							goto next;
						}
					}
		next:;
		}
	}
	return best;
}

/* the bound of one iteration of loop (s, b), its inner loops included */
static double nest(Fn *fn, const Model *m, int (*lp)[2], int nl, int l, char **ctl, int *known)
{
	int s = lp[l][0], b = lp[l][1];
	char *skip = xcalloc(fn->nblk, 1);
	double inner = 0;
	for (int j = 0; j < nl; j++) {
		if (j == l || lp[j][0] < s || lp[j][1] > b)
			continue;
		/* directly inside: no loop between j and l */
		int direct = 1;
		for (int k = 0; k < nl; k++)
			if (k != l && k != j && lp[k][0] <= lp[j][0] && lp[k][1] >= lp[j][1] && lp[k][0] >= s && lp[k][1] <= b
			    && (lp[k][0] != lp[j][0] || lp[k][1] != lp[j][1]))
				direct = 0;
		for (int x = lp[j][0]; x <= lp[j][1]; x++)
			skip[x] = 1;
		if (!direct)
			continue;
		long trip = tripcount(fn, lp[j][0], lp[j][1]);
		if (!trip)
			*known = 0;
		inner += trip * nest(fn, m, lp, nl, j, ctl, known);
	}
	double own = region(NULL, fn, m, s, b, skip, ctl, NULL);
	free(skip);
	return own + inner;
}

/* static spill code of blocks [s, b]: instructions reading and writing
 * spill slots (a folded operand counts as a load) */
static void spills(const Fn *fn, int s, int b, int *loads, int *stores)
{
	*loads = *stores = 0;
	for (int x = s; x <= b; x++)
		for (int i = 0; i < fn->blk[x].nins; i++) {
			const Ins *y = &fn->blk[x].ins[i];
			int rd = 0, wr = 0;
			for (int k = 0; k < y->md->nop; k++)
				if (y->op[k].kind == OMEM && y->op[k].mkind == MBSPILL) {
					if (y->md->op[k].acc & AW)
						wr = 1;
					else
						rd = 1;
				}
			*loads += rd;
			*stores += wr;
		}
}

/* the allocation part of the report: spill loads and stores per function
 * and per loop (the blocks from a label to the branch back to it) */
void spillreport(FILE *f, Fn *fn)
{
	int l, st, bytes = 0;
	spills(fn, 0, fn->nblk - 1, &l, &st);
	for (int i = 0; i < fn->nslot; i++)
		bytes += fn->slot[i].size;
	fprintf(f, "  spill code: %d loads, %d stores, %d slots (%d bytes)\n", l, st, fn->nslot, bytes);
	for (int b = 0; b < fn->nblk; b++)
		for (int k = 0; k < 2; k++) {
			int s = fn->blk[b].succ[k];
			if (s < 0 || s > b)
				continue;
			spills(fn, s, b, &l, &st);
			fprintf(f, "  spill code in loop %s (line %d): %d loads, %d stores\n",
				fn->blk[s].label >= 0 ? fn->lab[fn->blk[s].label].name : "?",
				fn->blk[s].label >= 0 ? fn->lab[fn->blk[s].label].pos.line : 0, l, st);
		}
}

void report(FILE *f, Fn *fn, const Target *t, const Model *m)
{
	(void)t;
	if (!m) {
		fprintf(f, "function %s:\n", fn->name);
		spillreport(f, fn);
		return;
	}
	char **ctl = xmalloc(fn->nblk * sizeof(char *));
	for (int b = 0; b < fn->nblk; b++)
		ctl[b] = xcalloc(fn->blk[b].nins + 1, 1);
	fprintf(f, "function %s on %s (%s):\n", fn->name, m->name, m->source ? m->source : "no source given");
	spillreport(f, fn);
	int (*lp)[2] = xmalloc((2 * fn->nblk + 1) * sizeof *lp), nl = 0;
	for (int b = 0; b < fn->nblk; b++)
		for (int k = 0; k < 2; k++) {
			int s = fn->blk[b].succ[k];
			if (s < 0 || s > b)
				continue;
			loopctl(fn, s, b, ctl);
			lp[nl][0] = s;
			lp[nl++][1] = b;
			char what[256];
			const char *name = fn->blk[s].label >= 0 ? fn->lab[fn->blk[s].label].name : "?";
			long trip = tripcount(fn, s, b);
			snprintf(what, sizeof what, "loop %s (line %d), per iteration%s", name,
				 fn->blk[s].label >= 0 ? fn->lab[fn->blk[s].label].pos.line : 0, trip ? "" : "");
			region(f, fn, m, s, b, NULL, ctl, what);
			if (trip)
				fprintf(f, "  runs %ld times per entry\n", trip);
		}
	/* outermost loops: an iteration with its inner loops, per byte */
	for (int l = 0; l < nl; l++) {
		int outer = 1;
		for (int j = 0; j < nl; j++)
			if (j != l && lp[j][0] <= lp[l][0] && lp[j][1] >= lp[l][1] && (lp[j][0] != lp[l][0] || lp[j][1] != lp[l][1]))
				outer = 0;
		if (!outer)
			continue;
		int known = 1;
		double bound = nest(fn, m, lp, nl, l, ctl, &known);
		const char *name = fn->blk[lp[l][0]].label >= 0 ? fn->lab[fn->blk[lp[l][0]].label].name : "?";
		if (!known) {
			fprintf(f, "loop %s with its inner loops: trip counts unknown\n", name);
			continue;
		}
		char *skip = xcalloc(fn->nblk, 1);
		long bytes = advance(fn, lp[l][0], lp[l][1], skip);
		free(skip);
		fprintf(f, "loop %s with its inner loops: at least %.1f cycles per iteration", name, bound);
		if (bytes)
			fprintf(f, ", %ld bytes: at least %.3f cycles per byte", bytes, bound / bytes);
		fprintf(f, "\n");
	}
	free(lp);
	for (int b = 0; b < fn->nblk; b++)
		memset(ctl[b], 0, fn->blk[b].nins + 1);
	region(f, fn, m, 0, fn->nblk - 1, NULL, ctl, "whole function, each block once");
	for (int b = 0; b < fn->nblk; b++)
		free(ctl[b]);
	free(ctl);
}
