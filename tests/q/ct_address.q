# A table lookup indexed by a secret value is reported.
#! error 8:1: address depends on secret value
int64 k p a
enter f
input p k
secret k
k &= 15
a = mem64[p + k*8]
output a
leave
