/* select.c: instruction selection.  Each instruction statement is matched
 * against the machine-description forms of the same shape (first those
 * whose tied operands already agree, then those needing a copy), in
 * description order, among the forms whose CPU extensions are enabled.
 * Fixed-register operands become short temporaries pinned to their
 * register, joined to the variable by copies that coalescing removes when
 * it can.  Also builds the basic blocks and the control-flow graph, adds
 * the ABI's argument and return pseudo-instructions, and checks the flags:
 * a flag read must be set, on every path, by an instruction that asked to
 * keep it.  Needs: check.c.  Provides: Fn.blk, Fn.tmp, Fn.used_ext. */
#include "all.h"

static const Target *T;
static Fn *F;
static int curstmt;
static int curblk;
static int bcap;

/* pseudo-instructions: an argument arriving in a register, the return */
static MdLine mdarg = {.pattern = "input", .shape = "input", .nop = 1, .tmpl = "", .op = {{.acc = AW}}};
static MdLine mdret = {.pattern = "leave", .shape = "leave", .nop = 1, .tmpl = "", .attr = ARET, .op = {{.acc = AR}}};
static MdLine mdret0 = {.pattern = "leave", .shape = "leave", .nop = 0, .tmpl = "", .attr = ARET};
static MdLine mddecl = {.pattern = "declassify r", .shape = "declassify", .nop = 1, .tmpl = "", .attr = ADECL,
	.op = {{.acc = ARW}}};

/* the allocatable registers of a file: those some register class names */
u64 filemask(int file, u64 ext)
{
	u64 m = 0;
	for (int i = 0; i < T->ncls; i++)
		if (T->cls[i].kind == CREG && T->cls[i].file == file)
			m |= T->cls[i].mask;
	if (!(ext & T->regextbit))
		m &= ~T->regext[file];
	return m;
}

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

static int vtmp(int v)
{
	if (F->vartmp[v] < 0) {
		int t = F->vartmp[v] = newtmp(F, v, vars[v].type, typefile(vars[v].type));
		if (vars[v].pin) {
			int f;
			F->tmp[t].fixed = findreg(T, vars[v].pin, &f);
			F->tmp[t].mask = 1ull << F->tmp[t].fixed;
			F->tmp[t].nospill = 1;
		}
	}
	return F->vartmp[v];
}

static int fixedtmp(int type, int file, int reg)
{
	int t = newtmp(F, -1, type, file);
	F->tmp[t].fixed = reg;
	F->tmp[t].mask = 1ull << reg;
	F->tmp[t].nospill = 1;
	return t;
}

Ins *addins(Fn *fn, int b, const MdLine *m)
{
	Blk *bl = &fn->blk[b];
	GROW(bl->ins, bl->nins, bl->cap);
	Ins *i = &bl->ins[bl->nins++];
	memset(i, 0, sizeof *i);
	i->md = m;
	i->stmt = curstmt;
	for (int k = 0; k < MAXOP; k++)
		i->op[k].base = i->op[k].index = -1;
	return i;
}

static int newblk(void)
{
	GROW(F->blk, F->nblk, bcap);
	Blk *b = &F->blk[F->nblk];
	memset(b, 0, sizeof *b);
	b->succ[0] = b->succ[1] = -1;
	b->label = -1;
	return F->nblk++;
}

/* can the class address a stack slot (stack pointer + offset)? */
static int stackok(const Class *c)
{
	return !c->endian && (c->mode == MANY || c->mode == MDISP || c->mode == MDISP4);
}

/* the first enabled move of the given kind for a type */
const MdLine *findmove(const Target *t, Fn *fn, int type, int kind)
{
	int n;
	const MdLine **c = mdlookup("$ = $", &n);
	for (int i = 0; i < n; i++) {
		const MdLine *m = c[i];
		if (!(m->attr & AMOV) || !mdok(m, fn->ext))
			continue;
		const Class *d = &t->cls[m->op[m->slotop[0]].cls], *s = &t->cls[m->op[m->slotop[1]].cls];
		unsigned tb = 1u << type;
		if (kind == MVREG && d->kind == CREG && s->kind == CREG && (d->types & tb) && (s->types & tb))
			return m;
		if (kind == MVLOAD && d->kind == CREG && s->kind == CMEM && (d->types & tb) && s->view == typebits(type) && stackok(s))
			return m;
		if (kind == MVSTORE && d->kind == CMEM && s->kind == CREG && (s->types & tb) && d->view == typebits(type) && stackok(d))
			return m;
	}
	die("no %s for type %s in the %s description", kind == MVREG ? "move" : kind == MVLOAD ? "load" : "store",
	    typename(type), t->name);
}

