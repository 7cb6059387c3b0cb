/* model.c: loads a microarchitecture model, a data file (see
 * docs/models.md) naming the machine's issue width, its execution units,
 * and for each instruction class of the machine descriptions (`unit=` in
 * a .md line) the latency, the units it may issue to and the cycles it
 * holds one.  Models are embedded at build time; `-u FILE` reads one from
 * a file.  Provides modelload(), insops(), insslots(). */
#include "all.h"

/* a model is user input (-u FILE): located errors, exit status 1 */
static void merr(const char *name, int line, const char *msg, const char *arg)
{
	fprintf(stderr, "%s:%d:1: error: %s%s\n", name, line, msg, arg);
	exit(1);
}

/* a whole non-negative decimal number, at most 1000000, or -1 */
static int number(const char *w)
{
	char *end;
	long v = strtol(w, &end, 10);
	return *w >= '0' && *w <= '9' && !*end && v <= 1000000 ? (int)v : -1;
}

static char *readall(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *s = xmalloc(cap);
	for (size_t k; (k = fread(s + n, 1, cap - n - 1, f)) > 0;) {
		n += k;
		if (n + 1 >= cap)
			s = xrealloc(s, cap *= 2);
	}
	fclose(f);
	s[n] = 0;
	return s;
}

/* model   = { line }
 * line    = 'model' NAME TARGET | 'source' TEXT | 'issue' N | 'window' N | 'rob' N | 'units' U {U}
 *         | 'class' NAME 'latency' N 'units' U {U} ['slots' N] ['estimate']
 *         | 'default' NAME */
static Model *parsemodel(char *text, const char *origin)
{
	Model *m = xcalloc(1, sizeof *m);
	int cap = 0, line = 0;
	char *dflt = NULL;
	for (char *l = text, *next; l; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = 0;
		line++;
		char *hash = strchr(l, '#');
		if (hash)
			*hash = 0;
		while (*l == ' ' || *l == '\t')
			l++;
		if (!strncmp(l, "source ", 7)) {
			m->source = xstrdup(l + 7);
			continue;
		}
		char *w[MAXUNIT + 16];
		int n = 0;
		for (char *p = strtok(l, " \t\r"); p; p = strtok(NULL, " \t\r")) {
			if (n == MAXUNIT + 16)
				merr(origin, line, "too many words on the line", "");
			w[n++] = p;
		}
		if (!n)
			continue;
		if (!strcmp(w[0], "model") && n == 3) {
			m->name = xstrdup(w[1]);
			m->target = xstrdup(w[2]);
		} else if (!strcmp(w[0], "issue") && n == 2) {
			if ((m->issue = number(w[1])) < 1)
				merr(origin, line, "issue width must be a number of at least 1: ", w[1]);
		} else if (!strcmp(w[0], "rob") && n == 2) {
			/* reorder-buffer entries: how far apart in program order two
			 * instructions can be in flight together (the cost report) */
			if ((m->rob = number(w[1])) < 1)
				merr(origin, line, "rob must be a number of at least 1: ", w[1]);
		} else if (!strcmp(w[0], "window") && n == 2) {
			/* out-of-order scheduler entries; absent: in order */
			if ((m->window = number(w[1])) < 0)
				merr(origin, line, "window must be a number of at least 0: ", w[1]);
		} else if (!strcmp(w[0], "orders") && n == 2) {
			/* own: the list scheduler's orders under this model; all: also
			 * those under every other model of the target, the fastest
			 * once allocated kept (schedule_pick.c) */
			if (strcmp(w[1], "own") && strcmp(w[1], "all"))
				merr(origin, line, "orders must be own or all: ", w[1]);
			m->allorders = !strcmp(w[1], "all");
		} else if (!strcmp(w[0], "units")) {
			for (int i = 1; i < n; i++) {
				if (m->nunit == MAXUNIT)
					merr(origin, line, "too many units (the limit is 32): ", w[i]);
				m->unit[m->nunit++] = xstrdup(w[i]);
			}
		} else if (!strcmp(w[0], "default") && n == 2) {
			dflt = xstrdup(w[1]);
		} else if (!strcmp(w[0], "class") && n >= 6 && !strcmp(w[2], "latency") && !strcmp(w[4], "units")) {
			if (m->ncls == MAXCLS)   /* the cost report and scheduler count per class in arrays of this size */
				merr(origin, line, "too many classes (the limit is 64): ", w[1]);
			GROW(m->cls, m->ncls, cap);
			UClass *c = &m->cls[m->ncls++];
			memset(c, 0, sizeof *c);
			c->name = xstrdup(w[1]);
			c->lat = number(w[3]);
			c->slots = 1;
			for (int i = 5; i < n; i++) {
				if (!strcmp(w[i], "slots") && i + 1 < n) {
					c->slots = number(w[++i]);
					continue;
				}
				if (!strcmp(w[i], "estimate")) {
					c->estimate = 1;
					continue;
				}
				int u;
				for (u = 0; u < m->nunit && strcmp(m->unit[u], w[i]); u++)
					;
				if (u == m->nunit)
					merr(origin, line, "unknown unit ", w[i]);
				c->units |= 1ull << u;
			}
			if (!c->units || c->lat < 0 || c->slots < 1)
				merr(origin, line, "bad class line: needs units, a latency of at least 0 and slots of at least 1", "");
		} else
			merr(origin, line, "cannot parse: ", w[0]);
	}
	if (!m->name || !m->issue || !m->nunit || !m->ncls)
		merr(origin, line, "needs model, issue, units and class lines", "");
	m->dflt = 0;
	if (dflt) {
		/* obsolete: every machine-description line names its classes */
		int i;
		for (i = 0; i < m->ncls && strcmp(m->cls[i].name, dflt); i++)
			;
		if (i == m->ncls)
			merr(origin, line, "default names no class of the model: ", dflt);
		m->dflt = i;
	}
	return m;
}

