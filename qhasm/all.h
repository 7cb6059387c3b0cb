/* all.h: core types of the qhasm translator and the prototypes of every
 * file, grouped by file.  The pipeline (see main.c) is
 *   parse -> check -> select -> live -> coalesce -> alloc (+spill, repeat)
 *         -> frame -> emit
 * Everything ISA-specific lives behind a Target (qhasm/<isa>/). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;
typedef long long i64;

enum { MAXOP = 6, MAXFILE = 3, NOREG = -1 };

typedef struct Pos { int line, col; } Pos; /* in the current input file */

/* ---------- types of .q variables (target-independent) ---------- */
enum Type {
	TNONE, TINT32, TINT64, TFLOAT64, TREG128, TREG256, TREG512,
	TSTACK32, TSTACK64, TSTACK128, TSTACK256, TSTACK512,
	NTYPE
};
/* register files */
enum { FGPR, FVEC, FFPR };

typedef struct Var {
	char *name;
	int type;
	int count;   /* array length for stack arrays, else 1 */
	int align;   /* bytes, for stack variables */
	int secret;
	Pos pos;
	char *pin;   /* register the variable is pinned to (`int64 x@rax`), or NULL */
} Var;

typedef struct Const {
	char *name;
	int elbits;  /* 8, 16, 32, 64 */
	int n;
	u64 *v;
	Pos pos;
	int external;  /* `extern NAME`: defined in another object, no data here */
} Const;

/* ---------- tokens and statements (parse.c) ---------- */
enum TokKind { KID, KNUM, KOP, KLANE, KEND };
typedef struct Tok {
	int kind;
	char *s;     /* text */
	u64 v;       /* KNUM value, KLANE lane count */
	Pos pos;
} Tok;

enum StmtKind { SINS, SLABEL, SINPUT, SOUTPUT, SLEAVE, SCPU, SSECRET, SDECLASSIFY };
typedef struct Stmt {
	/* ordered and narrowed to 56 bytes: a long block has millions */
	Pos pos;
	Pos condpos;
	union {
		Tok *tok;    /* the tokens (SLABEL: tok[0] is the name) */
		void *ptok;  /* SINS: packed (tokpack()), in the token stream until check.c */
	};
	/* filled by check.c */
	char *shape; /* canonical token string, operands replaced by '$' */
	struct SOp *op;  /* freed by select.c */
	int line;    /* source line number (for comments; = pos.line) */
	int ntok;
	int label;   /* SLABEL: its index in Fn.lab */
	signed char kind;
	signed char cond;  /* SINS: flags the statement asks to keep (COND? prefix), -1 none */
	signed char nop;
} Stmt;

/* source-level operands (check.c) */
enum SOpKind { SVAR, SIMM, SMEM, SLAB, SADDR };
typedef struct SOp {
	/* ordered and narrowed to 40 bytes: a long block has millions */
	union {
		i64 imm;      /* SIMM */
		i64 disp;     /* SMEM */
	};
	Pos pos;
	int var;          /* SVAR, SADDR: variable; SMEM on a stack variable */
	int base, index;  /* SMEM: variables or -1 */
	union {
		int sym;      /* SMEM: constant or -1 */
		int label;    /* SLAB: index into Fn labels */
	};
	short width;      /* SMEM: bits */
	signed char kind;
	signed char scale;
	signed char endian; /* SMEM: 0 (native), 'l' (memNle), 'b' (memNbe) */
} SOp;

typedef struct Label {
	char *name;
	Pos pos;
	int defined;
	int blk;
} Label;

/* ---------- machine description (md.c) ---------- */
enum Acc { AR = 1, AW = 2, ARW = 3, ASCR = 4, AIMM = 8 };
enum Attr { AMOV = 1, AJUMP = 2, ACJUMP = 4, ALOAD = 8, ASTORE = 16, ARET = 32, ADECL = 256,
	ACMPU = 64, ACMPS = 128 /* compare forms only for unsigned / signed conditions */,
	ACMPEQ = 512 /* flags valid for = and != only */,
	AMEM = 1024 /* reads and writes memory its operands do not name (rep movsb) */ };
