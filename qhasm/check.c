/* check.c: resolves the names in a function's statements (variables,
 * constants, labels), parses memory references, and turns each
 * instruction statement into a shape (its canonical token string with
 * operands replaced by `$`) plus a list of source operands, which select.c
 * matches against the machine description.  Also checks labels (undefined,
 * duplicate) and the input/output lines against the ABI.
 * Needs: parse.c.  Provides: Stmt.shape, Stmt.op (in the SOPS stream), Fn.lab,
 * Fn.input. */
#include "all.h"

/* labels: an open-addressing hash per function, built by check() */
static int *labtab, labcap;

static int findlabel(Fn *fn, const char *s)
{
	if (!labcap)
		return -1;
	for (unsigned i = strhash(s) & (labcap - 1);; i = (i + 1) & (labcap - 1)) {
		if (labtab[i] < 0)
			return -1;
		if (!strcmp(fn->lab[labtab[i]].name, s))
			return labtab[i];
	}
}

static void addlabel(Fn *fn, int l)
{
	if (2 * (fn->nlab + 1) > labcap) {
		labcap = labcap ? 2 * labcap : 64;
		labtab = xrealloc(labtab, labcap * sizeof(int));
		memset(labtab, -1, labcap * sizeof(int));
		for (int i = 0; i < l; i++) {
			unsigned h = strhash(fn->lab[i].name) & (labcap - 1);
			while (labtab[h] >= 0)
				h = (h + 1) & (labcap - 1);
			labtab[h] = i;
		}
	}
	unsigned h = strhash(fn->lab[l].name) & (labcap - 1);
	while (labtab[h] >= 0)
		h = (h + 1) & (labcap - 1);
	labtab[h] = l;
}

/* is the type held by some register class of the target? */
static void typeok(const Target *tg, int v, Pos p)
{
	static const Target *known;
	static unsigned held; /* the types some register class holds (every operand asks) */
	if (known != tg) {
		held = 0;
		for (int i = 0; i < tg->ncls; i++)
			if (tg->cls[i].kind == CREG)
				held |= tg->cls[i].types;
		known = tg;
	}
	int t = vars[v].type;
	if (isstack(t) || held >> t & 1)
		return;
	err(p, "type %s (of '%s') is not supported by target %s", typename(t), vars[v].name, tg->name);
}

/* memN, memNle (little-endian), memNbe (big-endian); *endian gets 0, 'l', 'b' */
static int memwidth(const char *s, int *endian)
{
	static const int w[] = {8, 16, 32, 64, 128, 256, 512};
	static const char *suf[] = {"", "le", "be"};
	if (strncmp(s, "mem", 3))
		return 0;
	for (int i = 0; i < 7; i++)
		for (int e = 0; e < 3; e++) {
			char b[16];
			snprintf(b, sizeof b, "mem%d%s", w[i], suf[e]);
			if (!strcmp(s, b)) {
				if (endian)
					*endian = e == 0 ? 0 : e == 1 ? 'l' : 'b';
				return w[i];
			}
		}
	return 0;
}

static inline int isop(const Tok *k, const char *s)
{
	return k->kind == KOP && k->s[0] == s[0] && !strcmp(k->s, s);
}

/* addr = term { ('+'|'-') term }
 * term = var | var '*' scale | scale '*' var | number | CONST */
