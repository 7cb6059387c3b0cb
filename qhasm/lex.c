/* lex.c: splits one source line into tokens.  Shared by the .q parser and
 * the machine-description loader, so that a pattern and a statement are
 * tokenised identically and can be compared token by token. */
#include <ctype.h>
#include "all.h"

/* longest first */
static const char *ops[] = {
	"<<<=", ">>>=", "<<=", ">>=", "<<<", ">>>", "+=", "-=", "*=", "&=",
	"|=", "^=", "<=", ">=", "==", "!=", "<<", ">>", "=", "+", "-", "*",
	"&", "|", "^", "~", "(", ")", "[", "]", ",", ":", "?", "!", "<", ">",
	"{", "}", "@", 0
};

/* character classes by table (the ctype calls, per character of
 * millions of lines, cost more than the rest of the scan) */
enum { CID0 = 1, CID = 2 };
static unsigned char cclass[256];
static void classinit(void)
{
	for (int c = 0; c < 256; c++)
		cclass[c] = (unsigned char)((isalpha(c) || c == '_' || c == '.' ? CID0 : 0)
			| (isalnum(c) || c == '_' || c == '.' ? CID : 0));
}
static inline int isid0(int c) { return cclass[c & 255] & CID0; }
static inline int isid(int c) { return cclass[c & 255] & CID; }

/* Grammar: token = ident | number | lane | op; `#` starts a comment.
 *   ident  = [A-Za-z_.][A-Za-z0-9_.]*
 *   number = [0-9]+ | 0x[0-9a-fA-F]+
 *   lane   = [0-9]+ 'x'   (a lane count such as 4x, 16x) */
static Tok *t;      /* reused: nothing leaks when err() leaves */
static int cap;

/* the operators by their first character, longest first (indexes into ops[]) */
static signed char opfirst[128][8];
static unsigned char oplen[64];

static void opinit(void)
{
	memset(opfirst, -1, sizeof opfirst);
	for (int i = 0; ops[i]; i++) {
		oplen[i] = (unsigned char)strlen(ops[i]);
		signed char *l = opfirst[(unsigned char)ops[i][0]];
		int k = 0;
		while (l[k] >= 0)
			k++;
		l[k] = (signed char)i;
	}
}

/* the tokens in a scratch array, valid until the next call: *ntok of
 * them, then a KEND */
Tok *lexline(const char *s, int lineno, int *ntok)
{
	if (!oplen[0])
		opinit();
	if (!cclass['a'])
		classinit();
	int n = 0;
	const char *p = s;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		GROW(t, n, cap);
		Tok *k = &t[n];
		memset(k, 0, sizeof *k);
		k->pos = (Pos){lineno, (int)(p - s) + 1};
		if (!*p || *p == '#' || *p == '\n') {
			k->kind = KEND;
			k->s = "end of line";
			break;
		}
		const char *q = p;
		if (isid0((unsigned char)*p)) {
			while (isid((unsigned char)*q))
				q++;
			k->kind = KID;
		} else if (isdigit((unsigned char)*p)) {
			u64 v = 0;
			int big = 0;
			if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
				for (q = p + 2; isxdigit((unsigned char)*q); q++) {
					int d = isdigit((unsigned char)*q) ? *q - '0' : (tolower((unsigned char)*q) - 'a' + 10);
					if (v >> 60)
						big = 1;
					v = v * 16 + d;
				}
				k->kind = KNUM;
			} else {
				for (; isdigit((unsigned char)*q); q++) {
					u64 d = *q - '0';
					if (v > (~0ull - d) / 10)
						big = 1;
					v = v * 10 + d;
				}
				k->kind = KNUM;
				if (*q == 'x' && !isid((unsigned char)q[1])) {
					k->kind = KLANE;
					q++;
				}
			}
			if (isid((unsigned char)*q))
				err(k->pos, "malformed number");
			if (big)
				err(k->pos, "constant does not fit in 64 bits");
			k->v = v;
		} else {
			int i = -1;
			if ((unsigned char)*p < 128)
				for (const signed char *l = opfirst[(unsigned char)*p]; *l >= 0; l++)
					if (!strncmp(p, ops[*l], oplen[*l])) {
						i = *l;
						break;
					}
			if (i < 0) {
				if ((unsigned char)*p < 32 || (unsigned char)*p >= 127)
					err(k->pos, "unexpected character (code %d)", (unsigned char)*p);
				err(k->pos, "unexpected character '%c'", *p);
			}
			q = p + oplen[i];
			k->kind = KOP;
		}
		k->s = fintern(p, q - p);
		n++;
		p = q;
	}
	*ntok = n;
	return t;
}

/* the tokens of a line in a new array, the caller's to free */
Tok *lex(const char *s, int lineno, int *ntok)
{
	Tok *k = lexline(s, lineno, ntok);
	Tok *r = xmalloc((*ntok + 1) * sizeof *r);
	memcpy(r, k, (*ntok + 1) * sizeof *r);
	return r;
}

/* A statement's tokens packed: the n + 1 texts (the last the KEND's), then
 * their columns; a token's kind and value follow from its text and the
 * line is the statement's.  12 bytes a token instead of 32: a long block
 * holds millions of tokens from parsing until check.c reads them. */
size_t tokpacksize(int n)
{
	return (size_t)(n + 1) * (sizeof(char *) + sizeof(int));
}

void tokpack(void *dst, const Tok *t, int n)
{
	const char **s = dst;
	int *col = (int *)(s + n + 1);
	for (int i = 0; i <= n; i++) {
		s[i] = t[i].s;
		col[i] = t[i].pos.col;
	}
}

/* the kind and value of a token of text s (lexline() accepted it) */
static void tokkind(Tok *k)
{
	const char *p = k->s;
	if (isid0((unsigned char)*p)) {
		k->kind = KID;
		return;
	}
	if (!isdigit((unsigned char)*p)) {
		k->kind = KOP;
		return;
	}
	u64 v = 0;
	k->kind = KNUM;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		for (p += 2; *p; p++)
			v = v * 16 + (isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10);
	} else {
		for (; isdigit((unsigned char)*p); p++)
			v = v * 10 + (u64)(*p - '0');
		if (*p == 'x')
			k->kind = KLANE;
	}
	k->v = v;
}

Tok *tokunpack(const void *src, int n, int line)
{
	static Tok *u;  /* reused: nothing leaks when err() leaves */
	static int ucap;
	if (ucap < n + 1) {
		ucap = 2 * (n + 1);
		u = xrealloc(u, ucap * sizeof *u);
	}
	const char *const *s = src;
	const int *col = (const int *)(s + n + 1);
	if (!cclass['a'])
		classinit();
	for (int i = 0; i <= n; i++) {
		u[i] = (Tok){.s = (char *)s[i], .pos = {line, col[i]}};
		if (i < n)
			tokkind(&u[i]);
		else
			u[i].kind = KEND;
	}
	return u;
}
