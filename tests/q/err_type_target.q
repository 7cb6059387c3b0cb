#! target x86
#! error 5:8: type int64 (of 'a') is not supported by target x86
int64 a b
enter f
output a
leave
