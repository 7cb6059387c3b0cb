/* emit.c: writes assembly through the target's dialect table: a header
 * naming the generator and the extensions each function requires, each
 * instruction preceded by the .q line it came from (as a comment and a
 * line directive), templates expanded with allocated registers, copies
 * between one register dropped, symbol types and sizes, read-only
 * constants.  Needs: frame.c.  Provides: the output file. */
#define _GNU_SOURCE /* fmemopen, and the _unlocked stdio calls (one thread) */
#include "all.h"
#ifndef __GLIBC__
#define fputs_unlocked fputs
#define fwrite_unlocked fwrite
#endif

static int lastline;

/* print a dialect string, {0} and {1} replaced by a and b */
static void put(FILE *f, const char *fmt, const char *a, const char *b)
{
	/* runs of plain text are written at once (millions of lines) */
	const char *run = fmt;
	for (const char *p = fmt; *p; p++)
		if (p[0] == '{' && (p[1] == '0' || p[1] == '1') && p[2] == '}') {
			fwrite_unlocked(run, 1, p - run, f);
			fputs_unlocked(p[1] == '0' ? a : b, f);
			p += 2;
			run = p + 1;
		}
	fputs_unlocked(run, f);
}

static void putln(FILE *f, const char *fmt, const char *a, const char *b)
{
	put(f, fmt, a, b);
	putc_unlocked('\n', f);
}

/* The instructions' text is put together here and written a buffer at a
 * time (the FILE calls cost more than the text: millions of lines);
 * flushed before anything else writes to the file (the target's memfmt,
 * prologue and epilogue, put()). */
static char ob[4096];
static size_t on;

static void obflush(FILE *f)
{
	fwrite_unlocked(ob, 1, on, f);
	on = 0;
}

static inline void obput(FILE *f, const char *s, size_t n)
{
	if (n <= 4 && on + 4 <= sizeof ob) {
		/* separators and short names without a call */
		for (size_t i = 0; i < n; i++)
			ob[on + i] = s[i];
		on += n;
		return;
	}
	if (on + n > sizeof ob) {
		obflush(f);
		if (n > sizeof ob) {
			fwrite_unlocked(s, 1, n, f);
			return;
		}
	}
	memcpy(ob + on, s, n);
	on += n;
}

static void obputs(FILE *f, const char *s) { obput(f, s, strlen(s)); }

/* put() into the buffer */
static void obfmt(FILE *f, const char *fmt, const char *a, const char *b)
{
	const char *run = fmt;
	for (const char *p = fmt; *p; p++)
		if (p[0] == '{' && (p[1] == '0' || p[1] == '1') && p[2] == '}') {
			obput(f, run, p - run);
			obputs(f, p[1] == '0' ? a : b);
			p += 2;
			run = p + 1;
		}
	obputs(f, run);
}

/* n in decimal (a source line number: without printf, millions of times) */
static char *decimal(char *end, unsigned long long n)
{
	*--end = 0;
	do
		*--end = (char)('0' + n % 10);
	while (n /= 10);
	return end;
}

static void putint(FILE *f, i64 v)
{
	char num[24];
	if (v < 0)
		obput(f, "-", 1);
	obputs(f, decimal(num + sizeof num, v < 0 ? -(unsigned long long)v : (unsigned long long)v));
}

/* the dialect's line directive for this file, split around its line
 * number ({1} once), made once per function instead of per line */
static char *linepre, *linepost;
static size_t lineprelen, linepostlen;
static const char *linefmt, *linefile;
static size_t commentlen;

/* s with every {0} replaced by infile, between the characters lead and
 * tail (0: none), and its length */
static char *withfile(const char *s, size_t n, char lead, char tail, size_t *len)
{
	size_t m = 0;
	for (const char *p = s; p + 3 <= s + n && (p = strstr(p, "{0}")) && p + 3 <= s + n; p += 3)
		m++;
	char *d = xmalloc(n + m * strlen(infile) + 3), *o = d;
	if (lead)
		*o++ = lead;
	for (const char *p = s; p < s + n;)
		if (p + 3 <= s + n && !strncmp(p, "{0}", 3)) {
			o = stpcpy(o, infile);
			p += 3;
		} else
			*o++ = *p++;
	if (tail)
		*o++ = tail;
	*o = 0;
	*len = (size_t)(o - d);
	return d;
}

