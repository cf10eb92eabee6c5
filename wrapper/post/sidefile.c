#include "sidefile.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Undo the plugin's escapes (\\, \t, \n) in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*d++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* Split LINE (modified) at tabs into at most MAX fields; returns how many. */
static size_t split(char *line, char **field, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *tab = strchr(line, '\t');

		field[n++] = line;
		if (!tab)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	for (size_t i = 0; i < n; i++)
		unescape(field[i]);
	return n;
}

static int visit_sym(char **f, const struct side_visit *visit)
{
	struct side_sym s = {
		f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8],
		!strcmp(f[9], "1"),
		strcmp(f[2], "undef") && strcmp(f[2], "weakundef"),
	};

	return visit->sym(&s, visit->data);
}

int side_file_parse(char *text, const char *path, const struct side_visit *visit)
{
	size_t lineno = 0;
	bool in_file = false, in_native = false;
	int rc = 0;

	for (char *line = text, *next; *line && !rc; line = next) {
		char *f[11];
		size_t n;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		lineno++;
		n = split(line, f, 11);
		if (n == 3 && !strcmp(f[0], "file")) {
			in_file = true;
			in_native = false;
			rc = visit->file(f[1], strtoull(f[2], NULL, 0), visit->data);
		} else if (n == 10 && !strcmp(f[0], "sym") && in_file) {
			rc = visit_sym(f, visit);
		} else if (n == 3 && !strcmp(f[0], "native")) {
			in_file = false;
			in_native = true;
			if (visit->native)
				rc = visit->native(f[1], strtoull(f[2], NULL, 0),
						   visit->data);
		} else if (n == 2 && !strcmp(f[0], "def") && in_native) {
			if (visit->def)
				rc = visit->def(f[1], visit->data);
		} else if (*line) {
			rc = error("%s:%zu: not a line of lto-ld-plugin's symbol list",
				   path, lineno);
		}
	}
	return rc;
}
