#! target sparc64
#! driver cmov_carry.c
# Moves on the carry of an int32 add and subtract (targets whose carry is
# the borrow after a subtraction: amd64, x86, sparc64; not PowerPC, see
# docs/forms.md); driver cmov_carry.c
int32 a b c d t r
enter addcarry
input a b c d
r = c
carry? t = a + b
r = d if carry
output r
leave

enter subnocarry
input a b c d
r = c
carry? t = a - b
r = d if !carry
output r
leave
