#! error 6:1: 'b' may be used before it is given a value
int64 a b
enter f
input a
a = 1
a += b
output a
leave
