# sum of an array of n 64-bit words
int64 p n s t i
enter sum64
input p n
s = 0
i = 0
=? n - 0
goto done if =
loop:
  t = mem64[p + i*8]
  s += t
  i += 1
  unsigned<? i - n
goto loop if unsigned<
done:
output s
leave
