/* webs.c: splits each variable into webs, the maximal sets of definitions
 * and uses connected through reaching definitions, and gives every web its
 * own temporary.  A variable reused for unrelated values (a `t` in every
 * round) then no longer interferes with everything live across all of its
 * uses, and the scheduler sees no false dependences between its lives.
 * An in-place operand (`a += b`) keeps its definition in the web of the
 * value it reads.  Pinned variables are left whole.
 * Needs: select.c.  Provides: renamed temporaries (Tmp.var kept). */
#include "all.h"

static int *uf;

static int find(int x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

static void unite(int a, int b)
{
	a = find(a);
	b = find(b);
	if (a != b)
		uf[a > b ? a : b] = a < b ? a : b;
}

static int splittable(const Fn *fn, int t)
{
	return t >= 0 && fn->tmp[t].var >= 0 && fn->tmp[t].fixed == NOREG;
}

static int entrynode(const int *estart, const int *etmp, int nd, int b, int t)
{
	/* the live-in list of a block is sorted by temporary: binary search */
	int lo = estart[b], hi = estart[b + 1] - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (etmp[mid] == t)
			return nd + mid;
		if (etmp[mid] < t)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* the definition sites of each temporary, numbered in program order */
typedef struct Site { int tmp; } Site;

void webs(Fn *fn, const Target *tg)
{
	(void)tg;
	/* liveness first: it may report an uninitialised variable, and must
	 * do so before anything here is allocated */
	live(fn);
	int nt = fn->ntmp, nd = 0, cd = 0;
	Site *site = NULL;
	/* number the definitions; defs of a temp are contiguous in deflist */
	for (int b = 0; b < fn->nblk; b++)
		for (int i = 0; i < fn->blk[b].nins; i++) {
			Ins *x = &fn->blk[b].ins[i];
			for (int k = 0; k < x->md->nop; k++)
				if (opwrites(x, k) && splittable(fn, x->op[k].tmp)) {
					GROW(site, nd, cd);
					site[nd++].tmp = x->op[k].tmp;
				}
		}
	if (!nd) {
		free(site);
		return;
	}
	int *dstart = xcalloc(nt + 1, sizeof(int)), *dlist = xmalloc(nd * sizeof(int));
	for (int d = 0; d < nd; d++)
		dstart[site[d].tmp]++;
	for (int t = 0, acc = 0; t <= nt; t++) {
		int c = t < nt ? dstart[t] : 0;
		dstart[t] = acc;
		acc += c;
	}
	int *fill = xmalloc((nt + 1) * sizeof(int));
	memcpy(fill, dstart, (nt + 1) * sizeof(int));
	for (int d = 0; d < nd; d++)
		dlist[fill[site[d].tmp]++] = d;
	free(fill);
	/* The definitions reaching a block's start, per temporary live there,
	 * are represented by one extra union-find node per (block, temporary):
	 * it is joined to the last definition of the temporary in each
	 * predecessor, or to that predecessor's own node when it has none.
	 * Linear in the live-in sets, with no reaching-definition bitsets. */
	int *d0 = xmalloc((fn->nblk + 1) * sizeof(int));
	for (int b = 0, d = 0; b < fn->nblk; b++) {
		d0[b] = d;
		for (int i = 0; i < fn->blk[b].nins; i++) {
			Ins *x = &fn->blk[b].ins[i];
			for (int k = 0; k < x->md->nop; k++)
				if (opwrites(x, k) && splittable(fn, x->op[k].tmp))
					d++;
		}
		d0[fn->nblk] = d;
	}
	/* entry nodes: id nd + index into the live-in list of (b, t) */
	int *estart = xmalloc((fn->nblk + 1) * sizeof(int)), ne = 0, ce = 0;
	int *etmp = NULL;
	for (int b = 0; b < fn->nblk; b++) {
		estart[b] = ne;
		for (int j = 0; j < bswords(nt); j++)
			for (u64 v = fn->blk[b].in[j]; v; v &= v - 1) {
				int t = j * 64 + ctz(v);
				if (t < nt && splittable(fn, t)) {
					GROW(etmp, ne, ce);
					etmp[ne++] = t;
				}
			}
	}
	estart[fn->nblk] = ne;
	uf = xmalloc((nd + ne + 1) * sizeof(int));
	for (int q = 0; q < nd + ne; q++)
		uf[q] = q;
	/* the node of t at the start of b (t live-in there), or -1 */
	#define ENTRY(b, t) entrynode(estart, etmp, nd, (b), (t))
	for (int p = 0; p < fn->nblk; p++) {
		/* final defs of p, by temp: a small map through the site list */
		for (int k = 0; k < 2; k++) {
			int b = fn->blk[p].succ[k];
			if (b < 0)
				continue;
			for (int e = estart[b]; e < estart[b + 1]; e++) {
				int t = etmp[e], src = -1;
				for (int d = d0[p + 1] - 1; d >= d0[p]; d--)
					if (site[d].tmp == t) {
						src = d;
						break;
					}
				if (src < 0)
					src = ENTRY(p, t);
				if (src >= 0)
					unite(nd + e, src);
			}
		}
	}
	/* join the definitions reaching each use; remember a def per use */
	int *last = xmalloc(nt * sizeof(int));   /* last def of t in this block, or -1 */
	int *entry = xmalloc(nt * sizeof(int));  /* a def of t reaching the block start, or -1 */
	/* per (block) use map: operand -> def, recorded in use order */
	int *usedef = NULL, nu = 0, cu = 0;
	int *touched = xmalloc((nt + 1) * sizeof(int)), ntouched = 0;
	for (int t = 0; t < nt; t++) {
		last[t] = -1;
		entry[t] = -2; /* not computed yet */
	}
	for (int b = 0; b < fn->nblk; b++) {
		/* forget the previous block's state, touching only what it touched */
		for (int j = 0; j < ntouched; j++) {
			last[touched[j]] = -1;
			entry[touched[j]] = -2;
		}
		ntouched = 0;
		int d = d0[b];
		for (int i = 0; i < fn->blk[b].nins; i++) {
			Ins *x = &fn->blk[b].ins[i];
			int rd[3 * MAXOP], nr = 0;
			for (int k = 0; k < x->md->nop; k++) {
				if (opreads(x, k))
					rd[nr++] = x->op[k].tmp;
				if (x->op[k].kind == OMEM) {
					rd[nr++] = x->op[k].base;
					rd[nr++] = x->op[k].index;
				}
			}
			for (int j = 0; j < nr; j++) {
				int t = rd[j], r = -1;
				if (splittable(fn, t)) {
					if (entry[t] == -2 && last[t] < 0)
						touched[ntouched++] = t;
					if (last[t] >= 0)
						r = last[t];
					else {
						if (entry[t] == -2)
							entry[t] = ENTRY(b, t);
						r = entry[t];
					}
				}
				GROW(usedef, nu, cu);
				usedef[nu++] = r;
			}
			for (int k = 0; k < x->md->nop; k++)
				if (opwrites(x, k) && splittable(fn, x->op[k].tmp)) {
					int t = x->op[k].tmp;
					/* in place: the new value stays with the one it reads */
					if (opreads(x, k)) {
						int r = last[t] >= 0 ? last[t] : entry[t] >= 0 ? entry[t] : -1;
						if (r >= 0)
							unite(r, d);
					}
					if (entry[t] == -2 && last[t] < 0)
						touched[ntouched++] = t;
					last[t] = d++;
				}
		}
	}
	/* a temporary per web: the web holding the lowest def keeps the original */
	int *webtmp = xmalloc((nd + ne + 1) * sizeof(int));
	char *taken = xcalloc(nt, 1);
	for (int q = 0; q < nd + ne; q++)
		webtmp[q] = -1;
	for (int q = 0; q < nd; q++) {
		int r = find(q);
		if (webtmp[r] >= 0)
			continue;
		int t = site[q].tmp;
		if (!taken[t]) {
			taken[t] = 1;
			webtmp[r] = t;
		} else {
			int n = newtmp(fn, fn->tmp[t].var, fn->tmp[t].type, fn->tmp[t].file);
			Tmp *o = &fn->tmp[t], *w2 = &fn->tmp[n];
			w2->mask = o->mask;
			w2->nospill = o->nospill;
			webtmp[r] = n;
		}
	}
	/* rename, in the same order as above */
	nu = 0;
	for (int b = 0, d = 0; b < fn->nblk; b++)
		for (int i = 0; i < fn->blk[b].nins; i++) {
			Ins *x = &fn->blk[b].ins[i];
			int defs[MAXOP];
			for (int k = 0; k < x->md->nop; k++)
				defs[k] = opwrites(x, k) && splittable(fn, x->op[k].tmp);
			for (int k = 0; k < x->md->nop; k++) {
				if (opreads(x, k)) {
					int r = usedef[nu++];
					if (r >= 0 && webtmp[find(r)] >= 0)
						x->op[k].tmp = webtmp[find(r)];
				}
				if (x->op[k].kind == OMEM) {
					int r = usedef[nu++];
					if (r >= 0 && webtmp[find(r)] >= 0)
						x->op[k].base = webtmp[find(r)];
					r = usedef[nu++];
					if (r >= 0 && webtmp[find(r)] >= 0)
						x->op[k].index = webtmp[find(r)];
				}
			}
			for (int k = 0; k < x->md->nop; k++)
				if (defs[k]) {
					x->op[k].tmp = webtmp[find(d)];
					d++;
				}
		}
	free(d0);
	free(estart);
	free(etmp);
	free(uf);
	free(last);
	free(entry);
	free(usedef);
	free(touched);
	free(webtmp);
	free(taken);
	free(site);
	free(dstart);
	free(dlist);
}
