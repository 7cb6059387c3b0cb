/* ir.c: the one owner of a function's IR: its construction (new
 * temporaries, instructions and blocks, for select.c and the passes that
 * add code), freeing and copying it (a pass tried and undone), its spill
 * cost, and its interference graph (Fn.graph: adjacency lists, the
 * union-find of coalesced temporaries and the copies), which coalesce.c
 * builds and alloc.c colours; no pass keeps a graph of its own between
 * passes.  Needs: filemask() (select.c, the target's register classes).
 * Provides: the functions below. */
#include "all.h"

/* ---------- the interference graph ---------- */

/* The adjacency lists live in the graph's own chunks, by power-of-two
 * capacity, a list outgrown going to its capacity's free list for the
 * next one of that size: a long block has millions of temporaries, and a
 * malloc, realloc and free for each of their lists cost more than the
 * edges themselves (and a heap header per list). */
typedef struct GChunk { struct GChunk *next; size_t used, size; } GChunk;
typedef struct GMem { GChunk *chunk; int *freel[32]; } GMem;
enum { GCHUNK = 1 << 20 };

static int *glist(GMem *m, int lg)
{
	int *p = m->freel[lg];
	if (p) {
		memcpy(&m->freel[lg], p, sizeof p);
		return p;
	}
	size_t n = (sizeof(int) << lg), hdr = (sizeof(GChunk) + 15) & ~(size_t)15;
	GChunk *c = m->chunk;
	if (!c || c->used + n > c->size) {
		size_t sz = hdr + n > GCHUNK / 4 ? hdr + n : GCHUNK;
		if (sz > GCHUNK && c && c->used + n > c->size) {
			/* a big list: a chunk of its own, behind the current one */
			GChunk *d = xmalloc(sz);
			*d = (GChunk){c->next, sz, sz};
			c->next = d;
			return (int *)((char *)d + hdr);
		}
		c = xmalloc(sz);
		*c = (GChunk){m->chunk, hdr, sz};
		m->chunk = c;
	}
	p = (int *)((char *)c + c->used);
	c->used += n;
	return p;
}

Graph *newgraph(int n)
{
	Graph *g = xcalloc(1, sizeof *g);
	g->n = n;
	g->adj = xcalloc(n + 1, sizeof *g->adj);
	g->nadj = xcalloc(n + 1, sizeof(int));
	g->cadj = xcalloc(n + 1, sizeof(int));
	g->alias = xmalloc((n + 1) * sizeof(int));
	for (int i = 0; i < n; i++)
		g->alias[i] = i;
	g->mem = xcalloc(1, sizeof(GMem));
	return g;
}

