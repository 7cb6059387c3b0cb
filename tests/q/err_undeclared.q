#! error 5:5: undeclared variable 'zz'
int64 a
enter f
input a
a = zz
leave
