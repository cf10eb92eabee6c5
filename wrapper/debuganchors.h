/*
 * GCC's early debug info for LTO marks each compilation unit with a
 * symbol "<file>.<hash>" in .debug_info: weak, hidden, in a section that
 * is never loaded.  Weak and global, they show in symbol listings like
 * code (nm 'W'), and a kernel's kallsyms then differs between its
 * debug-stripped and its final link.  Hidden, no other object can refer
 * to them, so lto-ld makes them local in the objects its LTO writes.
 * The same read of the output gives its undefined symbols, which the
 * --lto-whole-program check needs (see link.c), and its defined ones,
 * which --lto-report needs (see report.c).
 */
#ifndef LTO_LD_DEBUGANCHORS_H
#define LTO_LD_DEBUGANCHORS_H

#include <stdbool.h>

struct strvec;
struct toolchain;

/*
 * One read of the symbol table of PATH, an ELF object lto-ld's link just
 * wrote: the debug anchors (weak hidden symbols of non-allocated sections)
 * into ANCHORS, the names of the global and weak undefined symbols into
 * UNDEFINED (either may be NULL).  0, or 1 after an error.
 */
int output_symbols(const char *path, struct strvec *anchors,
		   struct strvec *undefined);

/*
 * The names PATH (an output lto-ld's link just wrote) defines, into
 * DEFINED: every defined symbol of its ELF symbol table but section and
 * file symbols, local ones included, and for an IR object (ld -r
 * --lto-partial=ir) the definitions of its GCC IR symbol table.  *KNOWN
 * is false when PATH has neither (a stripped output).  0, or 1 after an
 * error.
 */
int output_defined_symbols(const char *path, struct strvec *defined, bool *known);

/* Make the symbols NAMES of PATH (an ELF object) local, with objcopy. */
int debug_anchors_localize(const struct toolchain *tc, const char *path,
			   const struct strvec *names);

#endif
