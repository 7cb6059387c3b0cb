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

/* pseudo-instructions: an argument arriving in a register, the return */
static MdLine mdarg = {.pattern = "input", .shape = "input", .nop = 1, .tmpl = "", .op = {{.acc = AW}}};
static MdLine mdret = {.pattern = "leave", .shape = "leave", .nop = 1, .tmpl = "", .attr = ARET, .op = {{.acc = AR}}};
static MdLine mdret0 = {.pattern = "leave", .shape = "leave", .nop = 0, .tmpl = "", .attr = ARET};
static MdLine mddecl = {.pattern = "declassify r", .shape = "declassify", .nop = 1, .tmpl = "", .attr = ADECL,
	.op = {{.acc = ARW}}};

/* the allocatable registers of a file: those some register class names */
u64 filemask(int file, u64 ext)
{
	/* the last answer per file (every new temporary asks) */
	static const Target *ct[MAXFILE];
	static u64 cext[MAXFILE], cmask[MAXFILE];
	if (file >= 0 && file < MAXFILE && ct[file] == T && cext[file] == ext)
		return cmask[file];
	u64 m = 0;
	for (int i = 0; i < T->ncls; i++)
		if (T->cls[i].kind == CREG && T->cls[i].file == file)
			m |= T->cls[i].mask;
	if (!(ext & T->regextbit))
		m &= ~T->regext[file];
	if (file >= 0 && file < MAXFILE) {
		ct[file] = T;
		cext[file] = ext;
		cmask[file] = m;
	}
	return m;
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

/* an instruction of the current statement at the end of the current block */
static Ins *selins(const MdLine *m)
{
	Ins *i = addins(F, curblk, m);
	i->stmt = curstmt;
	return i;
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
	Ins *i = selins(findmove(T, F, F->tmp[dst].type, MVREG));
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
	if ((m->attr & ACMPEQ) && s->cond >= 0 && strcmp(condname[s->cond], "=") && strcmp(condname[s->cond], "!="))
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

/* the flag groups some selected form reads: with none, no flag check
 * can fail (a long straight-line block reads none) */
static unsigned flagsread;

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
	Ins *i = selins(m);
	memcpy(i->op, ops, m->nop * sizeof *ops);
	i->keep = s->cond >= 0 ? condfl(T, s->cond) : 0;
	for (int k = 0; k < npost; k++)
		copy(post[k], postsrc[k]);
	F->used_ext |= m->ext;
	flagsread |= m->use;
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

/* the user's statement as written (for messages) */
static void srctext(const Stmt *s, char *buf, size_t n)
{
	const char *src = srcline[s->pos.line - 1] + s->pos.col - 1;
	size_t len = strcspn(src, "#\r\n");
	while (len && (src[len - 1] == ' ' || src[len - 1] == '\t'))
		len--;
	snprintf(buf, n, "%.*s", (int)len, src);
}

/* 'r = s + i' (r s: int64, i: simm13 -4096..4095): a form for messages */
static void formtext(const MdLine *m, char *buf, size_t n)
{
	snprintf(buf, n, "'%s' (", m->pattern);
	int first = 1;
	for (int k = 0; k < m->nop; k++) {
		const MdOp *o = &m->op[k];
		const Class *c = &T->cls[o->cls];
		if (o->acc == ASCR || o->exact)
			continue;
		char w[96];
		if (c->kind == CIMM)
			snprintf(w, sizeof w, "%s%c: %s %lld..%lld", first ? "" : ", ", o->name, c->name, (long long)c->min, (long long)c->max);
		else
			snprintf(w, sizeof w, "%s%c: %s", first ? "" : ", ", o->name, c->name);
		strncat(buf, w, n - strlen(buf) - 1);
		first = 0;
	}
	if (m->ext & ~F->ext) {
		char e[128];
		extname(m->ext & ~F->ext, e, sizeof e);
		strncat(buf, ", with 'cpu ", n - strlen(buf) - 1);
		strncat(buf, e, n - strlen(buf) - 1);
		strncat(buf, "'", n - strlen(buf) - 1);
	}
	strncat(buf, ")", n - strlen(buf) - 1);
}

/* token-level edit distance between two shapes, for "closest forms" */
static int shapedist(const char *a, const char *b)
{
	enum { MAXT = 24 };
	const char *ta[MAXT], *tb[MAXT];
	int la[MAXT], lb[MAXT], na = 0, nb = 0;
	for (const char *p = a; *p && na < MAXT; na++) {
		ta[na] = p;
		la[na] = (int)strcspn(p, " ");
		p += la[na];
		while (*p == ' ')
			p++;
	}
	for (const char *p = b; *p && nb < MAXT; nb++) {
		tb[nb] = p;
		lb[nb] = (int)strcspn(p, " ");
		p += lb[nb];
		while (*p == ' ')
			p++;
	}
	int d[MAXT + 1][MAXT + 1];
	for (int i = 0; i <= na; i++)
		for (int j = 0; j <= nb; j++) {
			if (!i || !j) {
				d[i][j] = i + j;
				continue;
			}
			int same = la[i - 1] == lb[j - 1] && !strncmp(ta[i - 1], tb[j - 1], la[i - 1]);
			int v = d[i - 1][j - 1] + !same;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			d[i][j] = v;
		}
	return d[na][nb];
}

/* "; closest forms on T: ..." from the candidates c[0..n) (or, with n == 0,
 * the enabled forms of the nearest shapes), at most four, each once */
static void closest(const Stmt *s, const MdLine **c, int n, char *buf, size_t len)
{
	const MdLine *pick[4];
	int np = 0;
	if (n) {
		/* same shape: those with the most operands that fit first */
		for (int want = s->nop; want >= 0 && np < 4; want--)
			for (int i = 0; i < n && np < 4; i++) {
				int fit = 0;
				for (int k = 0; k < c[i]->nslot && k < s->nop; k++)
					fit += fits(&s->op[k], &T->cls[c[i]->op[c[i]->slotop[k]].cls]);
				if (fit == want && !(c[i]->noext & F->ext) && c[i]->nslot == s->nop)
					pick[np++] = c[i];
			}
	} else {
		/* the nearest shapes; among them, forms taking the user's variable types first */
		unsigned types = 0;
		for (int k = 0; k < s->nop; k++)
			if (s->op[k].kind == SVAR)
				types |= 1u << vars[s->op[k].var].type;
		for (int dist = 1; dist <= 3 && !np; dist++)
			for (int lvl = 0; lvl < 4; lvl++) /* typed and enabled, typed, enabled, any */
				for (int i = 0; i < nmd && np < 4; i++) {
					int want = lvl < 2;
					if ((md[i].noext & F->ext) || (md[i].attr & (AJUMP | ACJUMP)) || shapedist(s->shape, md[i].shape) != dist)
						continue;
					if (!(lvl & 1) && !mdok(&md[i], F->ext))
						continue;
					unsigned ft = 0;
					for (int k = 0; k < md[i].nop; k++)
						if (T->cls[md[i].op[k].cls].kind == CREG && md[i].op[k].acc != ASCR)
							ft |= T->cls[md[i].op[k].cls].types;
					if (!!(ft & types) != want)
						continue;
					int dup = 0;
					for (int j = 0; j < np; j++)
						dup |= !strcmp(pick[j]->pattern, md[i].pattern);
					if (!dup)
						pick[np++] = &md[i];
				}
	}
	buf[0] = 0;
	for (int i = 0; i < np; i++) {
		char f[256];
		formtext(pick[i], f, sizeof f);
		strncat(buf, i ? ", " : "; closest forms: ", len - strlen(buf) - 1);
		strncat(buf, f, len - strlen(buf) - 1);
	}
	if (np)
		strncat(buf, " (all forms: docs/forms.md, qhasm/<isa>/<target>.md)", len - strlen(buf) - 1);
}

/* mdlookup() through a cache keyed by the shape's address (shapes are
 * interned: a long block repeats a few of them) */
static const MdLine **lookupshape(const char *shape, int *n)
{
	enum { NC = 256 };
	static struct { const char *shape; const MdLine **c; int n; unsigned epoch; } cache[NC];
	unsigned h = (unsigned)(((uintptr_t)shape >> 4) * 2654435761u) % NC;
	/* a new description or new interned strings make another epoch */
	unsigned epoch = mdepoch * 65599u + fepoch;
	if (cache[h].shape != shape || cache[h].epoch != epoch) {
		cache[h].c = mdlookup(shape, &cache[h].n);
		cache[h].shape = shape;
		cache[h].epoch = epoch;
	}
	*n = cache[h].n;
	return cache[h].c;
}

/* Selection's result for a statement whose operands are variables and
 * at most one immediate depends only on the shape, the condition, the
 * variables' types, which operands are the same variable, the immediate's
 * value (match(): fits() of a variable asks its type, of an immediate
 * its value, sameop() a variable's identity), and on the function's
 * extensions and the target: such statements (most of a long block) are
 * looked up in a cache keyed by those. */
enum { NSEL = 1024 };
static struct SelMemo {
	const char *shape;
	u64 sig, ext;
	i64 imm;
	const Target *t;
	unsigned epoch;
	int cond;
	const MdLine *m;
} selmemo[NSEL];

/* the statement's key (1, then per operand its type and tie, or an
 * immediate's mark; the immediate in *imm), or 0 when it has another
 * kind of operand or two immediates */
static u64 selsig(const Stmt *s, i64 *imm)
{
	u64 sig = 1;
	int nimm = 0;
	*imm = 0;
	for (int k = 0; k < s->nop; k++) {
		const SOp *o = &s->op[k];
		if (o->kind == SIMM && !nimm++) {
			*imm = o->imm;
			sig = sig << 7 | 127;
			continue;
		}
		if (o->kind != SVAR || vars[o->var].type >= 15)
			return 0;
		int j = 0;
		while (s->op[j].kind != SVAR || s->op[j].var != o->var)
			j++;
		sig = sig << 7 | (u64)vars[o->var].type << 3 | (u64)j;
	}
	return sig;
}

static const MdLine *selectform(const Stmt *s);

static const MdLine *selectins(const Stmt *s)
{
	i64 imm;
	u64 sig = s->nop <= MAXOP ? selsig(s, &imm) : 0;
	if (!sig)
		return selectform(s);
	unsigned epoch = mdepoch * 65599u + fepoch;
	/* interned shapes lie a few bytes apart: both halves mixed */
	u64 x = (u64)(uintptr_t)s->shape * 0x9e3779b97f4a7c15ull ^ (sig ^ (u64)imm * 0x94d049bb133111ebull) * 0xc2b2ae3d27d4eb4full;
	unsigned h = (unsigned)(x >> 32) % NSEL;
	struct SelMemo *e = &selmemo[h];
	if (e->m && e->shape == s->shape && e->sig == sig && e->imm == imm && e->ext == F->ext && e->t == T
	    && e->epoch == epoch && e->cond == s->cond)
		return e->m;
	const MdLine *m = selectform(s);
	*e = (struct SelMemo){s->shape, sig, F->ext, imm, T, epoch, s->cond, m};
	return m;
}

static const MdLine *selectform(const Stmt *s)
{
	int n;
	const MdLine **c = lookupshape(s->shape, &n);
	/* the messages' texts are made only for an error: selection runs
	 * millions of times */
	char text[256], near[1400];
	if (!n) {
		srctext(s, text, sizeof text);
		closest(s, NULL, 0, near, sizeof near);
		err(s->pos, "target %s has no form of '%s'%s", T->name, text, near);
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
			if (r && s->cond >= 0 && (condfl(T, s->cond) & ~(c[i]->def & ~c[i]->clob))) {
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
	srctext(s, text, sizeof text);
	closest(s, c, n, near, sizeof near);
	err(s->pos, "no form of '%s' takes operands (%s) on %s%s", text, buf, T->name, near);
}

static void entry(void)
{
	for (int i = 0; i < F->ninput; i++) {
		int v = F->input[i], t = vtmp(v), r = T->argreg(i, vars[v].type);
		if (r >= 0) {
			int f = fixedtmp(vars[v].type, typefile(vars[v].type), r);
			Ins *a = selins(&mdarg);
			a->op[0] = (Opnd){.kind = OTMP, .tmp = f, .base = -1, .index = -1};
			copy(t, f);
		} else {
			Ins *a = selins(findmove(T, F, vars[v].type, MVLOAD));
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
		Ins *r = selins(&mdret);
		r->op[0] = (Opnd){.kind = OTMP, .tmp = f, .base = -1, .index = -1};
	} else
		selins(&mdret0);
}

/* flags: forward must-analysis of which flag groups hold a kept value */


/* the carry a form sets or reads: 1 an addition's (carry out), 2 a
 * subtraction's (borrow); 0 neither (from its pattern) */
static int carrykind(const MdLine *m, int reads)
{
	const char *p = m->pattern;
	if (reads)
		return strstr(p, "+ carry") ? 1 : strstr(p, "- carry") ? 2 : 0;
	return strstr(p, "-") ? 2 : strstr(p, "+") ? 1 : 0;
}

/* A carry chain links additions or subtractions, not both: the language
 * gives a subtraction's carry as the borrow, but PowerPC keeps it as its
 * complement (subfc sets XER[CA] = not borrow), so `+ carry` after a
 * subtraction (or `- carry` after an addition) cannot mean the same on
 * every target.  Dataflow of the kind of carry reaching each reader, as
 * for compares (cmpkinds); an error at a reader of the other kind. */
static void carrykinds(const int *npred, const int *pstart, const int *plist)
{
	unsigned *rin = alloc((F->nblk + 1) * sizeof(unsigned)), *rout = alloc((F->nblk + 1) * sizeof(unsigned));
	for (int changed = 1; changed;) {
		changed = 0;
		for (int b = 0; b < F->nblk; b++) {
			unsigned r = 0;
			for (int j = 0; j < npred[b]; j++)
				r |= rout[plist[pstart[b] + j]];
			rin[b] = r;
			for (int i = 0; i < F->blk[b].nins; i++) {
				const Ins *x = &F->blk[b].ins[i];
				if (x->md->def & FLC)
					r = x->keep & FLC && !(x->md->clob & FLC) ? (unsigned)carrykind(x->md, 0) : 0;
			}
			if (r != rout[b]) {
				rout[b] = r;
				changed = 1;
			}
		}
	}
	for (int b = 0; b < F->nblk; b++) {
		unsigned r = rin[b];
		for (int i = 0; i < F->blk[b].nins; i++) {
			const Ins *x = &F->blk[b].ins[i];
			int k = (x->md->use & FLC) ? carrykind(x->md, 1) : 0;
			if (k && (r & ~(unsigned)k & 3) && x->stmt >= 0)
				err(F->stmt[x->stmt].pos, "this %s the carry of %s: a carry chain links additions or "
				    "subtractions, not both (a subtraction's carry is the borrow; PowerPC keeps its complement)",
				    k == 1 ? "adds" : "subtracts", k == 1 ? "a subtraction" : "an addition");
			if (x->md->def & FLC)
				r = x->keep & FLC && !(x->md->clob & FLC) ? (unsigned)carrykind(x->md, 0) : 0;
		}
	}
}

/* the conditions a flag reader's form reads: 1 signed, 2 unsigned, 4 other
 * than = and != (from its pattern, e.g. `goto l if signed<`) */
static int readkind(const MdLine *m)
{
	const char *p = m->pattern;
	int k = 0;
	for (const char *q = p; (q = strstr(q, "signed")); q += 6)
		k |= q >= p + 2 && !strncmp(q - 2, "un", 2) ? 2 : 1;
	if (strstr(p, "<") || strstr(p, ">") || strstr(p, "carry"))
		k |= 4;
	return k;
}

/* A compare that exists as distinct unsigned and signed instructions
 * (PowerPC cmpld/cmpd: ucmp/scmp), or whose flags hold only = and !=
 * (eqcmp), is chosen by its COND? prefix; a later reader of another kind
 * of condition would test the wrong compare.  Dataflow over the blocks of
 * the restriction of the zero/sign group that reaches each reader
 * (the union over the paths): an error at the reader. */
static void cmpkinds(const int *npred, const int *pstart, const int *plist)
{
	unsigned *rin = alloc((F->nblk + 1) * sizeof(unsigned)), *rout = alloc((F->nblk + 1) * sizeof(unsigned));
	for (int changed = 1; changed;) {
		changed = 0;
		for (int b = 0; b < F->nblk; b++) {
			unsigned r = 0;
			for (int j = 0; j < npred[b]; j++)
				r |= rout[plist[pstart[b] + j]];
			rin[b] = r;
			for (int i = 0; i < F->blk[b].nins; i++) {
				const Ins *x = &F->blk[b].ins[i];
				if (x->md->def & FLZ)
					r = x->keep & FLZ ? (unsigned)(x->md->attr & (ACMPU | ACMPS | ACMPEQ)) : 0;
			}
			if (r != rout[b]) {
				rout[b] = r;
				changed = 1;
			}
		}
	}
	for (int b = 0; b < F->nblk; b++) {
		unsigned r = rin[b];
		for (int i = 0; i < F->blk[b].nins; i++) {
			const Ins *x = &F->blk[b].ins[i];
			if ((x->md->use & FLZ) && r && x->stmt >= 0) {
				int k = readkind(x->md);
				const char *why = (r & ACMPU) && (k & 1) ? "an unsigned compare"
				                : (r & ACMPS) && (k & 2) ? "a signed compare"
				                : (r & ACMPEQ) && (k & 4) ? "flags that hold only = and !=" : NULL;
				if (why)
					err(F->stmt[x->stmt].pos, "on this target the flags this reads come from %s, chosen by the "
					    "setting line's prefix: name this condition in that prefix (e.g. 'signed<?')", why);
			}
			if (x->md->def & FLZ)
				r = x->keep & FLZ ? (unsigned)(x->md->attr & (ACMPU | ACMPS | ACMPEQ)) : 0;
		}
	}
}

static void checkflags(void)
{
	if (!flagsread)
		return; /* every error below is at an instruction reading flags */
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
	cmpkinds(npred, pstart, plist);
	carrykinds(npred, pstart, plist);
	for (int b = 0; b < F->nblk; b++) {
		unsigned v = in[b];
		int last[3] = {-1, -1, -1}; /* per flag group: the block's last instruction writing it */
		int kept[3] = {-1, -1, -1}; /* ... and the last one keeping it */
		for (int i = 0; i < F->blk[b].nins; i++) {
			const Ins *x = &F->blk[b].ins[i];
			if (x->md->use & ~v) {
				const Stmt *s = &F->stmt[x->stmt];
				unsigned lost = x->md->use & ~v;
				int g = lost & FLC ? 0 : lost & FLZ ? 1 : 2, w = last[g];
				const char *fl = g == 0 ? "carry" : g == 1 ? "zero/sign" : "overflow";
				/* point at the instruction that lost the flag: it is the one to fix */
				if (w >= 0 && F->blk[b].ins[w].stmt >= 0 && F->blk[b].ins[w].stmt != x->stmt) {
					const Ins *y = &F->blk[b].ins[w];
					const Stmt *ys = &F->stmt[y->stmt];
					/* a link of a chain (reads and writes the flag) must keep it */
					if (kept[g] >= 0 && F->blk[b].ins[kept[g]].stmt >= 0 && !(y->md->use >> g & 1))
						err(ys->pos, "this changes the %s flag that line %d sets and line %d reads (move it, or set the flag again after it)",
						    fl, F->stmt[F->blk[b].ins[kept[g]].stmt].pos.line, s->pos.line);
					if (y->md->def & ~y->md->clob & (1u << g))
						err(ys->pos, "this sets the %s flag that line %d reads, but does not keep it: prefix it with '%s?'",
						    fl, s->pos.line, g == 0 ? "carry" : g == 1 ? "=" : "overflow");
					err(ys->pos, "this changes the %s flag before line %d reads it (move it, or set the flag again after it)",
					    fl, s->pos.line);
				}
				err(s->pos, "this reads %s flag%s not kept on every path here (set it with a 'COND?' prefix, and let no flag-changing instruction come between)",
				    (x->md->use & ~v) == FLC ? "the carry" : (x->md->use & ~v) == FLO ? "the overflow" : "a",
				    "");
			}
			v = (v & ~x->md->def) | (x->md->def & x->keep);
			for (int g = 0; g < 3; g++)
				if (x->md->def >> g & 1) {
					last[g] = i;
					if (x->keep >> g & 1)
						kept[g] = i;
				}
		}
	}
}

void selectfn(Fn *fn, const Target *t)
{
	T = t;
	F = fn;
	F->blkcap = 0;
	fn->vartmp = xmalloc(nvars * sizeof(int));
	memset(fn->vartmp, -1, nvars * sizeof(int));
	curblk = newblk(F);
	curstmt = 0;
	flagsread = 0;
	entry();
	int ended = 0;
	for (int si = 0; si < fn->nstmt; si++) {
		Stmt *s = &fn->stmt[si];
		curstmt = si;
		if (s->kind == SLABEL) {
			if (F->blk[curblk].nins || F->blk[curblk].label >= 0 || ended)
				curblk = newblk(F);
			int l = s->label;
			fn->lab[l].blk = curblk;
			F->blk[curblk].label = l;
			ended = 0;
			continue;
		}
		if (s->kind == SDECLASSIFY) {
			for (int k = 1; k < s->ntok; k++) {
				Ins *d = selins(&mddecl);
				d->op[0] = (Opnd){.kind = OTMP, .tmp = vtmp(findvar(s->tok[k].s)), .base = -1, .index = -1};
			}
			continue;
		}
		if (s->kind != SINS && s->kind != SLEAVE)
			continue;
		if (ended)
			curblk = newblk(F);
		ended = 0;
		if (s->kind == SLEAVE) {
			leave();
			ended = 1;
			continue;
		}
		if (s->cond >= 0 && !strncmp(s->shape, "goto", 4))
			err(s->condpos, "a branch cannot set flags");
		const MdLine *m = selectins(s);
		if (s->cond >= 0 && (condfl(T, s->cond) & ~(m->def & ~m->clob)))
			err(s->condpos, "this instruction does not set the flags '%s?' asks for", condname[s->cond]);
		emitmatch(m, s);
		if (m->attr & (AJUMP | ACJUMP))
			ended = 1;
		/* the instructions now hold what the operands said: released
		 * as selection goes (a long block has millions), and the freed
		 * memory given back to the system while the instructions grow */
		srelease(SOPS, s->op);
		s->op = NULL;
		s->nop = 0;
		if ((si & 0xffff) == 0xffff)
			trimheap();
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
