/* djb.c: front end for D. J. Bernstein's qhasm dialects (qhasm-20070207,
 * `qhasm2007`, and the later amd64/AVX descriptions, `qhasm`).  It reads
 * the djb file, normalises each statement's surface (memory operands
 * `*(uint64 *) (p + 8)`, `*(uint64 *) &SYM`, `((uint32 *) &s)[k]`,
 * `mem64[input_0 + 8]`, namespaced names), rewrites it with the table in
 * djbrules.c into statements of our own language, and lays out the
 * structure: declarations first, then one function per `enter` point
 * (entry points sharing a body each get the body from their `enter` to
 * the end of the group), inputs in declaration order or implicit
 * `input_0..input_5`, early `leave`/`return` as `return`, `assign
 * outputreg 0 to x` and `return x` as `output x`, the old dialect's zero
 * return value, and the callee-saved registers: `caller` variables are the
 * ABI's business here, so saving and restoring them is dropped.  The
 * result goes to parselines(), which keeps the djb lines for messages and
 * comments.  Needs: parse.c, djbrules.c.  Provides: djbparse(). */
#include <ctype.h>
#include "all.h"

const char *dialectname[] = {"q", "qhasm2007", "qhasm", "auto", 0};
const char *djbnamespace = "qhasm";
int undefok;

enum { IMEM = 100 }; /* an item: a whole memory operand */

typedef struct Item { int kind; char *s; u64 v; int col; } Item;
typedef struct DVar { char *name; int type; int ghost; int stack; } DVar;

/* ---------- variables (a small hash table) ---------- */
static DVar *dv;
static int ndv, capdv, *dvtab, dvcap;

static int dvfind(const char *s)
{
	if (!dvcap)
		return -1;
	for (unsigned h = strhash(s) & (dvcap - 1);; h = (h + 1) & (dvcap - 1)) {
		if (dvtab[h] < 0)
			return -1;
		if (!strcmp(dv[dvtab[h]].name, s))
			return dvtab[h];
	}
}

static void dvput(int i)
{
	unsigned h = strhash(dv[i].name) & (dvcap - 1);
	while (dvtab[h] >= 0)
		h = (h + 1) & (dvcap - 1);
	dvtab[h] = i;
}

static int dvadd(char *name, int type)
{
	if (2 * (ndv + 1) > dvcap) {
		dvcap = dvcap ? 2 * dvcap : 1024;
		free(dvtab);
		dvtab = xmalloc(dvcap * sizeof(int));
		memset(dvtab, -1, dvcap * sizeof(int));
		for (int i = 0; i < ndv; i++)
			dvput(i);
	}
	GROW(dv, ndv, capdv);
	dv[ndv] = (DVar){name, type, 0, isstack(type)};
	dvput(ndv);
	return ndv++;
}

/* ---------- output: lines of our language with their djb positions ---------- */
static char **otext;
static int *oline, *ocol, nout, capout;

static void out(const char *s, int line, int col)
{
	if (nout >= capout) {
		capout = capout ? 2 * capout : 1024;
		otext = xrealloc(otext, capout * sizeof *otext);
		oline = xrealloc(oline, capout * sizeof *oline);
		ocol = xrealloc(ocol, capout * sizeof *ocol);
	}
	otext[nout] = fstrndup(s, strlen(s));
	oline[nout] = line;
	ocol[nout] = col;
	nout++;
}

/* ---------- the djb lexer: like ours, but `.` is an operator and
 * `++`, `--`, `;`, `{`, `}` are tokens (`while (i) { *out++ = *m++; --i }`) */
static const char *dops[] = {
	"<<<=", ">>>=", "<<=", ">>=", "<<<", ">>>", "+=", "-=", "*=", "&=", "|=", "^=", "<=", ">=",
	"==", "!=", "<<", ">>", "++", "--", "=", "+", "-", "*", "&", "|", "^", "~", "(", ")", "[", "]",
	",", ":", "?", "!", "<", ">", "{", "}", ";", ".", "@", "/", "%", 0
};

static Item *dlex(const char *s, int line, int *np)
{
	static Item *t;
	static int cap;
	int n = 0;
	for (const char *p = s;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '#' || (p[0] == '/' && p[1] == '/'))
			break;
		GROW(t, n, cap);
		Item *k = &t[n];
		memset(k, 0, sizeof *k);
		k->col = (int)(p - s) + 1;
		const char *q = p;
		if (isalpha((unsigned char)*p) || *p == '_') {
			while (isalnum((unsigned char)*q) || *q == '_')
				q++;
			k->kind = KID;
		} else if (isdigit((unsigned char)*p)) {
			int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
			q = hex ? p + 2 : p;
			while (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q))
				q++;
			k->kind = KNUM;
			k->v = strtoull(p, NULL, hex ? 16 : 10);
			if (!hex && *q == 'x' && !isalnum((unsigned char)q[1]) && q[1] != '_') {
				k->kind = KLANE;
				q++;
			}
			if (isalnum((unsigned char)*q) || *q == '_') {
				/* a name such as 2P0 (in CRYPTO_NAMESPACE(2P0)) */
				while (isalnum((unsigned char)*q) || *q == '_')
					q++;
				k->kind = KID;
			}
		} else {
			int i;
			for (i = 0; dops[i] && strncmp(p, dops[i], strlen(dops[i])); i++)
				;
			if (!dops[i])
				err((Pos){line, k->col}, "unexpected character '%c'", *p);
			q = p + strlen(dops[i]);
			k->kind = KOP;
		}
		k->s = fstrndup(p, q - p);
		n++;
		p = q;
	}
	*np = n;
	return t;
}

