/* djbrules.c: the rewriting table of the qhasm-dialect front end (djb.c):
 * each line is `DJB PATTERN => OUR STATEMENTS`, tried in order, the first
 * match wins; a statement no line matches is passed through unchanged
 * (most djb statements are already our surface).  In a pattern a single
 * lower-case letter is an operand (a variable, a number, a memory operand
 * or a symbol), optionally restricted by `:C`: n number, m memory, l lane
 * count (4x), i integer variable, v vector variable (y: reg256), s stack variable,
 * g a `caller` variable (a callee-saved register, which our ABI code
 * saves), r any variable.  A letter used twice must be the same operand.
 * In a template, letters stand for what they matched, `{expr}` is
 * computed from numbers, and `;` separates statements; an empty template
 * drops the statement.  Memory operands arrive already normalised to
 * memN[...] (djb.c), so one line covers every addressing form. */
const char *const djbrules[] = {
	/* callee-saved registers: saved and restored by our frame code */
	"a:s = b:g =>",
	"a:g = b:s =>",
	/* hints for djb's allocator */
	"free a =>",
	/* alignment is ours to choose (we use unaligned loads and stores) */
	"a aligned = b => a = b",
	/* negated conditions */
	"goto a if ! unsigned > => goto a if unsigned <=",
	"goto a if ! unsigned < => goto a if unsigned >=",
	"goto a if ! unsigned >= => goto a if unsigned <",
	"goto a if ! unsigned <= => goto a if unsigned >",
	"goto a if ! signed > => goto a if signed <=",
	"goto a if ! signed < => goto a if signed >=",
	"goto a if ! signed >= => goto a if signed <",
	"goto a if ! signed <= => goto a if signed >",
	"goto a if ! = => goto a if !=",
	"a = b if ! unsigned > => a = b if unsigned <=",
	"a = b if ! unsigned < => a = b if unsigned >=",
	"a = b if ! unsigned >= => a = b if unsigned <",
	"a = b if ! unsigned <= => a = b if unsigned >",
	"a = b if ! signed > => a = b if signed <=",
	"a = b if ! signed < => a = b if signed >=",
	"a = b if ! signed >= => a = b if signed <",
	"a = b if ! signed <= => a = b if signed >",
	"a = b if ! = => a = b if !=",
	/* double-width shifts (shld, shrd) */
	"a = ( a . b ) << c => a = shld ( a , b , c )",
	"a = ( b a ) >> c => a = shrd ( a , b , c )",
	/* bit count */
	"a = count ( b ) => a = popcount ( b )",
	"new a =>",
	"vzeroupper =>",
	"emms =>",
	/* two conditions from one comparison: keep the flags of both */
	"unsigned > ? unsigned < ? a - b => unsigned > ? a - b",
	"unsigned < ? unsigned > ? a - b => unsigned > ? a - b",
	"= ? unsigned < ? a - b => unsigned <= ? a - b",
	"unsigned < ? = ? a - b => unsigned <= ? a - b",
	"= ? unsigned > ? a - b => unsigned > ? a - b",
	"signed > ? signed < ? a - b => signed > ? a - b",
	"signed < ? signed > ? a - b => signed > ? a - b",
	/* a flag-only add: only the zero flag of x + n is x - (-n)'s */
	"= ? a + b:n => = ? a - {0 - b}",
	/* zeroing idioms: a value that is not read */
	"a:i ^= a => a = 0",
	"a:v ^= a => a = 0",
	/* 32-bit operations on the low half of a stack64 */
	"( uint32 ) a += b:s => ( uint32 ) a += mem32 [ & b ]",
	"( uint32 ) a -= b:s => ( uint32 ) a -= mem32 [ & b ]",
	"( uint32 ) a ^= b:s => ( uint32 ) a ^= mem32 [ & b ]",
	"( uint32 ) a &= b:s => ( uint32 ) a &= mem32 [ & b ]",
	"( uint32 ) a |= b:s => ( uint32 ) a |= mem32 [ & b ]",
	/* a whole 128-bit register rotated by whole 32-bit lanes */
	"a:v <<<= 32 => a = shuffle32 ( a , 0x93 )",
	"a:v <<<= 64 => a = shuffle32 ( a , 0x4e )",
	"a:v <<<= 96 => a = shuffle32 ( a , 0x39 )",
	/* widths spelled out */
	"( uint64 ) a >>= b => a >>= b",
	"( uint64 ) a <<= b => a <<= b",
	"( int64 ) a >>= b => ( int64 ) a >>= b",
	/* lanes named by their type */
	"uint32323232 a ^= b => a ^= b",
	"uint32323232 a &= b => a &= b",
	"uint32323232 a |= b => a |= b",
	"uint32323232 a += b => 4x a += b",
	"uint32323232 a -= b => 4x a -= b",
	"uint32323232 a <<= b => 4x a <<= b",
	"uint32323232 a >>= b => 4x a >>= b",
	"int32323232 a >>= b => ( int32 ) 4x a >>= b",
	"uint6464 a += b => 2x a += b",
	"uint6464 a -= b => 2x a -= b",
	"uint6464 a <<= b => 2x a <<= b",
	"uint6464 a >>= b => 2x a >>= b",
	"l:l a unsigned >>= b => l a >>= b",
	"l:l a = b unsigned >> c => l a = b >> c",
	"l:l a = b unsigned >>= c => l a = b >> c",
	/* shuffles spelled out */
	"a = shuffle bytes of b by c => a = shufbytes ( b , c )",
	"a = shuffle dwords of b by c:n => a = shuffle32 ( b , c )",
	"a = unpack low dwords of b and c => a = unpacklo32 ( b , c )",
	"a = unpack high dwords of b and c => a = unpackhi32 ( b , c )",
	"a = unpack low qwords of b and c => a = unpacklo64 ( b , c )",
	"a = unpack high qwords of b and c => a = unpackhi64 ( b , c )",
	"unpack low qwords of a and b => a = unpacklo64 ( a , b )",
	"unpack high qwords of a and b => a = unpackhi64 ( a , b )",
	"a = unpack_low ( b , c ) => a = unpacklo64 ( b , c )",
	"a = unpack_high ( b , c ) => a = unpackhi64 ( b , c )",
	"a = blend dwords of b c by d:n => a = blend32 ( b , c , d )",
	/* 128-bit halves of a 256-bit register: a[0,1,2,3] = b[2,3],c[0,1] */
	"a [ 0 , 1 , 2 , 3 ] = b [ p:n , q:n ] , c [ r:n , s:n ] => a = permute128 ( b , c , {(p >> 1) + 16 * (2 + (r >> 1))} )",
	/* double-precision lanes (AVX): 4x a = approx b * c */
	"l:l a = approx b * c => l a = fmul ( b , c )",
	"l:l a = approx b + c => l a = fadd ( b , c )",
	"l:l a = approx b - c => l a = fsub ( b , c )",
	"l:l a approx *= b => l a = fmul ( a , b )",
	"l:l a approx += b => l a = fadd ( a , b )",
	"l:l a approx -= b => l a = fsub ( a , b )",
	"l:l a = round ( b ) => l a = fround ( b )",
	"l:l a = trunc ( b ) => l a = ftrunc ( b )",
	/* broadcast loads: mask = mem32[p] x4 */
	"a = b:m x4 => 4x a = b",
	"a = b:m x8 => 8x a = b",
	"a = b:m x2 => 2x a = b",
	/* lane selects: z = x[1,2,3,0] (32-bit lanes of a reg128, 64-bit lanes of a reg256) */
	"a:y = b:y [ c:n , d:n , e:n , f:n ] => a = permute64 ( b , {c + 4 * d + 16 * e + 64 * f} )",
	"a:v = b:v [ c:n , d:n , e:n , f:n ] => a = shuffle32 ( b , {c + 4 * d + 16 * e + 64 * f} )",
	/* bytes selected by a vector of indices, per 128-bit half */
	"2x 16x a = b [ c ] => a = shufbytes ( b , c )",
	"16x a = b [ c ] => a = shufbytes ( b , c )",
	/* operations on the low 128 bits of a reg256, the high bits zeroed */
	"2x , 0 a = b unsigned >> c => 2x , 0 a = b >> c",
	/* stores that keep the rest of the variable (ours always do) */
	"inplace a:m = b => a = b",
	/* string instructions */
	"while ( a ) { * b ++ = * c ++ ; -- a } => repmovsb ( b , c , a )",
	"while ( a ) { * b ++ = c ; -- a } => repstosb ( b , c , a )",
	0
};
