#! error 7:1: duplicate label 'x' (first defined on line 5)
int64 a
enter f
input a
x:
a += 1
x:
leave
