/*
 * GCC's early debug info for LTO marks each compilation unit with a
 * symbol "<file>.<hash>" in .debug_info: weak, hidden, in a section that
 * is never loaded.  Weak and global, they show in symbol listings like
 * code (nm 'W'), and a kernel's kallsyms then differs between its
 * debug-stripped and its final link.  Hidden, no other object can refer
 * to them, so lto-ld makes them local in the objects its LTO writes.
 */
#ifndef LTO_LD_DEBUGANCHORS_H
#define LTO_LD_DEBUGANCHORS_H

struct strvec;
struct toolchain;

/* Names of the weak hidden symbols of non-allocated sections of PATH. */
int debug_anchors_find(const char *path, struct strvec *names);

/* Make those symbols of PATH (an ELF object) local, with objcopy. */
int debug_anchors_localize(const struct toolchain *tc, const char *path);

#endif
