/* sparc/target.c: the sparc64 Target (SPARC V9 / UltraSPARC, 64-bit ABI).
 * Every function opens a register window (`save`), so %l0-%l7 and
 * %i0-%i5 are free to use and the caller's registers need no saving;
 * arguments arrive in %i0-%i5 and the result leaves in %i0.  %o0-%o5,
 * %o7, %g1, %g4 and %g5 are usable too (no calls are made).  The stack
 * pointer is biased by 2047; locals are addressed from %fp.  Branch delay
 * slots hold a nop.  Big-endian: little-endian data through
 * ASI_PRIMARY_LITTLE (memNle). */
#include "../all.h"
#include "sparc.h"

static char names[32][6];

static const char *regview(int file, int reg, int bits)
{
	(void)bits;
	if (file != FGPR || reg < 0 || reg >= 32)
		return NULL;
	if (!names[reg][0])
		snprintf(names[reg], 6, "%%%c%d", "goli"[reg / 8], reg % 8);
	return names[reg];
}

/* %o first, then %l, %i, and the globals */
static const int gorder[] = {8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
	1, 4, 5, 0, 2, 3, 6, 7, 14, 30, 31};
static const char *const ext[] = {"vis", 0};
static const u64 implies[] = {0, 0};

#define GALL (0x3fffbfull << 8 | 1ull << 1 | 1ull << 4 | 1ull << 5)
#define T(x) (1u << (x))
static const Class classes[] = {
	CLSREG("int64", FGPR, T(TINT64), GALL, 64),
	CLSREG("int32", FGPR, T(TINT32), GALL, 32),
	CLSIMM("simm13", -4096, 4095),
	CLSIMM("nsimm13", -4095, 4096),
	CLSIMM("uimm32", 0, UINT32_MAX),
	CLSIMM("imm64", INT64_MIN, INT64_MAX),
	CLSIMM("sh5", 0, 31),
	CLSIMM("rot5", 1, 31),
	CLSIMM("sh6", 0, 63),
	CLSIMM("rot6", 1, 63),
	CLSMEM("mem8", 8, MDISP, -4096, 4095, 0),
	CLSMEM("mem16", 16, MDISP, -4096, 4095, 0),
	CLSMEM("mem32", 32, MDISP, -4096, 4095, 0),
	CLSMEM("mem64", 64, MDISP, -4096, 4095, 0),
	CLSMEM("mem8x", 8, MINDEX, 0, 0, 0),
	CLSMEM("mem16x", 16, MINDEX, 0, 0, 0),
	CLSMEM("mem32x", 32, MINDEX, 0, 0, 0),
	CLSMEM("mem64x", 64, MINDEX, 0, 0, 0),
	CLSMEM("mem32le", 32, MINDEX, 0, 0, 'l'),
	CLSMEM("mem32leb", 32, MBASE, 0, 0, 'l'),
	CLSMEM("mem32led", 32, MDISP, -4096, 4095, 'l'),
	CLSMEM("mem64le", 64, MINDEX, 0, 0, 'l'),
	CLSMEM("mem64leb", 64, MBASE, 0, 0, 'l'),
	CLSMEM("mem64led", 64, MDISP, -4096, 4095, 'l'),
	CLSADDR("stack", T(TSTACK32) | T(TSTACK64) | T(TSTACK128) | T(TSTACK256) | T(TSTACK512)),
	CLSLABEL("label"),
};

/* compares set the condition codes (group Z); addcc's carry is group C */
static const unsigned sparcflags[] = {FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLC, FLC, FLO, FLO};

static int argreg(int i, int type)
{
	if (type != TINT64 && type != TINT32)
		return -2;
	return i < 6 ? 24 + i : -3;
}

enum { BIAS = 2047, MINFRAME = 176 };

/* locals: [%fp + BIAS - L, %fp + BIAS) with L the aligned locals size */
static void memfmt(FILE *f, Fn *fn, const Opnd *o)
{
	int base = BIAS - fn->realign;
	switch (o->mkind) {
	case MBREG:
		if (o->index >= 0)
			fprintf(f, "[%s + %s]", regview(FGPR, fn->tmp[o->base].reg, 0), regview(FGPR, fn->tmp[o->index].reg, 0));
		else if (o->disp)
			fprintf(f, "[%s %c %lld]", regview(FGPR, fn->tmp[o->base].reg, 0), o->disp < 0 ? '-' : '+',
				o->disp < 0 ? -o->disp : o->disp);
		else
			fprintf(f, "[%s]", regview(FGPR, fn->tmp[o->base].reg, 0));
		return;
	case MBSTACK:
		/* an address operand (`p = &buf`): the register and offset to add */
		fprintf(f, o->addr ? "%%fp, %lld" : "[%%fp + %lld]", (long long)(base + fn->varoff[o->obj] + o->disp));
		return;
	case MBSPILL:
		fprintf(f, "[%%fp + %d]", base + fn->slot[o->obj].off);
		return;
	}
	die("sparc64: memory operand kind %d", o->mkind);
}

static void layout(Fn *fn)
{
	int l = (fn->framesize + 15) & -16;
	if (BIAS - l < -4096)
		die("sparc64: frame of %d bytes is too large", l);
	fn->realign = l;
	fn->framesize = MINFRAME + l;
}

static void prologue(FILE *f, Fn *fn)
{
	fprintf(f, "\tsave %%sp, -%d, %%sp\n", fn->framesize);
}

static void epilogue(FILE *f, Fn *fn)
{
	(void)fn;
	fprintf(f, "\tret\n\trestore\n");
}

const Target T_sparc64 = {
	.name = "sparc64",
	.md = sparc64_md,
	.dialect = &D_gassparc,
	.cls = classes,
	.ncls = sizeof classes / sizeof classes[0],
	.nreg = {32, 0, 0},
	.order = {gorder, NULL, NULL},
	.callee = {0, 0, 0},
	.extname = ext,
	.implies = implies,
	.baseext = 0,
	.addrtype = TINT64,
	.bigendian = 1,
	.destlast = 1,
	.condflags = sparcflags,
	.spbytes = 8,
	.argreg = argreg,
	.retreg = 24,
	.regview = regview,
	.memfmt = memfmt,
	.prologue = prologue,
	.epilogue = epilogue,
	.layout = layout,
};
