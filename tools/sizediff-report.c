/* lto-sizediff's output: the text tables and the JSON object. */
#include "json.h"
#include "sizediff.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* How many rows of L are printed. */
static size_t shown(const struct report *r, const struct list *l)
{
	return r->top && r->top < l->n ? r->top : l->n;
}

static const char *status(const struct row *row)
{
	if (!row->count[NEW])
		return "vanished";
	if (!row->count[OLD])
		return "appeared";
	return row->diff < 0 ? "decreased" : "increased";
}

/* ---- text ---- */

static void text_percent(FILE *f, const struct report *r)
{
	uint64_t old = r->image[OLD].size, new = r->image[NEW].size;
	int64_t diff = (int64_t)(new - old);

	fprintf(f, "total: %" PRIu64 " -> %" PRIu64 " bytes, %+" PRId64, old, new, diff);
	if (old)
		fprintf(f, " (%+.2f%%), ratio %.3f\n", 100.0 * (double)diff / (double)old,
			(double)new / (double)old);
	else
		fprintf(f, " (OLD is empty)\n");
}

static void text_header(FILE *f, const struct report *r)
{
	static const char *const label[] = { "old", "new" };

	for (int side = OLD; side <= NEW; side++) {
		const struct image *im = &r->image[side];

		fprintf(f, "%s: %s: %" PRIu64 " bytes in %zu symbols (%zu aliases"
			" counted once), %zu names\n", label[side], im->file,
			im->size, im->symbols, im->aliases, im->names);
	}
	text_percent(f, r);
	fprintf(f, "names: %zu in both, %zu vanished (only in old, %" PRIu64
		" bytes), %zu appeared (only in new, %" PRIu64 " bytes)\n",
		r->common, r->vanished.n, r->vanished.bytes, r->appeared.n,
		r->appeared.bytes);
}

/* A list's rows; for NAMES, under a title with the bytes it stands for. */
static void text_rows(FILE *f, const struct report *r, const char *title,
		      const struct list *l, bool names, char sign)
{
	size_t n = shown(r, l);

	fprintf(f, "\n%s (%zu of %zu %s", title, n, l->n,
		names ? "names" : "directories");
	if (names && l->bytes)
		fprintf(f, ", %c%" PRIu64 " bytes in all", sign, l->bytes);
	else if (names)
		fputs(", 0 bytes", f);
	fputs("):\n", f);
	if (!n) {
		fprintf(f, "  (none)\n");
		return;
	}
	fprintf(f, "%12s %12s %12s  %s%s\n", "old", "new", "diff",
		names ? "count     " : "", names ? "name" : "directory");
	for (size_t i = 0; i < n; i++) {
		const struct row *row = l->v[i];
		char count[32];

		fprintf(f, "%12" PRIu64 " %12" PRIu64 " %+12" PRId64 "  ",
			row->size[OLD], row->size[NEW], row->diff);
		if (names) {
			snprintf(count, sizeof(count), "%u->%u", row->count[OLD],
				 row->count[NEW]);
			fprintf(f, "%-10s", count);
		}
		fprintf(f, "%s\n", row->name);
	}
}

