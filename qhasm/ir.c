/* ir.c: the one owner of a function's IR beyond its construction by
 * select.c: freeing and copying it (a pass tried and undone), its spill
 * cost, and its interference graph (Fn.graph: adjacency lists, a hash set
 * of edges for membership, the union-find of coalesced temporaries and
 * the copies), which coalesce.c builds and alloc.c colours.
 * Needs: select.c.  Provides: the functions below. */
#include "all.h"

/* ---------- the interference graph ---------- */

Graph *newgraph(int n)
{
	Graph *g = xcalloc(1, sizeof *g);
	g->n = n;
	g->adj = xcalloc(n + 1, sizeof *g->adj);
	g->nadj = xcalloc(n + 1, sizeof(int));
	g->cadj = xcalloc(n + 1, sizeof(int));
	g->ehcap = 1024;
	g->eh = xcalloc(g->ehcap, sizeof(u64));
	g->alias = xmalloc((n + 1) * sizeof(int));
	for (int i = 0; i < n; i++)
		g->alias[i] = i;
	return g;
}

void freegraph(Graph *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->n; i++)
		free(g->adj[i]);
	free(g->adj);
	free(g->nadj);
	free(g->cadj);
	free(g->eh);
	free(g->alias);
	free(g->mv);
	free(g->wmv);
	free(g->mvsplit);
	free(g);
}

int rep(Graph *g, int t)
{
	while (g->alias[t] != t)
		t = g->alias[t] = g->alias[g->alias[t]];
	return t;
}

static u64 ekey(int a, int b)
{
	if (a > b) {
		int t = a;
		a = b;
		b = t;
	}
	return ((u64)(unsigned)a << 32 | (unsigned)b) + 1;
}

static unsigned ehash(u64 k)
{
	k *= 0x9E3779B97F4A7C15ull;
	return (unsigned)(k >> 32);
}

int hasedge(const Graph *g, int a, int b)
{
	u64 k = ekey(a, b);
	for (unsigned i = ehash(k) & (g->ehcap - 1);; i = (i + 1) & (g->ehcap - 1)) {
		if (!g->eh[i])
			return 0;
		if (g->eh[i] == k)
			return 1;
	}
}

static void ehinsert(Graph *g, u64 k)
{
	unsigned i = ehash(k) & (g->ehcap - 1);
	while (g->eh[i])
		i = (i + 1) & (g->ehcap - 1);
	g->eh[i] = k;
	g->ehn++;
}

static void push(Graph *g, int a, int b)
{
	if (g->nadj[a] == g->cadj[a]) {
		g->cadj[a] = g->cadj[a] ? 2 * g->cadj[a] : 4;
		g->adj[a] = xrealloc(g->adj[a], g->cadj[a] * sizeof(int));
	}
	g->adj[a][g->nadj[a]++] = b;
}

static void ehgrow(Graph *g)
{
	u64 *old = g->eh;
	int oc = g->ehcap;
	g->ehcap *= 2;
	g->eh = xcalloc(g->ehcap, sizeof(u64));
	g->ehn = 0;
	for (int i = 0; i < oc; i++)
		if (old[i])
			ehinsert(g, old[i]);
	free(old);
}

/* an edge known to be absent */
void addnewedge(Graph *g, int a, int b)
{
	if (2 * (g->ehn + 1) > g->ehcap)
		ehgrow(g);
	ehinsert(g, ekey(a, b));
	push(g, a, b);
	push(g, b, a);
}

void addedge(Graph *g, int a, int b)
{
	if (a == b || hasedge(g, a, b))
		return;
	addnewedge(g, a, b);
}

/* ---------- functions ---------- */

/* free the IR of a function (after emission) */
void freefn(Fn *fn)
{
	for (int b = 0; b < fn->nblk; b++)
		free(fn->blk[b].ins);
	free(fn->blk);
	free(fn->tmp);
	free(fn->vartmp);
	free(fn->slot);
	freegraph(fn->graph);
	fn->graph = NULL;
	fn->blk = NULL;
	fn->tmp = NULL;
	fn->vartmp = NULL;
	fn->slot = NULL;
	fn->nblk = fn->ntmp = fn->tmpcap = fn->nslot = 0;
}

/* a copy of a function's IR (blocks, temporaries, spill slots), so that a
 * pass can be tried and undone */
void copyir(Fn *dst, const Fn *src)
{
	dst->nblk = src->nblk;
	dst->blk = xmalloc((src->nblk + 1) * sizeof(Blk));
	for (int b = 0; b < src->nblk; b++) {
		dst->blk[b] = src->blk[b];
		dst->blk[b].ins = xmalloc((src->blk[b].nins + 1) * sizeof(Ins));
		if (src->blk[b].nins)
			memcpy(dst->blk[b].ins, src->blk[b].ins, src->blk[b].nins * sizeof(Ins));
		dst->blk[b].cap = src->blk[b].nins + 1;
	}
	dst->ntmp = src->ntmp;
	dst->tmpcap = src->ntmp + 1;
	dst->tmp = xmalloc(dst->tmpcap * sizeof(Tmp));
	memcpy(dst->tmp, src->tmp, src->ntmp * sizeof(Tmp));
	dst->nslot = src->nslot;
	dst->slot = src->nslot ? xmalloc(src->nslot * sizeof(Slot)) : NULL;
	if (src->nslot)
		memcpy(dst->slot, src->slot, src->nslot * sizeof(Slot));
	dst->round = src->round;
	dst->graph = NULL; /* rebuilt by coalescing */
	memcpy(dst->usedregs, src->usedregs, sizeof dst->usedregs);
}

/* free what copyir() made (and the graph built since) */
void freeir(Fn *fn)
{
	freegraph(fn->graph);
	fn->graph = NULL;
	for (int b = 0; b < fn->nblk; b++)
		free(fn->blk[b].ins);
	free(fn->blk);
	free(fn->tmp);
	free(fn->slot);
	fn->blk = NULL;
	fn->tmp = NULL;
	fn->slot = NULL;
	fn->nblk = fn->ntmp = fn->tmpcap = fn->nslot = 0;
}

/* spill traffic: loads and stores of spill slots, weighted by loop depth */
double spillcost(const Fn *fn)
{
	double c = 0;
	for (int b = 0; b < fn->nblk; b++) {
		double w = 1;
		for (int d = 0; d < fn->blk[b].depth && d < 8; d++)
			w *= 10;
		for (int i = 0; i < fn->blk[b].nins; i++)
			for (int k = 0; k < fn->blk[b].ins[i].md->nop; k++)
				if (fn->blk[b].ins[i].op[k].kind == OMEM && fn->blk[b].ins[i].op[k].mkind == MBSPILL)
					c += w;
	}
	return c;
}