static int pmem(Tok *t, int n, int i, SOp *o)
{
	Tok *start = &t[i];
	o->kind = SMEM;
	int endian = 0;
	o->width = memwidth(t[i].s, &endian);
	o->endian = endian;
	o->base = o->index = o->sym = o->var = -1;
	o->scale = 1;
	o->pos = t[i].pos;
	i++;
	if (i >= n || !isop(&t[i], "["))
		err(start->pos, "expected '[' after '%s'", start->s);
	i++;
	int sign = 1, first = 1;
	for (;;) {
		if (i >= n)
			err(t[n].pos, "expected ']'");
		if (!first) {
			if (isop(&t[i], "]"))
				break;
			if (isop(&t[i], "+"))
				sign = 1;
			else if (isop(&t[i], "-"))
				sign = -1;
			else
				err(t[i].pos, "expected '+', '-' or ']' in address");
			i++;
			if (i >= n)
				err(t[n].pos, "expected an address term");
		}
		first = 0;
		Tok *k = &t[i];
		if (k->kind == KNUM && i + 2 < n && isop(&t[i + 1], "*") && t[i + 2].kind == KID) {
			/* scale * var: swap into var * scale */
			Tok tmp = t[i];
			t[i] = t[i + 2];
			t[i + 2] = tmp;
			k = &t[i];
		}
		if (k->kind == KNUM) {
			if (k->v > (u64)1 << 40)
				err(k->pos, "displacement too large");
			o->disp += sign * (i64)k->v;
			i++;
			continue;
		}
		if (isop(k, "&") && i + 1 < n && t[i + 1].kind == KID && findvar(t[i + 1].s) >= 0) {
			/* &s + 8: part of a stack variable (a sub-slot) */
			int sv = findvar(t[i + 1].s);
			if (!isstack(vars[sv].type))
				err(k->pos, "'&%s': only a stack variable has an address", t[i + 1].s);
			if (o->var >= 0 || sign < 0)
				err(k->pos, "an address has at most one stack variable, added");
			o->var = sv;
			i += 2;
			continue;
		}
		if (k->kind != KID)
			err(k->pos, "unexpected '%s' in address", k->s);
		int c = findconst(k->s), v = findvar(k->s);
		if (c >= 0) {
			if (o->sym >= 0 || sign < 0)
				err(k->pos, "an address has at most one constant, added");
			o->sym = c;
			i++;
			continue;
		}
		if (v < 0)
			err(k->pos, "undeclared variable '%s'", k->s);
		if (sign < 0)
			err(k->pos, "a register cannot be subtracted in an address");
		if (i + 1 < n && isop(&t[i + 1], "*")) {
			if (i + 2 >= n || t[i + 2].kind != KNUM)
				err(t[i + 1].pos, "expected a scale after '*'");
			u64 s = t[i + 2].v;
			if (s != 1 && s != 2 && s != 4 && s != 8)
				err(t[i + 2].pos, "scale must be 1, 2, 4 or 8");
			if (o->index >= 0)
				err(k->pos, "an address has at most one scaled index");
			o->index = v;
			o->scale = (int)s;
			i += 3;
			continue;
		}
		if (o->base < 0)
			o->base = v;
		else if (o->index < 0)
			o->index = v;
		else
			err(k->pos, "an address has at most two registers");
		i++;
	}
	if (o->base < 0 && o->index >= 0 && o->scale == 1) {
		o->base = o->index;
		o->index = -1;
	}
	if (o->sym >= 0 && (o->base >= 0 || o->index >= 0))
		err(start->pos, "a constant's address cannot be combined with registers");
	if (o->var >= 0) {
		const Var *sv = &vars[o->var];
		if (o->sym >= 0 || o->base >= 0 || o->index >= 0)
			err(start->pos, "a stack variable's address takes only a constant offset");
		if (o->disp < 0 || o->disp + o->width / 8 > (i64)(typebits(sv->type) / 8) * sv->count)
			err(start->pos, "%s at offset %lld is outside '%s' (%d bytes)", start->s, (long long)o->disp,
			    sv->name, typebits(sv->type) / 8 * sv->count);
		return i + 1;
	}
	if (o->sym < 0 && o->base < 0 && o->index < 0)
		err(start->pos, "an address needs a register or a constant");
	return i + 1;
}

/* a statement's operands are collected here, then allocated exactly
 * sized (a long block has millions of statements) */
static SOp opbuf[MAXOP];

static void addop(Stmt *s, int *cap, SOp o)
{
	if (s->nop >= MAXOP)
		err(o.pos, "too many operands");
	(void)cap;
	opbuf[s->nop++] = o;
}