static void text_attribution(FILE *f, const struct report *r)
{
	const struct attribution *a = &r->attr;

	text_rows(f, r, "by directory", &r->dirs, false, 0);
	fprintf(f, "from %zu --objects file%s: %zu objects, %zu names defined\n",
		a->files, a->files == 1 ? "" : "s", a->objects, a->names);
	fprintf(f, "  names defined in several directories, split by object count: "
		"%zu (%" PRIu64 " -> %" PRIu64 " bytes)\n", a->ambiguous,
		a->ambiguous_size[OLD], a->ambiguous_size[NEW]);
	fprintf(f, "  names defined in no object, under " UNKNOWN_DIR ": %zu (%"
		PRIu64 " -> %" PRIu64 " bytes)\n", a->unknown,
		a->unknown_size[OLD], a->unknown_size[NEW]);
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void text_fates(FILE *f, const struct reasons *k)
{
	const char *sep = ": ";

	fprintf(f, "report: %zu IR definitions", k->definitions);
	for (size_t i = 0; i < k->nfates; i++, sep = ", ")
		fprintf(f, "%s%zu %s", sep, k->fates[i].n, k->fates[i].name);
	fprintf(f, "; %zu of the %zu names it keeps are in new\n",
		k->kept_in_new, k->kept_names);
}

static void text_bucket(FILE *f, const struct bucket *b, uint64_t total,
			const char *label)
{
	fprintf(f, "%12" PRIu64 " %6.2f%% %9zu %9zu  %s%s\n", b->bytes,
		percent(b->bytes, total), b->symbols, b->names, label, b->name);
}

/* The new image's bytes by keep reason (--report). */
static void text_reasons(FILE *f, const struct report *r)
{
	const struct reasons *k = &r->reasons;
	uint64_t total = k->total.bytes;

	fprintf(f, "\nby keep reason (the report %s of %s, %s):\n", k->file,
		k->output, k->mode);
	text_fates(f, k);
	fprintf(f, "%12s %7s %9s %9s  %s\n", "bytes", "share", "symbols", "names",
		"reason");
	for (size_t i = 0; i < k->n; i++)
		text_bucket(f, &k->b[i], total, k->b[i].kept ? "kept: " : "unexplained: ");
	text_bucket(f, &k->total, total, "");
}

void report_text(FILE *f, const struct report *r)
{
	text_header(f, r);
	text_rows(f, r, "largest decreases", &r->decreases, true, '-');
	text_rows(f, r, "largest increases", &r->increases, true, '+');
	text_rows(f, r, "vanished, only in old", &r->vanished, true, '-');
	text_rows(f, r, "appeared, only in new", &r->appeared, true, '+');
	if (r->attr.on)
		text_attribution(f, r);
	if (r->reasons.on)
		text_reasons(f, r);
}

/* ---- JSON ---- */

static void json_image(FILE *f, const char *key, const struct image *im)
{
	fprintf(f, "  \"%s\": {\"file\": ", key);
	json_string(f, im->file);
	fprintf(f, ", \"symbols\": %zu, \"aliases\": %zu, \"names\": %zu, \"size\": %"
		PRIu64 "},\n", im->symbols, im->aliases, im->names, im->size);
}

static void json_count(FILE *f, const char *key, size_t names, const char *what,
		       uint64_t bytes)
{
	fprintf(f, "    \"%s\": {\"names\": %zu, \"%s\": %" PRIu64 "},\n", key,
		names, what, bytes);
}

static void json_attribution(FILE *f, const struct attribution *a)
{
	if (!a->on) {
		fputs("    \"attribution\": null\n", f);
		return;
	}
	fprintf(f, "    \"attribution\": {\"files\": %zu, \"objects\": %zu, "
		"\"names\": %zu, \"policy\": \"split by object count\",\n",
		a->files, a->objects, a->names);
	fprintf(f, "      \"ambiguous\": {\"names\": %zu, \"old\": %" PRIu64
		", \"new\": %" PRIu64 "},\n", a->ambiguous,
		a->ambiguous_size[OLD], a->ambiguous_size[NEW]);
	fprintf(f, "      \"unknown\": {\"names\": %zu, \"old\": %" PRIu64
		", \"new\": %" PRIu64 ", \"directory\": \"" UNKNOWN_DIR "\"}}\n",
		a->unknown, a->unknown_size[OLD], a->unknown_size[NEW]);
}

static void json_totals(FILE *f, const struct report *r)
{
	uint64_t old = r->image[OLD].size, new = r->image[NEW].size;

	fprintf(f, "  \"totals\": {\n    \"old\": %" PRIu64 ", \"new\": %" PRIu64
		", \"diff\": %" PRId64 ", \"ratio\": ", old, new, (int64_t)(new - old));
	if (old)
		fprintf(f, "%.6f,\n", (double)new / (double)old);
	else
		fputs("null,\n", f);
	fprintf(f, "    \"common_names\": %zu, \"top\": %zu,\n", r->common, r->top);
	json_count(f, "vanished", r->vanished.n, "size", r->vanished.bytes);
	json_count(f, "appeared", r->appeared.n, "size", r->appeared.bytes);
	json_count(f, "decreased", r->decreases.n, "bytes", r->decreases.bytes);
	json_count(f, "increased", r->increases.n, "bytes", r->increases.bytes);
	json_attribution(f, &r->attr);
	fputs("  },\n", f);
}

/* Decreases first, then increases; each largest first, then by name. */
static int by_sign_and_change(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a;
	const struct row *y = *(const struct row *const *)b;
	uint64_t mx, my;

	if ((x->diff < 0) != (y->diff < 0))
		return x->diff < 0 ? -1 : 1;
	mx = x->diff < 0 ? (uint64_t)0 - (uint64_t)x->diff : (uint64_t)x->diff;
	my = y->diff < 0 ? (uint64_t)0 - (uint64_t)y->diff : (uint64_t)y->diff;
	if (mx != my)
		return mx < my ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void add_shown(const struct row **v, size_t *n, const struct report *r,
		      const struct list *l)
{
	for (size_t i = 0; i < shown(r, l); i++)
		v[(*n)++] = l->v[i];
}

/* The rows of the four text lists, each name once. */
static void json_symbols(FILE *f, const struct report *r)
{
	size_t n = 0, out = 0;
	const struct row **v = xcalloc(shown(r, &r->decreases) +
				       shown(r, &r->increases) +
				       shown(r, &r->vanished) +
				       shown(r, &r->appeared), sizeof(*v));

	add_shown(v, &n, r, &r->decreases);
	add_shown(v, &n, r, &r->increases);
	add_shown(v, &n, r, &r->vanished);
	add_shown(v, &n, r, &r->appeared);
	if (n)
		qsort(v, n, sizeof(*v), by_sign_and_change);
	fputs("  \"symbols\": [", f);
	for (size_t i = 0; i < n; i++) {
		if (i && v[i] == v[i - 1])
			continue;
		fprintf(f, "%s\n    {\"name\": ", out++ ? "," : "");
		json_string(f, v[i]->name);
		fprintf(f, ", \"status\": \"%s\", \"old\": %" PRIu64 ", \"new\": %"
			PRIu64 ", \"diff\": %" PRId64 ", \"old_count\": %u, "
			"\"new_count\": %u}", status(v[i]), v[i]->size[OLD],
			v[i]->size[NEW], v[i]->diff, v[i]->count[OLD],
			v[i]->count[NEW]);
	}
	fputs(out ? "\n  ],\n" : "],\n", f);
	free(v);
}

static void json_dirs(FILE *f, const struct report *r)
{
	size_t n = shown(r, &r->dirs);

	fputs("  \"directories\": [", f);
	for (size_t i = 0; i < n; i++) {
		const struct row *d = r->dirs.v[i];

		fprintf(f, "%s\n    {\"directory\": ", i ? "," : "");
		json_string(f, d->name);
		fprintf(f, ", \"old\": %" PRIu64 ", \"new\": %" PRIu64 ", \"diff\": %"
			PRId64 "}", d->size[OLD], d->size[NEW], d->diff);
	}
	fputs(n ? "\n  ],\n" : "],\n", f);
}

static void json_bucket(FILE *f, const struct bucket *b)
{
	fprintf(f, "{\"names\": %zu, \"symbols\": %zu, \"bytes\": %" PRIu64 "}",
		b->names, b->symbols, b->bytes);
}

/* The buckets of one kind (KEPT or not) as one object, by name. */
static void json_buckets(FILE *f, const struct reasons *k, bool kept)
{
	const char *sep = "";

	fputs("{", f);
	for (size_t i = 0; i < k->n; i++) {
		if (k->b[i].kept != kept)
			continue;
		fprintf(f, "%s\n      ", sep);
		json_string(f, k->b[i].name);
		fputs(": ", f);
		json_bucket(f, &k->b[i]);
		sep = ",";
	}
	fputs("}", f);
}

static void json_reasons(FILE *f, const struct reasons *k)
{
	if (!k->on) {
		fputs("  \"reasons\": null\n", f);
		return;
	}
	fputs("  \"reasons\": {\n    \"report\": ", f);
	json_string(f, k->file);
	fputs(", \"output\": ", f);
	json_string(f, k->output);
	fputs(", \"mode\": ", f);
	json_string(f, k->mode);
	fprintf(f, ",\n    \"definitions\": %zu, \"fates\": {", k->definitions);
	for (size_t i = 0; i < k->nfates; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, k->fates[i].name);
		fprintf(f, ": %zu", k->fates[i].n);
	}
	fprintf(f, "}, \"kept_names\": %zu, \"kept_names_in_new\": %zu,\n"
		"    \"kept\": ", k->kept_names, k->kept_in_new);
	json_buckets(f, k, true);
	fputs(",\n    \"unexplained\": ", f);
	json_buckets(f, k, false);
	fputs(",\n    \"total\": ", f);
	json_bucket(f, &k->total);
	fputs("}\n", f);
}

void report_json(FILE *f, const struct report *r)
{
	fputs("{\n", f);
	json_image(f, "old", &r->image[OLD]);
	json_image(f, "new", &r->image[NEW]);
	json_totals(f, r);
	json_symbols(f, r);
	json_dirs(f, r);
	json_reasons(f, &r->reasons);
	fputs("}\n", f);
}
