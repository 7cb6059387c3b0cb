/* x86/x86.h: the x86 target (i386, cdecl, NASM). */
enum { EAX, ECX, EDX, EBX, ESP, EBP, ESI, EDI };
enum { YMMX, YSSE2, YSSSE3, YCMOV };
extern const char x86_md[];
