/*
 * The plugin's one side file (-plugin-opt=lto-ld:symbols=FILE): every IR
 * symbol of every claimed file, with the linker's resolution, the one
 * GCC got and why, and the names the native objects define
 * (plugin/lto-ld-plugin.c describes the format).  The
 * report reads all of it; the lost-definitions check, the "internalized"
 * lines.
 */
#ifndef LTO_LD_SIDEFILE_H
#define LTO_LD_SIDEFILE_H

#include <stdbool.h>
#include <stddef.h>

/* One "sym" line; its strings point into the text being parsed. */
struct side_sym {
	const char *name, *kind, *linker_res, *res, *why;
	const char *keep_glob, *keep_file, *keep_line;
	bool comdat, defined;
};

struct side_visit {
	/* a "file" line: the claimed INPUT (an archive: the member at OFFSET) */
	int (*file)(const char *input, unsigned long long offset, void *data);
	/* a "sym" line of the last file */
	int (*sym)(const struct side_sym *sym, void *data);
	/*
	 * A "native" line: INPUT (at OFFSET) is native code the linker read;
	 * then a "def" line per name it defines.  NULL: skipped.
	 */
	int (*native)(const char *input, unsigned long long offset, void *data);
	int (*def)(const char *name, void *data);
	void *data;
};

/*
 * Parse TEXT (the side file PATH, modified: fields are split and
 * unescaped in place) line by line.  0, a visitor's non-zero value, or
 * 1 after an error naming PATH and the line.
 */
int side_file_parse(char *text, const char *path, const struct side_visit *visit);

#endif