static int operandlike(Tok *k)
{
	return k->kind == KID || k->kind == KNUM || isop(k, "]") || isop(k, ")");
}

static void pins(Fn *fn, Stmt *s)
{
	Tok *t;
	int n, cap = 0;
	canon(tokunpack(s->ptok, s->ntok, s->line), s->ntok, &t, &n);
	static char *shape; /* reused: nothing leaks when err() leaves */
	static size_t cap2;
	if (cap2 < 4 * (size_t)n + 16) {
		cap2 = 4 * (size_t)n + 16;
		shape = xrealloc(shape, cap2);
	}
	char *p = shape;
	for (int i = 0; i < n;) {
		Tok *k = &t[i];
		SOp o;
		memset(&o, 0, sizeof o);
		o.pos = k->pos;
		o.var = o.base = o.index = o.sym = o.label = -1;
		int next = i + 1, opnd = 1;
		if (k->kind == KID && memwidth(k->s, NULL)) {
			next = pmem(t, n, i, &o);
		} else if (k->kind == KNUM) {
			o.kind = SIMM;
			o.imm = (i64)k->v;
		} else if (isop(k, "-") && i + 1 < n && t[i + 1].kind == KNUM && (i == 0 || !operandlike(&t[i - 1]))) {
			o.kind = SIMM;
			o.imm = -(i64)t[i + 1].v;
			next = i + 2;
		} else if (k->kind == KID && i > 0 && t[i - 1].s[0] == 'g' && !strcmp(t[i - 1].s, "goto")) {
			o.kind = SLAB;
			o.label = findlabel(fn, k->s);
			if (o.label < 0)
				err(k->pos, "undefined label '%s'", k->s);
		} else if (k->kind == KID && (o.var = findvar(k->s)) >= 0) {
			o.kind = SVAR;
		} else if (k->kind == KID && findconst(k->s) >= 0) {
			err(k->pos, "constant '%s' is data: read it with memN[%s]", k->s, k->s);
		} else if (k->kind == KID && !isreserved(k->s) && !(i + 1 < n && isop(&t[i + 1], "("))
			   && !(i > 0 && isop(&t[i - 1], "(") && i + 1 < n && isop(&t[i + 1], ")"))) {
			/* (NAME): a type cast such as (uint128), which a target without
			 * such a form does not reserve; select.c says so */
			err(k->pos, "undeclared variable '%s'", k->s);
		} else
			opnd = 0;
		if (p != shape)
			*p++ = ' ';
		if (opnd) {
			*p++ = '$';
			addop(s, &cap, o);
		} else {
			size_t l = strlen(k->s);
			if ((size_t)(p - shape) + l + 8 > cap2) {
				size_t off = p - shape;
				cap2 = 2 * cap2 + l;
				shape = xrealloc(shape, cap2);
				p = shape + off;
			}
			memcpy(p, k->s, l);
			p += l;
		}
		i = next;
	}
	*p = 0;
	s->shape = fintern(shape, p - shape);
	s->op = salloc(SOPS, (s->nop ? s->nop : 1) * sizeof *s->op);
	memcpy(s->op, opbuf, s->nop * sizeof *s->op);
}

static void pinput(Fn *fn, Stmt *s, const Target *tg)
{
	fn->input = xmalloc(s->ntok * sizeof(int));
	for (int i = 1; i < s->ntok; i++) {
		Tok *k = &s->tok[i];
		int v = findvar(k->s);
		if (k->kind != KID || v < 0)
			err(k->pos, "undeclared variable '%s'", k->s);
		for (int j = 0; j < fn->ninput; j++)
			if (fn->input[j] == v)
				err(k->pos, "'%s' is already an input", k->s);
		int r = tg->argreg(fn->ninput, vars[v].type);
		if (r == -2)
			err(k->pos, "input '%s' (%s) is not supported by the %s ABI", k->s, typename(vars[v].type), tg->name);
		if (r == -3)
			err(k->pos, "too many inputs for the %s ABI", tg->name);
		fn->input[fn->ninput++] = v;
	}
}

