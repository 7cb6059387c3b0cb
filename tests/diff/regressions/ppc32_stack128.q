#! target ppc32
# found by gen/qdiff.py: a stack128 variable (or a spilled reg128) on AltiVec
# made the translator abort ("internal error: line 96: address has no base"):
# lvx/stvx templates take the address apart with {m:base}/{m:disp}, which
# emit.c did not know for stack operands.  Fixed in qhasm/emit.c (stackpart).
cpu altivec
int32 p q rv
reg128 v w
stack128 s
enter fr_0
input p q
v = mem128[p + 16]
s = v
w = mem128[p + 32]
v = s
mem128[q + 0] = v
mem128[q + 16] = w
rv = 7
output rv
leave
