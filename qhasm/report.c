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

/* ops[] holds the operations per class, and at SLOTS (past the last
 * class) the issue slots (insslots(): fused operations) */
enum { SLOTS = MAXCLS, NOPS };

/* instruction x's operations and issue slots, times mult, added to to[] */
static void tally(const Model *m, const Fn *fn, const Ins *x, double mult, double *to)
{
	int c[64], n = insops(m, fn, x, c, 64);
	for (int j = 0; j < n; j++)
		to[c[j]] += mult;
	to[SLOTS] += mult * insslots(fn, x);
}

/* operations per class of the blocks in [s, b] whose skip[] is 0, loop
 * control apart, times mult, added to ops[] (and ctl[]) */
static void count(Fn *fn, const Target *t, const Model *m, int s, int b, const char *skip, char **ctl, double mult,
		  double *ops, double *ctlops)
{
	for (int x = s; x <= b; x++) {
		if (skip && skip[x])
			continue;
		for (int i = 0; i < fn->blk[x].nins; i++)
			tally(m, fn, &fn->blk[x].ins[i], mult, ctl[x][i] ? ctlops : ops);
	}
	(void)t;
}

/* the resource bound of ops[]: for every set S of units, the operations
 * that can only use units in S, in unit-cycles, divided by |S|; or the
 * issue slots over the issue width */
typedef struct Res { double bound, ops, cyc, total, slots; u64 set; int issue; } Res;

static Res resource(const Model *m, const double *ops)
{
	Res r = {0, 0, 0, 0, ops[SLOTS], 0, 0};
	for (int i = 0; i < m->ncls; i++)
		r.total += ops[i];
	for (u64 set = 1; set < (1ull << m->nunit); set++) {
		double cyc = 0, n = 0;
		for (int i = 0; i < m->ncls; i++)
			if (!(m->cls[i].units & ~set)) {
				cyc += ops[i] * m->cls[i].slots;
				n += ops[i];
			}
		double bound = cyc / popcnt(set);
		if (bound > r.bound + 1e-9) {
			r.bound = bound;
			r.set = set;
			r.ops = n;
			r.cyc = cyc;
		}
	}
	if (r.slots / m->issue > r.bound + 1e-9) {
		r.bound = r.slots / m->issue;
		r.issue = 1;
	}
	return r;
}

static void printres(FILE *f, const Model *m, const Res *r)
{
	if (r->issue) {
		fprintf(f, "  resource bound: %.0f issue slots (fused operations) at %d per cycle: at least %.1f cycles (issue width)\n",
			r->slots, m->issue, r->bound);
	} else if (r->set) {
		int units = popcnt(r->set);
		fprintf(f, "  resource bound: %.0f operations", r->ops);
		if (r->cyc != r->ops)
			fprintf(f, " (%.0f counting multi-cycle ones)", r->cyc);
		fprintf(f, " on %d unit%s (", units, units > 1 ? "s" : "");
		for (int u = 0, first = 1; u < m->nunit; u++)
			if (r->set >> u & 1) {
				fprintf(f, "%s%s", first ? "" : " ", m->unit[u]);
				first = 0;
			}
		fprintf(f, "): at least %.1f cycles\n", r->bound);
	}
}

/* immediate dominators of blocks [s, e] in the graph of their forward
 * edges (block order is topological there) from s; -2: not reached */
static int *idoms(const Fn *fn, int s, int e)
{
	int *idom = xmalloc((fn->nblk + 1) * sizeof(int));
	for (int x = 0; x < fn->nblk; x++)
		idom[x] = -2;
	idom[s] = s;
	for (int y = s + 1; y <= e; y++)
		for (int x = s; x < y; x++) {
			if (idom[x] == -2 || (fn->blk[x].succ[0] != y && fn->blk[x].succ[1] != y))
				continue;
			int a = x, b = idom[y];
			if (b == -2) {
				idom[y] = x;
				continue;
			}
			while (a != b)
				if (a > b)
					a = idom[a];
				else
					b = idom[b];
			idom[y] = a;
		}
	return idom;
}

/* every[x] = 1 for the blocks of [s, e] on every path from s to target
 * (its dominators) */
static void onevery(const int *idom, int s, int target, char *every)
{
	for (int x = target; x >= s && idom[x] != -2; x = idom[x]) {
		every[x] = 1;
		if (x == s)
			break;
	}
}

/* Blocks that run on every call: those dominating the exit (the common
 * dominator of the blocks without successors) */
