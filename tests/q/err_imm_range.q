#! error 5:1: no form of 'a <<<= 64' takes operands (int64, int64, immediate 64) on amd64; closest forms: 'r <<<= i' (r: int64, i: sh6 0..63)
int64 a
enter f
input a
a <<<= 64
output a
leave
