/* dump.c: prints a function's state after a pass, for `qhasm -d LETTERS`:
 * P parse (statements), C check (shapes), S select, L live, O coalesce,
 * A alloc, F frame.  Each instruction ends with `#mdN`, the line of the
 * machine description it came from (gen/qdiff.py counts them for coverage). */
#include "all.h"

static void tmpname(FILE *f, Fn *fn, int t, int stage)
{
	const Tmp *x = &fn->tmp[t];
	if (x->var >= 0)
		fprintf(f, "%%%s.%d", vars[x->var].name, t);
	else
		fprintf(f, "%%t%d", t);
	if (x->fixed != NOREG)
		fprintf(f, "@%d", x->fixed);
	if (stage == 'A' || stage == 'F')
		fprintf(f, "=r%d", x->reg);
}

static void opnd(FILE *f, Fn *fn, const Opnd *o, int stage)
{
	switch (o->kind) {
	case OTMP:
		tmpname(f, fn, o->tmp, stage);
		break;
	case OIMM:
		fprintf(f, "%lld", o->imm);
		break;
	case OLAB:
		fprintf(f, "%s", fn->lab[o->lab].name);
		break;
	case OMEM:
		fprintf(f, "[");
		if (o->mkind == MBREG) {
			if (o->base >= 0)
				tmpname(f, fn, o->base, stage);
			if (o->index >= 0) {
				fprintf(f, "+");
				tmpname(f, fn, o->index, stage);
				fprintf(f, "*%d", o->scale);
			}
			fprintf(f, "%+lld", o->disp);
		} else if (o->mkind == MBSTACK)
			fprintf(f, "%s%s", o->addr ? "&" : "", vars[o->obj].name);
		else if (o->mkind == MBSPILL)
			fprintf(f, "spill%d", o->obj);
		else if (o->mkind == MBSYM)
			fprintf(f, "%s%+lld", consts[o->obj].name, o->disp);
		else
			fprintf(f, "arg%d", o->obj);
		fprintf(f, "]");
		break;
	}
}

static void bits(FILE *f, Fn *fn, const u64 *b, int stage)
{
	for (int t = 0; t < fn->ntmp; t++)
		if (bshas(b, t)) {
			fputc(' ', f);
			tmpname(f, fn, t, stage);
		}
}

void dump(FILE *f, Fn *fn, const Target *t, int stage)
{
	(void)t;
	fprintf(f, "## after %c: function %s\n", stage, fn->name);
	if (stage == 'P' || stage == 'C') {
		for (int i = 0; i < fn->nstmt; i++) {
			const Stmt *s = &fn->stmt[i];
			fprintf(f, "%d:%d kind %d", s->pos.line, s->pos.col, s->kind);
			if (s->cond >= 0)
				fprintf(f, " keep %s", condname[s->cond]);
			if (stage == 'C' && s->shape)
				fprintf(f, " shape [%s] %d operands", s->shape, s->nop);
			else {
				const Tok *k = s->kind == SINS ? tokunpack(s->ptok, s->ntok, s->line) : s->tok;
				for (int i = 0; i < s->ntok; i++)
					fprintf(f, " %s", k[i].s);
			}
			fprintf(f, "\n");
		}
		return;
	}
	for (int b = 0; b < fn->nblk; b++) {
		Blk *bl = &fn->blk[b];
		fprintf(f, "@b%d%s%s depth %d -> %d %d\n", b, bl->label >= 0 ? " " : "",
			bl->label >= 0 ? fn->lab[bl->label].name : "", bl->depth, bl->succ[0], bl->succ[1]);
		if (bl->in && stage != 'S') {
			fprintf(f, "\tlive in:");
			bits(f, fn, bl->in, stage);
			fprintf(f, "\n");
		}
		for (int i = 0; i < bl->nins; i++) {
			const Ins *x = &bl->ins[i];
			fprintf(f, "\t%-24s", x->md->pattern);
			for (int k = 0; k < x->md->nop; k++) {
				fprintf(f, " %c=", x->md->op[k].name ? x->md->op[k].name : '_');
				opnd(f, fn, &x->op[k], stage);
			}
			if (x->md->lineno)
				fprintf(f, " #md%d", x->md->lineno); /* machine-description line (coverage) */
			fprintf(f, "\n");
		}
		if (bl->out && stage != 'S') {
			fprintf(f, "\tlive out:");
			bits(f, fn, bl->out, stage);
			fprintf(f, "\n");
		}
	}
	if (stage == 'O' && fn->graph)
		for (int i = 0; i < fn->ntmp && i < fn->graph->n; i++)
			if (rep(fn->graph, i) != i) {
				fprintf(f, "coalesced ");
				tmpname(f, fn, i, stage);
				fprintf(f, " into ");
				tmpname(f, fn, rep(fn->graph, i), stage);
				fprintf(f, "\n");
			}
	if (stage == 'F')
		fprintf(f, "frame %d bytes, %d pushes, realign %d, %d spill slots\n", fn->framesize, fn->pushes,
			fn->realign, fn->nslot);
}