void freegraph(Graph *g)
{
	if (!g)
		return;
	GMem *m = g->mem;
	for (GChunk *c = m->chunk, *d; c; c = d) {
		d = c->next;
		free(c);
	}
	free(m);
	free(g->adj);
	free(g->nadj);
	free(g->cadj);
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

/* Membership scans the shorter of the two adjacency lists: a value's
 * neighbours are the few values live with it, and a hash set of every
 * edge (millions in a long block) cost a cache miss per edge built and a
 * quarter of the time of a spilling allocation.  Callers that join many
 * edges at once mark neighbours instead (coalesce.c). */
int hasedge(const Graph *g, int a, int b)
{
	if (g->nadj[a] > g->nadj[b]) {
		int t = a;
		a = b;
		b = t;
	}
	const int *l = g->adj[a];
	for (int i = 0, n = g->nadj[a]; i < n; i++)
		if (l[i] == b)
			return 1;
	return 0;
}

static void push(Graph *g, int a, int b)
{
	if (g->nadj[a] == g->cadj[a]) {
		GMem *m = g->mem;
		int lg = g->cadj[a] ? __builtin_ctz((unsigned)g->cadj[a]) + 1 : 2;
		int *l = glist(m, lg);
		if (g->cadj[a]) {
			memcpy(l, g->adj[a], g->nadj[a] * sizeof(int));
			int old = lg - 1, *o = g->adj[a];
			memcpy(o, &m->freel[old], sizeof o);
			m->freel[old] = o;
		}
		g->adj[a] = l;
		g->cadj[a] = 1 << lg;
	}
	g->adj[a][g->nadj[a]++] = b;
}

/* an edge known to be absent */
void addnewedge(Graph *g, int a, int b)
{
	push(g, a, b);
	push(g, b, a);
}

void addedge(Graph *g, int a, int b)
{
	if (a == b || hasedge(g, a, b))
		return;
	addnewedge(g, a, b);
}

/* ---------- construction (select.c, and the passes adding code) ---------- */

int newtmp(Fn *fn, int var, int type, int file)
{
	GROW(fn->tmp, fn->ntmp, fn->tmpcap);
	Tmp *t = &fn->tmp[fn->ntmp];
	memset(t, 0, sizeof *t);
	t->var = var;
	t->type = type;
	t->file = file;
	t->mask = filemask(file, fn->ext);
	t->fixed = t->reg = NOREG;
	t->slot = -1;
	return fn->ntmp++;
}

/* an empty instruction at the end of block b (its statement -1: spill
 * code; select.c sets the statement it translates) */
Ins *addins(Fn *fn, int b, const MdLine *m)
{
	Blk *bl = &fn->blk[b];
	GROW(bl->ins, bl->nins, bl->cap);
	Ins *i = &bl->ins[bl->nins++];
	*i = (Ins){.md = m, .op = newops(m ? m->nop : 0), .stmt = -1};
	return i;
}

/* x appended to block b; the copy shares x's operands (a pass rebuilding
 * a block moves its instructions) */
Ins *pushins(Fn *fn, int b, const Ins *x)
{
	Blk *bl = &fn->blk[b];
	GROW(bl->ins, bl->nins, bl->cap);
	bl->ins[bl->nins] = *x;
	return &bl->ins[bl->nins++];
}

Opnd *newops(int n)
{
	Opnd *o = opalloc(n * sizeof(Opnd));
	for (int k = 0; k < n; k++)
		o[k] = (Opnd){.base = -1, .index = -1};
	return o;
}

/* a new empty block at the end of the function */
int newblk(Fn *fn)
{
	GROW(fn->blk, fn->nblk, fn->blkcap);
	Blk *b = &fn->blk[fn->nblk];
	memset(b, 0, sizeof *b);
	b->succ[0] = b->succ[1] = -1;
	b->label = -1;
	return fn->nblk++;
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
	free(fn->spos);
	fn->spos = NULL;
	free(fn->slot);
	freegraph(fn->graph);
	fn->graph = NULL;
	fn->blk = NULL;
	fn->tmp = NULL;
	fn->vartmp = NULL;
	fn->slot = NULL;
	fn->nblk = fn->blkcap = fn->ntmp = fn->tmpcap = fn->nslot = 0;
}

/* a copy of a function's IR (blocks, temporaries, spill slots), so that a
 * pass can be tried and undone */
void copyir(Fn *dst, const Fn *src)
{
	dst->nblk = dst->blkcap = src->nblk;
	dst->blk = xmalloc((src->nblk + 1) * sizeof(Blk));
	for (int b = 0; b < src->nblk; b++) {
		dst->blk[b] = src->blk[b];
		dst->blk[b].ins = xmalloc((src->blk[b].nins + 1) * sizeof(Ins));
		for (int i = 0; i < src->blk[b].nins; i++) {
			const Ins *x = &src->blk[b].ins[i];
			int n = x->md ? x->md->nop : 0;
			dst->blk[b].ins[i] = *x;
			dst->blk[b].ins[i].op = newops(n);
			if (n)
				memcpy(dst->blk[b].ins[i].op, x->op, n * sizeof(Opnd));
		}
		dst->blk[b].cap = src->blk[b].nins + 1;
	}
	dst->ntmp = src->ntmp;
	dst->tmpcap = src->ntmp + 1;
	dst->tmp = xmalloc(dst->tmpcap * sizeof(Tmp));
	if (src->ntmp) /* a function without variables has no array to copy */
		memcpy(dst->tmp, src->tmp, src->ntmp * sizeof(Tmp));
	dst->nslot = src->nslot;
	dst->slot = src->nslot ? xmalloc(src->nslot * sizeof(Slot)) : NULL;
	if (src->nslot)
		memcpy(dst->slot, src->slot, src->nslot * sizeof(Slot));
	dst->round = src->round;
	dst->graph = NULL; /* rebuilt by coalescing */
	memcpy(dst->usedregs, src->usedregs, sizeof dst->usedregs);
}

/* free what copyir() made (and the graph built since; the operands go
 * with the function's, freeall()) */
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
	fn->nblk = fn->blkcap = fn->ntmp = fn->tmpcap = fn->nslot = 0;
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