static void copy(int dst, int src)
{
	Ins *i = addins(F, curblk, findmove(T, F, F->tmp[dst].type, MVREG));
	i->op[0] = (Opnd){.kind = OTMP, .tmp = dst, .base = -1, .index = -1};
	i->op[1] = (Opnd){.kind = OTMP, .tmp = src, .base = -1, .index = -1};
}

/* the addressing mode and byte order of a memory class */
static int fitsmode(const SOp *o, const Class *c)
{
	int native = T->bigendian ? 'b' : 'l';
	if ((o->endian ? o->endian : native) != (c->endian ? c->endian : native))
		return 0;
	if (o->sym >= 0)
		return c->mode == MANY;
	switch (c->mode) {
	case MBASE:
		return o->index < 0 && o->disp == 0;
	case MDISP:
		return o->index < 0 && o->disp >= c->min && o->disp <= c->max;
	case MDISP4:
		return o->index < 0 && o->disp >= c->min && o->disp <= c->max && !(o->disp & 3);
	case MINDEX:
		return o->index >= 0 && o->scale == 1 && o->disp == 0;
	}
	return 1;
}

/* Does source operand o fit class c? */
static int fits(const SOp *o, const Class *c)
{
	switch (c->kind) {
	case CREG:
		return o->kind == SVAR && (c->types >> vars[o->var].type & 1);
	case CIMM:
		return o->kind == SIMM && o->imm >= c->min && o->imm <= c->max;
	case CMEM:
		if (o->kind == SVAR)
			return isstack(vars[o->var].type) && typebits(vars[o->var].type) == c->view && stackok(c);
		if (o->kind != SMEM || o->width != c->view)
			return 0;
		if (o->var >= 0)
			return stackok(c);
		if (o->base >= 0 && vars[o->base].type != T->addrtype)
			return 0;
		if (o->index >= 0 && vars[o->index].type != T->addrtype)
			return 0;
		return fitsmode(o, c);
	case CADDR:
		return o->kind == SVAR && isstack(vars[o->var].type);
	case CLABEL:
		return o->kind == SLAB;
	}
	return 0;
}

static int sameop(const SOp *a, const SOp *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == SVAR)
		return a->var == b->var;
	if (a->kind == SMEM)
		return a->base == b->base && a->index == b->index && a->scale == b->scale && a->disp == b->disp && a->var == b->var
		    && a->sym == b->sym && a->width == b->width;
	return 0;
}

/* 0: no match; 1: exact; 2: needs copies for tied operands */
static int match(const MdLine *m, const Stmt *s)
{
	int r = 1;
	if (m->nslot != s->nop)
		return 0;
	if (m->attr & (ACMPU | ACMPS)) {
		/* signed and unsigned compares are distinct instructions here */
		const char *c = s->cond >= 0 ? condname[s->cond] : "=";
		int sg = !strncmp(c, "signed", 6), us = !strncmp(c, "unsigned", 8);
		if (((m->attr & ACMPU) && sg) || ((m->attr & ACMPS) && us))
			return 0;
		if ((m->attr & ACMPS) && !sg)
			return 0; /* =, != use the unsigned form */
	}
	for (int k = 0; k < m->nslot; k++) {
		const MdOp *o = &m->op[m->slotop[k]];
		if (!fits(&s->op[k], &T->cls[o->cls]) || (o->exact && s->op[k].imm != o->val))
			return 0;
		if (o->pos != k && !sameop(&s->op[o->pos], &s->op[k])) {
			if (s->op[k].kind != SVAR || T->cls[o->cls].kind != CREG)
				return 0;
			r = 2;
		}
	}
	return r;
}

static void narrow(int t, const Class *c, Pos p)
{
	Tmp *x = &F->tmp[t];
	x->mask &= c->mask;
	if (!x->mask)
		err(p, "no register can hold '%s' for every instruction that uses it", x->var >= 0 ? vars[x->var].name : "?");
}

