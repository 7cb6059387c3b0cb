#! error 6:1: this instruction needs CPU extension(s) avx (add 'cpu avx' before 'enter')
int64 p
reg256 y
enter f
input p
y = mem256[p]
mem256[p] = y
leave
