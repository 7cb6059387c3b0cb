#! error 6:1: unknown instruction 'a = max(a, b)' for target amd64
int64 a b
enter f
input a b
a = 1
a = max(a, b)
leave
