#! error 9:1: 'b' may be used before it is given a value
int64 a b
enter f
input a
=? a - 0
goto skip if =
b = 5
skip:
a += b
output a
leave
