#! error 5:6: undefined label 'nowhere'
int64 a
enter f
input a
goto nowhere
leave
