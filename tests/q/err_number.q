#! error 5:5: constant does not fit in 64 bits
int64 a
enter f
input a
a = 0x123456789abcdef01
leave