static void lineparts(const Target *t)
{
	const char *fmt = t->dialect->line;
	commentlen = strlen(t->dialect->comment);
	if (fmt == linefmt && infile == linefile)
		return;
	free(linepre);
	free(linepost);
	linepre = linepost = NULL;
	linefmt = fmt;
	linefile = infile;
	const char *one = strstr(fmt, "{1}");
	if (!one || strstr(one + 3, "{1}"))
		return; /* obfmt() then */
	/* the new lines before and after it included: one copy each */
	linepre = withfile(fmt, (size_t)(one - fmt), '\n', 0, &lineprelen);
	linepost = withfile(one + 3, strlen(one + 3), 0, '\n', &linepostlen);
}

static void comment_src(FILE *f, const Target *t, Fn *fn, int stmt)
{
	int line = fn->spos[stmt].line;
	if (line == lastline)
		return;
	lastline = line;
	const char *src = srcline[line - 1];
	while (*src == ' ' || *src == '\t')
		src++;
	size_t n = strlen(src);
	while (n && (src[n - 1] == ' ' || src[n - 1] == '\t' || src[n - 1] == '\r'))
		n--;
	char num[24];
	obput(f, t->dialect->comment, commentlen);
	obput(f, src, n);
	char *d = decimal(num + sizeof num, (unsigned)line);
	if (linepre) {
		/* "\n" + the directive's start, the number, its end + "\n" */
		obput(f, linepre, lineprelen);
		obput(f, d, (size_t)(num + sizeof num - 1 - d));
		obput(f, linepost, linepostlen);
		return;
	}
	obput(f, "\n", 1);
	obfmt(f, t->dialect->line, infile, d);
	obput(f, "\n", 1);
}

static int opindex(const MdLine *m, char c)
{
	for (int k = 0; k < m->nop; k++)
		if (m->op[k].name == c)
			return k;
	die("template of line %d names unknown operand '%c'", m->lineno, c);
}

/* Is {p..e} an operand reference: x, x:BITS or N-x? */
static int isoperand(const MdLine *m, const char *p, const char *e)
{
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	if (p < e && *p == '-')
		p++;
	if (p >= e)
		return 0;
	for (int k = 0; k < m->nop; k++)
		if (m->op[k].name == *p && (p + 1 == e || p[1] == ':'))
			return 1;
	return 0;
}

/* {x}, {x:32} (a register view), {N-x} (an immediate expression) */

/* {m:base} / {m:disp} of a stack variable or spill slot (a template that
 * takes the address apart, such as PowerPC's `li t, disp; lvx r, base, t`):
 * the target writes stack operands as `DISP(BASE)`, split here. */
static void stackpart(FILE *f, Fn *fn, const Target *t, const Opnd *o, int disp, const MdLine *m)
{
	char buf[64];
	FILE *s = fmemopen(buf, sizeof buf, "w");
	if (!s)
		die("fmemopen failed");
	t->memfmt(s, fn, o);
	fputc(0, s);
	fclose(s);
	buf[sizeof buf - 1] = 0;
	char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	if (!open || !close || close < open)
		die("line %d: stack operand '%s' cannot be split into base and displacement", m->lineno, buf);
	if (disp)
		fprintf(f, "%.*s", (int)(open - buf), buf);
	else
		fprintf(f, "%.*s", (int)(close - open - 1), open + 1);
}

