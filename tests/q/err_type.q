#! error 7:1: no form of 'a += v' takes operands (int64, int64, reg128) on amd64; closest forms: 'r += s' (r: int64, s: int64)
int64 a
reg128 v
enter f
input a
v = mem128[a]
a += v
leave