static void everycall(Fn *fn, char *every)
{
	int n = fn->nblk, *idom = idoms(fn, 0, n - 1), exit = -2;
	for (int x = 0; x < n; x++) {
		if (idom[x] == -2 || fn->blk[x].succ[0] >= 0 || fn->blk[x].succ[1] >= 0)
			continue;
		if (exit == -2) {
			exit = x;
			continue;
		}
		int a = x, b = exit;
		while (a != b)
			if (a > b)
				a = idom[a];
			else
				b = idom[b];
		exit = a;
	}
	if (exit >= 0)
		onevery(idom, 0, exit, every);
	free(idom);
}

/* Statistics of the blocks in [s, b] whose skip[] is 0, printed: the
 * operations per class, the resource bound, and for a loop (loop set) the
 * recurrence bound, the critical path of one iteration (of the whole run
 * for a counted loop) and the lower bound per iteration, their maximum,
 * naming the one that binds; for the whole function the critical path of
 * its longest block. */
static void region(FILE *f, Fn *fn, const Target *t, const Model *m, int s, int b, const char *skip, char **ctl,
		   const char *what, int loop, long trip)
{
	double ops[NOPS] = {0}, ctlops[NOPS] = {0};
	/* a loop counts the blocks every iteration runs (a lower bound for
	 * each of its paths) */
	char *cnt = xcalloc(fn->nblk + 1, 1), *inner = NULL;
	if (loop) {
		int *idom = idoms(fn, s, b);
		char *every = xcalloc(fn->nblk + 1, 1);
		onevery(idom, s, b, every);
		for (int x = 0; x < fn->nblk; x++)
			cnt[x] = !every[x] || (skip && skip[x]);
		free(every);
		free(idom);
		inner = xcalloc(fn->nblk + 1, 1);
		for (int y = s; y <= b; y++)
			for (int k = 0; k < 2; k++) {
				int z = fn->blk[y].succ[k];
				if (z >= s && z <= y && !(z == s && y == b))
					for (int x = z; x <= y; x++)
						inner[x] = 1;
			}
	} else if (skip)
		memcpy(cnt, skip, fn->nblk);
	count(fn, t, m, s, b, cnt, ctl, 1, ops, ctlops);
	free(cnt);
	Res r = resource(m, ops);
	double totalctl = 0;
	for (int i = 0; i < m->ncls; i++)
		totalctl += ctlops[i];
	fprintf(f, "%s:\n  operations:", what);
	for (int i = 0; i < m->ncls; i++)
		if (ops[i] > 0)
			fprintf(f, " %s %.0f", m->cls[i].name, ops[i]);
	fprintf(f, " (%.0f in all", r.total);
	if (totalctl)
		fprintf(f, ", plus %.0f of loop control", totalctl);
	fprintf(f, ")\n");
	printres(f, m, &r);
	int length = 0, critical = 0;
	for (int x = s; x <= b; x++) {
		if (skip && skip[x])
			continue;
		BStat st;
		blockstat(fn, x, t, m, &st);
		length += st.length;
		if (!loop) {
			Chains c;
			chains(fn, t, m, x, x, NULL, 0, &c);
			if (c.critical > critical)
				critical = c.critical;
		}
	}
	if (!loop) {
		fprintf(f, "  critical path: at least %d cycles (the longest block)\n", critical);
		fprintf(f, "  schedule estimate: %d cycles\n", length);
		return;
	}
	Chains c;
	chains(fn, t, m, s, b, inner, trip, &c);
	free(inner);
	if (!c.carried)
		fprintf(f, "  recurrence bound: no value carried around the loop\n");
	else
		fprintf(f, "  recurrence bound: %d values carried around the loop, their longest cycle: at least %.1f cycles%s\n",
			c.carried, c.recurrence, c.linear ? "" : " (over all its paths: each edge's shortest)");
	fprintf(f, "  critical path of one iteration: %d cycles", c.critical);
	if (c.criticalrun)
		fprintf(f, "; of its %ld iterations chained: at least %d cycles per entry", trip, c.criticalrun);
	fprintf(f, "\n");
	fprintf(f, "  schedule estimate: %d cycles\n", length);
	int rec = c.recurrence > r.bound + 1e-9;
	fprintf(f, "  lower bound: at least %.1f cycles per iteration (%s binds)\n", rec ? c.recurrence : r.bound,
		rec ? "recurrence" : r.issue ? "issue width" : "resource");
}