static Opnd memop(const SOp *o, const Class *c)
{
	Opnd r = {.kind = OMEM, .base = -1, .index = -1, .scale = 1};
	if (o->kind == SVAR) {
		r.mkind = MBSTACK;
		r.obj = o->var;
		r.addr = c->kind == CADDR;
		return r;
	}
	if (o->var >= 0) {
		/* a part of a stack variable: mem32[&s + 4] */
		r.mkind = MBSTACK;
		r.obj = o->var;
		r.disp = o->disp;
		return r;
	}
	if (o->sym >= 0) {
		r.mkind = MBSYM;
		r.obj = o->sym;
		r.disp = o->disp;
		return r;
	}
	r.mkind = MBREG;
	if (o->base >= 0)
		r.base = vtmp(o->base);
	if (o->index >= 0)
		r.index = vtmp(o->index);
	r.scale = o->scale;
	r.disp = o->disp;
	return r;
}

static void emitmatch(const MdLine *m, const Stmt *s)
{
	int post[MAXOP], npost = 0;
	int postsrc[MAXOP];
	Opnd ops[MAXOP];
	memset(ops, 0, sizeof ops);
	for (int k = 0; k < m->nop; k++) {
		const MdOp *o = &m->op[k];
		const Class *c = &T->cls[o->cls];
		ops[k].base = ops[k].index = -1;
		if (o->acc == ASCR) {
			int t = newtmp(F, -1, TNONE, c->file);
			F->tmp[t].nospill = 1;
			for (int ty = 0; ty < NTYPE; ty++)
				if (c->types >> ty & 1) {
					F->tmp[t].type = ty;
					break;
				}
			if (o->fixed != NOREG) {
				F->tmp[t].fixed = o->fixed;
				F->tmp[t].mask = 1ull << o->fixed;
			}
			narrow(t, c, s->pos);
			ops[k] = (Opnd){.kind = OTMP, .tmp = t, .base = -1, .index = -1};
			continue;
		}
		const SOp *so = &s->op[o->pos];
		switch (c->kind) {
		case CIMM:
			ops[k] = (Opnd){.kind = OIMM, .imm = so->imm, .base = -1, .index = -1};
			break;
		case CLABEL:
			ops[k] = (Opnd){.kind = OLAB, .lab = so->label, .base = -1, .index = -1};
			break;
		case CMEM:
		case CADDR:
			ops[k] = memop(so, c);
			break;
		case CREG: {
			int t = vtmp(so->var), w = t;
			/* a tied operand whose occurrences differ: work on a copy */
			int second = -1;
			for (int j = 0; j < m->nslot; j++)
				if (m->slotop[j] == k && j != o->pos)
					second = j;
			if (second >= 0 && s->op[second].var != so->var) {
				w = newtmp(F, -1, vars[so->var].type, c->file);
				copy(w, vtmp(s->op[second].var));
			}
			if (o->fixed != NOREG) {
				int f = fixedtmp(F->tmp[t].type, c->file, o->fixed);
				if (o->acc & AR)
					copy(f, w);
				if (w != t) {
					postsrc[npost] = f;
					post[npost++] = t;
				} else if (o->acc & AW) {
					postsrc[npost] = f;
					post[npost++] = t;
				}
				w = f;
			} else if (w != t) {
				postsrc[npost] = w;
				post[npost++] = t;
			}
			narrow(w, c, so->pos);
			ops[k] = (Opnd){.kind = OTMP, .tmp = w, .base = -1, .index = -1};
			break;
		}
		}
	}
	Ins *i = addins(F, curblk, m);
	memcpy(i->op, ops, sizeof ops);
	i->keep = s->cond >= 0 ? condfl(T, s->cond) : 0;
	for (int k = 0; k < npost; k++)
		copy(post[k], postsrc[k]);
	F->used_ext |= m->ext;
}

static void extname(u64 e, char *buf, size_t n)
{
	buf[0] = 0;
	for (int i = 0; T->extname[i]; i++)
		if (e >> i & 1) {
			if (buf[0])
				strncat(buf, " ", n - strlen(buf) - 1);
			strncat(buf, T->extname[i], n - strlen(buf) - 1);
		}
}

