/* Reading symbol tables: what an input is, and nm's output, parsed. */
#ifndef LTO_SIZEDIFF_NMREAD_H
#define LTO_SIZEDIFF_NMREAD_H

#include <stdbool.h>
#include <stdint.h>

enum input_kind { INPUT_ELF, INPUT_ARCHIVE, INPUT_THIN_ARCHIVE };

/*
 * What FILE is, from its first bytes; -1 after an error naming FILE and
 * the reason (missing, unreadable, not a regular file, or neither ELF
 * nor, when ARCHIVES, an archive).
 */
int input_kind(const char *file, bool archives);

/*
 * The e_machine (EM_ARM, EM_X86_64...) and e_type (ET_REL, ET_EXEC...)
 * of the ELF file FILE: 0, or -1 after an error naming FILE.
 */
int elf_header(const char *file, int *machine, int *type);

struct nm_sink {
	/* An archive member begins: its path as nm prints it. */
	void (*member)(void *ctx, const char *path);
	/* A symbol line: its value, nm's type letter, the size when nm gave one. */
	void (*symbol)(void *ctx, uint64_t value, char type, bool has_size,
		       uint64_t size, const char *name);
	void *ctx;
};

/*
 * Run NM ARGS... -- FILE and hand each line of its output to SINK.
 * Returns the number of symbol lines, or -1 after an error naming FILE.
 */
long nm_read(const char *nm, char *const *args, const char *file,
	     const struct nm_sink *sink);

#endif