/* does y store into stack variable or spill slot (kind, obj)? */
static int storesto(const Ins *y, int kind, int obj)
{
	return y->md->nop == 2 && y->op[0].kind == OMEM && y->op[0].mkind == kind && y->op[0].obj == obj
	       && (y->md->op[0].acc & AW);
}

/* the value of temporary t just before bl->ins[at] as a constant's
 * address plus an offset (`t = &mem8[sym]`, `t += c`); 0 if not one */
static int symval(const Blk *bl, int at, int t, int *sym, i64 *off)
{
	i64 add = 0;
	for (int i = at - 1; i >= 0; i--) {
		const Ins *y = &bl->ins[i];
		if (!(y->md->nop >= 1 && opwrites(y, 0) && y->op[0].tmp == t))
			continue;
		if (y->md->nop == 2 && opreads(y, 0) && y->op[1].kind == OIMM && strchr(y->md->pattern, '+')) {
			add += y->op[1].imm;
			continue;
		}
		if (y->md->nop == 2 && y->op[1].kind == OMEM && y->op[1].mkind == MBSYM && y->op[1].base < 0
		    && y->op[1].index < 0 && strchr(y->md->pattern, '&')) {
			*sym = y->op[1].obj;
			*off = y->op[1].disp + add;
			return 1;
		}
		return 0;
	}
	return 0;
}

/* A loop stepping a pointer through a constant table: `p = stack slot;
 * p += c; slot = p; e = &mem8[sym] + d; =? p - e`, the slot set to
 * &mem8[sym] + d0 before the loop (the Keccak round constants): trip
 * count (d - d0) / c, or 0 */
static long ptrtrip(Fn *fn, int s, int b, int cmp)
{
	Blk *bl = &fn->blk[b];
	const Ins *x = &bl->ins[cmp];
	int sym, sym0;
	i64 end, start;
	if (!symval(bl, cmp, x->op[1].tmp, &sym, &end))
		return 0;
	int p = x->op[0].tmp, i = cmp - 1;
	while (i >= 0 && !(opwrites(&bl->ins[i], 0) && bl->ins[i].op[0].tmp == p))
		i--;
	const Ins *st = i >= 0 ? &bl->ins[i] : NULL;
	if (!st || st->md->nop != 2 || !opreads(st, 0) || st->op[1].kind != OIMM || st->op[1].imm <= 0
	    || !strchr(st->md->pattern, '+'))
		return 0;
	i64 step = st->op[1].imm;
	for (i--; i >= 0 && !(opwrites(&bl->ins[i], 0) && bl->ins[i].op[0].tmp == p); i--)
		;
	const Ins *ld = i >= 0 ? &bl->ins[i] : NULL;
	if (!ld || !(ld->md->attr & AMOV) || ld->md->nop != 2 || ld->op[1].kind != OMEM
	    || (ld->op[1].mkind != MBSTACK && ld->op[1].mkind != MBSPILL) || s != b || s == 0)
		return 0;
	/* the slot's value when the loop is entered */
	Blk *pre = &fn->blk[s - 1];
	for (int j = pre->nins - 1; j >= 0; j--) {
		const Ins *y = &pre->ins[j];
		if (storesto(y, ld->op[1].mkind, ld->op[1].obj) && y->op[0].disp == ld->op[1].disp) {
			if (y->op[1].kind != OTMP || !symval(pre, j, y->op[1].tmp, &sym0, &start) || sym0 != sym)
				return 0;
			/* the loop's first compare sees start + step */
			i64 d = end - start;
			return d > 0 && d % step == 0 ? (long)(d / step) : 0;
		}
	}
	return 0;
}

/* A counted loop: its counter is set to a constant before the loop and
 * stepped by a constant to zero (`i = 10` ... `=? i -= 1`, `goto L if !=`).
 * Returns the trip count, or 0 if it cannot tell. */
