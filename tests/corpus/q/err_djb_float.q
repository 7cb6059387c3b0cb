#! error 4:1: type float80 is not supported (floating point)
int64 a
enter f
float80 b
return
