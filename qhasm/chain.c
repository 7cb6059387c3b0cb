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
	char *kill;  /* per instruction: in a skipped block (an inner loop) */
	int nlive;   /* instructions not in skipped blocks */
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
 * time any output was ready.  With fromstart, an output that depends on no
 * input (`input`, a constant) is ready at 0 (else it stays NONE: not
 * reached from the followed source). */
static int passrange(const Body *b, int *avail, int fromstart, int i0, int i1)
{
	int latest = NONE;
	for (int i = i0; i < i1; i++) {
		const Ins *x = b->ins[i];
		const MdLine *m = x->md;
		if (b->kill[i]) {
			/* an inner loop's write: its chain is not followed, so the
			 * value is only known to be ready at the start (not to
			 * depend on the followed source) */
			int v = fromstart ? 0 : NONE;
			for (int k = 0; k < m->nop; k++) {
				int key = b->memkey[i * MAXOP + k];
				if (x->op[k].kind == OTMP && (m->op[k].acc & AW))
					avail[x->op[k].tmp] = v;
				if (key >= 0 && (m->op[k].acc & AW))
					avail[key] = v;
			}
			for (int g = 0; g < 3; g++)
				if (m->def >> g & 1)
					avail[b->ntmp + g] = v;
			continue;
		}
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
				if (fromstart && out[o] <= NONE)
					out[o] = 0;
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

static int pass(const Body *b, int *avail, int fromstart)
{
	return passrange(b, avail, fromstart, 0, b->n);
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

/* the instructions of blocks [s, b] not skipped, in order, with their
 * latencies and slot keys; off[] (if given, nblk + 1 entries) gets each
 * block's first instruction */
static void bodybuild(Fn *fn, const Target *t, const Model *m, int s, int b, const char *skip, Body *B, int *off)
{
	memset(B, 0, sizeof *B);
	B->ntmp = fn->ntmp;
	for (int x = s; x <= b; x++)
		B->n += fn->blk[x].nins;
	B->ins = xmalloc((B->n + 1) * sizeof *B->ins);
	B->lat = xmalloc((B->n + 1) * sizeof *B->lat);
	B->memkey = xmalloc((B->n + 1) * MAXOP * sizeof(int));
	B->kill = xcalloc(B->n + 1, 1);
	B->n = 0;
	for (int x = s; x <= b; x++) {
		if (off)
			off[x] = B->n;
		for (int i = 0; i < fn->blk[x].nins; i++) {
				const Ins *y = &fn->blk[x].ins[i];
				B->kill[B->n] = skip && skip[x];
				B->nlive += !B->kill[B->n];
				B->ins[B->n] = y;
				inslats(m, t, fn, y, B->lat[B->n]);
				for (int k = 0; k < MAXOP; k++)
					B->memkey[B->n * MAXOP + k] = k < y->md->nop ? memkey(B, &y->op[k]) : -1;
				B->n++;
			}
	}
	if (off)
		off[b + 1] = B->n;
	for (int i = 0; i < m->ncls; i++)
		if (!strcmp(m->cls[i].name, "load"))
			B->loadlat = m->cls[i].lat;
	B->nkey = B->ntmp + 3 + B->nmem;
}

static void bodyfree(Body *B)
{
	free(B->ins);
	free(B->lat);
	free(B->memkey);
	free(B->mem);
	free(B->kill);
}

/* One iteration of blocks [s, b] along all its paths at once (forward
 * edges; the back edges and the exits dropped): each block starts from the
 * element-wise minimum of its reached predecessors' end states, a lower
 * bound of the state on whichever path runs.  state: the state at s, and
 * on return b's end state.  Returns the latest time in b's end state and
 * s's outputs (s runs every iteration), or NONE if b is not reached. */
static int dagpass(const Fn *fn, const Body *B, const int *off, int s, int b, int *state, int fromstart)
{
	int nb = b - s + 1, nk = B->nkey, latest = NONE;
	int *st = xmalloc(((size_t)nb * nk + 1) * sizeof(int));
	char *reached = xcalloc(nb + 1, 1);
	for (int x = s; x <= b; x++) {
		int *cur = st + (size_t)(x - s) * nk;
		if (x == s) {
			memcpy(cur, state, nk * sizeof(int));
		} else {
			int any = 0;
			for (int y = s; y < x; y++) {
				if (!reached[y - s] || (fn->blk[y].succ[0] != x && fn->blk[y].succ[1] != x))
					continue;
				const int *py = st + (size_t)(y - s) * nk;
				for (int k = 0; k < nk; k++)
					cur[k] = !any || py[k] < cur[k] ? py[k] : cur[k];
				any = 1;
			}
			if (!any)
				continue;
		}
		reached[x - s] = 1;
		int l = passrange(B, cur, fromstart, off[x], off[x + 1]);
		if (x == s)
			latest = mx(latest, l);
	}
	if (reached[nb - 1]) {
		memcpy(state, st + (size_t)(nb - 1) * nk, nk * sizeof(int));
		for (int k = 0; k < nk; k++)
			latest = mx(latest, state[k]);
	} else {
		latest = NONE;
		for (int k = 0; k < nk; k++)
			state[k] = NONE;
	}
	free(st);
	free(reached);
	return latest;
}

void chains(Fn *fn, const Target *t, const Model *m, int s, int b, const char *skip, long trip, Chains *c)
{
	memset(c, 0, sizeof *c);
	c->linear = linear(fn, s, b, skip);
	Body B;
	int *off = xmalloc((fn->nblk + 1) * sizeof(int));
	bodybuild(fn, t, m, s, b, skip, &B, off);
	int *avail = xmalloc((B.nkey + 1) * sizeof(int));
	/* one iteration's critical path, everything ready at its start */
	for (int k = 0; k < B.nkey; k++)
		avail[k] = 0;
	c->critical = mx(c->linear ? pass(&B, avail, 1) : dagpass(fn, &B, off, s, b, avail, 1), 0);
	c->body = B.nlive;
	/* a counted loop's whole run: iterations chained through their values */
	if (trip > 1 && c->linear) {
		for (int k = 0; k < B.nkey; k++)
			avail[k] = 0;
		int last = 0;
		for (long r = 0; r < trip && r < 64; r++)
			last = mx(last, pass(&B, avail, 1));
		c->criticalrun = last;
	}
	/* the values carried around the loop: read before written, and written */
	char *rd = xcalloc(B.nkey + 1, 1), *wr = xcalloc(B.nkey + 1, 1);
	for (int i = 0; i < B.n; i++) {
		const Ins *x = B.ins[i];
		for (int k = 0; k < x->md->nop && !B.kill[i]; k++) {
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
		for (int g = 0; g < 3 && !B.kill[i]; g++)
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
	if (n) {
		int *w = xmalloc((size_t)n * n * sizeof(int));
		for (int u = 0; u < n; u++) {
			for (int k = 0; k < B.nkey; k++)
				avail[k] = NONE;
			avail[v[u]] = 0;
			if (c->linear)
				pass(&B, avail, 0);
			else
				dagpass(fn, &B, off, s, b, avail, 0);
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
	free(off);
	bodyfree(&B);
}

/* ---- the chain of a whole call ---------------------------------------- */
typedef struct Sim {
	Fn *fn;
	Body B;
	int *off, *avail;
	int (*lp)[2];
	int nl;
	const long *trip;
	long budget; /* instructions still to simulate */
	int latest;
} Sim;

static void simloop(Sim *S, int l);

/* blocks [s, b] once, each directly nested loop (other than self) run
 * through simloop */
static void simrange(Sim *S, int s, int b, int self)
{
	for (int x = s; x <= b;) {
		int j = -1;
		for (int k = 0; k < S->nl; k++)
			if (k != self && S->lp[k][0] == x && S->lp[k][1] <= b
			    && !(self >= 0 && S->lp[k][0] == S->lp[self][0] && S->lp[k][1] == S->lp[self][1])
			    && (j < 0 || S->lp[k][1] > S->lp[j][1]))
				j = k;
		if (j >= 0) {
			simloop(S, j);
			x = S->lp[j][1] + 1;
			continue;
		}
		S->latest = mx(S->latest, passrange(&S->B, S->avail, 1, S->off[x], S->off[x + 1]));
		S->budget -= S->off[x + 1] - S->off[x];
		x++;
	}
}

/* a loop's iterations (its trip count; one when unknown), chained; when
 * not all were followed (unknown count, or over the budget) the values it
 * writes are then only known to be ready at 0 */
static void simloop(Sim *S, int l)
{
	long n = S->trip[l] > 0 ? S->trip[l] : 1, r;
	for (r = 0; r < n && S->budget > 0; r++)
		simrange(S, S->lp[l][0], S->lp[l][1], l);
	if (S->trip[l] > 0 && r == n)
		return;
	for (int i = S->off[S->lp[l][0]]; i < S->off[S->lp[l][1] + 1]; i++) {
		const Ins *x = S->B.ins[i];
		for (int k = 0; k < x->md->nop; k++) {
			int key = S->B.memkey[i * MAXOP + k];
			if (x->op[k].kind == OTMP && (x->md->op[k].acc & AW))
				S->avail[x->op[k].tmp] = 0;
			if (key >= 0 && (x->md->op[k].acc & AW))
				S->avail[key] = 0;
		}
		for (int g = 0; g < 3; g++)
			if (x->md->def >> g & 1)
				S->avail[S->B.ntmp + g] = 0;
	}
}

/* The critical path of one call of a function whose every block runs on
 * every call (its only branches close loops): the blocks in order, each
 * loop [lp[l][0], lp[l][1]] run trip[l] times (0: unknown, then once and
 * its values forgotten), everything ready at the entry.  Returns -1 if it
 * does not apply (a block some calls skip). */
int callchain(Fn *fn, const Target *t, const Model *m, int (*lp)[2], int nl, const long *trip, const char *every)
{
	for (int x = 0; x < fn->nblk; x++)
		if (!every[x])
			return -1;
	Sim S;
	memset(&S, 0, sizeof S);
	S.fn = fn;
	S.lp = lp;
	S.nl = nl;
	S.trip = trip;
	S.budget = 20000000;
	S.off = xmalloc((fn->nblk + 1) * sizeof(int));
	bodybuild(fn, t, m, 0, fn->nblk - 1, NULL, &S.B, S.off);
	S.avail = xmalloc((S.B.nkey + 1) * sizeof(int));
	for (int k = 0; k < S.B.nkey; k++)
		S.avail[k] = 0;
	S.latest = 0;
	simrange(&S, 0, fn->nblk - 1, -1);
	free(S.avail);
	free(S.off);
	bodyfree(&S.B);
	return S.latest;
}