static void subst(FILE *f, const Target *t, Fn *fn, const Ins *x, const char *p, const char *e)
{
	const MdLine *m = x->md;
	i64 base = 0;
	int neg = 0;
	if (p[0] >= '0' && p[0] <= '9') {
		base = strtoll(p, (char **)&p, 10);
		if (*p++ != '-')
			die("bad template expression in line %d", m->lineno);
		neg = 1;
	}
	int k = opindex(m, *p++);
	const Opnd *o = &x->op[k];
	int bits = t->cls[m->op[k].cls].view;
	if (p < e && *p == ':' && o->kind == OTMP)
		bits = atoi(p + 1);
	switch (o->kind) {
	case OTMP: {
		const Tmp *tm = &fn->tmp[o->tmp];
		const char *r = t->regview(tm->file, tm->reg, bits);
		if (!r)
			die("no %d-bit view of register %d", bits, tm->reg);
		obputs(f, r);
		return;
	}
	case OIMM:
		if (p < e && *p == ':') {
			obflush(f);
			/* {i:lo}, {i:hi}, {i:ha}: 16-bit parts; {i:w1}..: 16-bit groups from the top */
			u64 v = (u64)o->imm;
			if (!strncmp(p, ":lo}", 4))
				fprintf(f, "%llu", v & 0xffff);
			else if (!strncmp(p, ":hi}", 4))
				fprintf(f, "%llu", v >> 16 & 0xffff);
			else if (!strncmp(p, ":ha}", 4))
				fprintf(f, "%llu", (v + 0x8000) >> 16 & 0xffff);
			else if (!strncmp(p, ":w3}", 4))
				fprintf(f, "%llu", v >> 48 & 0xffff);
			else if (!strncmp(p, ":w2}", 4))
				fprintf(f, "%llu", v >> 32 & 0xffff);
			else
				die("line %d: unknown immediate view", m->lineno);
			return;
		}
		putint(f, neg ? base - o->imm : o->imm);
		return;
	case OMEM:
		obflush(f);
		if (p < e && *p == ':') {
			/* {m:base}, {m:index}, {m:disp}: parts of the address */
			if (o->mkind == MBSTACK || o->mkind == MBSPILL) {
				stackpart(f, fn, t, o, p[1] == 'd', m);
				return;
			}
			if (!strncmp(p, ":base}", 6) || !strncmp(p, ":index}", 7)) {
				int r = p[1] == 'b' ? o->base : o->index;
				if (r < 0)
					die("line %d: address has no %.*s", m->lineno, (int)(e - p - 1), p + 1);
				fputs(t->regview(FGPR, fn->tmp[r].reg, t->spbytes * 8), f);
			} else if (!strncmp(p, ":disp}", 6))
				fprintf(f, "%lld", o->disp);
			else
				die("line %d: unknown memory view", m->lineno);
			return;
		}
		t->memfmt(f, fn, o);
		return;
	case OLAB:
		obflush(f);
		put(f, t->dialect->loclabel, fn->name, fn->lab[o->lab].name);
		return;
	}
	obflush(f);
	die("operand %c of line %d has no value", m->op[k].name, m->lineno);
}

/* A template compiled once per description line (millions of
 * instructions share a few hundred lines): runs of plain text (a ';'
 * already turned into a new line and tab) and operand references, a plain
 * {x} of a register operand written from a cached register name. */
typedef struct Piece {
	const char *s;    /* text, or the reference's inside (after '{') */
	int n;            /* text length; -1: a reference ending at e */
	int k;            /* plain {x}: its operand, else -1 */
	const char *e;    /* the reference's '}' */
} Piece;
typedef struct Tmpl { const MdLine *md; Piece *p; int np; } Tmpl;
static Tmpl *ttab;
static size_t tcap, tcount;
static unsigned tepoch = ~0u;

static void addpiece(Piece **p, int *np, int *cap, Piece x)
{
	GROW(*p, *np, *cap);
	(*p)[(*np)++] = x;
}

static void compile(Tmpl *c, const MdLine *m)
{
	Piece *p = NULL;
	int np = 0, cap = 0;
	addpiece(&p, &np, &cap, (Piece){"\t", 1, -1, NULL});
	for (const char *q = m->tmpl; *q; q++) {
		if (*q == ';') {
			addpiece(&p, &np, &cap, (Piece){"\n\t", 2, -1, NULL});
			while (q[1] == ' ')
				q++;
			continue;
		}
		if (*q != '{') {
			size_t n = strcspn(q, ";{");
			addpiece(&p, &np, &cap, (Piece){q, (int)n, -1, NULL});
			q += n - 1;
			continue;
		}
		const char *e = strchr(q, '}');
		if (!e)
			die("unterminated '{' in line %d", m->lineno);
		if (!isoperand(m, q + 1, e)) {
			/* not an operand: assembler syntax such as {1to16} or {k1} */
			addpiece(&p, &np, &cap, (Piece){q, (int)(e - q + 1), -1, NULL});
		} else {
			int k = e == q + 2 ? opindex(m, q[1]) : -1;
			addpiece(&p, &np, &cap, (Piece){q + 1, -1, k, e});
		}
		q = e;
	}
	addpiece(&p, &np, &cap, (Piece){"\n", 1, -1, NULL});
	c->md = m;
	c->p = p;
	c->np = np;
}