/* secret = 'secret' item {item}; item = VAR (its value) | '[' VAR ']'
 * (memory read through it) */
static void psecret(Fn *fn, Stmt *s)
{
	if (!fn->secretval) {
		fn->secretval = xcalloc(nvars + 1, 1);
		fn->secretmem = xcalloc(nvars + 1, 1);
	}
	for (int k = 1; k < s->ntok; k++) {
		int mem = isop(&s->tok[k], "[");
		Tok *v = &s->tok[k + mem];
		int x = v->kind == KID ? findvar(v->s) : -1;
		if (x < 0)
			err(v->pos, "expected a variable after 'secret', found '%s'", v->s);
		if (typefile(vars[x].type) < 0)
			err(v->pos, "'%s' is not a register variable", v->s);
		if (mem) {
			if (!isop(&s->tok[k + 2], "]"))
				err(s->tok[k + 2].pos, "expected ']'");
			fn->secretmem[x] = 1;
			k += 2;
		} else
			fn->secretval[x] = 1;
	}
}

void check(Fn *fn, const Target *tg)
{
	int cap = 0;
	labcap = 0;
	for (int i = 0; i < fn->nstmt; i++) {
		Stmt *s = &fn->stmt[i];
		if (s->kind != SLABEL)
			continue;
		if (findvar(s->tok[0].s) >= 0 || isreserved(s->tok[0].s))
			err(s->pos, "'%s' cannot be a label: it is a variable or a reserved word", s->tok[0].s);
		int l = findlabel(fn, s->tok[0].s);
		if (l >= 0)
			err(s->pos, "duplicate label '%s' (first defined on line %d)", s->tok[0].s, fn->lab[l].pos.line);
		GROW(fn->lab, fn->nlab, cap);
		fn->lab[fn->nlab] = (Label){s->tok[0].s, s->pos, 1, -1};
		s->label = fn->nlab;
		addlabel(fn, fn->nlab);
		fn->nlab++;
	}
	for (int i = 0; i < fn->nstmt; i++) {
		Stmt *s = &fn->stmt[i];
		switch (s->kind) {
		case SINS:
			pins(fn, s);
			for (int k = 0; k < s->nop; k++) {
				if (s->op[k].kind == SVAR)
					typeok(tg, s->op[k].var, s->op[k].pos);
				if (s->op[k].kind == SMEM && s->op[k].base >= 0)
					typeok(tg, s->op[k].base, s->op[k].pos);
				if (s->op[k].kind == SMEM && s->op[k].index >= 0)
					typeok(tg, s->op[k].index, s->op[k].pos);
			}
			/* the operands say all the tokens said (dumps print the
			 * shape): the tokens of the statements before are
			 * released now, a long block has millions */
			srelease(STOK, s->ptok);
			s->ptok = NULL;
			s->ntok = 0;
			break;
		case SINPUT:
			pinput(fn, s, tg);
			break;
		case SSECRET:
			psecret(fn, s);
			break;
		case SDECLASSIFY:
			for (int k = 1; k < s->ntok; k++)
				if (s->tok[k].kind != KID || findvar(s->tok[k].s) < 0 || typefile(vars[findvar(s->tok[k].s)].type) < 0)
					err(s->tok[k].pos, "expected a register variable, found '%s'", s->tok[k].s);
			break;
		case SOUTPUT: {
			Tok *k = &s->tok[1];
			int v = findvar(k->s);
			if (k->kind != KID || v < 0)
				err(k->pos, "undeclared variable '%s'", k->s);
			if (fn->output >= 0)
				err(s->pos, "a function has one output");
			if (typefile(vars[v].type) != FGPR)
				err(k->pos, "the output must be an integer register variable");
			typeok(tg, v, k->pos);
			fn->output = v;
			break;
		}
		default:
			break;
		}
	}
}
