#! error 4:19: too many inputs for the amd64 ABI
int64 a b c d e f g
enter f
input a b c d e f g
leave
