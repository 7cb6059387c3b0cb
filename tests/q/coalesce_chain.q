# A chain of copies that coalescing must remove entirely: no register-to-
# register mov may remain.
#! lacks ^\s+mov\s+\w+,\s+\w+$
#! count ^\s+add\s 1
int64 p x a b c d e
enter chain
input p x
a = x
b = a
c = b
d = c
d += 1
e = d
mem64[p] = e
leave
