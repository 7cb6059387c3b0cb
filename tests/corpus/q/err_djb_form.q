#! error 6:1: target amd64 has no form of 'x = y ~& z'
# a djb form we do not read: a located error on the djb line
int64 x y z
enter f
input_0 = 0
x = y ~& z
return
