#! error 6:5: constant 'K' is data: read it with memN[K]
int64 a
const K u64 1 2
enter f
input a
a = K
leave
