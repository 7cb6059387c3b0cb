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

/* the definition sites of each temporary, numbered in program order */
typedef struct Site { int tmp; } Site;

void webs(Fn *fn, const Target *tg)
{
	(void)tg;
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
	/* reaching definitions per block */
	int w = bswords(nd);
	u64 **in = xmalloc(fn->nblk * sizeof *in), **out = xmalloc(fn->nblk * sizeof *out);
	int *d0 = xmalloc((fn->nblk + 1) * sizeof(int));
	for (int b = 0, d = 0; b < fn->nblk; b++) {
		in[b] = xcalloc(w, sizeof(u64));
		out[b] = xcalloc(w, sizeof(u64));
		d0[b] = d;
		for (int i = 0; i < fn->blk[b].nins; i++) {
			Ins *x = &fn->blk[b].ins[i];
			for (int k = 0; k < x->md->nop; k++)
				if (opwrites(x, k) && splittable(fn, x->op[k].tmp))
					d++;
		}
		d0[fn->nblk] = d;
	}
	u64 *cur = xmalloc(w * sizeof(u64));
	for (int changed = 1; changed;) {
		changed = 0;
		for (int b = 0; b < fn->nblk; b++) {
			memcpy(cur, in[b], w * sizeof(u64));
			for (int d = d0[b]; d < d0[b + 1]; d++) {
				int t = site[d].tmp;
				for (int j = dstart[t]; j < dstart[t + 1]; j++)
					bsclr(cur, dlist[j]);
				bsset(cur, d);
			}
			if (memcmp(cur, out[b], w * sizeof(u64))) {
				memcpy(out[b], cur, w * sizeof(u64));
				changed = 1;
			}
			for (int k = 0; k < 2; k++) {
				int s = fn->blk[b].succ[k];
				if (s < 0)
					continue;
				for (int j = 0; j < w; j++) {
					u64 v = in[s][j] | cur[j];
					if (v != in[s][j]) {
						in[s][j] = v;
						changed = 1;
					}
				}
			}
		}
	}
	/* join the definitions reaching each use; remember a def per use */
	uf = xmalloc(nd * sizeof(int));
	for (int d = 0; d < nd; d++)
		uf[d] = d;
	int *last = xmalloc(nt * sizeof(int));   /* last def of t in this block, or -1 */
	int *entry = xmalloc(nt * sizeof(int));  /* a def of t reaching the block start, or -1 */
	/* per (block) use map: operand -> def, recorded in use order */
	int *usedef = NULL, nu = 0, cu = 0;
	for (int b = 0; b < fn->nblk; b++) {
		memset(last, -1, nt * sizeof(int));
		memset(entry, -2, nt * sizeof(int)); /* -2: not computed yet */
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
					if (last[t] >= 0)
						r = last[t];
					else {
						if (entry[t] == -2) {
							entry[t] = -1;
							for (int q = dstart[t]; q < dstart[t + 1]; q++)
								if (bshas(in[b], dlist[q])) {
									if (entry[t] < 0)
										entry[t] = dlist[q];
									else
										unite(entry[t], dlist[q]);
								}
						}
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
					last[t] = d++;
				}
		}
	}
	/* a temporary per web: the web holding the lowest def keeps the original */
	int *webtmp = xmalloc(nd * sizeof(int));
	char *taken = xcalloc(nt, 1);
	for (int q = 0; q < nd; q++)
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
			for (int k = 0; k < x->md->nop; k++) {
				if (opreads(x, k)) {
					int r = usedef[nu++];
					if (r >= 0)
						x->op[k].tmp = webtmp[find(r)];
				}
				if (x->op[k].kind == OMEM) {
					int r = usedef[nu++];
					if (r >= 0)
						x->op[k].base = webtmp[find(r)];
					r = usedef[nu++];
					if (r >= 0)
						x->op[k].index = webtmp[find(r)];
				}
			}
			for (int k = 0; k < x->md->nop; k++)
				if (opwrites(x, k) && splittable(fn, x->op[k].tmp) && x->op[k].tmp < nt) {
					x->op[k].tmp = webtmp[find(d)];
					d++;
				}
		}
	for (int b = 0; b < fn->nblk; b++) {
		free(in[b]);
		free(out[b]);
	}
	free(in);
	free(out);
	free(d0);
	free(cur);
	free(uf);
	free(last);
	free(entry);
	free(usedef);
	free(webtmp);
	free(taken);
	free(site);
	free(dstart);
	free(dlist);
}
