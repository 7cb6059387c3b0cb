/* latency.c: the latency of one selected instruction on a model, from
 * each input to each output, following the dataflow between the machine
 * instructions of a multi-instruction template instead of adding up its
 * parts.  The `unit=` list of a machine-description line names, for a
 * one-instruction template, the classes of its micro-operations
 * (`unit=load,alu` for `add r, [m]`); for a template of several
 * instructions one entry per instruction in template order, `+` joining
 * the micro-operations of one instruction (`unit=vmov,vshift,vshift,valu`
 * for the SSE2 rotate `movdqa t,r; pslld r,i; psrld t,32-i; por r,t`, whose
 * longest chain is vmov, vshift, valu).  The class `load` is a memory
 * read: only an input through a memory operand waits for it.  Needs: md.c,
 * model.c.  Provides: inslats() (per input and output), inslatmax(). */
#include "all.h"

/* the classes of one template instruction: entry `e` of the unit list */
typedef struct Part {
	int cls[8], n;
	int regpath, mempath; /* cycles from a register input / a memory input */
	int dest;             /* operand text index of the destination, -1: none */
	int destread;         /* the destination is also a source (two-operand x86) */
	int ops[8], nops;     /* md operand index per operand text (-1: none) */
	int mem[8];           /* operand text names a memory operand */
} Part;

static int isname(const MdLine *m, char c)
{
	for (int k = 0; k < m->nop; k++)
		if (m->op[k].name == c)
			return k;
	return -1;
}

/* the md operand named by the first placeholder {x} or {x:...} of s[0..n) */
static int placeholder(const MdLine *m, const char *s, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++)
		if (s[i] == '{' && (s[i + 2] == '}' || s[i + 2] == ':')) {
			int k = isname(m, s[i + 1]);
			if (k >= 0)
				return k;
		}
	return -1;
}

/* split one template instruction into its mnemonic and operand texts */
static void parsepart(const Target *t, const MdLine *m, const char *s, size_t n, Part *p)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	size_t mn = 0;
	while (mn < n && s[mn] != ' ' && s[mn] != '\t')
		mn++;
	char mnem[32];
	snprintf(mnem, sizeof mnem, "%.*s", (int)(mn < 31 ? mn : 31), s);
	p->nops = 0;
	for (size_t i = mn, start = mn, depth = 0; i <= n && p->nops < 8; i++) {
		if (i < n && (s[i] == '[' || s[i] == '('))
			depth++;
		if (i < n && (s[i] == ']' || s[i] == ')'))
			depth--;
		if (i == n || (s[i] == ',' && !depth)) {
			int k = placeholder(m, s + start, i - start);
			p->ops[p->nops] = k;
			p->mem[p->nops] = k >= 0 && t->cls[m->op[k].cls].kind == CMEM;
			p->nops++;
			start = i + 1;
		}
	}
	/* the written operand: the first (the last on SPARC); stores and
	 * compares write no register */
	int nodest = !strncmp(mnem, "st", 2) || !strncmp(mnem, "cmp", 3) || !strncmp(mnem, "test", 4);
	p->dest = nodest || !p->nops ? -1 : t->destlast ? p->nops - 1 : 0;
	if (p->dest >= 0 && p->mem[p->dest])
		p->dest = -1; /* a store: its memory output is not followed */
	/* two-operand x86 forms read their destination; copies do not */
	p->destread = !t->destlast && p->nops <= 2 && strncmp(mnem, "mov", 3) && strncmp(mnem, "vmov", 4)
		      && strncmp(mnem, "lea", 3) && strncmp(mnem, "li", 2) && strncmp(mnem, "lis", 3);
	if (!strncmp(mnem, "pinsr", 5))
		p->destread = 1; /* merges into the destination */
}

static void partlat(const Model *mo, Part *p)
{
	p->regpath = p->mempath = 0;
	for (int i = 0; i < p->n; i++) {
		int l = mo->cls[p->cls[i]].lat;
		p->mempath += l;
		if (strcmp(mo->cls[p->cls[i]].name, "load"))
			p->regpath += l;
	}
	if (!p->regpath)
		p->regpath = p->mempath;
}

/* Classes per template instruction; returns the number of instructions, or
 * 0 when the unit list does not give one entry per instruction (then the
 * template is treated as one instruction of all the classes). */
static int parts(const Model *mo, const Target *t, const MdLine *m, Part *pt, int max)
{
	int ninst = 0;
	for (const char *s = m->tmpl; *s; ninst++) {
		size_t n = strcspn(s, ";");
		if (ninst < max) {
			memset(&pt[ninst], 0, sizeof pt[ninst]);
			parsepart(t, m, s, n, &pt[ninst]);
		}
		s += n + (s[n] == ';');
	}
	const char *u = m->unit ? m->unit : "";
	int e = 0, onepart = ninst > max;
	for (const char *s = u; *s && !onepart; e++) {
		size_t n = strcspn(s, ",");
		if (e >= ninst)
			onepart = 1;
		s += n + (s[n] == ',');
	}
	if (e != ninst)
		onepart = 1;
	if (onepart) {
		Part all = pt[0];
		all.n = 0;
		for (const char *s = u; *s; s++) {
			size_t n = strcspn(s, ",+");
			char name[32];
			snprintf(name, sizeof name, "%.*s", (int)(n < 31 ? n : 31), s);
			if (strcmp(name, "-") && all.n < 8)
				all.cls[all.n++] = modelclass(mo, name);
			s += n;
			if (!*s)
				break;
		}
		partlat(mo, &all);
		pt[0] = all;
		return 0;
	}
	e = 0;
	for (const char *s = u; *s; e++) {
		size_t n = strcspn(s, ",");
		for (size_t i = 0; i < n;) {
			size_t k = strcspn(s + i, "+,");
			if (k > n - i)
				k = n - i;
			char name[32];
			snprintf(name, sizeof name, "%.*s", (int)(k < 31 ? k : 31), s + i);
			if (strcmp(name, "-") && pt[e].n < 8)
				pt[e].cls[pt[e].n++] = modelclass(mo, name);
			i += k + 1;
		}
		partlat(mo, &pt[e]);
		s += n + (s[n] == ',');
	}
	return ninst;
}

