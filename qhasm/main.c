/* main.c: the qhasm command.  Reads a .q file and writes assembly for one
 * target.  The passes run one after the other in run(), in order;
 * `-d LETTERS` dumps the state after the passes named by those letters. */
#include <setjmp.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>
#include "all.h"

static const Model *model;  /* -u: schedule for this microarchitecture */
static int wantreport;      /* --report */

static const Target *targets[] = {&T_amd64, &T_x86, &T_ppc32, &T_ppc64, &T_sparc64};

static const char *dumps = "";
static int dialect = DAUTO;  /* --dialect */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: qhasm [-m TARGET] [-x EXT,...] [-u MODEL] [--report] [--rename OLD=NEW] [--dialect D] [-d LETTERS] [-o OUT] FILE.q\n"
		"Translate a .q kernel into assembly for TARGET.\n\n"
		"  -m TARGET   target instruction set (default amd64); one of:");
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
		fprintf(f, " %s", targets[i]->name);
	fprintf(f, "\n"
		"  -x EXTS     enable CPU extensions (comma-separated) in addition to 'cpu' lines\n"
		"  -u MODEL    schedule for a microarchitecture model (a name, or a .model file)\n"
		"  --report    print the spill code per function and loop, and with -u the cost\n"
		"              report, instead of assembly (unless -o)\n"
		"  --rename OLD=NEW  rename global symbols (per-model variants: --rename _avx2_=_avx2_zen4_)\n"
		"  --dialect D input language: q (ours), qhasm2007 or qhasm (D. J. Bernstein's 2007 and\n"
		"              later dialects), or auto (the default: detected from the file)\n"
		"  --namespace NS  qhasm dialects: CRYPTO_NAMESPACE(x) becomes NS_x, CRYPTO_NAMESPACETOP NS\n"
		"  -o OUT      output file (default: standard output); written only on success\n"
		"  -d LETTERS  dump the state after passes to standard error:\n"
		"              P parse, C check, S select, T taint, W webs, H schedule, L live, O coalesce, A alloc, K postschedule, F frame\n"
		"  -h, --help  this help\n\n"
		"Errors are reported as FILE:LINE:COL: error: MESSAGE, exit status 1.\n");
}

/* QHASM_DEBUG_TIME set: the processor time of each pass on standard error */
static void lap(const char *pass)
{
	static int on = -1;
	static clock_t t0;
	if (on < 0) {
		on = getenv("QHASM_DEBUG_TIME") != NULL;
		t0 = clock();
	}
	if (!on || !pass)
		return;
	clock_t t = clock();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	static long f0;
	fprintf(stderr, "time %-12s %7.3f s  peak %6ld MB  %7ld faults\n", pass, (double)(t - t0) / CLOCKS_PER_SEC,
		ru.ru_maxrss / 1024, ru.ru_minflt - f0);
	t0 = t;
	f0 = ru.ru_minflt;
}

static void dumpif(Fn *fn, const Target *t, char c)
{
	static const char *const names[128] = {['P'] = "parse", ['C'] = "check", ['S'] = "select", ['T'] = "taint",
		['W'] = "webs", ['H'] = "schedule", ['L'] = "live", ['O'] = "coalesce", ['A'] = "alloc",
		['K'] = "postschedule", ['F'] = "frame"};
	lap(names[(int)c] ? names[(int)c] : "?");
	if (strchr(dumps, c))
		dump(stderr, fn, t, c);
}

/* the register-allocation loop: spill code changes liveness */
static int allocate1(Fn *fn, const Target *t, int inbody)
{
	int evicted = split(fn, t, inbody);
	lap("split");
	for (;;) {
		live(fn);
		dumpif(fn, t, 'L');
		coalesce(fn, t);
		dumpif(fn, t, 'O');
		int done = regalloc(fn, t);
		lap("regalloc");
		if (getenv("QHASM_DEBUG_ALLOC"))
			fprintf(stderr, "%s: allocation round %d: %d temporaries, %d slots%s\n", fn->name, fn->round, fn->ntmp,
				fn->nslot, done ? ", done" : "");
		if (done)
			break;
		if (fn->round > 64)
			die("register allocation of %s did not converge", fn->name);
	}
	spillopt(fn, t);
	lap("spillopt");
	return evicted;
}

/* Evictions inside loop bodies (split.c) are kept only where they lower
 * the spill traffic (weighted by loop depth) */
