/* parse.c: reads a .q file into declarations (vars[], consts[]) and
 * functions (fns[]), each a list of statements.  Declarations, function
 * brackets, inputs/outputs and labels are understood here; every other
 * statement is kept as tokens for check.c and select.c, which match it
 * against the machine description.  Needs: lex.c.  Provides: parse(). */
#include "all.h"

Var *vars;
int nvars;
static int capvars;
Const *consts;
int nconsts;
static int capconsts;
Fn **fns;
int nfns;
static int capfns;

enum { MAXLINE = 65536, MAXLINES = 4000000, MAXVARS = 1000000 };

const char *condname[] = {
	"=", "!=", "unsigned<", "unsigned<=", "unsigned>", "unsigned>=",
	"signed<", "signed<=", "signed>", "signed>=", "carry", "!carry",
	"overflow", "!overflow", 0
};
const unsigned condflags[] = {
	FLZ, FLZ, FLC, FLC | FLZ, FLC | FLZ, FLC,
	FLZ | FLO, FLZ | FLO, FLZ | FLO, FLZ | FLO, FLC, FLC,
	FLO, FLO,
};

/* the flag groups a condition reads, on target t */
unsigned condfl(const Target *t, int cond)
{
	return t->condflags ? t->condflags[cond] : condflags[cond];
}

int condbyname(const char *s)
{
	for (int i = 0; condname[i]; i++)
		if (!strcmp(condname[i], s))
			return i;
	return -1;
}

/* simple linear-probing name table for variables and constants */
typedef struct Name { const char *s; int kind, idx; } Name;
static Name *names;
static int namecap, nnames;

/* the entries last found, by the address of the text asked for: tokens
 * are interned, so a long block asks the same few addresses millions of
 * times (an entry whose name is that very text is the answer, whatever
 * the table did since) */
enum { NLCACHE = 4096 };
static struct { const char *s; int i; } lcache[NLCACHE];

static Name *lookup(const char *s)
{
	if (!namecap)
		return NULL;
	unsigned c = (unsigned)((u64)(uintptr_t)s * 0x9e3779b97f4a7c15ull >> 52) & (NLCACHE - 1);
	if (lcache[c].s == s && lcache[c].i < namecap && names[lcache[c].i].s == s)
		return &names[lcache[c].i];
	for (unsigned i = strhash(s) & (namecap - 1);; i = (i + 1) & (namecap - 1)) {
		if (!names[i].s)
			return NULL;
		/* names are interned: mostly the same pointer */
		if (names[i].s == s || !strcmp(names[i].s, s)) {
			lcache[c].s = s;
			lcache[c].i = (int)i;
			return &names[i];
		}
	}
}

static void addname(const char *s, int kind, int idx)
{
	if (2 * (nnames + 1) > namecap) {
		Name *old = names;
		int oldcap = namecap;
		namecap = namecap ? 2 * namecap : 1024;
		names = xcalloc(namecap, sizeof *names);
		nnames = 0;
		for (int i = 0; i < oldcap; i++)
			if (old[i].s)
				addname(old[i].s, old[i].kind, old[i].idx);
		free(old);
	}
	unsigned i = strhash(s) & (namecap - 1);
	while (names[i].s)
		i = (i + 1) & (namecap - 1);
	names[i] = (Name){s, kind, idx};
	nnames++;
}

int findvar(const char *s)
{
	Name *n = lookup(s);
	return n && n->kind == 0 ? n->idx : -1;
}

int findconst(const char *s)
{
	Name *n = lookup(s);
	return n && n->kind == 1 ? n->idx : -1;
}

static int typebyname(const char *s)
{
	/* every statement's first word is asked, and most are no type: the
	 * types' first characters first */
	static char first[256];
	if (!first[0]) {
		first[0] = 1;
		for (int t = 1; t < NTYPE; t++)
			first[(unsigned char)typename(t)[0]] = 1;
	}
	if (!s[0] || !first[(unsigned char)s[0]])
		return TNONE;
	for (int t = 1; t < NTYPE; t++)
		if (typename(t)[0] == s[0] && !strcmp(typename(t), s))
			return t;
	return TNONE;
}

static void checkname(Tok *k)
{
	if (k->kind != KID)
		err(k->pos, "expected a name, found '%s'", k->s);
	if (isreserved(k->s) || typebyname(k->s) || condbyname(k->s) >= 0)
		err(k->pos, "'%s' is a reserved word", k->s);
	if (lookup(k->s))
		err(k->pos, "'%s' is already declared", k->s);
}

