# AVX code returns with vzeroupper; the function names its extensions.
#! contains ; requires: avx avx2
#! count ^\s+vzeroupper$ 1
#! contains global f:function (f.end - f)
#! contains section .note.GNU-stack
int64 p
reg256 y z
cpu avx2
enter f
input p
y = mem256[p]
z = mem256[p + 32]
8x y += z
mem256[p] = y
leave
