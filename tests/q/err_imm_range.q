#! error 5:1: no form of '$ = $ <<< $' takes operands (int64, int64, immediate 64) on amd64
int64 a
enter f
input a
a <<<= 64
output a
leave
