/* util.c: error reporting (user errors with location and caret; internal
 * errors), memory (xmalloc and the per-function arena), bitsets, and the
 * table of variable types. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "all.h"

const char *infile = "<input>";
const char *outtmp;      /* temporary output removed on error */
void *errjmp;
int errquiet;
char **srcline;
int nsrcline;

/* A user error: `file:line:col: error: msg`, the source line, a caret. */
void err(Pos p, const char *fmt, ...)
{
	va_list ap;
	if (errquiet)
		longjmp(*(jmp_buf *)errjmp, 1);
	fprintf(stderr, "%s:%d:%d: error: ", infile, p.line, p.col);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (p.line >= 1 && p.line <= nsrcline) {
		const char *s = srcline[p.line - 1];
		fprintf(stderr, "%s\n", s);
		for (int i = 1; i < p.col && s[i - 1]; i++)
			fputc(s[i - 1] == '\t' ? '\t' : ' ', stderr);
		fputs("^\n", stderr);
	}
	if (outtmp)
		remove(outtmp);
	if (errjmp)
		longjmp(*(jmp_buf *)errjmp, 1);
	exit(1);
}

/* An internal error: a bug in qhasm, never the user's fault. */
void die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "qhasm: internal error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (outtmp)
		remove(outtmp);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

/* give freed heap memory back to the system (glibc keeps freed small
 * blocks in its heap; a pass freeing millions of them as it goes lets
 * the next one reuse the pages) */
