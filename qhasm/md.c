/* md.c: loads a target's machine description: one line per instruction
 * form (see docs/machine-description.md),
 *     pattern | operands | attributes | extensions | template
 * and indexes the forms by the shape of their pattern (the canonical token
 * string with each operand replaced by `$`), so that selection is a hash
 * lookup followed by operand-class checks.  Provides md[], mdlookup(),
 * canon(). */
#include "all.h"

MdLine *md;
int nmd;
unsigned mdepoch;

static size_t nhashw(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int isword(const char *s);
static void buildwords(void);

typedef struct Bucket { char *shape; const MdLine **line; int n, cap; struct Bucket *next; } Bucket;
enum { NBUCKET = 4096 };
static Bucket *tab[NBUCKET];

static Bucket *bucket(const char *shape, int create)
{
	unsigned h = strhash(shape) % NBUCKET;
	for (Bucket *b = tab[h]; b; b = b->next)
		if (!strcmp(b->shape, shape))
			return b;
	if (!create)
		return NULL;
	Bucket *b = xcalloc(1, sizeof *b);
	b->shape = xstrdup(shape);
	b->next = tab[h];
	tab[h] = b;
	return b;
}

const MdLine **mdlookup(const char *shape, int *n)
{
	Bucket *b = bucket(shape, 0);
	*n = b ? b->n : 0;
	return b ? b->line : NULL;
}

static int isassignop(const char *s)
{
	static const char *a[] = {"+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "<<<=", ">>>=", 0};
	if (!s[0] || !s[1])
		return 0;
	size_t n = strlen(s);
	if (s[n - 1] != '=' || n > 4)
		return 0;
	for (int i = 0; a[i]; i++)
		if (a[i][0] == s[0] && !strcmp(s, a[i]))
			return 1;
	return 0;
}

/* Rewrite `D op= X` as `D = D op X` so that in-place and three-operand
 * statements share one form.  D is the operand just before the operator:
 * one token, or a bracketed memory reference `memN[...]`. */
void canon(Tok *t, int n, Tok **out, int *nout)
{
	int k;
	for (k = 0; k < n; k++)
		if (t[k].kind == KOP && isassignop(t[k].s))
			break;
	if (k == n || k == 0) {
		*out = t;
		*nout = n;
		return;
	}
	int d = k - 1;
	if (t[d].kind == KOP && !strcmp(t[d].s, "]")) {
		while (d > 0 && strcmp(t[d].s, "["))
			d--;
		if (d > 0)
			d--;
	}
	int lhs = k - d;
	/* a scratch buffer: every caller is done with the result before the
	 * next call */
	static Tok *o;
	static int ocap;
	if (ocap < n + lhs + 1) {
		ocap = 2 * (n + lhs + 1);
		o = xrealloc(o, ocap * sizeof *o);
	}
	int m = 0;
	for (int i = 0; i < k; i++)
		o[m++] = t[i];
	o[m] = t[k];
	o[m++].s = "=";
	for (int i = d; i < k; i++)
		o[m++] = t[i];
	o[m] = t[k];
	o[m++].s = fintern(t[k].s, strlen(t[k].s) - 1);
	for (int i = k + 1; i < n; i++)
		o[m++] = t[i];
	*out = o;
	*nout = m;
}

static void mderr(int lineno, const char *fmt, const char *a)
{
	fprintf(stderr, "qhasm: machine description line %d: ", lineno);
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	die("bad machine description");
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = 0;
	return s;
}

int findreg(const Target *t, const char *name, int *file)
{
	for (int f = 0; f < MAXFILE; f++)
		for (int r = 0; r < t->nreg[f]; r++)
			for (int v = 8; v <= 512; v *= 2) {
				const char *n = t->regview(f, r, v);
				if (n && !strcmp(n, name)) {
					*file = f;
					return r;
				}
			}
	return NOREG;
}

/* ext = 'base' | name {'+' name}; a name written !name excludes */
static u64 parseext(const Target *t, char *s, int lineno, u64 *no)
{
	u64 e = 0;
	*no = 0;
	if (!strcmp(s, "base"))
		return 0;
	for (char *p = strtok(s, "+"); p; p = strtok(NULL, "+")) {
		int i, neg = *p == '!';
		p += neg;
		for (i = 0; t->extname[i]; i++)
			if (!strcmp(t->extname[i], p))
				break;
		if (!t->extname[i])
			mderr(lineno, "unknown extension '%s'", p);
		if (neg)
			*no |= 1ull << i;
		else
			e |= 1ull << i;
	}
	return e;
}

/* may a function with extensions ext use form m? */
int mdok(const MdLine *m, u64 ext)
{
	return !(m->ext & ~ext) && !(m->noext & ext);
}

/* The form of m's statement with operand k in memory (a stack slot of
 * bits bits): same shape, flags and attributes, the other operands alike,
 * operand k of a memory class read (`add r, [slot]`) or, where m reads and
 * writes it in place, read and written (`sub qword [slot], 1`).  NULL if
 * there is none; *k2 is the memory operand's index in it.  A copy (the
 * spill code itself), an operand used twice other than in place, or a
 * form needing a scratch register is never folded.  The passes ask this
 * rather than knowing any target's instructions. */
const MdLine *mdmemform(const Target *t, u64 ext, const MdLine *m, int k, int bits, int *k2)
{
	int acc = m->op[k].acc;
	if ((acc != AR && acc != ARW) || m->op[k].pos < 0 || (m->attr & AMOV))
		return NULL;
	for (int j = 0; j < m->nslot; j++)
		if (j != m->op[k].pos && m->slotop[j] == k && acc != ARW)
			return NULL; /* used twice, not in place */
	int n;
	const MdLine **c = mdlookup(m->shape, &n);
	for (int i = 0; i < n; i++) {
		const MdLine *m2 = c[i];
		if (m2 == m || !mdok(m2, ext) || m2->nslot != m->nslot || m2->nop != m->nop || m2->def != m->def
		    || m2->use != m->use || m2->attr != m->attr)
			continue;
		int ok = 1, mk = m2->slotop[m->op[k].pos];
		for (int j = 0; j < m->nslot && ok; j++) {
			const MdOp *a = &m->op[m->slotop[j]], *b = &m2->op[m2->slotop[j]];
			const Class *cb = &t->cls[b->cls];
			if ((a->pos == j) != (b->pos == j) || a->exact != b->exact || a->val != b->val)
				ok = 0;
			else if (m->slotop[j] == k)
				ok = m2->slotop[j] == mk && (j != m->op[k].pos
				     || (cb->kind == CMEM && (cb->view == bits || (acc == AR && cb->view < bits && !t->bigendian))
					 && !cb->endian && b->acc == acc && (cb->mode == MANY || cb->mode == MDISP || cb->mode == MDISP4)));
			else
				ok = a->cls == b->cls && a->acc == b->acc && a->fixed == b->fixed;
		}
		for (int j = 0; j < m2->nop && ok; j++)
			if (m2->op[j].acc == ASCR)
				ok = 0;
		if (ok) {
			*k2 = mk;
			return m2;
		}
	}
	return NULL;
}

static void parseops(const Target *t, MdLine *m, char *s)
{
	for (char *p = strtok(s, " \t"); p; p = strtok(NULL, " \t")) {
		if (m->nop == MAXOP)
			mderr(m->lineno, "too many operands%s", "");
		MdOp *o = &m->op[m->nop++];
		char *acc = strchr(p, ':'), *cls, *fix;
		if (!acc || acc != p + 1)
			mderr(m->lineno, "bad operand '%s'", p);
		o->name = p[0];
		cls = strchr(acc + 1, ':');
		if (!cls)
			mderr(m->lineno, "bad operand '%s'", p);
		*cls++ = 0;
		acc++;
		o->acc = !strcmp(acc, "r") ? AR : !strcmp(acc, "w") ? AW : !strcmp(acc, "rw") ? ARW
		       : !strcmp(acc, "s") ? ASCR : !strcmp(acc, "i") ? AIMM : 0;
		if (!o->acc)
			mderr(m->lineno, "bad access '%s'", acc);
		o->fixed = NOREG;
		if ((fix = strchr(cls, '@'))) {
			int f;
			*fix++ = 0;
			o->fixed = findreg(t, fix, &f);
			if (o->fixed == NOREG)
				mderr(m->lineno, "unknown register '%s'", fix);
		}
		o->cls = -1;
		for (int i = 0; i < t->ncls; i++)
			if (!strcmp(t->cls[i].name, cls))
				o->cls = i;
		if (o->cls < 0)
			mderr(m->lineno, "unknown operand class '%s'", cls);
		o->pos = -1;
		o->tie = -1;
	}
}

static void parseattr(MdLine *m, char *s)
{
	for (char *p = strtok(s, " \t"); p; p = strtok(NULL, " \t")) {
		unsigned *fl = !strncmp(p, "def=", 4) ? &m->def : !strncmp(p, "use=", 4) ? &m->use
			     : !strncmp(p, "clob=", 5) ? &m->clob : NULL;
		if (fl) {
			for (char *c = strchr(p, '=') + 1; *c; c++)
				*fl |= *c == 'C' ? FLC : *c == 'Z' ? FLZ : *c == 'O' ? FLO : (mderr(m->lineno, "bad flag in '%s'", p), 0);
		} else if (!strcmp(p, "mov"))
			m->attr |= AMOV;
		else if (!strcmp(p, "jump"))
			m->attr |= AJUMP;
		else if (!strcmp(p, "cjump"))
			m->attr |= ACJUMP;
		else if (!strcmp(p, "load"))
			m->attr |= ALOAD;
		else if (!strcmp(p, "store"))
			m->attr |= ASTORE;
		else if (!strcmp(p, "memory"))
			m->attr |= AMEM;
		else if (!strcmp(p, "ucmp"))
			m->attr |= ACMPU;
		else if (!strcmp(p, "scmp"))
			m->attr |= ACMPS;
		else if (!strcmp(p, "eqcmp"))
			m->attr |= ACMPEQ;
		else if (!strncmp(p, "unit=", 5))
			m->unit = xstrdup(p + 5);
		else if (strcmp(p, "-"))
			mderr(m->lineno, "unknown attribute '%s'", p);
	}
}

/* Build the shape of a pattern: placeholders become `$`; a placeholder
 * seen a second time is tied to its first occurrence. */
static int immclass;

static void parsepattern(MdLine *m)
{
	int n, nc;
	Tok *t0 = lex(m->pattern, m->lineno, &n), *t;
	canon(t0, n, &t, &nc);
	size_t len = 0;
	for (int i = 0; i < nc; i++)
		len += strlen(t[i].s) + 1;
	char *s = xmalloc(len + 1), *p = s;
	int firstpos[128];
	memset(firstpos, -1, sizeof firstpos);
	for (int i = 0; i < nc; i++) {
		int k = -1;
		if (t[i].kind == KID && strlen(t[i].s) == 1)
			for (int j = 0; j < m->nop; j++)
				if (m->op[j].name == t[i].s[0])
					k = j;
		if (t[i].kind == KNUM) {
			/* a literal number: an immediate operand that must equal it */
			if (m->nop == MAXOP)
				mderr(m->lineno, "too many operands%s", "");
			k = m->nop++;
			m->op[k] = (MdOp){0, AIMM, immclass, NOREG, m->nslot, -1, 1, (i64)t[i].v};
			if (p != s)
				*p++ = ' ';
			*p++ = '$';
			m->slotop[m->nslot++] = k;
			continue;
		}
		if (p != s)
			*p++ = ' ';
		if (k < 0) {
			strcpy(p, t[i].s);
			p += strlen(p);
			continue;
		}
		*p++ = '$';
		if (m->nslot == MAXOP)
			mderr(m->lineno, "too many operands in pattern%s", "");
		int c = (unsigned char)t[i].s[0];
		if (firstpos[c] < 0) {
			firstpos[c] = m->nslot;
			m->op[k].pos = m->nslot;
		} else
			m->op[k].tie = firstpos[c];
		m->slotop[m->nslot++] = k;
	}
	*p = 0;
	m->shape = s;
	free(t0);
}

void mdload(const Target *t)
{
	static const Target *loaded;
	if (loaded == t)
		return;
	for (int i = 0; i < NBUCKET; i++)
		while (tab[i]) {
			Bucket *b = tab[i]->next;
			free(tab[i]->line);
			free(tab[i]->shape);
			free(tab[i]);
			tab[i] = b;
		}
	nmd = 0;
	mdepoch++;
	loaded = t;
	immclass = -1;
	for (int i = 0; i < t->ncls; i++)
		if (t->cls[i].kind == CIMM && (immclass < 0 || (u64)t->cls[i].max - (u64)t->cls[i].min > (u64)t->cls[immclass].max - (u64)t->cls[immclass].min))
			immclass = i;
	char *text = xstrdup(t->md);
	int lineno = 0, cap = 0;
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		/* the pattern may contain '|' (or): split at the last four bars */
		char *f[5];
		int nf = 5;
		for (char *e = s + strlen(s); nf > 1 && e > s; e--)
			if (e[-1] == '|') {
				f[--nf] = e;
				e[-1] = 0;
			}
		f[0] = s;
		if (nf == 1)
			nf = 5;
		if (nf != 5)
			mderr(lineno, "expected 5 fields separated by '|'%s", "");
		GROW(md, nmd, cap);
		MdLine *m = &md[nmd];
		memset(m, 0, sizeof *m);
		m->lineno = lineno;
		m->pattern = xstrdup(trim(f[0]));
		parseops(t, m, trim(f[1]));
		parseattr(m, trim(f[2]));
		/* a clobbered group is written too, but cannot be kept */
		if (m->def & m->clob)
			mderr(lineno, "a flag group both set (def=) and clobbered (clob=)%s", "");
		m->def |= m->clob;
		m->ext = parseext(t, trim(f[3]), lineno, &m->noext);
		m->tmpl = xstrdup(trim(f[4]));
		m->multi = strchr(m->tmpl, ';') != NULL;
		parsepattern(m);
		for (int i = 0; i < m->nop; i++)
			if (m->op[i].pos < 0 && m->op[i].acc != ASCR)
				{ char nm[2] = {m->op[i].name, 0}; mderr(lineno, "operand %s not in the pattern", nm); }
		nmd++;
	}
	for (int i = 0; i < nmd; i++) {
		Bucket *b = bucket(md[i].shape, 1);
		GROW(b->line, b->n, b->cap);
		b->line[b->n++] = &md[i];
	}
	buildwords();
}

/* the words of the loaded forms' shapes (between spaces), a hash set:
 * isreserved() asks for declarations and unknown names */
static char **words;
static size_t nwordcap;

static void addword(const char *w, size_t n)
{
	size_t j = nhashw(w, n) & (nwordcap - 1);
	for (; words[j]; j = (j + 1) & (nwordcap - 1))
		if (!strncmp(words[j], w, n) && !words[j][n])
			return;
	words[j] = xstrndup(w, n);
}

static void buildwords(void)
{
	for (size_t j = 0; j < nwordcap; j++)
		free(words[j]);
	free(words);
	size_t total = 0;
	for (int i = 0; i < nmd; i++)
		total += strlen(md[i].shape) / 2 + 1;
	for (nwordcap = 64; nwordcap < 2 * total; nwordcap *= 2)
		;
	words = xcalloc(nwordcap, sizeof *words);
	for (int i = 0; i < nmd; i++)
		for (const char *p = md[i].shape; *p;) {
			size_t n = strcspn(p, " ");
			if (n)
				addword(p, n);
			p += n;
			while (*p == ' ')
				p++;
		}
}

static int isword(const char *s)
{
	size_t n = strlen(s);
	if (!nwordcap || !n || strchr(s, ' '))
		return 0;
	for (size_t j = nhashw(s, n) & (nwordcap - 1); words[j]; j = (j + 1) & (nwordcap - 1))
		if (!strcmp(words[j], s))
			return 1;
	return 0;
}

/* Words that appear literally in some pattern (plus the language's
 * keywords) cannot name variables. */
int isreserved(const char *s)
{
	static const char *kw[] = {"enter", "input", "output", "leave", "return", "extern", "goto", "if", "const",
		"cpu", "secret", "declassify", 0};
	for (int i = 0; kw[i]; i++)
		if (!strcmp(kw[i], s))
			return 1;
	if (!strncmp(s, "mem", 3) && s[3] >= '0' && s[3] <= '9')
		return 1;
	return isword(s);
}
