/* coalesce.c: builds the interference graph from liveness and merges the
 * two sides of register copies when that cannot make the graph harder to
 * colour (Briggs' conservative test), respecting register masks and
 * fixed registers.  A merged copy becomes `mov r, r` and is dropped at
 * emission.  Needs: live.c.  Provides: Fn.graph (ir.c: edges, alias,
 * moves), Tmp.cost. */
#include "all.h"

/* beyond this many simultaneously live values the interference graph
 * (quadratic in them) would not fit in memory: a clean error instead */
enum { MAXLIVE = 4096 };

static Graph *G;  /* the function's graph (Fn.graph), built here */

/* a sparse set of live temporaries */
static int *dense, *sparse, nlive;
static int islive(int t) { return sparse[t] < nlive && dense[sparse[t]] == t; }
static void setlive(int t)
{
	if (!islive(t)) {
		sparse[t] = nlive;
		dense[nlive++] = t;
	}
}
static void clrlive(int t)
{
	if (islive(t)) {
		int last = dense[--nlive];
		dense[sparse[t]] = last;
		sparse[last] = sparse[t];
	}
}

static const Ins *curins;

static void edge(Fn *fn, int a, int b)
{
	if (a == b || fn->tmp[a].file != fn->tmp[b].file)
		return;
	if (fn->tmp[a].fixed != NOREG && fn->tmp[a].fixed == fn->tmp[b].fixed) {
		int v = fn->tmp[a].var >= 0 ? fn->tmp[a].var : fn->tmp[b].var;
		Pos p = curins && curins->stmt >= 0 ? fn->spos[curins->stmt] : fn->pos;
		if (v >= 0)
			err(p, "the fixed registers of this instruction cannot be satisfied: '%s' is pinned to a register it needs", vars[v].name);
		err(p, "the fixed registers of this instruction cannot be satisfied");
	}
	addedge(G, a, b);
}

/* edge() for a pair known not to be joined yet */
static void newedge(Fn *fn, int a, int b)
{
	if (a == b || fn->tmp[a].file != fn->tmp[b].file)
		return;
	if (fn->tmp[a].fixed != NOREG && fn->tmp[a].fixed == fn->tmp[b].fixed)
		edge(fn, a, b); /* the error */
	addnewedge(G, a, b);
}

static int nuses(const Ins *x, int *u)
{
	int n = 0;
	for (int k = 0; k < x->md->nop; k++) {
		if (opreads(x, k))
			u[n++] = x->op[k].tmp;
		if (x->op[k].kind == OMEM) {
			if (x->op[k].base >= 0)
				u[n++] = x->op[k].base;
			if (x->op[k].index >= 0)
				u[n++] = x->op[k].index;
		}
	}
	return n;
}

static void build(Fn *fn)
{
	freegraph(fn->graph);
	G = fn->graph = newgraph(fn->ntmp);
	for (int i = 0; i < G->n; i++)
		fn->tmp[i].cost = 0;
	dense = ralloc(G->n * sizeof(int));
	sparse = ralloc(G->n * sizeof(int));
	/* stamp[t] == at: t is already a neighbour of the definition being
	 * joined to the live set (most of those edges exist already: a value
	 * redefined in place meets the same neighbours again), which spares
	 * the hash lookups */
	int *stamp = ralloc(G->n * sizeof(int)), at = 0;
	/* the temporaries' register files, packed: a definition meets every
	 * live value, and those of the other files (no edge) are skipped
	 * without reading their Tmp */
	signed char *tfile = ralloc(G->n + 1);
	for (int i = 0; i < G->n; i++)
		tfile[i] = (signed char)fn->tmp[i].file;
	for (int b = 0; b < fn->nblk; b++) {
		Blk *bl = &fn->blk[b];
		double w = 1;
		for (int d = 0; d < bl->depth && d < 8; d++)
			w *= 10;
		nlive = 0;
		for (int j = 0; j < bswords(G->n); j++)
			for (u64 v = bl->out[j]; v; v &= v - 1)
				setlive(j * 64 + ctz(v));
		for (int i = bl->nins - 1; i >= 0; i--) {
			Ins *x = &bl->ins[i];
			int u[2 * MAXOP], nu = nuses(x, u);
			curins = x;
			int ismove = (x->md->attr & AMOV) && x->op[0].kind == OTMP && x->op[1].kind == OTMP;
			int multi = x->md->multi;
			if (ismove) {
				clrlive(x->op[1].tmp);
				GROW(G->mv, G->nmv, G->cmv);
				G->wmv = xrealloc(G->wmv, G->cmv * sizeof(double));
				G->mvsplit = xrealloc(G->mvsplit, G->cmv);
				G->mvsplit[G->nmv] = (x->keep & KSPLIT) != 0;
				G->mv[G->nmv][0] = x->op[0].tmp;
				G->mv[G->nmv][1] = x->op[1].tmp;
				G->wmv[G->nmv++] = w;
			}
			if (nlive > MAXLIVE)
				err(x->stmt >= 0 ? fn->spos[x->stmt] : fn->pos,
				    "more than %d values are live here: too many for register allocation", MAXLIVE);
			for (int k = 0; k < x->md->nop; k++) {
				if (x->op[k].kind == OTMP)
					fn->tmp[x->op[k].tmp].cost += w;
				if (!opwrites(x, k))
					continue;
				int d = x->op[k].tmp, fd = tfile[d];
				if (G->nadj[d] <= 4 * nlive + 16) {
					at++;
					for (int j = 0; j < G->nadj[d]; j++)
						stamp[G->adj[d][j]] = at;
					for (int l = 0; l < nlive; l++) {
						int v = dense[l];
						if (stamp[v] != at) {
							stamp[v] = at;
							if (tfile[v] == fd)
								newedge(fn, d, v);
						}
					}
				} else
					for (int l = 0; l < nlive; l++)
						if (tfile[dense[l]] == fd)
							edge(fn, d, dense[l]);
				/* scratch registers, and outputs of multi-instruction
				 * templates, are written while inputs are still read */
				if (multi || x->md->op[k].acc == ASCR)
					for (int j = 0; j < nu; j++)
						edge(fn, d, u[j]);
				for (int j = 0; j < x->md->nop; j++)
					if (j != k && opwrites(x, j))
						edge(fn, d, x->op[j].tmp);
			}
			for (int k = 0; k < x->md->nop; k++)
				if (opwrites(x, k))
					clrlive(x->op[k].tmp);
			for (int j = 0; j < nu; j++)
				setlive(u[j]);
			for (int k = 0; k < x->md->nop; k++)
				if (x->op[k].kind == OMEM) {
					if (x->op[k].base >= 0)
						fn->tmp[x->op[k].base].cost += w;
					if (x->op[k].index >= 0)
						fn->tmp[x->op[k].index].cost += w;
				}
		}
	}
}

