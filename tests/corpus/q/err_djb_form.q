#! error 6:1: unknown instruction 'x = y ~& z' for target amd64
# a djb form we do not read: a located error on the djb line
int64 x y z
enter f
input_0 = 0
x = y ~& z
return