static const MdLine *selectins(const Stmt *s)
{
	int n;
	const MdLine **c = mdlookup(s->shape, &n);
	if (!n) {
		const char *src = srcline[s->pos.line - 1] + s->pos.col - 1;
		size_t len = strcspn(src, "#\r");
		while (len && (src[len - 1] == ' ' || src[len - 1] == '\t'))
			len--;
		err(s->pos, "unknown instruction '%.*s' for target %s", (int)len, src, T->name);
	}
	u64 missing = 0;
	int noflags = 0;
	for (int pass = 1; pass <= 2; pass++)
		for (int i = 0; i < n; i++) {
			int r = match(c[i], s);
			if (r && !mdok(c[i], F->ext)) {
				if (c[i]->ext & ~F->ext)
					missing = c[i]->ext & ~F->ext;
				continue;
			}
			if (r && s->cond >= 0 && (condfl(T, s->cond) & ~c[i]->def)) {
				noflags = 1;
				continue;
			}
			if (r == pass)
				return c[i];
		}
	if (noflags)
		err(s->condpos, "this instruction does not set the flags '%s?' asks for", condname[s->cond]);
	if (missing) {
		char buf[256];
		extname(missing, buf, sizeof buf);
		err(s->pos, "this instruction needs CPU extension(s) %s (add 'cpu %s' before 'enter')", buf, buf);
	}
	char buf[512] = "";
	for (int k = 0; k < s->nop; k++) {
		const SOp *o = &s->op[k];
		const char *d = o->kind == SVAR ? typename(vars[o->var].type) : o->kind == SIMM ? "immediate"
			      : o->kind == SMEM ? "memory" : "label";
		char w[64];
		snprintf(w, sizeof w, "%s%s", k ? ", " : "", d);
		if (o->kind == SMEM) {
			snprintf(w, sizeof w, "%smem%d", k ? ", " : "", o->width);
		} else if (o->kind == SIMM)
			snprintf(w, sizeof w, "%simmediate %lld", k ? ", " : "", o->imm);
		strncat(buf, w, sizeof buf - strlen(buf) - 1);
	}
	err(s->pos, "no form of '%s' takes operands (%s) on %s", s->shape, buf, T->name);
}

static void entry(void)
{
	for (int i = 0; i < F->ninput; i++) {
		int v = F->input[i], t = vtmp(v), r = T->argreg(i, vars[v].type);
		if (r >= 0) {
			int f = fixedtmp(vars[v].type, typefile(vars[v].type), r);
			Ins *a = addins(F, curblk, &mdarg);
			a->op[0] = (Opnd){.kind = OTMP, .tmp = f, .base = -1, .index = -1};
			copy(t, f);
		} else {
			Ins *a = addins(F, curblk, findmove(T, F, vars[v].type, MVLOAD));
			a->op[0] = (Opnd){.kind = OTMP, .tmp = t, .base = -1, .index = -1};
			a->op[1] = (Opnd){.kind = OMEM, .mkind = MBARG, .obj = i, .base = -1, .index = -1};
		}
	}
}

static void leave(void)
{
	if (F->output >= 0) {
		int v = F->output;
		int f = fixedtmp(vars[v].type, FGPR, T->retreg);
		copy(f, vtmp(v));
		Ins *r = addins(F, curblk, &mdret);
		r->op[0] = (Opnd){.kind = OTMP, .tmp = f, .base = -1, .index = -1};
	} else
		addins(F, curblk, &mdret0);
}

