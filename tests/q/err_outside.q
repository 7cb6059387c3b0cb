#! error 3:1: statement outside a function (missing 'enter'?)
int64 a
a = 1
