#! error 7:1: this reads the carry flag not kept on every path here (set it with a 'COND?' prefix, and let no flag-changing instruction come between)
int64 a b c
enter f
input a b c
a += b
c = 0
c += 0 + carry
output c
leave
