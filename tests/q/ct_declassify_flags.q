#! error 11:1: branch depends on secret value
# declassify makes a value public from that point on; flags computed from
# it before stay secret (docs/language.md, Secrets): compare after it
int64 k r
enter f
input k
secret k
r = 0
=? k - 0
declassify k
goto z if =
r = 1
z:
output r
leave
