#! error 6:1: this changes the carry flag that line 5 sets and line 7 reads
int64 a b c
enter f
input a b c
carry? a += b
c ^= a
c += 0 + carry
output c
leave