/* ---------- the text we build a statement in ---------- */
typedef struct Buf { char *s; size_t n, cap; } Buf;

static void bput(Buf *b, const char *s)
{
	size_t l = strlen(s);
	while (b->n + l + 2 > b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		b->s = xrealloc(b->s, b->cap);
	}
	if (b->n)
		b->s[b->n++] = ' ';
	memcpy(b->s + b->n, s, l + 1);
	b->n += l;
}

/* ---------- symbols: namespaces and external data ---------- */
static char **ext;
static int next, capext;

static void addext(const char *s)
{
	for (int i = 0; i < next; i++)
		if (!strcmp(ext[i], s))
			return;
	GROW(ext, next, capext);
	ext[next++] = fstrndup(s, strlen(s));
}

static int isop(const Item *k, const char *s) { return k->kind == KOP && !strcmp(k->s, s); }

static int curline;  /* the djb line being read */

/* CRYPTO_NAMESPACE(x), CRYPTO_SHARED_NAMESPACE(x): NS_x; CRYPTO_NAMESPACETOP: NS.
 * Returns the tokens used (0: not a namespaced name). */
static int nsname(const Item *t, int n, int i, char **name)
{
	const char *s = t[i].s;
	if (t[i].kind != KID)
		return 0;
	if (*s == '_' && strstr(s, "CRYPTO_") == s + 1)
		s++;
	if (!strcmp(s, "CRYPTO_NAMESPACETOP")) {
		*name = fstrndup(djbnamespace, strlen(djbnamespace));
		return 1;
	}
	if (strcmp(s, "CRYPTO_NAMESPACE") && strcmp(s, "CRYPTO_SHARED_NAMESPACE"))
		return 0;
	if (i + 3 >= n + 0 || !isop(&t[i + 1], "(") || t[i + 2].kind == KOP || !isop(&t[i + 3], ")"))
		err((Pos){curline, t[i].col}, "expected %s(NAME)", s);
	char b[512];
	snprintf(b, sizeof b, "%s_%s", djbnamespace, t[i + 2].s);
	*name = fstrndup(b, strlen(b));
	return 4;
}

static Pos at(const Item *k) { return (Pos){curline, k->col}; }

/* bits of a djb pointer type: uint8 .. uint64, int128 */
static int ptrbits(const Item *k)
{
	static const char *n[] = {"uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
		"int128", "uint128", "int6464", 0};
	static const int b[] = {8, 8, 16, 16, 32, 32, 64, 64, 128, 128, 128};
	for (int i = 0; n[i]; i++)
		if (k->kind == KID && !strcmp(k->s, n[i]))
			return b[i];
	if (k->kind == KID && (!strcmp(k->s, "float64") || !strcmp(k->s, "float80")))
		err(at(k), "floating-point memory operands (%s) are not supported", k->s);
	return 0;
}

/* an address term list, from t[i] to the closing token `close` (not
 * included): names become variables or external symbols, &s stays */
static int addr(const Item *t, int n, int i, const char *close, Buf *b)
{
	int depth = 0;
	for (; i < n; i++) {
		if (isop(&t[i], "(") || isop(&t[i], "["))
			depth++;
		if ((isop(&t[i], ")") || isop(&t[i], "]")) && depth-- == 0 && !strcmp(t[i].s, close))
			return i;
		char *nm;
		int k = nsname(t, n, i, &nm);
		if (k) {
			addext(nm);
			bput(b, nm);
			i += k - 1;
			continue;
		}
		if (t[i].kind == KID && dvfind(t[i].s) < 0) {
			addext(t[i].s);
		}
		bput(b, t[i].s);
	}
	err(at(&t[n - 1]), "expected '%s' to close the address", close);
}

/* `x = SYM` with x a register variable: the width of the data read */
static int symdata(const Item *t, int i)
{
	if (t[i].kind != KID || !isalpha((unsigned char)t[i].s[0]) || !strcmp(t[i].s, "carry"))
		return 0;
	for (int j = 0; j < i; j++) {
		int v = t[j].kind == KID ? dvfind(t[j].s) : -1;
		if (v >= 0 && !dv[v].stack)
			return typebits(dv[v].type);
	}
	return 0;
}

/* Normalise memory operands and names: the result is a list of items,
 * memory operands as single IMEM items written in our syntax. */
