/* schedule.c: the instruction scheduler (a pass, run with -u MODEL before
 * register allocation).  Each basic block's dependence graph covers
 * temporaries (read after write, write after read, write after write),
 * flag groups, and memory (loads may pass loads; a store stays ordered
 * with every access that may alias: same base and index temporaries with
 * overlapping offsets, the same stack variable, or any unrelated pointer).
 * Instructions joined through a fixed-register temporary (a copy into
 * rax and the mul reading it) are glued into one node.  A list scheduler
 * driven by the model (issue width, units, latencies) picks the ready
 * node with the longest path to the block's end, but prefers nodes that
 * do not raise register pressure once it nears the register count, so
 * scheduling does not cause avoidable spills.  Needs: live.c.
 * Provides: reordered blocks; blockstat() for the cost report. */
#include "all.h"

typedef struct Node {
	int first, n;        /* members: ord[first .. first+n) */
	int ops[64], nops;   /* model classes of the machine operations */
	int lat;             /* cycles from issue to the last result */
	int *succ, *slat, nsucc, csucc;
	int npred, height, earliest, cycle, done;
} Node;

static Fn *F;
static const Model *M;
static const Target *T;
static Ins *I;           /* the block's instructions */
static int NI;
static int *grp;         /* instruction -> node */
static int *ord;         /* instructions grouped by node */
static Node *N;
static int NN;

/* After register allocation the dependences are on registers: every
 * temporary is represented by the first temporary holding its register. */
static int *regrep;
/* the list scheduler's priority function (reorder() tries each and keeps
 * the order the model's machine runs fastest) */
enum { PHEIGHT, PSOURCE, PBLEND, PFANOUT, NPRIO };
static int prio;
static int window;  /* 0: any ready node; else at most this far past the first unplaced one */

static int R(int t)
{
	return regrep && t >= 0 ? regrep[t] : t;
}

