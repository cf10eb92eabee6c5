/*
 * After a whole-program ld -r: the definitions LTO lost.  The plugin
 * lists what it made internal (-plugin-opt=lto-ld:internalized=FILE,
 * lines NAME<TAB>OFFSET<TAB>INPUT); an undefined symbol of the output
 * that is on that list is a definition the output still needs.
 */
#include "lostdefs.h"
#include "inputname.h"
#include "../ldopts.h"
#include "strvec.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOST_SHOWN_MAX 20

/* One line of the plugin's list: NAME<TAB>OFFSET<TAB>INPUT. */
struct internal_def {
	const char *name;
	unsigned long long offset;	/* an archive member's, else 0 */
	const char *input;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct internal_def *)a)->name,
		      ((const struct internal_def *)b)->name);
}

/* Split the plugin's list (in TEXT, modified) into DEFS, sorted by name. */
static size_t parse_internalized(char *text, struct internal_def **defs)
{
	size_t n = 0, cap = 0;

	*defs = NULL;
	for (char *line = text, *next; *line; line = next) {
		char *off, *input;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		off = strchr(line, '\t');
		input = off ? strchr(off + 1, '\t') : NULL;
		if (!input)
			continue;
		*off++ = '\0';
		*input++ = '\0';
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			*defs = xrealloc(*defs, cap * sizeof(**defs));
		}
		(*defs)[n].name = line;
		(*defs)[n].offset = strtoull(off, NULL, 0);
		(*defs)[n].input = input;
		n++;
	}
	if (n)
		qsort(*defs, n, sizeof(**defs), by_name);
	return n;
}

/*
 * An undefined symbol of the output whose IR definition the plugin made
 * internal: LTO dropped or localized a definition code in the output
 * still needs (a top-level asm() calling it, a symbol the compiler
 * references only in code generation).  A later link would fail, or
 * bind it elsewhere: it is an error now.  Returns the number of such
 * symbols (messages printed).
 */
size_t lost_definitions(const struct ld_cmdline *cmd,
			       const struct inputs_info *info,
			       const struct strvec *undefined,
			       const char *internalized)
{
	struct internal_def *defs, key;
	struct input_names *names;
	size_t ndefs, lost = 0;
	char *text;

	if (undefined->n == 0)
		return 0;
	text = read_text_file(internalized, NULL);
	if (!text)
		return 1;
	ndefs = parse_internalized(text, &defs);
	names = input_names_new(cmd, info);
	for (size_t i = 0; i < undefined->n && ndefs; i++) {
		const struct internal_def *def;
		char *input;

		key.name = undefined->v[i];
		def = bsearch(&key, defs, ndefs, sizeof(*defs), by_name);
		if (!def)
			continue;
		if (++lost > LOST_SHOWN_MAX)
			continue;
		input = input_name(names, def->input, def->offset);
		error("%s: %s, defined in IR by %s, was made internal by "
		      "--lto-whole-program but the output still references "
		      "it; keep it (--lto-keep-symbol=%s)", cmd->output,
		      def->name, input, def->name);
		free(input);
	}
	if (lost > LOST_SHOWN_MAX)
		error("%s: %zu more symbols like these (%zu in all)", cmd->output,
		      lost - LOST_SHOWN_MAX, lost);
	input_names_free(names);
	free(defs);
	free(text);
	return lost;
}