static Item *norm(const Item *t, int n, int *np)
{
	static Item *o;
	static int cap;
	int m = 0;
	for (int i = 0; i < n;) {
		GROW(o, m, cap);
		Item *r = &o[m];
		*r = t[i];
		Buf b = {0};
		char w[16];
		char *nm;
		int k, bits;
		/* *(uint64 *) (p + 8)  and  *(uint64 *) &s */
		int u = i + 2 < n && t[i + 2].kind == KID && (!strcmp(t[i + 2].s, "unaligned") || !strcmp(t[i + 2].s, "aligned"));
		if (isop(&t[i], "*") && i + 5 + u < n && isop(&t[i + 1], "(") && (bits = ptrbits(&t[i + 2 + u]))
		    && isop(&t[i + 3 + u], "*") && isop(&t[i + 4 + u], ")")) {
			i += u;
			snprintf(w, sizeof w, "mem%d", bits);
			bput(&b, w);
			bput(&b, "[");
			if (isop(&t[i + 5], "(")) {
				int e = addr(t, n, i + 6, ")", &b);
				i = e + 1;
			} else if (isop(&t[i + 5], "&") && i + 6 < n) {
				if ((k = nsname(t, n, i + 6, &nm))) {
					addext(nm);
					bput(&b, nm);
					i += 6 + k;
				} else if (t[i + 6].kind == KID && dvfind(t[i + 6].s) >= 0) {
					bput(&b, "&");
					bput(&b, t[i + 6].s);
					i += 7;
				} else if (t[i + 6].kind == KID) {
					addext(t[i + 6].s);
					bput(&b, t[i + 6].s);
					i += 7;
				} else
					err(at(&t[i + 6]), "expected a name after '&'");
			} else
				err(at(&t[i + 5]), "expected '(' or '&' after the pointer type");
			bput(&b, "]");
			r->kind = IMEM;
			r->s = fstrndup(b.s, b.n);
			free(b.s);
			m++;
			continue;
		}
		/* ((uint32 *) &s)[k]: part of a stack variable */
		if (isop(&t[i], "(") && i + 10 < n && isop(&t[i + 1], "(") && (bits = ptrbits(&t[i + 2]))
		    && isop(&t[i + 3], "*") && isop(&t[i + 4], ")") && isop(&t[i + 5], "&") && t[i + 6].kind == KID
		    && isop(&t[i + 7], ")") && isop(&t[i + 8], "[") && t[i + 9].kind == KNUM && isop(&t[i + 10], "]")) {
			char s[600];
			if (dvfind(t[i + 6].s) < 0 || !dv[dvfind(t[i + 6].s)].stack)
				err(at(&t[i + 6]), "'%s' is not a stack variable", t[i + 6].s);
			snprintf(s, sizeof s, "mem%d [ & %s + %llu ]", bits, t[i + 6].s, t[i + 9].v * (bits / 8));
			r->kind = IMEM;
			r->s = fstrndup(s, strlen(s));
			i += 11;
			m++;
			continue;
		}
		/* memN[...] */
		if (t[i].kind == KID && !strncmp(t[i].s, "mem", 3) && isdigit((unsigned char)t[i].s[3]) && i + 1 < n
		    && isop(&t[i + 1], "[")) {
			bput(&b, t[i].s);
			bput(&b, "[");
			int e = addr(t, n, i + 2, "]", &b);
			bput(&b, "]");
			r->kind = IMEM;
			r->s = fstrndup(b.s, b.n);
			free(b.s);
			i = e + 1;
			m++;
			continue;
		}
		/* s[k] on a stack variable: its k-th 64-bit word */
		if (t[i].kind == KID && dvfind(t[i].s) >= 0 && dv[dvfind(t[i].s)].stack && i + 3 < n
		    && isop(&t[i + 1], "[") && t[i + 2].kind == KNUM && isop(&t[i + 3], "]")) {
			char s[600];
			snprintf(s, sizeof s, "mem64 [ & %s + %llu ]", t[i].s, t[i + 2].v * 8);
			r->kind = IMEM;
			r->s = fstrndup(s, strlen(s));
			i += 4;
			m++;
			continue;
		}
		if ((k = nsname(t, n, i, &nm))) {
			r->kind = KID;
			r->s = nm;
			i += k;
			m++;
			continue;
		}
		/* &SYM outside memory: the address of external data */
		if (isop(&t[i], "&") && i + 1 < n && t[i + 1].kind == KID && dvfind(t[i + 1].s) < 0
		    && !(i + 2 < n && isop(&t[i + 2], "["))) {
			char s[600];
			int used = nsname(t, n, i + 1, &nm);
			if (!used)
				nm = t[i + 1].s, used = 1;
			m++;
			GROW(o, m, cap);
			addext(nm);
			snprintf(s, sizeof s, "mem8 [ %s ]", nm);
			o[m] = (Item){IMEM, fstrndup(s, strlen(s)), 0, t[i + 1].col};
			m++;
			i += 1 + used;
			continue;
		}
		/* a bare external name as an operand: its data (djb: x = v0_0) */
		if (t[i].kind == KID && dvfind(t[i].s) < 0 && i > 0 && !isop(&t[i - 1], "&")
		    && (isop(&t[i - 1], "=") || isop(&t[i - 1], "^=") || isop(&t[i - 1], "&=") || isop(&t[i - 1], "|=")
			|| isop(&t[i - 1], "+=") || isop(&t[i - 1], "-=") || isop(&t[i - 1], "*=")) && i + 1 == n
		    && symdata(t, i)) {
			char s[600];
			addext(t[i].s);
			snprintf(s, sizeof s, "mem%d [ %s ]", symdata(t, i), t[i].s);
			r->kind = IMEM;
			r->s = fstrndup(s, strlen(s));
			m++;
			i++;
			continue;
		}
		m++;
		i++;
	}
	*np = m;
	return o;
}

