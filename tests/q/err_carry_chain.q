#! target ppc64
#! error 14:1: this sets the carry flag that line 15 reads, but does not keep it: prefix it with 'carry?'
# a three-word chain: the middle add must keep its carry (the error names it, not the line after)
int64 a0 a1 a2 b0 b1 b2 p
enter add192
input p
a0 = mem64[p + 0]
a1 = mem64[p + 8]
a2 = mem64[p + 16]
b0 = mem64[p + 24]
b1 = mem64[p + 32]
b2 = mem64[p + 40]
carry? a0 += b0
a1 += b1 + carry
a2 += b2 + carry
mem64[p + 0] = a0
mem64[p + 8] = a1
mem64[p + 16] = a2
leave
