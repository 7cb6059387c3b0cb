/* sparc/sparc.h: the sparc64 target (SPARC V9, GNU as). */
enum { SVIS };
extern const char sparc64_md[];
