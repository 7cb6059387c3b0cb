#! target ppc64
#! error 12:1: this adds the carry of a subtraction: a carry chain links additions or subtractions, not both
# A subtraction's carry is the borrow in the language, but PowerPC keeps its
# complement, so mixing kinds in one chain cannot mean the same on every
# target (found by the differential tester): rejected on every target.
int64 al ah bl bh rl rh
enter mixed
input al ah bl bh
rl = al
rh = ah
carry? rl -= bl
rh += bh + carry
output rh
leave