/* decl = TYPE name ['[' count ']' | '@' REG] { name ... } */
static void pdecl(Tok *t, int n, int type, const Target *tg)
{
	if (n < 2)
		err(t[n > 1 ? 1 : 0].pos, "expected a variable name after '%s'", t[0].s);
	for (int i = 1; i < n;) {
		checkname(&t[i]);
		if (nvars >= MAXVARS)
			err(t[i].pos, "too many variables (limit %d)", MAXVARS);
		GROW(vars, nvars, capvars);
		Var *v = &vars[nvars];
		*v = (Var){t[i].s, type, 1, typebits(type) / 8, 0, t[i].pos, NULL};
		i++;
		if (i < n && !strcmp(t[i].s, "@")) {
			int f;
			if (i + 1 >= n || t[i + 1].kind != KID || findreg(tg, t[i + 1].s, &f) == NOREG)
				err(t[i + 1 < n ? i + 1 : i].pos, "expected a %s register name after '@'", tg->name);
			if (f != typefile(type))
				err(t[i + 1].pos, "register %s cannot hold a %s", t[i + 1].s, typename(type));
			v->pin = t[i + 1].s;
			i += 2;
		}
		if (i < n && !strcmp(t[i].s, "[")) {
			if (!isstack(type))
				err(t[i].pos, "only stack variables can be arrays");
			if (i + 2 >= n + 1 || t[i + 1].kind != KNUM || strcmp(t[i + 2].s, "]"))
				err(t[i].pos, "expected '[count]'");
			if (t[i + 1].v < 1 || t[i + 1].v > (1 << 20))
				err(t[i + 1].pos, "array length must be 1..%d", 1 << 20);
			v->count = (int)t[i + 1].v;
			if (v->align < 16)
				v->align = 16;
			i += 3;
		}
		addname(v->name, 0, nvars);
		nvars++;
	}
}

/* const = 'const' NAME ('u8'|'u16'|'u32'|'u64') value {value} */
static void pconst(Tok *t, int n)
{
	if (n < 2)
		err(t[0].pos, "expected a constant name");
	checkname(&t[1]);
	if (n < 3 || t[2].kind != KID)
		err(t[n < 3 ? 0 : 2].pos, "expected an element type u8, u16, u32 or u64");
	int bits = !strcmp(t[2].s, "u8") ? 8 : !strcmp(t[2].s, "u16") ? 16 : !strcmp(t[2].s, "u32") ? 32
		 : !strcmp(t[2].s, "u64") ? 64 : 0;
	if (!bits)
		err(t[2].pos, "expected an element type u8, u16, u32 or u64");
	if (n < 4)
		err(t[n - 1].pos, "expected values after the element type");
	GROW(consts, nconsts, capconsts);
	Const *c = &consts[nconsts];
	*c = (Const){t[1].s, bits, 0, falloc(n * sizeof(u64)), t[1].pos, 0};
	for (int i = 3; i < n; i++) {
		int neg = 0;
		if (!strcmp(t[i].s, "-") && i + 1 < n) {
			neg = 1;
			i++;
		}
		if (t[i].kind != KNUM)
			err(t[i].pos, "expected a number");
		u64 v = neg ? -t[i].v : t[i].v;
		if (bits < 64 && (neg ? (i64)v < -(1ll << (bits - 1)) : v >> bits))
			err(t[i].pos, "value does not fit in %d bits", bits);
		if (bits < 64)
			v &= (1ull << bits) - 1;
		c->v[c->n++] = v;
	}
	addname(c->name, 1, nconsts);
	nconsts++;
}

static u64 curext;

static void pcpu(Tok *t, int n, const Target *tg)
{
	if (n < 2)
		err(t[0].pos, "expected extension names after 'cpu'");
	for (int i = 1; i < n; i++) {
		int k;
		for (k = 0; tg->extname[k]; k++)
			if (!strcmp(tg->extname[k], t[i].s))
				break;
		if (!tg->extname[k])
			err(t[i].pos, "unknown CPU extension '%s' for target %s", t[i].s, tg->name);
		curext = extclose(tg, curext | 1ull << k);
	}
}

/* A statement keeps a copy of the line's tokens (t, the lexer's scratch)
 * in the heap (freed by parsereset); an instruction's are packed by
 * addinsstmt(). */