/* ---------- rewriting rules (djbrules.c) ---------- */
typedef struct Rule { Item *pat; int npat; Item *tmpl; int ntmpl; } Rule;
extern const char *const djbrules[];
static Rule *rules;
static int nrules;

static int isph(const Item *k) { return k->kind == KID && strlen(k->s) == 1 && islower((unsigned char)k->s[0]); }

static void loadrules(void)
{
	if (rules)
		return;
	for (nrules = 0; djbrules[nrules]; nrules++)
		;
	rules = xcalloc(nrules, sizeof *rules);
	for (int r = 0; r < nrules; r++) {
		int n;
		Item *t = dlex(djbrules[r], 0, &n);
		int arrow = -1;
		for (int i = 0; i + 1 < n; i++)
			if (isop(&t[i], "=") && isop(&t[i + 1], ">"))
				arrow = i;
		if (arrow < 0)
			die("djb rule %d has no '=>': %s", r, djbrules[r]);
		rules[r].pat = xmalloc((n + 1) * sizeof(Item));
		memcpy(rules[r].pat, t, n * sizeof(Item));
		rules[r].npat = arrow;
		rules[r].tmpl = rules[r].pat + arrow + 2;
		rules[r].ntmpl = n - arrow - 2;
	}
}

/* does item x satisfy placeholder class c (0: any operand)? */
static int fitsclass(const Item *x, int c)
{
	int v = x->kind == KID ? dvfind(x->s) : -1;
	switch (c) {
	case 0: return x->kind == KID || x->kind == KNUM || x->kind == IMEM;
	case 'n': return x->kind == KNUM;
	case 'm': return x->kind == IMEM;
	case 'l': return x->kind == KLANE;
	case 'i': return v >= 0 && (dv[v].type == TINT64 || dv[v].type == TINT32);
	case 'v': return v >= 0 && typefile(dv[v].type) == FVEC;
	case 'y': return v >= 0 && dv[v].type == TREG256;
	case 's': return v >= 0 && dv[v].stack;
	case 'g': return v >= 0 && dv[v].ghost;
	case 'r': return v >= 0;
	}
	return 0;
}

static const Item *bound[26];

static int match(const Rule *r, const Item *t, int n)
{
	int j = 0;
	memset(bound, 0, sizeof bound);
	for (int i = 0; i < r->npat; i++, j++) {
		const Item *p = &r->pat[i];
		if (j >= n)
			return 0;
		if (isph(p)) {
			int c = 0;
			if (i + 2 < r->npat && isop(&r->pat[i + 1], ":")) {
				c = r->pat[i + 2].s[0];
				i += 2;
			}
			if (!fitsclass(&t[j], c))
				return 0;
			int k = p->s[0] - 'a';
			if (bound[k] && strcmp(bound[k]->s, t[j].s))
				return 0;
			bound[k] = &t[j];
			continue;
		}
		if (t[j].kind == IMEM || strcmp(p->s, t[j].s))
			return 0;
	}
	return j == n;
}

/* {expr} in a template: + - * << >> & | and parentheses over numbers and
 * bound placeholders */
static const Item *ep, *eend;

static i64 eatom(void);
static i64 ebin(int prec)
{
	static const char *ops[] = {"|", "&", "<<", ">>", "+", "-", "*", 0};
	static const int pr[] = {1, 2, 3, 3, 4, 4, 5};
	i64 a = eatom();
	for (;;) {
		int o = -1;
		for (int i = 0; ops[i] && ep < eend; i++)
			if (isop(ep, ops[i]) && pr[i] >= prec)
				o = i;
		if (o < 0)
			return a;
		ep++;
		i64 b = ebin(pr[o] + 1);
		switch (o) {
		case 0: a |= b; break;
		case 1: a &= b; break;
		case 2: a <<= b; break;
		case 3: a >>= b; break;
		case 4: a += b; break;
		case 5: a -= b; break;
		case 6: a *= b; break;
		}
	}
}

static i64 eatom(void)
{
	if (ep >= eend)
		die("djb rule: bad expression");
	const Item *k = ep++;
	if (isop(k, "(")) {
		i64 v = ebin(0);
		ep++;
		return v;
	}
	if (k->kind == KNUM)
		return (i64)k->v;
	if (isph(k) && bound[k->s[0] - 'a'] && bound[k->s[0] - 'a']->kind == KNUM)
		return (i64)bound[k->s[0] - 'a']->v;
	die("djb rule: '%s' is not a number in an expression", k->s);
}