/* flag groups: carry, zero/sign/parity, overflow */
enum { FLC = 1, FLZ = 2, FLO = 4 };

typedef struct MdOp {
	char name;
	int acc;
	int cls;     /* index into the target's class table */
	int fixed;   /* register number or NOREG */
	int pos;     /* position among the '$' of the shape, -1 for scratch */
	int tie;     /* for a second occurrence: position of the first, else -1 */
	int exact;   /* a number written in the pattern: the immediate must equal val */
	i64 val;
} MdOp;

typedef struct MdLine {
	char *pattern;
	char *shape;
	int nop;          /* operand placeholders incl. scratch */
	int nslot;        /* number of '$' in the shape */
	MdOp op[MAXOP];
	int slotop[MAXOP];/* for each '$', its operand index */
	unsigned def, use;/* flag groups written (incl. clob), read */
	unsigned clob;    /* flag groups written with no meaning (def=Z clob=C) */
	int attr;
	u64 ext;          /* extensions required */
	u64 noext;        /* extensions that exclude the form (`!avx`) */
	char *unit;
	char *tmpl;
	int multi;        /* the template is several instructions (a ';') */
	int lineno;
} MdLine;

/* ---------- target description (qhasm/<isa>/) ---------- */
typedef struct Class {
	const char *name;
	int kind;         /* CREG, CIMM, CMEM, CLABEL, CADDR */
	int file;         /* CREG */
	unsigned types;   /* CREG, CADDR: accepted variable types (bitmask of 1<<T) */
	u64 mask;         /* CREG: allowed registers */
	int view;         /* CREG: default register view in bits; CMEM: width */
	i64 min, max;     /* CIMM: range; CMEM with mode MDISP: displacement range */
	int mode;         /* CMEM: addressing mode (MANY, MBASE, MDISP, MINDEX) */
	int endian;       /* CMEM: 0 native, 'l' little-endian on a big-endian target */
} Class;
enum { MANY, MBASE, MDISP, MINDEX, MDISP4 /* displacement a multiple of 4 */ };
/* for the targets' class tables */
#define CLSREG(n, f, t, m, v) {.name = n, .kind = CREG, .file = f, .types = t, .mask = m, .view = v}
#define CLSIMM(n, lo, hi) {.name = n, .kind = CIMM, .min = lo, .max = hi}
#define CLSMEM(n, w, md, lo, hi, e) {.name = n, .kind = CMEM, .view = w, .mode = md, .min = lo, .max = hi, .endian = e}
#define CLSADDR(n, t) {.name = n, .kind = CADDR, .types = t}
#define CLSLABEL(n) {.name = n, .kind = CLABEL}
enum { CREG, CIMM, CMEM, CLABEL, CADDR };

typedef struct Fn Fn;
typedef struct Target Target;
typedef struct Opnd Opnd;

/* An assembler dialect: text with {0}, {1} standing for the arguments
 * named in each field's comment (see put() in emit.c). */
typedef struct Dialect {
	const char *comment;     /* line comment prefix */
	const char *header;      /* after the first line; {0} source file */
	const char *funchead;    /* {0} function symbol */
	const char *functail;    /* {0} function symbol */
	const char *loclabel;    /* {0} function, {1} label */
	const char *line;        /* {0} source file, {1} line number */
	const char *rodata;      /* section for constants */
	const char *align64;     /* 64-byte alignment */
	const char *loopalign;   /* before a loop's first block (long no-ops), or NULL */
	const char *label;       /* {0} symbol */
	const char *escape;      /* {0} a symbol spelled like a register, or NULL */
	const char *trailer;
	const char *external;    /* declares {0}, data defined elsewhere, or NULL */
	const char *data[4];     /* 8, 16, 32, 64-bit data directive */
} Dialect;
extern const Dialect D_nasm, D_nasm32, D_gas, D_gasppc64, D_gassparc;

