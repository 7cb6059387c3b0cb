/* ppc/target.c: the PowerPC Targets.  ppc32: SysV ABI, 32-bit registers,
 * arguments in r3-r10, result in r3, r14-r31 (and v20-v31) callee-saved,
 * frame made by stwu with a back chain.  ppc64: ELFv1 (function
 * descriptors in .opd, see D_gasppc64), 64-bit registers, a 112-byte frame
 * header.  r0 (reads as zero in addresses), r1 (stack), r2 (TOC / system)
 * and r13 (thread / small data) are never allocated; r0 is the prologue's
 * scratch.  Big-endian: little-endian data is loaded with lwbrx (memNle). */
#include "../all.h"
#include "ppc.h"

static char names[2][32][6];

static const char *regview(int file, int reg, int bits)
{
	(void)bits;
	if (reg < 0 || reg >= 32 || (file != FGPR && file != FVEC))
		return NULL;
	char *n = names[file == FVEC][reg];
	if (!n[0])
		snprintf(n, 6, "%%%c%d", file == FVEC ? 'v' : 'r', reg);
	return n;
}

/* volatile registers first, so non-volatile ones are saved only when needed */
static const int gorder[] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21,
	20, 19, 18, 17, 16, 15, 14, 0, 1, 2, 13};
static const int vorder[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
static const char *const ext[] = {"altivec", "ppc64", 0};
static const u64 implies[] = {0, 0, 0};

#define GALL (0xffffffffull & ~(1ull << 0 | 1ull << 1 | 1ull << 2 | 1ull << 13))
#define GCALLEE 0xffffc000ull /* r14-r31 */
#define VCALLEE 0xfff00000ull /* v20-v31 */
#define T(x) (1u << (x))
#define CLASSES(INT) \
	CLSREG("int32", FGPR, T(TINT32), GALL, 32), \
	CLSREG("reg128", FVEC, T(TREG128), 0xffffffffull, 128), \
	CLSIMM("imm16", -32768, 32767), \
	CLSIMM("nimm16", -32767, 32768), \
	CLSIMM("uimm16", 0, 65535), \
	CLSIMM("imm32", INT32_MIN, INT32_MAX), \
	CLSIMM("uimm32", 0, UINT32_MAX), \
	CLSIMM("imm64", INT64_MIN, INT64_MAX), \
	CLSIMM("sh5", 0, 31), \
	CLSIMM("rot5", 1, 31), \
	CLSIMM("sh6", 0, 63), \
	CLSIMM("rot6", 1, 63), \
	CLSIMM("vrot4", 1, 15), \
	CLSIMM("vrot5hi", 16, 31), \
	CLSIMM("imm5s", -16, 15), \
	CLSIMM("lane2", 0, 3), \
	CLSIMM("uimm4", 0, 15), /* vsldoi: a 4-bit byte count */ \
	CLSIMM("lane3", 0, 7), \
	CLSMEM("mem8", 8, MDISP, -32768, 32767, 0), \
	CLSMEM("mem16", 16, MDISP, -32768, 32767, 0), \
	CLSMEM("mem32", 32, MDISP, -32768, 32767, 0), \
	CLSMEM("mem64", 64, MDISP4, -32768, 32764, 0), \
	CLSMEM("mem8x", 8, MINDEX, 0, 0, 0), \
	CLSMEM("mem16x", 16, MINDEX, 0, 0, 0), \
	CLSMEM("mem32x", 32, MINDEX, 0, 0, 0), \
	CLSMEM("mem64x", 64, MINDEX, 0, 0, 0), \
	CLSMEM("mem16le", 16, MINDEX, 0, 0, 'l'), \
	CLSMEM("mem16leb", 16, MBASE, 0, 0, 'l'), \
	CLSMEM("mem16led", 16, MDISP, -32768, 32767, 'l'), \
	CLSMEM("mem32le", 32, MINDEX, 0, 0, 'l'), \
	CLSMEM("mem32leb", 32, MBASE, 0, 0, 'l'), \
	CLSMEM("mem32led", 32, MDISP, -32768, 32767, 'l'), \
	CLSMEM("mem128x", 128, MINDEX, 0, 0, 0), \
	CLSMEM("mem128b", 128, MBASE, 0, 0, 0), \
	CLSMEM("mem128d", 128, MDISP, -32768, 32767, 0), \
	CLSADDR("stack", T(TSTACK32) | T(TSTACK64) | T(TSTACK128) | T(TSTACK256) | T(TSTACK512)), \
	CLSLABEL("label"), \
	CLSREG("int64", FGPR, T(INT), GALL, 64)

static const Class classes32[] = {CLASSES(TINT32)};
static const Class classes64[] = {CLASSES(TINT64)};

/* compares set cr0 (group Z); the carry is XER[CA] (group C) */
static const unsigned ppcflags[] = {FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLZ, FLC, FLC, FLO, FLO};

static int argreg32(int i, int type)
{
	if (type != TINT32)
		return -2;
	return i < 8 ? 3 + i : -3;
}

static int argreg64(int i, int type)
{
	if (type != TINT64 && type != TINT32)
		return -2;
	return i < 8 ? 3 + i : -3;
}

static void memfmt(FILE *f, Fn *fn, const Opnd *o)
{
	switch (o->mkind) {
	case MBREG:
		if (o->index >= 0)
			fprintf(f, "%s,%s", regview(FGPR, fn->tmp[o->base].reg, 0), regview(FGPR, fn->tmp[o->index].reg, 0));
		else
			fprintf(f, "%lld(%s)", o->disp, regview(FGPR, fn->tmp[o->base].reg, 0));
		return;
	case MBSTACK:
		fprintf(f, "%lld(%%r1)", fn->varoff[o->obj] + o->disp);
		return;
	case MBSPILL:
		fprintf(f, "%d(%%r1)", fn->slot[o->obj].off);
		return;
	}
	die("ppc: memory operand kind %d", o->mkind);
}

/* frame: [header][locals][saved vector regs][saved GPRs]; the header is
 * 8 bytes, padded to 16 (ppc32: back chain, LR save word) or 112 (ppc64 ELFv1) */
static void layout(Fn *fn, int is64)
{
	int hdr = is64 ? 112 : 16, w = is64 ? 8 : 4; /* locals 16-byte aligned (lvx/stvx) */
	int ngpr = popcnt(fn->usedregs[FGPR] & GCALLEE), nvec = popcnt(fn->usedregs[FVEC] & VCALLEE);
	fn->pushes = ngpr;
	fn->saved_sp_off = hdr;
	if (!fn->framesize && !ngpr && !nvec) {
		fn->realign = 0;
		return;
	}
	/* locals sit above the header */
	for (int i = 0; i < fn->nslot; i++)
		fn->slot[i].off += hdr;
	for (int v = 0; v < nvars; v++)
		if (fn->varoff[v] >= 0)
			fn->varoff[v] += hdr;
	int size = hdr + fn->framesize;
	size = (size + 15) & -16;
	fn->realign = size; /* where the saved vector registers start */
	size += 16 * nvec + w * ngpr;
	fn->framesize = (size + 15) & -16;
}

static void layout32(Fn *fn) { layout(fn, 0); }
static void layout64(Fn *fn) { layout(fn, 1); }

static void saves(FILE *f, Fn *fn, int is64, int store)
{
	int w = is64 ? 8 : 4, off = fn->realign + 16 * popcnt(fn->usedregs[FVEC] & VCALLEE);
	for (int v = 20; v < 32; v++)
		if (fn->usedregs[FVEC] >> v & 1) {
			int at = fn->realign + 16 * popcnt(fn->usedregs[FVEC] & VCALLEE & ((1ull << v) - 1));
			fprintf(f, "\tli %%r0, %d\n\t%s %%v%d, %%r1, %%r0\n", at, store ? "stvx" : "lvx", v);
		}
	for (int r = 14; r < 32; r++)
		if (fn->usedregs[FGPR] >> r & 1) {
			fprintf(f, "\t%s %%r%d, %d(%%r1)\n", store ? (is64 ? "std" : "stw") : (is64 ? "ld" : "lwz"), r, off);
			off += w;
		}
}

static void prologue(FILE *f, Fn *fn, int is64)
{
	if (!fn->framesize)
		return;
	fprintf(f, "\t%s %%r1, -%d(%%r1)\n", is64 ? "stdu" : "stwu", fn->framesize);
	saves(f, fn, is64, 1);
}

static void epilogue(FILE *f, Fn *fn, int is64)
{
	if (fn->framesize) {
		saves(f, fn, is64, 0);
		fprintf(f, "\taddi %%r1, %%r1, %d\n", fn->framesize);
	}
	fprintf(f, "\tblr\n");
}

static void prologue32(FILE *f, Fn *fn) { prologue(f, fn, 0); }
static void prologue64(FILE *f, Fn *fn) { prologue(f, fn, 1); }
static void epilogue32(FILE *f, Fn *fn) { epilogue(f, fn, 0); }
static void epilogue64(FILE *f, Fn *fn) { epilogue(f, fn, 1); }

const Target T_ppc32 = {
	.name = "ppc32",
	.md = ppc32_md,
	.dialect = &D_gas,
	.cls = classes32,
	.ncls = sizeof classes32 / sizeof classes32[0],
	.nreg = {32, 32, 0},
	.order = {gorder, vorder, NULL},
	.callee = {GCALLEE, VCALLEE, 0},
	.extname = ext,
	.implies = implies,
	.baseext = 0,
	.addrtype = TINT32,
	.bigendian = 1,
	.condflags = ppcflags,
	.spbytes = 4,
	.argreg = argreg32,
	.retreg = 3,
	.regview = regview,
	.memfmt = memfmt,
	.prologue = prologue32,
	.epilogue = epilogue32,
	.layout = layout32,
};

const Target T_ppc64 = {
	.name = "ppc64",
	.md = ppc64_md,
	.dialect = &D_gasppc64,
	.cls = classes64,
	.ncls = sizeof classes64 / sizeof classes64[0],
	.nreg = {32, 32, 0},
	.order = {gorder, vorder, NULL},
	.callee = {GCALLEE, VCALLEE, 0},
	.extname = ext,
	.implies = implies,
	.baseext = 1ull << PPC64,
	.addrtype = TINT64,
	.bigendian = 1,
	.condflags = ppcflags,
	.spbytes = 8,
	.argreg = argreg64,
	.retreg = 3,
	.regview = regview,
	.memfmt = memfmt,
	.prologue = prologue64,
	.epilogue = epilogue64,
	.layout = layout64,
};
