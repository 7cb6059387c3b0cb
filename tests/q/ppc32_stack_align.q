# ppc32: stack arrays are 16-byte aligned (AltiVec ignores the low address bits).
#! target ppc32
#! contains la %r3, 16(%r1)
cpu altivec
int32 p
reg128 v
stack128 buf[2]
enter f
p = &buf
v = mem128[p]
mem128[p + 16] = v
output p
leave