struct Target {
	const char *name;
	const char *md;          /* machine description text */
	const Dialect *dialect;
	const Class *cls;
	int ncls;
	int nreg[MAXFILE];
	const char *const *regname[MAXFILE]; /* by view index, see regview() */
	const int *order[MAXFILE];           /* allocation preference */
	u64 callee[MAXFILE];                 /* callee-saved registers */
	u64 regext[MAXFILE];                 /* registers needing an extension */
	u64 regextbit;                       /* ... that extension */
	const char *const *extname;          /* extension names, bit order */
	const u64 *implies;                  /* per extension: what it implies */
	u64 baseext;                         /* always enabled */
	int addrtype;                        /* type of address registers */
	int bigendian;
	int destlast;                        /* template instructions write their last operand (SPARC) */
	const unsigned *condflags;           /* flag groups per condition, NULL: x86-like */
	int spbytes;                         /* pointer size */
	/* the ABI: where input i of type t arrives (register or NOREG =
	 * stack), and the return register */
	int (*argreg)(int i, int type);
	int retreg;
	const char *(*regview)(int file, int reg, int bits);
	void (*memfmt)(FILE *f, Fn *fn, const Opnd *o);
	void (*prologue)(FILE *f, Fn *fn);
	void (*epilogue)(FILE *f, Fn *fn);
	void (*layout)(Fn *fn);    /* frame layout */
};

/* ---------- the IR after selection ---------- */
enum OpndKind { ONONE, OTMP, OIMM, OMEM, OLAB };
enum MemBase { MBREG, MBSTACK, MBSPILL, MBSYM, MBARG };
struct Opnd {
	/* compact: a long block holds millions of these */
	signed char kind;
	signed char mkind; /* OMEM: MemBase */
	signed char scale; /* OMEM */
	signed char addr;  /* OMEM, MBSTACK: the address itself (lea) */
	union {           /* one of them, by kind (24 bytes) */
		int tmp;      /* OTMP */
		int lab;      /* OLAB */
		int obj;      /* OMEM, MBSTACK: var, MBSPILL: slot, MBSYM: const, MBARG: arg index */
	};
	int base, index;  /* OMEM: temps or -1 (MBREG) */
	union {
		i64 imm;      /* OIMM */
		i64 disp;     /* OMEM */
	};
};

enum { KSPLIT = 256 };   /* Ins.keep: a live-range split copy (split.c), never coalesced */
/* An instruction's operands are out of line, md->nop of them (ir.c
 * newops(): the function's operand stream, freed with the function): a
 * long block holds millions of instructions, most with two or three
 * operands, and MAXOP inline made an instruction 160 bytes, a third of
 * a straight-line translation's memory touched.  Copying an Ins shares
 * its operands (a pass that moves instructions moves the pointer); a
 * copy to be changed apart from the original takes newops() first. */
typedef struct Ins {
	const MdLine *md;
	Opnd *op;
	int stmt;         /* index of the source statement, -1 for spill code */
	int keep;         /* flag groups the source asked to keep; KSPLIT */
} Ins;

typedef struct Blk {
	Ins *ins;
	int nins, cap;
	int succ[2];      /* -1 none */
	int label;        /* label starting it, or -1 */
	int depth;        /* loop depth */
	u64 *in, *out;    /* live temps (bitsets) */
} Blk;

typedef struct Tmp {
	int var;          /* source variable, or -1 */
	int type;
	int file;
	u64 mask;         /* allowed registers */
	int fixed;        /* register it must be in, or NOREG */
	int reg;          /* result of allocation */
	int slot;         /* spill slot or -1 */
	int home;         /* 1 + a spill slot that holds this value wherever it is live (a
	                   * reload, or a definition stored at once), or 0 */
	int nospill;
	int inmem;        /* a piece split.c put in memory: spilled to its slot without colouring */
	double cost;
} Tmp;

typedef struct Slot { int size, align, off; } Slot;

/* ---------- the interference graph (ir.c; coalesce.c builds it, alloc.c colours it) ---------- */
typedef struct Graph {
	int n;
	int **adj;        /* neighbours, for representatives only */
	int *nadj, *cadj;
	int *alias;       /* union-find: coalesced temps */
	int (*mv)[2];     /* move instructions: dst, src */
	int nmv, cmv;
	double *wmv;      /* move weights */
	char *mvsplit;    /* the move is a split copy: not merged */
	void *mem;        /* the adjacency lists' memory (ir.c) */
} Graph;


