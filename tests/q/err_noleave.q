#! error 3:7: function 'f' has no 'leave'
int64 a
enter f
input a