void trimheap(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

/* The arena: big chunks, freed together once a function is emitted. */
typedef struct Chunk { struct Chunk *next; size_t used, size; } Chunk;
static Chunk *arena, *farena, *rarena;

static void *chunkalloc(Chunk **arena, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (!*arena || (*arena)->used + n > (*arena)->size) {
		size_t sz = n + 2 * sizeof(Chunk) > (1 << 20) ? n + 2 * sizeof(Chunk) : (1 << 20);
		Chunk *c = xmalloc(sz);
		c->next = *arena;
		c->used = (sizeof(Chunk) + 15) & ~(size_t)15;
		c->size = sz;
		*arena = c;
	}
	void *p = (char *)*arena + (*arena)->used;
	(*arena)->used += n;
	memset(p, 0, n);
	return p;
}

static void chunkfree(Chunk **arena)
{
	while (*arena) {
		Chunk *c = (*arena)->next;
		free(*arena);
		*arena = c;
	}
}

/* the function arena: freed once a function is emitted */
void *alloc(size_t n) { return chunkalloc(&arena, n); }
static void opfree(void);
void freeall(void)
{
	chunkfree(&arena);
	chunkfree(&rarena);
	opfree();
}

/* the round arena: one pass's arrays sized by the temporaries, freed when
 * the pass ends (coalescing and colouring run once per allocation round;
 * in the function arena they added up over the rounds) */
void *ralloc(size_t n) { return chunkalloc(&rarena, n); }
void freeround(void) { chunkfree(&rarena); }

/* The stream arenas: memory allocated in order and released in the same
 * order, a chunk at a time (a statement's tokens from parsing until
 * check.c has read them, its operands until select.c has).  A long block
 * has millions of statements: no malloc per statement, and the chunks
 * the next pass is done with are reused as it goes (check.c writes the
 * operands into the chunks that held the tokens it has read). */
enum { SCHUNK = 1 << 20, SPOOL = 8 };
typedef struct SChunk { struct SChunk *next; size_t used, size; } SChunk;
static struct { SChunk *old, *new; } stream[NSTREAM];
/* Released chunks of the standard size, kept for the next salloc(): a
 * page given back and mapped again costs a page fault and zeroing (a
 * third of the time of a long block went to faults).  At most SPOOL of
 * them, so that memory a pass is done with does not stay allocated
 * while the next pass allocates elsewhere (select.c's instructions). */
static SChunk *spool;
static int nspool;

static SChunk *chunkmap(size_t sz)
{
	if (sz == SCHUNK && spool) {
		SChunk *d = spool;
		spool = d->next;
		nspool--;
		return d;
	}
	/* mapped, not from the heap: a released chunk goes back to the
	 * system whatever else the heap holds; populated at once (one
	 * system call, not one fault per page: the chunk is filled anyway) */
	SChunk *d = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (d == MAP_FAILED)
		die("out of memory");
	return d;
}

static void chunkunmap(SChunk *c)
{
	if (c->size == SCHUNK && nspool < SPOOL) {
		c->next = spool;
		spool = c;
		nspool++;
		return;
	}
	munmap(c, c->size);
}

void *salloc(int st, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	SChunk *c = stream[st].new;
	if (!c || c->used + n > c->size) {
		size_t hdr = (sizeof(SChunk) + 15) & ~(size_t)15;
		size_t sz = hdr + n > SCHUNK ? hdr + n : SCHUNK;
		SChunk *d = chunkmap(sz);
		*d = (SChunk){NULL, hdr, sz};
		if (c)
			c->next = d;
		else
			stream[st].old = d;
		stream[st].new = c = d;
	}
	void *p = (char *)c + c->used;
	c->used += n;
	return p;
}

/* free the chunks allocated before the one holding p (p from salloc(st)) */
void srelease(int st, const void *p)
{
	const char *q = p;
	SChunk *c = stream[st].old;
	while (c && c != stream[st].new && !(q >= (char *)c && q < (char *)c + c->size)) {
		stream[st].old = c->next;
		chunkunmap(c);
		c = stream[st].old;
	}
	if (!c)
		die("srelease: pointer not in stream %d", st);
}

/* free all of stream st, and the pool (a pass is over: what comes next
 * allocates elsewhere) */
void sfree(int st)
{
	for (SChunk *c = stream[st].old, *n; c; c = n) {
		n = c->next;
		munmap(c, c->size);
	}
	stream[st].old = stream[st].new = NULL;
	while (spool) {
		SChunk *n = spool->next;
		munmap(spool, spool->size);
		spool = n;
	}
	nspool = 0;
}

/* The instructions' operands (ir.c newops()): a stream of chunks kept
 * until the function is freed.  Mapped like the streams' chunks, and
 * taking the pool's (select.c makes the operands while it releases the
 * statements' operand chunks).  Under AddressSanitizer each array is a
 * heap block of its own, so that a read past an instruction's last
 * operand is reported instead of reading the next instruction's. */
#if defined(__SANITIZE_ADDRESS__)
#define OPS_EXACT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPS_EXACT 1
#endif
#endif
static SChunk *opchunk;

void *opalloc(size_t n)
{
	size_t hdr = (sizeof(SChunk) + 15) & ~(size_t)15;
#ifdef OPS_EXACT
	SChunk *e = xmalloc(hdr + n);
	*e = (SChunk){opchunk, hdr + n, 0};
	opchunk = e;
	return (char *)e + hdr;
#else
	n = (n + 7) & ~(size_t)7;
	SChunk *c = opchunk;
	if (!c || c->used + n > c->size) {
		size_t sz = hdr + n > SCHUNK ? hdr + n : SCHUNK;
		c = chunkmap(sz);
		*c = (SChunk){opchunk, hdr, sz};
		opchunk = c;
	}
	void *p = (char *)c + c->used;
	c->used += n;
	return p;
#endif
}

static void opfree(void)
{
	for (SChunk *c = opchunk, *n; c; c = n) {
		n = c->next;
#ifdef OPS_EXACT
		free(c);
#else
		chunkunmap(c);
#endif
	}
	opchunk = NULL;
}

/* interned strings (in the file arena): a long block repeats the same
 * few names and operators millions of times.  An entry keeps the hash
 * and length, so a probe compares the text only when they match. */
typedef struct IEnt { char *s; unsigned hash, len; } IEnt;
static IEnt *itab;
static size_t icap, icount;

/* Strings of 1 to 7 bytes (most tokens: names, operators, small
 * numbers) by their bytes and length in one word, direct-mapped: a long
 * block interns millions of tokens, and hashing and probing were most of
 * the lexer's time.  Emptied with the table (ffreeall()). */
enum { ICACHE = 4096 };
static struct { u64 key; char *s; } icache[ICACHE];


/* the file arena (tokens, statements' text): freed by parsereset() */
void *falloc(size_t n) { return chunkalloc(&farena, n); }
unsigned fepoch;
void ffreeall(void)
{
	fepoch++;
	chunkfree(&farena);
	free(itab);
	itab = NULL;
	icap = icount = 0;
	memset(icache, 0, sizeof icache);
}

char *fstrndup(const char *s, size_t n)
{
	char *p = falloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static unsigned nhash(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* memcmp() == 0 for the short strings interned (a call costs more) */
static inline int same(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static char *finternslow(const char *s, size_t n);

/* the one copy of s[0..n) in the file arena (never to be modified) */
char *fintern(const char *s, size_t n)
{
	if (n - 1 >= 7)
		return finternslow(s, n);
	u64 key = (u64)n << 56;
	for (size_t i = 0; i < n; i++)
		key |= (u64)(unsigned char)s[i] << (8 * i);
	unsigned c = (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 52) & (ICACHE - 1);
	if (icache[c].key == key)
		return icache[c].s;
	char *r = finternslow(s, n);
	icache[c].key = key;
	icache[c].s = r;
	return r;
}

static char *finternslow(const char *s, size_t n)
{
	if (2 * (icount + 1) > icap) {
		size_t oc = icap;
		IEnt *old = itab;
		icap = icap ? 2 * icap : 1024;
		itab = xcalloc(icap, sizeof *itab);
		for (size_t i = 0; i < oc; i++)
			if (old[i].s) {
				size_t j = old[i].hash & (icap - 1);
				while (itab[j].s)
					j = (j + 1) & (icap - 1);
				itab[j] = old[i];
			}
		free(old);
	}
	unsigned h = nhash(s, n);
	size_t j = h & (icap - 1);
	for (; itab[j].s; j = (j + 1) & (icap - 1))
		if (itab[j].hash == h && itab[j].len == n && same(itab[j].s, s, n))
			return itab[j].s;
	icount++;
	itab[j] = (IEnt){fstrndup(s, n), h, (unsigned)n};
	return itab[j].s;
}

/* FNV-1a, for the name, label and shape tables */
unsigned strhash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

int bswords(int n) { return (n + 63) / 64; }
u64 *bsnew(int n) { return alloc(bswords(n) * sizeof(u64)); }


static const struct { const char *name; int bits, file, stack; } types[NTYPE] = {
	[TNONE] = {"none", 0, -1, 0},
	[TINT32] = {"int32", 32, FGPR, 0},
	[TINT64] = {"int64", 64, FGPR, 0},
	[TFLOAT64] = {"float64", 64, FFPR, 0},
	[TREG128] = {"reg128", 128, FVEC, 0},
	[TREG256] = {"reg256", 256, FVEC, 0},
	[TREG512] = {"reg512", 512, FVEC, 0},
	[TSTACK32] = {"stack32", 32, -1, 1},
	[TSTACK64] = {"stack64", 64, -1, 1},
	[TSTACK128] = {"stack128", 128, -1, 1},
	[TSTACK256] = {"stack256", 256, -1, 1},
	[TSTACK512] = {"stack512", 512, -1, 1},
};

const char *typename(int t) { return types[t].name; }
int typebits(int t) { return types[t].bits; }
int typefile(int t) { return types[t].file; }
int isstack(int t) { return types[t].stack; }

/* an extension set closed under implication (avx2 implies avx, ...) */
u64 extclose(const Target *t, u64 e)
{
	for (u64 old = 0; old != e;) {
		old = e;
		for (int i = 0; t->extname[i]; i++)
			if (e >> i & 1)
				e |= t->implies[i];
	}
	return e;
}