static int deg(Fn *fn, int n) { (void)fn; return G->nadj[n]; }

static int K(Fn *fn, int n) { return popcnt(fn->tmp[n].mask); }

static int *ma, *mb, mark; /* neighbour marks for canmerge() */

static int canmerge(Fn *fn, int a, int b)
{
	Tmp *x = &fn->tmp[a], *y = &fn->tmp[b];
	if (x->file != y->file || hasedge(G, a, b) || !(x->mask & y->mask))
		return 0;
	if (x->fixed != NOREG && y->fixed != NOREG)
		return x->fixed == y->fixed;
	int r = x->fixed != NOREG ? x->fixed : y->fixed;
	if (r != NOREG) {
		int o = x->fixed != NOREG ? b : a;
		if (!(fn->tmp[o].mask >> r & 1))
			return 0;
		for (int i = 0; i < G->nadj[o]; i++)
			if (fn->tmp[G->adj[o][i]].fixed == r)
				return 0;
		return 1;
	}
	/* Briggs: fewer than K neighbours of significant degree (the
	 * neighbours of a and of b are marked: no hash lookups) */
	u64 m = x->mask & y->mask;
	int k = popcnt(m), sig = 0;
	mark++;
	for (int i = 0; i < G->nadj[a]; i++)
		ma[G->adj[a][i]] = mark;
	for (int i = 0; i < G->nadj[b]; i++)
		mb[G->adj[b][i]] = mark;
	for (int s = 0; s < 2; s++) {
		int c = s ? b : a;
		for (int i = 0; i < G->nadj[c]; i++) {
			int nb = G->adj[c][i];
			if (s && ma[nb] == mark)
				continue; /* counted once */
			int d = deg(fn, nb) - (ma[nb] == mark && mb[nb] == mark);
			if (fn->tmp[nb].fixed != NOREG || d >= K(fn, nb))
				sig++;
		}
	}
	return sig < k;
}

static void removeadj(int n, int b)
{
	for (int i = 0; i < G->nadj[n]; i++)
		if (G->adj[n][i] == b) {
			G->adj[n][i] = G->adj[n][--G->nadj[n]];
			return;
		}
}

static int pinned(const Fn *fn, int t)
{
	return fn->tmp[t].var >= 0 && vars[fn->tmp[t].var].pin && fn->tmp[t].fixed != NOREG;
}

static void merge(Fn *fn, int a, int b)
{
	Tmp *x = &fn->tmp[a], *y = &fn->tmp[b];
	if (y->fixed != NOREG)
		x->fixed = y->fixed;
	x->mask &= y->mask;
	x->cost += y->cost;
	/* a value joined to a fixed register (an argument, a mul operand)
	 * may still be spilled, unless the user pinned it there */
	x->nospill = pinned(fn, a) || pinned(fn, b) || (x->nospill && y->nospill);
	/* a's neighbours marked: b's become a's without a lookup each */
	mark++;
	for (int i = 0; i < G->nadj[a]; i++)
		ma[G->adj[a][i]] = mark;
	for (int i = 0; i < G->nadj[b]; i++) {
		int n = G->adj[b][i];
		removeadj(n, b);
		if (n != a && ma[n] != mark)
			addnewedge(G, a, n);
	}
	G->nadj[b] = 0;
	G->alias[b] = a;
}

void coalesce(Fn *fn, const Target *t)
{
	(void)t;
	build(fn);
	ma = ralloc(G->n * sizeof(int));
	mb = ralloc(G->n * sizeof(int));
	mark = 0;
	for (int changed = 1, pass = 0; changed && pass < 4; pass++) {
		changed = 0;
		for (int i = 0; i < G->nmv; i++) {
			int a = rep(G, G->mv[i][0]), b = rep(G, G->mv[i][1]);
			if (a == b || G->mvsplit[i] || !canmerge(fn, a, b))
				continue;
			if (fn->tmp[b].fixed != NOREG) {
				int s = a;
				a = b;
				b = s;
			}
			merge(fn, a, b);
			changed = 1;
		}
	}
	freeround();
}