static void tmplreset(void)
{
	for (size_t i = 0; i < tcap; i++)
		free(ttab[i].p);
	free(ttab);
	ttab = NULL;
	tcap = tcount = 0;
}

static Tmpl *tmplof(const MdLine *m)
{
	if (tepoch != mdepoch) {
		/* a description was loaded: its lines are new */
		tmplreset();
		tepoch = mdepoch;
	}
	if (2 * (tcount + 1) > tcap) {
		Tmpl *old = ttab;
		size_t oc = tcap;
		tcap = tcap ? 2 * tcap : 256;
		ttab = xcalloc(tcap, sizeof *ttab);
		for (size_t i = 0; i < oc; i++)
			if (old[i].md) {
				size_t h = ((uintptr_t)old[i].md >> 4) * 0x9e3779b97f4a7c15ull >> 20 & (tcap - 1);
				while (ttab[h].md)
					h = (h + 1) & (tcap - 1);
				ttab[h] = old[i];
			}
		free(old);
	}
	size_t h = ((uintptr_t)m >> 4) * 0x9e3779b97f4a7c15ull >> 20 & (tcap - 1);
	while (ttab[h].md && ttab[h].md != m)
		h = (h + 1) & (tcap - 1);
	if (!ttab[h].md) {
		compile(&ttab[h], m);
		tcount++;
	}
	return &ttab[h];
}

/* register names with their lengths, per file, view and register */
typedef struct RName { const char *s; int n; } RName;
static RName rname[MAXFILE][8][64];
static const Target *rtarget;

static const RName *regname(const Target *t, int file, int reg, int bits)
{
	int v = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : bits == 64 ? 3 : bits == 128 ? 4
		: bits == 256 ? 5 : bits == 512 ? 6 : 7;
	if (rtarget != t) {
		memset(rname, 0, sizeof rname);
		rtarget = t;
	}
	if (v == 7 || reg < 0 || reg >= 64 || file < 0 || file >= MAXFILE)
		return NULL;
	RName *r = &rname[file][v][reg];
	if (!r->s) {
		const char *s = t->regview(file, reg, bits);
		if (!s)
			return NULL;
		*r = (RName){s, (int)strlen(s)};
	}
	return r;
}

static void expand(FILE *f, const Target *t, Fn *fn, const Ins *x)
{
	const Tmpl *c = tmplof(x->md);
	for (int i = 0; i < c->np; i++) {
		const Piece *p = &c->p[i];
		if (p->n >= 0) {
			obput(f, p->s, p->n);
			continue;
		}
		if (p->k >= 0 && x->op[p->k].kind == OTMP) {
			const Tmp *tm = &fn->tmp[x->op[p->k].tmp];
			const RName *r = regname(t, tm->file, tm->reg, t->cls[x->md->op[p->k].cls].view);
			if (r) {
				obput(f, r->s, r->n);
				continue;
			}
		}
		subst(f, t, fn, x, p->s, p->e);
	}
}

static int isnop(Fn *fn, const Ins *x)
{
	if (!(x->md->attr & AMOV) || x->op[0].kind != OTMP || x->op[1].kind != OTMP)
		return 0;
	return fn->tmp[x->op[0].tmp].reg == fn->tmp[x->op[1].tmp].reg;
}

void emitfile(FILE *f, const Target *t)
{
	const char *base = strrchr(infile, '/');
	fprintf(f, "%sgenerated by qhasm -m %s from %s. DO NOT EDIT.\n", t->dialect->comment, t->name,
		base ? base + 1 : infile);
	if (t->dialect->header)
		putln(f, t->dialect->header, infile, "");
	for (int i = 0; i < nconsts; i++)
		if (consts[i].external && t->dialect->external)
			putln(f, t->dialect->external, consts[i].name, "");
}

