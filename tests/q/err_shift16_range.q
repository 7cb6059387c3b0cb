#! target amd64
#! error 13:1: no form of '16x c = a << 16'
# Issue 13 (shift immediate ranges): the 16-bit lane shifts took 0..31
# (class sh5), but the semantics defines counts 0..w-1 only (vpsllw gives
# 0 for 16..31, psraw the sign: no language meaning).  They take sh4
# (0..15) on amd64 and x86 now; 16 is a located error.
cpu avx2
reg256 a c
int64 p
enter sh16
input p
a = mem256[p + 0]
16x c = a << 16
mem256[p + 0] = c
leave