struct Fn {
	char *name;
	Pos pos;
	Stmt *stmt;
	int nstmt;
	Label *lab;
	int nlab;
	int *input;       /* variables */
	int ninput;
	int output;       /* variable or -1 */
	char *secretval;  /* per variable: its value at entry is secret */
	char *secretmem;  /* per variable: memory read through it is secret */
	u64 ext;          /* extensions enabled for the function */
	u64 used_ext;     /* extensions its instructions need */
	/* IR */
	Blk *blk;
	int nblk, blkcap;
	Tmp *tmp;
	int ntmp, tmpcap;
	int *vartmp;      /* variable -> temp */
	Pos *spos;        /* per statement, its position (Stmt.pos: the statements
	                   * themselves are freed after selection) */
	Slot *slot;
	int nslot;
	int round;        /* allocation round */
	Graph *graph;     /* interference graph of the last coalescing (ir.c) */
	/* frame (filled by layout) */
	int framesize;
	int *varoff;      /* stack variable offsets */
	u64 usedregs[MAXFILE];
	int pushes;
	int realign;      /* bytes, when rsp must be re-aligned */
	int saved_sp_off;
	int wide_vec;     /* uses 256/512-bit registers */
};

/* ---------- util.c ---------- */
extern const char *infile;
extern const char *outtmp;
extern void *errjmp;          /* a jmp_buf: err() returns there instead of exiting */
extern int errquiet;          /* err() prints nothing */
extern char **srcline;
extern int nsrcline;
void err(Pos p, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void trimheap(void);            /* return freed memory to the system, where the C library can */
void *alloc(size_t n);          /* from the per-function arena */
void freeall(void);             /* free the arena (and the round arena) */
void *ralloc(size_t n);         /* from the round arena (one pass's scratch) */
void freeround(void);           /* free the round arena */
void *falloc(size_t n);         /* from the file arena */
void ffreeall(void);
extern unsigned fepoch;         /* counts ffreeall() calls (caches keyed by interned strings) */
char *fstrndup(const char *s, size_t n);
char *fintern(const char *s, size_t n);   /* shared copy, in the file arena */
enum { STOK, SOPS, NSTREAM };   /* stream arenas: SINS statements' tokens, statements' operands */
void *opalloc(size_t n);        /* instructions' operands: with the function, freed by freeall() */
void *salloc(int st, size_t n);           /* from stream st, released in allocation order */
void srelease(int st, const void *p);     /* free stream st's chunks older than the one holding p */
void sfree(int st);                       /* free all of stream st */
#define GROW(p, n, cap) do { if ((n) >= (cap)) { (cap) = (cap) ? 2 * (cap) : 8; \
	(p) = xrealloc((p), (cap) * sizeof *(p)); } } while (0)
u64 *bsnew(int n);
int bswords(int n);
unsigned strhash(const char *s);
static inline int bshas(const u64 *b, int i) { return (b[i >> 6] >> (i & 63)) & 1; }
static inline void bsset(u64 *b, int i) { b[i >> 6] |= 1ull << (i & 63); }
static inline void bsclr(u64 *b, int i) { b[i >> 6] &= ~(1ull << (i & 63)); }
static inline int popcnt(u64 x) { return __builtin_popcountll(x); }
static inline int ctz(u64 x) { return __builtin_ctzll(x); }
const char *typename(int t);
int typebits(int t);
int typefile(int t);
int isstack(int t);

u64 extclose(const Target *t, u64 e);

/* ---------- lex.c ---------- */
Tok *lex(const char *line, int lineno, int *ntok);      /* a new array, the caller's */
Tok *lexline(const char *line, int lineno, int *ntok);  /* a scratch array, until the next call */
int isreserved(const char *s);
size_t tokpacksize(int n);                              /* n tokens and the KEND after them, packed */
void tokpack(void *dst, const Tok *t, int n);
Tok *tokunpack(const void *src, int n, int line);        /* a scratch array, until the next call */

