/*
 * After a whole-program ld -r: the definitions LTO lost.  The plugin's
 * side file (sidefile.h) says what it made internal; an undefined
 * symbol of the output that is on that list is a definition the output
 * still needs.
 */
#include "lostdefs.h"
#include "inputname.h"
#include "../ldopts.h"
#include "sidefile.h"
#include "strvec.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOST_SHOWN_MAX 20

/* A definition the plugin made internal, and the input that had it. */
struct internal_def {
	const char *name;
	unsigned long long offset;	/* an archive member's, else 0 */
	const char *input;
};

struct internal_defs {
	struct internal_def *v;
	size_t n, alloc;
	const char *input;		/* of the last "file" line */
	unsigned long long offset;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct internal_def *)a)->name,
		      ((const struct internal_def *)b)->name);
}

static int see_file(const char *input, unsigned long long offset, void *data)
{
	struct internal_defs *defs = data;

	defs->input = input;
	defs->offset = offset;
	return 0;
}

static int see_sym(const struct side_sym *sym, void *data)
{
	struct internal_defs *defs = data;

	if (strcmp(sym->why, "internalized"))
		return 0;
	ALLOC_GROW(defs->v, defs->n, defs->alloc);
	defs->v[defs->n].name = sym->name;
	defs->v[defs->n].offset = defs->offset;
	defs->v[defs->n].input = defs->input;
	defs->n++;
	return 0;
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
			       const char *symbols)
{
	struct internal_defs defs = { NULL, 0, 0, "", 0 };
	struct side_visit visit = { .file = see_file, .sym = see_sym, .data = &defs };
	struct internal_def key;
	struct input_names *names;
	size_t lost = 0;
	char *text;

	if (undefined->n == 0)
		return 0;
	text = read_text_file(symbols, NULL);
	if (!text)
		return 1;
	if (side_file_parse(text, symbols, &visit)) {
		free(defs.v);
		free(text);
		return 1;
	}
	if (defs.n)
		qsort(defs.v, defs.n, sizeof(*defs.v), by_name);
	names = input_names_new(cmd, info);
	for (size_t i = 0; i < undefined->n && defs.n; i++) {
		const struct internal_def *def;
		char *input;

		key.name = undefined->v[i];
		def = bsearch(&key, defs.v, defs.n, sizeof(*defs.v), by_name);
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
	free(defs.v);
	free(text);
	return lost;
}