static Stmt *addstmt(Fn *fn, int *cap, int kind, Tok *t, int n)
{
	GROW(fn->stmt, fn->nstmt, *cap);
	Tok *c = t;
	if (kind != SINS) {
		c = xmalloc((n + 1) * sizeof *t);
		memcpy(c, t, (n + 1) * sizeof *t);
	}
	Stmt *s = &fn->stmt[fn->nstmt++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->pos = t[0].pos;
	s->line = t[0].pos.line;
	s->tok = c;
	s->ntok = n;
	s->cond = -1;
	return s;
}

/* A leading `COND ?` asks the statement to keep those flags. */
static void pcond(Stmt *s)
{
	char buf[32] = "";
	int q = 0;
	for (int i = 0; i < s->ntok && i < 4; i++)
		q |= s->tok[i].s[0] == '?' && !s->tok[i].s[1];
	if (!q)
		return;
	for (int i = 0; i < s->ntok && i < 4; i++) {
		if (!strcmp(s->tok[i].s, "?")) {
			if (i == 0)
				err(s->tok[0].pos, "expected a condition before '?'");
			s->cond = condbyname(buf);
			if (s->cond < 0)
				err(s->tok[0].pos, "unknown condition '%s'", buf);
			s->condpos = s->tok[0].pos;
			memmove(s->tok, s->tok + i + 1, (s->ntok - i) * sizeof *s->tok);
			s->ntok -= i + 1;
			if (!s->ntok)
				err(s->condpos, "expected an instruction after '%s?'", buf);
			s->pos = s->tok[0].pos;
			return;
		}
		if (strlen(buf) + strlen(s->tok[i].s) >= sizeof buf)
			return;
		strcat(buf, s->tok[i].s);
	}
}

/* An instruction: its condition prefix taken off, its tokens packed into
 * the token stream (check.c releases them as it goes: a long block has
 * millions). */
static void addinsstmt(Fn *fn, int *cap, Tok *t, int n)
{
	Stmt *s = addstmt(fn, cap, SINS, t, n);
	pcond(s); /* on the scratch tokens */
	void *p = salloc(STOK, tokpacksize(s->ntok));
	tokpack(p, s->tok, s->ntok);
	s->ptok = p;
}

char *readfile(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "qhasm: cannot open %s\n", path);
		exit(1);
	}
	/* sized by the file when it has a size (a long block is megabytes:
	 * no doubling and copying), grown for a pipe */
	size_t cap = 1 << 16, n = 0;
	if (!fseek(f, 0, SEEK_END)) {
		long sz = ftell(f);
		if (sz > 0)
			cap = (size_t)sz + 1;
		rewind(f);
	}
	char *s = xmalloc(cap);
	for (size_t k; (k = fread(s + n, 1, cap - n, f)) > 0;) {
		n += k;
		if (n == cap)
			s = xrealloc(s, cap *= 2);
	}
	fclose(f);
	if (n + 1 != cap)
		s = xrealloc(s, n + 1);
	s[n] = 0;
	*len = n;
	return s;
}

/* file = { line }; line = decl | const | cpu | 'enter' NAME | 'input' var
 *      {var} | 'output' var | 'leave' | NAME ':' | [COND '?'] instruction */
/* Forget everything parsed so far (for running many inputs in one process). */
void parsereset(void)
{
	free(vars);
	free(consts);
	for (int i = 0; i < nfns; i++) {
		Fn *fn = fns[i];
		for (int j = 0; j < fn->nstmt; j++)
			if (fn->stmt[j].kind != SINS)
				free(fn->stmt[j].tok); /* instructions': in the token stream */
		free(fn->stmt);
		free(fn->lab);
		free(fn->input);
		free(fn->secretval);
		free(fn->secretmem);
		freefn(fn);
		free(fn);
	}
	ffreeall();
	sfree(STOK);
	sfree(SOPS);
	free(fns);
	free(names);
	free(srcline);
	vars = NULL, consts = NULL, fns = NULL, names = NULL, srcline = NULL;
	nvars = capvars = nconsts = capconsts = nfns = capfns = namecap = nnames = nsrcline = 0;
}

void parse(const char *path, const Target *tg)
{
	size_t len;
	char *text = readfile(path, &len);
	parsebuf(path, text, len, tg);
}

/* text must stay allocated while the file is translated; it is modified */
void parsebuf(const char *path, char *text, size_t len, const Target *tg)
{
	int cap = 0;
	infile = path;
	Pos nul = {0, 0};
	/* NUL bytes are rare: the byte-by-byte search only when there is one */
	size_t scan = memchr(text, 0, len) ? len : 0;
	for (size_t i = 0, line = 1, col = 1; i < scan; i++, col++) {
		if (!text[i] && !nul.line) {
			nul = (Pos){(int)line, (int)col};
			text[i] = '?'; /* shown in the message */
		} else if (!text[i])
			text[i] = '?';
		if (text[i] == '\n') {
			line++;
			col = 0;
		}
	}
	for (char *p = text; *p;) {
		char *e = strchr(p, '\n');
		if (e)
			*e = 0;
		if (nsrcline >= MAXLINES) {
			fprintf(stderr, "%s: error: more than %d lines\n", path, MAXLINES);
			exit(1);
		}
		GROW(srcline, nsrcline, cap);
		srcline[nsrcline++] = p;
		if ((e ? (size_t)(e - p) : strlen(p)) > MAXLINE)
			err((Pos){nsrcline, MAXLINE}, "line longer than %d characters", MAXLINE);
		if (!e)
			break;
		p = e + 1;
	}
	if (nul.line)
		err(nul, "NUL byte in input");
	parselines(srcline, NULL, NULL, nsrcline, tg);
}