int modelclass(const Model *m, const char *name)
{
	for (int i = 0; i < m->ncls; i++)
		if (!strcmp(m->cls[i].name, name))
			return i;
	die("model %s has no class '%s' (modelcheck() lets no such model through)", m->name, name);
	return -1;
}

const Model *modelload(const char *arg, const Target *t)
{
	Model *m = NULL;
	if (strchr(arg, '/') || strstr(arg, ".model")) {
		char *text = readall(arg);
		if (!text) {
			fprintf(stderr, "qhasm: cannot read model %s\n", arg);
			exit(2);
		}
		m = parsemodel(text, arg);
	} else
		for (int i = 0; qhasm_models[i] && !m; i++) {
			char *text = xstrdup(qhasm_models[i]);
			Model *c = parsemodel(text, "(embedded)");
			if (!strcmp(c->name, arg))
				m = c;
		}
	if (!m) {
		fprintf(stderr, "qhasm: unknown model '%s'; the models are:", arg);
		for (int i = 0; qhasm_models[i]; i++) {
			Model *c = parsemodel(xstrdup(qhasm_models[i]), "(embedded)");
			fprintf(stderr, " %s (%s)", c->name, c->target);
		}
		fprintf(stderr, "\n");
		exit(2);
	}
	if (strcmp(m->target, t->name)) {
		fprintf(stderr, "qhasm: model %s is for %s, not %s\n", m->name, m->target, t->name);
		exit(2);
	}
	char where[256];
	if (strchr(arg, '/') || strstr(arg, ".model"))
		snprintf(where, sizeof where, "%s", arg);
	else
		snprintf(where, sizeof where, "%s.model", m->name);
	modelcheck(m, t, where);
	return m;
}

/* a copy the allocator made disappear (source and destination in one
 * register): no operation, no issue slot */
static int vanished(const Fn *fn, const Ins *x)
{
	if (!(x->md->attr & AMOV) || x->op[0].kind != OTMP || x->op[1].kind != OTMP)
		return 0;
	int a = fn->tmp[x->op[0].tmp].reg, b = fn->tmp[x->op[1].tmp].reg;
	return a != NOREG && a == b;
}

/* the model classes of an instruction's machine operations (unit=a,b+c:
 * `,` between instructions or micro-operations, `+` between the
 * micro-operations of one instruction, `-` none) */