static long tripcount(Fn *fn, int s, int b)
{
	Blk *bl = &fn->blk[b];
	/* the latch's conditional branch; copies may follow it (the spill
	 * splitter's moves for the exit edge, run on the fall-through only) */
	int e = bl->nins - 1;
	while (e >= 0 && !(bl->ins[e].md->attr & (ACJUMP | AJUMP)))
		e--;
	if (e < 0 || !(bl->ins[e].md->attr & ACJUMP) || s == 0)
		return 0;
	const Ins *br = &bl->ins[e];
	const char *cond = strstr(br->md->pattern, " if ");
	if (!cond || !(strstr(cond, "!=") || strstr(cond, ">")) || strstr(cond, ">="))
		return 0;
	/* the flag-setting instruction: an in-place step t = t +- c */
	const Ins *x = NULL;
	for (int i = e - 1; i >= 0; i--)
		if (bl->ins[i].md->def & br->md->use) {
			x = &bl->ins[i];
			break;
		}
	if (!x)
		return 0;
	if (x->md->nop == 2 && !opwrites(x, 0) && opreads(x, 0) && opreads(x, 1))
		return ptrtrip(fn, s, b, (int)(x - bl->ins));
	/* a compare with zero (`=? i - 0`) after the step (`i = i - 1`): the
	 * step is the last write of the compared temporary before it */
	if (x->md->nop == 2 && !opwrites(x, 0) && opreads(x, 0) && x->op[1].kind == OIMM && x->op[1].imm == 0) {
		int ct = x->op[0].tmp;
		const Ins *y = x - 1;
		while (y >= bl->ins && !(y->md->nop >= 1 && opwrites(y, 0) && y->op[0].tmp == ct))
			y--;
		if (y < bl->ins)
			return 0;
		x = y;
	}
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
				/* a copy at the loop entry (the allocator's web
				 * copies): follow its source */
				if ((y->md->attr & AMOV) && y->md->nop == 2 && k == 0 && y->op[1].kind == OTMP) {
					t = y->op[1].tmp;
					break;
				}
				return 0;
			}
	}
	return 0;
}

/* bytes a loop iteration advances its pointers: the largest constant added
 * in place to a temporary the loop uses as an address */
/* the temporaries the loop's addresses come from: used as a base or an
 * index, or copied (directly or through a stack or spill slot, as a
 * pointer kept on the stack is) into one that is */
static char *addrtemps(Fn *fn, int s, int b)
{
	char *addr = xcalloc(fn->ntmp + 1, 1);
	int nslot = 0, cslot = 0, (*slot)[2] = NULL;
	for (int z = s; z <= b; z++)
		for (int j = 0; j < fn->blk[z].nins; j++)
			for (int k = 0; k < fn->blk[z].ins[j].md->nop; k++) {
				const Opnd *o = &fn->blk[z].ins[j].op[k];
				if (o->kind == OMEM && o->base >= 0)
					addr[o->base] = 1;
				if (o->kind == OMEM && o->index >= 0)
					addr[o->index] = 1;
			}
	for (int changed = 1, round = 0; changed && round < 8; round++) {
		changed = 0;
		for (int z = s; z <= b; z++)
			for (int j = 0; j < fn->blk[z].nins; j++) {
				const Ins *y = &fn->blk[z].ins[j];
				if (!(y->md->attr & AMOV) || y->md->nop != 2)
					continue;
				const Opnd *d = &y->op[0], *r = &y->op[1];
				int sl = -1;
				if (d->kind == OTMP && addr[d->tmp] && r->kind == OTMP && !addr[r->tmp])
					addr[r->tmp] = changed = 1;
				if (d->kind == OTMP && addr[d->tmp] && r->kind == OMEM && (r->mkind == MBSTACK || r->mkind == MBSPILL)) {
					for (sl = 0; sl < nslot && (slot[sl][0] != r->mkind || slot[sl][1] != r->obj); sl++)
						;
					if (sl == nslot) {
						GROW(slot, nslot, cslot);
						slot[nslot][0] = r->mkind;
						slot[nslot++][1] = r->obj;
						changed = 1;
					}
				}
				if (d->kind == OMEM && r->kind == OTMP && !addr[r->tmp])
					for (sl = 0; sl < nslot; sl++)
						if (slot[sl][0] == d->mkind && slot[sl][1] == d->obj)
							addr[r->tmp] = changed = 1;
			}
	}
	free(slot);
	return addr;
}

static long advance(Fn *fn, int s, int b, const char *skip)
{
	long best = 0;
	char *addr = addrtemps(fn, s, b);
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
			if (addr[t])
				best = c;
		}
	}
	free(addr);
	return best;
}

/* The bound of one iteration of loop l with its inner loops: the resource
 * bound of all their operations (an inner loop's times its trip count),
 * the recurrence of l's own blocks, and each inner loop's chain: its
 * trip count times its recurrence, less the iterations that may overlap
 * with the next entry's (those within the model's reorder buffer, `rob`,
 * of it, and one more), since an instruction cannot issue before the one
 * `rob` places earlier has retired. */
