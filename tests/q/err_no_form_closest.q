#! target ppc32
#! error 7:1: no form of '4x a = b + p' takes operands (reg128, reg128, int32) on ppc32; closest forms: '4x r = s + t' (r: reg128, s: reg128, t: reg128, with 'cpu altivec')
# The message shows the statement as written and the target's nearest forms
reg128 a b
int32 p
enter f
4x a = b + p
leave