/* `extern NAME {NAME}`: data defined elsewhere (another object file),
 * read like a constant: memN[NAME], &memN[NAME] */
static void pextern(Tok *t, int n)
{
	if (n < 2)
		err(t[0].pos, "expected symbol names after 'extern'");
	for (int i = 1; i < n; i++) {
		checkname(&t[i]);
		GROW(consts, nconsts, capconsts);
		consts[nconsts] = (Const){t[i].s, 8, 0, NULL, t[i].pos, 1};
		addname(t[i].s, 1, nconsts);
		nconsts++;
	}
}

/* w == k, first testing the first character (inline: every line asks) */
static inline int wordis(const char *w, const char *k)
{
	return w[0] == k[0] && !strcmp(w, k);
}

/* The statements of a file: line i is text[i], at source line lineno[i]
 * (default i + 1); with col, every token of line i is placed at column
 * col[i] of that source line (text produced by a front end such as djb.c,
 * whose srcline[] holds the original lines). */
void parselines(char **text, const int *lineno, const int *col, int nline, const Target *tg)
{
	curext = tg->baseext;
	Fn *fn = NULL;
	int scap = 0, inputs = 0;
	for (int ln = 0; ln < nline; ln++) {
		int n;
		Tok *t = lexline(text[ln], lineno ? lineno[ln] : ln + 1, &n);
		if (!n)
			continue;
		if (col)
			for (int i = 0; i <= n; i++)
				t[i].pos.col = col[ln];
		int type = t[0].kind == KID ? typebyname(t[0].s) : TNONE;
		const char *w = t[0].s;
		if (type) {
			pdecl(t, n, type, tg);
		} else if (wordis(w, "const")) {
			pconst(t, n);
		} else if (wordis(w, "extern")) {
			pextern(t, n);
		} else if (wordis(w, "cpu")) {
			if (fn)
				err(t[0].pos, "'cpu' must come before 'enter'");
			pcpu(t, n, tg);
		} else if (wordis(w, "enter")) {
			if (fn)
				err(t[0].pos, "'enter' inside function '%s' (missing 'leave'?)", fn->name);
			if (n != 2 || t[1].kind != KID)
				err(t[n > 1 ? 1 : 0].pos, "expected 'enter NAME'");
			for (int i = 0; i < nfns; i++)
				if (!strcmp(fns[i]->name, t[1].s))
					err(t[1].pos, "function '%s' is already defined", t[1].s);
			fn = xcalloc(1, sizeof *fn);
			fn->name = t[1].s;
			fn->pos = t[1].pos;
			fn->output = -1;
			fn->ext = curext;
			scap = 0;
			inputs = 0;
			GROW(fns, nfns, capfns);
			fns[nfns++] = fn;
		} else if (!fn) {
			err(t[0].pos, "statement outside a function (missing 'enter'?)");
		} else if (wordis(w, "input")) {
			if (n < 2)
				err(t[0].pos, "expected variables after 'input'");
			if (inputs)
				err(t[0].pos, "a function has one 'input' line");
			inputs = 1;
			addstmt(fn, &scap, SINPUT, t, n);
		} else if (wordis(w, "secret") || wordis(w, "declassify")) {
			if (n < 2)
				err(t[0].pos, "expected variables after '%s'", w);
			addstmt(fn, &scap, w[0] == 's' ? SSECRET : SDECLASSIFY, t, n);
		} else if (wordis(w, "output")) {
			if (n != 2)
				err(t[n > 2 ? 2 : 0].pos, "expected 'output VARIABLE'");
			addstmt(fn, &scap, SOUTPUT, t, n);
		} else if (wordis(w, "leave")) {
			if (n != 1)
				err(t[1].pos, "unexpected '%s' after 'leave'", t[1].s);
			addstmt(fn, &scap, SLEAVE, t, n);
			fn = NULL;
		} else if (wordis(w, "return")) {
			/* an early return: like leave, but the function goes on */
			if (n != 1)
				err(t[1].pos, "unexpected '%s' after 'return'", t[1].s);
			addstmt(fn, &scap, SLEAVE, t, n);
		} else if (n == 2 && t[0].kind == KID && !strcmp(t[1].s, ":")) {
			addstmt(fn, &scap, SLABEL, t, n);
		} else {
			addinsstmt(fn, &scap, t, n);
		}
	}
	if (fn)
		err(fn->pos, "function '%s' has no 'leave'", fn->name);
}
