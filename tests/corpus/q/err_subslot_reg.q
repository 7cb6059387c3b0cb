#! error 5:11: '&a': only a stack variable has an address
int64 a
enter f
input a
a = mem64[&a + 8]
leave
