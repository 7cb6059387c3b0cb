#! target ppc32
#! error 14:1: no form of 'c = shiftleftbytes(a, b, 16)'
# Issue 13: shiftleftbytes took a 0..31 immediate (class sh5) although
# vsldoi encodes 0..15 (and the semantics, (s||t)[i .. i+15], needs
# i < 16): the assembler rejected it after qhasm had said nothing.  Now
# the class is uimm4 (0..15) and 16 is a located error.
cpu altivec
reg128 a b c
int32 p
enter slb
input p
a = mem128[p + 0]
b = mem128[p + 16]
c = shiftleftbytes(a, b, 16)
mem128[p + 0] = c
leave