/* a copy the allocator made disappear, or a pseudo-instruction */
static int vanished(const Fn *fn, const Ins *x)
{
	if (!x->md->tmpl[0])
		return 1;
	if ((x->md->attr & AMOV) && x->op[0].kind == OTMP && x->op[1].kind == OTMP) {
		int a = fn->tmp[x->op[0].tmp].reg, b = fn->tmp[x->op[1].tmp].reg;
		return a != NOREG && a == b;
	}
	return 0;
}

static int isinput(const Ins *x, int k)
{
	return x->op[k].kind == OMEM || opreads(x, k);
}

static int isoutput(const Ins *x, int k)
{
	return x->op[k].kind == OTMP && (x->md->op[k].acc & AW);
}

/* lat[i][o]: cycles from input i (an operand index, or LFLAGS) to output
 * o, -1 where o does not depend on i.  A memory operand as input is its
 * address (and contents); stores' memory outputs are not tracked (their
 * column stays -1). */
void inslats(const Model *mo, const Target *t, const Fn *fn, const Ins *x, int lat[MAXOP + 1][MAXOP + 1])
{
	for (int i = 0; i <= MAXOP; i++)
		for (int o = 0; o <= MAXOP; o++)
			lat[i][o] = -1;
	const MdLine *m = x->md;
	int nop = m->nop;
	if (vanished(fn, x)) {
		for (int i = 0; i <= MAXOP; i++)
			for (int o = 0; o <= MAXOP; o++)
				if ((i == LFLAGS || (i < nop && isinput(x, i))) && (o == LFLAGS || (o < nop && isoutput(x, o))))
					lat[i][o] = 0;
		return;
	}
	Part pt[16];
	int np = parts(mo, t, m, pt, 16);
	if (np <= 1) {
		/* one instruction: every input reaches every output */
		for (int i = 0; i <= nop; i++) {
			int in = i == nop ? LFLAGS : i;
			if (in != LFLAGS && !isinput(x, in))
				continue;
			if (in == LFLAGS && !m->use)
				continue;
			int l = in != LFLAGS && x->op[in].kind == OMEM ? pt[0].mempath : pt[0].regpath;
			for (int o = 0; o < nop; o++)
				if (isoutput(x, o))
					lat[in][o] = l;
			if (m->def)
				lat[in][LFLAGS] = l;
		}
		return;
	}
	/* several instructions: follow each input through the template */
	for (int i = 0; i <= nop; i++) {
		int in = i == nop ? LFLAGS : i;
		if (in != LFLAGS && !isinput(x, in))
			continue;
		if (in == LFLAGS && !m->use)
			continue;
		int avail[MAXOP], last = -1;
		for (int k = 0; k < MAXOP; k++)
			avail[k] = -1;
		int seen[MAXOP] = {0};
		for (int j = 0; j < np; j++)
			for (int k = 0; k < pt[j].nops; k++)
				if (pt[j].ops[k] >= 0)
					seen[pt[j].ops[k]] = 1;
		if (in != LFLAGS)
			avail[in] = 0;
		for (int j = 0; j < np; j++) {
			Part *p = &pt[j];
			int out = -1;
			/* an input the template does not name is read by its first instruction */
			if (j == 0 && in != LFLAGS && !seen[in])
				out = x->op[in].kind == OMEM ? p->mempath : p->regpath;
			/* the flags are read by its last instruction */
			if (j == np - 1 && in == LFLAGS && p->regpath > out)
				out = p->regpath;
			for (int k = 0; k < p->nops; k++) {
				int op = p->ops[k];
				if (op < 0 || avail[op] < 0 || (k == p->dest && !p->destread))
					continue;
				int l = avail[op] + (p->mem[k] ? p->mempath : p->regpath);
				if (l > out)
					out = l;
			}
			if (p->dest >= 0 && p->ops[p->dest] >= 0)
				avail[p->ops[p->dest]] = out;
			if (j == np - 1)
				last = out;
		}
		for (int o = 0; o < nop; o++)
			if (isoutput(x, o))
				lat[in][o] = seen[o] ? avail[o] : last;
		if (m->def)
			lat[in][LFLAGS] = last;
	}
}

/* the instruction's latency for the scheduler: its longest input-to-output
 * chain */
int inslatmax(const Model *mo, const Target *t, const Fn *fn, const Ins *x)
{
	int lat[MAXOP + 1][MAXOP + 1], best = 0;
	inslats(mo, t, fn, x, lat);
	for (int i = 0; i <= MAXOP; i++)
		for (int o = 0; o <= MAXOP; o++)
			if (lat[i][o] > best)
				best = lat[i][o];
	if (!best && !vanished(fn, x)) {
		/* outputs only through memory or none (stores, branches) */
		int c[64], n = insops(mo, fn, x, c, 64);
		for (int j = 0; j < n; j++)
			best += mo->cls[c[j]].lat;
	}
	return best;
}
