/*
 * The join.  Each sized symbol of NEW, by its name with GCC's clone
 * suffixes removed (so foo.part.0 and foo.cold count with foo), goes
 * under the reason the report keeps that name for; a name the report
 * lists but did not keep (removed, inlined everywhere, not prevailing:
 * a static of the same name, a native definition that won) goes under
 * that fate.  A name it does not list as IR but that a native object of
 * the link defines (assembler, code compiled without -flto: the report's
 * "native_objects") goes under NATIVE_CODE, which LTO never had; any
 * other (the statics of IR objects, which GCC's IR symbol table does not
 * list; what the link did not see: libraries and objects of later
 * links, the linker's stubs) under NOT_IN_REPORT.  Every symbol lands
 * in one line, so the lines add up to NEW's total.
 *
 * Which link the report is of: the output of a relocatable link (the
 * kernel's vmlinux.o) is not the image but a part of it, so the names
 * decide: at least half of the names the report keeps must be defined
 * in NEW.  A kept name can be missing for good reasons (a section the
 * final link discards, a symbol without a size), but a report of
 * another program keeps next to none of NEW's names.  A final link's
 * report must moreover be of NEW itself: its "output", from here or
 * from NEW's directory, is the file NEW.
 */
#include "keepreasons.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Is OUTPUT, a path from where the link ran, the file NEWFILE? */
static bool is_file(const char *output, const char *newfile)
{
	char *dir, *joined;
	bool same = same_file(output, newfile);

	if (same || output[0] == '/')
		return same;
	dir = dir_name(newfile);
	joined = path_join(dir, output);
	same = same_file(joined, newfile);
	free(joined);
	free(dir);
	return same;
}

static size_t kept_in(const struct lto_report *rep, const struct strmap *names,
		      const struct row *rows)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->names.n; i++) {
		size_t at;

		if (!rep->reason[i])
			continue;
		at = strmap_find(names, rep->names.keys[i]);
		n += at != STRMAP_NONE && rows[at].count[NEW];
	}
	return n;
}

static int same_link(const struct lto_report *rep, const struct strmap *names,
		     const struct row *rows, const char *newfile,
		     struct reasons *out)
{
	out->kept_names = rep->kept;
	out->kept_in_new = kept_in(rep, names, rows);
	if (!strcmp(rep->mode, "final") && !is_file(rep->output, newfile))
		return error("%s: the report of the final link of %s, not of %s",
			     rep->file, rep->output, newfile);
	if (!out->kept_names)
		return error("%s: keeps no IR definition, so it is not of the link "
			     "that made %s", rep->file, newfile);
	if (out->kept_in_new * 2 < out->kept_names)
		return error("%s: not the report of a link that made %s: %zu of the "
			     "%zu names it keeps are defined there (at least half "
			     "must be)", rep->file, newfile, out->kept_in_new,
			     out->kept_names);
	return 0;
}

/* The line NAME (a keep reason when KEPT), added if new. */
static struct bucket *bucket(struct reasons *out, const char *name, bool kept)
{
	for (size_t i = 0; i < out->n; i++)
		if (out->b[i].kept == kept && !strcmp(out->b[i].name, name))
			return &out->b[i];
	ALLOC_GROW(out->b, out->n, out->alloc);
	out->b[out->n] = (struct bucket){ .name = name, .kept = kept };
	return &out->b[out->n++];
}

static void add(struct bucket *b, const struct row *r)
{
	b->names++;
	b->symbols += r->count[NEW];
	b->bytes += r->size[NEW];
}

/* Keep reasons first, then NOT_IN_REPORT, then the fates; most bytes first. */
static int by_weight(const void *a, const void *b)
{
	const struct bucket *x = a, *y = b;
	bool xn = !x->kept && !strcmp(x->name, NOT_IN_REPORT);
	bool yn = !y->kept && !strcmp(y->name, NOT_IN_REPORT);

	if (x->kept != y->kept)
		return x->kept ? -1 : 1;
	if (xn != yn)
		return xn ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return strcmp(x->name, y->name);
}

int reasons_join(const struct lto_report *rep, const struct strmap *names,
		 const struct row *rows, const char *newfile, struct reasons *out)
{
	*out = (struct reasons){ .on = true, .file = rep->file, .output = rep->output,
				 .mode = rep->mode, .definitions = rep->definitions,
				 .fates = rep->fates, .nfates = rep->nfates,
				 .total.name = "total: new's sized symbols" };
	if (same_link(rep, names, rows, newfile, out))
		return 1;
	/* every reason the report keeps a name for has its line, 0 bytes or not */
	for (size_t i = 0; i < rep->names.n; i++)
		if (rep->reason[i])
			bucket(out, rep->reason[i], true);
	if (rep->native.n)
		bucket(out, NATIVE_CODE, true);
	bucket(out, NOT_IN_REPORT, false);
	for (size_t i = 0; i < names->n; i++) {
		const struct row *r = &rows[i];
		size_t at;

		if (!r->count[NEW])
			continue;
		at = strmap_find(&rep->names, r->name);
		if (at == STRMAP_NONE && strmap_find(&rep->native, r->name) != STRMAP_NONE)
			add(bucket(out, NATIVE_CODE, true), r);
		else if (at == STRMAP_NONE)
			add(bucket(out, NOT_IN_REPORT, false), r);
		else if (rep->reason[at])
			add(bucket(out, rep->reason[at], true), r);
		else
			add(bucket(out, rep->fate[at], false), r);
		add(&out->total, r);
	}
	qsort(out->b, out->n, sizeof(*out->b), by_weight);
	return 0;
}

void reasons_free(struct reasons *out)
{
	free(out->b);
	out->b = NULL;
	out->n = out->alloc = 0;
}
