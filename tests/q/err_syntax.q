#! error 5:6: unexpected character '$'
int64 a
enter f
a = 1
a += $
leave