typedef struct Nest { double bound, res, rec, chain; int known; char binds[160]; } Nest;

static void nestops(Fn *fn, const Target *t, const Model *m, int (*lp)[2], int nl, int l, char **ctl, double mult,
		    double *ops, double *ctlops, int *known)
{
	int s = lp[l][0], b = lp[l][1];
	char *skip = xcalloc(fn->nblk, 1);
	/* only the blocks every iteration runs, and the inner loops whose head
	 * every iteration reaches (a lower bound for each path) */
	int *idom = idoms(fn, s, b);
	char *every = xcalloc(fn->nblk + 1, 1);
	onevery(idom, s, b, every);
	for (int j = 0; j < nl; j++) {
		if (j == l || lp[j][0] < s || lp[j][1] > b)
			continue;
		int direct = 1;
		for (int k = 0; k < nl; k++)
			if (k != l && k != j && lp[k][0] <= lp[j][0] && lp[k][1] >= lp[j][1] && lp[k][0] >= s && lp[k][1] <= b
			    && (lp[k][0] != lp[j][0] || lp[k][1] != lp[j][1]))
				direct = 0;
		for (int x = lp[j][0]; x <= lp[j][1]; x++)
			skip[x] = 1;
		if (!direct || !every[lp[j][0]])
			continue;
		long trip = tripcount(fn, lp[j][0], lp[j][1]);
		if (!trip)
			*known = 0;
		nestops(fn, t, m, lp, nl, j, ctl, mult * trip, ops, ctlops, known);
	}
	for (int x = s; x <= b; x++)
		if (!every[x])
			skip[x] = 1;
	free(every);
	free(idom);
	count(fn, t, m, s, b, skip, ctl, mult, ops, ctlops);
	free(skip);
}

static Nest nest(Fn *fn, const Target *t, const Model *m, int (*lp)[2], int nl, int l, char **ctl)
{
	Nest r;
	memset(&r, 0, sizeof r);
	r.known = 1;
	double ops[NOPS] = {0}, ctlops[NOPS] = {0};
	nestops(fn, t, m, lp, nl, l, ctl, 1, ops, ctlops, &r.known);
	/* loop control is real work in a nest: the inner loops' run every iteration */
	for (int i = 0; i < NOPS; i++)
		ops[i] += ctlops[i];
	Res res = resource(m, ops);
	r.res = res.bound;
	snprintf(r.binds, sizeof r.binds, "%s", res.issue ? "issue width" : "resource");
	r.bound = r.res;
	int s = lp[l][0], b = lp[l][1];
	char *skip = xcalloc(fn->nblk, 1);
	for (int j = 0; j < nl; j++) {
		if (j == l || lp[j][0] < s || lp[j][1] > b)
			continue;
		for (int x = lp[j][0]; x <= lp[j][1]; x++)
			skip[x] = 1;
	}
	Chains c;
	chains(fn, t, m, s, b, skip, 0, &c);
	r.rec = c.recurrence;
	if (r.rec > r.bound + 1e-9) {
		r.bound = r.rec;
		snprintf(r.binds, sizeof r.binds, "recurrence");
	}
	for (int j = 0; j < nl && m->rob; j++) {
		if (j == l || lp[j][0] < s || lp[j][1] > b)
			continue;
		int direct = 1;
		for (int k = 0; k < nl; k++)
			if (k != l && k != j && lp[k][0] <= lp[j][0] && lp[k][1] >= lp[j][1] && lp[k][0] >= s && lp[k][1] <= b
			    && (lp[k][0] != lp[j][0] || lp[k][1] != lp[j][1]))
				direct = 0;
		long trip = tripcount(fn, lp[j][0], lp[j][1]);
		if (!direct || !trip)
			continue;
		Nest in = nest(fn, t, m, lp, nl, j, ctl);
		Chains ic;
		chains(fn, t, m, lp[j][0], lp[j][1], NULL, 0, &ic);
		double per = in.rec > in.chain ? in.rec : in.chain;
		long overlap = ic.body ? (m->rob + ic.body - 1) / ic.body + 1 : trip;
		double ch = trip > overlap ? (trip - overlap) * per : 0;
		r.chain += ch;
	}
	if (r.chain > r.bound + 1e-9) {
		r.bound = r.chain;
		snprintf(r.binds, sizeof r.binds, "recurrence of the inner loops");
	}
	free(skip);
	return r;
}

/* Does loop [s, b] leave only from its latch b (so a counted loop runs its
 * trip count)? */
