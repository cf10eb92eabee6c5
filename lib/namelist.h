/*
 * The name-list format of keep files (--lto-keep) and lists of exports
 * (--lto-exports): one name or glob a line, blanks around it and '#' to
 * the end of the line ignored; any line length, CRLF or not, a last line
 * without a newline.  A NUL byte is an error naming the line: it would
 * end the name early, and a name cut short keeps or drops the wrong
 * symbol.
 *
 * The one reader of the format, for both readers of these files: the
 * linker plugin (C) and the compiler plugin (C++, built with GCC's
 * plugin headers alone), which each compile it from here.
 */
#ifndef LTO_LD_NAMELIST_H
#define LTO_LD_NAMELIST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/*
 * Each name of F, with its line number, to ADD (with CTX).  0; or the
 * number of the line that holds a NUL byte (nothing after it is read);
 * or -1 when F cannot be read (errno).
 */
static inline long namelist_read(FILE *f, void (*add)(const char *name,
							unsigned line, void *ctx),
				 void *ctx)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	unsigned lineno = 0;
	long rc = 0;

	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t len;

		lineno++;
		if (memchr(line, '\0', (size_t)got)) {
			rc = (long)lineno;
			break;
		}
		len = strcspn(line, "\r\n#");
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		line[len] = '\0';
		if (len)
			add(line + strspn(line, " \t"), lineno, ctx);
	}
	if (rc == 0 && ferror(f))
		rc = -1;
	free(line);
	return rc;
}

#endif
