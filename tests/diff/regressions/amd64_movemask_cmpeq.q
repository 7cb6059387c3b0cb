#! target amd64
#! model -
#! data 549bbb94598e380d7fc4d681a2cd461f47644d6ba93f239ed129f248d1ac09dd549bb59459027a0d7fc41d816242461f47644d8ba93f099ed165f248f8ac46dc541b3b94d90e388dffc45601a24dc61fc7e44deb293fa31ed1a97248512c095de327eb6f75f7a260ba0ed81ba85676a0bc586c9bdeb6e52f3605625be6ede446f3e70696865e04efaca86c1a8832070e39f19a68320de9710fcc3edb1d1e608689b6b1d5cf03ad291191a6a43cab417cfd91e23f827f25d79e66f7bb416d4d962adfe0c64e4954a2fc90d02178564d78daa4e241937cfd8061be033eabfc27dc2cc17c5724972593adeca44c4c889dc4a649df3583796e6dbddfc08a289dcf68
# The forms added for the bitsliced R/3 product (issue 17): vpmovmskb
# (r = movemask8 ( s ), reg256 -> int64: bit j = top bit of byte j, the upper
# 32 bits zero; byte 31 of a has its top bit set, so a sign extension would
# show) and vpcmpeqb (r = cmpeq8 ( s , t ), register and memory forms; a and
# b agree in about half the bytes, mem256[p + 64] in every third).
cpu avx2
reg256 a b c d
int64 p q rv s
enter movemaskcmpeq_0
input p q
a = mem256[p + 0]
b = mem256[p + 32]
s = movemask8 ( a )
mem64[q + 0] = s
c = cmpeq8 ( a , b )
mem256[q + 32] = c
s = movemask8 ( c )
mem64[q + 8] = s
d = cmpeq8 ( a , mem256[p + 64] )
mem256[q + 64] = d
s = movemask8 ( d )
mem64[q + 16] = s
rv = 0
output rv
leave
