/* ppc/ppc.h: the PowerPC targets: ppc32 (SysV) and ppc64 (ELFv1), GNU as. */
enum { PALTIVEC, PPC64 };
extern const char ppc32_md[], ppc64_md[];