int insops(const Model *m, const Fn *fn, const Ins *x, int *cls, int max)
{
	const char *u = x->md->unit;
	int n = 0;
	if (!x->md->tmpl[0])
		return 0; /* pseudo-instructions */
	if (vanished(fn, x))
		return 0;
	if (!u || !*u)
		die("machine-description line %d (%s) names no class (unit=)", x->md->lineno, x->md->pattern);
	while (*u && n < max) {
		char name[32];
		size_t k = strcspn(u, ",+");
		snprintf(name, sizeof name, "%.*s", (int)(k < 31 ? k : 31), u);
		if (strcmp(name, "-"))
			cls[n++] = modelclass(m, name);
		u += k + (u[k] == ',' || u[k] == '+');
	}
	return n;
}

/* The issue slots of an instruction, for the issue-width bound: what the
 * cores rename per cycle are fused operations, so a load folded into an
 * instruction (`xor r, [m]`) and a store's address and data take one slot
 * with the operation, and a conditional branch fuses with the compare or
 * flag-setting instruction before it.  Counting every micro-operation
 * made the bound exceed the measured time (mceliece_gf13_fft amd64: 853
 * operations per iteration of its butterfly loop, 638 instructions).  So
 * each machine instruction takes the number of its micro-operations that
 * are not loads, stores or branches, at least one, and a branch alone
 * none: a lower bound on every x86 core, whether or not it fuses a given
 * pair.  The instructions are the template's `;` parts when unit= has one
 * `,` entry per part (`+` joining an entry's micro-operations), else the
 * whole list is one instruction's (as latency.c's parts() reads it). */
static int fusedslots(const char *u, size_t len)
{
	int ops = 0, other = 0, branch = 0;
	for (const char *e = u + len; u < e;) {
		size_t k = strcspn(u, ",+");
		if (u + k > e)
			k = (size_t)(e - u);
		if (!(k == 1 && *u == '-')) {
			ops++;
			if (k == 6 && !strncmp(u, "branch", 6))
				branch++;
			else if (!(k == 4 && !strncmp(u, "load", 4)) && !(k == 5 && !strncmp(u, "store", 5)))
				other++;
		}
		u += k + 1;
	}
	return !ops || ops == branch ? 0 : other > 1 ? other : 1;
}

int insslots(const Fn *fn, const Ins *x)
{
	const char *u = x->md->unit;
	if (!x->md->tmpl[0] || !u)
		return 0;
	if (vanished(fn, x))
		return 0;
	int ninst = 1, nent = 1;
	for (const char *s = x->md->tmpl; *s; s++)
		ninst += *s == ';';
	for (const char *s = u; *s; s++)
		nent += *s == ',';
	if (nent != ninst)
		return fusedslots(u, strlen(u));
	int slots = 0;
	for (;;) {
		size_t k = strcspn(u, ",");
		slots += fusedslots(u, k);
		if (!u[k])
			return slots;
		u += k + 1;
	}
}

/* Every class the target's machine description names must be in the
 * model: a missing one is an error naming it, not a silent default. */
void modelcheck(const Model *m, const Target *t, const char *origin)
{
	for (int i = 0; i < nmd; i++) {
		const char *u = md[i].unit ? md[i].unit : "";
		while (*u) {
			char name[32];
			size_t k = strcspn(u, ",+");
			snprintf(name, sizeof name, "%.*s", (int)(k < 31 ? k : 31), u);
			int c;
			for (c = 0; c < m->ncls && strcmp(m->cls[c].name, name); c++)
				;
			if (c == m->ncls && strcmp(name, "-")) {
				fprintf(stderr, "%s:1:1: error: model %s has no class '%s', which the %s instruction '%s' uses "
					"(machine description line %d)\n", origin, m->name, name, t->name, md[i].pattern, md[i].lineno);
				exit(1);
			}
			u += k + (u[k] == ',' || u[k] == '+');
		}
	}
}

/* embedded model i if it describes target t (checked as modelload()
 * checks it), else NULL; each parsed once (the scheduler asks for every
 * model of the target per function: schedule_pick.c) */
const Model *modelnamed(int i, const Target *t)
{
	static Model *parsed[64];
	static int checked[64];
	if (i < 0 || i >= 64 || !qhasm_models[i])
		return NULL;
	if (!parsed[i])
		parsed[i] = parsemodel(xstrdup(qhasm_models[i]), "(embedded)");
	if (strcmp(parsed[i]->target, t->name))
		return NULL;
	if (!checked[i]) {
		char where[256];
		snprintf(where, sizeof where, "%s.model", parsed[i]->name);
		modelcheck(parsed[i], t, where);
		checked[i] = 1;
	}
	return parsed[i];
}
