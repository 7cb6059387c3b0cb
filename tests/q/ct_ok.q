# Constant-time code passes: a secret select through cmov, arithmetic on
# secrets, loop control on public values; a declassified value may branch.
#! contains cmovb
int64 k p a b i n
enter f
input p k n
secret [k]
a = mem64[k + 0]
b = mem64[k + 8]
i = 0
loop:
  unsigned<? a - b
  a = b if unsigned<
  a += mem64[p + i*8]
  i += 1
  unsigned<? i - n
goto loop if unsigned<
declassify a
=? a - 0
goto zero if =
a += 1
zero:
output a
leave