/* a symbol spelled like a register (a function named ymm20) is escaped */
const char *symrename = NULL;

/* --rename OLD=NEW: the first OLD in a global symbol becomes NEW */
static const char *renamed(const char *base, char *full, size_t n)
{
	const char *eq = symrename ? strchr(symrename, '=') : NULL;
	size_t ol = eq ? (size_t)(eq - symrename) : 0;
	const char *at = base;
	while (ol && *at && strncmp(at, symrename, ol))
		at++;
	if (!ol || !*at)
		snprintf(full, n, "%s", base);
	else
		snprintf(full, n, "%.*s%s%s", (int)(at - base), base, eq + 1, at + ol);
	return full;
}

static const char *symname(const Target *t, const char *base)
{
	static char buf[512], full[512];
	const char *name = renamed(base, full, sizeof full);
	int file;
	if (t->dialect->escape && findreg(t, name, &file) != NOREG) {
		snprintf(buf, sizeof buf, "%s", t->dialect->escape);
		char *at = strstr(buf, "{0}");
		if (at)
			snprintf(at, sizeof buf - (at - buf), "%s", name);
		return buf;
	}
	return full;
}

void emitfn(FILE *f, Fn *fn, const Target *t)
{
	const Dialect *d = t->dialect;
	const char *name = symname(t, fn->name);
	fprintf(f, "\n%srequires:", d->comment);
	if (!(fn->used_ext & ~t->baseext))
		fprintf(f, " base");
	for (int i = 0; t->extname[i]; i++)
		if ((fn->used_ext & ~t->baseext) >> i & 1)
			fprintf(f, " %s", t->extname[i]);
	fprintf(f, "\n");
	putln(f, d->funchead, name, "");
	t->prologue(f, fn);
	lastline = 0;
	lineparts(t);
	/* a loop's head (a later block jumps back to it) starts a fetch
	 * block: the loop's speed then does not depend on where the linker
	 * puts the function */
	char *loophead = xcalloc(fn->nblk + 1, 1);
	for (int c = 0; c < fn->nblk; c++)
		for (int k = 0; k < 2; k++)
			if (fn->blk[c].succ[k] >= 0 && fn->blk[c].succ[k] <= c)
				loophead[fn->blk[c].succ[k]] = 1;
	for (int b = 0; b < fn->nblk; b++) {
		Blk *bl = &fn->blk[b];
		if (bl->label >= 0) {
			obflush(f);
			if (loophead[b] && d->loopalign)
				putln(f, d->loopalign, "", "");
			put(f, d->loclabel, fn->name, fn->lab[bl->label].name);
			fprintf(f, ":\n");
		}
		for (int i = 0; i < bl->nins; i++) {
			const Ins *x = &bl->ins[i];
			if (x->md->attr & ARET) {
				comment_src(f, t, fn, x->stmt);
				obflush(f);
				t->epilogue(f, fn);
				continue;
			}
			if (!x->md->tmpl[0] || isnop(fn, x))
				continue;
			if (x->stmt >= 0)
				comment_src(f, t, fn, x->stmt);
			expand(f, t, fn, x);
		}
	}
	obflush(f);
	free(loophead);
	putln(f, d->functail, name, "");
}

void emitconsts(FILE *f, const Target *t)
{
	int own = 0;
	for (int i = 0; i < nconsts; i++)
		own += !consts[i].external;
	if (!own)
		return;
	fprintf(f, "\n%s\n", t->dialect->rodata);
	for (int i = 0; i < nconsts; i++) {
		const Const *c = &consts[i];
		if (c->external)
			continue;
		putln(f, t->dialect->align64, "", "");
		putln(f, t->dialect->label, c->name, "");
		int di = c->elbits == 8 ? 0 : c->elbits == 16 ? 1 : c->elbits == 32 ? 2 : 3;
		for (int j = 0; j < c->n; j += 8) {
			fprintf(f, "\t%s ", t->dialect->data[di]);
			for (int k = j; k < c->n && k < j + 8; k++)
				fprintf(f, "%s0x%llx", k > j ? ", " : "", c->v[k]);
			fprintf(f, "\n");
		}
	}
}

void emitend(FILE *f, const Target *t)
{
	fprintf(f, "\n%s\n", t->dialect->trailer);
}
