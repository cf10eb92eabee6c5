/*
 * GCC's early debug info for LTO marks each compilation unit with a
 * symbol "<file>.<hash>" in .debug_info: weak, hidden, in a section that
 * is never loaded.  Weak and global, they show in symbol listings like
 * code (nm 'W'), and a kernel's kallsyms then differs between its
 * debug-stripped and its final link.  Hidden, no other object can refer
 * to them, so lto-ld makes them local in the objects its LTO writes.
 * The same read of the output gives its undefined symbols, which the
 * --lto-whole-program check needs (see link.c), and its defined ones,
 * which --lto-report needs (see report.c): an ld -r output is read once.
 */
#ifndef LTO_LD_DEBUGANCHORS_H
#define LTO_LD_DEBUGANCHORS_H

#include "strvec.h"

#include <stdbool.h>

/* What one read of an output's symbol tables gives. */
struct output_syms {
	/* how many debug anchors: weak hidden symbols of non-allocated sections */
	size_t anchors;
	/* the names of the global and weak undefined symbols */
	struct strvec undefined;
	/*
	 * every defined symbol but section and file symbols, local ones
	 * included, and for an IR object (ld -r --lto-partial=ir) the
	 * definitions of its GCC IR symbol table
	 */
	struct strvec defined;
	bool known;		/* it has a symbol table of either kind */
	bool read;		/* output_symbols() filled it */
};

#define OUTPUT_SYMS_INIT { 0, STRVEC_INIT, STRVEC_INIT, false, false }

/* One read of PATH, an ELF object lto-ld's link just wrote.  0, or 1 after an error. */
int output_symbols(const char *path, struct output_syms *syms);

void output_syms_clear(struct output_syms *syms);

/*
 * Make the COUNT debug anchors (output_symbols() counted them) of PATH, an
 * ELF object, local, in place: objcopy would write the whole object
 * again, a second a kernel's vmlinux.o.  0, or 1 after an error.
 */
int debug_anchors_localize(const char *path, size_t count);

#endif