/* expand rule r's template into our statements */
static void expand(const Rule *r, int line, int col)
{
	Buf b = {0};
	for (int i = 0; i < r->ntmpl; i++) {
		const Item *k = &r->tmpl[i];
		if (isop(k, ";")) {
			if (b.n)
				out(b.s, line, col);
			b.n = 0;
			continue;
		}
		if (isop(k, "{")) {
			int e = i + 1;
			while (e < r->ntmpl && !isop(&r->tmpl[e], "}"))
				e++;
			ep = &r->tmpl[i + 1];
			eend = &r->tmpl[e];
			char v[32];
			snprintf(v, sizeof v, "%lld", (long long)ebin(0));
			bput(&b, v);
			i = e;
			continue;
		}
		bput(&b, isph(k) && bound[k->s[0] - 'a'] ? bound[k->s[0] - 'a']->s : k->s);
	}
	if (b.n)
		out(b.s, line, col);
	free(b.s);
}

/* ---------- statements and functions ---------- */
enum { XSTMT, XENTER, XLEAVE, XLABEL, XASSIGN, XRETURNV };
typedef struct DStmt { int kind, line, col; Item *t; int n; char *name; } DStmt;
static DStmt *ds;
static int nds, capds;

static void addds(int kind, int line, int col, Item *t, int n, char *name)
{
	GROW(ds, nds, capds);
	Item *c = NULL;
	if (n) {
		c = falloc(n * sizeof *c);
		memcpy(c, t, n * sizeof *c);
	}
	ds[nds++] = (DStmt){kind, line, col, c, n, name};
}

static int typebydjb(const Item *k, int *count)
{
	static const char *n[] = {"int64", "int32", "int6464", "reg128", "reg256", "reg512", "stack32", "stack64",
		"stack128", "stack256", "stack512", 0};
	static const int ty[] = {TINT64, TINT32, TREG128, TREG128, TREG256, TREG512, TSTACK32, TSTACK64,
		TSTACK128, TSTACK256, TSTACK512};
	*count = 1;
	for (int i = 0; n[i]; i++)
		if (!strcmp(k->s, n[i]))
			return ty[i];
	if (!strncmp(k->s, "stack", 5) && isdigit((unsigned char)k->s[5])) {
		long bits = strtol(k->s + 5, NULL, 10);
		if (bits > 512 && bits % 64 == 0 && bits <= (1 << 23)) {
			*count = (int)(bits / 64);
			return TSTACK64;
		}
	}
	return TNONE;
}

static int isdjbtype(const char *s)
{
	static const char *n[] = {"float80", "float64", "int3232", "int8080", "stackaligned4096", 0};
	for (int i = 0; n[i]; i++)
		if (!strcmp(s, n[i]))
			return 1;
	return 0;
}

static char **gin;    /* inputs declared before the first enter */
static int ngin, capgin;

static void declare(const Item *t, int n)
{
	int count, type0 = typebydjb(&t[0], &count);
	char b[600];
	for (int i = 1; i < n; i++) {
		int type = type0;
		/* djb's stack64 input_6, input_7: the arguments on the stack; ours
		 * are variables the entry code loads from there */
		if (type == TSTACK64 && (!strcmp(t[i].s, "input_6") || !strcmp(t[i].s, "input_7")))
			type = TINT64;
		if (t[i].kind != KID)
			err(at(&t[i]), "expected a variable name, found '%s'", t[i].s);
		if (dvfind(t[i].s) >= 0)
			err(at(&t[i]), "'%s' is already declared", t[i].s);
		dvadd(t[i].s, type);
		if (count > 1)
			snprintf(b, sizeof b, "%s %s [ %d ]", typename(type), t[i].s, count);
		else
			snprintf(b, sizeof b, "%s %s", typename(type), t[i].s);
		out(b, curline, t[i].col);
	}
}