static void allocate(Fn *fn, const Target *t)
{
	int loops = 0; /* without a back edge there is no loop body to evict in */
	for (int b = 0; b < fn->nblk && !loops; b++)
		loops = fn->blk[b].succ[0] >= 0 && fn->blk[b].succ[0] <= b;
	if (!loops) {
		allocate1(fn, t, 0); /* no copy: a long block's IR is hundreds of MB */
		dumpif(fn, t, 'A');
		return;
	}
	Fn alt = *fn;
	copyir(&alt, fn);
	if (allocate1(fn, t, 1)) {
		allocate1(&alt, t, 0);
		if (getenv("QHASM_DEBUG_EVICT"))
			fprintf(stderr, "%s: spill cost %g with the evictions, %g without\n", fn->name, spillcost(fn), spillcost(&alt));
		if (spillcost(&alt) <= spillcost(fn) && !getenv("QHASM_DEBUG_KEEPEVICT")) {
			freeir(fn);
			copyir(fn, &alt);
		}
	}
	freeir(&alt);
	dumpif(fn, t, 'A'); /* the allocation kept */
}

/* A schedule must not cost spills the source order avoids: with -u, the
 * function is also allocated unscheduled, and the order with less spill
 * traffic (weighted by loop depth) is kept. */
static void allocate_scheduled(Fn *fn, const Target *t, const Fn *unsched)
{
	allocate(fn, t);
	double withsched = spillcost(fn);
	if (withsched == 0)
		return;
	Fn alt = *fn;
	copyir(&alt, unsched);
	allocate(&alt, t);
	if (spillcost(&alt) < withsched) {
		freeir(fn);
		copyir(fn, &alt); /* blocks, temporaries (with their registers), slots */
	}
	freeir(&alt);
}

/* after selection the IR holds everything the statements said: they are
 * freed (a long block has millions of them), and only their positions
 * kept, for messages and the source comments of the output */
static void freestmts(Fn *fn)
{
	fn->spos = xmalloc((fn->nstmt + 1) * sizeof *fn->spos);
	for (int i = 0; i < fn->nstmt; i++) {
		fn->spos[i] = fn->stmt[i].pos;
		if (fn->stmt[i].kind != SINS)
			free(fn->stmt[i].tok); /* instructions': in the token stream */
	}
	free(fn->stmt);
	fn->stmt = NULL;
	fn->nstmt = 0;
	sfree(SOPS); /* check() makes them one function at a time */
}

/* The pipeline, one pass after the other, each followed by its dump
 * (-d LETTER).  split, live, coalesce, alloc and spillopt run inside
 * allocate(). */
static void run(Fn *fn, const Target *t, FILE *out)
{
	dumpif(fn, t, 'P');
	check(fn, t);
	dumpif(fn, t, 'C');
	selectfn(fn, t);
	loopdepth(fn);
	freestmts(fn);
	dumpif(fn, t, 'S');
	taint(fn, t);
	dumpif(fn, t, 'T');
	webs(fn, t);
	dumpif(fn, t, 'W');
	/* schedule (every candidate order), allocate, post-schedule:
	 * schedule_pick.c; allocate_scheduled() tries the source order too */
	if (model)
		schedulepick(fn, t, model, allocate_scheduled);
	else
		allocate(fn, t);
	dumpif(fn, t, 'H'); /* with -u the chosen schedule, already allocated */
	dumpif(fn, t, 'K');
	frame(fn, t);
	dumpif(fn, t, 'F');
	if (wantreport)
		report(stdout, fn, t, model);
	if (out)
		emitfn(out, fn, t);
	lap("emit");
	freefn(fn);
	freeall();
	lap("free");
}

/* translate every function of the parsed file */
static void translate(const Target *t, u64 extra, FILE *f)
{
	if (f)
		emitfile(f, t);
	for (int i = 0; i < nfns; i++) {
		fns[i]->ext = extclose(t, fns[i]->ext | extra);
		run(fns[i], t, f);
	}
	if (f) {
		emitconsts(f, t);
		emitend(f, t);
	}
}