/* ---------- md.c ---------- */
extern MdLine *md;
extern int nmd;
extern unsigned mdepoch;        /* counts mdload() calls that load a description */
void mdload(const Target *t);
int findreg(const Target *t, const char *name, int *file);
const MdLine **mdlookup(const char *shape, int *n);
int mdok(const MdLine *m, u64 ext);
const MdLine *mdmemform(const Target *t, u64 ext, const MdLine *m, int k, int bits, int *k2);
void canon(Tok *t, int n, Tok **out, int *nout);
char *shapeof(Tok *t, int n, int (*isopnd)(Tok *, int, int, void *), void *arg, int *nslot);

/* ---------- parse.c ---------- */
extern Var *vars;
extern int nvars;
extern Const *consts;
extern int nconsts;
extern Fn **fns;
extern int nfns;
int findvar(const char *name);
int findconst(const char *name);
int condbyname(const char *s);
extern const char *condname[];
extern const unsigned condflags[];
unsigned condfl(const Target *t, int cond);
char *readfile(const char *path, size_t *len);  /* the whole file, NUL-terminated; exits if unreadable */
void parse(const char *file, const Target *t);
void parsebuf(const char *name, char *text, size_t len, const Target *t);
void parsereset(void);
void parselines(char **text, const int *lineno, const int *col, int nline, const Target *t);

/* ---------- djb.c: front end for D. J. Bernstein's qhasm dialects ---------- */
enum { DQ, DQHASM2007, DQHASM, DAUTO };   /* ours, djb's 2007 and later dialects */
extern const char *dialectname[];
extern const char *djbnamespace;          /* CRYPTO_NAMESPACE(x) becomes NS_x */
extern int undefok;      /* djb code may read a variable set on some paths only (garbage, as in djb's qhasm) */
int djbdetect(const char *path, char **text, size_t *len);  /* the dialect; the file's text in *text */
void djbparse(const char *path, int dialect, const Target *t);

/* ---------- check.c ---------- */
void check(Fn *fn, const Target *t);

/* ---------- select.c ---------- */
u64 filemask(int file, u64 ext);   /* allocatable registers (needs the Target set by selectfn) */
const MdLine *findmove(const Target *t, Fn *fn, int type, int kind);
void selectfn(Fn *fn, const Target *t);
enum { MVREG, MVLOAD, MVSTORE };

/* ---------- taint.c ---------- */
void taint(Fn *fn, const Target *t);

/* ---------- webs.c ---------- */
void webs(Fn *fn, const Target *t);

/* ---------- live.c ---------- */
/* operand k of i is a temporary it reads, writes (inline: every pass
 * asks for every operand) */
static inline int opreads(const Ins *i, int k)
{
	return k < i->md->nop && i->op[k].kind == OTMP && (i->md->op[k].acc & AR);
}
static inline int opwrites(const Ins *i, int k)
{
	return k < i->md->nop && i->op[k].kind == OTMP && (i->md->op[k].acc & (AW | ASCR));
}
void live(Fn *fn);
void loopdepth(Fn *fn);

/* ---------- ir.c ---------- */
int newtmp(Fn *fn, int var, int type, int file);
Ins *addins(Fn *fn, int b, const MdLine *m);  /* statement -1 */
Ins *pushins(Fn *fn, int b, const Ins *x);    /* x at the end of block b, its operands with it */
Opnd *newops(int n);                          /* n empty operands (no base, no index) */
int newblk(Fn *fn);
void freefn(Fn *fn);
void copyir(Fn *dst, const Fn *src);
void freeir(Fn *fn);
double spillcost(const Fn *fn);
Graph *newgraph(int n);
void freegraph(Graph *g);
int rep(Graph *g, int t);                 /* the representative of a coalesced temporary */
int hasedge(const Graph *g, int a, int b);
void addedge(Graph *g, int a, int b);
void addnewedge(Graph *g, int a, int b);  /* an edge known to be absent */

/* ---------- coalesce.c ---------- */
void coalesce(Fn *fn, const Target *t);

/* ---------- alloc.c ---------- */
int regalloc(Fn *fn, const Target *t);   /* 1 = done, 0 = spill code added */
int fnslot(Fn *fn, int bytes);           /* a new spill slot */

/* ---------- split.c ---------- */
int split(Fn *fn, const Target *t, int inbody); /* inbody: also by furthest next use in loop bodies; returns 1 if that split */

