# more than six arguments: the seventh and eighth arrive on the stack
int64 a b c d e f g h r
int32 w
enter args8
input a b c d e f g w
  r = a
  r += b
  r += c
  r += d
  r += e
  r += f
  r += g
  h = w
  h <<= 40
  r ^= h
output r
leave

# the same with callee-saved registers pushed and a frame (spills)
int64 x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 x14 x15
enter args8p
input a b c d e f g w
  x0 = a
  x1 = b
  x2 = c
  x3 = d
  x4 = e
  x5 = f
  x6 = g
  x7 = a + 1
  x8 = b + 1
  x9 = c + 1
  x10 = d + 1
  x11 = e + 1
  x12 = f + 1
  x13 = g + 1
  x14 = a + 2
  x15 = b + 2
  r = w
  r += x0
  r += x1
  r += x2
  r += x3
  r += x4
  r += x5
  r += x6
  r += x7
  r += x8
  r += x9
  r += x10
  r += x11
  r += x12
  r += x13
  r += x14
  r += x15
  r += g
  r += a
output r
leave
