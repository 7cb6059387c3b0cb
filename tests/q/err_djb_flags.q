#! target amd64
#! error 13:1: this instruction does not set the flags 'signed<?' asks for
# Issue 13 review: amd64-djb.md's `r = (s >> 8) & 255` (movzx; shr 8)
# said def=CZO, but OF is undefined after a shift by 8, so `signed<?`
# read an undefined flag.  It keeps ZF only (def=Z clob=CO); `=?` works.
# popcount, shld/shrd and the three-term add are clob=CZO likewise (the
# semantics gives their flags no meaning).
int64 r s p
enter f
input p
s = mem64[p + 0]
r = 0
signed<? r = (s >> 8) & 255
goto l if signed<
r = 1
l:
output r
leave
