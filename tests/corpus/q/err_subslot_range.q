#! error 6:1: mem64 at offset 4 is outside 's' (8 bytes)
int64 a
stack64 s
enter f
input a
mem64[&s + 4] = a
leave
