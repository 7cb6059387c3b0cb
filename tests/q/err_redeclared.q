#! error 4:8: 'a' is already declared
int64 a
int64 b
reg128 a
enter f
leave