/* read the file into ds[], declarations straight to the output */
static void readstmts(char **lines, int nlines)
{
	for (int ln = 0; ln < nlines; ln++) {
		int n;
		curline = ln + 1;
		Item *t = dlex(lines[ln], curline, &n);
		if (!n)
			continue;
		int count;
		const char *w = t[0].kind == KID ? t[0].s : "";
		if (t[0].kind == KID && typebydjb(&t[0], &count)) {
			declare(t, n);
		} else if (!strcmp(w, "cpu")) {
			out(lines[ln], curline, t[0].col); /* ours, passed through */
		} else if (isdjbtype(w)) {
			err(at(&t[0]), "type %s is not supported (%s)", w,
			    !strncmp(w, "float", 5) ? "floating point" : !strcmp(w, "int3232") ? "MMX" : "4096-byte alignment");
		} else if (!strcmp(w, "input") || !strcmp(w, "caller")) {
			for (int i = 1; i < n; i++) {
				int v = dvfind(t[i].s);
				if (v < 0)
					err(at(&t[i]), "undeclared variable '%s'", t[i].s);
				if (w[0] == 'c')
					dv[v].ghost = 1;
				else if (!nds) {
					GROW(gin, ngin, capgin);
					gin[ngin++] = t[i].s;
				}
			}
			if (w[0] == 'i' && nds)
				addds(XSTMT, curline, t[0].col, t, n, "input");
		} else if (!strcmp(w, "enter")) {
			char *nm;
			/* `enter f stackaligned4096 SYM`: djb places the frame at SYM's
			 * offset modulo 4096 (cache banks); it changes no result, and
			 * our frame keeps the ABI's alignment */
			if (n == 4 && !strncmp(t[2].s, "stackaligned", 12))
				n = 2;
			if (n < 2 || !nsname(t, n, 1, &nm)) {
				if (n != 2 || t[1].kind != KID)
					err(at(&t[0]), "expected 'enter NAME'");
				nm = t[1].s;
			}
			addds(XENTER, curline, t[0].col, NULL, 0, nm);
		} else if (!strcmp(w, "leave") || (!strcmp(w, "return") && n == 1)) {
			addds(XLEAVE, curline, t[0].col, NULL, 0, NULL);
		} else if (!strcmp(w, "return") && n == 2 && t[1].kind == KID) {
			addds(XRETURNV, curline, t[0].col, NULL, 0, t[1].s);
		} else if (!strcmp(w, "assign") && n == 5 && !strcmp(t[1].s, "outputreg") && t[2].kind == KNUM
			   && !strcmp(t[3].s, "to")) {
			if (t[2].v != 0)
				err(at(&t[2]), "only output register 0 (the return value) can be assigned");
			addds(XASSIGN, curline, t[0].col, NULL, 0, t[4].s);
		} else if (n == 1 && !strncmp(w, "nop", 3) && (!w[3] || isdigit((unsigned char)w[3]))) {
			/* djb's alignment no-ops: our emitter aligns loops itself */
		} else if (n == 2 && t[0].kind == KID && isop(&t[1], ":")) {
			addds(XLABEL, curline, t[0].col, t, n, NULL);
		} else {
			if (!nds)
				err(at(&t[0]), "statement outside a function (missing 'enter'?)");
			addds(XSTMT, curline, t[0].col, t, n, NULL);
		}
	}
}

/* A `caller` variable holds a callee-saved register's value at entry;
 * djb code saves it to a stack variable and restores it before leaving,
 * which our frame does by itself, so those two statements are dropped
 * (djbrules.c).  Any other use would need the entry value as data: that
 * is refused rather than translated to a read of garbage. */
static int issave(const DStmt *s)
{
	if (s->kind != XSTMT || s->n != 3 || !isop(&s->t[1], "="))
		return 0;
	int a = dvfind(s->t[0].s), b = dvfind(s->t[2].s);
	return a >= 0 && b >= 0 && ((dv[a].stack && dv[b].ghost) || (dv[a].ghost && dv[b].stack));
}

static void checkcallers(void)
{
	for (int i = 0; i < nds; i++) {
		if (ds[i].kind != XSTMT || ds[i].name || issave(&ds[i]))
			continue;
		for (int k = 0; k < ds[i].n; k++) {
			int v = ds[i].t[k].kind == KID ? dvfind(ds[i].t[k].s) : -1;
			if (v >= 0 && dv[v].ghost)
				err((Pos){ds[i].line, ds[i].t[k].col},
				    "'%s' is a caller (callee-saved) register: only saving and restoring it is supported (our frame saves the registers it uses)",
				    ds[i].t[k].s);
		}
	}
}

/* one djb statement into ours */
static void stmt(const DStmt *s)
{
	int n;
	curline = s->line;
	Item *t = norm(s->t, s->n, &n);
	for (int r = 0; r < nrules; r++)
		if (match(&rules[r], t, n)) {
			expand(&rules[r], s->line, s->col);
			return;
		}
	Buf b = {0};
	for (int i = 0; i < n; i++)
		bput(&b, t[i].s);
	out(b.s, s->line, s->col);
	free(b.s);
}

static int maxinput(int from, int to)
{
	int mx = -1;
	for (int i = from; i < to; i++)
		for (int k = 0; k < ds[i].n; k++) {
			const char *s = ds[i].t[k].s;
			if (ds[i].t[k].kind == KID && !strncmp(s, "input_", 6) && isdigit((unsigned char)s[6]) && !s[7]) {
				if (s[6] - '0' > mx)
					mx = s[6] - '0';
			}
		}
	return mx;
}

/* the group of entry points starting at ds[g]: up to the first enter that
 * follows a leave */
static int groupend(int g)
{
	int last = XENTER;
	for (int i = g; i < nds; i++) {
		if (ds[i].kind == XENTER && last == XLEAVE)
			return i;
		if (ds[i].kind != XLABEL)
			last = ds[i].kind;
	}
	return nds;
}