/* ---------- spillopt.c ---------- */
void spillopt(Fn *fn, const Target *t);

/* ---------- frame.c ---------- */
void frame(Fn *fn, const Target *t);

/* ---------- emit.c ---------- */
extern const char *symrename;   /* OLD=NEW for global symbols (--rename) */
void emitfile(FILE *f, const Target *t);
void emitfn(FILE *f, Fn *fn, const Target *t);
void emitconsts(FILE *f, const Target *t);
void emitend(FILE *f, const Target *t);

/* ---------- dump.c ---------- */
void dump(FILE *f, Fn *fn, const Target *t, int stage);

/* ---------- model.c: microarchitecture models ---------- */
enum { MAXUNIT = 32 };
enum { MAXCLS = 64 };   /* classes per model */
typedef struct UClass {
	char *name;
	int lat;          /* cycles until the result can be used */
	u64 units;        /* units it may issue to */
	int slots;        /* cycles it occupies its unit */
	int estimate;     /* the numbers are an estimate, not measured */
} UClass;
typedef struct Model {
	char *name, *target, *source;
	int issue;        /* instructions issued per cycle */
	int window;       /* out-of-order lookahead in instructions (0: in order) */
	int rob;          /* reorder-buffer entries (0: unknown) */
	int nunit;
	char *unit[MAXUNIT];
	UClass *cls;
	int ncls;
	int dflt;         /* class used for unknown class names */
	int allorders;    /* `orders all`: also try the other models' schedules (schedule_pick.c) */
} Model;
extern const char *const qhasm_models[];  /* embedded model texts (build/md.c) */
const Model *modelload(const char *nameorpath, const Target *t);
const Model *modelnamed(int i, const Target *t);   /* embedded model i, if for t */
int modelclass(const Model *m, const char *name);
int insops(const Model *m, const Fn *fn, const Ins *x, int *cls, int max);
int insslots(const Fn *fn, const Ins *x);       /* its issue slots, fused (cost report) */
void modelcheck(const Model *m, const Target *t, const char *origin);

/* ---------- latency.c ---------- */
enum { LFLAGS = MAXOP };  /* the flags' row and column of inslats() */
void inslats(const Model *m, const Target *t, const Fn *fn, const Ins *x, int lat[MAXOP + 1][MAXOP + 1]);
int inslatmax(const Model *m, const Target *t, const Fn *fn, const Ins *x);

/* ---------- schedule.c ---------- */
typedef struct BStat {
	int ops[64];      /* instructions per model class */
	int nops;
	int ctl[64];      /* of which loop control (induction and branch) */
	int critical;     /* longest dependence chain, cycles */
	int length;       /* list-schedule length, cycles */
} BStat;
void schedule(Fn *fn, const Target *t, const Model *m);
void postschedule(Fn *fn, const Target *t, const Model *m);
void blockstat(Fn *fn, int b, const Target *t, const Model *m, BStat *st);
int blocktime(Fn *fn, int b, const Target *t, const Model *m);
/* ---------- schedule_pick.c ---------- */
void schedulepick(Fn *fn, const Target *t, const Model *m,
                  void (*alloc)(Fn *fn, const Target *t, const Fn *unsched));

/* ---------- chain.c ---------- */
typedef struct Chains {
	int linear;       /* one path per iteration (else no recurrence bound) */
	int carried;      /* values carried around the loop */
	double recurrence;/* longest carried cycle, cycles per iteration */
	int critical;     /* one iteration, everything ready at its start */
	int criticalrun;  /* a counted loop's whole run (0: not computed) */
	int body;         /* instructions per iteration */
} Chains;
void chains(Fn *fn, const Target *t, const Model *m, int s, int b, const char *skip, long trip, Chains *c);
int callchain(Fn *fn, const Target *t, const Model *m, int (*lp)[2], int nl, const long *trip, const char *every);

/* ---------- report.c ---------- */
void report(FILE *f, Fn *fn, const Target *t, const Model *m);   /* m may be NULL */
void spillreport(FILE *f, Fn *fn);

/* ---------- targets ---------- */
extern const Target T_amd64, T_x86, T_ppc32, T_ppc64, T_sparc64;


