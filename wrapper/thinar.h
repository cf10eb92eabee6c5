/*
 * The output of `ld -r` in thin mode: a thin archive that names every input
 * object, written by the real ar (with the LTO plugin, so its index lists IR
 * symbols) and then marked with LTO_LD_THIN_MARKER in that index, so lto-ld
 * knows later to link every member as an object.
 */
#ifndef LTO_LD_THINAR_H
#define LTO_LD_THINAR_H

struct toolchain;

/* Write the thin archive PATH holding MEMBERS (NULL-terminated) in order. */
int thinar_write(const struct toolchain *tc, const char *path,
		 char *const *members);

/* Add the marker to the index of the thin archive PATH (rewrites the file). */
int thinar_mark(const char *path);

#endif
