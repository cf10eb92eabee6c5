/*
 * After a whole-program ld -r: the definitions LTO lost.  The plugin
 * lists what it made internal (-plugin-opt=lto-ld:internalized=FILE,
 * lines NAME<TAB>OFFSET<TAB>INPUT); an undefined symbol of the output
 * that is on that list is a definition the output still needs.
 */
#include "lostdefs.h"
#include "inputs.h"
#include "ldopts.h"
#include "scan.h"
#include "strvec.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

struct thin_lookup {
	struct stat want;
	bool found;
};

static int same_file(const struct scan_object *obj, void *data)
{
	struct thin_lookup *t = data;
	struct stat st;

	if (obj->in_thin_archive && !obj->member && stat(obj->path, &st) == 0 &&
	    st.st_dev == t->want.st_dev && st.st_ino == t->want.st_ino) {
		t->found = true;
		return 1;	/* stop the scan */
	}
	return 0;
}

/*
 * DEF's input as the user knows it: "archive(member)" for a member of a
 * regular archive (the plugin API names it by the archive and the
 * member's offset) or of a thin archive among the inputs (named by the
 * member's own path), else the file.
 */
static char *describe_input(const struct ld_cmdline *cmd,
			    const struct inputs_info *info,
			    const struct internal_def *def)
{
	struct thin_lookup t;
	char *member;

	if (!*def->input)
		return xstrdup("an IR object");
	if (def->offset) {
		member = scan_member_name(def->input, (off_t)def->offset);
		if (member) {
			char *s = xasprintf("%s(%s)", def->input, member);

			free(member);
			return s;
		}
		return xasprintf("%s@%#llx", def->input, def->offset);
	}
	t.found = false;
	if (info->file && stat(def->input, &t.want) == 0)
		for (size_t i = 0; i < cmd->ninputs && !t.found; i++)
			if (cmd->inputs[i].path &&
			    info->file[i].kind == FILE_THIN_ARCHIVE &&
			    scan_file(cmd->inputs[i].path, same_file, &t, NULL) >= 0 &&
			    t.found)
				return xasprintf("%s(%s)", cmd->inputs[i].path,
						 def->input);
	return xstrdup(def->input);
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
	size_t ndefs, lost = 0;
	char *text;

	if (undefined->n == 0)
		return 0;
	text = read_file(internalized, NULL);
	if (!text) {
		error("%s: %s", internalized, strerror(errno));
		return 1;
	}
	ndefs = parse_internalized(text, &defs);
	for (size_t i = 0; i < undefined->n && ndefs; i++) {
		const struct internal_def *def;
		char *input;

		key.name = undefined->v[i];
		def = bsearch(&key, defs, ndefs, sizeof(*defs), by_name);
		if (!def)
			continue;
		if (++lost > LOST_SHOWN_MAX)
			continue;
		input = describe_input(cmd, info, def);
		error("%s: %s, defined in IR by %s, was made internal by "
		      "--lto-whole-program but the output still references "
		      "it; keep it (--lto-keep-symbol=%s)", cmd->output,
		      def->name, input, def->name);
		free(input);
	}
	if (lost > LOST_SHOWN_MAX)
		error("%s: %zu more symbols like these (%zu in all)", cmd->output,
		      lost - LOST_SHOWN_MAX, lost);
	free(defs);
	free(text);
	return lost;
}
