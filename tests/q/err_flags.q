#! error 5:1: this sets the carry flag that line 7 reads, but does not keep it: prefix it with 'carry?'
int64 a b c
enter f
input a b c
a += b
c = 0
c += 0 + carry
output c
leave
