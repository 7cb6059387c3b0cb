#! error 6:1: target amd64 has no form of 'a = max(a, b)'
int64 a b
enter f
input a b
a = 1
a = max(a, b)
leave
