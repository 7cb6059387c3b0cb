/* chain.c: dependence chains of a loop body for the cost report: the
 * recurrence bound (the longest latency cycle carried around the loop per
 * iteration: the recurrence-constrained minimum initiation interval) and
 * the critical path of one iteration (and of a counted loop's whole run).
 * Only true dependences count (an out-of-order core renames registers),
 * each with the latency from the input to the output it feeds
 * (latency.c), through registers, flags and stack and spill slots (a
 * store forwards its data at once: memory renaming may make it free);
 * accesses through pointers order nothing here.  So every figure is a
 * lower bound.  Needs: the allocated IR, latency.c.  Provides: chains(). */
#include "all.h"

enum { NONE = -1000000000 };

typedef struct Key { int kind, obj; i64 disp; } Key;

typedef struct Body {
	const Ins **ins;
	int n;
	int (*lat)[MAXOP + 1][MAXOP + 1];
	int loadlat;
	int nkey, ntmp;
	Key *mem;
	int nmem, cmem;
	int *memkey; /* per instruction and operand: the slot key or -1 */
} Body;

static int memkey(Body *b, const Opnd *o)
{
	if (o->kind != OMEM || o->addr || (o->mkind != MBSTACK && o->mkind != MBSPILL))
		return -1;
	for (int i = 0; i < b->nmem; i++)
		if (b->mem[i].kind == o->mkind && b->mem[i].obj == o->obj && b->mem[i].disp == o->disp)
			return b->ntmp + 3 + i;
	GROW(b->mem, b->nmem, b->cmem);
	b->mem[b->nmem] = (Key){o->mkind, o->obj, o->disp};
	return b->ntmp + 3 + b->nmem++;
}

static int mx(int a, int b)
{
	return a > b ? a : b;
}

/* one pass over the body: avail[] (per key: when its value is ready, NONE:
 * not from the sources followed) is updated in place; returns the latest
 * time any output was ready */
static int pass(const Body *b, int *avail)
{
	int latest = NONE;
	for (int i = 0; i < b->n; i++) {
		const Ins *x = b->ins[i];
		const MdLine *m = x->md;
		int ready[MAXOP + 1], data[MAXOP];
		for (int k = 0; k <= MAXOP; k++)
			ready[k] = NONE;
		for (int k = 0; k < m->nop; k++) {
			const Opnd *o = &x->op[k];
			data[k] = NONE;
			if (opreads(x, k))
				ready[k] = avail[o->tmp];
			else if (o->kind == OMEM) {
				if (o->base >= 0)
					ready[k] = mx(ready[k], avail[o->base]);
				if (o->index >= 0)
					ready[k] = mx(ready[k], avail[o->index]);
				int key = b->memkey[i * MAXOP + k];
				if (key >= 0 && !(m->op[k].acc & AW))
					data[k] = avail[key];
			}
		}
		for (int g = 0; g < 3; g++)
			if (m->use >> g & 1)
				ready[LFLAGS] = mx(ready[LFLAGS], avail[b->ntmp + g]);
		int out[MAXOP + 1];
		for (int o = 0; o <= MAXOP; o++) {
			out[o] = NONE;
			for (int k = 0; k <= MAXOP; k++) {
				int l = b->lat[i][k][o];
				if (l < 0)
					continue;
				if (ready[k] > NONE)
					out[o] = mx(out[o], ready[k] + l);
				/* a load's data from a store: without the load's latency */
				if (k < MAXOP && k < m->nop && data[k] > NONE)
					out[o] = mx(out[o], data[k] + mx(l - b->loadlat, 0));
			}
		}
		for (int o = 0; o < m->nop; o++)
			if (x->op[o].kind == OTMP && (m->op[o].acc & AW)) {
				avail[x->op[o].tmp] = out[o];
				latest = mx(latest, out[o]);
			}
		for (int g = 0; g < 3; g++)
			if (m->def >> g & 1)
				avail[b->ntmp + g] = out[LFLAGS];
		/* a store into a stack or spill slot: ready when its data is */
		for (int o = 0; o < m->nop; o++) {
			int key = b->memkey[i * MAXOP + o];
			if (key < 0 || !(m->op[o].acc & AW))
				continue;
			int d = NONE;
			for (int k = 0; k < m->nop; k++)
				if (opreads(x, k))
					d = mx(d, ready[k]);
			avail[key] = d;
		}
	}
	return latest;
}

/* Is [s, b] one path per iteration?  Every block's successors are the next
 * block, the loop head (from b), or outside the loop; skipped blocks (inner
 * loops) are passed through. */
static int linear(const Fn *fn, int s, int b, const char *skip)
{
	for (int x = s; x <= b; x++) {
		if (skip && skip[x])
			continue;
		for (int k = 0; k < 2; k++) {
			int y = fn->blk[x].succ[k];
			if (y < 0 || y == x + 1 || y < s || y > b || (y == s && x == b))
				continue;
			return 0;
		}
	}
	return 1;
}

/* the maximum mean cycle of the carried-value graph w (n nodes, every edge
 * one iteration long), by Karp's algorithm; 0 without a cycle */