#ifdef QHASM_FUZZ
/* libFuzzer entry: the whole pipeline on one input, for each target in turn;
 * user errors return through errjmp, internal errors abort. */
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *null;
	const char *only = getenv("QHASM_FUZZ_TARGET");
	if (!null)
		null = fopen("/dev/null", "w");
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		if (only && strcmp(only, targets[i]->name))
			continue;
		jmp_buf jb;
		char *text = xmalloc(size + 1);
		memcpy(text, data, size);
		text[size] = 0;
		errjmp = &jb;
		errquiet = 1;
		mdload(targets[i]);
		if (!setjmp(jb)) {
			parsebuf("fuzz.q", text, size, targets[i]);
			translate(targets[i], 0, null);
		}
		freeall();
		parsereset();
		free(text);
	}
	return 0;
}
#define main qhasm_main
#endif

int main(int argc, char **argv)
{
	lap(NULL);
	const char *tname = "amd64", *out = NULL, *in = NULL, *exts = NULL, *uname = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--report")) {
			wantreport = 1;
			continue;
		}
		if (!strcmp(a, "--dialect") && i + 1 < argc) {
			const char *v = argv[++i];
			for (dialect = 0; dialectname[dialect] && strcmp(dialectname[dialect], v); dialect++)
				;
			if (!dialectname[dialect]) {
				fprintf(stderr, "qhasm: unknown dialect '%s' (q, qhasm2007, qhasm or auto)\n", v);
				return 2;
			}
			continue;
		}
		if (!strcmp(a, "--namespace") && i + 1 < argc) {
			djbnamespace = argv[++i];
			continue;
		}
		if (!strcmp(a, "--rename") && i + 1 < argc) {
			symrename = argv[++i];
			if (!strchr(symrename, '=') || symrename[0] == '=') {
				fprintf(stderr, "qhasm: --rename needs OLD=NEW\n");
				return 2;
			}
			continue;
		}
		if ((!strcmp(a, "-m") || !strcmp(a, "-o") || !strcmp(a, "-d") || !strcmp(a, "-x") || !strcmp(a, "-u")) && i + 1 < argc) {
			const char *v = argv[++i];
			switch (a[1]) {
			case 'u': uname = v; break;
			case 'm': tname = v; break;
			case 'o': out = v; break;
			case 'd': dumps = v; break;
			case 'x': exts = v; break;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "qhasm: unknown option %s\n", a);
			usage(stderr);
			return 2;
		} else if (in) {
			fprintf(stderr, "qhasm: more than one input file\n");
			return 2;
		} else
			in = a;
	}
	if (!in) {
		usage(stderr);
		return 2;
	}
	const Target *t = NULL;
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
		if (!strcmp(targets[i]->name, tname))
			t = targets[i];
	if (!t) {
		fprintf(stderr, "qhasm: unknown target '%s'\n", tname);
		return 2;
	}
	mdload(t);
	if (uname)
		model = modelload(uname, t);
	u64 extra = 0;
	if (exts) {
		char *s = xstrdup(exts);
		for (char *p = strtok(s, ","); p; p = strtok(NULL, ",")) {
			int k;
			for (k = 0; t->extname[k] && strcmp(t->extname[k], p); k++)
				;
			if (!t->extname[k]) {
				fprintf(stderr, "qhasm: unknown extension '%s' for %s\n", p, t->name);
				return 2;
			}
			extra |= 1ull << k;
		}
		free(s);
	}
	char *text = NULL; /* read once: detected, then parsed */
	size_t len = 0;
	if (dialect == DAUTO)
		dialect = djbdetect(in, &text, &len);
	if (*dumps)
		fprintf(stderr, "dialect: %s\n", dialectname[dialect]);
	if (dialect == DQ && text)
		parsebuf(in, text, len, t);
	else if (dialect == DQ)
		parse(in, t);
	else {
		free(text);
		djbparse(in, dialect, t);
	}
	char *tmp = NULL;
	FILE *f = wantreport ? NULL : stdout;
	if (out) {
		size_t n = strlen(out) + 32;
		tmp = xmalloc(n);
		snprintf(tmp, n, "%s.tmp%ld", out, (long)getpid());
		f = fopen(tmp, "w");
		if (!f) {
			fprintf(stderr, "qhasm: cannot write %s\n", tmp);
			return 1;
		}
		setvbuf(f, NULL, _IOFBF, 1 << 16); /* fewer writes for long outputs */
		outtmp = tmp;
	}
	translate(t, extra, f);
	if (f == NULL)
		return 0;
	if (out) {
		if (fclose(f) != 0 || rename(tmp, out) != 0) {
			remove(tmp);
			fprintf(stderr, "qhasm: cannot write %s\n", out);
			return 1;
		}
		outtmp = NULL;
	} else if (fflush(stdout) != 0)
		return 1;
	return 0;
}