/* flags: forward must-analysis of which flag groups hold a kept value */
static void checkflags(void)
{
	unsigned *in = alloc(F->nblk * sizeof *in), *out = alloc(F->nblk * sizeof *out);
	int *npred = alloc(F->nblk * sizeof *npred);
	for (int b = 0; b < F->nblk; b++) {
		out[b] = 7;
		for (int k = 0; k < 2; k++)
			if (F->blk[b].succ[k] >= 0)
				npred[F->blk[b].succ[k]]++;
	}
	/* predecessor lists */
	int *pstart = alloc((F->nblk + 1) * sizeof(int)), *plist = alloc((2 * F->nblk + 1) * sizeof(int));
	for (int b = 0, at = 0; b < F->nblk; b++) {
		pstart[b] = at;
		at += npred[b];
		npred[b] = 0;
	}
	for (int p = 0; p < F->nblk; p++)
		for (int k = 0; k < 2; k++) {
			int b = F->blk[p].succ[k];
			if (b >= 0)
				plist[pstart[b] + npred[b]++] = p;
		}
	for (int changed = 1; changed;) {
		changed = 0;
		for (int b = 0; b < F->nblk; b++) {
			unsigned v = b == 0 || !npred[b] ? 0 : 7;
			if (b != 0)
				for (int j = 0; j < npred[b]; j++)
					v &= out[plist[pstart[b] + j]];
			in[b] = v;
			for (int i = 0; i < F->blk[b].nins; i++) {
				const Ins *x = &F->blk[b].ins[i];
				v = (v & ~x->md->def) | (x->md->def & x->keep);
			}
			if (v != out[b]) {
				out[b] = v;
				changed = 1;
			}
		}
	}
	for (int b = 0; b < F->nblk; b++) {
		unsigned v = in[b];
		for (int i = 0; i < F->blk[b].nins; i++) {
			const Ins *x = &F->blk[b].ins[i];
			if (x->md->use & ~v) {
				const Stmt *s = &F->stmt[x->stmt];
				err(s->pos, "this reads %s flag%s not kept on every path here (set it with a 'COND?' prefix, and let no flag-changing instruction come between)",
				    (x->md->use & ~v) == FLC ? "the carry" : (x->md->use & ~v) == FLO ? "the overflow" : "a",
				    "");
			}
			v = (v & ~x->md->def) | (x->md->def & x->keep);
		}
	}
}

void selectfn(Fn *fn, const Target *t)
{
	T = t;
	F = fn;
	bcap = 0;
	fn->vartmp = xmalloc(nvars * sizeof(int));
	memset(fn->vartmp, -1, nvars * sizeof(int));
	curblk = newblk();
	curstmt = 0;
	entry();
	int ended = 0;
	for (int si = 0; si < fn->nstmt; si++) {
		Stmt *s = &fn->stmt[si];
		curstmt = si;
		if (s->kind == SLABEL) {
			if (F->blk[curblk].nins || F->blk[curblk].label >= 0 || ended)
				curblk = newblk();
			int l = s->label;
			fn->lab[l].blk = curblk;
			F->blk[curblk].label = l;
			ended = 0;
			continue;
		}
		if (s->kind == SDECLASSIFY) {
			for (int k = 1; k < s->ntok; k++) {
				Ins *d = addins(F, curblk, &mddecl);
				d->op[0] = (Opnd){.kind = OTMP, .tmp = vtmp(findvar(s->tok[k].s)), .base = -1, .index = -1};
			}
			continue;
		}
		if (s->kind != SINS && s->kind != SLEAVE)
			continue;
		if (ended)
			curblk = newblk();
		ended = 0;
		if (s->kind == SLEAVE) {
			leave();
			ended = 1;
			continue;
		}
		if (s->cond >= 0 && !strncmp(s->shape, "goto", 4))
			err(s->condpos, "a branch cannot set flags");
		const MdLine *m = selectins(s);
		if (s->cond >= 0 && (condfl(T, s->cond) & ~m->def))
			err(s->condpos, "this instruction does not set the flags '%s?' asks for", condname[s->cond]);
		emitmatch(m, s);
		if (m->attr & (AJUMP | ACJUMP))
			ended = 1;
	}
	/* successors */
	for (int b = 0; b < fn->nblk; b++) {
		Blk *bl = &fn->blk[b];
		const Ins *last = bl->nins ? &bl->ins[bl->nins - 1] : NULL;
		int fall = b + 1 < fn->nblk ? b + 1 : -1;
		if (last && (last->md->attr & ARET))
			continue;
		if (last && (last->md->attr & (AJUMP | ACJUMP))) {
			int tgt = -1;
			for (int k = 0; k < last->md->nop; k++)
				if (last->op[k].kind == OLAB)
					tgt = fn->lab[last->op[k].lab].blk;
			bl->succ[0] = tgt;
			if (last->md->attr & ACJUMP)
				bl->succ[1] = fall;
			continue;
		}
		if (fall < 0)
			die("block %d falls off the end", b);
		bl->succ[0] = fall;
	}
	checkflags();
}

/* free the IR of a function (after emission) */
void freefn(Fn *fn)
{
	for (int b = 0; b < fn->nblk; b++)
		free(fn->blk[b].ins);
	free(fn->blk);
	free(fn->tmp);
	free(fn->vartmp);
	free(fn->slot);
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
	memcpy(dst->usedregs, src->usedregs, sizeof dst->usedregs);
}

/* free what copyir() made */
void freeir(Fn *fn)
{
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