static double maxmean(int n, const int *w)
{
	if (!n)
		return 0;
	int *d = xmalloc((size_t)(n + 1) * n * sizeof(int));
	for (int v = 0; v < n; v++)
		d[v] = 0;
	for (int k = 1; k <= n; k++)
		for (int v = 0; v < n; v++) {
			int best = NONE;
			for (int u = 0; u < n; u++)
				if (w[u * n + v] > NONE && d[(k - 1) * n + u] > NONE)
					best = mx(best, d[(k - 1) * n + u] + w[u * n + v]);
			d[k * n + v] = best;
		}
	double res = 0;
	for (int v = 0; v < n; v++) {
		if (d[n * n + v] <= NONE)
			continue;
		double lo = 1e300;
		for (int k = 0; k < n; k++)
			if (d[k * n + v] > NONE) {
				double r = (double)(d[n * n + v] - d[k * n + v]) / (n - k);
				if (r < lo)
					lo = r;
			}
		if (lo < 1e300 && lo > res)
			res = lo;
	}
	free(d);
	return res;
}

void chains(Fn *fn, const Target *t, const Model *m, int s, int b, const char *skip, long trip, Chains *c)
{
	memset(c, 0, sizeof *c);
	c->linear = linear(fn, s, b, skip);
	Body B;
	memset(&B, 0, sizeof B);
	B.ntmp = fn->ntmp;
	for (int x = s; x <= b; x++)
		if (!skip || !skip[x])
			B.n += fn->blk[x].nins;
	B.ins = xmalloc((B.n + 1) * sizeof *B.ins);
	B.lat = xmalloc((B.n + 1) * sizeof *B.lat);
	B.memkey = xmalloc((B.n + 1) * MAXOP * sizeof(int));
	B.n = 0;
	for (int x = s; x <= b; x++)
		if (!skip || !skip[x])
			for (int i = 0; i < fn->blk[x].nins; i++) {
				const Ins *y = &fn->blk[x].ins[i];
				B.ins[B.n] = y;
				inslats(m, t, fn, y, B.lat[B.n]);
				for (int k = 0; k < MAXOP; k++)
					B.memkey[B.n * MAXOP + k] = k < y->md->nop ? memkey(&B, &y->op[k]) : -1;
				B.n++;
			}
	for (int i = 0; i < m->ncls; i++)
		if (!strcmp(m->cls[i].name, "load"))
			B.loadlat = m->cls[i].lat;
	B.nkey = B.ntmp + 3 + B.nmem;
	int *avail = xmalloc((B.nkey + 1) * sizeof(int));
	/* one iteration's critical path, everything ready at its start */
	for (int k = 0; k < B.nkey; k++)
		avail[k] = 0;
	c->critical = mx(pass(&B, avail), 0);
	c->body = B.n;
	/* a counted loop's whole run: iterations chained through their values */
	if (trip > 1 && c->linear) {
		for (int k = 0; k < B.nkey; k++)
			avail[k] = 0;
		int last = 0;
		for (long r = 0; r < trip && r < 64; r++)
			last = mx(last, pass(&B, avail));
		c->criticalrun = last;
	}
	/* the values carried around the loop: read before written, and written */
	char *rd = xcalloc(B.nkey + 1, 1), *wr = xcalloc(B.nkey + 1, 1);
	for (int i = 0; i < B.n; i++) {
		const Ins *x = B.ins[i];
		for (int k = 0; k < x->md->nop; k++) {
			const Opnd *o = &x->op[k];
			int key = B.memkey[i * MAXOP + k];
			if (opreads(x, k) && !wr[o->tmp])
				rd[o->tmp] = 1;
			if (o->kind == OMEM && o->base >= 0 && !wr[o->base])
				rd[o->base] = 1;
			if (o->kind == OMEM && o->index >= 0 && !wr[o->index])
				rd[o->index] = 1;
			if (key >= 0 && !(x->md->op[k].acc & AW) && !wr[key])
				rd[key] = 1;
		}
		for (int g = 0; g < 3; g++)
			if ((x->md->use >> g & 1) && !wr[B.ntmp + g])
				rd[B.ntmp + g] = 1;
		for (int k = 0; k < x->md->nop; k++) {
			int key = B.memkey[i * MAXOP + k];
			if (x->op[k].kind == OTMP && (x->md->op[k].acc & AW))
				wr[x->op[k].tmp] = 1;
			if (key >= 0 && (x->md->op[k].acc & AW))
				wr[key] = 1;
		}
		for (int g = 0; g < 3; g++)
			if (x->md->def >> g & 1)
				wr[B.ntmp + g] = 1;
	}
	int *v = xmalloc((B.nkey + 1) * sizeof(int)), n = 0;
	for (int k = 0; k < B.nkey; k++)
		if (rd[k] && wr[k])
			v[n++] = k;
	c->carried = n;
	if (c->linear && n) {
		int *w = xmalloc((size_t)n * n * sizeof(int));
		for (int u = 0; u < n; u++) {
			for (int k = 0; k < B.nkey; k++)
				avail[k] = NONE;
			avail[v[u]] = 0;
			pass(&B, avail);
			for (int j = 0; j < n; j++)
				w[u * n + j] = avail[v[j]];
		}
		c->recurrence = maxmean(n, w);
		free(w);
	}
	free(v);
	free(rd);
	free(wr);
	free(avail);
	free(B.ins);
	free(B.lat);
	free(B.memkey);
	free(B.mem);
}