static int gfind(int *uf, int x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

/* an instruction's latency: the longest chain through its template
 * (latency.c), not the sum of its parts */
static int inslat(const Ins *x)
{
	return inslatmax(M, T, F, x);
}

static void addsucc(Node *x, int nb, int lat)
{
	if (x->nsucc == x->csucc) {
		x->csucc = x->csucc ? 2 * x->csucc : 4;
		x->succ = xrealloc(x->succ, x->csucc * sizeof(int));
		x->slat = xrealloc(x->slat, x->csucc * sizeof(int));
	}
	x->succ[x->nsucc] = nb;
	x->slat[x->nsucc++] = lat;
	N[nb].npred++;
}

/* An edge between the nodes of instructions a and b.  Edges are added in
 * the order of their later end, so a repeated one is among the last few
 * of a's node; one found farther back would only be a harmless duplicate
 * (a node with thousands of successors is not scanned each time). */
static void edge(int a, int b, int lat)
{
	int na = grp[a], nb = grp[b];
	if (na == nb)
		return;
	Node *x = &N[na];
	for (int i = x->nsucc - 1; i >= 0 && i >= x->nsucc - 8; i--)
		if (x->succ[i] == nb) {
			if (lat > x->slat[i])
				x->slat[i] = lat;
			return;
		}
	addsucc(x, nb, lat);
}

/* memory accesses: may a and b touch the same bytes? */
typedef struct MemAcc { int ins, write, kind, base, index, obj, bver, iver; i64 lo, hi; } MemAcc;

/* stack variables whose address the function takes (`p = &s`): reachable
 * through pointers, so they may alias every register-based access (found by
 * the differential tester, tests/diff/regressions/x86_stack_address.q) */
static char *addrtaken;
static int naddrtaken;

static void setaddrtaken(const Fn *fn)
{
	free(addrtaken);
	naddrtaken = nvars;
	addrtaken = xcalloc(nvars + 1, 1);
	for (int b = 0; b < fn->nblk; b++)
		for (int i = 0; i < fn->blk[b].nins; i++)
			for (int k = 0; k < fn->blk[b].ins[i].md->nop; k++) {
				const Opnd *o = &fn->blk[b].ins[i].op[k];
				if (o->kind == OMEM && o->mkind == MBSTACK && o->addr && o->obj < nvars)
					addrtaken[o->obj] = 1;
			}
}

static int viapointer(const MemAcc *s, const MemAcc *r)
{
	return s->kind == MBSTACK && r->kind == MBREG && s->obj < naddrtaken && addrtaken[s->obj];
}

static int mayalias(const MemAcc *a, const MemAcc *b)
{
	if (a->kind == MBSYM || b->kind == MBSYM || a->kind == MBARG || b->kind == MBARG)
		return 0; /* read-only */
	if (viapointer(a, b) || viapointer(b, a))
		return 1;
	if (a->kind < 0 || b->kind < 0)
		return 1; /* an instruction with the `memory` attribute */
	if (a->kind != b->kind)
		return 0; /* our frame is not reachable through the caller's pointers */
	if (a->kind == MBSTACK || a->kind == MBSPILL)
		return a->obj == b->obj;
	if (a->base != b->base || a->index != b->index || a->bver != b->bver || a->iver != b->iver)
		return 1;
	return a->lo < b->hi && b->lo < a->hi;
}

/* across[g]: some block of the function reads flags of group g that it
 * has not set itself (flags live across a block boundary); set once per
 * function by setacross() */
static int across[3];

static void setacross(Fn *fn)
{
	for (int g = 0; g < 3; g++) {
		across[g] = 0;
		for (int b = 0; b < fn->nblk && !across[g]; b++)
			for (int i = 0; i < fn->blk[b].nins; i++) {
				const MdLine *m = fn->blk[b].ins[i].md;
				if (m->use >> g & 1)
					across[g] = 1;
				if (m->use >> g & 1 || m->def >> g & 1)
					break;
			}
	}
}

/* dead[i] bit g: the flags of group g that instruction i defines are
 * dead: defined again later in the block before anything reads them, or
 * not read before the block ends when no block reads flags set elsewhere
 * (one backward pass over the block) */
static char *flagdeadness(void)
{
	char *dead = xmalloc(NI + 1);
	int next[3];
	for (int g = 0; g < 3; g++)
		next[g] = !across[g]; /* 1: what follows defines before reading */
	for (int i = NI - 1; i >= 0; i--) {
		dead[i] = 0;
		for (int g = 0; g < 3; g++) {
			dead[i] |= next[g] << g;
			if (I[i].md->use >> g & 1)
				next[g] = 0;
			else if (I[i].md->def >> g & 1)
				next[g] = 1;
		}
	}
	return dead;
}

/* Per-temporary state of build(), kept clean between blocks (only what a
 * block touched is reset), so that a function of many blocks costs time
 * in its instructions, not blocks times temporaries. */
static int *lastdef, *ver, **uses, *nuses, *cuses, ntcap;
static int *touched, ntouched, ctouched;
/* per stack variable and spill slot: the last store and the loads since */
typedef struct ObjAcc { int lastw, *rd, nrd, crd, seen; } ObjAcc;
static ObjAcc *objacc[2];
static int nobjacc[2];
static int *objtouched, nobjtouched, cobjtouched;

static void tmpstate(int nt)
{
	if (nt <= ntcap)
		return;
	int old = ntcap;
	ntcap = nt + nt / 2 + 16;
	lastdef = xrealloc(lastdef, ntcap * sizeof(int));
	ver = xrealloc(ver, ntcap * sizeof(int));
	uses = xrealloc(uses, ntcap * sizeof(int *));
	nuses = xrealloc(nuses, ntcap * sizeof(int));
	cuses = xrealloc(cuses, ntcap * sizeof(int));
	for (int t = old; t < ntcap; t++) {
		lastdef[t] = -1;
		ver[t] = nuses[t] = cuses[t] = 0;
		uses[t] = NULL;
	}
}

static void touch(int t)
{
	if (lastdef[t] < 0 && !ver[t] && !nuses[t]) {
		GROW(touched, ntouched, ctouched);
		touched[ntouched++] = t;
	}
}

static void untouch(void)
{
	for (int j = 0; j < ntouched; j++) {
		int t = touched[j];
		lastdef[t] = -1;
		ver[t] = nuses[t] = 0;
	}
	ntouched = 0;
	for (int j = 0; j < nobjtouched; j++) {
		ObjAcc *o = &objacc[objtouched[j] & 1][objtouched[j] >> 1];
		o->lastw = -1;
		o->nrd = o->seen = 0;
	}
	nobjtouched = 0;
}

static ObjAcc *objof(int spill, int obj)
{
	if (obj >= nobjacc[spill]) {
		int n = obj + obj / 2 + 16;
		objacc[spill] = xrealloc(objacc[spill], n * sizeof(ObjAcc));
		for (int k = nobjacc[spill]; k < n; k++)
			objacc[spill][k] = (ObjAcc){-1, NULL, 0, 0, 0};
		nobjacc[spill] = n;
	}
	ObjAcc *o = &objacc[spill][obj];
	if (!o->seen) {
		o->seen = 1;
		GROW(objtouched, nobjtouched, cobjtouched);
		objtouched[nobjtouched++] = obj << 1 | spill;
	}
	return o;
}

/* Accesses through pointers are compared pairwise within the last 2*EPOCH
 * of them; farther apart they are ordered through barriers: every access
 * of epoch e precedes the first access of epoch e+1, which precedes every
 * access of epoch e+2.  Exact for blocks of up to EPOCH such accesses,
 * linear for any block (an access moves past at most about 2*EPOCH). */
enum { EPOCH = 256 };

static void memdeps(MemAcc *acc, int nacc, const MemAcc *a, int lat)
{
	int n = nacc; /* a is acc[n] */
	int lo = n - 2 * EPOCH < 0 ? 0 : n - 2 * EPOCH;
	for (int j = lo; j < n; j++)
		if ((a->write || acc[j].write) && mayalias(a, &acc[j]))
			edge(acc[j].ins, a->ins, a->write && !acc[j].write ? 0 : lat);
	int e = n / EPOCH;
	if (n % EPOCH == 0 && e >= 1)
		for (int j = (e - 1) * EPOCH; j < n; j++)
			edge(acc[j].ins, a->ins, 0);
	if (e >= 1)
		edge(acc[(e - 1) * EPOCH].ins, a->ins, 0);
}

/* the last instruction with the `memory` attribute in the block (-1: none):
 * every later stack or spill access is ordered after it */
static int membar;

static void build(void)
{
	int nt = F->ntmp;
	membar = -1;
	tmpstate(nt);
	int fdef[3] = {-1, -1, -1}, *fuse[3] = {NULL, NULL, NULL}, nfuse[3] = {0, 0, 0};
	int *fdead[3] = {NULL, NULL, NULL}, nfdead[3] = {0, 0, 0};
	char *fdeadat = flagdeadness();
	MemAcc *acc = NULL;
	int nacc = 0, cacc = 0;
	for (int i = 0; i < 3; i++) {
		fuse[i] = xmalloc((NI + 1) * sizeof(int));
		fdead[i] = xmalloc((NI + 1) * sizeof(int));
	}
	/* glue through fixed temporaries */
	int *uf = xmalloc((NI + 1) * sizeof(int));
	for (int i = 0; i < NI; i++)
		uf[i] = i;
	for (int i = 0; i < NI; i++) {
		Ins *x = &I[i];
		for (int k = 0; k < x->md->nop; k++)
			if (!regrep && opreads(x, k) && F->tmp[x->op[k].tmp].fixed != NOREG && lastdef[x->op[k].tmp] >= 0)
				uf[gfind(uf, i)] = gfind(uf, lastdef[x->op[k].tmp]);
		for (int k = 0; k < x->md->nop; k++)
			if (opwrites(x, k)) {
				touch(x->op[k].tmp);
				lastdef[x->op[k].tmp] = i;
			}
	}
	untouch();
	/* nodes in order of their first member */
	NN = 0;
	for (int i = 0; i < NI; i++)
		if (gfind(uf, i) == i)
			grp[i] = NN++;
	for (int i = 0; i < NI; i++)
		grp[i] = grp[gfind(uf, i)];
	N = xcalloc(NN + 1, sizeof *N);
	for (int i = 0; i < NI; i++)
		N[grp[i]].n++;
	for (int k = 0, at = 0; k < NN; k++) {
		N[k].first = at;
		at += N[k].n;
		N[k].n = 0;
	}
	for (int i = 0; i < NI; i++) {
		Node *x = &N[grp[i]];
		ord[x->first + x->n++] = i;
		int c[64], n = insops(M, F, &I[i], c, 64);
		for (int j = 0; j < n && x->nops < 64; j++)
			x->ops[x->nops++] = c[j];
		x->lat += inslat(&I[i]);
	}
	free(uf);
	/* dependences */
	for (int i = 0; i < NI; i++) {
		Ins *x = &I[i];
		int lat = inslat(x);
		for (int k = 0; k < x->md->nop; k++) {
			Opnd *o = &x->op[k];
			int rd[3] = {-1, -1, -1};
			if (opreads(x, k))
				rd[0] = R(o->tmp);
			if (o->kind == OMEM) {
				rd[1] = R(o->base);
				rd[2] = R(o->index);
			}
			for (int j = 0; j < 3; j++)
				if (rd[j] >= 0) {
					int t = rd[j];
					touch(t);
					if (lastdef[t] >= 0)
						edge(lastdef[t], i, inslat(&I[lastdef[t]]));
					if (nuses[t] == cuses[t]) {
						cuses[t] = cuses[t] ? 2 * cuses[t] : 4;
						uses[t] = xrealloc(uses[t], cuses[t] * sizeof(int));
					}
					uses[t][nuses[t]++] = i;
				}
		}
		for (int k = 0; k < x->md->nop; k++)
			if (opwrites(x, k)) {
				int t = R(x->op[k].tmp);
				touch(t);
				for (int j = 0; j < nuses[t]; j++)
					edge(uses[t][j], i, 0);
				if (lastdef[t] >= 0)
					edge(lastdef[t], i, 0);
			}
		for (int k = 0; k < x->md->nop; k++)
			if (opwrites(x, k)) {
				lastdef[R(x->op[k].tmp)] = i;
				nuses[R(x->op[k].tmp)] = 0;
				ver[R(x->op[k].tmp)]++;
			}
		/* flags.  A definition whose flags are overwritten in the block
		 * before anything reads them (flagdeadness) is ordered only against
		 * the live ones: after the readers of the previous live
		 * definition, before the next live definition; dead definitions
		 * do not order each other (the rotations and xors of a round do
		 * not serialise through the carry flag nobody reads). */
		for (int g = 0; g < 3; g++) {
			if (x->md->use >> g & 1) {
				if (fdef[g] >= 0)
					edge(fdef[g], i, inslat(&I[fdef[g]]));
				fuse[g][nfuse[g]++] = i;
			}
		}
		for (int g = 0; g < 3; g++)
			if (x->md->def >> g & 1) {
				for (int j = 0; j < nfuse[g]; j++)
					edge(fuse[g][j], i, 0);
				if (fdef[g] >= 0)
					edge(fdef[g], i, 0);
				if (fdeadat[i] >> g & 1) {
					fdead[g][nfdead[g]++] = i;
					continue;
				}
				for (int j = 0; j < nfdead[g]; j++)
					edge(fdead[g][j], i, 0);
				nfdead[g] = 0;
				fdef[g] = i;
				nfuse[g] = 0;
			}
		/* memory; a `memory` instruction (rep movsb) may touch any of it */
		if (x->md->attr & AMEM) {
			MemAcc a = {i, 1, -1, -1, -1, -1, 0, 0, 0, 0};
			for (int j = 0; j < nacc; j++)
				edge(acc[j].ins, i, lat);
			GROW(acc, nacc, cacc);
			acc[nacc++] = a;
			/* and every stack variable and spill slot touched so far:
			 * later accesses of them come after it too */
			for (int j = 0; j < nobjtouched; j++) {
				ObjAcc *b = &objacc[objtouched[j] & 1][objtouched[j] >> 1];
				if (b->lastw >= 0)
					edge(b->lastw, i, lat);
				for (int r = 0; r < b->nrd; r++)
					edge(b->rd[r], i, 0);
				b->nrd = 0;
				b->lastw = i;
			}
			membar = i;
		}
		/* memory: stack variables and spill slots by object (the last
		 * store, the loads since); pointers pairwise nearby (memdeps) */
		for (int k = 0; k < x->md->nop; k++) {
			Opnd *o = &x->op[k];
			if (o->kind != OMEM || o->addr)
				continue;
			int write = (x->md->op[k].acc & AW) != 0;
			if (o->mkind == MBSYM || o->mkind == MBARG)
				continue; /* read-only */
			if (o->mkind == MBSTACK || o->mkind == MBSPILL) {
				ObjAcc *b = objof(o->mkind == MBSPILL, o->obj);
				if (membar >= 0 && membar != i)
					edge(membar, i, lat);
				if (b->lastw >= 0 && b->lastw != i)
					edge(b->lastw, i, lat);
				if (!write) {
					GROW(b->rd, b->nrd, b->crd);
					b->rd[b->nrd++] = i;
				} else {
					for (int j = 0; j < b->nrd; j++)
						edge(b->rd[j], i, 0);
					b->nrd = 0;
					b->lastw = i;
				}
				/* a stack variable whose address is taken is also
				 * reachable through pointers: ordered against them too
				 * (tests/diff/regressions/x86_stack_address.q) */
				if (!(o->mkind == MBSTACK && o->obj < naddrtaken && addrtaken[o->obj]))
					continue;
			}
			MemAcc a = {i, write, o->mkind, R(o->base), R(o->index), o->obj,
				 o->base >= 0 ? ver[R(o->base)] : 0, o->index >= 0 ? ver[R(o->index)] : 0,
				 o->disp, o->disp + T->cls[x->md->op[k].cls].view / 8};
			if (a.hi == a.lo)
				a.hi = a.lo + 64;
			GROW(acc, nacc, cacc);
			acc[nacc] = a;
			memdeps(acc, nacc, &a, lat);
			nacc++;
		}
	}
	/* arguments arrive at the entry: their pseudo-instructions (glued to
	 * the copies out of the argument registers) come before everything
	 * after them: an edge to each node without a predecessor other than
	 * argument nodes (and with a member after the argument) orders every
	 * other node through those */
	char *isarg = xcalloc(NN + 1, 1);
	int *nonarg = xcalloc(NN + 1, sizeof(int)), *roots = NULL, nroots = 0, croots = 0;
	for (int i = 0; i < NI; i++)
		if (!I[i].md->tmpl[0] && !(I[i].md->attr & (ARET | ADECL)))
			isarg[grp[i]] = 1;
	for (int k = 0; k < NN; k++)
		if (!isarg[k])
			for (int j = 0; j < N[k].nsucc; j++)
				nonarg[N[k].succ[j]]++;
	for (int k = 0; k < NN; k++)
		if (!nonarg[k]) {
			GROW(roots, nroots, croots);
			roots[nroots++] = k;
		}
	for (int i = 0; i < NI; i++)
		if (!I[i].md->tmpl[0] && !(I[i].md->attr & (ARET | ADECL)))
			for (int r = 0; r < nroots; r++) {
				int k = roots[r];
				if (k != grp[i] && ord[N[k].first + N[k].n - 1] > i)
					edge(i, ord[N[k].first], 0);
			}
	free(isarg);
	free(nonarg);
	free(roots);
	/* the branch or return ends the block: after every node without a
	 * successor, and so after all */
	if (NI && (I[NI - 1].md->attr & (AJUMP | ACJUMP | ARET)))
		for (int k = 0; k < NN; k++)
			if (k != grp[NI - 1] && !N[k].nsucc)
				addsucc(&N[k], grp[NI - 1], 0);
	untouch();
	free(acc);
	free(fdeadat);
	for (int i = 0; i < 3; i++) {
		free(fuse[i]);
		free(fdead[i]);
	}
/* heights: the longest path to the end of the block */
	for (int k = NN - 1; k >= 0; k--) {
		Node *x = &N[k];
		x->height = x->lat;
		for (int j = 0; j < x->nsucc; j++)
			if (x->slat[j] + N[x->succ[j]].height > x->height)
				x->height = x->slat[j] + N[x->succ[j]].height;
	}
}

/* register pressure: the change node x makes to the live count in the
 * register files that are at (or one short of) their register count */
static int pdelta(const Node *x, Blk *bl, const int *live, const char *islive, const int *remain, const int *K)
{
	int delta[MAXFILE] = {0, 0, 0}, d = 0;
	for (int m = 0; m < x->n; m++) {
		Ins *y = &I[ord[x->first + m]];
		for (int j = 0; j < y->md->nop; j++) {
			if (opwrites(y, j) && y->md->op[j].acc != ASCR && !islive[y->op[j].tmp])
				delta[F->tmp[y->op[j].tmp].file]++;
			if (opreads(y, j) && remain[y->op[j].tmp] == 1 && !bshas(bl->out, y->op[j].tmp))
				delta[F->tmp[y->op[j].tmp].file]--;
		}
	}
	for (int f = 0; f < MAXFILE; f++)
		if (delta[f] && live[f] + 1 >= K[f])
			d += delta[f];
	return d;
}

/* is a unit free at cycle for operation j of node x? */
static int unitfree(const u64 *busy, const Node *x, int j, int cycle)
{
	const UClass *c = &M->cls[x->ops[j]];
	for (int u = 0; u < M->nunit; u++)
		if ((c->units >> u & 1) && busy[u] <= (u64)cycle)
			return 1;
	return 0;
}

/* node x issues at cycle, its operations one cycle apart, each on the
 * least busy unit of its class */
static void occupy(u64 *busy, const Node *x, int cycle)
{
	for (int j = 0; j < x->nops; j++) {
		const UClass *c = &M->cls[x->ops[j]];
		int bu = -1;
		for (int u = 0; u < M->nunit; u++)
			if ((c->units >> u & 1) && (bu < 0 || busy[u] < busy[bu]))
				bu = u;
		u64 at = busy[bu] > (u64)(cycle + j) ? busy[bu] : (u64)(cycle + j);
		busy[bu] = at + c->slots;
	}
}

/* Per-temporary state of the pressure-aware list scheduler, allocated
 * once per function and reset after each block (only what it touched). */
static int *remain, remcap;
static char *islivet;

/* list scheduling; the order goes to out[] (node indices).  The ready
 * nodes are a bitset scanned in node order from the first node not yet
 * placed, at most SCHEDWIN nodes past it (or the window of a
 * post-allocation pass): linear in a long block, and the same choices as
 * an unbounded scan in a block of at most SCHEDWIN nodes. */
enum { SCHEDWIN = 512 };

static int listsched(Blk *bl, int *out, int pressure_aware)
{
	u64 busy[MAXUNIT];
	int cycle = 0, ndone = 0, length = 0;
	memset(busy, 0, sizeof busy);
	int live[MAXFILE] = {0, 0, 0}, K[MAXFILE];
	if (pressure_aware) {
		if (F->ntmp > remcap) {
			free(remain);
			free(islivet);
			remcap = F->ntmp + F->ntmp / 2 + 16;
			remain = xcalloc(remcap, sizeof(int));
			islivet = xcalloc(remcap, 1);
		}
		/* uses left in the block per temporary, and the live count */
		for (int i = 0; i < NI; i++)
			for (int k = 0; k < I[i].md->nop; k++)
				if (opreads(&I[i], k))
					remain[I[i].op[k].tmp]++;
		for (int j = 0; j < bswords(F->ntmp); j++)
			for (u64 v = bl->in[j]; v; v &= v - 1) {
				int t = j * 64 + ctz(v);
				live[F->tmp[t].file]++;
				islivet[t] = 1;
			}
		/* the registers this function may use (xmm16-31 only with AVX-512) */
		for (int f = 0; f < MAXFILE; f++)
			K[f] = popcnt(filemask(f, F->ext)) - 1;
	}
	for (int k = 0; k < NN; k++) {
		N[k].done = 0;
		N[k].earliest = 0;
	}
	int *npred = xmalloc((NN + 1) * sizeof(int));
	u64 *ready = xcalloc(bswords(NN) + 1, sizeof(u64));
	for (int k = 0; k < NN; k++) {
		npred[k] = N[k].npred;
		if (!npred[k])
			bsset(ready, k);
	}
	int win = window ? window : SCHEDWIN;
	int firstleft = 0;
	while (ndone < NN) {
		int issued = 0, progress = 1;
		while (firstleft < NN && N[firstleft].done)
			firstleft++;
		int lastk = firstleft + win < NN - 1 ? firstleft + win : NN - 1;
		while (progress) {
			progress = 0;
			int best = -1, bestkey = 0;
			for (int w = firstleft >> 6; w <= lastk >> 6; w++)
				for (u64 v = ready[w]; v; v &= v - 1) {
					int k = w * 64 + ctz(v);
					Node *x = &N[k];
					if (k < firstleft || k > lastk || x->earliest > cycle)
						continue;
					if (issued && issued + x->nops > M->issue)
						continue;
					if (x->nops && !unitfree(busy, x, 0, cycle))
						continue;
					int key = prio == PHEIGHT ? x->height       /* the longest path to the end */
						  : prio == PSOURCE ? -k              /* the oldest ready node */
						  : prio == PBLEND ? 2 * x->height - (k - firstleft) /* long paths, older first */
								   : 4 * x->height + x->nsucc; /* long paths, then the most users */
					if (pressure_aware)
						key -= pdelta(x, bl, live, islivet, remain, K) * 100000; /* near the register count, first what frees registers */
					if (best < 0 || key > bestkey) {
						best = k;
						bestkey = key;
					}
				}
			if (best < 0) {
				if (!issued && ndone < NN) {
					/* nothing ready: the next cycle something can start, or a bug */
					int next = -1;
					while (firstleft < NN && N[firstleft].done)
						firstleft++;
					lastk = firstleft + win < NN - 1 ? firstleft + win : NN - 1;
					for (int w = firstleft >> 6; w <= lastk >> 6; w++)
						for (u64 v = ready[w]; v; v &= v - 1) {
							int k = w * 64 + ctz(v);
							if (k >= firstleft && k <= lastk && (next < 0 || N[k].earliest < next))
								next = N[k].earliest;
						}
					if (next < 0)
						die("scheduler: dependence cycle in a block (%d of %d nodes scheduled)", ndone, NN);
					if (next > cycle)
						cycle = next - 1;
				}
				break;
			}
			Node *x = &N[best];
			x->done = 1;
			bsclr(ready, best);
			x->cycle = cycle;
			out[ndone++] = best;
			issued += x->nops ? x->nops : 0;
			progress = 1;
			occupy(busy, x, cycle);
			if (cycle + x->lat > length)
				length = cycle + x->lat;
			for (int j = 0; j < x->nsucc; j++) {
				Node *s = &N[x->succ[j]];
				if (!--npred[x->succ[j]])
					bsset(ready, x->succ[j]);
				if (cycle + x->slat[j] > s->earliest)
					s->earliest = cycle + x->slat[j];
			}
			if (pressure_aware)
				for (int m = 0; m < x->n; m++) {
					Ins *y = &I[ord[x->first + m]];
					for (int j = 0; j < y->md->nop; j++) {
						int t = y->op[j].tmp;
						if (opreads(y, j) && --remain[t] == 0 && !bshas(bl->out, t) && islivet[t]) {
							live[F->tmp[t].file]--;
							islivet[t] = 0;
						}
						if (opwrites(y, j) && y->md->op[j].acc != ASCR && !islivet[t] && (remain[t] || bshas(bl->out, t))) {
							live[F->tmp[t].file]++;
							islivet[t] = 1;
						}
					}
				}
			if (issued >= M->issue)
				break;
		}
		cycle++;
	}
	if (pressure_aware) {
		/* leave the per-temporary state clean for the next block */
		for (int i = 0; i < NI; i++)
			for (int k = 0; k < I[i].md->nop; k++)
				if (I[i].op[k].kind == OTMP) {
					remain[I[i].op[k].tmp] = 0;
					islivet[I[i].op[k].tmp] = 0;
				}
		for (int j = 0; j < bswords(F->ntmp); j++)
			for (u64 v = bl->in[j]; v; v &= v - 1)
				islivet[j * 64 + ctz(v)] = 0;
	}
	free(npred);
	free(ready);
	return length > cycle ? length : cycle;
}

static void freedeps(void)
{
	for (int k = 0; k < NN; k++) {
		free(N[k].succ);
		free(N[k].slat);
	}
	free(N);
	N = NULL;
}

static void setup(Fn *fn, int b, const Model *m)
{
	F = fn;
	M = m;
	I = fn->blk[b].ins;
	NI = fn->blk[b].nins;
	grp = xmalloc((NI + 1) * sizeof(int));
	ord = xmalloc((NI + 1) * sizeof(int));
	build();
}

static void reorder(Fn *fn, int b, const Model *m, int pressure);

/* after allocation: reorder within the registers the allocator chose
 * (no new spills possible), ordering on registers instead of values */
static void setregrep(Fn *fn)
{
	regrep = xmalloc((fn->ntmp + 1) * sizeof(int));
	int first[MAXFILE][64];
	memset(first, -1, sizeof first);
	for (int i = 0; i < fn->ntmp; i++) {
		Tmp *x = &fn->tmp[i];
		if (x->reg == NOREG || x->reg >= 64) {
			regrep[i] = i;
			continue;
		}
		if (first[x->file][x->reg] < 0)
			first[x->file][x->reg] = i;
		regrep[i] = first[x->file][x->reg];
	}
}

void postschedule(Fn *fn, const Target *t, const Model *m)
{
	setregrep(fn);
	T = t;
	/* a small window keeps the gains (interleaving nearby independent
	 * work) without undoing the source's large-scale order, which on an
	 * out-of-order core the model cannot judge (measured: docs/models.md) */
	window = 4;
	setacross(fn);
	setaddrtaken(fn);
	for (int b = 0; b < fn->nblk; b++)
		reorder(fn, b, m, 0);
	window = 0;
	free(regrep);
	regrep = NULL;
}

void schedule(Fn *fn, const Target *t, const Model *m)
{
	T = t;
	setacross(fn);
	setaddrtaken(fn);
	for (int b = 0; b < fn->nblk; b++)
		reorder(fn, b, m, 1);
}

/* The cycles the model's machine takes to run the nodes fed in order[]:
 * each cycle it issues, oldest first, up to its issue width of the nodes
 * within its out-of-order window (M->window nodes past the oldest one not
 * yet issued; 0: in order) whose operands are ready and that find a unit
 * of their class free. */
static int machinetime(const int *order)
{
	u64 busy[MAXUNIT];
	int *ready = xcalloc(NN + 1, sizeof(int)), *npred = xmalloc((NN + 1) * sizeof(int));
	char *done = xcalloc(NN + 1, 1);
	int cycle = 0, head = 0, ndone = 0, length = 0;
	memset(busy, 0, sizeof busy);
	/* anti and output dependences count too, although an out-of-order
	 * core renames registers: measured, the estimate that ignores them
	 * kept orders that ran slower (docs/models.md) */
	for (int k = 0; k < NN; k++)
		npred[k] = N[k].npred;
	int stuck = 0;
	while (ndone < NN) {
		int issued = 0;
		if (++stuck > 1000000)
			die("scheduler: the machine model issues nothing (%d of %d nodes)", ndone, NN);
		while (head < NN && done[order[head]])
			head++;
		for (int p = head; p < NN && p <= head + M->window && issued < M->issue; p++) {
			int k = order[p];
			Node *x = &N[k];
			if (done[k] || npred[k] || ready[k] > cycle || (issued && issued + x->nops > M->issue))
				continue;
			if (x->nops && !unitfree(busy, x, 0, cycle))
				continue;
			occupy(busy, x, cycle);
			done[k] = 1;
			ndone++;
			stuck = 0;
			issued += x->nops ? x->nops : 1;
			if (cycle + x->lat > length)
				length = cycle + x->lat;
			for (int j = 0; j < x->nsucc; j++) {
				npred[x->succ[j]]--;
				if (cycle + x->slat[j] > ready[x->succ[j]])
					ready[x->succ[j]] = cycle + x->slat[j];
			}
		}
		cycle++;
	}
	free(ready);
	free(npred);
	free(done);
	return length > cycle ? length : cycle;
}

static void reorder(Fn *fn, int b, const Model *m, int pressure)
{
	{
		setup(fn, b, m);
		int *out = xmalloc((NN + 1) * sizeof(int)), *alt = xmalloc((NN + 1) * sizeof(int));
		/* every priority function; the fastest on the model's machine
		 * (ties: the first) */
		prio = PHEIGHT;
		listsched(&fn->blk[b], out, pressure);
		int tbest = machinetime(out);
		for (prio = PHEIGHT + 1; prio < NPRIO && NN > 2; prio++) {
			listsched(&fn->blk[b], alt, pressure);
			int ta = machinetime(alt);
			if (ta < tbest) {
				tbest = ta;
				memcpy(out, alt, NN * sizeof(int));
			}
		}
		prio = PHEIGHT;
		free(alt);
		/* a reordering the model does not expect to gain from (3% of the
		 * block's time on the modelled machine, out-of-order window
		 * included, and at least 2 cycles) is not worth its risk:
		 * out-of-order cores reorder the source themselves, and measured
		 * it faster (docs/models.md) */
		int *src = xmalloc((NN + 1) * sizeof(int));
		for (int k = 0; k < NN; k++)
			src[k] = k;
		int tsched = tbest, tsrc = machinetime(src);
		if (tsrc - tsched < 2 || 100 * tsched > 97 * tsrc)
			memcpy(out, src, NN * sizeof(int));
		free(src);
		Ins *ni = xmalloc((NI + 1) * sizeof(Ins));
		int at = 0;
		for (int k = 0; k < NN; k++)
			for (int j = 0; j < N[out[k]].n; j++)
				ni[at++] = I[ord[N[out[k]].first + j]];
		if (at != NI)
			die("scheduler lost instructions (%d of %d)", at, NI);
		if (NI)
			memcpy(fn->blk[b].ins, ni, NI * sizeof(Ins));
		free(ni);
		free(out);
		freedeps();
		free(grp);
		free(ord);
	}
}

/* the dependence graph of block b alone, for the estimates below: on
 * registers once the function is allocated (false dependences count) */
static void blockbegin(Fn *fn, int b, const Target *t, const Model *m, int addrtaken)
{
	T = t;
	int allocated = 0;
	for (int i = 0; i < fn->ntmp && !allocated; i++)
		allocated = fn->tmp[i].reg != NOREG;
	if (allocated)
		setregrep(fn);
	setacross(fn);
	if (addrtaken)
		setaddrtaken(fn);
	setup(fn, b, m);
}

static void blockend(void)
{
	free(regrep);
	regrep = NULL;
	freedeps();
	free(grp);
	free(ord);
}

/* operation counts, critical path and schedule length of block b */
void blockstat(Fn *fn, int b, const Target *t, const Model *m, BStat *st)
{
	blockbegin(fn, b, t, m, 0);
	memset(st, 0, sizeof *st);
	for (int k = 0; k < NN; k++) {
		for (int j = 0; j < N[k].nops; j++)
			st->ops[N[k].ops[j]]++;
		st->nops += N[k].nops;
		if (N[k].height > st->critical)
			st->critical = N[k].height;
	}
	int *out = xmalloc((NN + 1) * sizeof(int));
	st->length = listsched(&fn->blk[b], out, 0);
	free(out);
	blockend();
}

/* the model's time of block b in its present order (on registers once
 * allocated): the machine estimate the passes above compare orders by */
int blocktime(Fn *fn, int b, const Target *t, const Model *m)
{
	blockbegin(fn, b, t, m, 1);
	int *src = xmalloc((NN + 1) * sizeof(int));
	for (int k = 0; k < NN; k++)
		src[k] = k;
	int time = NN ? machinetime(src) : 0;
	free(src);
	blockend();
	return time;
}