static void function(int e, int end, int dialect)
{
	char b[4096];
	const DStmt *en = &ds[e];
	snprintf(b, sizeof b, "enter %s", en->name);
	out(b, en->line, en->col);
	/* inputs: declared ones, then implicit input_N */
	Buf in = {0};
	bput(&in, "input");
	for (int i = 0; i < ngin; i++)
		bput(&in, gin[i]);
	int g0 = e;
	while (g0 > 0 && ds[g0 - 1].kind != XLEAVE)
		g0--;
	for (int i = g0; i < end; i++)
		if (ds[i].kind == XSTMT && ds[i].name && !strcmp(ds[i].name, "input"))
			for (int k = 1; k < ds[i].n; k++)
				bput(&in, ds[i].t[k].s);
	int mx = maxinput(g0, end);
	for (int i = 0; i <= mx; i++) {
		snprintf(b, sizeof b, "input_%d", i);
		bput(&in, b);
	}
	if (in.n > 5)
		out(in.s, en->line, en->col);
	free(in.s);
	const char *ret = NULL;
	for (int i = g0; i < end; i++)
		if (ds[i].kind == XASSIGN || ds[i].kind == XRETURNV) {
			if (ret && strcmp(ret, ds[i].name))
				err((Pos){ds[i].line, ds[i].col}, "a function returns one variable ('%s' before)", ret);
			ret = ds[i].name;
		}
	if (!ret && dialect == DQHASM2007)
		ret = "qhasm.zero";
	if (ret) {
		snprintf(b, sizeof b, "output %s", ret);
		out(b, en->line, en->col);
	}
	int last = end - 1;
	while (last > e && ds[last].kind == XLABEL)
		last--;
	for (int i = e + 1; i < end; i++) {
		const DStmt *s = &ds[i];
		switch (s->kind) {
		case XENTER:
		case XASSIGN:
			break;
		case XLABEL:
			snprintf(b, sizeof b, "%s :", s->t[0].s);
			out(b, s->line, s->col);
			break;
		case XLEAVE:
		case XRETURNV:
			if (ret && !strcmp(ret, "qhasm.zero"))
				out("qhasm.zero = 0", s->line, s->col);
			out(i == last ? "leave" : "return", s->line, s->col);
			break;
		default:
			if (!s->name)
				stmt(s);
		}
	}
	const DStmt *l = &ds[last];
	if (last > e && l->kind == XSTMT && l->n == 2 && !strcmp(l->t[0].s, "goto"))
		out("leave", l->line, l->col); /* not reached: ends our function after a jump back */
	else if (last <= e || (l->kind != XLEAVE && l->kind != XRETURNV))
		err((Pos){en->line, en->col}, "function '%s' has no 'leave' or 'return' at its end", en->name);
}

/* the words that tell the dialects apart: anywhere in a line (each has
 * a '_', so a line without one is not searched) or at its start */
enum { WINPUT0, WINPUT1, WINPUT2, WCALLERR11, WRETURN, WLEAVE, WINT6464, WCALLER, WUINT32x4, NWORD };
static const struct { const char *w; size_t len; int atstart; } words[NWORD] = {
	{"input_0", 7, 0}, {"input_1", 7, 0}, {"input_2", 7, 0}, {"caller_r11", 10, 0},
	{"return", 6, 1}, {"leave", 5, 1}, {"int6464", 7, 1}, {"caller", 6, 1}, {"uint32323232", 12, 1}};

static int wordend(const char *q, size_t l) { return !isalnum((unsigned char)q[l]) && q[l] != '_'; }

/* memmem() within [p, e) */
static const char *findin(const char *p, const char *e, const char *w, size_t l)
{
	for (; (size_t)(e - p) >= l; p++) {
		p = memchr(p, w[0], (size_t)(e - p) - l + 1);
		if (!p)
			return NULL;
		if (!memcmp(p, w, l))
			return p;
	}
	return NULL;
}

/* which of words[] occur as words in the lines of text (up to its first
 * NUL), in one pass over the text as it is (a long block has millions of
 * lines: no copy split into lines; most lines start with none of the
 * words' first letters and have no '_') */
static unsigned findwords(const char *text, const char *end)
{
	unsigned found = 0;
	char atfirst[256] = {0}; /* the first letters of the words at a line's start */
	for (int w = 0; w < NWORD; w++)
		if (words[w].atstart)
			atfirst[(unsigned char)words[w].w[0]] = 1;
	for (const char *line = text; line < end;) {
		const char *e = memchr(line, '\n', (size_t)(end - line));
		if (!e)
			e = end;
		const char *p = line;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		int under = memchr(p, '_', (size_t)(e - p)) != NULL;
		if (!under && !atfirst[(unsigned char)*p])
			goto next;
		for (int w = 0; w < NWORD; w++) {
			size_t l = words[w].len;
			if (found >> w & 1)
				continue;
			if (words[w].atstart) {
				if (p[0] == words[w].w[0] && (size_t)(e - p) >= l && !memcmp(p, words[w].w, l)
				    && (p + l == e || wordend(p, l)))
					found |= 1u << w;
				continue;
			}
			if (!under)
				continue;
			for (const char *q = p; (q = findin(q, e, words[w].w, l)); q++)
				if ((q == line || !isalnum((unsigned char)q[-1])) && (q + l == e || wordend(q, l))) {
					found |= 1u << w;
					break;
				}
		}
	next:
		line = e + 1;
	}
	return found;
}

