# A branch on a value loaded through a secret pointer is reported.
#! error 11:1: branch depends on secret value
int64 k p a b
enter f
input p k
secret [k]
a = mem64[k + 0]
b = mem64[p + 0]
a += b
=? a - 0
goto skip if =
a += 1
skip:
mem64[p] = a
leave