static int oneexit(const Fn *fn, int s, int b)
{
	for (int x = s; x < b; x++)
		for (int k = 0; k < 2; k++) {
			int y = fn->blk[x].succ[k];
			if (y >= 0 && (y < s || y > b))
				return 0;
		}
	return 1;
}

/* The bound of one call: every block that runs on every call, times the
 * trip counts of the loops around it that it runs in every iteration of
 * (known counts, loops leaving only from their latch; else once), all
 * operations counted (loop control included); and the chain of the whole
 * call (callchain()).  Branches that skip code make blocks count 0 times
 * and the chain uncomputed: a lower bound for every path. */
static void callbound(FILE *f, Fn *fn, const Target *t, const Model *m, int (*lp)[2], int nl)
{
	char *every = xcalloc(fn->nblk + 1, 1);
	everycall(fn, every);
	long *trip = xcalloc(nl + 1, sizeof(long));
	for (int l = 0; l < nl; l++) {
		trip[l] = oneexit(fn, lp[l][0], lp[l][1]) ? tripcount(fn, lp[l][0], lp[l][1]) : 0;
		for (int j = 0; j < l; j++)
			if (lp[j][0] == lp[l][0])
				trip[l] = trip[j] = 0; /* two latches of one head: counts unclear */
	}
	double ops[NOPS] = {0};
	for (int x = 0; x < fn->nblk; x++) {
		if (!every[x])
			continue;
		double mult = 1;
		for (int l = 0; l < nl; l++)
			if (lp[l][0] <= x && x <= lp[l][1] && trip[l] > 0)
				mult *= trip[l];
		for (int i = 0; i < fn->blk[x].nins; i++)
			tally(m, fn, &fn->blk[x].ins[i], mult, ops);
	}
	Res r = resource(m, ops);
	int ch = callchain(fn, t, m, lp, nl, trip, every);
	int chain = ch > r.bound + 1e-9;
	double bound = chain ? ch : r.bound;
	fprintf(f, "call: at least %.1f cycles (%s binds; resource %.1f, ", bound,
		chain ? "critical path" : r.issue ? "issue width" : "resource", r.bound);
	if (ch >= 0)
		fprintf(f, "critical path %d", ch);
	else
		fprintf(f, "critical path not computed: some calls skip code");
	int unknown = 0;
	for (int l = 0; l < nl; l++)
		unknown += trip[l] == 0;
	if (unknown)
		fprintf(f, "; %d loop%s of unknown trip count counted once", unknown, unknown > 1 ? "s" : "");
	fprintf(f, ")\n");
	free(trip);
	free(every);
}

/* static spill code of blocks [s, b]: stack accesses of spill slots, per
 * instruction a load if it reads one and a store if it writes one.  A
 * folded operand adds no instruction but is still an access: read
 * (`xor r, [slot]`) a load, read and written in place (`sub qword [slot],
 * 1`) a load and a store. */
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
					if (!(y->md->op[k].acc & AW) || (y->md->op[k].acc & AR))
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
			region(f, fn, t, m, s, b, NULL, ctl, what, 1, trip);
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
		Nest nb = nest(fn, t, m, lp, nl, l, ctl);
		double bound = nb.bound;
		const char *name = fn->blk[lp[l][0]].label >= 0 ? fn->lab[fn->blk[lp[l][0]].label].name : "?";
		if (!nb.known) {
			fprintf(f, "loop %s with its inner loops: trip counts unknown\n", name);
			continue;
		}
		char *skip = xcalloc(fn->nblk, 1);
		long bytes = advance(fn, lp[l][0], lp[l][1], skip);
		free(skip);
		fprintf(f, "loop %s with its inner loops: at least %.1f cycles per iteration", name, bound);
		if (bytes)
			fprintf(f, ", %ld bytes: at least %.3f cycles per byte", bytes, bound / bytes);
		fprintf(f, " (%s binds; resource %.1f, recurrence %.1f, inner chains %.1f)\n", nb.binds, nb.res, nb.rec, nb.chain);
	}
	callbound(f, fn, t, m, lp, nl);
	free(lp);
	for (int b = 0; b < fn->nblk; b++)
		memset(ctl[b], 0, fn->blk[b].nins + 1);
	region(f, fn, t, m, 0, fn->nblk - 1, NULL, ctl, "whole function, each block once", 0, 0);
	for (int b = 0; b < fn->nblk; b++)
		free(ctl[b]);
	free(ctl);
}
