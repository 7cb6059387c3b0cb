/* report.c: the cost report (`qhasm --report -u MODEL`).  For each
 * function and each loop body (the blocks between a label and the branch
 * back to it), and for the function as a whole: the operations per model
 * class, the resource lower bound (for every set S of units, the
 * operations that can only use units in S, in unit-cycles, divided by |S|:
 * the busiest set bounds the cycles), the critical-path lower bound, and
 * the list scheduler's length.  Loop control (the branch, its compare and
 * the induction update) is counted apart, so a loop over Salsa20
 * double-rounds reports the double-round itself.  Needs: the selected IR
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

static void region(FILE *f, Fn *fn, const Model *m, int s, int b, char **ctl, const char *what)
{
	BStat sum;
	memset(&sum, 0, sizeof sum);
	for (int x = s; x <= b; x++) {
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
	fprintf(f, "%s:\n  operations:", what);
	int total = 0, totalctl = 0;
	for (int i = 0; i < m->ncls; i++)
		if (sum.ops[i]) {
			if (sum.ops[i] > sum.ctl[i])
				fprintf(f, " %s %d", m->cls[i].name, sum.ops[i] - sum.ctl[i]);
			total += sum.ops[i] - sum.ctl[i];
			totalctl += sum.ctl[i];
		}
	fprintf(f, " (%d in all", total);
	if (totalctl)
		fprintf(f, ", plus %d of loop control", totalctl);
	fprintf(f, ")\n");
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
}

void report(FILE *f, Fn *fn, const Target *t, const Model *m)
{
	(void)t;
	char **ctl = xmalloc(fn->nblk * sizeof(char *));
	for (int b = 0; b < fn->nblk; b++)
		ctl[b] = xcalloc(fn->blk[b].nins + 1, 1);
	fprintf(f, "function %s on %s (%s):\n", fn->name, m->name, m->source ? m->source : "no source given");
	for (int b = 0; b < fn->nblk; b++)
		for (int k = 0; k < 2; k++) {
			int s = fn->blk[b].succ[k];
			if (s < 0 || s > b)
				continue;
			loopctl(fn, s, b, ctl);
			char what[256];
			const char *name = fn->blk[s].label >= 0 ? fn->lab[fn->blk[s].label].name : "?";
			snprintf(what, sizeof what, "loop %s (line %d), per iteration", name,
				 fn->blk[s].label >= 0 ? fn->lab[fn->blk[s].label].pos.line : 0);
			region(f, fn, m, s, b, ctl, what);
		}
	for (int b = 0; b < fn->nblk; b++)
		memset(ctl[b], 0, fn->blk[b].nins + 1);
	region(f, fn, m, 0, fn->nblk - 1, ctl, "whole function, each block once");
	for (int b = 0; b < fn->nblk; b++)
		free(ctl[b]);
	free(ctl);
}
