#! error 5:17: scale must be 1, 2, 4 or 8
int64 a p
enter f
input p a
a = mem64[p + a*3]
leave