static char **readlines(const char *path, int *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "qhasm: cannot open %s\n", path);
		exit(1);
	}
	size_t cap = 1 << 16, len = 0;
	char *s = xmalloc(cap);
	for (size_t k; (k = fread(s + len, 1, cap - len, f)) > 0;)
		if ((len += k) == cap)
			s = xrealloc(s, cap *= 2);
	fclose(f);
	s[len] = 0;
	char **l = NULL;
	int nl = 0, lc = 0;
	for (char *p = s; *p;) {
		char *e = strchr(p, '\n');
		if (e)
			*e = 0;
		GROW(l, nl, lc);
		l[nl++] = p;
		if (!e)
			break;
		p = e + 1;
	}
	*n = nl;
	return l;
}

/* Which language is the file in?  djb's old dialect has int6464, caller,
 * inputs before enter and *(uint64 *) memory; the later one input_0 ..,
 * return, and no leave.  The file's text is returned in *text (*len
 * bytes, NUL-terminated, unchanged): the caller parses it without
 * reading it again. */
int djbdetect(const char *path, char **text, size_t *len)
{
	*text = readfile(path, len);
	const char *s = *text, *end = s + strlen(s);
	int r = DQ;
	unsigned f = findwords(s, end);
#define HAS(w) (f >> (w) & 1)
	int newer = HAS(WINPUT0) || HAS(WINPUT1) || HAS(WINPUT2) || HAS(WCALLERR11) || (HAS(WRETURN) && !HAS(WLEAVE));
	int older = HAS(WINT6464) || HAS(WCALLER) || HAS(WUINT32x4);
#undef HAS
	for (const char *line = s; line < end && !older;) {
		const char *e = memchr(line, '\n', (size_t)(end - line));
		if (!e)
			e = end;
		const char *p = line;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (findin(line, e, "*(uint", 6) || findin(line, e, "*(int", 5) || findin(line, e, "*(unaligned", 11))
			older = 1;
		if ((size_t)(e - p) >= 5 && !memcmp(p, "enter", 5))
			break;
		if ((size_t)(e - p) >= 6 && !memcmp(p, "input", 5) && (p[5] == ' ' || p[5] == '\t'))
			older = 1; /* inputs declared before enter */
		line = e + 1;
	}
	if (newer)
		r = DQHASM;
	else if (older)
		r = DQHASM2007;
	return r;
}

static void implicit(const char *name, int type)
{
	if (dvfind(name) >= 0)
		return;
	char b[64];
	dvadd(fstrndup(name, strlen(name)), type);
	snprintf(b, sizeof b, "%s %s", typename(type), name);
	out(b, 1, 1);
}

void djbparse(const char *path, int dialect, const Target *t)
{
	int n;
	char **l = readlines(path, &n);
	infile = path;
	srcline = l;
	nsrcline = n;
	loadrules();
	undefok = 1;
	ndv = nds = nout = next = ngin = 0;
	dvcap = 0;
	readstmts(l, n);
	if (dialect == DQHASM) {
		static const char *callers[] = {"caller_r11", "caller_r12", "caller_r13", "caller_r14", "caller_r15",
			"caller_rbx", "caller_rbp", 0};
		for (int i = 0; i < 8; i++) {
			char b[32];
			snprintf(b, sizeof b, "input_%d", i);
			implicit(b, TINT64);
		}
		for (int i = 0; callers[i]; i++) {
			implicit(callers[i], TINT64);
			dv[dvfind(callers[i])].ghost = 1;
		}
	}
	for (int i = 0; i < nds; i++)
		if (ds[i].kind == XSTMT && ds[i].name)
			for (int k = 1; k < ds[i].n; k++) {
				int v = dvfind(ds[i].t[k].s);
				if (v < 0)
					err((Pos){ds[i].line, ds[i].t[k].col}, "undeclared variable '%s'", ds[i].t[k].s);
			}
	checkcallers();
	if (dialect == DQHASM2007)
		implicit("qhasm.zero", TINT64);
	int decls = nout;
	/* statements first, so that their external symbols are known */
	for (int g = 0; g < nds;) {
		if (ds[g].kind != XENTER)
			err((Pos){ds[g].line, ds[g].col}, "statement outside a function (missing 'enter'?)");
		int end = groupend(g);
		for (int e = g; e < end; e++)
			if (ds[e].kind == XENTER)
				function(e, end, dialect);
		g = end;
	}
	/* extern declarations go before the functions */
	Buf b = {0};
	for (int i = 0; i < next; i++)
		if (dvfind(ext[i]) < 0) {
			if (!b.n)
				bput(&b, "extern");
			bput(&b, ext[i]);
		}
	if (b.n) {
		out(b.s, 1, 1);
		char *s = otext[nout - 1];
		memmove(otext + decls + 1, otext + decls, (nout - 1 - decls) * sizeof *otext);
		memmove(oline + decls + 1, oline + decls, (nout - 1 - decls) * sizeof *oline);
		memmove(ocol + decls + 1, ocol + decls, (nout - 1 - decls) * sizeof *ocol);
		otext[decls] = s;
		oline[decls] = 1;
		ocol[decls] = 1;
	}
	free(b.s);
	parselines(otext, oline, ocol, nout, t);
}
